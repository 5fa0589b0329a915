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
from assistant.understand.vocab import VOCAB, inverse

_NEGATION = re.compile(
    r"\b(?:no|not|nothing|none|without|skip|skipping|exclude|excluding|avoid|avoiding|ignore|"
    r"ignoring|except|leave out|leaving out|aren't|isn't|don't want|do not want|sin|ohne|keine|"
    r"kein|sans|pas de|ni|cut|drop|remove|lose|ditch|get rid of|no more|geen)\s+"
    r"(?:(?:any|anything|stuff|content|results|articles|sources|documents|"
    r"that|which|are|is|from|on|by|in|the|all)\s+){0,4}$",
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
    r"\b(?:only|just|stick(?:ing)? to|limit(?:ed)? (?:it |this |the \w+ )?to|"
    r"restrict(?:ed)? (?:it |this |the \w+ |everything )?to|"
    r"confine(?:d)? (?:it |this |the \w+ )?to|"
    r"solo|nur|seulement)\s+(?:the\s+|to\s+)?$",
    re.I,
)


_LENGTH_WORDS = LENGTH_WORDS


_LENGTH_PHRASES = dict(VOCAB.values.length_phrases)


_AUDIENCES = AUDIENCES


_AUDIENCE = re.compile(
    r"\b(?:for|at|to|aimed at|written for|suitable for|pitched at|para|für|pour|per|voor)\s+"
    r"(?:(?:like|say|um|uh|maybe|mostly|mainly)\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?(?:(?:legal|medical|technical|scientific|financial|industry|"
    r"policy|clinical|subject|domain)\s+)?(?P<a>"
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
    r"\b(?:stuff|ones|sources|articles|documents|results|anything|things|material|pages|texts)\s+"
    r"(?:that|which)\s+(?:talks?|talking|discuss(?:es)?|deals?|refers?|covers?)\s+"
    r"(?:about\s+|with\s+|to\s+)?(?P<k>[\w\-]+(?:\s+[\w\-]+)?)\s*[.!?]*$",
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


_PREPOSITION = re.compile(r"\b(?:for|at|to|from|by|in|für|para|pour|per|voor)\b", re.I)


# words that make a kind of document a kind of source ("the opinion pieces", "the
# government reports"), not a facet of the answer ("the productivity studies")
_SOURCE_MODIFIERS = frozenset(VOCAB.values.source_modifiers)


def _negated_scope(before: str) -> bool:
    """A negation before an audience phrase and its scope words ("nothing written for
    kids", "geen teksten voor kinderen"), not a negation inside it."""
    before = re.sub(
        r"(?:\b(?:written|aimed|meant|intended|pitched|geschrieben|escrito|écrit)\s+)?"
        r"(?:\b(?:for|at|to|voor|für|para|pour|per)\s+)?(?:\b(?:the|a|an|de|die|los|les)\s+)?$",
        "",
        before,
        flags=re.I,
    )
    before = re.sub(r"\b(?:texts?|teksten|stuff|things|material|articles|sources)\s*$", "", before)
    return bool(_NEGATION.search(before))


# an operator that excludes what follows it in its clause ("skip the super technical
# stuff meant for specialists", "anything but spanish", "I can't read German", "nada em
# inglês"); "only"/"just" after it starts a positive request again ("no, only Spanish")
_EXCLUDE = re.compile(
    r"\b(?:no|not|nothing|nothin|none|without|w/o|skip|skipping|exclude|excluding|except|"
    r"besides|other than|apart from|anything but|everything but|minus|avoid|avoiding|ignore|"
    r"ignoring|leave out|leaving out|leave off|omit|omitting|drop|remove|cut|lose|ditch|"
    r"get rid of|filter out|weed out|rather not|(?:can'?t|cannot|can not|don'?t|do not|never) "
    r"(?:read|understand|speak|stand|trust|use|want|need|come|include|show|give|cite|add)|"
    r"doesn'?t come|does not come|"
    r"aren'?t|isn'?t|wasn'?t|weren'?t|"
    r"don'?t want|sin|nada|ningún|ninguna|ninguno|excepto|menos|ohne|kein|keine|keinen|"
    r"nichts|außer|sans|pas de|pas d'|rien|aucun|aucune|sauf|niente|senza|nessun|nessuna|"
    r"tranne|sem|nenhum|nenhuma|exceto|geen|niets|zonder|behalve)(?![\w'])",
    re.I,
)


_POSITIVE = re.compile(
    r"\b(?:only|just|solely|exclusively|solo|solamente|sólo|nur|seulement|uniquement|"
    r"soltanto|apenas|somente|alleen|enkel)\b",
    re.I,
)


# "no more than", "not longer than": a bound, not an exclusion
_NOT_EXCLUDING = re.compile(
    r"\b(?:no|not) (?:more|longer|shorter|less|fewer|over|under|above|below|bigger|"
    r"greater)(?: than)?\s*$|\bnot (?:only|just)\b|\bno (?:matter|problem|worries)\b|"
    r"\bnot sure\b",
    re.I,
)


_CLAUSE_END = re.compile(
    r"[.;!?]\s|,\s+(?!\d)|(?<!anything)(?<!everything)(?<!all)\s(?:but|though|although|whereas)"
    r"\s(?!not\b)",
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
    r"\b(?:(?:with|w|w/|containing|contain|contains|has|have|having|use|uses|using|"
    r"mention|mentions|mentioning)\s+)?"
    r"(?:the\s+(?:exact\s+)?(?:word|term|phrase|keyword)|"
    r"mentioning|that mentions?|which mentions?|mentions?|"
    r"qui mentionnent|qui mentionne|qui parlent de|qui parle de|"
    r"mit dem (?:wort|begriff)|die (?:das wort|den begriff)|"
    r"con la palabra|que mencion(?:a|an|en|e|am|em)|che menzionan[oa]|com a palavra|"
    r"met het woord|die (?:het woord)?)\s+"
    r"(?:(?:la|el|los|las|le|les|die|der|das|il|lo|o|a|de|het)\s+)?"
    r"(?P<k>['\"‘“]?[^\W\d_][\w\-]*['\"’”]?)"
    r"(?=\s*(?:in (?:it|them|the (?:text|title))|explicitly|anywhere|at all|somewhere)?\s*"
    r"(?:[.!?,]|\b(?:if|please|pls|thanks|lol)\b|$))",
    re.I,
)


_READ_MINUTES = re.compile(
    r"\b(?:an?\s+)?(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")[- ]?min(?:ute)?s?[- ]?"
    r"reads?\b(?:\s+(?:max|maximum|tops|at most))?",
    re.I,
)


# a source by name: "reuters only", "only from the bbc", "published by the BBC", "anything
# from al jazeera?", "leave out anything from greenpeace"
_NAMED_SOURCE = re.compile(
    r"(?:\b(?:from|by|published by|produced by|written by)\s+(?:the\s+)?"
    r"(?P<n>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*){0,2}?)"
    r"(?=\s*(?:only|please|pls|thanks|articles?|stories|reports?|pieces|coverage|content|"
    r"stuff|ones)?(?:\s+(?:on|about)\s+(?:this|that|it|the topic))?\s*(?:[.!?,]|$))"
    r"|^\s*(?:the\s+)?(?P<n2>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*)?)\s+only\b)",
    re.I,
)


@functools.cache
def _countries() -> frozenset[str]:
    return frozenset(c.lower() for c in VOCAB.places.places)


def _named_source(name: str) -> bool:
    """A name of a source: not a word of the value lexicons (a place, a language, a kind
    of document, a group), not time, not a pointer."""
    words = name.lower().split()
    if not words or any(w in fw.POINTERS for w in words) or words[-1] in fw.FILLER:
        return False  # ("al jazeera", "le monde": an article of another language is part)
    low = " ".join(words)
    if re.search(
        r"\b(?:year|years|month|months|decade|decades|century|today|now|recent|"
        r"last|past|since|ago)\b",
        low,
    ):
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
    r"(?:(?:very|really|so|super|quite|pretty|extremely|incredibly|nice and|wonderfully|"
    r"impressively|admirably|and)\s+)*$",
    re.I,
)


_ASKS = frozenset(VOCAB.followup.asks)
