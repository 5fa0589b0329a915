"""``sphere eval claims``: are the claims a plan shows claims?

Every question of an understand set (``tests/data/understand_*.jsonl``) is
parsed by the rules (:func:`assistant.understand.parse_rules`), and each plan
with claims has both checked by :func:`assistant.understand.claim_check.check_claims`:
declarative (a finite verb with its subject, not a question), no template
words, not the question repeated. Figures (percent of questions whose two
claims both pass) per group:

* ``debates`` — the set's ``debate`` family;
* ``yes_no`` — English questions that open with an auxiliary ("Should …",
  "Is …", "Does …"), any family;
* ``non_english`` — the ``non_english`` family: the never-wrong labelled form
  ("Sí — ¿…?") is what they get by design, reported as ``labelled``;
* ``all`` — every question the parser gives claims to.

A group counts only the questions the parser gives claims to (a debate read as
factual has none, and its intent is ``sphere eval understand``'s to score).

Also the parser's load time and the claims' cost per question (the rules'
plan with and without the claims; the parse is the part that costs).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assistant.errors import SphereError
from assistant.eval.understand import Item, load_items

GROUPS = ("debates", "yes_no", "non_english", "all")


def _groups(item: Item, claims: tuple[str, str]) -> list[str]:
    from assistant.understand.claim_words import words
    from assistant.understand.language import claim_language

    out: list[str] = []
    if item.family == "debate":
        out.append("debates")
    first = item.question.split()[0] if item.question.split() else ""
    if words().aux_kind(first) is not None and claim_language(item.question) == "en":
        out.append("yes_no")
    if not (claims[0] or claims[1]):
        return []  # a factual question or a lookup: no claims to check
    if item.family == "non_english":
        out.append("non_english")
    return [*out, "all"]


def _figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)

    def pct(key: str) -> float | None:
        return round(100.0 * sum(1 for r in rows if r[key]) / n, 2) if n else None

    return {
        "n": n,
        "ok": pct("ok"),
        "declarative": pct("declarative"),
        "no_template": pct("no_template"),
        "not_repeated": pct("not_repeated"),
        "labelled": pct("labelled"),
    }


def check_items(
    items: Sequence[Item], make: Callable[[str], tuple[str, str]] | None = None
) -> dict[str, Any]:
    """Claims of every item checked; ``make`` (question -> claims) defaults to the rules'
    plan. Returns the figures per group and every question that fails."""
    from assistant.understand import parse_rules
    from assistant.understand.claim_check import check_claims

    make = make or (lambda q: parse_rules(q).claims)
    rows: dict[str, list[dict[str, Any]]] = {g: [] for g in GROUPS}
    failures = []
    for item in items:
        try:
            claims = make(item.question)
        except SphereError:
            claims = ("", "")
        groups = _groups(item, claims)
        if not groups:
            continue
        checks = check_claims(item.question, claims) if claims[0] else []
        row = {
            "ok": bool(checks) and all(c.ok for c in checks),
            "declarative": bool(checks) and all(c.declarative for c in checks),
            "no_template": bool(checks) and not any(c.template for c in checks),
            "not_repeated": bool(checks) and not any(c.repeats_question for c in checks),
            "labelled": any(c.labelled for c in checks),
        }
        for g in groups:
            rows[g].append(row)
        if not row["ok"]:
            failures.append(
                {
                    "id": item.id,
                    "question": item.question,
                    "claims": list(claims),
                    "why": [c.reason for c in checks] or ["no claims"],
                }
            )
    return {"groups": {g: _figures(r) for g, r in rows.items()}, "failures": failures}


def _cost(items: Sequence[Item]) -> dict[str, float]:
    """The parser's load time and the claims' share of the rules' time per question."""
    from assistant.understand import parse as parse_mod
    from assistant.understand import parse_rules

    t = time.perf_counter()
    parse_mod.english()
    load = parse_mod.LOAD_SECONDS[0] if parse_mod.LOAD_SECONDS else time.perf_counter() - t
    questions = [i.question for i in items]
    t = time.perf_counter()
    for q in questions:
        with contextlib.suppress(SphereError):
            parse_rules(q)
    per = (time.perf_counter() - t) / max(len(questions), 1)
    return {"parser_load_seconds": round(load, 3), "rules_ms_per_question": round(1000 * per, 2)}


def run_claims(data: str | Path, *, limit: int | None = None) -> dict[str, Any]:
    items = load_items(data)[:limit]
    cost = _cost(items)
    report = check_items(items)
    return {"benchmark": "claims", "data": str(data), "questions": len(items), **cost, **report}
