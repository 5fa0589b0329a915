"""Fusion: passages → documents, aspects → one list, runs → one run, diversity.

* :func:`late_fusion` / :func:`late_fusion_matrix` — monolithic late fusion,
  paper 003 §2.2.2 eq. (1): S(q, i) = mean of the top-K_R passage scores of i.
* :func:`aggregate_aspect_scores`, :func:`borda`, :func:`round_robin`,
  :func:`aspect_fusion` — aspect fusion, paper 003 §4.3.3.
* :func:`reciprocal_rank_fusion` — Cormack, Clarke & Büttcher (SIGIR 2009).
* :func:`mmr` — maximal marginal relevance, Carbonell & Goldstein (SIGIR 1998).

Ranks are 1-based everywhere. Ties in a ranking are broken by first
appearance (stable sorts), so results are deterministic.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Literal, TypeVar

import numpy as np

T = TypeVar("T", bound=Hashable)

ScoreAggregator = Literal["amean", "gmean", "hmean", "min"]
RankAggregator = Literal["borda", "round_robin"]
Aggregator = Literal["amean", "gmean", "hmean", "min", "borda", "round_robin"]
SCORE_AGGREGATORS: tuple[str, ...] = ("amean", "gmean", "hmean", "min")
RANK_AGGREGATORS: tuple[str, ...] = ("borda", "round_robin")
AGGREGATORS: tuple[str, ...] = SCORE_AGGREGATORS + RANK_AGGREGATORS

_EPS = 1e-9


# --- late fusion (paper 003 §2.2.2, eq. 1) ----------------------------------------


def late_fusion(
    doc_ids: np.ndarray, scores: np.ndarray, k_r: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Monolithic late fusion: S(q, i) = (1/K_R) Σ_{r ≤ K_R} S(q, d_{i,r}) (paper 003 eq. 1).

    ``doc_ids[j]`` is the document of passage ``j``, ``scores[j]`` its score for
    the query (any subset of passages, e.g. FAISS candidates). A document with
    fewer than ``k_r`` passages is scored by the mean of the passages it has.
    Returns ``(docs, doc_scores)`` sorted by score, best first (ties: lower id).
    """
    if k_r < 1:
        raise ValueError("k_r must be at least 1")
    doc_ids = np.asarray(doc_ids)
    scores = np.asarray(scores, dtype=np.float64)
    if doc_ids.shape != scores.shape or doc_ids.ndim != 1:
        raise ValueError("doc_ids and scores must be 1-D arrays of the same length")
    if len(doc_ids) == 0:
        return doc_ids[:0], np.zeros(0, dtype=np.float32)
    order = np.lexsort((-scores, doc_ids))  # by document, then best passage first
    d, s = doc_ids[order], scores[order]
    first = np.r_[True, d[1:] != d[:-1]]
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    keep = (np.arange(len(d)) - starts[group]) < k_r
    sums = np.bincount(group[keep], weights=s[keep])
    counts = np.bincount(group[keep])
    docs = d[starts]
    fused = sums / counts
    rank = np.lexsort((docs, -fused))
    return docs[rank], fused[rank].astype(np.float32)


class PassageLayout:
    """Passages grouped by document, padded, for batched late fusion over a corpus.

    ``passage_doc[j]`` is the document index (0..D-1) of passage ``j``. Built once
    per corpus; :func:`late_fusion_matrix` then fuses (Q, P) score matrices.
    """

    def __init__(self, passage_doc: np.ndarray, n_docs: int | None = None) -> None:
        passage_doc = np.asarray(passage_doc, dtype=np.int64)
        self.n_docs = int(n_docs if n_docs is not None else passage_doc.max() + 1)
        counts = np.bincount(passage_doc, minlength=self.n_docs)
        self.counts = counts
        width = int(counts.max()) if len(counts) else 0
        order = np.argsort(passage_doc, kind="stable")
        starts = np.r_[0, np.cumsum(counts)[:-1]]
        slot = np.arange(len(order)) - starts[passage_doc[order]]
        self.index = np.full((self.n_docs, max(width, 1)), -1, dtype=np.int64)
        self.index[passage_doc[order], slot] = order


def late_fusion_matrix(
    scores: np.ndarray, layout: PassageLayout, k_r: int = 1, chunk: int = 64
) -> np.ndarray:
    """Batched :func:`late_fusion` for all documents: (Q, P) passage scores → (Q, D).

    Documents without passages score ``-inf``; a document with fewer than
    ``k_r`` passages gets the mean of those it has (as :func:`late_fusion`).
    """
    if k_r < 1:
        raise ValueError("k_r must be at least 1")
    scores = np.atleast_2d(np.asarray(scores, dtype=np.float32))
    idx = layout.index
    pad = idx < 0
    width = idx.shape[1]
    kk = min(k_r, width)
    n_used = np.minimum(layout.counts, kk).astype(np.float32)
    out = np.empty((len(scores), layout.n_docs), dtype=np.float32)
    for start in range(0, len(scores), chunk):
        block = scores[start : start + chunk][:, np.where(pad, 0, idx)]  # (b, D, W)
        block[:, pad] = -np.inf
        if kk < width:
            block = np.partition(block, width - kk, axis=2)[:, :, width - kk :]
        top = np.where(np.isfinite(block), block, 0.0).sum(axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + chunk] = np.where(n_used > 0, top / n_used, -np.inf)
    return out


# --- aspect fusion (paper 003 §4.3.3) ---------------------------------------------


def aggregate_aspect_scores(aspect_scores: np.ndarray, method: ScoreAggregator) -> np.ndarray:
    """Score-based aspect fusion: (A, D) aspect-item scores → (D,) query-item scores.

    Paper 003 §4.3.3: AMean (arithmetic), GMean (geometric), HMean (harmonic)
    mean, or Min over the A aspects. The paper does not say how an item absent
    from an aspect's list is scored; here NaN marks "absent" and is replaced by
    that aspect's lowest observed score (the item is at least as bad as the
    worst item the aspect saw). GMean and HMean are defined for positive scores:
    inputs are clipped to ≥ 1e-9, so map cosines to (0, 1] first, e.g. (1 + cos)/2.
    """
    S = np.atleast_2d(np.asarray(aspect_scores, dtype=np.float64))
    if np.isnan(S).any():
        floor = np.nanmin(np.where(np.isnan(S), np.inf, S), axis=1, keepdims=True)
        floor = np.where(np.isfinite(floor), floor, 0.0)
        S = np.where(np.isnan(S), floor, S)
    if method == "amean":
        out = S.mean(axis=0)
    elif method == "gmean":
        out = np.exp(np.log(np.clip(S, _EPS, None)).mean(axis=0))
    elif method == "hmean":
        out = len(S) / (1.0 / np.clip(S, _EPS, None)).sum(axis=0)
    elif method == "min":
        out = S.min(axis=0)
    else:
        raise ValueError(f"unknown score aggregator {method!r}; use one of {SCORE_AGGREGATORS}")
    return out.astype(np.float32)


def borda(ranked_lists: Sequence[Sequence[T]], k_i: int | None = None) -> list[tuple[T, float]]:
    """Borda count (paper 003 §4.3.3): score(i) = Σ_j (K_I − rank_{L_j}(i) + 1).

    Each list is cut to its top ``k_i`` (default: the longest list's length);
    an item missing from a list gets 0 from it. Returns ``(item, points)``
    best first; ties keep the order of first appearance (list by list).
    """
    k = k_i if k_i is not None else max((len(lst) for lst in ranked_lists), default=0)
    points: dict[T, float] = {}
    for lst in ranked_lists:
        for rank, item in enumerate(lst[:k], start=1):
            points[item] = points.get(item, 0.0) + (k - rank + 1)
    return sorted(points.items(), key=lambda kv: -kv[1])


def round_robin(ranked_lists: Sequence[Sequence[T]], k: int | None = None) -> list[T]:
    """Round-robin (interleaved) merge (paper 003 §4.3.3).

    Lists are visited cyclically; each visit takes that list's next item. When
    the item is already merged (a conflict) it is skipped and the merge takes
    the next item *from the same list*. Stops after ``k`` items (default: all).
    """
    pos = [0] * len(ranked_lists)
    seen: set[T] = set()
    out: list[T] = []
    limit = k if k is not None else sum(len(lst) for lst in ranked_lists)
    while len(out) < limit:
        progressed = False
        for j, lst in enumerate(ranked_lists):
            while pos[j] < len(lst) and lst[pos[j]] in seen:
                pos[j] += 1
            if pos[j] < len(lst):
                item = lst[pos[j]]
                pos[j] += 1
                seen.add(item)
                out.append(item)
                progressed = True
                if len(out) >= limit:
                    break
        if not progressed:
            break
    return out


def top_k_indices(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest scores, best first (ties: lower index)."""
    scores = np.asarray(scores)
    k = min(k, len(scores))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
    return part[np.lexsort((part, -scores[part]))]


def aspect_fusion(aspect_scores: np.ndarray, method: Aggregator, k_i: int = 10) -> np.ndarray:
    """Aspect fusion of (A, D) aspect-item scores S(a, i) into the top ``k_i`` items.

    Score-based methods aggregate all D scores (:func:`aggregate_aspect_scores`);
    rank-based methods first cut each aspect to its top-K_I list L_a (paper 003
    §4.3.2), then apply :func:`borda` or :func:`round_robin`. Returns item indices.
    """
    S = np.atleast_2d(np.asarray(aspect_scores))
    if method in SCORE_AGGREGATORS:
        return top_k_indices(aggregate_aspect_scores(S, method), k_i)  # type: ignore[arg-type]
    lists = [top_k_indices(row, k_i).tolist() for row in S]
    if method == "borda":
        return np.asarray([i for i, _ in borda(lists, k_i)[:k_i]], dtype=np.int64)
    if method == "round_robin":
        return np.asarray(round_robin(lists, k_i), dtype=np.int64)
    raise ValueError(f"unknown aggregator {method!r}; use one of {AGGREGATORS}")


# --- reciprocal rank fusion ---------------------------------------------------------


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[T]],
    k: int = 60,
    weights: Sequence[float] | None = None,
) -> list[tuple[T, float]]:
    """RRF (Cormack et al. 2009): score(d) = Σ_runs w_run / (k + rank_run(d)), ranks 1-based.

    Returns ``(item, score)`` best first; ties keep first appearance.
    """
    if weights is not None and len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    fused: dict[T, float] = {}
    for j, run in enumerate(rankings):
        w = 1.0 if weights is None else float(weights[j])
        for rank, item in enumerate(run, start=1):
            fused[item] = fused.get(item, 0.0) + w / (k + rank)
    return sorted(fused.items(), key=lambda kv: -kv[1])


# --- maximal marginal relevance ------------------------------------------------------


def mmr(
    relevance: np.ndarray,
    embeddings: np.ndarray | None,
    k: int,
    lambda_: float = 0.7,
    *,
    similarity: np.ndarray | None = None,
) -> list[int]:
    """Greedy MMR (Carbonell & Goldstein 1998): argmax λ·rel(i) − (1−λ)·max_{s∈S} sim(i, s).

    ``relevance``: (n,) scores. Similarity is the inner product of the rows of
    ``embeddings`` ((n, d) unit vectors → cosine), or the given (n, n)
    ``similarity`` matrix. The first pick is the most relevant item (S empty).
    Returns selected indices in selection order.
    """
    rel = np.asarray(relevance, dtype=np.float64)
    n = len(rel)
    k = min(k, n)
    if k <= 0:
        return []
    if similarity is None:
        if embeddings is None:
            raise ValueError("mmr needs embeddings or a similarity matrix")
        E = np.asarray(embeddings, dtype=np.float64)
        sim_of = lambda i: E @ E[i]  # noqa: E731
    else:
        Sm = np.asarray(similarity, dtype=np.float64)
        sim_of = lambda i: Sm[:, i]  # noqa: E731
    max_sim = np.zeros(n)
    chosen: list[int] = []
    available = np.ones(n, dtype=bool)
    for step in range(k):
        value = lambda_ * rel - (1.0 - lambda_) * max_sim if step else rel.copy()
        value[~available] = -np.inf
        i = int(np.argmax(value))
        chosen.append(i)
        available[i] = False
        sim_i = sim_of(i)
        max_sim = sim_i if step == 0 else np.maximum(max_sim, sim_i)
    return chosen
