"""The words of a turn: tokens with their spans, stems, the residue a rule leaves, and the
lexicons of filler, facets and people as sets (``words/*.yaml``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

import Stemmer

from assistant.models import QueryPlan
from assistant.understand.vocab import VOCAB

# the lexicons as sets (words/followup.yaml, facets.yaml, people.yaml)
_F, _P = VOCAB.followup, VOCAB.people

FILLER = frozenset(_F.filler_words)
COURTESY = frozenset(_F.courtesy)
REACTION = frozenset(_F.reaction_words)
DROP_REASONS = frozenset(_F.drop_reasons)
POINTERS = frozenset(_F.pointers)
CUE_WORDS = frozenset(_F.cue_words)
SLANG = dict(_F.slang)
FACET_NOUNS = frozenset(VOCAB.facets.nouns)
ROLES = frozenset(_P.role_words)
ANYONE = frozenset(_P.anyone)
ROLE_ENDINGS = tuple(_P.role_endings)
POPULATIONS = frozenset(_P.population_words)


Span = tuple[int, int]


_TOKEN = re.compile(r"[^\W_][\w'’\-]*")


_ELISION = re.compile(r"^(?:l|d|qu|j|n|s|c|m|t)'(?=\w)")


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Lower-cased words with their spans; French elisions ("l'impact") and English
    possessives ("drivers'", "journalist's") reduced to the word."""
    out = []
    for m in _TOKEN.finditer(text):
        w, start = m.group(0).lower().replace("’", "'"), m.start()
        e = _ELISION.match(w)
        if e and len(w) > e.end():
            w, start = w[e.end() :], start + e.end()
        if w.endswith("'s"):
            w = w[:-2]
        out.append((w.rstrip("'"), start, m.end()))
    return out


def _words(text: str) -> list[str]:
    return [w for w, _, _ in _tokens(text)]


@functools.lru_cache(maxsize=1)
def _stemmer() -> Any:
    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    return str(_stemmer().stemWord(word.lower()))


def _content(text: str) -> list[str]:
    return [w for w in _words(text) if w not in FILLER and w not in POINTERS]


def _topic_stems(previous: QueryPlan) -> frozenset[str]:
    """The stems of the previous topic's words (its question, facets and groups)."""
    text = " ".join(
        (
            previous.root_query,
            previous.question,
            *(a.text for a in previous.aspects),
            *(p.text for p in previous.perspectives),
        )
    )
    return frozenset(_stem(w) for w in _words(text) if w not in FILLER)


def _residue(
    text: str,
    spans: Iterable[Span] = (),
    previous: QueryPlan | None = None,
    also: Iterable[str] = (),
) -> list[str]:
    """The words of ``text`` outside ``spans`` that are not filler, pointers, courtesy,
    words of ``also`` or (given the previous plan) words of the previous topic."""
    spans = list(spans)
    return [
        w
        for w, s, e in _own_tokens(text, previous, also)
        if not any(s < b and a < e for a, b in spans)
    ]


def _own_tokens(
    text: str, previous: QueryPlan | None = None, also: Iterable[str] = ()
) -> list[tuple[str, int, int]]:
    """The tokens of ``text`` (word, start, end) of its own: not filler, pointers,
    courtesy, words of ``also`` or (given the previous plan) words of the previous topic."""
    extra = set(also)
    topic = _topic_stems(previous) if previous is not None else frozenset()
    return [
        (w, s, e)
        for w, s, e in _tokens(text)
        if not (w in FILLER or w in POINTERS or w in COURTESY or w in extra)
        and _stem(w) not in topic
    ]


@functools.lru_cache(maxsize=1)
def _facet_stems() -> frozenset[str]:
    return frozenset(_stem(w) for w in FACET_NOUNS)


def _is_facet(word: str) -> bool:
    """A facet noun, or a noun of a quality ("affordability", "loneliness")."""
    w = word.lower()
    quality = len(w) > 7 and w.endswith(("ability", "ibility", "iness", "ness"))
    return w in FACET_NOUNS or _stem(w) in _facet_stems() or quality


def _is_person(word: str) -> bool:
    w = word.lower()
    if w in ANYONE:
        return False
    if w in ROLES or w in POPULATIONS:
        return True
    return any(
        w.endswith(e) and (len(w) == len(e) or w[: len(w) - len(e)].isalpha()) for e in ROLE_ENDINGS
    )


def _is_role(word: str) -> bool:
    """A group with a view of its own ("teachers", "beekeepers"), not a population."""
    return _is_person(word) and word.lower() not in POPULATIONS


_NUMBER_WORDS = {w: i for i, w in enumerate(VOCAB.grammar.number_words, start=1)}


# words that mark a phrase as a facet of the answer ("the cost part", "the noise stuff")
_FACET_MARK = re.compile(
    r"\s(?:part|bit|aspect|angle|stuff|thing|side|question|considerations?|discussion)$", re.I
)


_PRONOUN_OBJECT = re.compile(r"^(?:it|that|this|them|those|lo|eso|das|ça|cela)?$", re.I)


_CLAUSE = re.compile(
    r"(?:^|,|\s)(?:is|are|was|were|should|shall|would|could|can|do|does|did|will|has|have|"
    r"must|ought|who|whom|whose|why|where|when|which|whether|ist|sind|es|son|est|sont)\b"
    r"|\b(?:it|that|there|they|he|she|what|who|this|here)['’](?:s|re|ll|d|ve)\b"
    # a statement about the user ("I'm biased", "I live under a flight path")
    r"|\b(?:i|we|you)['’](?:m|re|ve|d|ll)\b|\b(?:i|we)\s+(?:am|have|live|work|need|want)\b",
    re.I,
)


_PREPOSITIONS = tuple(VOCAB.followup.facet_prepositions)


# verbs of a request that names nothing itself ("Could you add that?")
_REQUEST_VERBS = frozenset(VOCAB.followup.request_verbs)
