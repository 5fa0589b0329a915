"""Rule 6: a group's view of the same topic ("what do teachers say?", "qu'en pensent les
médecins ?"), or a group named alone ("landlords?").
"""

from __future__ import annotations

import re

from assistant.models import QueryPlan
from assistant.understand.followup import words as fw
from assistant.understand.followup.edits import FollowUp, _add_perspective
from assistant.understand.followup.sides import _SIDE_WORDS
from assistant.understand.followup.words import _is_role, _residue, _tokens, _words
from assistant.understand.vocab import VOCAB

_GROUP = r"(?P<x>[^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,3}?)"


_VIEW_NOUN = (
    r"(?:point of view|perspective|views?|viewpoint|takes?|position|opinion|opinions|stance|"
    r"side|angle|input|thoughts|reaction|standpoint)"
)


_VIEW_VERB = (
    r"(?:think|thinks|say|says|said|believe|believes|feel|feels|argue|argues|reckon|"
    r"make of (?:all\s+)?(?:it|this|that)|have to say|has to say|think of (?:it|this|that)|"
    r"recommend|recommends|suggest|advise|propose|agree|disagree|approve)"
)


_VIEWS = [
    re.compile(p, re.I)
    for p in (
        r"\bwhat\s+(?:(?:do|does|did|would|might|will|could)\s+)?"
        + _GROUP
        + r"\s+(?:themselves\s+)?"
        r"(?:really\s+|actually\s+)?" + _VIEW_VERB + r"\b",
        r"\bhow\s+(?:do|does|would|might|did)\s+" + _GROUP + r"\s+(?:see|view|regard|feel about|"
        r"look at|feel)\b",
        r"\bwhat\s+(?:are|is)\s+" + _GROUP + r"\s+saying\b",
        r"\bwhat\s+(?:think|thinks|say|says)\s+(?:the\s+)?" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:and\s+)?(?:do|does|would|will)\s+" + _GROUP + r"\s+(?:agree|disagree|approve|"
        r"support it|think so)\b",
        r"\bhear\s+(?:from|what)\s+(?:the\s+)?" + _GROUP + r"(?:\s+(?:think|say|have to say))?"
        r"\s*[?.!]*\s*$",
        r"\b(?:input|voices?|testimon(?:y|ies)|experiences?|quotes?|statements?|comments?|"
        r"words)\s+(?:of|from)\s+(?:the\s+)?" + _GROUP + r"\s*[?.!]*\s*$",
        r"\bwhat\s+(?:position|view|stance)\s+do(?:es)?\s+" + _GROUP + r"\s+take\b",
        r"^\s*(?:and\s+)?(?:do|does|did|would)\s+" + _GROUP + r"\s+have\s+(?:a|an|any)\s+"
        r"(?:view|opinion|position|take|stance|say|perspective)\b",
        _GROUP + r"(?:'s|’s|'|’)\s+(?:own\s+)?" + _VIEW_NOUN + r"\b",
        r"\b" + _VIEW_NOUN + r"\s+(?:of|from)\s+(?:the\s+|an?\s+)?" + _GROUP + r"\s*(?:[,.!?]|$|"
        r"\s+on\s+(?:this|that|it|the)\b)",
        r"\bfrom\s+(?:an?\s+|the\s+)?" + _GROUP + r"\s+(?:perspective|point of view|viewpoint|"
        r"standpoint|angle)\b",
        r"^\s*(?:and\s+)?" + _GROUP + r"\s+(?:view|take|perspective)\s*[?.!]*\s*$",
        r"\bqu[eé]\s+(?:opinan|piensan|dicen|creen|sostienen)\s+"
        + _GROUP
        + r"(?:\s+(?:about|on|de|sobre)\s+(?:this|it|that|esto|eso|ello))?\s*[?.!]*\s*$",
        r"\b" + _GROUP + r"\s+qu[eé]\s+(?:opinan|piensan|dicen|creen)\b",
        r"\bwas\s+(?:sagen|denken|meinen|halten)\s+" + _GROUP + r"(?:\s+(?:dazu|davon|darüber))?"
        r"\s*[?.!]*\s*$",
        r"\b(?:qu'en|que)\s+(?:pensent|disent|croient)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?" + _GROUP + r",?\s+(?:ils|elles)\s+en\s+pensent\s+quoi\b",
        r"\b(?:la opini[óo]n|el punto de vista|la postura|die sicht|die meinung|l'avis|"
        r"le point de vue)\s+(?:de|der|von|des|du)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?(?:du|selon le)\s+point\s+de\s+vue\s+(?:des|du|de\s+la|de)\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\b(?:cosa|che\s+cosa|che)\s+(?:ne\s+)?(?:pensano|dicono|credono)\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\bo\s+que\s+(?:dizem|pensam|acham)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"\bwie\s+(?:sehen|finden|beurteilen)\s+(?:das|es|dies)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"\b(?:wat|what)\s+(?:vinden|zeggen|denken)\s+(?:de\s+)?"
        + _GROUP
        + r"(?:\s+(?:ervan|daarvan|erover|hiervan))?\s*[?.!]*\s*$",
        r"^\s*(?:and\s+|what about\s+)?(?:the\s+)?" + _GROUP + r"\s+themselves\s*[?.!]*\s*$",
        r"^\s*(?:(?:and|so|um|uh|okay|ok)\s+)*(?:what|how)\s+about\s+(?:the\s+)?"
        + _GROUP
        + r",?\s+(?:what|how)\s+do\s+they\s+(?:think|feel|see it|say)\b",
        # "where museum curators stand on this", "where do nurses stand?"
        r"\bwhere\s+(?:do\s+|does\s+)?(?:the\s+)?"
        + _GROUP
        + r"\s+stands?(?:\s+on\s+(?:this|that|it|the\s+\w+))?\s*[?.!,]*",
        # "e cosa ne pensa la Chiesa cattolica?", "o que acha a igreja?"
        r"\b(?:cosa|che\s+cosa|che)\s+(?:ne\s+)?(?:pensa|dice|crede)\s+(?:la\s+|il\s+|lo\s+|l')?"
        + _GROUP
        + r"\s*[?.!]*\s*$",
    )
]


_GROUP_LEAD = re.compile(
    r"^(?:(?:the|a|an|some|any|our|los|las|les|die|der|des|el|la|le|from|of)\s+)+", re.I
)


_VIEW_RESIDUE = frozenset(VOCAB.followup.view_residue)


def _clean_group(x: str) -> str:
    """The group's words: request verbs, determiners and courtesy before it, and
    "themselves" after it, taken off ("would welcome a journalist" -> "journalist")."""
    toks = _tokens(x)
    i = 0
    while i < len(toks) and (
        toks[i][0] in fw.FILLER or toks[i][0] in _VIEW_RESIDUE or toks[i][0] in fw.COURTESY
    ):
        i += 1
    x = x[toks[i][1] :] if i < len(toks) else ""
    x = _GROUP_LEAD.sub("", x.strip())
    x = re.split(r"\s+(?:would|will|should|could|might|is|are|was|were)\s+", x, maxsplit=1)[0]
    return re.sub(r"(?:\s+(?:themselves|own|dazu|really|actually))+$", "", x, flags=re.I).strip()


def _group_view(text: str, previous: QueryPlan) -> FollowUp | None:
    t = text.strip()
    for pat in _VIEWS:
        m = pat.search(t)
        if not m:
            continue
        x = _clean_group(m.group("x"))
        words = _words(x)
        if (
            not words
            or len(words) > 4
            or all(w in fw.FILLER or w in fw.POINTERS or w in _SIDE_WORDS for w in words)
            or re.search(r"\b(?:about|regarding|concerning|on|of)\b", x, re.I)
        ):
            continue
        if _residue(t, [m.span()], previous, also=_VIEW_RESIDUE):
            continue
        return _add_perspective(previous, x)
    m = re.fullmatch(
        r"\s*(?:(?:and|what about|how about)\s+)?(?:the\s+)?"
        r"(?P<x>[^\W\d_][\w\-]*(?:\s+[^\W\d_][\w\-]*)?)"
        r"\s+(?:opinion|opinions|view|views|perspective|take|side|stance)\s*[?.!]*\s*",
        t,
        re.I,
    )
    if m and _is_role(_words(m.group("x"))[-1]):
        return _add_perspective(previous, m.group("x"))
    # a group's name alone: "landlords?", "and the unions?", "marine biologists?"
    m = re.fullmatch(r"\s*(?:(?:and|also|y|und|et)\s+)?(?P<x>[^\W\d_][\w'’\- ]*?)\s*[?.!]*\s*", t)
    if m:
        x = _GROUP_LEAD.sub("", m.group("x").strip())
        words = _words(x)
        if 1 <= len(words) <= 3 and _is_role(words[-1]) and not set(words) & fw.FILLER:
            return _add_perspective(previous, x)
    return None
