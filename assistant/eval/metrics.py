"""Evaluation metrics, exactly as the papers define them (pure functions).

Rankings are sequences of document ids, best first; ranks are 1-based.
Metrics return fractions in [0, 1] (harnesses multiply by 100 where the paper
reports percent).

* :func:`p_recall_at_k` — paper 000 eq. (1) (PIR).
* :func:`recall_at_k`, :func:`mean_recall_at_k` — paper 004 eq. (2), which is
  also paper 003's Re@k (one relevant item per query → hit@k).
* :func:`cover_at_k` — paper 004 eq. (3).
* :func:`average_precision_at_k`, :func:`map_at_k` — paper 003's MAP@k.
* :func:`ndcg_at_k` — trec_eval's nDCG@k (linear gains).
* :func:`qa_f1` — paper 000 A.8 (perspective extraction).
* :func:`sicr`, :func:`wise` — paper 002 eqs. (1)–(6), K = 20.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import TypeVar

D = TypeVar("D", bound=Hashable)


def success_at_k(ranking: Sequence[D], gold: Collection[D], k: int) -> float:
    """1.0 if any gold document is in the top ``k`` of ``ranking``, else 0.0."""
    gold_set = set(gold)
    return 1.0 if any(d in gold_set for d in ranking[:k]) else 0.0


def p_recall_from_successes(successes: Sequence[float], roots: Sequence[Hashable]) -> float:
    """p-Recall (paper 000 eq. 1) from per-query success values and root ids.

    For each root query r, the mean of success over the queries (perspectives)
    that share r; then the mean over root queries (each root counts once,
    however many perspectives it has).
    """
    if len(successes) != len(roots):
        raise ValueError("one root per query")
    if not successes:
        return 0.0
    by_root: dict[Hashable, list[float]] = {}
    for s, r in zip(successes, roots, strict=True):
        by_root.setdefault(r, []).append(float(s))
    return sum(sum(v) / len(v) for v in by_root.values()) / len(by_root)


def p_recall_at_k(
    rankings: Sequence[Sequence[D]],
    golds: Sequence[Collection[D]],
    roots: Sequence[Hashable],
    k: int = 5,
) -> float:
    """p-Recall@k (paper 000 eq. 1).

    p-Recall@k = 1/|Q_r| Σ_{r ∈ Q_r} E_{p ∈ P_r}[success(φ, p, q, C, k)], where
    query q = p + r has root r and success means a gold document of q is in the
    top k. ``rankings[i]``, ``golds[i]``, ``roots[i]`` describe query i.

    (The PIR authors' notebook scores a root with a single perspective as 0;
    eq. 1 does not, and neither do we. In the PIR demo file every root has at
    least two perspectives, so both agree there.)
    """
    if not (len(rankings) == len(golds) == len(roots)):
        raise ValueError("rankings, golds and roots must have the same length")
    successes = [success_at_k(rk, g, k) for rk, g in zip(rankings, golds, strict=True)]
    return p_recall_from_successes(successes, roots)


def recall_at_k(ranking: Sequence[D], relevant: Collection[D], k: int) -> float:
    """|D ∩ T_k| / |D| for one query (paper 004 eq. 2, the summand)."""
    rel = set(relevant)
    if not rel:
        return 0.0
    return len(rel.intersection(ranking[:k])) / len(rel)


def mean_recall_at_k(
    rankings: Sequence[Sequence[D]], relevants: Sequence[Collection[D]], k: int
) -> float:
    """Recall@k = 1/N Σ_i |D^i ∩ T_k| / |D^i| (paper 004 eq. 2; paper 003 Re@k)."""
    if len(rankings) != len(relevants):
        raise ValueError("one relevant set per ranking")
    if not rankings:
        return 0.0
    return sum(recall_at_k(r, d, k) for r, d in zip(rankings, relevants, strict=True)) / len(
        rankings
    )


def cover_at_k(
    rankings: Sequence[Sequence[D]],
    perspective_docs: Sequence[Sequence[Collection[D]]],
    k: int,
) -> float:
    """Cover@k (paper 004 eq. 3).

    1/N Σ_i |{p_j^i : some d_m ∈ D_j^i is in T_k}| / |p^i|: the fraction of the
    query's perspectives covered by at least one of their documents in the top
    k. ``perspective_docs[i][j]`` is D_j^i, the documents of perspective j of
    query i.
    """
    if len(rankings) != len(perspective_docs):
        raise ValueError("one perspective list per ranking")
    if not rankings:
        return 0.0
    total = 0.0
    for ranking, persp in zip(rankings, perspective_docs, strict=True):
        if not persp:
            continue
        top = set(ranking[:k])
        total += sum(1 for docs in persp if top.intersection(docs)) / len(persp)
    return total / len(rankings)


def average_precision_at_k(ranking: Sequence[D], relevant: Collection[D], k: int) -> float:
    """AP@k = 1/min(|R|, k) Σ_{i ≤ k} P@i · rel_i (the summand of paper 003's MAP@10).

    With one relevant item this is 1/rank if rank ≤ k, else 0.
    """
    rel = set(relevant)
    if not rel:
        return 0.0
    hits = 0
    total = 0.0
    for i, d in enumerate(ranking[:k], start=1):
        if d in rel:
            hits += 1
            total += hits / i
    return total / min(len(rel), k)


def map_at_k(rankings: Sequence[Sequence[D]], relevants: Sequence[Collection[D]], k: int) -> float:
    """MAP@k: mean of :func:`average_precision_at_k` over queries (paper 003 §6)."""
    if len(rankings) != len(relevants):
        raise ValueError("one relevant set per ranking")
    if not rankings:
        return 0.0
    return sum(
        average_precision_at_k(r, d, k) for r, d in zip(rankings, relevants, strict=True)
    ) / len(rankings)


def ndcg_at_k(ranking: Sequence[D], gains: Mapping[D, float], k: int) -> float:
    """nDCG@k with linear gains and log2 discount (trec_eval ``ndcg_cut``).

    DCG@k = Σ_{i ≤ k} g(d_i) / log2(i + 1); normalised by the DCG of the ideal
    ordering of ``gains``. 0 when no document has positive gain.
    """
    dcg = sum(gains.get(d, 0.0) / math.log2(i + 1) for i, d in enumerate(ranking[:k], start=1))
    ideal = sorted((g for g in gains.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


_PUNCT = re.compile(f"[{re.escape(string.punctuation)}]")


def unigram_tokens(text: str) -> set[str]:
    """Lower-cased, punctuation-stripped, whitespace-split unigram set.

    Paper 000 A.8 says only "uni-gram tokens"; this is the usual SQuAD-style
    normalisation minus article removal (perspective phrases such as "a claim
    that supports" keep their articles in the gold answers).
    """
    return set(_PUNCT.sub(" ", text.lower()).split())


def qa_f1(prediction: str, golds: Sequence[str]) -> float:
    """QA-F1 = max_{g ∈ G} |T_q ∩ T_g| / |T_q ∪ T_g| (paper 000 A.8) on unigram sets."""
    pred = unigram_tokens(prediction)
    best = 0.0
    for gold in golds:
        g = unigram_tokens(gold)
        union = pred | g
        if union:
            best = max(best, len(pred & g) / len(union))
    return best


# --- InfoSearch (paper 002) ------------------------------------------------------------


def sicr_indicator(
    r_ori: int, r_ins: int, r_rev: int, s_ori: float, s_ins: float, s_rev: float
) -> int:
    """I(q) (paper 002 eq. 1): 1 iff R_ins < R_ori, S_ins > S_ori, R_ori < R_rev, S_ori > S_rev.

    R_* are the 1-based ranks and S_* the scores of the instructed gold
    document P^i in the original, instructed and reversed modes.
    """
    return int(r_ins < r_ori and s_ins > s_ori and r_ori < r_rev and s_ori > s_rev)


def sicr(
    ranks: Sequence[tuple[int, int, int]], scores: Sequence[tuple[float, float, float]]
) -> float:
    """SICR = Σ_j I(q_j) / |Q| (paper 002 eq. 2); tuples are (ori, ins, rev)."""
    if len(ranks) != len(scores):
        raise ValueError("one score triple per rank triple")
    if not ranks:
        return 0.0
    return sum(sicr_indicator(*r, *s) for r, s in zip(ranks, scores, strict=True)) / len(ranks)


def wise_reward(r_ori: int, r_ins: int, n_positive: int, k: int = 20) -> float:
    """f_reward (paper 002 eq. 4).

    1 if R_ori ≤ N and R_ins = 1 (N = positives of the core query in the
    original mode); (1 − √(R_ori − R_ins)/K) · 1/√R_ins if R_ori ≤ K; 0.01
    otherwise. (The prose says (1 − (R_ori − R_ins)/K); we follow the equation.)
    """
    if r_ori <= n_positive and r_ins == 1:
        return 1.0
    if r_ori <= k:
        return (1.0 - math.sqrt(r_ori - r_ins) / k) / math.sqrt(r_ins)
    return 0.01


def wise_penalty(r_ori: int, r_ins: int, r_rev: int) -> float:
    """f_penalty (paper 002 eq. 5), for the five orderings other than R_ins ≤ R_ori < R_rev.

    −1 if R_rev < R_ori < R_ins (instruction and reversal both backfire);
    (R_ori − R_ins)/R_ins if R_ori ≤ R_ins (the instruction pushed the gold down);
    (R_rev − R_ori)/R_ori if R_rev ≤ R_ori (the reversal pulled it up).
    Checked in this order, so the −1 case wins over the overlapping second case.
    """
    if r_rev < r_ori < r_ins:
        return -1.0
    if r_ori <= r_ins:
        return (r_ori - r_ins) / r_ins
    return (r_rev - r_ori) / r_ori


def wise_score(r_ori: int, r_ins: int, r_rev: int, n_positive: int, k: int = 20) -> float:
    """F(q) (paper 002 eq. 3): reward if R_ins ≤ R_ori < R_rev, else penalty."""
    if r_ins <= r_ori < r_rev:
        return wise_reward(r_ori, r_ins, n_positive, k)
    return wise_penalty(r_ori, r_ins, r_rev)


def wise(ranks: Sequence[tuple[int, int, int]], n_positives: Sequence[int], k: int = 20) -> float:
    """WISE = Σ_j F(q_j) / J (paper 002 eq. 6); ``ranks`` are (ori, ins, rev) triples."""
    if len(ranks) != len(n_positives):
        raise ValueError("one positive count per rank triple")
    if not ranks:
        return 0.0
    return sum(wise_score(*r, n, k) for r, n in zip(ranks, n_positives, strict=True)) / len(ranks)
