"""Chunking documents into passages with exact provenance.

Every passage satisfies ``passage.text == source[passage.start:passage.end]``
where ``source`` is the document text (for PDFs, the text of one page is
chunked at a time and offsets are relative to the whole document text, whose
pages are joined by a blank line). Passages are packed from sentences up to
``max_words`` words; consecutive passages share up to ``overlap_words`` words
(whole sentences) of context. Sentences are those of
:mod:`assistant.ingest.sentences`, the ones the quote finder uses, so a passage
starts and ends on a sentence boundary. The one exception: a sentence longer
than ``max_words`` is cut at word boundaries into pieces of ``max_words``
words (a passage then starts or ends inside it), and a "word" longer than
``max_chars`` (a 10 MB line with no spaces) is cut into pieces, so no passage
is unbounded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.ingest.sentences import iter_sentence_spans
from assistant.models import Passage

_WORD = re.compile(r"\S+")
MAX_WORD_CHARS = 400
# Passage size: 200 words fills the bundled encoder's 256-token window (all-MiniLM-L6-v2
# reads 1.22 word pieces per English word; 0.5 % of PerSphere's 200-word passages run
# over 256 tokens). Measured on PerSphere with the `sphere` retriever, R@10 / R@20:
# 120/20 words 86.37 / 94.14, 150/30 86.15 / 94.71, 180/30 87.50 / 95.50,
# 200/40 87.61 / 95.61, 250/50 87.50 / 95.50 (docs/RETRIEVAL.md). Smaller passages
# split a paragraph's argument in two; larger ones are cut by the encoder.
DEFAULT_MAX_WORDS = 200
DEFAULT_OVERLAP_WORDS = 40


def _word_spans(text: str, lo: int, hi: int, max_chars: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for m in _WORD.finditer(text, lo, hi):
        s, e = m.span()
        while e - s > max_chars:
            spans.append((s, s + max_chars))
            s += max_chars
        spans.append((s, e))
    return spans


def _sentences(text: str, lo: int, hi: int, max_chars: int) -> list[list[tuple[int, int]]]:
    """Word spans of [lo, hi) grouped into sentences (:mod:`assistant.ingest.sentences`)."""
    sentences: list[list[tuple[int, int]]] = []
    for s, e in iter_sentence_spans(text, lo, hi):
        words = _word_spans(text, s, e, max_chars)
        if words:
            sentences.append(words)
    return sentences


def _pack(
    sentences: list[list[tuple[int, int]]], max_words: int, overlap_words: int
) -> list[tuple[int, int]]:
    """Pack sentences into windows of at most max_words words; return (start, end) spans."""
    # split over-long sentences into max_words pieces first
    units: list[list[tuple[int, int]]] = []
    for sent in sentences:
        for i in range(0, len(sent), max_words):
            units.append(sent[i : i + max_words])
    windows: list[tuple[int, int]] = []
    i = 0
    n = len(units)
    while i < n:
        words = 0
        j = i
        while j < n and (words + len(units[j]) <= max_words or j == i):
            words += len(units[j])
            j += 1
        windows.append((units[i][0][0], units[j - 1][-1][1]))
        if j >= n:
            break
        # step back over whole sentences for overlap, but always advance
        back = j
        carried = 0
        while back - 1 > i and carried + len(units[back - 1]) <= overlap_words:
            back -= 1
            carried += len(units[back])
        i = back
    return windows


def chunk_text(
    text: str,
    *,
    max_words: int = DEFAULT_MAX_WORDS,
    overlap_words: int = DEFAULT_OVERLAP_WORDS,
    lo: int = 0,
    hi: int | None = None,
    max_chars: int = MAX_WORD_CHARS,
) -> list[tuple[int, int]]:
    """(start, end) spans of passages over ``text[lo:hi]``."""
    hi = len(text) if hi is None else hi
    if max_words < 1:
        raise ValueError("max_words must be at least 1")
    overlap_words = max(0, min(overlap_words, max_words - 1))
    return _pack(_sentences(text, lo, hi, max_chars), max_words, overlap_words)


def chunk_document(
    doc_id: str,
    text: str,
    *,
    max_words: int = DEFAULT_MAX_WORDS,
    overlap_words: int = DEFAULT_OVERLAP_WORDS,
    pages: Sequence[tuple[int, int]] | None = None,
) -> list[Passage]:
    """Chunk a document; ``pages`` gives (start, end) offsets of 1-based pages."""
    regions: list[tuple[int, int, int | None]]
    regions = [(s, e, i + 1) for i, (s, e) in enumerate(pages)] if pages else [(0, len(text), None)]
    passages: list[Passage] = []
    for lo, hi, page in regions:
        for start, end in chunk_text(
            text, max_words=max_words, overlap_words=overlap_words, lo=lo, hi=hi
        ):
            passages.append(
                Passage(
                    doc_id=doc_id,
                    ordinal=len(passages),
                    text=text[start:end],
                    start=start,
                    end=end,
                    page=page,
                )
            )
    return passages
