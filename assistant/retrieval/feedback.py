"""Pseudo-relevance feedback on the candidate pool: document-graph smoothing and lexical RM3.

Both work on numbers the retriever already holds for its candidate pool (a few
hundred passages), so they add no search over the full index.

* :func:`graph_smooth` — score propagation from the top documents to their
  neighbours: s'(d) = s(d) + β · mean_{d' ∈ top-m, d' ≠ d} cos(d, d') · s(d').
  It is the one-step, top-m-restricted form of cluster-based smoothing
  (Diaz 2005, "Regularizing ad hoc retrieval scores", CIKM, eq. 4) and of
  graph-based re-ranking (Kurland & Lee 2005, "PageRank without hyperlinks").
* :func:`knn_regularize` — every top document's score pulled toward the mean
  score of its k nearest neighbours among the top documents:
  s'(d) = (1 − δ)·s(d) + δ · mean_{n ∈ kNN(d)} s(n). This is Diaz 2005's
  score regularization (eq. 6, f* = (1 − α) f + α W f with W the row-normalised
  k-nearest-neighbour graph) taken one step: the cluster hypothesis says a
  relevant passage's neighbours are relevant too, so a document among
  well-scored neighbours rises and an isolated keyword match falls.
* :func:`rm3_weights` — the relevance-model term distribution of the feedback
  documents, RM1 (Lavrenko & Croft 2001, eq. 9: P(w|R) ∝ Σ_D P(w|D) · P(q|D)),
  truncated to the top terms and renormalised, as in RM3 (Abdul-Jaleel et al.
  2004, UMass at TREC 2004). Here P(w|D) is the term's share of the document's
  BM25 mass (an idf-weighted P(w|D)) and P(q|D) the document's retrieval score.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import numpy as np

_EPS = 1e-12
W = TypeVar("W", bound=Hashable)


def graph_smooth(scores: np.ndarray, emb: np.ndarray, m: int, beta: float) -> np.ndarray:
    """s'(d) = s(d) + β · mean_{d' ∈ top-m(s), d' ≠ d} cos(d, d') · s(d').

    ``scores`` (D,) document scores, ``emb`` (D, dim) one vector per document
    (normalised here, so any non-zero vectors do). Diaz 2005 eq. 4 restricted
    to the top-m documents as the only sources of propagated score. A top
    document does not vote for itself (its own score already counts once).
    ``beta == 0`` or ``m == 0`` returns the scores unchanged.
    """
    s = np.asarray(scores, dtype=np.float64)
    if beta == 0 or m <= 0 or len(s) < 2:
        return s.astype(np.float32)
    e = np.asarray(emb, dtype=np.float64)
    e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), _EPS)
    top = np.argsort(-s, kind="stable")[:m]
    sim = e @ e[top].T  # (D, m)
    sim[top, np.arange(len(top))] = 0.0  # no self-vote
    others = np.full(len(s), float(len(top)))
    others[top] -= 1.0
    prop = (sim @ s[top]) / np.maximum(others, 1.0)
    return (s + beta * prop).astype(np.float32)


SAME_TEXT_COSINE = 0.999  # neighbours this close are the same text, not independent evidence


def knn_regularize(
    scores: np.ndarray, emb: np.ndarray, k: int, delta: float, top: int
) -> np.ndarray:
    """s'(d) = (1 − δ)·s(d) + δ · mean_{n ∈ kNN(d)} s(n) for the ``top`` best documents.

    Diaz 2005, "Regularizing ad hoc retrieval scores" (CIKM), eq. 6 with one
    step and W the row-normalised k-nearest-neighbour graph of the ``top``
    best-scoring documents (cosine of ``emb`` rows, normalised here). A
    document's own copies (cosine ≥ :data:`SAME_TEXT_COSINE`) are not its
    neighbours: the same text twice is one piece of evidence. Documents outside
    the top keep their score (the graph is built on the head of the ranking
    only, which is all the cut at k reads, and keeps the cost O(top²)).
    ``delta == 0``, ``k == 0`` or fewer than k + 1 documents in the top
    returns the scores unchanged.
    """
    s = np.asarray(scores, dtype=np.float64)
    head = np.argsort(-s, kind="stable")[: max(int(top), 0)]
    if delta == 0 or k <= 0 or len(head) <= k:
        return s.astype(np.float32)
    e = np.asarray(emb, dtype=np.float32)[head]
    e = e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), np.float32(_EPS))
    sim = e @ e.T  # float32: the order of neighbours, not their cosines, is what counts
    sim[sim >= SAME_TEXT_COSINE] = -np.inf  # itself and its copies
    usable = np.isfinite(sim).sum(1)
    kk = min(k, int(usable.min())) if len(usable) else 0
    if kk <= 0:
        return s.astype(np.float32)
    nn = np.argpartition(-sim, kk - 1, axis=1)[:, :kk]
    out = s.copy()
    out[head] = (1.0 - delta) * s[head] + delta * s[head][nn].mean(1)
    return out.astype(np.float32)


def rm3_weights(
    feedback: Sequence[Mapping[W, float]],
    doc_scores: Sequence[float],
    n_terms: int,
) -> dict[W, float]:
    """RM1 term weights of the feedback documents, top ``n_terms``, summing to 1.

    ``feedback[i]`` maps each term of document i to its weight in i (here its
    BM25 contribution); P(w|D_i) = weight / Σ weights of D_i, and
    P(w|R) ∝ Σ_i P(w|D_i) · doc_scores[i] (Lavrenko & Croft 2001, eq. 9). Ties
    in the cut are broken by term, so the result is deterministic.
    """
    if len(feedback) != len(doc_scores):
        raise ValueError("one score per feedback document")
    acc: dict[W, float] = {}
    for terms, ds in zip(feedback, doc_scores, strict=True):
        total = sum(v for v in terms.values() if v > 0)
        if total <= 0 or ds <= 0:
            continue
        for w, v in terms.items():
            if v > 0:
                acc[w] = acc.get(w, 0.0) + ds * v / total
    best = sorted(acc.items(), key=lambda x: (-x[1], str(x[0])))[: max(n_terms, 0)]
    z = sum(v for _w, v in best)
    return {w: v / z for w, v in best} if z > 0 else {}
