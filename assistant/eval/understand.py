"""``sphere eval understand``: the question parser on questions as people type them.

The sets are JSONL files written for Sphere (``tests/data/understand_dev.jsonl``
and ``understand_test.jsonl``; the format and the scoring are in
``tests/data/UNDERSTAND.md``). Per method and per family of question:

* **intent** — accuracy of ``two_sided`` / ``one_sided`` / ``factual`` / ``lookup``;
* **side** — accuracy of the wanted side over the gold one-sided questions (a
  wrong intent is a wrong side);
* **constraints** — micro precision, recall and F1 of (dimension, value,
  negated) triples, values matched as UNDERSTAND.md says;
* **aspects** — micro precision, recall and F1 of aspects matched one to one
  by content-word IoU ≥ 0.5 (the paper 003 §3.1 overlap, thresholded per
  aspect), over the questions with gold aspects.

Methods: ``rules`` (:func:`assistant.understand.parse_rules`), ``llm`` (the
configured model's whole plan, :func:`assistant.understand.model.llm_plan`)
and ``sphere`` (:func:`assistant.understand.understand` with the configured
``llm.use``: what ``sphere ask`` does).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import DataError, SphereError
from assistant.models import QueryPlan

INTENTS = ("two_sided", "one_sided", "factual", "lookup")
FAMILIES = (
    "debate",
    "one_sided",
    "lookup",
    "factual",
    "constrained",
    "audience_format",
    "non_english",
)
DIMENSIONS = ("language", "length", "source", "keyword", "format", "audience")
IOU = 0.5

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# function words that do not make two aspects or values the same
_STOP_WORDS = (
    "a an the of to in on for with and or by from at as is are be that which who "
    "it its this these those some any my me i we our your their"
)
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Item:
    id: str
    family: str
    question: str
    intent: str
    target_side: str | None
    constraints: tuple[tuple[str, str, bool], ...]
    aspects: tuple[str, ...]


def load_items(path: str | Path) -> list[Item]:
    """The JSONL set, checked line by line (:class:`DataError` names the line)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise DataError(f"{p}: no such file", hint="pass --data tests/data/understand_dev.jsonl")
    items: list[Item] = []
    seen: set[str] = set()
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{p}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise DataError(f"{p}:{n}: expected a JSON object")
        missing = [k for k in ("id", "question", "intent") if k not in row]
        if missing:
            raise DataError(f"{p}:{n}: missing {', '.join(missing)}")
        if row["intent"] not in INTENTS:
            raise DataError(f"{p}:{n}: intent must be one of {', '.join(INTENTS)}")
        side = row.get("target_side")
        if side not in (None, "pro", "con"):
            raise DataError(f"{p}:{n}: target_side must be pro, con or null")
        cons = []
        for c in row.get("constraints") or []:
            if not isinstance(c, dict) or c.get("dimension") not in DIMENSIONS or "value" not in c:
                raise DataError(f"{p}:{n}: a constraint needs a dimension and a value")
            cons.append((str(c["dimension"]), str(c["value"]), bool(c.get("negated", False))))
        if str(row["id"]) in seen:
            raise DataError(f"{p}:{n}: duplicate id {row['id']}")
        seen.add(str(row["id"]))
        items.append(
            Item(
                id=str(row["id"]),
                family=str(row.get("family") or "other"),
                question=str(row["question"]),
                intent=str(row["intent"]),
                target_side=side,
                constraints=tuple(cons),
                aspects=tuple(str(a) for a in row.get("aspects") or []),
            )
        )
    if not items:
        raise DataError(f"{p}: no questions")
    return items


# --------------------------------------------------------------------------- matching


def content_words(text: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(text)}
    return (words - _STOP) or words


def iou(a: str, b: str) -> float:
    wa, wb = content_words(a), content_words(b)
    if not wa and not wb:
        return 1.0
    return len(wa & wb) / len(wa | wb)


def _length(value: str) -> tuple[str, float | None]:
    v = value.strip().lower()
    if v in ("short", "long"):
        return ("<" if v == "short" else ">"), None
    m = re.fullmatch(r"([<>])\s*(\d+)", v)
    if m:
        return m.group(1), float(m.group(2))
    return v, None


def value_match(dimension: str, gold: str, pred: str) -> bool:
    """UNDERSTAND.md's rule: lower-cased equality; IoU ≥ 0.5 for keyword and
    source; direction (and numbers within 10 %) for length."""
    g, p = gold.strip().lower(), pred.strip().lower()
    if dimension in ("keyword", "source"):
        return g == p or iou(g, p) >= IOU
    if dimension == "length":
        (go, gn), (po, pn) = _length(g), _length(p)
        if go != po:
            return False
        return gn is None or pn is None or abs(gn - pn) <= 0.1 * gn
    return g == p


def match_one_to_one(
    gold: Sequence[Any], pred: Sequence[Any], same: Callable[[Any, Any], float]
) -> int:
    """Greedy one-to-one matching by score (> 0 means a match); the number matched."""
    pairs = sorted(
        ((same(g, p), i, j) for i, g in enumerate(gold) for j, p in enumerate(pred)),
        reverse=True,
    )
    used_g: set[int] = set()
    used_p: set[int] = set()
    n = 0
    for score, i, j in pairs:
        if score <= 0 or i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
        n += 1
    return n


def _constraint_score(g: tuple[str, str, bool], p: tuple[str, str, bool]) -> float:
    if g[0] != p[0] or g[2] != p[2] or not value_match(g[0], g[1], p[1]):
        return 0.0
    return 1.0 + (iou(g[1], p[1]) if g[0] in ("keyword", "source") else 0.0)


def _aspect_score(g: str, p: str) -> float:
    s = iou(g, p)
    return s if s >= IOU else 0.0


# --------------------------------------------------------------------------- scoring


@dataclass
class Tally:
    n: int = 0
    intent: int = 0
    side_n: int = 0
    side: int = 0
    con_gold: int = 0
    con_pred: int = 0
    con_hit: int = 0
    asp_gold: int = 0
    asp_pred: int = 0
    asp_hit: int = 0
    failures: int = 0
    confusion: dict[str, int] = field(default_factory=dict)

    def add(self, item: Item, plan: QueryPlan | None) -> None:
        self.n += 1
        if plan is None:
            self.failures += 1
        intent = plan.intent if plan else "none"
        self.intent += intent == item.intent
        key = f"{item.intent}->{intent}"
        self.confusion[key] = self.confusion.get(key, 0) + 1
        if item.intent == "one_sided":
            self.side_n += 1
            self.side += bool(
                plan and intent == "one_sided" and plan.target_side == item.target_side
            )
        pred_cons = [(c.dimension, c.value, c.negated) for c in plan.constraints] if plan else []
        self.con_gold += len(item.constraints)
        self.con_pred += len(pred_cons)
        self.con_hit += match_one_to_one(item.constraints, pred_cons, _constraint_score)
        if item.aspects:
            pred_asp = [a.text for a in plan.aspects] if plan else []
            self.asp_gold += len(item.aspects)
            self.asp_pred += len(pred_asp)
            self.asp_hit += match_one_to_one(item.aspects, pred_asp, _aspect_score)

    def report(self) -> dict[str, Any]:
        def pct(a: int, b: int) -> float | None:
            return round(100.0 * a / b, 2) if b else None

        def f1(p: float | None, r: float | None) -> float | None:
            if p is None or r is None:
                return None
            return round(2 * p * r / (p + r), 2) if p + r else 0.0

        cp, cr = pct(self.con_hit, self.con_pred), pct(self.con_hit, self.con_gold)
        if cp is None and self.con_gold == 0:
            cp = cr = None
        elif cp is None:
            cp = 0.0
        ap, ar = pct(self.asp_hit, self.asp_pred), pct(self.asp_hit, self.asp_gold)
        if ap is None and self.asp_gold:
            ap = 0.0
        return {
            "n": self.n,
            "intent_acc": pct(self.intent, self.n),
            "side_acc": pct(self.side, self.side_n),
            "side_n": self.side_n,
            "constraint_precision": cp,
            "constraint_recall": cr,
            "constraint_f1": f1(cp, cr),
            "constraints_gold": self.con_gold,
            "aspect_precision": ap,
            "aspect_recall": ar,
            "aspect_f1": f1(ap, ar),
            "aspects_gold": self.asp_gold,
            "failures": self.failures,
        }


def score(items: Sequence[Item], plans: Sequence[QueryPlan | None]) -> dict[str, Any]:
    """Overall and per-family figures, and the intent confusion counts."""
    total = Tally()
    families: dict[str, Tally] = {}
    for item, plan in zip(items, plans, strict=True):
        total.add(item, plan)
        families.setdefault(item.family, Tally()).add(item, plan)
    out = total.report()
    out["families"] = {f: t.report() for f, t in sorted(families.items())}
    out["intent_confusion"] = dict(sorted(total.confusion.items()))
    return out


def run_understand(
    data: str | Path,
    *,
    items: Sequence[Item] | None = None,
    methods: Sequence[str] = ("rules", "sphere"),
    backend: Any = None,
    use_llm: Any = "auto",
    limit: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Parse every question with each method and score the plans."""
    from assistant.understand import parse_rules, understand
    from assistant.understand.model import llm_plan

    items = list(items if items is not None else load_items(data))[:limit]
    parsers: dict[str, Callable[[str], QueryPlan]] = {
        "rules": parse_rules,
        "sphere": lambda q: understand(q, backend=backend, use_llm=use_llm),
    }
    if backend is not None:
        parsers["llm"] = lambda q: llm_plan(q, backend)
    report: dict[str, Any] = {
        "benchmark": "understand",
        "data": str(data),
        "questions": len(items),
        "methods": {},
        "misses": {},
    }
    for name in methods:
        if name not in parsers:
            raise DataError(
                f"method {name!r} is not available",
                hint="the llm method needs a loaded model (drop --no-llm)"
                if name == "llm"
                else "methods: rules, llm, sphere",
            )
        parse = parsers[name]
        plans: list[QueryPlan | None] = []
        t0 = time.perf_counter()
        for i, item in enumerate(items):
            try:
                plans.append(parse(item.question))
            except SphereError:
                plans.append(None)
            if progress:
                progress(name, i + 1, len(items))
        result = score(items, plans)
        result["seconds_per_question"] = round((time.perf_counter() - t0) / len(items), 4)
        report["methods"][name] = result
        report["misses"][name] = [
            {
                "id": it.id,
                "question": it.question,
                "gold": [it.intent, it.target_side],
                "got": [p.intent, p.target_side] if p else None,
            }
            for it, p in zip(items, plans, strict=True)
            if p is None
            or p.intent != it.intent
            or (it.intent == "one_sided" and p.target_side != it.target_side)
        ]
    if backend is not None:
        report["model"] = {k: v for k, v in backend.info().items() if k != "sha256"}
    return report
