"""Rules 8 and 9 and the second opinion: what the learned readers (:mod:`.readers`) make
of a turn the rules read as a topic of its own, and when they overrule a reading of
rules 2-7.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.models import QueryPlan, Side
from assistant.understand.followup.edits import FollowUp, Rule, _one_side, _one_sided, _page
from assistant.understand.followup.lenient import (
    _LENIENT,
    _guided_constraint,
    _sibling_span,
    _span_edit,
)
from assistant.understand.followup.normalise import unwrap
from assistant.understand.followup.readers import _Turn, settings_of
from assistant.understand.followup.settings import (
    SECOND_OPINION_RULES,
    SPAN_KINDS,
    ResolverSettings,
)
from assistant.understand.followup.sides import _arguments_side, _side_named
from assistant.understand.followup.words import _REQUEST_VERBS, _content, _residue, _stem, _words

if TYPE_CHECKING:  # the judge imports the resolver settings: no import cycle at run time
    from assistant.understand.facet_judge import FacetJudge


def _learned_kind(
    text: str, previous: QueryPlan, judge: FacetJudge | None, turn: _Turn | None = None
) -> FollowUp | None:
    """Rules 8 and 9: a turn the rules read as a topic of its own, which the trained
    turn-kind model (:mod:`assistant.understand.turn_kind`) and the turn reader
    (:mod:`assistant.understand.reader`) read as an edit.

    Rule 8: a request for more or for one side at P >= ``min_p`` is that edit when its words
    say the side (for "more", the side in force otherwise; for one side, else the side
    whose claim the turn states, as the stance model judges it, else the side the
    reader reads). Rule 9: a constraint, a facet, a group's view or a dropped facet at
    P >= its ``lenient_<kind>`` is that edit when a reader of the kind finds its value in
    the turn: the reader's span (the words it points at), the constraint finders with
    words of the turn's own allowed beside them, the group a view frame or a person noun
    names, the facet a frame names anywhere in the turn, the dropped facet the turn
    names."""
    if judge is None:
        return None
    q = unwrap(text)
    if not _residue(q, also=_REQUEST_VERBS):
        return None  # "Could you add that?": a request pointing back says nothing to read
    turn = turn or _Turn(judge, text, previous)
    read = turn.kind(text)
    if read is None:
        return None
    found = _as_kind(read[0], read[1], q, previous, judge, turn)
    edit_sure_p = turn.settings.edit_sure_p
    if found is not None or edit_sure_p > 1:
        return found
    mixed = turn.kinds(text)
    if mixed is None or 1 - mixed.get("new_topic", 0.0) < edit_sure_p:
        return None
    # an edit, surely, of no kind surely ("skip the videos my laptop can't play them":
    # a constraint or a dropped facet): the likeliest kinds whose reader finds a value
    for kind in sorted(_LENIENT, key=lambda k: -mixed.get(k, 0.0))[:2]:
        if kind != read[0] and mixed.get(kind, 0.0) > 0:
            sure = max(mixed[kind], turn.settings.lenient_p(kind))
            found = _as_kind(kind, sure, q, previous, judge, turn)
            if found is not None:
                return found
    return None


def _as_kind(
    kind: str,
    p: float,
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    turn: _Turn | None = None,
) -> FollowUp | None:
    """The turn read as the edit the turn-kind model names, at probability ``p`` (rules 8
    and 9), or None when the kind's reader finds no value or the model is not sure
    enough."""
    settings = turn.settings if turn is not None else settings_of(judge)
    if kind in _LENIENT:
        found = _as_edit(kind, p, q, previous, turn, settings)
        if found is not None:
            found.by, found.note = Rule.LEARNED_EDIT, f" ({kind} {p:.2f})"
        return found
    if p < settings.min_p or kind not in ("more", "one_side"):
        return None
    return _as_request(kind, p, q, previous, judge, turn, settings)


def _as_edit(
    kind: str,
    p: float,
    q: str,
    previous: QueryPlan,
    turn: _Turn | None,
    settings: ResolverSettings,
) -> FollowUp | None:
    """Rule 9: a constraint, a facet, a group's view or a dropped facet, when a reader of
    the kind finds its value (the module docstring of :mod:`.lenient`)."""
    if p < settings.lenient_p(kind):
        return None
    read = _LENIENT[kind]
    found = _span_edit(kind, previous, turn) if settings.span_first else None
    if found is not None and settings.extend_span and isinstance(found.value, str):
        ruled = read(q, previous, p, settings)
        if ruled is not None and isinstance(ruled.value, str):
            mine, theirs = set(_content(found.value)), set(_content(ruled.value))
            if mine < theirs and len(_words(ruled.value)) <= 8:
                found = ruled  # the clause the span begins: "dentists of the NHS"
    found = found or read(q, previous, p, settings)
    if found is None and kind == "add_constraint":
        found = _guided_constraint(q, previous, turn)
    if found is None and not settings.span_first:
        found = _span_edit(kind, previous, turn)
    if (
        found is not None
        and found.edit == "add_aspect"
        and isinstance(found.value, str)
        and _sibling_span(found.value, turn.raw if turn is not None else q, previous)
    ):
        return None  # "what about rewilding in the Lake District?" after "… Highlands"
    return found


def _as_request(
    kind: str,
    p: float,
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    turn: _Turn | None,
    settings: ResolverSettings,
) -> FollowUp | None:
    """Rule 8: a request for more or for one side, with the side its words name (for
    "more", the side in force otherwise; for one side, else the side whose claim the turn
    states, as the stance model judges it, else the side the readers read)."""
    by, note = Rule.LEARNED_REQUEST, f" ({kind} {p:.2f})"
    if kind == "one_side":
        # a statement of its own ("the arguments that zoos are essential for saving
        # endangered animals") is judged whole before its words are read one by one
        argued = _arguments_side(q, previous)
        side = argued[0] if argued else _side_by_claim(q, previous, judge, settings)
        if side is not None and argued is None:
            note += " by the stance model"
        side = side or _side_named(q, previous)
        if side is None:
            side = _read_side(q, previous, judge, turn, ("pro", "con"), settings)
            note += " side by the side reader" if side is not None else ""
        return _one_side(previous, side, by, note) if side is not None else None
    side = _side_named(q, previous) or _one_sided(previous)
    if side is None:
        side = _read_side(q, previous, judge, turn, ("pro", "con", "both"), settings)
        note += " side by the side reader" if side is not None else ""
    return _page(previous, side or "both", by, note)


def _read_side(
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    turn: _Turn | None,
    allowed: tuple[str, ...],
    settings: ResolverSettings,
) -> Side | None:
    """The side a request names in words no rule knows: the turn reader's, at
    ``settings.side_p``, else the logistic side reader's (:func:`_learned_side`)."""
    reading = turn.reading() if turn is not None else None
    if reading is not None and reading.side in allowed and reading.side_p >= settings.side_p:
        return reading.side
    return _learned_side(q, previous, judge, allowed, settings)


def _learned_side(
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    allowed: tuple[str, ...],
    settings: ResolverSettings,
) -> Side | None:
    """The side the trained side reader (:mod:`assistant.understand.turn_kind`) reads in a
    request whose words name none the rules know ("only the ban camp", "give me the 'yes,
    keep it' people only"), when it is at least ``settings.side_reader_p`` sure and the side
    is one of ``allowed``; only after a two-sided turn, the context it was trained in."""
    if _one_sided(previous) or not hasattr(judge, "side"):
        return None
    read = judge.side(q, previous.root_query or previous.question)
    if read is None or read[1] < settings.side_reader_p or read[0] not in allowed:
        return None
    return read[0]  # type: ignore[return-value]


def _overlap(a: str, b: str) -> float:
    """Content-word IoU of two phrases, on stems (as the eval compares values)."""
    sa, sb = {_stem(w) for w in _content(a)}, {_stem(w) for w in _content(b)}
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _second_opinion(
    found: FollowUp,
    text: str,
    previous: QueryPlan,
    judge: FacetJudge | None,
    turn: _Turn | None = None,
) -> FollowUp:
    """A reading of rules 2-7 stands unless the turn-kind model reads another kind at
    P >= ``settings.second_opinion_p`` and that kind's reader finds its value ("focus on the
    arguments against it": a side, not a facet), or reads a new topic that sure ("buy a
    house or rent?"). A facet, dropped facet or group of rules 5-7 takes the reader's
    span instead when the reader reads the same kind at ``settings.override_p`` and points
    at other words ("What about children? Parents keep writing in.")."""
    if judge is None or not found.follows or found.by.number not in SECOND_OPINION_RULES:
        return found
    turn = turn or _Turn(judge, text, previous)
    read = turn.kind(text)
    if read is None or read[0] == found.edit or read[1] < turn.settings.second_opinion_p:
        return _override_value(found, previous, turn)
    kind, p = read
    if kind == "new_topic":
        return FollowUp(False, "new_topic", by=Rule.LEARNED_NEW_TOPIC, note=f" (new_topic {p:.2f})")
    other = _as_kind(kind, p, unwrap(text), previous, judge, turn)
    return other or _override_value(found, previous, turn)


def _override_value(found: FollowUp, previous: QueryPlan, turn: _Turn) -> FollowUp:
    if (
        turn.settings.override_p > 1
        or found.edit not in SPAN_KINDS
        or found.by.number not in (5, 6, 7)
        or not isinstance(found.value, str)
    ):
        return found
    reading = turn.reading()
    if reading is None or reading.kinds.get(found.edit, 0.0) < turn.settings.override_p:
        return found
    other = _span_edit(found.edit, previous, turn)
    if other is None or _overlap(str(other.value), found.value) >= 0.5:
        return found
    other.by, other.note = found.by, found.note + ", value by the turn reader"
    return other


# a side named by what it claims ("only the ones saying servers would end up earning
# less", "the position that rejoining would strengthen the economy")
_CLAIMED = re.compile(
    r"\b(?:arguments?|case|side|ones|people|those|camp|view|position|folks|sources|stuff|"
    r"articles|evidence|reasons?|points?|material|voices|perspective|take|studies)\s+"
    r"(?:(?:from|of)\s+(?:people|those|folks)\s+)?(?:(?:(?:that|which|who)\s+)?"
    r"(?:say|says|saying|sayin|argue|argues|arguing|claim|claims|claiming|think|thinks|"
    r"believe|believes|feel|feels|insist|insists|insisting|assert|asserts|asserting|maintain|"
    r"maintains|stating|states|contend|contends|holding|hold|holds)\b\s*(?:that\s+)?|that\s+)"
    r"(?P<c>[^\W\d_].*?)\s*[?.!]*$",
    re.I,
)


def _side_by_claim(
    q: str, previous: QueryPlan, judge: FacetJudge, settings: ResolverSettings
) -> Side | None:
    """The side whose claim the turn's own statement supports, as the stance model
    (:mod:`assistant.stance`) judges the statement against the previous plan's two claims;
    None when the turn states nothing, or the model is unsure."""
    if not all(previous.claims):
        return None
    m = _CLAIMED.search(q)
    if m is None or not _content(m.group("c")):
        return None
    p = judge.claim_side(previous.claims_question(), previous.claims, m.group("c"))
    if p is None:
        return None
    a, b = p[0], p[1]
    if max(a, b) < p[2] or max(a, b) / max(a + b, 1e-9) < settings.claimed_side_p:
        return None
    return "pro" if a > b else "con"
