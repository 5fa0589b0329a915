"""Late fusion, aspect fusion (paper 003), RRF and MMR on hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assistant.retrieval import fusion as F


def test_late_fusion_top_kr_mean() -> None:
    docs = np.array([7, 7, 7, 3, 3, 9])
    scores = np.array([0.2, 0.9, 0.5, 0.6, 0.4, 0.1])
    d, s = F.late_fusion(docs, scores, k_r=1)
    assert d.tolist() == [7, 3, 9]
    assert s.tolist() == pytest.approx([0.9, 0.6, 0.1])
    d, s = F.late_fusion(docs, scores, k_r=2)
    # 7: (0.9 + 0.5)/2 = 0.7; 3: (0.6 + 0.4)/2 = 0.5; 9: only one passage → 0.1
    assert d.tolist() == [7, 3, 9]
    assert s.tolist() == pytest.approx([0.7, 0.5, 0.1])
    d, s = F.late_fusion(docs, scores, k_r=3)
    assert dict(zip(d.tolist(), s.tolist(), strict=True)) == pytest.approx(
        {7: (0.2 + 0.9 + 0.5) / 3, 3: 0.5, 9: 0.1}
    )
    with pytest.raises(ValueError):
        F.late_fusion(docs, scores, k_r=0)


def test_late_fusion_matrix_matches_late_fusion() -> None:
    rng = np.random.default_rng(3)
    owner = rng.integers(0, 20, size=200)
    owner[:20] = np.arange(20)  # every document has a passage
    layout = F.PassageLayout(owner, 22)  # docs 20, 21 have none
    S = rng.normal(size=(5, 200)).astype(np.float32)
    for k_r in (1, 2, 5, 50):
        M = F.late_fusion_matrix(S, layout, k_r, chunk=2)
        assert np.isneginf(M[:, 20:]).all()
        for qi in range(5):
            d, s = F.late_fusion(owner, S[qi], k_r)
            np.testing.assert_allclose(M[qi, d], s, atol=1e-5)


def test_score_aggregators_by_hand() -> None:
    S = np.array([[0.5, 0.9], [0.5, 0.1]])  # 2 aspects × 2 items
    assert F.aggregate_aspect_scores(S, "amean").tolist() == pytest.approx([0.5, 0.5])
    assert F.aggregate_aspect_scores(S, "gmean").tolist() == pytest.approx([0.5, math.sqrt(0.09)])
    assert F.aggregate_aspect_scores(S, "hmean").tolist() == pytest.approx(
        [0.5, 2 / (1 / 0.9 + 1 / 0.1)]
    )
    assert F.aggregate_aspect_scores(S, "min").tolist() == pytest.approx([0.5, 0.1])
    # a missing (NaN) score takes the aspect's lowest observed score
    M = np.array([[0.8, np.nan, 0.2], [0.4, 0.6, 0.5]])
    assert F.aggregate_aspect_scores(M, "amean").tolist() == pytest.approx(
        [0.6, (0.2 + 0.6) / 2, 0.35]
    )
    with pytest.raises(ValueError):
        F.aggregate_aspect_scores(S, "median")  # type: ignore[arg-type]


def test_borda_by_hand() -> None:
    lists = [["a", "b", "c"], ["b", "c", "d"]]
    # K_I = 3: a = 3; b = 2 + 3 = 5; c = 1 + 2 = 3; d = 1
    assert F.borda(lists, 3) == [("b", 5.0), ("a", 3.0), ("c", 3.0), ("d", 1.0)]


def test_round_robin_skips_conflicts_within_the_same_list() -> None:
    lists = [["a", "b", "c"], ["a", "d", "e"], ["b", "f"]]
    # L1 → a; L2: a taken, skip → d; L3: b; L1: b taken → c; L2: e; L3: f
    assert F.round_robin(lists) == ["a", "d", "b", "c", "e", "f"]
    assert F.round_robin(lists, k=3) == ["a", "d", "b"]


def test_aspect_fusion_methods_on_a_matrix() -> None:
    S = np.array([[0.9, 0.8, 0.1, 0.0], [0.0, 0.7, 0.8, 0.9]])
    # AMean: 0.45, 0.75, 0.45, 0.45 → item 1, then the tie goes to the lower index
    assert F.aspect_fusion(S, "amean", 2).tolist() == [1, 0]
    assert F.aspect_fusion(S, "min", 1).tolist() == [1]
    # top-2 lists: [0, 1] and [3, 2] → interleave 0, 3
    assert F.aspect_fusion(S, "round_robin", 2).tolist() == [0, 3]
    # Borda with K_I = 2: 0 → 2, 1 → 1, 3 → 2, 2 → 1
    assert F.aspect_fusion(S, "borda", 2).tolist() == [0, 3]


def test_rrf_like_ranx() -> None:
    fused = dict(F.reciprocal_rank_fusion([["d1", "d2", "d3"], ["d3", "d1"]]))
    assert fused["d1"] == 1 / (60 + 1) + 1 / (60 + 2)
    assert fused["d3"] == 1 / (60 + 3) + 1 / (60 + 1)
    assert fused["d2"] == 1 / (60 + 2)
    ranked = F.reciprocal_rank_fusion([["d1", "d2", "d3"], ["d3", "d1"]])
    assert [d for d, _ in ranked] == ["d1", "d3", "d2"]
    w = dict(F.reciprocal_rank_fusion([["x"], ["x"]], k=10, weights=[1.0, 0.5]))
    assert w["x"] == 1 / 11 + 0.5 / 11


def test_mmr_by_hand() -> None:
    E = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    rel = np.array([0.9, 0.85, 0.5])
    # step 1: most relevant = 0. step 2, λ = 0.5: item 1 → 0.425 − 0.5·1 = −0.075;
    # item 2 → 0.25 − 0 = 0.25 → pick 2
    assert F.mmr(rel, E, 2, lambda_=0.5) == [0, 2]
    # λ = 1 is plain relevance order
    assert F.mmr(rel, E, 3, lambda_=1.0) == [0, 1, 2]
    sim = E @ E.T
    assert F.mmr(rel, None, 2, lambda_=0.5, similarity=sim) == [0, 2]
