"""The question's intent (two-sided, one-sided, factual, lookup) and wanted side."""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.models import Intent, QueryPerspective, Side
from assistant.understand.perspectives import _BOTH_FACETS
from assistant.understand.text import _words


def _is_wh(text: str) -> bool:
    first = _words(text[:40])[:1]
    return bool(first) and first[0] in lx.WH_WORDS


def _debatable(text: str) -> bool:
    words = set(_words(text))
    return bool(words & set(lx.DEBATE_CUES)) or bool(re.search(r"\bvs\.?\b|\bversus\b", text, re.I))


def decide_intent(
    q: str, root: str, perspectives: list[QueryPerspective], request: bool
) -> tuple[Intent, Side | None]:
    if _BOTH_FACETS.search(q):
        return "two_sided", None
    sides = {p.side for p in perspectives if p.side}
    if len(sides) == 1 and any(p.role in ("stance", "verdict") for p in perspectives):
        return "one_sided", sides.pop()
    if any(p.role == "verdict" for p in perspectives):
        return "factual", None
    if request and perspectives and all(p.role not in ("stance",) for p in perspectives):
        return "factual", None
    if _is_wh(root) and not _debatable(root):
        return "factual", None
    if _is_wh(q) and not _debatable(q) and not request:
        return "factual", None
    return "two_sided", None
