"""Perspective-aware Projection (PAP, PAP+) and the Table 4 baselines (paper 000).

Notation (paper 000 §3.1, DESIGN §4): ``q`` query, ``r`` root query (the query
without its perspective), ``p`` perspective, ``c`` corpus entry, all embeddings
of one encoder. The projection of ``x`` onto the hyperplane orthogonal to ``p``,
with emphasis ``α`` (the paper's "tunable hyperparameter"; α = 1 is the paper)::

    x_p = x − α (x·p / ‖p‖²) p

* **PAP**  = cos(q_p, c)   — only the query is projected.
* **PAP+** = cos(q_p, c_p) — query and corpus entries are projected.

PAP+ without re-embedding or re-projecting the corpus: for a candidate ``c``
found by inner-product search with ``q_p`` (so ``q_p·c`` is known)::

    q_p·c_p = q_p·c − α(1 − α)(q·p)(c·p)/‖p‖²
    ‖c_p‖²  = ‖c‖² − (2α − α²)(c·p)²/‖p‖²       (‖c‖ = 1 for unit vectors)

so re-scoring needs one dot product ``c·p`` per candidate
(:meth:`Projection.rescore_plus`).

Degenerate projections (the guards are part of the API):

* ``‖p‖ ≈ 0`` — no perspective direction: the projection is the identity.
* ``‖q_p‖ ≈ 0`` — the perspective is (nearly) the whole query (q ∥ p at α = 1):
  ``q_p`` carries no information and every cosine is noise.
  :attr:`Projection.degenerate` is set; scoring functions then follow
  ``on_degenerate``: ``"fallback"`` (default) scores with the unprojected
  ``cos(q, c)``, ``"nan"`` returns NaN scores, ``"raise"`` raises ``ValueError``,
  ``"ignore"`` applies the formula literally (the paper's behaviour: the
  ranking then follows float round-off noise; only for reproducing baselines).
* ``‖c_p‖ ≈ 0`` — a corpus entry parallel to ``p``: its PAP+ score is 0
  (no evidence either way) instead of a division by zero.

All functions are vectorised: ``C`` is an (n, d) matrix, scores are (n,).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

OnDegenerate = Literal["fallback", "nan", "raise", "ignore"]

#: relative tolerance below which a norm counts as zero (‖q_p‖ ≤ tol·‖q‖)
DEGENERATE_TOL = 1e-3
#: cos(q, p) above which a perspective text is taken to be the whole query
#: (PIR ambigqa: 1.0; the other five tasks average 0.35–0.60)
PERSPECTIVE_IS_QUERY = 0.95
_EPS = 1e-12


def _as_matrix(C: np.ndarray) -> np.ndarray:
    C = np.asarray(C, dtype=np.float32)
    return C[None, :] if C.ndim == 1 else C


def _norms(M: np.ndarray) -> np.ndarray:
    return np.sqrt(np.einsum("ij,ij->i", M, M, dtype=np.float64)).astype(np.float32)


def cosine_scores(x: np.ndarray, C: np.ndarray) -> np.ndarray:
    """cos(x, c) for every row c of ``C`` (rows with zero norm score 0)."""
    C = _as_matrix(C)
    x = np.asarray(x, dtype=np.float32)
    nx = float(np.linalg.norm(x))
    nc = _norms(C)
    dots = C @ x
    out = np.zeros(len(C), dtype=np.float32)
    ok = nc > _EPS
    if nx > _EPS:
        out[ok] = dots[ok] / (nc[ok] * nx)
    return out


def project_out(x: np.ndarray, p: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """x_p = x − α (x·p/‖p‖²) p, row-wise for a matrix ``x`` (paper 000 §3.1).

    Returns ``x`` unchanged when ``‖p‖ ≈ 0`` (no direction to remove).
    """
    x = np.asarray(x, dtype=np.float32)
    p = np.asarray(p, dtype=np.float32)
    pn2 = float(p @ p)
    if pn2 <= _EPS:
        return x.copy()
    coef = (x @ p) / pn2
    return x - alpha * np.multiply.outer(coef, p) if x.ndim > 1 else x - alpha * coef * p


@dataclass(frozen=True)
class Projection:
    """One query projected away from one perspective, computed once per (q, p, α).

    Use :meth:`pap` / :meth:`pap_plus` for brute-force scoring of a matrix and
    :meth:`rescore_plus` for FAISS candidates (inner products with :attr:`q_p`).
    """

    q: np.ndarray
    p: np.ndarray
    alpha: float
    q_p: np.ndarray
    q_dot_p: float
    p_norm2: float
    q_p_norm: float
    degenerate: bool

    @classmethod
    def of(cls, q: np.ndarray, p: np.ndarray, alpha: float = 1.0) -> Projection:
        q = np.asarray(q, dtype=np.float32).reshape(-1)
        p = np.asarray(p, dtype=np.float32).reshape(-1)
        if q.shape != p.shape:
            raise ValueError(f"q and p differ in dimension: {q.shape} vs {p.shape}")
        p_norm2 = float(p.astype(np.float64) @ p)
        q_dot_p = float(q.astype(np.float64) @ p)
        q_p = project_out(q, p, alpha)
        q_p_norm = float(np.linalg.norm(q_p))
        q_norm = float(np.linalg.norm(q))
        degenerate = p_norm2 <= _EPS or q_p_norm <= DEGENERATE_TOL * max(q_norm, _EPS)
        return cls(q, p, float(alpha), q_p, q_dot_p, p_norm2, q_p_norm, degenerate)

    def _guard(self, on_degenerate: OnDegenerate, C: np.ndarray) -> np.ndarray | None:
        if not self.degenerate or on_degenerate == "ignore":
            return None
        if on_degenerate == "raise":
            raise ValueError("degenerate projection: the perspective is (nearly) the query")
        if on_degenerate == "nan":
            return np.full(len(C), np.nan, dtype=np.float32)
        return cosine_scores(self.q, C)

    def pap(self, C: np.ndarray, on_degenerate: OnDegenerate = "fallback") -> np.ndarray:
        """PAP = cos(q_p, c) for every row of ``C`` (paper 000 §3.1, Table 4)."""
        C = _as_matrix(C)
        guarded = self._guard(on_degenerate, C)
        return guarded if guarded is not None else cosine_scores(self.q_p, C)

    def pap_plus(self, C: np.ndarray, on_degenerate: OnDegenerate = "fallback") -> np.ndarray:
        """PAP+ = cos(q_p, c_p), brute force (projects every row of ``C``)."""
        C = _as_matrix(C)
        guarded = self._guard(on_degenerate, C)
        if guarded is not None:
            return guarded
        return cosine_scores(self.q_p, project_out(C, self.p, self.alpha))

    def rescore_plus(
        self,
        qp_dot_c: np.ndarray,
        c_dot_p: np.ndarray,
        c_norm2: np.ndarray | float = 1.0,
        *,
        q_dot_c: np.ndarray | None = None,
        on_degenerate: OnDegenerate = "fallback",
    ) -> np.ndarray:
        """PAP+ scores of inner-product candidates without projecting them (DESIGN §4).

        ``qp_dot_c``: q_p·c as returned by inner-product search with :attr:`q_p`;
        ``c_dot_p``: c·p per candidate; ``c_norm2``: ‖c‖² (1 for unit vectors).
        In the degenerate case with ``"fallback"``, ``q_dot_c`` (q·c of the
        candidates) is needed to return cos(q, c).
        """
        qp_dot_c = np.asarray(qp_dot_c, dtype=np.float64)
        c_dot_p = np.asarray(c_dot_p, dtype=np.float64)
        c_norm2 = np.asarray(c_norm2, dtype=np.float64)
        if self.degenerate and on_degenerate != "ignore":
            if on_degenerate == "raise":
                raise ValueError("degenerate projection: the perspective is (nearly) the query")
            if on_degenerate == "nan" or q_dot_c is None:
                return np.full(qp_dot_c.shape, np.nan, dtype=np.float32)
            qn = float(np.linalg.norm(self.q))
            return (np.asarray(q_dot_c) / (np.sqrt(c_norm2) * max(qn, _EPS))).astype(np.float32)
        a = self.alpha
        num = qp_dot_c - a * (1.0 - a) * self.q_dot_p * c_dot_p / self.p_norm2
        cp_norm2 = c_norm2 - (2.0 * a - a * a) * c_dot_p**2 / self.p_norm2
        cp_norm = np.sqrt(np.clip(cp_norm2, 0.0, None))
        out = np.zeros(qp_dot_c.shape, dtype=np.float64)
        ok = cp_norm > 1e-6
        out[ok] = num[ok] / (cp_norm[ok] * max(self.q_p_norm, _EPS))
        return out.astype(np.float32)


def pap_scores(
    q: np.ndarray,
    p: np.ndarray,
    C: np.ndarray,
    alpha: float = 1.0,
    on_degenerate: OnDegenerate = "fallback",
) -> np.ndarray:
    """PAP: cos(q_p, c) (paper 000 §3.1; Table 4 row "PAP")."""
    return Projection.of(q, p, alpha).pap(C, on_degenerate)


def pap_plus_scores(
    q: np.ndarray,
    p: np.ndarray,
    C: np.ndarray,
    alpha: float = 1.0,
    on_degenerate: OnDegenerate = "fallback",
) -> np.ndarray:
    """PAP+: cos(q_p, c_p) (paper 000 §3.1; Table 4 row "PAP+")."""
    return Projection.of(q, p, alpha).pap_plus(C, on_degenerate)


# --- paper 000 Table 4: other vector interventions (baselines) -------------------


def add_scores(r: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """add: cos(r + p, c) — root and perspective encoded separately, summed.

    For unit r, p, c this ranks exactly as dual-sum: cos(r + p, c) = (r·c + p·c)/‖r + p‖.
    """
    return cosine_scores(np.asarray(r) + np.asarray(p), C)


def concat_scores(r: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """concat.: cos((r, p), (c, p)).

    Table 4 writes cos((r, p), c), which is dimensionally undefined (2d vs d);
    the PIR authors' notebook (mode ``vec_concat``) appends ``p`` to the corpus
    side too, which is what we do. Computed without materialising (n, 2d).
    """
    C = _as_matrix(C)
    r = np.asarray(r, dtype=np.float32)
    p = np.asarray(p, dtype=np.float32)
    pp = float(p @ p)
    num = C @ r + pp
    den = np.sqrt(float(r @ r) + pp) * np.sqrt(_norms(C) ** 2 + pp)
    return (num / np.maximum(den, _EPS)).astype(np.float32)


def cast_scores(q: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """cast: cos(q − p, c) — the perspective subtracted from the query."""
    return cosine_scores(np.asarray(q) - np.asarray(p), C)


def cast_plus_scores(q: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """cast+: cos(q − p, c − p) — subtracted from query and corpus entries."""
    C = _as_matrix(C)
    return cosine_scores(np.asarray(q) - np.asarray(p), C - np.asarray(p, dtype=np.float32))


def dual_sum_scores(r: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """dual-sum: cos(r, c) + cos(p, c) — separate scores for root and perspective."""
    return cosine_scores(r, C) + cosine_scores(p, C)


def tri_sum_scores(q: np.ndarray, r: np.ndarray, p: np.ndarray, C: np.ndarray) -> np.ndarray:
    """tri-sum: cos(r, c) + cos(p, c) + cos(q, c)."""
    return cosine_scores(r, C) + cosine_scores(p, C) + cosine_scores(q, C)


# --- the `sphere` policy -------------------------------------------------------------
#
# Measured on the PIR demo set with all-MiniLM-L6-v2 (p-Recall@5, eq. 1, percent;
# tasks perspectrum / agnews / story / ambigqa / allsides / exfever):
#
#   cosine cos(q, c)                        57.6 57.5 51.2 61.9 22.9 88.9 | 56.7
#   PAP+, p = perspective text (paper)      60.1 18.8 51.2  5.0 30.0 91.4 | 42.7
#   PAP, p = corpus mean μ                  57.6 65.0 52.5 66.6 21.7 88.9 | 58.7
#   PAP+ from q_μ, p = q − r                57.3 46.2 56.2 66.7 30.0 88.9 | 57.6
#   sphere = sum of the two lines above     59.3 57.5 56.2 64.1 27.6 88.9 | 58.9
#
# Why each piece:
# * Literal PAP fails in two ways. When the perspective text is the whole query
#   (ambigqa) q_p = 0. When the perspective carries content a relevant document
#   must *have* ("an article from Canada", agnews) projecting it away removes
#   relevance. Using d = q − r (what the perspective *did* to the query vector,
#   as the PIR authors' own notebook does for ambigqa) fixes the first; fusing
#   with an unprojected topic score bounds the second.
# * The topic score projects out the corpus mean μ (the anisotropic common
#   direction every text shares, cf. paper 003 §4.2 "embedding bias"): it gives
#   +7.5 on agnews and +4.7 on ambigqa at no cost elsewhere.
# * The perspective score is PAP+ in that same de-meaned space.
# * Weights are 1:1 (no tuning): 1:1.5 and 1:2 were measured and are not better
#   (58.6, 58.2); z-normalising the two scores first gives 58.7.
# Tried and rejected (same metric, average over the six tasks):
#   cos(q, c) + cos(p, c) with p = q − r for ambigqa       46.6 (allsides 3.8)
#   cosine top-N re-ranked by PAP+, N = 8 … 30             53.2–55.2 (agnews 21–39)
#   cos(q, c) + w·PAP+(q, p), w = 0.1 … 1                  54.8–57.0
#   reciprocal rank fusion of cosine and PAP+              54.4
#   PAP+ at α = 0.25 / 0.5 / 0.75 (perspective text)       55.4 / 54.0 / 52.5
#   gating PAP by max_c cos(p, c) / cos(q, p) ≥ τ          51.6–54.0


@dataclass(frozen=True)
class SpherePAP:
    """The ``sphere`` perspective policy for one (query, perspective), computed once.

    score(c) = cos(q_μ, c) + PAP+(q_μ, d)(c), where q_μ is q with the corpus
    mean μ projected out and d = q − r is the perspective direction (the text
    embedding p when no root query is known). When d is degenerate (‖d‖ ≈ 0,
    the projection of q_μ vanishes, or — without a root — cos(q, p) ≥
    :data:`PERSPECTIVE_IS_QUERY`), :attr:`use_perspective` is False and the
    perspective term repeats the topic term: the policy then ranks exactly as
    de-meaned cosine.

    For an index: search with :attr:`search_vector` (inner products give
    q_μ·c), then :meth:`rescore` the candidates with one extra dot product c·d.
    """

    topic: Projection  # q projected away from μ (PAP with p = μ)
    perspective: Projection  # q_μ projected away from d (PAP+)
    direction: np.ndarray  # d
    use_perspective: bool  # False: degenerate d, the perspective term repeats the topic term

    @classmethod
    def of(
        cls,
        q: np.ndarray,
        p: np.ndarray,
        corpus_mean: np.ndarray,
        root: np.ndarray | None = None,
        alpha: float = 1.0,
    ) -> SpherePAP:
        q = np.asarray(q, dtype=np.float32).reshape(-1)
        d = (q - np.asarray(root, dtype=np.float32).reshape(-1)) if root is not None else p
        d = np.asarray(d, dtype=np.float32).reshape(-1)
        topic = Projection.of(q, corpus_mean, 1.0)
        q_mu = topic.q_p if not topic.degenerate else q
        perspective = Projection.of(q_mu, d, alpha)
        # degenerate d: zero, or (without a root) a perspective text that is
        # nearly the whole query — projecting it leaves only noise
        cos_qd = float(abs(q @ d)) / max(float(np.linalg.norm(q) * np.linalg.norm(d)), _EPS)
        use = not perspective.degenerate and (root is not None or cos_qd < PERSPECTIVE_IS_QUERY)
        return cls(topic, perspective, d, use)

    @property
    def search_vector(self) -> np.ndarray:
        """q_μ: inner-product search with it returns q_μ·c for the candidates."""
        return self.topic.q_p if not self.topic.degenerate else self.topic.q

    def scores(self, C: np.ndarray) -> np.ndarray:
        """Brute-force scores for every row of ``C`` (unit vectors)."""
        C = _as_matrix(C)
        s_topic = cosine_scores(self.search_vector, C)
        if not self.use_perspective:
            return 2.0 * s_topic
        return s_topic + cosine_scores(
            self.perspective.q_p, project_out(C, self.direction, self.perspective.alpha)
        )

    def rescore(
        self, qmu_dot_c: np.ndarray, c_dot_d: np.ndarray, c_norm2: np.ndarray | float = 1.0
    ) -> np.ndarray:
        """Scores of candidates from q_μ·c (the search result) and c·d, without projecting c."""
        qmu_dot_c = np.asarray(qmu_dot_c, dtype=np.float64)
        c_norm = np.sqrt(np.asarray(c_norm2, dtype=np.float64))
        s_topic = qmu_dot_c / (c_norm * max(float(np.linalg.norm(self.search_vector)), _EPS))
        pr = self.perspective
        if not self.use_perspective:
            return (2.0 * s_topic).astype(np.float32)
        c_dot_d = np.asarray(c_dot_d, dtype=np.float64)
        # q_μd·c = q_μ·c − α (q_μ·d/‖d‖²)(d·c)
        qp_dot_c = qmu_dot_c - pr.alpha * pr.q_dot_p / pr.p_norm2 * c_dot_d
        return (s_topic + pr.rescore_plus(qp_dot_c, c_dot_d, c_norm2)).astype(np.float32)


def sphere_pap_scores(
    q: np.ndarray,
    p: np.ndarray,
    C: np.ndarray,
    root: np.ndarray | None = None,
    corpus_mean: np.ndarray | None = None,
    alpha: float = 1.0,
) -> np.ndarray:
    """The ``sphere`` policy's scores for every row of ``C`` (see :class:`SpherePAP`).

    ``corpus_mean`` defaults to the mean of ``C``; pass the index-wide mean
    when ``C`` is only a candidate subset.
    """
    C = _as_matrix(C)
    mu = C.mean(axis=0) if corpus_mean is None else corpus_mean
    return SpherePAP.of(q, p, mu, root, alpha).scores(C)


# --- the question's other perspectives: the margin --------------------------------------
#
# A question is asked from several perspectives at once (a plan's perspectives; PIR's
# queries that share one root query). Evidence for one perspective should fit it
# *better than the others*: the multiclass margin s_y(c) − max_{j≠y} s_j(c) of
# Crammer & Singer (2001), with documents in place of examples. Not from the five
# papers: Sphere's own step. Measured on the PIR demo set (p-Recall@5, percent;
# perspectrum / agnews / story / ambigqa / allsides / exfever | average), side signal
# s_j = PAP+(q_j, r), weight w; "distinct": the same query text twice (66 of 80
# perspectrum and 80 of 82 allsides queries repeat a sibling's text, with other gold)
# is one perspective, not its own competitor:
#
#   sphere, one perspective at a time         59.3 57.5 56.2 64.1 27.6 88.9 | 58.94
#   + margin, distinct, w = 1 (shipped)       58.3 77.5 55.0 63.5 26.4 88.9 | 61.60
#   + margin, distinct, w = 0.5/0.75/1.5/2/3  61.48 / 61.34 / 61.12 / 60.52 / 58.87
#   + margin, repeats as competitors, w = 1   57.6 77.5 55.0 63.5 27.6 88.9 | 61.69
#   plain cosines as s_j, w = 1               57.6 75.0 55.0 66.9 28.8 88.9 | 62.03
#   mean instead of max over the others, w=1  57.6 77.5 55.0 60.2 25.2 88.9 | 60.74
#   hard: rank the documents s_i wins first   50.5 58.8 33.8 35.6 20.0 35.8 | 39.06
#   w chosen leave-one-task-out (--loto)      58.3 75.0 55.0 60.4 22.9 88.9 | 60.07
#
# w = 1 is the unit weight of the policy's other two terms, not a tuned value; chosen
# on the other five tasks, w is 1 for perspectrum, story and exfever, 1.5 for ambigqa
# and allsides, 0.75 for agnews. In the retriever the same margin (two sides: own − other)
# decides a document's side; as a ranking term it costs PerSphere recall
# (``SphereParams.margin_weight``, docs/RETRIEVAL.md), because MiniLM hardly tells a pro
# from a con paragraph on one topic, where PIR's perspectives differ in content
# (another article, another reading of an ambiguous question).


def perspective_margin(own: np.ndarray, others: np.ndarray) -> np.ndarray:
    """m(c) = s_own(c) − max_j s_j(c): how much better c fits this perspective.

    ``own`` is (n,), ``others`` (m, n) — the same score of the question's other
    perspectives. With no others the margin is 0 (nothing to tell apart).
    The multiclass margin of Crammer & Singer 2001.
    """
    own = np.asarray(own, dtype=np.float32)
    others = np.asarray(others, dtype=np.float32)
    if others.ndim != 2 or others.shape[0] == 0:
        return np.zeros_like(own)
    return (own - others.max(axis=0)).astype(np.float32)


#: weight of the margin on top of :func:`sphere_pap_scores` in PIR's ``sphere`` (unit, like the
#: policy's other terms)
MARGIN_WEIGHT = 1.0


def plan_margins(Q: np.ndarray, root: np.ndarray, C: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """(m, n): :func:`perspective_margin` of each of a question's m queries, on every row of C.

    The side signal is s_i(c) = PAP+(q_i, r)(c): query i with the root query
    ``root`` projected out of it and of c, guarded (a query equal to the root
    falls back to cosine) — the retriever's side channel. A query's
    competitors are the *other* perspectives: a row equal to query i (the same
    perspective asked twice) is not one. A query with no competitor has margin 0.
    """
    Q = _as_matrix(Q)
    side = np.stack([pap_plus_scores(q, root, C, alpha) for q in Q])
    same = np.all(np.isclose(Q[:, None, :], Q[None, :, :], rtol=0.0, atol=1e-6), axis=2)
    return np.stack([perspective_margin(side[i], side[~same[i]]) for i in range(len(Q))])
