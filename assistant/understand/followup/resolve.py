"""The order of the rules (docs/ARCHITECTURE.md, "Follow-ups: the rules"): :func:`resolve`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.models import QueryPlan
from assistant.understand.followup.constraint import _constraint_edit
from assistant.understand.followup.drop import _drop_aspect
from assistant.understand.followup.edits import FollowUp, Rule
from assistant.understand.followup.facet import _facet_edit, _property, _restated
from assistant.understand.followup.group import _group_view
from assistant.understand.followup.learned import _learned_kind, _second_opinion
from assistant.understand.followup.more import _more
from assistant.understand.followup.normalise import (
    _CLAUSE_SPLIT,
    _LABEL,
    _OWN_QUESTION,
    _POINTS_BACK,
    _QUESTION_START,
    _SENTENCE,
    _reaction,
    _repair,
    unwrap,
)
from assistant.understand.followup.readers import _Turn
from assistant.understand.followup.references import _about_asked, _reference
from assistant.understand.followup.sides import _one_side_edit
from assistant.understand.followup.words import _REQUEST_VERBS, _residue
from assistant.understand.text import check_question

if TYPE_CHECKING:  # the judge imports the resolver settings: no import cycle at run time
    from assistant.understand.facet_judge import FacetJudge


def _read(text: str, previous: QueryPlan, judge: FacetJudge | None) -> FollowUp | None:
    """One request read against the previous plan by rules 1-7, in their order (the
    table in docs/ARCHITECTURE.md), or None: a topic of its own. Rule 1 reads the turn as
    typed; the others read it without its polite wrapper; a property ("with no ricotta")
    is read before the constraints, and a drop as typed before a drop unwrapped."""
    q = unwrap(text)
    rules: tuple[Callable[[], FollowUp | None], ...] = (
        lambda: _reference(text, previous),  # 1 a reference number
        lambda: _property(q, previous),  # 7 a property of what is wanted ("with no X")
        lambda: _more(q, previous),  # 2 more of the same ranking
        lambda: _one_side_edit(q, previous),  # 3 one side
        lambda: _constraint_edit(q, previous),  # 4 constraint phrases only
        lambda: _drop_aspect(text, previous) or _drop_aspect(q, previous),  # 5 drop a facet
        lambda: _group_view(q, previous),  # 6 a group's view
        lambda: _facet_edit(q, previous, judge),  # 7 a facet
    )
    for rule in rules:
        found = rule()
        if found:
            return found
    return None


def resolve(
    text: object,
    previous: QueryPlan | None,
    judge: FacetJudge | None = None,
    asked: tuple[str, list[int]] | None = None,
) -> FollowUp:
    """Read ``text`` against the previous turn's plan (docs/ARCHITECTURE.md, "Follow-ups:
    the rules"): the turn normalised (:func:`_repair`, a label taken off), then rules 1-7
    on the whole turn, on its requests one by one, on a comment and a request, the
    previous question restated, and last rules 8 and 9 (the learned readers).

    ``judge`` (:class:`~assistant.understand.facet_judge.FacetJudge`): the learned readers
    and the resolver's settings; without it the rules read alone. ``asked``: when the turn
    just before was a question about the answer, its edit and reference numbers
    (``("explain_ref", [5])``), for a turn that points back at them."""
    raw = check_question(text)
    if previous is None:
        return FollowUp(False, "new_topic", by=Rule.FIRST_TURN)
    turn = _Turn(judge, raw, previous)
    fixed = _repair(raw).replace("¿", "").replace("¡", "")
    found = _about_asked(fixed, asked) if asked else None
    if found:
        return found
    label = _LABEL.match(fixed)
    if label:
        fixed = fixed[label.end() :]
        if label.group("new") and not _POINTS_BACK.search(fixed):
            # a label that announces something new, and nothing in the rest that points
            # back at the answer or asks to change it
            return FollowUp(False, "new_topic", by=Rule.ANNOUNCED)
    found = (
        _read(fixed, previous, judge)
        or _by_sentence(fixed, previous, judge)
        or _comment_and_request(fixed, previous)
        or _restated(fixed, previous)
    )
    if found:
        return _second_opinion(found, fixed, previous, judge, turn)
    return _learned_kind(fixed, previous, judge, turn) or FollowUp(
        False, "new_topic", by=Rule.NEW_TOPIC
    )


def _by_sentence(text: str, previous: QueryPlan, judge: FacetJudge | None) -> FollowUp | None:
    """A turn of several sentences read by its request, sentences of thanks or reaction
    set aside; a sentence that asks a question of its own makes none of them count."""
    parts = [p for p in _SENTENCE.split(text) if p.strip()]
    requests = [p for p in parts if not _reaction(p)]
    if not ((requests and len(requests) < len(parts)) or len(requests) > 1):
        return None
    reads = [(_read(p, previous, judge), p) for p in requests]
    follow = [r for r, _ in reads if r is not None]
    asks = [
        p
        for r, p in reads
        if r is None and p.rstrip().endswith("?") and _residue(unwrap(p), also=_REQUEST_VERBS)
    ]
    own = [p for r, p in reads if r is None and _OWN_QUESTION.search(p)]
    if not follow or asks or own:
        return None
    # a request that names its edit outranks a phrase read as a facet
    found = sorted(follow, key=lambda r: r.by.number == 7)[0]
    same = [r for r in follow if r.edit == found.edit]
    if found.edit in ("add_aspect", "add_perspective") and len(same) > 1:
        # the same request said twice, the second time in English: its last saying
        found = same[-1]
    return found


def _comment_and_request(text: str, previous: QueryPlan) -> FollowUp | None:
    """ "those feel shallow, only the long ones", "only short stuff pls, i have like an
    hour": a request that names its edit, beside a short comment on the answer or on the
    user's needs (no question, at most four words of its own). A phrase read only as a
    facet is not enough here: "what about tea, should we tax it" is a question of its own."""
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if c.strip()]
    if len(clauses) < 2:
        return None
    # a clause read only as a facet is set aside below, so the facet judge is not asked
    reads = [(_read(c, previous, None), c) for c in clauses]
    follow = [r for r, _ in reads if r is not None and r.by.number != 7]
    rest = [c for r, c in reads if r is None or r.by.number == 7]
    if len(follow) != 1:
        return None
    for c in rest:
        if c.rstrip().endswith("?") or _QUESTION_START.match(unwrap(c)) or _OWN_QUESTION.search(c):
            return None
        if len(_residue(c, previous=previous)) > 4:
            return None
    return follow[0]
