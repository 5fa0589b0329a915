"""One sentence segmenter for the whole program: chunking, quotes and stance units.

Sentences come from Bling Fire's sentence breaker (a finite-state model trained
on English text, which knows abbreviations such as "e.g.", "Dr." and "U.S."),
with two structural rules on top:

* a line break always ends a sentence: extraction puts headings, list items and
  paragraphs on lines of their own, so a heading is never glued to the sentence
  after it;
* a list marker standing alone ("1.", "a)", "•") belongs to the item it opens.

Spans are exact character offsets into the text given, whitespace trimmed, and
together they cover every non-space character (cut points come from the
segmenter, the text between two cut points is one sentence), so
``text[start:end]`` is always a whole sentence of the document.
Measured against pysbd, spaCy and the old regular expression in
docs/INGEST.md ("Sentences").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

# a segment that is only a list marker: "-", "•", "1.", "2)", "(a)", "iv."
_MARKER = re.compile(r"(?:[-–—*•▪◦‣·]|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,6})[.)])")
_LINE = re.compile(r"[^\n]+")
# Bling Fire works on a line at a time; a line longer than this (a 50 MB file with
# no line breaks) is segmented in windows that are cut at a space
WINDOW_CHARS = 1 << 20


def _cuts(line: str) -> list[int]:
    """Offsets in ``line`` where a sentence starts (Bling Fire), the first excluded."""
    import blingfire

    if not line.strip():
        return []
    _sents, offsets = blingfire.text_to_sentences_and_offsets(line)
    return [s for s, _e in offsets[1:] if 0 < s < len(line)]


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _line_spans(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Sentences of one line ``text[lo:hi]`` (no line break inside)."""
    spans: list[tuple[int, int]] = []
    start = lo
    while start < hi:
        stop = hi
        if hi - start > WINDOW_CHARS:
            cut = text.rfind(" ", start, start + WINDOW_CHARS)
            stop = cut if cut > start else start + WINDOW_CHARS
        line = text[start:stop]
        bounds = [start, *(start + c for c in _cuts(line)), stop]
        for a, b in itertools.pairwise(bounds):
            s, e = _trim(text, a, b)
            if e <= s:
                continue
            if spans and _MARKER.fullmatch(text[spans[-1][0] : spans[-1][1]]):
                spans[-1] = (spans[-1][0], e)  # "1." + "Buy milk"
            else:
                spans.append((s, e))
        start = stop
    return spans


def iter_sentence_spans(text: str, lo: int = 0, hi: int | None = None) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence of ``text[lo:hi]``, in order, offsets into ``text``."""
    hi = len(text) if hi is None else hi
    for m in _LINE.finditer(text, lo, hi):
        if m.group().strip():
            yield from _line_spans(text, m.start(), m.end())


def sentence_spans(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """All sentences of ``text[lo:hi]`` as (start, end) offsets into ``text``."""
    return list(iter_sentence_spans(text, lo, hi))
