"""The kinds of entry a vocabulary file holds (:mod:`assistant.understand.vocab`): words,
names, tables, lists by language or by group, regex fragments and bands of numbers, each
with the check it passes, and the helpers that read them (every word of a list by
language, a table inverted, a regex alternation of phrases).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict

#: the languages users write questions and follow-ups in (ISO 639-1)
LANGUAGES = ("en", "es", "fr", "de", "it", "pt", "nl")
Language = Literal["en", "es", "fr", "de", "it", "pt", "nl"]


class WordList(tuple[str, ...]):
    """A list of words in file order, with a set's membership test."""

    _set: frozenset[str]

    def __new__(cls, words: Iterable[str]) -> WordList:
        obj = super().__new__(cls, words)
        obj._set = frozenset(obj)
        return obj

    def __contains__(self, word: object) -> bool:
        return word in self._set


def _unique(items: Iterable[str], what: str) -> None:
    seen: set[str] = set()
    for item in items:
        if item in seen:
            raise ValueError(f"{what} {item!r} is listed twice")
        seen.add(item)


def _lower_words(words: tuple[str, ...]) -> tuple[str, ...]:
    for w in words:
        if not w or w != w.strip() or w != w.lower():
            raise ValueError(f"{w!r} must be lower case, with no surrounding spaces")
    _unique(words, "the word")
    return WordList(words)


def _names(names: tuple[str, ...]) -> tuple[str, ...]:
    for n in names:
        if not n or n != n.strip():
            raise ValueError(f"{n!r} must have no surrounding spaces")
    _unique(names, "the name")
    return WordList(names)


def _lower_table(table: dict[str, str]) -> dict[str, str]:
    _lower_words(tuple(table))
    for k, v in table.items():
        if not v or v != v.lower():
            raise ValueError(f"the value of {k!r} must be lower case")
    return table


def _patterns(patterns: tuple[str, ...]) -> tuple[str, ...]:
    for p in patterns:
        if not p or p != p.strip():
            raise ValueError(f"{p!r} must have no surrounding spaces")
        try:
            re.compile(p)
        except re.error as exc:
            raise ValueError(f"{p!r} is no regex ({exc})") from None
    _unique(patterns, "the pattern")
    return patterns


Words = Annotated[tuple[str, ...], AfterValidator(_lower_words)]
#: regex fragments, each compiled once to check it (``*_patterns`` lists)
Patterns = Annotated[tuple[str, ...], AfterValidator(_patterns)]
Names = Annotated[tuple[str, ...], AfterValidator(_names)]
Table = Annotated[dict[str, str], AfterValidator(_lower_table)]
#: lists of words by what they stand for ("short": [...], "long": [...])
Groups = dict[str, Words]
ByLanguage = dict[Language, Words]


def every(groups: dict[Any, tuple[str, ...]]) -> WordList:
    """The words of all the groups (or languages), in file order, each once."""
    return WordList(dict.fromkeys(w for words in groups.values() for w in words))


def alternation(
    phrases: Iterable[str], patterns: Iterable[str] = (), *, space: str = r"\s+"
) -> str:
    """A regex group ``(?:…)`` of the phrases, each escaped, in list order (where two could
    match at one place, the one listed first is tried first), each space between two
    words matching ``space`` (``r"\\s+"``, or ``" "`` for exactly one space); then the
    regex fragments of ``patterns`` as they are written."""
    alts = [space.join(re.escape(w) for w in p.split(" ")) for p in phrases]
    alts.extend(patterns)
    if not alts:
        raise ValueError("an alternation of nothing")
    return "(?:" + "|".join(alts) + ")"


def inverse(groups: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """word -> the group it is listed under, in file order."""
    return {w: key for key, words in groups.items() for w in words}


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _bands(bands: tuple[tuple[int, int, str], ...]) -> tuple[tuple[int, int, str], ...]:
    last = -1
    for low, high, value in bands:
        if not last < low <= high:
            raise ValueError(f"the band {low}-{high} must start after {last} and not end before it")
        if value != value.lower():
            raise ValueError(f"{value!r} must be lower case")
        last = high
    return bands


#: (from, to, value) bands of whole numbers, in increasing order, not overlapping
Bands = Annotated[tuple[tuple[int, int, str], ...], AfterValidator(_bands)]
