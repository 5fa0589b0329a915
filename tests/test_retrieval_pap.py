"""PAP / PAP+ (paper 000 §3.1), the re-scoring identity (DESIGN §4), Table 4 baselines."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assistant.retrieval import pap as P


def unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


def test_projection_2d_by_hand() -> None:
    # q = (1, 1), p = (1, 0): q_p = q − (q·p/‖p‖²) p = (0, 1)
    q, p = np.array([1.0, 1.0]), np.array([1.0, 0.0])
    assert P.project_out(q, p).tolist() == pytest.approx([0.0, 1.0])
    # α = 0.5 removes half the component: (0.5, 1)
    assert P.project_out(q, p, 0.5).tolist() == pytest.approx([0.5, 1.0])
    # ‖p‖ does not matter: p = (2, 0) gives the same projection
    assert P.project_out(q, 2 * p).tolist() == pytest.approx([0.0, 1.0])
    C = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]) / np.array([[1.0], [1.0], [math.sqrt(2)]])
    # PAP = cos(q_p, c) with q_p = (0, 1)
    assert P.pap_scores(q, p, C).tolist() == pytest.approx([0.0, 1.0, 1 / math.sqrt(2)], abs=1e-6)
    # PAP+: c_p = (0, c_y); (1, 0) projects to 0 → score 0 by the guard
    assert P.pap_plus_scores(q, p, C).tolist() == pytest.approx([0.0, 1.0, 1.0], abs=1e-6)


def test_projection_3d_by_hand() -> None:
    q = np.array([1.0, 2.0, 2.0])  # ‖q‖ = 3
    p = np.array([0.0, 0.0, 2.0])
    # q·p/‖p‖² = 4/4 = 1 → q_p = q − p = (1, 2, 0)
    assert P.project_out(q, p).tolist() == pytest.approx([1.0, 2.0, 0.0])
    c = np.array([[2.0, 1.0, 2.0]]) / 3.0  # unit
    # cos(q_p, c) = (2/3 + 2/3) / √5 = (4/3)/√5
    assert P.pap_scores(q, p, c)[0] == pytest.approx((4 / 3) / math.sqrt(5), abs=1e-6)
    # c_p = (2, 1, 0)/3 → cos((1,2,0), (2,1,0)) = 4/5
    assert P.pap_plus_scores(q, p, c)[0] == pytest.approx(0.8, abs=1e-6)
    # α = 0.5: q_p = (1, 2, 1), c_p = (2, 1, 1)/3 → cos = (2+2+1)/6 = 5/6
    assert P.pap_plus_scores(q, p, c, alpha=0.5)[0] == pytest.approx(5 / 6, abs=1e-6)


@pytest.mark.parametrize("alpha", [1.0, 0.5, 0.25, 1.5])
def test_rescored_pap_plus_equals_brute_force(alpha: float) -> None:
    rng = np.random.default_rng(7)
    d, n = 384, 2000
    C = rng.normal(size=(n, d)).astype(np.float32)
    C /= np.linalg.norm(C, axis=1, keepdims=True)
    for _ in range(5):
        q = rng.normal(size=d).astype(np.float32)
        q /= np.linalg.norm(q)
        p = (0.6 * q + rng.normal(size=d) * 0.05).astype(np.float32)  # correlated with q
        proj = P.Projection.of(q, p, alpha)
        brute = proj.pap_plus(C)
        rescored = proj.rescore_plus(C @ proj.q_p, C @ p)
        np.testing.assert_allclose(rescored, brute, atol=1e-5)


def test_rescore_with_non_unit_corpus() -> None:
    rng = np.random.default_rng(1)
    C = rng.normal(size=(50, 16)).astype(np.float32) * 3.0
    q, p = rng.normal(size=16).astype(np.float32), rng.normal(size=16).astype(np.float32)
    proj = P.Projection.of(q, p, 0.7)
    norms2 = np.einsum("ij,ij->i", C, C)
    np.testing.assert_allclose(
        proj.rescore_plus(C @ proj.q_p, C @ p, norms2), proj.pap_plus(C), atol=1e-5
    )


def test_degenerate_projection_is_flagged_and_guarded() -> None:
    q = unit([1.0, 2.0, 3.0])
    C = np.eye(3, dtype=np.float32)
    proj = P.Projection.of(q, 2.0 * q)  # perspective = the whole query → q_p = 0
    assert proj.degenerate
    # fallback: the unprojected cosine
    np.testing.assert_allclose(proj.pap(C), P.cosine_scores(q, C), atol=1e-6)
    np.testing.assert_allclose(proj.pap_plus(C), P.cosine_scores(q, C), atol=1e-6)
    assert np.isnan(proj.pap(C, on_degenerate="nan")).all()
    with pytest.raises(ValueError, match="degenerate"):
        proj.pap(C, on_degenerate="raise")
    np.testing.assert_allclose(
        proj.rescore_plus(C @ proj.q_p, C @ q, q_dot_c=C @ q), P.cosine_scores(q, C), atol=1e-6
    )
    # zero perspective: identity projection, also flagged
    zero = P.Projection.of(q, np.zeros(3))
    assert zero.degenerate and np.allclose(zero.q_p, q)
    # a clean projection is not flagged
    assert not P.Projection.of(q, unit([1.0, 0.0, 0.0])).degenerate


def test_table4_baselines_by_hand() -> None:
    r = np.array([1.0, 0.0])
    p = np.array([0.0, 1.0])
    q = np.array([1.0, 1.0]) / math.sqrt(2)
    C = np.array([[1.0, 0.0], [0.0, 1.0]])
    # add: cos(r + p, c) = 1/√2 for both
    assert P.add_scores(r, p, C).tolist() == pytest.approx([1 / math.sqrt(2)] * 2, abs=1e-6)
    # concat: cos((r,p),(c,p)) = (r·c + 1)/(√2 · √2)
    assert P.concat_scores(r, p, C).tolist() == pytest.approx([1.0, 0.5], abs=1e-6)
    # cast: cos(q − p, c); q − p = (0.7071, −0.2929)
    qp = q - p
    assert P.cast_scores(q, p, C).tolist() == pytest.approx(
        (C @ qp / np.linalg.norm(qp)).tolist(), abs=1e-6
    )
    # cast+: c − p = (1, −1) and (0, 0) → second scores 0
    cp0 = np.array([1.0, -1.0])
    assert P.cast_plus_scores(q, p, C)[0] == pytest.approx(
        qp @ cp0 / (np.linalg.norm(qp) * np.linalg.norm(cp0)), abs=1e-6
    )
    assert P.cast_plus_scores(q, p, C)[1] == 0.0
    # dual-sum: cos(r,c) + cos(p,c) = 1 for both; tri-sum adds cos(q, c) = 1/√2
    assert P.dual_sum_scores(r, p, C).tolist() == pytest.approx([1.0, 1.0])
    assert P.tri_sum_scores(q, r, p, C).tolist() == pytest.approx([1 + 1 / math.sqrt(2)] * 2)


def test_sphere_rescore_equals_brute_force() -> None:
    rng = np.random.default_rng(11)
    C = rng.normal(size=(300, 64)).astype(np.float32) + 0.3  # anisotropic, like real embeddings
    C /= np.linalg.norm(C, axis=1, keepdims=True)
    mu = C.mean(axis=0)
    for _ in range(4):
        r = C[rng.integers(300)] + 0.1 * rng.normal(size=64).astype(np.float32)
        q = r + 0.5 * rng.normal(size=64).astype(np.float32)
        q /= np.linalg.norm(q)
        policy = P.SpherePAP.of(q, q, mu, root=r)
        brute = policy.scores(C)
        np.testing.assert_allclose(brute, P.sphere_pap_scores(q, q, C, root=r), atol=1e-6)
        fast = policy.rescore(C @ policy.search_vector, C @ policy.direction)
        np.testing.assert_allclose(fast, brute, atol=1e-5)


def test_sphere_falls_back_when_the_perspective_is_the_query() -> None:
    rng = np.random.default_rng(5)
    C = rng.normal(size=(40, 16)).astype(np.float32)
    C /= np.linalg.norm(C, axis=1, keepdims=True)
    q = C[0].copy()
    # no root and p = q: the perspective term is degenerate → 2 × de-meaned cosine
    policy = P.SpherePAP.of(q, q, C.mean(axis=0))
    assert not policy.use_perspective
    np.testing.assert_allclose(policy.scores(C), 2 * P.pap_scores(q, C.mean(axis=0), C), atol=1e-6)
    assert int(np.argmax(policy.scores(C))) == 0


def test_perspective_margin_by_hand() -> None:
    own = np.array([3.0, 1.0])
    others = np.array([[1.0, 2.0], [2.0, 0.0]])
    # own − the best other perspective, per document
    assert P.perspective_margin(own, others).tolist() == [1.0, -1.0]
    assert P.perspective_margin(own, np.zeros((0, 2))).tolist() == [0.0, 0.0]


def test_plan_margins_by_hand() -> None:
    # root r = e1; q0 adds e2, q1 adds e3, q2 adds both: with r projected out the side
    # signals point along e2, e3 and (e2 + e3)/√2
    r = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    q0, q1, q2 = unit([1, 1, 0]), unit([1, 0, 1]), unit([1, 1, 1])
    C = np.stack([unit([1, 1, 1]), unit([1, 1, 0]), unit([1, 2, 1])])  # A, B, D
    s5 = 1 / math.sqrt(5)
    m = P.plan_margins(np.stack([q0, q1]), r, C)
    # A fits both equally; B only q0; D = (2, 1) after projection: cos 2/√5 vs 1/√5
    assert m[0].tolist() == pytest.approx([0.0, 1.0, s5], abs=1e-6)
    assert m[1].tolist() == pytest.approx([0.0, -1.0, -s5], abs=1e-6)
    m3 = P.plan_margins(np.stack([q0, q1, q2]), r, C)
    h = 1 / math.sqrt(2)
    # q0's margin is over the better of q1 and q2 (q2: 1 on A, 1/√2 on B, 3/√10 on D)
    assert m3[0].tolist() == pytest.approx([h - 1.0, 1.0 - h, 2 * s5 - 3 / math.sqrt(10)], abs=1e-6)
    assert P.plan_margins(q0[None, :], r, C).tolist() == [[0.0, 0.0, 0.0]]
    # the same perspective asked twice is not its own competitor
    twice = P.plan_margins(np.stack([q0, q1, q0]), r, C)
    np.testing.assert_allclose(twice, np.stack([m[0], m[1], m[0]]), atol=1e-6)
    assert P.plan_margins(np.stack([q0, q0]), r, C).tolist() == [[0.0] * 3, [0.0] * 3]
