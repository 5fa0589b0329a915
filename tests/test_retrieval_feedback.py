"""Pool feedback: graph smoothing, kNN regularization, RM3 term weights (hand-computed)."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.index.lexical import BM25Index
from assistant.retrieval.feedback import graph_smooth, knn_regularize, rm3_weights


def test_graph_smooth_hand_computed() -> None:
    # top-2 = docs 0, 1; cos(0,1) = 0.6, cos(2,0) = 0, cos(2,1) = 0.8
    emb = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])
    s = np.array([1.0, 0.5, 0.2])
    out = graph_smooth(s, emb, m=2, beta=1.0)
    # doc 0: 0.6·0.5 / 1 (no self-vote); doc 1: 0.6·1.0 / 1; doc 2: (0·1 + 0.8·0.5) / 2
    np.testing.assert_allclose(out, [1.3, 1.1, 0.4], atol=1e-6)


def test_graph_smooth_normalises_and_beta() -> None:
    emb = np.array([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0]])  # not unit: normalised inside
    s = np.array([1.0, 0.5, 0.2])
    out = graph_smooth(s, emb, m=2, beta=0.5)
    # doc 2: 0.5 · (0.70711·1 + 0.70711·0.5) / 2 = 0.26517
    np.testing.assert_allclose(out, [1.0, 0.5, 0.2 + 0.265165], atol=1e-5)


def test_graph_smooth_off() -> None:
    s = np.array([0.3, 0.9])
    emb = np.eye(2)
    np.testing.assert_allclose(graph_smooth(s, emb, m=0, beta=1.0), s, atol=1e-7)
    np.testing.assert_allclose(graph_smooth(s, emb, m=2, beta=0.0), s, atol=1e-7)


# cosines: 0-1 .8, 0-2 0, 0-3 .6, 1-2 .6, 1-3 .96, 2-3 .8
KNN_EMB = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [0.6, 0.8]])


def test_knn_regularize_hand_computed() -> None:
    s = np.array([1.0, 0.8, 0.2, 0.4])
    # nearest neighbour (k = 1): 0 → 1, 1 → 3, 2 → 3, 3 → 1
    out = knn_regularize(s, KNN_EMB, k=1, delta=0.5, top=4)
    np.testing.assert_allclose(out, [0.9, 0.6, 0.3, 0.6], atol=1e-6)
    # k = 2: 0 → {1, 3}, 1 → {3, 0}, 2 → {3, 1}, 3 → {1, 2}
    out = knn_regularize(s, KNN_EMB, k=2, delta=0.25, top=4)
    want = 0.75 * s + 0.25 * np.array([0.6, 0.7, 0.6, 0.5])
    np.testing.assert_allclose(out, want, atol=1e-6)


def test_knn_regularize_ignores_copies_and_keeps_the_tail() -> None:
    emb = np.vstack([KNN_EMB, 3.0 * KNN_EMB[1]])  # doc 4 is doc 1 again (not unit: normalised)
    s = np.array([1.0, 0.8, 0.2, 0.4, 0.8])
    out = knn_regularize(s, emb, k=1, delta=0.5, top=5)
    # doc 1's nearest other text is doc 3 (not its copy 4); doc 0's is doc 1 or its copy (0.8)
    assert out[1] == pytest.approx(0.6)
    assert out[4] == pytest.approx(0.6)
    assert out[0] == pytest.approx(0.9)
    # only the top 2 (docs 0 and 1/4 tie -> 0, 1) are regularized; the rest keep their scores
    out = knn_regularize(s, emb, k=1, delta=0.5, top=2)
    np.testing.assert_allclose(out[[2, 3, 4]], s[[2, 3, 4]], atol=1e-7)
    assert out[0] == pytest.approx(0.9) and out[1] == pytest.approx(0.9)


def test_knn_regularize_off() -> None:
    s = np.array([0.3, 0.9, 0.5])
    emb = np.eye(3)
    for k, delta, top in ((0, 0.5, 3), (1, 0.0, 3), (3, 0.5, 3), (1, 0.5, 1)):
        np.testing.assert_allclose(knn_regularize(s, emb, k, delta, top), s, atol=1e-7)


def test_rm3_weights_hand_computed() -> None:
    fb = [{"a": 2.0, "b": 2.0}, {"a": 1.0, "c": 3.0}]
    # P(w|R) ∝ Σ P(w|D)·score: a = 0.5·1 + 0.25·0.5 = 0.625, b = 0.5, c = 0.375
    w = rm3_weights(fb, [1.0, 0.5], n_terms=2)
    assert list(w) == ["a", "b"]
    assert w["a"] == pytest.approx(0.625 / 1.125) and w["b"] == pytest.approx(0.5 / 1.125)
    w3 = rm3_weights(fb, [1.0, 0.5], n_terms=3)
    assert w3 == pytest.approx({"a": 0.625 / 1.5, "b": 0.5 / 1.5, "c": 0.375 / 1.5})


def test_rm3_weights_edge_cases() -> None:
    assert rm3_weights([{"a": 1.0}], [0.0], 5) == {}  # no positive document score
    assert rm3_weights([], [], 5) == {}
    with pytest.raises(ValueError):
        rm3_weights([{"a": 1.0}], [1.0, 2.0], 5)


def test_bm25_contributions_match_single_term_scores() -> None:
    texts = ["cats purr at night", "dogs bark at cats", "rockets reach orbit"]
    idx = BM25Index.build(texts, np.array([10, 11, 12]))
    toks = idx.retriever.get_tokens_ids(["cat", "orbit"])
    assert len(toks) == 2
    got = idx.contributions(toks, np.array([12, 10, 99]))  # 99: unknown passage
    for i, t in enumerate(toks):
        full = np.asarray(idx.retriever.get_scores_from_ids([t]))  # rows 0, 1, 2
        np.testing.assert_allclose(got[i], [full[2], full[0], 0.0], atol=1e-6)
    assert got[0, 1] > 0 and got[0, 0] == 0  # "cat" in passage 10, not in 12


def test_columns_sorted_hand_computed() -> None:
    from assistant.index.lexical import _columns_sorted

    idx = np.array([0, 2, 1, 0, 3])
    assert not _columns_sorted(idx, np.array([0, 2, 5]))  # columns [0 2] [1 0 3]
    assert _columns_sorted(idx, np.array([0, 2, 3, 5]))  # columns [0 2] [1] [0 3]
    assert _columns_sorted(idx, np.array([0, 2, 2, 3, 5]))  # an empty column


def test_bm25_contributions_unsorted_fallback_agrees() -> None:
    texts = ["cats purr at night", "dogs bark at cats", "cats chase dogs at dawn"]
    idx = BM25Index.build(texts, np.array([0, 1, 2]))
    toks = idx.retriever.get_tokens_ids(["cat", "dog", "night"])
    pids = np.array([2, 0, 1])
    fast = idx.contributions(toks, pids)
    idx._sorted = False  # the slow path must give the same numbers
    np.testing.assert_allclose(idx.contributions(toks, pids), fast)


def test_fast_tokens_match_bm25s() -> None:
    from assistant.index.lexical import fast_tokens, tokenize_strings

    texts = [
        "Homework should be BANNED: it causes stress, and steals the family's time!",
        "The running dogs ran; a b c 42 x9 — naïve café",
        "",
    ]
    assert [fast_tokens(t) for t in texts] == tokenize_strings(texts)
