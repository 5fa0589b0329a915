"""Metrics against hand-computed values (papers 000, 002, 003, 004)."""

from __future__ import annotations

import math

import pytest

from assistant.eval import metrics as M


def test_p_recall_averages_perspectives_then_roots() -> None:
    rankings = [[1, 2], [3, 4], [5, 6], [7, 8]]
    golds = [[1], [9], [9], [8]]  # hits: q0 yes, q1 no, q2 no, q3 yes (rank 2)
    roots = ["r1", "r1", "r1", "r2"]
    # r1: (1 + 0 + 0)/3 = 1/3; r2: 1 → p-Recall = (1/3 + 1)/2 = 2/3
    assert M.p_recall_at_k(rankings, golds, roots, k=2) == pytest.approx(2 / 3)
    # k = 1: q3's gold is at rank 2 → r2 = 0 → (1/3 + 0)/2
    assert M.p_recall_at_k(rankings, golds, roots, k=1) == pytest.approx(1 / 6)
    # plain recall would be 2/4 here; p-Recall differs because roots weigh equally
    assert M.p_recall_from_successes([1, 0, 0, 1], roots) != 0.5


def test_recall_and_cover_persphere() -> None:
    rankings = [["a", "b", "c"], ["x", "y", "z"]]
    relevant = [{"a", "c", "d", "e"}, {"z"}]
    # eq. 2: q1 at k=2: |{a}|/4 = 0.25; q2: 0 → 0.125; at k=3: (2/4 + 1)/2 = 0.75
    assert M.mean_recall_at_k(rankings, relevant, 2) == pytest.approx(0.125)
    assert M.mean_recall_at_k(rankings, relevant, 3) == pytest.approx(0.75)
    # eq. 3: q1 has perspectives {a}, {c, d}, {e}; q2 has {z}, {w}
    persp = [[{"a"}, {"c", "d"}, {"e"}], [{"z"}, {"w"}]]
    # k = 3: q1 covers 2 of 3, q2 covers 1 of 2 → (2/3 + 1/2)/2
    assert M.cover_at_k(rankings, persp, 3) == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert M.cover_at_k(rankings, persp, 1) == pytest.approx((1 / 3 + 0) / 2)


def test_map_at_k_by_hand() -> None:
    # relevant at ranks 1 and 3 of 2 relevant: (1/1 + 2/3)/2
    assert M.average_precision_at_k(["a", "x", "b"], {"a", "b"}, 10) == pytest.approx(5 / 6)
    # one relevant item at rank 4 → 1/4; beyond k → 0
    assert M.average_precision_at_k(list("xyzab"), {"a"}, 10) == pytest.approx(0.25)
    assert M.average_precision_at_k(list("xyzab"), {"a"}, 3) == 0.0
    # normaliser is min(|R|, k): 5 relevant, k = 2, both top-2 relevant → 1
    assert M.average_precision_at_k(list("abcde"), set("abcde"), 2) == pytest.approx(1.0)
    assert M.map_at_k([["a"], ["x", "a"]], [{"a"}, {"a"}], 10) == pytest.approx(0.75)


def test_ndcg_by_hand() -> None:
    gains = {"a": 3.0, "b": 2.0, "c": 1.0}
    dcg = 2 / math.log2(2) + 0 / math.log2(3) + 3 / math.log2(4)
    idcg = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert M.ndcg_at_k(["b", "x", "a"], gains, 3) == pytest.approx(dcg / idcg)
    assert M.ndcg_at_k(["a", "b", "c"], gains, 3) == pytest.approx(1.0)
    assert M.ndcg_at_k(["x"], {}, 3) == 0.0


def test_qa_f1_is_max_jaccard_over_golds() -> None:
    # pred {a, claim, that, supports}; gold1 {a, claim, that, opposes} → 3/5
    pred = "A claim that supports"
    assert M.qa_f1(pred, ["a claim that opposes"]) == pytest.approx(3 / 5)
    # a second, better gold wins (punctuation and case ignored) → 4/4
    assert M.qa_f1(pred, ["a claim that opposes", "a claim, that SUPPORTS!"]) == 1.0
    assert M.qa_f1("", ["x"]) == 0.0


def test_sicr_by_hand() -> None:
    ok = ((5, 2, 9), (0.5, 0.7, 0.3))  # R_ins < R_ori < R_rev, S_ins > S_ori > S_rev
    bad_score = ((5, 2, 9), (0.5, 0.4, 0.3))  # rank improves but score does not
    assert M.sicr_indicator(*ok[0], *ok[1]) == 1
    assert M.sicr_indicator(*bad_score[0], *bad_score[1]) == 0
    assert M.sicr([ok[0], bad_score[0]], [ok[1], bad_score[1]]) == 0.5


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        # 1. R_ins ≤ R_ori < R_rev → reward: (1 − √(4 − 2)/20) / √2
        ((4, 2, 9), (1 - math.sqrt(2) / 20) / math.sqrt(2)),
        # 2. R_ori ≤ R_ins ≤ R_rev → (R_ori − R_ins)/R_ins = (2 − 4)/4
        ((2, 4, 9), -0.5),
        # 3. R_ori ≤ R_rev ≤ R_ins → (2 − 8)/8
        ((2, 8, 5), -0.75),
        # 4. R_rev < R_ori < R_ins → −1
        ((4, 8, 2), -1.0),
        # 5. R_ins ≤ R_rev ≤ R_ori → (R_rev − R_ori)/R_ori = (6 − 8)/8
        ((8, 2, 6), -0.25),
        # 6. R_rev ≤ R_ins ≤ R_ori → (2 − 8)/8
        ((8, 6, 2), -0.75),
    ],
)
def test_wise_six_orderings(ranks: tuple[int, int, int], expected: float) -> None:
    r_ori, r_ins, r_rev = ranks
    assert M.wise_score(r_ori, r_ins, r_rev, n_positive=1) == pytest.approx(expected)


def test_wise_reward_edges_and_mean() -> None:
    # R_ori ≤ N and R_ins = 1 → 1
    assert M.wise_reward(3, 1, n_positive=3) == 1.0
    # R_ori = 3 > N = 1, R_ins = 1 → (1 − √2/20)/1
    assert M.wise_reward(3, 1, n_positive=1) == pytest.approx(1 - math.sqrt(2) / 20)
    # R_ori beyond K = 20 → 0.01
    assert M.wise_reward(25, 3, n_positive=1) == 0.01
    assert M.wise([(4, 8, 2), (3, 1, 9)], [1, 3]) == pytest.approx((-1.0 + 1.0) / 2)
