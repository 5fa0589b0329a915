"""Rule 5: a facet of the answer dropped ("forget the cost part"; "leave it aside" about a
facet the turn names).
"""

from __future__ import annotations

import re

from assistant.models import QueryPlan
from assistant.understand.followup import words as fw
from assistant.understand.followup.constraint import _names_constraint
from assistant.understand.followup.edits import FollowUp, Rule, _drop, _edit, _without
from assistant.understand.followup.sides import _SIDE_RESIDUE
from assistant.understand.followup.words import (
    _CLAUSE,
    _PRONOUN_OBJECT,
    _content,
    _residue,
    _stem,
    _tokens,
)
from assistant.understand.vocab import VOCAB, alternation

# the words of rule 5 (words/references.yaml, section drop), each list read here once
_W = VOCAB.references.drop

_DROP_VERB = re.compile(
    r"\b(?P<v>" + alternation(_W.verbs, _W.verb_patterns, space=" ") + r")\b\s*(?P<x>.*)$",
    re.I,
)


_DROP_OBJECT_START = re.compile(r"^(?:" + alternation(_W.object_starts, space=" ") + r"\s+)+", re.I)


_DROP_OBJECT_END = re.compile(r"(?:\s+" + alternation(_W.object_ends) + r")+$", re.I)


# "never mind, skip the cost": the words before a drop verb taken off
_NEVER_MIND = re.compile(
    r"^\s*"
    + alternation(_W.never_minds, space=" ")
    + r"[,.]?\s+(?="
    + alternation(_W.never_mind_verbs)
    + r"\b)",
    re.I,
)


# "no turnout" after "turnout?"
_TAKEN_BACK = re.compile(
    r"\s*"
    + alternation(_W.taken_back, space=" ")
    + r"\s+(?:the\s+)?(?P<x>[^\W\d_][\w\-]*(?:\s+[\w\-]+){0,2}?)(?:\s+"
    + alternation(_W.taken_back_tails, space=" ")
    + r")*\s*[?.!]*\s*",
    re.I,
)


# the particle after a dropped facet and the words after it ("take the costs out again")
_OBJECT_PARTICLE = re.compile(
    r"(?:\s+back)?\s+"
    + alternation(_W.object_particles)
    + r"(?:\s+of\s+(?:it|this|that|the \w+))?(?:\s+"
    + alternation(_W.object_particle_tails)
    + r")?\s*$",
    re.I,
)


# the words at the end of a dropped facet that are not the facet (matched as written:
# lower case)
_OBJECT_TAIL = re.compile(r"\s+" + alternation(_W.object_tails, space=" ") + "$")


def _drop_aspect(text: str, previous: QueryPlan) -> FollowUp | None:
    """Rule 5: a facet of the answer dropped ("forget the cost part"; "leave it aside"
    about a facet the turn names; "no turnout" after "turnout?")."""
    taken_back = _taken_back(text, previous)
    if taken_back is not None:
        return taken_back
    t = _NEVER_MIND.sub("", text)
    m = _DROP_VERB.search(t)
    if m is None:
        return None
    obj, marked = _drop_object(m.group("x"))
    if re.search(r"\d", obj) or _CLAUSE.search(" " + obj):
        return None  # "forget that should libraries still charge fines": a new question
    if _PRONOUN_OBJECT.match(obj) or "aside" in m.group("v").lower():
        value = _facet_pointed_at(t, obj, previous)
    else:
        value = obj
    if not value or not 1 <= len(_content(value)) <= 4:
        return None
    if not marked and _names_constraint(value.lower()):
        return None  # "leave out blogs": a source, not a facet (a capital is no sign of a
        # name here: "lass die Wirtschaft weg")
    # what comes before the verb may only name the facet and say why it goes ("the
    # accessibility question is a separate matter, so …")
    if _residue(t[: m.start()], previous=previous, also=_SIDE_RESIDUE | fw.DROP_REASONS):
        return None
    return _drop(previous, value)


def _taken_back(text: str, previous: QueryPlan) -> FollowUp | None:
    """ "no turnout" after "turnout?": a facet of the plan taken back."""
    no = _TAKEN_BACK.fullmatch(text)
    if not no:
        return None
    stems = {_stem(w) for w in _content(no.group("x"))}
    for a in previous.aspects:
        if stems and stems <= {_stem(w) for w in _content(a.text)}:
            x = no.group("x")
            return _edit(
                previous,
                "drop_aspect",
                x,
                Rule.DROP_FACET,
                [f"- aspect {x}"],
                lambda plan: _without(plan, stems),
            )
    return None


def _drop_object(x: str) -> tuple[str, bool]:
    """The object of a drop verb without its reason, particles, determiners and the
    words that mark it as a part ("the academic results part"), and whether it was so
    marked (then it is a facet, whatever it names)."""
    obj = _DROP_REASON.split(x)[0]  # "skip the pdfs my phone hates em"
    obj = _OBJECT_PARTICLE.sub("", obj)
    obj = _DROP_OBJECT_START.sub("", obj.strip())
    marked = bool(_DROP_OBJECT_END.search(obj))
    while True:
        trimmed = _DROP_OBJECT_END.sub("", obj).strip(" .")
        trimmed = _OBJECT_TAIL.sub("", trimmed)
        if trimmed == obj:
            return obj, marked
        obj = trimmed


def _facet_pointed_at(t: str, obj: str, previous: QueryPlan) -> str | None:
    """ "leave it aside": the facet of the previous plan the turn names; else the object
    itself; after a pronoun alone, the facet just added ("leave that part out")."""
    words = _tokens(t)
    for a in previous.aspects:
        stems = {_stem(w) for w in _content(a.text)}
        named = [w for w, _, _ in words if _stem(w) in stems]
        if named:
            return " ".join(named)
    if not _PRONOUN_OBJECT.match(obj):
        return obj
    if previous.aspects and previous.derivation.startswith("add_aspect"):
        return previous.aspects[-1].text
    return None


# where a dropped facet's words end: a reason or a new clause about the user
_DROP_REASON = re.compile(
    r"\s*(?:[,;:?!]|\.\s|\.$|\s"
    + alternation(_W.reason_links)
    + r"\s|\s(?="
    + alternation(_W.reason_subjects)
    + r"\s+\w+))",
    re.I,
)
