"""A query plan as editable YAML text, and back (no ``textual``).

The plan editor shows this text in a TextArea; "re-run with this plan" parses
it and passes the plan to ``Pipeline.run(question, plan=...)``. Parsing errors
are :class:`~assistant.errors.InputError` with a message that names the field.
"""

from __future__ import annotations

from typing import Any

import yaml

from assistant.errors import InputError
from assistant.models import SIDES, Aspect, Constraint, QueryPerspective, QueryPlan

HEADER = (
    "# Edit the plan, then choose “Re-run with this plan” (Ctrl+S).\n"
    "# intent: two_sided | one_sided | factual | lookup (a ranked list, no claims)\n"
    "# side / target_side: pro | con | null\n"
    "# constraint dimensions: audience, keyword, format, language, length, source\n"
)
INTENTS = ("two_sided", "one_sided", "factual", "lookup")
DIMENSIONS = ("audience", "keyword", "format", "language", "length", "source")


def plan_to_text(plan: QueryPlan) -> str:
    data: dict[str, Any] = {
        "root_query": plan.root_query,
        "claims": {"pro": plan.claims[0], "con": plan.claims[1]},
        "intent": plan.intent,
        "target_side": plan.target_side,
        "perspectives": [
            {"text": p.text, "role": p.role, "side": p.side} for p in plan.perspectives
        ],
        "aspects": [a.text for a in plan.aspects],
        "constraints": [
            {"dimension": c.dimension, "value": c.value, "negated": c.negated, "hard": c.hard}
            for c in plan.constraints
        ],
    }
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    return HEADER + body


def _side(value: Any, where: str) -> str | None:
    if value in (None, "", "null", "none"):
        return None
    if value not in SIDES:
        raise InputError(f"{where} must be pro, con or null, not {value!r}")
    return str(value)


def _items(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise InputError(f"'{key}' must be a list (lines starting with '- ')")
    return value


def text_to_plan(text: str, original: QueryPlan) -> QueryPlan:
    """Parse the edited text; the question is kept from ``original``."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise InputError(f"the plan is not valid YAML{where}") from None
    if not isinstance(data, dict):
        raise InputError("the plan must be a mapping with root_query, claims, …")
    unknown = set(data) - {
        "root_query",
        "claims",
        "intent",
        "target_side",
        "perspectives",
        "aspects",
        "constraints",
    }
    if unknown:
        raise InputError(f"unknown plan field '{sorted(unknown)[0]}'")
    root = str(data.get("root_query") or "").strip()
    if not root:
        raise InputError("root_query must not be empty")

    claims_raw = data.get("claims") or {}
    if isinstance(claims_raw, list) and len(claims_raw) == 2:
        claims_raw = {"pro": claims_raw[0], "con": claims_raw[1]}
    if not isinstance(claims_raw, dict):
        raise InputError("claims must have a 'pro' and a 'con' line")
    claims = (str(claims_raw.get("pro") or ""), str(claims_raw.get("con") or ""))

    intent = data.get("intent") or "two_sided"
    if intent not in INTENTS:
        raise InputError(f"intent must be one of {', '.join(INTENTS)}, not {intent!r}")

    perspectives = []
    for i, p in enumerate(_items(data, "perspectives"), 1):
        if isinstance(p, str):
            p = {"text": p}
        if not isinstance(p, dict) or not str(p.get("text") or "").strip():
            raise InputError(f"perspective {i} needs a 'text'")
        perspectives.append(
            QueryPerspective(
                text=str(p["text"]).strip(),
                role=str(p.get("role") or "other"),
                side=_side(p.get("side"), f"perspective {i} side"),  # type: ignore[arg-type]
            )
        )

    aspects = []
    for a in _items(data, "aspects"):
        a_text = a.get("text") if isinstance(a, dict) else a
        if str(a_text or "").strip():
            aspects.append(Aspect(text=str(a_text).strip()))

    constraints = []
    for i, c in enumerate(_items(data, "constraints"), 1):
        if not isinstance(c, dict):
            raise InputError(f"constraint {i} must have dimension and value")
        dim = str(c.get("dimension") or "")
        if dim not in DIMENSIONS:
            raise InputError(
                f"constraint {i}: dimension must be one of {', '.join(DIMENSIONS)}, not {dim!r}"
            )
        constraints.append(
            Constraint(
                dimension=dim,
                value=str(c.get("value") or ""),
                negated=bool(c.get("negated", False)),
                hard=bool(c.get("hard", True)),
            )
        )

    return QueryPlan(
        question=original.question,
        root_query=root,
        perspectives=perspectives,
        aspects=aspects,
        claims=claims,
        constraints=constraints,
        intent=intent,  # type: ignore[arg-type]  # checked against INTENTS above
        target_side=_side(data.get("target_side"), "target_side"),  # type: ignore[arg-type]
        source="user",
        # an edited follow-up still follows its turn
        follows=original.follows,
        derivation=(original.derivation + "; edited by you") if original.follows else "",
    )
