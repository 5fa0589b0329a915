"""Rule 2: a request for more of the same ranking, with the side it names (both sides
after a two-sided plan, the side in force after a one-sided one).
"""

from __future__ import annotations

from assistant.models import QueryPlan
from assistant.understand.followup.edits import FollowUp, _one_sided, _other, _page
from assistant.understand.followup.sides import (
    _BOTH_SIDES,
    _CON_WORDS,
    _MORE_CUE,
    _MORE_WORDS,
    _OTHER_SIDE,
    _PRO_WORDS,
    _TERSE_SIDE,
    _arguments_side,
)
from assistant.understand.followup.words import _residue, _words


def _more(q: str, previous: QueryPlan) -> FollowUp | None:
    if not _MORE_CUE.search(q):
        return None
    both = _BOTH_SIDES.search(q)
    if both:  # "more for both positions please"
        if _residue(q, [both.span()], previous, also=_MORE_WORDS | {"for", "from", "on"}):
            return None
        return _page(previous, "both")
    named = _arguments_side(q, previous)
    if named is not None:
        if _residue(q[: named[1]], previous=previous, also=_MORE_WORDS | {"material"}):
            return None
        return _page(previous, named[0])
    if _residue(q, previous=previous, also=_MORE_WORDS | _CON_WORDS | _PRO_WORDS):
        return None
    words = set(_words(q))
    prev_side = _one_sided(previous)
    side: str | None = None
    if _OTHER_SIDE.search(q):
        side = _other(prev_side) if prev_side else None
    if side is None:
        con = bool(words & _CON_WORDS) or bool(_TERSE_SIDE["con"].search(q))
        pro = bool(words & _PRO_WORDS) or bool(_TERSE_SIDE["pro"].search(q))
        side = "con" if con and not pro else "pro" if pro and not con else None
    if side is None:
        side = prev_side or "both"
    return _page(previous, side)
