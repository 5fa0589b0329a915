"""Which claim a text supports, from the stance model's per-claim judgments (pure numpy).

The model judges one (claim, text) pair at a time: P(supports), P(opposes),
P(neither) (:data:`~assistant.stance.data.LABELS` order). Sphere asks a
different question — which of the plan's **two** claims a document stands
under, or neither — so both judgments are combined as independent experts
(a product of experts, Hinton 2002, eq. 1):

    s_A = log P(pro | A, x) + log P(con | B, x)
    s_B = log P(pro | B, x) + log P(con | A, x)
    s_N = log P(none | A, x) + log P(none | B, x)
    (p_A, p_B, p_N) = softmax((s_A, s_B, s_N) / T)

A text that supports A and opposes B scores on both; "not A" evidence against
a claim pair that is not a negation pair ("open offices" / "closed offices")
still counts through the second term. T is the calibration temperature fitted
on the training sources' dev splits (Guo et al. 2017, temperature scaling,
§4.2), so p is a probability a reader can take at its word.

A document is the sum of its sentences' evidence (:func:`document_sides`):
its side log-odds are the sentence log-odds weighted by how much each sentence
takes a side at all, so background sentences ("School uniforms have a long
history…") neither dilute nor decide it.
"""

from __future__ import annotations

import numpy as np

PRO, CON, NONE = 0, 1, 2
EPS = 1e-6


def side_logits(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """(n, 3) side scores (s_A, s_B, s_N) from per-claim probabilities (n, 3) each."""
    la = np.log(np.clip(np.asarray(pa, np.float64), EPS, 1.0))
    lb = np.log(np.clip(np.asarray(pb, np.float64), EPS, 1.0))
    return np.stack(
        [la[:, PRO] + lb[:, CON], lb[:, PRO] + la[:, CON], la[:, NONE] + lb[:, NONE]], axis=1
    )


def softmax(z: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = np.asarray(z, np.float64) / max(float(temperature), EPS)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def side_probs(pa: np.ndarray, pb: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """(n, 3) probabilities (A, B, neither) of the product of experts above."""
    return softmax(side_logits(pa, pb), temperature)


def document_sides(
    sentence_logits: np.ndarray, owner: np.ndarray, n_docs: int, temperature: float = 1.0
) -> np.ndarray:
    """(n_docs, 3) side probabilities of documents from their sentences' side logits.

    Sentence i of document ``owner[i]`` has side logits z_i = (s_A, s_B, s_N)
    and side probabilities q_i = softmax(z_i / T). The document's log-odds of
    A over B are Σ_i w_i (s_A,i − s_B,i) / T with w_i = 1 − q_i(N), the
    chance that sentence i takes a side at all; its "neither" probability is
    the chance that no sentence takes one, Π_i q_i(N). A document without
    sentences is (0, 0, 1).
    """
    z = np.asarray(sentence_logits, np.float64)
    owner = np.asarray(owner, np.int64)
    out = np.zeros((n_docs, 3))
    out[:, NONE] = 1.0
    if not len(z):
        return out
    q = softmax(z, temperature)
    w = 1.0 - q[:, NONE]
    odds = np.zeros(n_docs)
    np.add.at(odds, owner, w * (z[:, 0] - z[:, 1]) / max(float(temperature), EPS))
    log_none = np.zeros(n_docs)
    np.add.at(log_none, owner, np.log(np.clip(q[:, NONE], EPS, 1.0)))
    has = np.zeros(n_docs, bool)
    has[owner] = True
    p_none = np.exp(log_none)
    p_a = (1.0 - p_none) / (1.0 + np.exp(-np.clip(odds, -50, 50)))
    out[has, 0] = p_a[has]
    out[has, 1] = (1.0 - p_none - p_a)[has]
    out[has, NONE] = p_none[has]
    return out


def fit_temperature(logits: np.ndarray, target: np.ndarray) -> float:
    """The T minimising the negative log-likelihood of ``target`` under softmax(z / T).

    Golden-section search on log T over [0.05, 20] (the NLL is unimodal in T
    for fixed logits; Guo et al. 2017 §4.2).
    """
    z = np.asarray(logits, np.float64)
    y = np.asarray(target, np.int64)
    if not len(z):
        return 1.0

    def nll(log_t: float) -> float:
        p = softmax(z, float(np.exp(log_t)))
        return float(-np.mean(np.log(np.clip(p[np.arange(len(y)), y], EPS, 1.0))))

    lo, hi = np.log(0.05), np.log(20.0)
    g = (np.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = nll(a), nll(b)
    for _ in range(60):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = nll(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = nll(b)
    return float(np.exp((lo + hi) / 2.0))


def expected_calibration_error(probs: np.ndarray, target: np.ndarray, bins: int = 10) -> float:
    """ECE of the top-class confidence (Guo et al. 2017, eq. 3), equal-width bins."""
    p = np.asarray(probs, np.float64)
    y = np.asarray(target, np.int64)
    if not len(p):
        return 0.0
    conf = p.max(axis=1)
    right = (p.argmax(axis=1) == y).astype(np.float64)
    edges = np.linspace(0.0, 1.0, bins + 1)
    ece = 0.0
    for i in range(bins):
        m = (conf > edges[i]) & (conf <= edges[i + 1]) if i else (conf <= edges[1])
        if m.any():
            ece += m.mean() * abs(right[m].mean() - conf[m].mean())
    return float(ece)


def precision_coverage(
    p_side: np.ndarray, correct: np.ndarray, levels: tuple[float, ...] = (1.0, 0.8, 0.6, 0.4)
) -> dict[str, float]:
    """Side precision when only the most confident fraction of decisions is kept.

    ``p_side`` is the probability of the chosen side, ``correct`` whether it was
    right. For each coverage c the ⌈c·n⌉ most confident decisions are kept
    (ties broken by input order) and their accuracy reported as
    ``precision@<c as percent>%``, in percent.
    """
    p = np.asarray(p_side, np.float64)
    ok = np.asarray(correct, bool)
    out: dict[str, float] = {}
    if not len(p):
        return out
    order = np.argsort(-p, kind="stable")
    for c in levels:
        n = max(1, int(np.ceil(c * len(p))))
        out[f"precision@{round(100 * c)}%"] = round(100.0 * float(ok[order[:n]].mean()), 2)
    return out
