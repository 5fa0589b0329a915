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

_DROP_VERB = re.compile(
    r"\b(?P<v>forget(?: about)?|drop|ignore|skip|leave out|leave aside|set aside|"
    r"lose|scrap|bin|scratch|ditch|nix|toss|get rid of|kill|"
    r"take(?= (?:the |that |this )?[\w\- ]{1,40}? (?:back )?out\b)|"
    r"leave(?= (?:the |that |this )?[\w\- ]{1,40}? out of (?:it|this|that|the \w+)\b)|"
    r"(?:leave|set|put) (?:it|that|this|them) (?:out|aside)|"
    r"(?:leave|set|put|take|keep)(?= (?:the|that|this|those) (?:[\w\- ]{1,40}? )?(?:part|bit|stuff|"
    r"side|angle|aspect|thing) (?:out|aside)\b)|never ?mind|without(?= the [\w\- ]{1,40}? "
    r"(?:part|bit|stuff|side|angle|aspect|thing)s?\b)|"
    r"no longer (?:need|want|care about)|(?:do not|don't|dont) (?:need|want|care about)|"
    r"not interested in|(?:i'?m|i am) not interested in|remove|no more|"
    r"stop (?:with|focusing on|talking about)|disregard|omit|no need for|"
    r"(?:do not|don't|dont) (?:include|cover|discuss|bother with)|"
    r"(?:need|needs|have to|has to) not be|(?:do not|don't|does not|doesn't) (?:need|have) to be|"
    r"olvida(?:te)?(?: de)?|olvídate(?: de)?|quita|vergiss|oublie[z]?|laisse[z]? tomber|"
    r"lass|lasst|lascia(?:te)? (?:perdere|stare)|togli|esquece|deixa de lado|tira)\b"
    r"\s*(?P<x>.*)$",
    re.I,
)


_DROP_OBJECT_START = re.compile(
    r"^(?:(?:about|the|a|an|lo|del|de|la|el|los|las|die|der|das|den|le|les|l'|"
    r"discussion of|part about|stuff about|bit about|parte de|tema de|teil mit|partie sur)\s+)+",
    re.I,
)


_DROP_OBJECT_END = re.compile(
    r"(?:\s+(?:part|bit|aspect|angle|stuff|thing|question|considerations?|requirement|issue|"
    r"side|parte|tema|teil|partie|aspekt|discussion|studies|one))+$",
    re.I,
)


def _drop_aspect(text: str, previous: QueryPlan) -> FollowUp | None:
    """Rule 5: a facet of the answer dropped ("forget the cost part"; "leave it aside"
    about a facet the turn names; "no turnout" after "turnout?")."""
    taken_back = _taken_back(text, previous)
    if taken_back is not None:
        return taken_back
    t = re.sub(
        r"^\s*(?:never mind|nvm)[,.]?\s+(?=(?:skip|drop|forget|ignore|remove|leave|lose)\b)",
        "",
        text,
        flags=re.I,
    )
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
    no = re.fullmatch(
        r"\s*(?:no|not|without|no more|less)\s+(?:the\s+)?"
        r"(?P<x>[^\W\d_][\w\-]*(?:\s+[\w\-]+){0,2}?)"
        r"(?:\s+(?:part|bit|stuff|angle|aspect|please|pls|after all|then))*\s*[?.!]*\s*",
        text,
        re.I,
    )
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
    obj = re.sub(
        r"(?:\s+back)?\s+(?:out|aside|weg)(?:\s+of\s+(?:it|this|that|the \w+))?"
        r"(?:\s+(?:again|now|please|too))?\s*$",
        "",
        obj,
        flags=re.I,
    )
    obj = _DROP_OBJECT_START.sub("", obj.strip())
    marked = bool(_DROP_OBJECT_END.search(obj))
    while True:
        trimmed = _DROP_OBJECT_END.sub("", obj).strip(" .")
        trimmed = re.sub(
            r"\s+(?:now|please|pls|too|then|anymore|any more|thanks|again|after all|"
            r"altogether|entirely)$",
            "",
            trimmed,
        )
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
    r"\s*(?:[,;:?!]|\.\s|\.$|\s(?:if|since|because|as|so)\s|"
    r"\s(?=(?:my|i|i'm|we|our|they|he|she)\s+\w+))",
    re.I,
)
