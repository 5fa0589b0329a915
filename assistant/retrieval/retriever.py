"""The perspective-aware retriever: QueryPlan → per-side ranked documents (DESIGN §2).

One call of :meth:`Retriever.retrieve` does, for one question:

1. **Queries** (:func:`query_texts`): the question (and the root query when it
   differs; the root query alone when the plan has constraints, whose phrases
   the root query leaves out), the two claims (``plan.claims[0]`` is the pro side, ``[1]`` the con
   side) plus the perspectives that name a side, and the aspects (when ≥ 2) —
   all encoded in one batched encoder call.
2. **Candidates**: one batched FAISS search and one batched BM25 call; the
   union of the returned passages is the candidate pool. FAISS only nominates:
   every dense score below is recomputed exactly from the stored unit vectors
   (:meth:`Index.vectors`), so an approximate (HNSW) index yields the same
   scores as a flat one for the passages it returns.
3. **Channels**: each query text t scores every pool passage c by a convex
   combination of normalised dense and lexical evidence,
   ``h_t(c) = (1 − λ)·cos(t, c) + λ·bm25(t, c) / max bm25(t, ·)``
   (Bruch, Gai & Ingber 2023, "An analysis of fusion functions for hybrid
   retrieval": a tuned convex combination beats RRF).
4. **Topic**: the question channel with pseudo-relevance feedback from the
   best passages of the top-m documents — Rocchio on the dense side
   (q' = q + β·their mean; Rocchio 1971) and RM3 on the lexical side (the
   question's BM25 mixed with weight μ with the BM25 of the feedback passages'
   top terms, scored on the pool only; :mod:`~assistant.retrieval.feedback`) —
   mixed with aspect fusion across the plan's aspects (paper 003 §4.3.3, the
   aggregator from settings) when η > 0 — η = 0 by default, measured not to
   help debate questions; a lookup plan (intent ``lookup``, ≥ 2 aspects) is
   ranked by aspect fusion alone (η = ``lookup_aspect_weight`` = 1, no
   feedback), each aspect also searching FAISS for its own candidates and the
   relevance floor reading the mean aspect score — optionally smoothed over the
   document graph of the pool (β_g > 0; off by default, measured neutral), and
   regularized over the k-nearest-neighbour graph of the top documents (δ > 0:
   s'(d) = (1 − δ)·s(d) + δ · mean score of its k nearest neighbours; Diaz
   2005 eq. 6, one step; :func:`~assistant.retrieval.feedback.knn_regularize`).
5. **Sides**: the side channel of claim s is PAP+ with the root query as the
   perspective projected out (paper 000 §3.1, DESIGN §4): cos(c_s,r, d_r) keeps
   what tells the claim apart from the shared topic. A degenerate projection
   (the claim is the root) falls back to the plain cosine
   (:class:`~assistant.retrieval.pap.Projection`).
6. **Documents**: late fusion passages → documents (paper 003 eq. 1, mean of
   the top-K_R passages), the constraint hook (:func:`apply_constraints`), a
   relevance floor (a document's own topic score, before kNN regularization,
   must reach ``min_relevance`` × the best candidate's, so a side left short
   by filters is reported short, not padded with documents on another topic),
   side
   assignment (a document goes to the side whose claim channel it scores
   higher on — never to both), per-side ranking by
   ``(1 − γ)·topic + γ·side + w_m·margin`` (the centred margin toward the
   document's own side; w_m = 0 by default, measured to cost PerSphere
   recall — docs/RETRIEVAL.md), copies folded into one hit (a document whose
   best passage has the same vector and the same score as a higher one's —
   a file saved twice, a record repeated — is listed under that hit's
   ``copies``), optional MMR diversity, the cut at k.

Each :class:`~assistant.models.DocumentHit` carries its best passages and a
``scores`` dict (``dense``, ``bm25``, ``topic``, ``side:pro``, ``side:con``,
``aspect:<text>``, ``fused``; in ``sphere`` mode also ``prf``, the topic after
feedback, ``relevance``, the same before kNN regularization, and ``knn``, after
it) with the numbers behind its rank.

The plain modes rank with the question alone — ``dense`` (cosine), ``bm25``
(normalised BM25), ``hybrid`` (RRF of the two document rankings) — then split
the list into sides by the same assignment.

The ``sphere`` parameters (:class:`SphereParams`) were chosen by
cross-validation in ``sphere eval persphere`` (see ``docs/RETRIEVAL.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from assistant.config import STANCE_MIN_CONFIDENCE, RetrievalSettings
from assistant.embed import Embedder
from assistant.errors import InputError
from assistant.index.search import fetch_for_hits, hydrate
from assistant.index.store import Index
from assistant.models import SIDES, Constraint, DocumentHit, Progress, QueryPlan, Side
from assistant.retrieval.constraints import check_constraints
from assistant.retrieval.feedback import graph_smooth, knn_regularize, rm3_weights
from assistant.retrieval.fusion import (
    SCORE_AGGREGATORS,
    aggregate_aspect_scores,
    borda,
    mmr,
    reciprocal_rank_fusion,
    round_robin,
)
from assistant.retrieval.pap import Projection
from assistant.stance.units import StanceUnit, judged_parts

Mode = Literal["dense", "bm25", "hybrid", "sphere"]
MODES: tuple[str, ...] = ("dense", "bm25", "hybrid", "sphere")
ProgressFn = Callable[[Progress], None]


@dataclass(frozen=True)
class SphereParams:
    """Parameters of the ``sphere`` mode (defaults: ``sphere eval persphere --cv``)."""

    lexical_weight: float = 0.15  # λ: normalised BM25 against cosine
    side_weight: float = 0.0  # γ: side (claim) channel against the topic in the ranking
    prf_weight: float = 1.0  # β: Rocchio feedback on the dense side (0 = off)
    prf_docs: int = 3  # m: feedback documents
    aspect_weight: float = 0.0  # η: aspect fusion against the whole question
    # η for a lookup plan (intent "lookup", ≥ 2 aspects): 1 ranks by aspect fusion alone,
    # as paper 003 §4.3 does; 0 ranks a lookup by the whole question like any other plan
    lookup_aspect_weight: float = 1.0
    side_pap: bool = True  # side channel = PAP+ of the claim with the root projected out
    balanced_sides: bool = True  # centre the side margin over the top documents
    use_mmr: bool = False  # MMR on each side's list (λ = settings.mmr_lambda)
    search_claims: bool = False  # claims get their own FAISS candidates (else re-scored only)
    candidates: int = 200  # passages per query from FAISS and from BM25
    prf_rounds: int = 1  # Rocchio (and RM3) rounds on the topic channel
    rm3_weight: float = 0.3  # μ: RM3 lexical feedback against the question's BM25 (0 = off)
    rm3_terms: int = 10  # expansion terms of RM3
    claim_topic_weight: float = 0.0  # ω: the claims join the topic query (0 = sides only)
    graph_weight: float = 0.0  # β_g: document-graph smoothing from the top documents (0 = off)
    graph_docs: int = 10  # m_g: documents that propagate their score
    knn_weight: float = 0.5  # δ: kNN score regularization of the top documents (0 = off)
    knn_docs: int = 10  # k nearest neighbours whose mean score a document is pulled toward
    knn_pool: int = 200  # the top documents the kNN graph is built on
    margin_weight: float = 0.0  # w_m: the side margin (own − other side) in the ranking
    max_passages: int = 3  # evidence passages kept per document
    collapse_copies: bool = True  # a document whose best passage repeats a listed one's is
    # folded into that hit (DocumentHit.copies) instead of taking a place of its own
    min_relevance: float = 0.4  # keep documents whose topic score ≥ this × the best one's
    # the stance model (when given) decides the side of this many most relevant documents
    stance_docs: int = 20
    # ... when its probability for the side reaches this; else the claim margin decides
    stance_min_confidence: float = STANCE_MIN_CONFIDENCE
    # the parts of a passage the stance model judges apart (the summarizer's, so its
    # cache serves both: assistant.stance.units)
    stance_unit: StanceUnit = "paragraph"


def params_from_settings(settings: RetrievalSettings) -> SphereParams:
    return replace(SphereParams(), candidates=settings.candidates)


# --------------------------------------------------------------------------- plan → queries


@dataclass(frozen=True)
class PlanQueries:
    """The texts a plan contributes, by role (see :func:`plan_queries`)."""

    topic: tuple[str, ...]  # question, then root query if different
    sides: dict[Side, tuple[str, ...]]  # claim, then sided perspectives
    aspects: tuple[str, ...]

    @property
    def texts(self) -> list[str]:
        out: list[str] = []
        for t in (*self.topic, *self.sides["pro"], *self.sides["con"], *self.aspects):
            if t not in out:
                out.append(t)
        return out

    @property
    def two_sided(self) -> bool:
        """True when the two sides have something that tells them apart."""
        return bool(self.sides["pro"] and self.sides["con"]) and (
            self.sides["pro"] != self.sides["con"]
        )


def plan_queries(plan: QueryPlan) -> PlanQueries:
    # a follow-up searches for its inherited topic and the facets it added, not for its
    # own words ("show me more"): QueryPlan.search_question
    question = " ".join(plan.search_question().split())
    root = " ".join((plan.root_query or "").split()) or question
    topic = (question,) if root == question else (question, root)
    if plan.constraints and plan.root_query and plan.follows is None:
        # the instruction ("only documents of fewer than 90 words") says which documents
        # qualify, not what they are about: the topic is the question without it
        topic = (root,)
    sides: dict[Side, list[str]] = {"pro": [], "con": []}
    # a lookup has no claims (an edited plan may still carry some): one list, no sides
    for side, claim in zip(SIDES, () if plan.intent == "lookup" else plan.claims, strict=False):
        c = " ".join((claim or "").split())
        if c:
            sides[side].append(c)
    for p in plan.perspectives:
        t = " ".join(p.text.split())
        if plan.intent != "lookup" and p.side in SIDES and t and t not in sides[p.side]:
            sides[p.side].append(t)
    aspects = tuple(dict.fromkeys(" ".join(a.text.split()) for a in plan.aspects if a.text.strip()))
    if len(aspects) < 2:  # a single aspect is the question again: nothing to fuse
        aspects = ()
    return PlanQueries(
        tuple(t for t in topic if t), {s: tuple(v) for s, v in sides.items()}, aspects
    )


def aspect_weight(plan: QueryPlan, pq: PlanQueries, params: SphereParams) -> float:
    """η of ``plan``: ``lookup_aspect_weight`` for a lookup with ≥ 2 aspects, else
    ``aspect_weight`` (``pq.aspects`` is empty when the plan has fewer than two)."""
    if plan.intent == "lookup" and pq.aspects:
        return params.lookup_aspect_weight
    return params.aspect_weight


def query_texts(plan: QueryPlan) -> list[str]:
    """The texts encoded for a plan, in order, deduplicated (what ``qvecs`` rows are)."""
    return plan_queries(plan).texts


def apply_constraints(
    index: Index, doc_rows: np.ndarray, constraints: Sequence[Constraint]
) -> np.ndarray:
    """Hook for document-level constraints (InfoSearch dimensions, paper 002; issue 7).

    Takes candidate document rows (best first) and returns the rows that pass
    the hard constraints, in the same order
    (:func:`assistant.retrieval.constraints.check_constraints`).
    """
    return check_constraints(index, doc_rows, constraints).rows


# --------------------------------------------------------------------------- retriever


@dataclass
class _Pool:
    """Candidate passages with the exact scores of every query text."""

    pids: np.ndarray  # (P,) sorted passage ids
    doc_rows: np.ndarray  # (P,) document row of each passage
    vectors: np.ndarray | None  # (P, d) stored unit vectors
    qvecs: np.ndarray | None  # (m, d) query vectors, rows as ``texts``
    dense: np.ndarray | None  # (m, P) cosines
    bm25: np.ndarray | None  # (m, P) BM25 / max BM25 of the query (0 = not retrieved)
    row: dict[str, int]  # text -> row of qvecs / dense / bm25


class Retriever:
    """Perspective-aware retrieval over one :class:`Index` (see the module docstring).

    ``retrieve(plan, k=…)`` → ``{"pro": [DocumentHit…], "con": […]}``; the two
    lists are disjoint and each holds at most ``k`` documents.
    """

    def __init__(
        self,
        index: Index,
        embedder: Embedder | None,
        settings: RetrievalSettings | None = None,
        *,
        params: SphereParams | None = None,
        stance: Any = None,
    ) -> None:
        self.index = index
        self.embedder = embedder
        # a StanceModel (assistant.stance.model), or None: sides from the claim margin only
        self.stance = stance
        self.settings = settings or RetrievalSettings()  # type: ignore[call-arg]
        self.params = params or params_from_settings(self.settings)
        # what the last retrieval's constraints left too thin (for Summary.notes)
        self.last_notes: list[str] = []

    # ------------------------------------------------------------------ public
    def retrieve(
        self,
        plan: QueryPlan,
        *,
        k: int | None = None,
        progress: ProgressFn | None = None,
        mode: str | None = None,
        depth: int | None = None,
    ) -> dict[Side, list[DocumentHit]]:
        """Per-side ranked documents for ``plan`` (at most ``k`` per side).

        ``depth`` (≥ ``k``, default ``k``): return that many per side instead, the
        ranking read further down, with the sides decided exactly as for ``k``
        (the claim margin is centred over the 2k most relevant documents, so
        asking for more must not move that reference set: a page of "more" or a
        one-sided answer would otherwise move documents between the sides).
        """
        mode = self._mode(mode)
        texts = query_texts(plan)
        if not texts:
            raise InputError("the question is empty", hint="type a question to search for")
        qvecs = None
        if self.embedder is not None:
            if progress:
                progress(Progress("retrieving", 0, 3, "encoding the question"))
            qvecs = self.embedder.encode(texts)
        elif mode != "bm25":
            raise InputError(f"retrieval mode '{mode}' needs an embedder", hint="use mode bm25")
        return self.retrieve_encoded(plan, qvecs, k=k, progress=progress, mode=mode, depth=depth)

    def retrieve_encoded(
        self,
        plan: QueryPlan,
        qvecs: np.ndarray | None,
        *,
        k: int | None = None,
        progress: ProgressFn | None = None,
        mode: str | None = None,
        depth: int | None = None,
    ) -> dict[Side, list[DocumentHit]]:
        """:meth:`retrieve` with ``qvecs`` = the vectors of :func:`query_texts` (no encoder)."""
        mode = self._mode(mode)
        self.last_notes = []
        k = int(k or self.settings.k)
        depth = max(k, int(depth or k))
        emit = progress or (lambda _p: None)
        pq = plan_queries(plan)
        if not pq.texts:
            raise InputError("the question is empty", hint="type a question to search for")
        if qvecs is not None and len(qvecs) != len(pq.texts):
            raise ValueError(f"expected {len(pq.texts)} query vectors, got {len(qvecs)}")
        eta = aspect_weight(plan, pq, self.params) if mode == "sphere" else 0.0
        emit(Progress("retrieving", 1, 3, "searching the index"))
        pool = self._pool(pq, None if mode == "bm25" else qvecs, mode, eta)
        emit(Progress("retrieving", 2, 3, "ranking per side"))
        hits = (
            self._rank(plan, pq, pool, mode, k, eta, depth)
            if len(pool.pids)
            else {"pro": [], "con": []}
        )
        emit(Progress("retrieving", 3, 3, f"{len(hits['pro'])} + {len(hits['con'])} documents"))
        return hits

    def _mode(self, mode: str | None) -> str:
        m = mode or self.settings.mode
        if m not in MODES:
            raise InputError(f"unknown retrieval mode {m!r}", hint=f"use one of {', '.join(MODES)}")
        return m

    # ------------------------------------------------------------------ candidates
    def _pool(
        self, pq: PlanQueries, qvecs: np.ndarray | None, mode: str, eta: float = 0.0
    ) -> _Pool:
        texts = pq.texts
        row = {t: i for i, t in enumerate(texts)}
        c = self.params.candidates
        found: list[np.ndarray] = []
        if qvecs is not None:
            qvecs = np.asarray(qvecs, dtype=np.float32)
            searched = [row[t] for t in pq.topic]
            if mode == "sphere" and self.params.search_claims:
                searched += [row[t] for s in SIDES for t in pq.sides[s]]
            if eta >= 1.0:
                # ranked by the aspects alone: each aspect nominates its own candidates
                # (paper 003 §4.3.2 scores every item for every aspect)
                searched += [row[a] for a in pq.aspects]
            _s, ids = self.index.search_dense(qvecs[sorted(set(searched))], c)
            found.append(ids.ravel())
        bm_s = bm_p = None
        # BM25 for the topic and side texts; aspects only when aspect fusion is on
        lexical = list(dict.fromkeys([*pq.topic, *(t for s in SIDES for t in pq.sides[s])]))
        if mode == "sphere" and eta > 0:
            lexical += [a for a in pq.aspects if a not in lexical]
        if mode == "dense":
            lexical = []
        if lexical:
            bm_s, bm_p = self.index.search_bm25(lexical, c)
            found.append(bm_p.ravel())
        allp = np.concatenate(found) if found else np.zeros(0, np.int64)
        pids = np.unique(allp[allp >= 0])
        doc_rows = self.index.doc_index(pids) if len(pids) else np.zeros(0, np.int64)
        pids, doc_rows = pids[doc_rows >= 0], doc_rows[doc_rows >= 0]
        vectors = dense = None
        if qvecs is not None and len(pids):
            vectors = self.index.vectors(pids)
            dense = qvecs @ vectors.T
        bm = None
        if bm_s is not None and bm_p is not None:
            bm = np.zeros((len(texts), len(pids)), np.float32)
            for j, t in enumerate(lexical):
                ok = bm_p[j] >= 0
                top = float(bm_s[j][ok].max()) if ok.any() else 0.0
                if top <= 0 or not len(pids):
                    continue
                pos = np.searchsorted(pids, bm_p[j][ok])
                bm[row[t], pos] = bm_s[j][ok] / top
        return _Pool(pids, doc_rows, vectors, qvecs, dense, bm, row)

    # ------------------------------------------------------------------ channels
    def _hybrid(self, pool: _Pool, text: str, dense: np.ndarray | None = None) -> np.ndarray:
        """h_t(c): convex combination of cosine and normalised BM25 (module step 3)."""
        i = pool.row[text]
        d = dense if dense is not None else (pool.dense[i] if pool.dense is not None else None)
        b = pool.bm25[i] if pool.bm25 is not None else None
        if d is None:
            assert b is not None
            return b
        if b is None:
            return d
        lam = self.params.lexical_weight
        return (1.0 - lam) * d + lam * b

    def _side_channel(self, pool: _Pool, pq: PlanQueries, text: str, mode: str) -> np.ndarray:
        """Guarded PAP+ of a side text with the root query projected out (module step 5)."""
        if pool.dense is None or pool.vectors is None or pool.qvecs is None:
            return self._hybrid(pool, text)
        i = pool.row[text]
        if mode != "sphere" or not self.params.side_pap:
            return pool.dense[i] if mode != "sphere" else self._hybrid(pool, text)
        root = pool.qvecs[pool.row[pq.topic[-1]]]
        proj = Projection.of(pool.qvecs[i], root, self.settings.pap_alpha)
        c_dot_p = pool.vectors @ proj.p
        qp_dot_c = pool.vectors @ proj.q_p
        pap_plus = proj.rescore_plus(qp_dot_c, c_dot_p, 1.0, q_dot_c=pool.dense[i])
        return self._hybrid(pool, text, dense=pap_plus)

    # ------------------------------------------------------------------ ranking
    def _rank(
        self,
        plan: QueryPlan,
        pq: PlanQueries,
        pool: _Pool,
        mode: str,
        k: int,
        eta: float,
        depth: int | None = None,
    ) -> dict[Side, list[DocumentHit]]:
        n = depth or k  # documents returned per side; k decides the sides
        p = self.params
        k_r = self.settings.k_r
        # passage-level channels, (P,) each
        ch: dict[str, np.ndarray] = {}
        q0 = pq.topic[0]
        if pool.dense is not None:
            ch["dense"] = pool.dense[pool.row[q0]]
        if pool.bm25 is not None:
            ch["bm25"] = pool.bm25[pool.row[q0]]
        if mode == "dense":
            ch["topic"] = np.mean([pool.dense[pool.row[t]] for t in pq.topic], axis=0)  # type: ignore[index]
        elif mode == "bm25":
            ch["topic"] = np.mean([pool.bm25[pool.row[t]] for t in pq.topic], axis=0)  # type: ignore[index]
        elif mode == "sphere":
            ch["topic"] = np.mean([self._hybrid(pool, t) for t in pq.topic], axis=0)
        else:  # hybrid ranks documents by RRF; passages (evidence) by cosine
            ch["topic"] = ch["dense"]
        for side in SIDES:
            if pq.sides[side]:
                vals = [self._side_channel(pool, pq, t, mode) for t in pq.sides[side]]
                ch[f"side:{side}"] = np.mean(vals, axis=0)
        if mode == "sphere" and pq.aspects and eta > 0:
            for a in pq.aspects:
                ch[f"aspect:{a}"] = self._hybrid(pool, a)
        rows, first, doc_ch = _late_fusion(pool.doc_rows, ch, k_r)
        if mode == "hybrid":
            doc_ch["topic"] = _rrf_scores(doc_ch["dense"], doc_ch["bm25"], self.settings.rrf_k)
        if mode == "sphere":
            self._refine_topic(pool, pq, rows, first, doc_ch, ch, k_r, eta)
        # constraint hook: filter candidate documents, keep order
        order = np.argsort(-doc_ch["topic"], kind="stable")
        checked = check_constraints(
            self.index, rows[order], plan.constraints, doc_ch["topic"][order]
        )
        keep_mask = np.isin(rows, checked.rows)
        if mode == "sphere" and p.min_relevance > 0 and len(rows):
            # a floor relative to the best candidate: when filters (or a small index) leave
            # a side short, say so rather than pad it with documents on another topic
            relevance = doc_ch.get("relevance", doc_ch["topic"])
            scale = relevance
            asks_language = (
                c.dimension == "language" and c.hard and not c.negated for c in plan.constraints
            )
            if any(asks_language):
                # a monolingual embedder scores another language lower across the board:
                # measure relevance against the best document in the asked-for language
                scale = relevance[keep_mask] if keep_mask.any() else scale
            best = float(scale.max())
            if best > 0:
                keep_mask &= relevance >= p.min_relevance * best
        if checked.boost is not None:  # soft re-weighting + compliance (constraints module)
            doc_ch["constraints"] = np.zeros(len(rows), np.float32)
            doc_ch["constraints"][np.searchsorted(rows, checked.rows)] = checked.boost
        # side assignment and per-side scores
        side_of = self._assign(doc_ch, pq, len(rows), k)
        stance_of: dict[int, dict[str, Any]] = {}
        if self.stance is not None and pq.two_sided and len(rows):
            stance_of = self._stance_sides(plan, pq, pool, rows, doc_ch, ch, keep_mask, side_of)
        hits: dict[Side, list[DocumentHit]] = {"pro": [], "con": []}
        chosen: dict[Side, tuple[np.ndarray, dict[int, float]]] = {}
        copies: dict[int, list[int]] = {}
        signature = None
        if mode == "sphere" and p.collapse_copies and pool.vectors is not None and len(rows):
            signature = _Signatures(pool.vectors, pool.doc_rows, ch["topic"])
        for s_idx, side in enumerate(SIDES):
            mine = np.flatnonzero((side_of == s_idx) & keep_mask)
            if not len(mine):
                continue
            score = doc_ch["topic"][mine].copy()
            if mode == "sphere" and f"side:{side}" in doc_ch and pq.two_sided:
                score = (1.0 - p.side_weight) * score + p.side_weight * doc_ch[f"side:{side}"][mine]
                if p.margin_weight > 0 and "side_margin" in doc_ch:
                    sign = 1.0 if side == "con" else -1.0
                    score = score + p.margin_weight * sign * doc_ch["side_margin"][mine]
            if "constraints" in doc_ch:
                score = score + doc_ch["constraints"][mine]
            order = mine[np.lexsort((rows[mine], -score))]
            fused = dict(zip(order.tolist(), np.sort(score)[::-1].tolist(), strict=True))
            if signature is not None:
                want = max(4 * n, 40) if p.use_mmr else n
                order, found = _collapse_copies(order, fused, signature, want)
                copies.update(found)
            if mode == "sphere" and p.use_mmr and pool.vectors is not None:
                top = order[: max(4 * n, 40)]
                rel = np.array([fused[i] for i in top])
                emb = pool.vectors[first[top]]
                order = top[mmr(rel, emb, n, self.settings.mmr_lambda)]
            chosen[side] = (order[:n], fused)
        if chosen:
            hits.update(self._hydrate(pool, ch, rows, doc_ch, chosen, copies, stance_of))
        if plan.constraints:
            per_side = {s: int(((side_of == i) & keep_mask).sum()) for i, s in enumerate(SIDES)}
            self.last_notes = checked.notes(per_side if pq.two_sided else None)
        return hits

    def _refine_topic(
        self,
        pool: _Pool,
        pq: PlanQueries,
        rows: np.ndarray,
        first: np.ndarray,
        doc_ch: dict[str, np.ndarray],
        ch: dict[str, np.ndarray],
        k_r: int,
        eta: float,
    ) -> None:
        """Feedback, aspect fusion, graph smoothing and kNN regularization of the topic (step 4).

        Aspect fusion (paper 003 §4.3): S(a, i) is late fusion (eq. 1) of the
        aspect's passage scores, the aspects' S(a, i) are combined by the
        configured aggregator (§4.3.3), and the topic becomes
        (1 − η)·topic + η·fused. With η = 1 (a lookup) the fused score alone
        ranks, so the question's feedback is not computed.
        """
        p = self.params
        if (
            eta < 1.0
            and p.prf_weight > 0
            and p.prf_docs > 0
            and pool.dense is not None
            and pool.qvecs is not None
        ):
            assert pool.vectors is not None
            topic_rows = [pool.row[t] for t in pq.topic]
            base = pool.qvecs[topic_rows].mean(0)
            side_rows = [pool.row[t] for s in SIDES for t in pq.sides[s]]
            if p.claim_topic_weight > 0 and side_rows:
                base = base + p.claim_topic_weight * pool.qvecs[side_rows].mean(0)
            bm = np.mean([pool.bm25[i] for i in topic_rows], 0) if pool.bm25 is not None else None
            lam = p.lexical_weight
            for _round in range(max(p.prf_rounds, 1)):
                top = np.argsort(-doc_ch["topic"], kind="stable")[: p.prf_docs]
                best = _best_passages(pool.doc_rows, ch["topic"], rows[top])
                q = base + p.prf_weight * pool.vectors[best].mean(0)
                q /= max(float(np.linalg.norm(q)), 1e-12)
                dense_prf = pool.vectors @ q
                lex = bm
                if bm is not None and p.rm3_weight > 0:
                    rm3 = self._rm3(pool, best, doc_ch["topic"][top])
                    lex = (1.0 - p.rm3_weight) * bm + p.rm3_weight * rm3
                topic = dense_prf if lex is None else (1.0 - lam) * dense_prf + lam * lex
                ch["topic"] = topic
                _r, _f, fused = _late_fusion(pool.doc_rows, {"topic": topic}, k_r)
                doc_ch["prf"] = fused["topic"]
                doc_ch["topic"] = fused["topic"]
        if pq.aspects and eta > 0:
            per = np.stack([doc_ch[f"aspect:{a}"] for a in pq.aspects])
            agg = _aggregate(per, self.settings.aspect_aggregator)
            doc_ch["aspects"] = agg
            doc_ch["topic"] = (1.0 - eta) * doc_ch["topic"] + eta * agg
            if eta >= 1.0:
                # the relevance floor on the channels' own scale: the aggregators' scores
                # ((1 + s)/2, Borda points) would let every candidate through
                doc_ch["relevance"] = per.mean(0)
        smooth = p.graph_weight > 0 and p.graph_docs > 0
        regularize = p.knn_weight > 0 and p.knn_docs > 0
        if (smooth or regularize) and pool.vectors is not None:
            emb = pool.vectors[_best_passage_each(pool.doc_rows, ch["topic"])]
            if smooth:
                doc_ch["topic"] = graph_smooth(doc_ch["topic"], emb, p.graph_docs, p.graph_weight)
                doc_ch["graph"] = doc_ch["topic"]
            if regularize:
                # the ranking borrows from neighbours; whether a document is on topic at all
                # (the relevance floor, the side-balance set) stays its own score
                doc_ch.setdefault("relevance", doc_ch["topic"])
                doc_ch["topic"] = knn_regularize(
                    doc_ch["topic"], emb, p.knn_docs, p.knn_weight, p.knn_pool
                )
                doc_ch["knn"] = doc_ch["topic"]

    def _rm3(self, pool: _Pool, feedback: np.ndarray, doc_scores: np.ndarray) -> np.ndarray:
        """RM3 lexical channel on the pool: Σ_w P(w|R)·bm25(w, c), scaled to max 1.

        ``feedback`` are pool indices of the feedback passages, ``doc_scores``
        their documents' topic scores (:func:`~assistant.retrieval.feedback.rm3_weights`).
        """
        from assistant.index.lexical import fast_tokens

        bm25 = self.index.bm25
        fb_pids = pool.pids[feedback]
        texts = self.index.passage_texts(fb_pids.tolist())  # one SQLite read
        toks = [fast_tokens(texts.get(int(i), "")) for i in fb_pids]
        ids = sorted({t for ts in toks for t in bm25.retriever.get_tokens_ids(ts)})
        if not ids:
            return np.zeros(len(pool.pids), np.float32)
        contrib = bm25.contributions(ids, fb_pids)  # (T, m)
        per_doc = [
            {ids[j]: float(contrib[j, i]) for j in np.flatnonzero(contrib[:, i] > 0)}
            for i in range(len(fb_pids))
        ]
        w = rm3_weights(per_doc, [float(x) for x in doc_scores], self.params.rm3_terms)
        if not w:
            return np.zeros(len(pool.pids), np.float32)
        terms = list(w)
        s = np.asarray([w[t] for t in terms], np.float32) @ bm25.contributions(terms, pool.pids)
        top = float(s.max())
        return (s / top if top > 0 else s).astype(np.float32)

    def _assign(self, doc_ch: dict[str, np.ndarray], pq: PlanQueries, n: int, k: int) -> np.ndarray:
        """0 = pro, 1 = con: the side whose claim the document fits better.

        "Better" is relative: the margin side:con − side:pro is centred on its
        median over the 2k documents most relevant to the topic (by their own
        score, before kNN regularization borrows from neighbours), because one
        claim is usually closer to the topic than the other and would otherwise
        take nearly every document (measured on PerSphere: the uncentred rule
        fills one side with the relevant documents and the other with weak ones).
        Without anything that tells the sides apart every document goes to pro;
        a plan with one side only (a one-sided request) puts everything there.
        """
        if not pq.two_sided:
            only = 1 if (pq.sides["con"] and not pq.sides["pro"]) else 0
            return np.full(n, only, dtype=np.int64)
        margin = doc_ch["side:con"] - doc_ch["side:pro"]
        if self.params.balanced_sides and n:
            relevance = doc_ch.get("relevance", doc_ch["topic"])  # before kNN regularization
            top = np.argsort(-relevance, kind="stable")[: 2 * k]
            margin = margin - float(np.median(margin[top]))
        doc_ch["side_margin"] = margin
        return (margin > 0).astype(np.int64)

    def _stance_sides(
        self,
        plan: QueryPlan,
        pq: PlanQueries,
        pool: _Pool,
        rows: np.ndarray,
        doc_ch: dict[str, np.ndarray],
        ch: dict[str, np.ndarray],
        keep_mask: np.ndarray,
        side_of: np.ndarray,
    ) -> dict[int, dict[str, Any]]:
        """The stance model's side for the most relevant documents (module step 6).

        The ``stance_docs`` kept documents most relevant to the topic (their own
        score) are judged from their best passage against the two side texts
        (:meth:`~assistant.stance.model.StanceModel.judge_documents`), paragraph
        by paragraph as the summarizer reads it (:mod:`assistant.stance.units`);
        where the model's probability for a claim reaches ``stance_min_confidence``
        the document goes to that side, overriding the claim margin. In place on
        ``side_of``; returns pool document index → {"side", "p"} for the hits.
        """
        p = self.params
        relevance = doc_ch.get("relevance", doc_ch["topic"])
        cand = np.flatnonzero(keep_mask)
        top = cand[np.argsort(-relevance[cand], kind="stable")][: p.stance_docs]
        if not len(top):
            return {}
        best = _best_passage_each(pool.doc_rows, ch["topic"])
        pids = pool.pids[best[top]].tolist()
        texts = self.index.passage_texts(pids)
        passage = [texts.get(int(pid), "") for pid in pids]
        docs = [
            [t[s:e] for s, e in judged_parts(t, p.stance_unit)] if t.strip() else []
            for t in passage
        ]
        claims = (pq.sides["pro"][0], pq.sides["con"][0])
        question = plan.claims_question() or pq.topic[0]
        judged = self.stance.judge_documents(question, claims, docs)
        out: dict[int, dict[str, Any]] = {}
        for j, i in enumerate(top.tolist()):
            jd = judged[j].side
            side = "none"
            if jd.side != 2 and jd.confidence >= p.stance_min_confidence:
                side_of[i] = jd.side
                side = SIDES[jd.side]
            out[i] = {"side": side, "p": [round(x, 4) for x in jd.p]}
        return out

    def _hydrate(
        self,
        pool: _Pool,
        ch: dict[str, np.ndarray],
        rows: np.ndarray,
        doc_ch: dict[str, np.ndarray],
        chosen: dict[Side, tuple[np.ndarray, dict[int, float]]],
        copies: dict[int, list[int]] | None = None,
        stance_of: dict[int, dict[str, Any]] | None = None,
    ) -> dict[Side, list[DocumentHit]]:
        """Documents, evidence passages and per-method scores of each side's chosen rows.

        ``chosen`` maps a side to (pool document indices in rank order, fused
        score of each); ``copies`` a chosen index to the indices folded into
        it. Both sides' documents and passages come from one SQLite read
        (:func:`~assistant.index.search.fetch_for_hits`).
        """
        copies = copies or {}
        evidence: dict[int, list[tuple[int, float]]] = {}
        for side, (order, _fused) in chosen.items():
            gamma = self.params.side_weight if f"side:{side}" in ch else 0.0
            passage_score = (1.0 - gamma) * ch["topic"] + gamma * ch.get(f"side:{side}", 0.0)
            for j in np.flatnonzero(np.isin(pool.doc_rows, rows[order])):
                evidence.setdefault(int(pool.doc_rows[j]), []).append(
                    (int(pool.pids[j]), float(passage_score[j]))
                )
        for items in evidence.values():
            items.sort(key=lambda x: -x[1])
            del items[self.params.max_passages :]
        folded = [i for order, _f in chosen.values() for j in order for i in copies.get(int(j), [])]
        all_rows = np.concatenate([*(rows[order] for order, _f in chosen.values()), rows[folded]])
        fetched = fetch_for_hits(self.index, all_rows, evidence, self.params.max_passages)
        out: dict[Side, list[DocumentHit]] = {}
        for side, (order, fused) in chosen.items():
            sel = rows[order]
            per_method = {name: (sel, vals[order]) for name, vals in doc_ch.items()}
            scores = np.array([fused[int(i)] for i in order], dtype=np.float32)
            hits = hydrate(
                self.index, sel, scores, evidence, per_method, self.params.max_passages, fetched
            )
            by_id = {h.doc_id: h for h in hits} if copies else {}
            for j, row in zip(order.tolist(), sel.tolist(), strict=True) if copies else ():
                doc = fetched[0].get(int(row))
                hit = by_id.get(doc.doc_id) if doc is not None else None
                if hit is not None:
                    hit.copies = [
                        fetched[0][int(rows[c])].doc_id
                        for c in copies.get(j, [])
                        if int(rows[c]) in fetched[0]
                    ]
            judged = {
                fetched[0][int(rows[j])].doc_id: stance_of[j]
                for j in order.tolist()
                if stance_of and j in stance_of and int(rows[j]) in fetched[0]
            }
            for h in hits:
                h.side = side
                h.scores["fused"] = h.score
                h.stance = judged.get(h.doc_id)
            out[side] = hits
        return out


# --------------------------------------------------------------------------- numpy helpers


def _late_fusion(
    passage_docs: np.ndarray, channels: dict[str, np.ndarray], k_r: int
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Per-document mean of the top-K_R passage scores of every channel (paper 003 eq. 1).

    Returns (document rows, index of each document's first pool passage, channel → (D,)).
    """
    rows, inverse = np.unique(passage_docs, return_inverse=True)
    first = np.zeros(len(rows), dtype=np.int64)
    first[inverse[::-1]] = np.arange(len(inverse))[::-1]
    out: dict[str, np.ndarray] = {}
    counts = np.bincount(inverse, minlength=len(rows))
    max_only = k_r == 1 or not len(rows) or counts.max() == 1
    # passages grouped by document once for all channels: a max is one reduceat
    by_doc = np.argsort(inverse, kind="stable") if max_only else inverse
    starts_of = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
    for name, s in channels.items():
        if not len(rows):
            out[name] = np.zeros(0, np.float32)
            continue
        if max_only:
            out[name] = np.maximum.reduceat(s[by_doc], starts_of).astype(np.float32)
            continue
        order = np.lexsort((-s, inverse))
        inv_o = inverse[order]
        slot = np.arange(len(order)) - starts_of[inv_o]
        keep = slot < k_r
        sums = np.bincount(inv_o[keep], weights=s[order][keep], minlength=len(rows))
        out[name] = (sums / np.minimum(counts, k_r)).astype(np.float32)
    return rows, first, out


COPY_COSINE = 1.0 - 1e-5  # best passages this close are the same text (float32 rounding)


class _Signatures:
    """A document's copy signature: its best passage's unit vector, found on first use.

    Indexed by pool document index (the order of ``rows`` in ``_rank``). The
    best passage of every document is found only when a score tie asks for a
    signature, which most questions never do.
    """

    def __init__(self, vectors: np.ndarray, passage_docs: np.ndarray, scores: np.ndarray) -> None:
        self.vectors, self.passage_docs, self.scores = vectors, passage_docs, scores
        self._best: np.ndarray | None = None

    def __getitem__(self, i: int) -> np.ndarray:
        if self._best is None:
            self._best = _best_passage_each(self.passage_docs, self.scores)
        return self.vectors[self._best[i]]


def _collapse_copies(
    order: np.ndarray, score: dict[int, float], signature: Any, limit: int
) -> tuple[np.ndarray, dict[int, list[int]]]:
    """Walk ``order`` (best first) keeping up to ``limit`` documents; fold copies in.

    A document is a copy of a kept one when its score is the same (within
    1e-6) and so is its signature (``signature[i]``, the unit vector of its
    best passage; cosine ≥ :data:`COPY_COSINE`): the same text indexed twice.
    Signatures are compared only on a score tie. Returns (kept indices in
    order, kept index → folded indices). The walk stops at the first document
    after the ``limit``-th kept one that is not a copy.
    """
    kept: list[int] = []
    folded: dict[int, list[int]] = {}
    for i in order.tolist():
        s_i = score[i]
        twin = next(
            (
                j
                for j in kept
                if abs(score[j] - s_i) <= 1e-6 and float(signature[j] @ signature[i]) >= COPY_COSINE
            ),
            None,
        )
        if twin is not None:
            folded.setdefault(twin, []).append(i)
            continue
        if len(kept) >= limit:
            break
        kept.append(i)
    return np.asarray(kept, dtype=np.int64), folded


def _best_passages(passage_docs: np.ndarray, scores: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """Pool index of the best-scoring passage of each document in ``docs``."""
    out = []
    for d in docs:
        idx = np.flatnonzero(passage_docs == d)
        out.append(int(idx[np.argmax(scores[idx])]))
    return np.asarray(out, dtype=np.int64)


def _best_passage_each(passage_docs: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Pool index of the best-scoring passage of every document, in sorted document order."""
    _rows, inverse = np.unique(passage_docs, return_inverse=True)
    order = np.lexsort((-scores, inverse))
    starts = np.r_[True, inverse[order][1:] != inverse[order][:-1]]
    return order[starts]


def _rrf_scores(dense: np.ndarray, bm25: np.ndarray, k: int) -> np.ndarray:
    """RRF scores of the documents from their dense and BM25 rankings (Cormack et al. 2009)."""
    runs = [np.argsort(-dense, kind="stable").tolist(), np.argsort(-bm25, kind="stable").tolist()]
    fused = dict(reciprocal_rank_fusion(runs, k))
    return np.array([fused[i] for i in range(len(dense))], dtype=np.float32)


def _aggregate(per_aspect: np.ndarray, method: str) -> np.ndarray:
    """Aspect fusion of (A, D) document scores into (D,) (paper 003 §4.3.3).

    Score aggregators take cosines mapped to (0, 1]; rank aggregators become
    scores (Borda points, or 1/position of the round-robin merge).
    """
    if method in SCORE_AGGREGATORS:
        return aggregate_aspect_scores((1.0 + per_aspect) / 2.0, method)  # type: ignore[arg-type]
    lists = [np.argsort(-row, kind="stable").tolist() for row in per_aspect]
    n = per_aspect.shape[1]
    out = np.zeros(n, dtype=np.float32)
    if method == "borda":
        for item, pts in borda(lists):
            out[item] = pts / max(n, 1)
    else:
        for pos, item in enumerate(round_robin(lists), 1):
            out[item] = 1.0 / pos
    return out
