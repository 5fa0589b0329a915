"""The words and patterns rule 4 reads constraint values with: exclusion and restriction
operators and their clause, kinds of document, audiences, keywords said as words,
sources by name.
"""

from __future__ import annotations

import functools
import re

from assistant.understand import spelling
from assistant.understand.followup import words as fw
from assistant.understand.followup.sides import _SIDE_WORDS
from assistant.understand.followup.words import _NUMBER_WORDS, _is_facet, _is_person, _is_role
from assistant.understand.values import (
    AUDIENCE_ADJECTIVES,
    AUDIENCES,
    FORMATS,
    LENGTH_WORDS,
    language_code,
)
from assistant.understand.vocab import VOCAB, alternation, every, inverse

# the operators and cues around a value (words/constraints.yaml), each list read here once
_C = VOCAB.constraints.followup
_AUDIENCE_PREPOSITIONS = every(_C.audience_prepositions)

_NEGATION = re.compile(
    r"\b"
    + alternation(every(_C.negations), space=" ")
    + r"\s+(?:"
    + alternation(_C.negation_scope)
    + r"\s+){0,4}$",
    re.I,
)


# kinds of document a source constraint names ("no opinion pieces", "stick to clinical trials")
_DOC_KINDS = (*VOCAB.values.source_nouns, *VOCAB.values.doc_kinds)


# kinds of document in the other languages users write, as their English kind (words
# that are English too, "journal", are left to the English lexicons)
_KIND_WORDS = inverse(VOCAB.values.kind_words)


_KIND_WORD = re.compile(r"\b(?:" + "|".join(_KIND_WORDS) + r")\b", re.I)


_DOC_KIND = re.compile(
    r"\b(?:" + "|".join(re.escape(k) for k in sorted(_DOC_KINDS, key=len, reverse=True)) + r")\b",
    re.I,
)


# generic document nouns: the scope of a constraint, never its value
_GENERIC_DOCS = frozenset(VOCAB.values.generic_docs)


_POSITIVE_SOURCE = re.compile(
    r"\b"
    + alternation(every(_C.positive_sources), _C.positive_source_patterns, space=" ")
    + r"\s+(?:the\s+|to\s+)?$",
    re.I,
)


_LENGTH_WORDS = LENGTH_WORDS


_LENGTH_PHRASES = dict(VOCAB.values.length_phrases)


_AUDIENCES = AUDIENCES


_AUDIENCE = re.compile(
    r"\b"
    + alternation((*_AUDIENCE_PREPOSITIONS, *_C.audience_phrases), space=" ")
    + r"\s+(?:"
    + alternation(_C.audience_hedges)
    + r"\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?(?:"
    + alternation(_C.audience_fields)
    + r"\s+)?(?P<a>"
    + "|".join(re.escape(a) for a in sorted(_AUDIENCES, key=len, reverse=True))
    + r")\b",
    re.I,
)


_AUDIENCE_WORDS = re.compile(
    r"\b(?:in\s+)?(?P<a>"
    + "|".join(re.escape(a) for a in sorted(AUDIENCE_ADJECTIVES, key=len, reverse=True))
    + r")\b",
    re.I,
)


_KEYWORD = re.compile(
    r"\b"
    + alternation(_C.keyword_nouns)
    + r"\s+(?:that|which)\s+"
    + alternation(_C.keyword_verbs)
    + r"\s+(?:about\s+|with\s+|to\s+)?"
    r"(?P<k>[\w\-]+(?:\s+[\w\-]+)?)\s*[.!?]*$",
    re.I,
)


# where a constraint's bare value may stand: at the end, or before a scope word or a
# document noun ("spanish only", "shorter ones", "pdfs please"), never before a noun
# it modifies ("the russian revolution", "no longer need")
_VALUE_NEXT = frozenset(
    (
        *_GENERIC_DOCS,
        *(w for d in VOCAB.requests.doc_nouns for w in d.split()),
        *VOCAB.followup.value_next,
    )
)


_CONSTRAINT_RESIDUE = frozenset(
    (*(w for d in VOCAB.requests.doc_nouns for w in d.split()), *VOCAB.followup.constraint_residue)
)


_PREPOSITION = re.compile(r"\b" + alternation(every(_C.value_prepositions)) + r"\b", re.I)


# words that make a kind of document a kind of source ("the opinion pieces", "the
# government reports"), not a facet of the answer ("the productivity studies")
_SOURCE_MODIFIERS = frozenset(VOCAB.values.source_modifiers)


# the words between a negation and the readers ("nothing written for the kids") …
_AUDIENCE_LEAD = re.compile(
    r"(?:\b"
    + alternation(every(_C.audience_participles))
    + r"\s+)?(?:\b"
    + alternation(_AUDIENCE_PREPOSITIONS)
    + r"\s+)?(?:\b"
    + alternation(every(_C.audience_articles))
    + r"\s+)?$",
    re.I,
)
# … and the scope words before them ("geen teksten voor kinderen"), as written
_AUDIENCE_SCOPE = re.compile(r"\b" + alternation(every(_C.audience_scope_nouns)) + r"\s*$")


def _negated_scope(before: str) -> bool:
    """A negation before an audience phrase and its scope words ("nothing written for
    kids", "geen teksten voor kinderen"), not a negation inside it."""
    before = _AUDIENCE_LEAD.sub("", before)
    before = _AUDIENCE_SCOPE.sub("", before)
    return bool(_NEGATION.search(before))


# an operator that excludes what follows it in its clause ("skip the super technical
# stuff meant for specialists", "anything but spanish", "I can't read German", "nada em
# inglês"); "only"/"just" after it starts a positive request again ("no, only Spanish")
_EXCLUDE = re.compile(
    r"\b" + alternation(every(_C.exclusions), _C.exclusion_patterns, space=" ") + r"(?![\w'])",
    re.I,
)


_POSITIVE = re.compile(r"\b" + alternation(every(_C.positives)) + r"\b", re.I)


# "no more than", "not longer than": a bound, not an exclusion
_NOT_EXCLUDING = re.compile(
    r"\b(?:no|not) "
    + alternation(_C.bounds)
    + r"(?: than)?\s*$|\b"
    + alternation(_C.not_excluding, space=" ")
    + r"\b",
    re.I,
)


_CLAUSE_END = re.compile(
    r"[.;!?]\s|,\s+(?!\d)|"
    + "".join(rf"(?<!{re.escape(w)})" for w in _C.clause_break_exceptions)
    + r"\s"
    + alternation(_C.clause_breaks)
    + r"\s(?!not\b)",
    re.I,
)


def _excluded(q: str, start: int) -> bool:
    """Whether the value at ``start`` is excluded by an operator earlier in its clause,
    with no "only" after the operator ("skip anything that's just a transcript" is
    excluded all the same: "just" after "anything that's" qualifies the thing)."""
    before = q[:start]
    ends = list(_CLAUSE_END.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    ops = [m for m in _EXCLUDE.finditer(before) if not _NOT_EXCLUDING.search(before[: m.end()])]
    if not ops:
        return False
    after = before[ops[-1].end() :]
    positive = _POSITIVE.search(after)
    return not (
        positive
        and not re.search(r"\b(?:that'?s|that is|which is|are)\s+$", after[: positive.start()])
    )


# "that mention the word 'methane'", "with the word keto in it", "anything mentioning
# Amazon", "qui mentionne Macron", "qui parlent de X", "mit dem Wort X"
_KEYWORD_WORD = re.compile(
    r"\b(?:"
    + alternation(_C.keyword_leads)
    + r"\s+)?"
    + alternation(every(_C.keyword_cues), _C.keyword_cue_patterns, space=" ")
    + r"\s+(?:"
    + alternation(every(_C.keyword_articles))
    + r"\s+)?"
    r"(?P<k>['\"‘“]?[^\W\d_][\w\-]*['\"’”]?)"
    r"(?=\s*"
    + alternation(_C.keyword_tails, space=" ")
    + r"?\s*(?:[.!?,]|\b"
    + alternation(_C.keyword_ends)
    + r"\b|$))",
    re.I,
)


_READ_MINUTES = re.compile(
    r"\b(?:an?\s+)?(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")[- ]?min(?:ute)?s?[- ]?"
    r"reads?\b(?:\s+" + alternation(_C.read_limits, space=" ") + r")?",
    re.I,
)


# a source by name: "reuters only", "only from the bbc", "published by the BBC", "anything
# from al jazeera?", "leave out anything from greenpeace"
_NAMED_SOURCE = re.compile(
    r"(?:\b" + alternation(_C.source_cues, space=" ") + r"\s+(?:the\s+)?"
    r"(?P<n>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*){0,2}?)"
    r"(?=\s*"
    + alternation(_C.source_tails)
    + r"?(?:\s+(?:on|about)\s+(?:this|that|it|the topic))?\s*(?:[.!?,]|$))"
    r"|^\s*(?:the\s+)?(?P<n2>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*)?)\s+only\b)",
    re.I,
)


@functools.cache
def _countries() -> frozenset[str]:
    return frozenset(c.lower() for c in VOCAB.places.places)


_TIME = re.compile(r"\b" + alternation(_C.time_words) + r"\b")


def _named_source(name: str) -> bool:
    """A name of a source: not a word of the value lexicons (a place, a language, a kind
    of document, a group), not time, not a pointer."""
    words = name.lower().split()
    if not words or any(w in fw.POINTERS for w in words) or words[-1] in fw.FILLER:
        return False  # ("al jazeera", "le monde": an article of another language is part)
    low = " ".join(words)
    if _TIME.search(low):
        return False
    if low in _countries() or any(language_code(w) for w in words):
        return False
    if _DOC_KIND.fullmatch(low) or low in _GENERIC_DOCS or low in _AUDIENCES:
        return False
    closed = (_LENGTH_WORDS, FORMATS, _AUDIENCES, AUDIENCE_ADJECTIVES, _SIDE_WORDS)
    if any(w in vocab for w in words for vocab in closed):
        return False
    if any(w in ("side", "sides", "both", "angle", "view", "views", "perspective") for w in words):
        return False
    if words[-1] in _ORG_NOUNS and len(words) > 1:
        return True  # "the dairy industry", "the meat lobby"
    return not any(_is_facet(w) or _is_person(w) or _is_role(w) for w in words)


_ORG_NOUNS = frozenset(VOCAB.values.org_nouns)


def _source_name(name: str) -> str:
    """A named source as a value: lower case; an English plural noun typed in lower case
    in the singular, as kinds are written ("the tabloids" -> "tabloid"); a name left as
    it is ("reuters", "the Times")."""
    low = name.lower()
    if (
        name.islower()
        and " " not in low
        and low.endswith("s")
        and low[:-1] in spelling.dictionary()
    ):
        return low[:-1]  # (a capital says a name: "the Times")
    return low


_PRAISE = re.compile(
    r"\b(?:this|that|it|which|they|these|those)(?:'s|’s| is| was| are| were| looks?| seems?)\s+"
    r"(?:" + alternation(_C.praise_intensifiers, space=" ") + r"\s+)*$",
    re.I,
)


_ASKS = frozenset(VOCAB.followup.asks)
