"""Rule 4's reader of a constraint's value said alone with its scope word ("spanish
only", "shorter ones", "no opinion pieces"); the question parser's own phrases are read
first (:func:`assistant.understand.constraints.find_constraints`).
"""

from __future__ import annotations

import re

from assistant.models import Constraint
from assistant.understand.followup import words as fw
from assistant.understand.followup.constraint_words import (
    _ASKS,
    _AUDIENCE,
    _AUDIENCE_WORDS,
    _AUDIENCES,
    _DOC_KIND,
    _EXCLUDE,
    _GENERIC_DOCS,
    _KEYWORD,
    _KEYWORD_WORD,
    _KIND_WORD,
    _KIND_WORDS,
    _LENGTH_PHRASES,
    _LENGTH_WORDS,
    _NAMED_SOURCE,
    _NEGATION,
    _POSITIVE,
    _POSITIVE_SOURCE,
    _PRAISE,
    _READ_MINUTES,
    _VALUE_NEXT,
    _excluded,
    _named_source,
    _source_name,
)
from assistant.understand.followup.words import _NUMBER_WORDS, Span, _tokens, _words
from assistant.understand.values import (
    AUDIENCE_ADJECTIVES,
    FORMATS,
    SOURCE_ADJECTIVES,
    ages,
    language_code,
)
from assistant.understand.vocab import VOCAB


def _bare_constraints(q: str, taken: list[Span]) -> tuple[list[Constraint], list[Span]]:
    """A constraint's value alone with its scope word ("spanish only", "just transcripts",
    "shorter ones", "no opinion pieces", "stick to clinical trials"): in a turn with no
    topic of its own the value says the dimension. ``taken``: spans read already."""
    r = _Bare(q, taken)
    for read in (
        r.keywords_said,
        r.ages,
        r.named_sources,
        r.kind_words,
        r.minutes,
        r.audiences,
        r.length_phrases,
        r.keywords_talked_about,
        r.document_kinds,
        r.source_adjectives,
        r.single_words,
    ):
        read()
    return r.cons, r.spans


class _Bare:
    """The readers of :func:`_bare_constraints`, in the order they claim the turn's words
    (a span read once is not read again)."""

    def __init__(self, q: str, taken: list[Span]) -> None:
        self.q, self.taken = q, taken
        self.toks = _tokens(q)
        self.cons: list[Constraint] = []
        self.spans: list[Span] = []

    def free(self, s: int, e: int) -> bool:
        return not any(s < b and a < e for a, b in (*self.taken, *self.spans))

    def negated(self, s: int) -> bool:
        return bool(_NEGATION.search(self.q[:s])) or _excluded(self.q, s)

    def standing(self, i: int) -> bool:
        """The value at token ``i`` stands alone (not a modifier of a noun after it; "any
        FAQs about it" stands)."""
        toks = self.toks
        if i + 1 >= len(toks) or toks[i + 1][0] in _VALUE_NEXT:
            return True
        return toks[i + 1][0] in ("about", "on", "regarding", "for") and (
            i + 2 >= len(toks) or toks[i + 2][0] in fw.POINTERS
        )

    def add(self, dim: str, value: str, s: int, e: int, neg: bool) -> None:
        # audience, format and a length word re-weight, as the question parser has them
        hard = dim in ("language", "keyword", "source")
        if self.free(s, e):
            self.cons.append(Constraint(dim, value, negated=neg, hard=hard, text=self.q[s:e]))
            self.spans.append((s, e))

    def keywords_said(self) -> None:
        for m in _KEYWORD_WORD.finditer(self.q):
            k = m.group("k").strip("'\"‘’“”")
            self.add("keyword", k, m.start(), m.end(), self.negated(m.start()))

    def ages(self) -> None:
        for audience, start, end in ages(self.q):
            self.add("audience", audience, start, end, False)

    def named_sources(self) -> None:
        for m in _NAMED_SOURCE.finditer(self.q):
            g = "n" if m.group("n") else "n2"
            if _named_source(m.group(g)):
                name = _source_name(m.group(g))
                self.add("source", name, m.start(g), m.end(g), self.negated(m.start()))

    def kind_words(self) -> None:
        q = self.q
        for m in _KIND_WORD.finditer(q):
            neg = self.negated(m.start())
            if neg or _POSITIVE.search(q[: m.start()]):
                self.add("source", _KIND_WORDS[m.group(0).lower()], m.start(), m.end(), neg)

    def minutes(self) -> None:
        for m in _READ_MINUTES.finditer(self.q):  # "5 min read max", "a ten-minute read"
            n = _NUMBER_WORDS.get(m.group("n").lower()) or int(m.group("n"))
            value = "short" if n <= 10 else "long"
            self.add("length", value, m.start(), m.end(), self.negated(m.start()))

    def audiences(self) -> None:
        q = self.q
        for m in _AUDIENCE.finditer(q):
            self.add("audience", _AUDIENCES[m.group("a").lower()], m.start(), m.end(), False)
        for m in _AUDIENCE_WORDS.finditer(q):  # "in plain language", "technical ones"
            after = _words(q[m.end() :])[:1]
            if not after or after[0] in _VALUE_NEXT:
                value = AUDIENCE_ADJECTIVES[m.group("a").lower()]
                self.add("audience", value, m.start(), m.end(), False)

    def length_phrases(self) -> None:
        for phrase, value in _LENGTH_PHRASES.items():
            for m in re.finditer(r"\b" + phrase + r"\b", self.q, re.I):
                self.add("length", value, m.start(), m.end(), False)

    def keywords_talked_about(self) -> None:
        for m in _KEYWORD.finditer(self.q):
            self.add("keyword", m.group("k"), m.start(), m.end(), self.negated(m.start()))

    def document_kinds(self) -> None:
        for m in _DOC_KIND.finditer(self.q):
            self._document_kind(m)

    def _document_kind(self, m: re.Match[str]) -> None:
        """The kind and up to two words before it that are not filler ("opinion pieces")."""
        q, toks = self.q, self.toks
        i = next((k for k, t in enumerate(toks) if t[2] > m.start()), None)
        if i is None:
            return
        j = i
        while j > 0 and i - j < 2 and _modifies(toks[j - 1][0]):
            j -= 1
        s0 = toks[j][1]
        np = q[s0 : m.end()]
        words = np.split()
        if np.lower() in _GENERIC_DOCS or not self.free(s0, m.end()) or words[0] in _LENGTH_WORDS:
            return
        if any(language_code(w) for w in words):
            return  # "Spanish sources" name a language
        neg = self.negated(s0)
        if not neg and not _POSITIVE_SOURCE.search(q[:s0]):
            return
        value = np
        if len(words) > 1 and words[-1].lower() in ("sources", "sites", "websites", "source"):
            value = " ".join(words[:-1])  # "news sites" -> "news", as the parser reads it
        elif len(words) == 1 and np.lower() in VOCAB.values.source_nouns:
            value = np[:-1] if np.endswith("s") else np  # "forums" -> "forum"
        value = SOURCE_ADJECTIVES.get(value.lower(), value)
        self.add("source", value.lower(), s0, m.end(), neg)

    def source_adjectives(self) -> None:
        q = self.q
        for m in re.finditer(
            r"\b(?P<a>" + "|".join(map(re.escape, SOURCE_ADJECTIVES)) + r")\b", q, re.I
        ):
            neg = self.negated(m.start())
            if neg or _POSITIVE_SOURCE.search(q[: m.start()]):
                value = SOURCE_ADJECTIVES[m.group("a").lower()]
                self.add("source", value, m.start(), m.end(), neg)

    def single_words(self) -> None:
        """A length, format, site or language named by one word ("shorter", "pdfs")."""
        for i, (w, s, e) in enumerate(self.toks):
            if not self.free(s, e) or not self.standing(i):
                continue
            if _PRAISE.search(self.q[:s]):
                continue  # "this is very thorough": praise of the answer, not a request
            self._single_word(i, w, s, e)

    def _single_word(self, i: int, w: str, s: int, e: int) -> None:
        q, toks, neg = self.q, self.toks, self.negated(s)
        if w in _LENGTH_WORDS and (not neg or i + 1 == len(toks) or toks[i + 1][0] in _VALUE_NEXT):
            self.add("length", _LENGTH_WORDS[w], s, e, neg)  # "nothing long"
        elif w in FORMATS or (w.endswith("s") and w[:-1] in FORMATS):
            self.add("format", FORMATS.get(w) or FORMATS[w[:-1]], s, e, neg)
        elif w in VOCAB.values.source_sites and (
            neg or _POSITIVE.search(q) or re.search(r"\b(?:from|on|off)\s+$", q[:s], re.I)
        ):
            self.add("source", w, s, e, neg)  # ("Ban Instagram?" names no source)
        elif len(w) >= 4 and w not in fw.FILLER:
            code = language_code(w.removesuffix("-language"))
            if code is not None:
                self.add("language", code, s, e, neg)


def _modifies(word: str) -> bool:
    """A word before a kind of document that is part of its name ("opinion" in "opinion
    pieces"), not filler, an operator, a request verb or a particle ("leave out")."""
    return (
        word not in fw.FILLER
        and not _EXCLUDE.fullmatch(word)
        and not _POSITIVE.fullmatch(word)
        and word not in _ASKS
        and word not in ("out", "off", "of", "aside", "away")
    )
