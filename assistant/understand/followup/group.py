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
from assistant.understand.vocab import VOCAB, alternation

# the words of rule 6 (words/references.yaml, section group), each list read here once
_W = VOCAB.references.group

_GROUP = r"(?P<x>[^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,3}?)"


_VIEW_NOUN = alternation(_W.view_nouns, space=" ")


_VIEW_VERB = alternation(_W.view_verbs, _W.view_verb_patterns, space=" ")


def _one_space(words: tuple[str, ...]) -> str:
    return alternation(words, space=" ")


_VIEWS = [
    re.compile(p, re.I)
    for p in (
        r"\bwhat\s+(?:"
        + alternation(_W.what_auxiliaries)
        + r"\s+)?"
        + _GROUP
        + r"\s+(?:themselves\s+)?(?:"
        + alternation(_W.view_adverbs)
        + r"\s+)?"
        + _VIEW_VERB
        + r"\b",
        r"\bhow\s+"
        + alternation(_W.how_auxiliaries)
        + r"\s+"
        + _GROUP
        + r"\s+"
        + _one_space(_W.how_verbs)
        + r"\b",
        r"\bwhat\s+(?:are|is)\s+" + _GROUP + r"\s+saying\b",
        r"\bwhat\s+"
        + alternation(_W.inverted_verbs)
        + r"\s+(?:the\s+)?"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"^\s*(?:and\s+)?"
        + alternation(_W.yes_no_auxiliaries)
        + r"\s+"
        + _GROUP
        + r"\s+"
        + _one_space(_W.assent_verbs)
        + r"\b",
        r"\bhear\s+(?:from|what)\s+(?:the\s+)?"
        + _GROUP
        + r"(?:\s+"
        + _one_space(_W.hear_verbs)
        + r")?\s*[?.!]*\s*$",
        r"\b"
        + alternation(_W.voice_nouns)
        + r"\s+(?:of|from)\s+(?:the\s+)?"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\bwhat\s+" + alternation(_W.position_nouns) + r"\s+do(?:es)?\s+" + _GROUP + r"\s+take\b",
        r"^\s*(?:and\s+)?"
        + alternation(_W.have_auxiliaries)
        + r"\s+"
        + _GROUP
        + r"\s+have\s+(?:a|an|any)\s+"
        + alternation(_W.have_nouns)
        + r"\b",
        _GROUP + r"(?:'s|’s|'|’)\s+(?:own\s+)?" + _VIEW_NOUN + r"\b",
        r"\b" + _VIEW_NOUN + r"\s+(?:of|from)\s+(?:the\s+|an?\s+)?" + _GROUP + r"\s*(?:[,.!?]|$|"
        r"\s+on\s+(?:this|that|it|the)\b)",
        r"\bfrom\s+(?:an?\s+|the\s+)?" + _GROUP + r"\s+" + _one_space(_W.from_view_nouns) + r"\b",
        r"^\s*(?:and\s+)?" + _GROUP + r"\s+" + alternation(_W.bare_view_nouns) + r"\s*[?.!]*\s*$",
        r"\b"
        + alternation(_W.es_question_words)
        + r"\s+"
        + alternation(_W.es_verbs)
        + r"\s+"
        + _GROUP
        + r"(?:\s+"
        + alternation(_W.es_topic_prepositions)
        + r"\s+"
        + alternation(_W.es_topic_pronouns)
        + r")?\s*[?.!]*\s*$",
        r"\b"
        + _GROUP
        + r"\s+"
        + alternation(_W.es_question_words)
        + r"\s+"
        + alternation(_W.es_verbs_after)
        + r"\b",
        r"\bwas\s+"
        + alternation(_W.de_verbs)
        + r"\s+"
        + _GROUP
        + r"(?:\s+"
        + alternation(_W.de_pronoun_adverbs)
        + r")?\s*[?.!]*\s*$",
        r"\b"
        + alternation(_W.fr_question_words)
        + r"\s+"
        + alternation(_W.fr_verbs)
        + r"\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?" + _GROUP + r",?\s+(?:ils|elles)\s+en\s+pensent\s+quoi\b",
        r"\b"
        + _one_space(_W.view_phrases)
        + r"\s+"
        + alternation(_W.view_phrase_links)
        + r"\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?(?:du|selon le)\s+point\s+de\s+vue\s+(?:des|du|de\s+la|de)\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\b"
        + alternation(_W.it_question_words)
        + r"\s+(?:ne\s+)?"
        + alternation(_W.it_verbs)
        + r"\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\bo\s+que\s+" + alternation(_W.pt_verbs) + r"\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"\bwie\s+"
        + alternation(_W.de_judge_verbs)
        + r"\s+"
        + alternation(_W.de_pronouns)
        + r"\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\b"
        + alternation(_W.nl_question_words)
        + r"\s+"
        + alternation(_W.nl_verbs)
        + r"\s+(?:de\s+)?"
        + _GROUP
        + r"(?:\s+"
        + alternation(_W.nl_pronoun_adverbs)
        + r")?\s*[?.!]*\s*$",
        r"^\s*(?:and\s+|what about\s+)?(?:the\s+)?" + _GROUP + r"\s+themselves\s*[?.!]*\s*$",
        r"^\s*(?:"
        + alternation(_W.about_openers)
        + r"\s+)*(?:what|how)\s+about\s+(?:the\s+)?"
        + _GROUP
        + r",?\s+(?:what|how)\s+do\s+they\s+"
        + _one_space(_W.they_verbs)
        + r"\b",
        # "where museum curators stand on this", "where do nurses stand?"
        r"\bwhere\s+(?:do\s+|does\s+)?(?:the\s+)?"
        + _GROUP
        + r"\s+stands?(?:\s+on\s+(?:this|that|it|the\s+\w+))?\s*[?.!,]*",
        # "e cosa ne pensa la Chiesa cattolica?", "o que acha a igreja?"
        r"\b"
        + alternation(_W.it_question_words)
        + r"\s+(?:ne\s+)?"
        + alternation(_W.it_verbs_one)
        + r"\s+(?:la\s+|il\s+|lo\s+|l')?"
        + _GROUP
        + r"\s*[?.!]*\s*$",
    )
]


_GROUP_LEAD = re.compile(r"^(?:" + alternation(_W.group_leads) + r"\s+)+", re.I)


# the words that end a group's name ("nurses would say" -> "nurses"; matched as written)
_GROUP_END = re.compile(r"\s+" + alternation(_W.group_ends) + r"\s+")


# the words after a group's name that are not its name ("doctors themselves")
_GROUP_TAIL = re.compile(r"(?:\s+" + alternation(_W.group_tails) + r")+$", re.I)


# a group with one of these in it is a topic ("views on the cost")
_TOPIC_LINK = re.compile(r"\b" + alternation(_W.topic_links) + r"\b", re.I)


# "and the nurses' view?": a role and a view noun
_ROLE_VIEW = re.compile(
    r"\s*(?:" + alternation(_W.role_view_openers, space=" ") + r"\s+)?(?:the\s+)?"
    r"(?P<x>[^\W\d_][\w\-]*(?:\s+[^\W\d_][\w\-]*)?)"
    r"\s+" + alternation(_W.role_view_nouns) + r"\s*[?.!]*\s*",
    re.I,
)


# a group's name alone: "landlords?", "and the unions?" (matched as written)
_ALONE = re.compile(
    r"\s*(?:" + alternation(_W.alone_openers) + r"\s+)?(?P<x>[^\W\d_][\w'’\- ]*?)\s*[?.!]*\s*"
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
    x = _GROUP_END.split(x, maxsplit=1)[0]
    return _GROUP_TAIL.sub("", x).strip()


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
            or _TOPIC_LINK.search(x)
        ):
            continue
        if _residue(t, [m.span()], previous, also=_VIEW_RESIDUE):
            continue
        return _add_perspective(previous, x)
    m = _ROLE_VIEW.fullmatch(t)
    if m and _is_role(_words(m.group("x"))[-1]):
        return _add_perspective(previous, m.group("x"))
    # a group's name alone: "landlords?", "and the unions?", "marine biologists?"
    m = _ALONE.fullmatch(t)
    if m:
        x = _GROUP_LEAD.sub("", m.group("x").strip())
        words = _words(x)
        if 1 <= len(words) <= 3 and _is_role(words[-1]) and not set(words) & fw.FILLER:
            return _add_perspective(previous, x)
    return None
