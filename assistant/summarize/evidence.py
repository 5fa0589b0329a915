"""Retrieved documents prepared for summarizing: passages split into sentences.

A :class:`SourceDoc` is one retrieved document with the side that retrieved it,
its retrieval score and rank, and its passages. Every :class:`Sentence` keeps
the passage id and its character offsets in the passage text, so a quote taken
from it is always an exact substring of ``Index.passage_text(passage_id)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from assistant.models import DocumentHit, Passage, Side

MIN_WORDS = 4
# a list marker or a section number opening a line: "- ", "• ", "3. ", "2) ", "(b) ",
# "2.4 " before a capital; the item's sentence is quoted without it. A bare letter
# ("A. Smith argued") and a number without a stop ("12 Angry Men") are text
_LEADING_MARKER = re.compile(
    r"(?:[-–—*•▪◦‣·]|\d{1,3}[.)]|\([A-Za-z0-9]{1,3}\)|\d{1,2}(?:\.\d{1,2})+(?=\s+[A-Z\"“‘']))\s+(?=\S)"
)
# longer "sentences" are run-on text (a line with no full stop): 1,000 characters is
# about 170 words, far past the stance model's sentence window
MAX_SENTENCE_CHARS = 1000
# how a sentence ends: a full stop, "!", "?" or an ellipsis, closing quotes and brackets
# after it; a line without one is no sentence, and its penalty is more than any two
# sentences' scores differ by (cosines and centrality lie in [-1, 1] and are weighted)
_SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*$")
NOT_A_SENTENCE = 2.0
Judgement = tuple[float, float, float]


@dataclass
class Sentence:
    """A sentence of a passage: ``passage_text[start:end] == text``."""

    doc_id: str
    passage_id: int
    start: int
    end: int
    text: str
    page: int | None = None


@dataclass
class SourceDoc:
    """A retrieved document as the summarizer sees it."""

    doc_id: str
    title: str = ""
    source: str = ""
    path: str = ""
    score: float = 0.0
    rank: int = 0
    side: Side | None = None  # the side whose retrieval found it (best rank)
    side_ranks: dict[str, int] = field(default_factory=dict)  # side -> rank there
    passages: list[Passage] = field(default_factory=list)
    sentences: list[Sentence] = field(default_factory=list)
    # passage id -> its retrieval score, for the passages retrieval found
    passage_scores: dict[int, float] = field(default_factory=dict)
    # passage id -> (sentence spans, unit vectors) stored with the index at build time
    # (:mod:`assistant.index.sentences`); empty: the summarizer embeds the sentences
    stored_vectors: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.passages)


def sentence_spans(text: str, *, min_words: int = MIN_WORDS) -> list[tuple[int, int]]:
    """(start, end) of the sentences of ``text``, whitespace trimmed.

    The sentences are the chunker's (:mod:`assistant.ingest.sentences`), so a
    quote is a whole sentence of the document. A sentence shorter than
    ``min_words`` words is joined to the next sentence of its line, or at the
    line's end to the one before ("Short one. Do they help?" stays one unit);
    a short line (a heading) stays alone, never glued to the next line. A
    sentence over ``MAX_SENTENCE_CHARS`` (a run-on line with no full stop) is
    cut there at a space: the one case a span is not a whole sentence. A list
    marker or section number opening a span ("- ", "3. ", "2.4 ") is left out of
    it: the item's sentence is what a quote shows.
    """
    from assistant.ingest.sentences import iter_sentence_spans

    lines: list[list[tuple[int, int]]] = []
    for s, e in iter_sentence_spans(text):
        if lines and "\n" not in text[lines[-1][-1][1] : s]:
            lines[-1].append((s, e))
        else:
            lines.append([(s, e)])
    out: list[tuple[int, int]] = []
    for line in lines:
        out.extend(
            _cut(text, *_unmarked(text, s, e)) for s, e in _join_short(text, line, min_words)
        )
    return out


def _unmarked(text: str, s: int, e: int) -> tuple[int, int]:
    """The span without a list marker or section number at its start."""
    m = _LEADING_MARKER.match(text, s, e)
    return (m.end(), e) if m and m.end() < e else (s, e)


def judgement_at(
    passage_stance: dict[int, Judgement],
    unit_stance: dict[tuple[int, int], Judgement],
    passage_id: int,
    start: int,
) -> Judgement | None:
    """The stance model's own reading of the passage part that holds a quote.

    ``unit_stance`` maps (passage id, sentence start) to the judgement of the
    paragraph holding that sentence, for passages judged paragraph by paragraph
    (:func:`paragraph_units`); ``passage_stance`` maps a passage judged whole to
    its judgement. ``None``: the stance model did not read that passage.
    """
    got = unit_stance.get((passage_id, start))
    return got if got is not None else passage_stance.get(passage_id)


def _join_short(text: str, line: list[tuple[int, int]], min_words: int) -> list[tuple[int, int]]:
    """Join each short sentence of one line to the next (the last one to the one before)."""
    spans: list[tuple[int, int]] = []
    open_short = False
    for s, e in line:
        if open_short:
            s = spans.pop()[0]
        spans.append((s, e))
        open_short = len(text[s:e].split()) < min_words
    if open_short and len(spans) > 1:
        last = spans.pop()
        spans[-1] = (spans[-1][0], last[1])
    return spans


def _cut(text: str, s: int, e: int) -> tuple[int, int]:
    if e - s <= MAX_SENTENCE_CHARS:
        return s, e
    cut = text.rfind(" ", s, s + MAX_SENTENCE_CHARS)
    return s, (cut if cut > s else s + MAX_SENTENCE_CHARS)


def split_passages(doc_id: str, passages: list[Passage]) -> list[Sentence]:
    """All sentences of ``passages`` with passage ids and offsets (duplicates dropped).

    Passages overlap (chunking keeps whole sentences of context), so a sentence
    seen in an earlier passage is not repeated.
    """
    seen: set[str] = set()
    out: list[Sentence] = []
    for p in passages:
        for s, e in sentence_spans(p.text):
            text = p.text[s:e]
            key = " ".join(text.split()).lower()
            if key in seen:
                continue
            seen.add(key)
            out.append(Sentence(doc_id, p.passage_id, s, e, text, p.page))
    return out


def pool_documents(hits: dict[str, list[DocumentHit]], limit: int) -> list[SourceDoc]:
    """The documents to summarize: the per-side rankings interleaved, de-duplicated.

    Sides alternate rank by rank (pro 1, con 1, pro 2, …) so a pool of
    ``limit`` documents holds both sides evenly when both have hits; a
    document found by both sides keeps its best score and both ranks, and
    ``side`` is the side where it ranked higher.
    """
    docs: dict[str, SourceDoc] = {}
    order: list[str] = []
    sides = [s for s in ("pro", "con") if s in hits] + [s for s in hits if s not in ("pro", "con")]
    depth = max((len(v) for v in hits.values()), default=0)
    for i in range(depth):
        for side in sides:
            ranked = hits[side]
            if i >= len(ranked):
                continue
            h = ranked[i]
            d = docs.get(h.doc_id)
            if d is None:
                d = SourceDoc(
                    doc_id=h.doc_id,
                    title=h.title,
                    source=h.source,
                    path=h.path,
                    score=float(h.score),
                    rank=len(order) + 1,
                    side=side if side in ("pro", "con") else None,
                )
                docs[h.doc_id] = d
                order.append(h.doc_id)
            else:
                d.score = max(d.score, float(h.score))
            d.side_ranks.setdefault(side, i + 1)
    return [docs[k] for k in order[:limit]]


def unit_rows(v: np.ndarray) -> np.ndarray:
    """Each row of ``v`` scaled to unit length (a zero row stays zero)."""
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.maximum(n, 1e-12)


def shape_penalty(sentence: str) -> float:
    """Sentences that make poor perspectives (a score penalty): questions and short
    fragments; and a line that does not end as a sentence ends (a heading, a link's
    text, a bibliography entry: "ETN, 'Tunisia's tourism picking up …' 13 August
    2013"), which is never chosen while its document has a sentence that does."""
    words = len(sentence.split())
    penalty = 0.0
    if sentence.rstrip(" \"'”’)").endswith("?"):
        penalty += 0.2
    if words < 6:
        penalty += 0.1
    if not ends_as_sentence(sentence):
        penalty += NOT_A_SENTENCE
    return penalty


def ends_as_sentence(text: str) -> bool:
    """Whether ``text`` ends as a sentence does (``_SENTENCE_END``), not as a heading,
    a link's text or a bibliography entry."""
    return bool(_SENTENCE_END.search(text.rstrip()))
