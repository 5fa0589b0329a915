"""One reader per constraint value (InfoSearch's dimensions, paper 002 §3).

The question parser (:mod:`assistant.understand.constraints`), the follow-up rules
(:mod:`assistant.understand.followup`) and retrieval (:mod:`assistant.retrieval.constraints`)
read a language, an age, an audience, a length word, a format or a kind of source here
and nowhere else, from the tables of ``words/values.yaml``. Until issue 35 each kept its
own copy: with the turn reader off, "…for 8-year-olds" was audience child as a
follow-up and no constraint as a question, and "…for 25-year-olds" general as a
follow-up and nothing as a question.
"""

from __future__ import annotations

import functools
import re

from assistant.understand.vocab import VOCAB, inverse

_V = VOCAB.values

#: the readers people name -> audience level (one table for every reader)
AUDIENCES: dict[str, str] = dict(_V.audiences)
#: a manner of writing -> audience level ("in plain language", "technical")
AUDIENCE_ADJECTIVES: dict[str, str] = dict(_V.audience_adjectives)
#: a format's surface word -> format name
FORMATS: dict[str, str] = dict(_V.formats)
#: a word that says the length wanted -> "short" or "long"
LENGTH_WORDS: dict[str, str] = inverse(_V.length_words)
SHORT_WORDS = tuple(w for w, v in LENGTH_WORDS.items() if v == "short")
LONG_WORDS = tuple(w for w, v in LENGTH_WORDS.items() if v == "long")
#: a kind of source named by an adjective -> the kind ("peer-reviewed" -> academic)
SOURCE_ADJECTIVES: dict[str, str] = dict(_V.source_adjectives)
#: the words that mark a kind of source in a document's source, domain, url, path or title
SOURCE_KIND_MARKS: dict[str, tuple[str, ...]] = {
    k: tuple(v) for k, v in _V.source_kind_marks.items()
}
#: numbers written as words, one to twenty
NUMBER_WORDS: dict[str, int] = {w: i for i, w in enumerate(VOCAB.grammar.number_words, start=1)}


def number(word: str) -> int | None:
    """A whole number written in digits or as a word ("12", "twelve"), or None."""
    w = word.strip().lower()
    return int(w) if w.isdigit() else NUMBER_WORDS.get(w)


def _band(n: int, bands: tuple[tuple[int, int, str], ...]) -> str | None:
    return next((value for low, high, value in bands if low <= n <= high), None)


def audience_of_age(age: int) -> str | None:
    """The audience of readers ``age`` years old (``age_bands``), or None."""
    return _band(age, _V.age_bands)


def audience_of_school_year(year: int) -> str | None:
    """The audience of pupils in school year (grade) ``year`` (``school_year_bands``)."""
    return _band(year, _V.school_year_bands)


_NUMBER = r"(?P<n>\d{1,2}|" + "|".join(NUMBER_WORDS) + r")"
# "ten-year-olds", "a 15 year old", "8 yr olds"
AGE = re.compile(r"\b(?:an?\s+)?" + _NUMBER + r"[- ]?(?:year|yr)s?[- ]?olds?\b", re.I)
# "like I'm 10" (the reader's own age), and "as if I were N" in other languages
_OWN_AGE = re.compile(
    r"\blike\s+(?:i'?m|i\s+am)\s+(?P<n>\d{1,2})\b"
    r"|\b(?:j'avais|tuviera|hätte|avessi|tivesse)\s+(?P<m>\d{1,2})\s+(?:ans|años|jahre|anni|anos)\b",
    re.I,
)
SCHOOL_YEAR = re.compile(r"\b(?:year|grade|yr)\s*(?P<n>\d{1,2})\b", re.I)


def ages(text: str) -> list[tuple[str, int, int]]:
    """(audience, start, end) of every age the text gives its readers ("for ten-year-olds",
    "a 15 year old", "like I'm 10") that falls in an age band."""
    out = []
    for m in (*AGE.finditer(text), *_OWN_AGE.finditer(text)):
        n = number(next(g for g in m.groups() if g))
        audience = audience_of_age(n) if n is not None else None
        if audience is not None:
            out.append((audience, m.start(), m.end()))
    return sorted(out, key=lambda a: a[1])


def school_year(text: str) -> tuple[str, str] | None:
    """(audience, the words) of a school year or grade the text names ("year 9")."""
    m = SCHOOL_YEAR.search(text)
    audience = audience_of_school_year(int(m.group("n"))) if m else None
    return (audience, m.group(0)) if m and audience else None


@functools.lru_cache(maxsize=4096)
def language_code(word: str) -> str | None:
    """The ISO 639-1 code of a language name ("Spanish", "español", "allemand"), or None.

    Names come from ``langcodes`` (CLDR data). A name counts only if it is the
    language's own name or its name in one of the languages Sphere's users
    write (``name_languages``), so that "Paris" or "the" (which CLDR's fuzzy lookup
    maps to rare languages) are not languages.
    """
    import langcodes  # its data loads in about a second: only when a word is looked up

    w = word.strip().lower()
    try:
        lang = langcodes.find(w)
    except LookupError:
        return None
    code = lang.language or ""
    if len(code) != 2:
        return None
    names = {lang.autonym().lower(), *(lang.display_name(x).lower() for x in _V.name_languages)}
    return code if w in names else None
