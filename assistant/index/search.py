"""Plain document search over one index: dense, BM25, or hybrid (RRF).

Passages are retrieved, then grouped into documents by monolithic late fusion
(paper 003 §2.2.2: a document's score is the mean of its top-K_R passage
scores). Hybrid fuses the dense and BM25 document rankings with reciprocal rank
fusion (Cormack et al. 2009). This is ``sphere search``; the perspective-aware
retriever in :mod:`assistant.retrieval` builds on the same index calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from assistant.embed import Embedder
from assistant.errors import InputError
from assistant.index.store import Index
from assistant.models import Document, DocumentHit, Passage, PassageHit

Mode = Literal["dense", "bm25", "hybrid"]


def late_fusion_rows(
    doc_rows: np.ndarray, scores: np.ndarray, k_r: int
) -> tuple[np.ndarray, np.ndarray]:
    """Mean of the top-``k_r`` passage scores per document (paper 003 §2.2.2).

    ``doc_rows`` and ``scores`` describe one query's passages (any order; -1
    rows are ignored). Returns (unique doc rows, fused scores) sorted by score
    descending, ties by doc row.
    """
    keep = doc_rows >= 0
    doc_rows, scores = doc_rows[keep], scores[keep]
    if len(doc_rows) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    order = np.lexsort((-scores, doc_rows))  # by doc, then score desc
    d, s = doc_rows[order], scores[order]
    starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])
    ends = np.r_[starts[1:], len(d)]
    fused = np.array(
        [s[a : min(b, a + k_r)].mean() for a, b in zip(starts, ends, strict=True)],
        dtype=np.float32,
    )
    docs = d[starts]
    rank = np.lexsort((docs, -fused))
    return docs[rank], fused[rank]


def rrf(rankings: Sequence[np.ndarray], k: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Reciprocal rank fusion: score(d) = Σ_lists 1 / (k + rank_d), ranks from 1."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for r, d in enumerate(ranking, 1):
            scores[int(d)] = scores.get(int(d), 0.0) + 1.0 / (k + r)
    if not scores:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    items = sorted(scores.items(), key=lambda x: (-x[1], x[0]))
    return (np.array([d for d, _ in items], np.int64), np.array([s for _, s in items], np.float32))


def _doc_ranking(
    index: Index, scores: np.ndarray, pids: np.ndarray, k_r: int
) -> tuple[np.ndarray, np.ndarray, dict[int, list[tuple[int, float]]]]:
    valid = pids >= 0
    pids, scores = pids[valid], scores[valid]
    rows = index.doc_index(pids)
    docs, fused = late_fusion_rows(rows, scores, k_r)
    evidence: dict[int, list[tuple[int, float]]] = {}
    for pid, row, sc in zip(pids, rows, scores, strict=True):
        evidence.setdefault(int(row), []).append((int(pid), float(sc)))
    for v in evidence.values():
        v.sort(key=lambda x: -x[1])
    return docs, fused, evidence


def search(
    index: Index,
    embedder: Embedder | None,
    query: str,
    *,
    k: int = 10,
    mode: Mode = "dense",
    candidates: int = 200,
    k_r: int = 1,
    rrf_k: int = 60,
    max_passages: int = 3,
) -> list[DocumentHit]:
    """Rank documents for ``query``; each hit carries its best passages."""
    query = (query or "").strip()
    if not query:
        raise InputError("the query is empty", hint="type some words to search for")
    if mode not in ("dense", "bm25", "hybrid"):
        raise InputError(f"unknown search mode {mode!r}", hint="use dense, bm25 or hybrid")
    per_method: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    evidence: dict[int, list[tuple[int, float]]] = {}
    if mode in ("dense", "hybrid"):
        if embedder is None:
            raise InputError("dense search needs an embedder")
        q = embedder.encode([query])
        s, p = index.search_dense(q, candidates)
        docs, fused, ev = _doc_ranking(index, s[0], p[0], k_r)
        per_method["dense"] = (docs, fused)
        evidence = ev
    if mode in ("bm25", "hybrid"):
        s, p = index.search_bm25([query], candidates)
        docs, fused, ev = _doc_ranking(index, s[0], p[0], k_r)
        per_method["bm25"] = (docs, fused)
        for row, items in ev.items():
            evidence.setdefault(row, items)
    if mode == "hybrid":
        final_docs, final_scores = rrf([per_method["dense"][0], per_method["bm25"][0]], rrf_k)
    else:
        final_docs, final_scores = per_method[mode]
    final_docs, final_scores = final_docs[:k], final_scores[:k]
    return hydrate(index, final_docs, final_scores, evidence, per_method, max_passages)


def fetch_for_hits(
    index: Index,
    doc_rows: np.ndarray,
    evidence: dict[int, list[tuple[int, float]]],
    max_passages: int = 3,
) -> tuple[dict[int, Document], dict[int, Passage]]:
    """The documents of ``doc_rows`` and their best ``max_passages`` evidence passages.

    One SQLite read for the passages with their documents; a second one only
    for documents without an evidence passage (folded copies).
    """
    want = [pid for r in doc_rows for pid, _ in evidence.get(int(r), [])[:max_passages]]
    passages, docs = index.passages_and_documents(want)
    missing = [int(r) for r in doc_rows if int(r) not in docs]
    if missing:
        docs.update(index.documents_by_row(missing, brief=True))
    return docs, passages


def hydrate(
    index: Index,
    doc_rows: np.ndarray,
    scores: np.ndarray,
    evidence: dict[int, list[tuple[int, float]]],
    per_method: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
    max_passages: int = 3,
    fetched: tuple[dict[int, Document], dict[int, Passage]] | None = None,
) -> list[DocumentHit]:
    """Turn document rows into :class:`DocumentHit` with passages and per-method scores.

    ``fetched`` is (documents by row, passages by id) already read with
    :func:`fetch_for_hits`, so that several lists (the two sides) cost one
    SQLite read; without it they are read here.
    """
    docs, passages = fetched or fetch_for_hits(index, doc_rows, evidence, max_passages)
    method_scores = {
        name: dict(
            zip(np.asarray(ds).tolist(), np.asarray(ss, dtype=np.float64).tolist(), strict=True)
        )
        for name, (ds, ss) in (per_method or {}).items()
    }
    hits: list[DocumentHit] = []
    for rank, (row, score) in enumerate(zip(doc_rows, scores, strict=True), 1):
        doc = docs.get(int(row))
        if doc is None:
            continue
        phits = []
        for pid, sc in evidence.get(int(row), [])[:max_passages]:
            p = passages.get(pid)
            if p is not None:
                phits.append(PassageHit(pid, doc.doc_id, sc, p.text, p.start, p.end, p.page))
        hits.append(
            DocumentHit(
                doc_id=doc.doc_id,
                score=float(score),
                rank=rank,
                title=doc.title,
                source=doc.source,
                path=doc.path,
                passages=phits,
                scores={m: s[int(row)] for m, s in method_scores.items() if int(row) in s},
            )
        )
    return hits
