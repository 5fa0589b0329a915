"""Retrieved documents prepared for summarizing: passages split into sentences.

A :class:`SourceDoc` is one retrieved document with the side that retrieved it,
its retrieval score and rank, and its passages. Every :class:`Sentence` keeps
the passage id and its character offsets in the passage text, so a quote taken
from it is always an exact substring of ``Index.passage_text(passage_id)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from assistant.models import DocumentHit, Passage, Side

# a sentence ends at . ! ? (optionally closed by quotes/brackets) before whitespace,
# or at a line break (lists and Q&A documents put one item per line)
_SENT_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s)|\n")
MIN_WORDS = 4
MAX_SENTENCE_CHARS = 400


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

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.passages)


def sentence_spans(text: str, *, min_words: int = MIN_WORDS) -> list[tuple[int, int]]:
    """(start, end) of the sentences of ``text``, whitespace trimmed.

    Fragments shorter than ``min_words`` words are joined to the next sentence
    (a list heading such as "1." is not a perspective); a text with no full
    sentence yields one span covering it. Very long sentences are kept whole
    up to ``MAX_SENTENCE_CHARS`` and cut there at a space.
    """
    spans: list[tuple[int, int]] = []
    pos = 0
    pending = None
    for m in _SENT_END.finditer(text):
        end = m.end()
        s, e = _trim(text, pending if pending is not None else pos, end)
        pos = end
        if e <= s:
            continue
        if len(text[s:e].split()) < min_words:
            pending = s
            continue
        pending = None
        spans.append((s, e))
    s, e = _trim(text, pending if pending is not None else pos, len(text))
    if e > s and (len(text[s:e].split()) >= min_words or not spans):
        spans.append((s, e))
    out = []
    for s, e in spans:
        if e - s > MAX_SENTENCE_CHARS:
            cut = text.rfind(" ", s, s + MAX_SENTENCE_CHARS)
            e = cut if cut > s else s + MAX_SENTENCE_CHARS
        out.append((s, e))
    return out


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


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
