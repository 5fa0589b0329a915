"""``sphere eval persphere``: Recall@k and Cover@k on PerSphere (paper 004, eqs. 2–3).

Data: ``data.jsonl`` + ``doc_new.jsonl`` of Theperspective (data README §1a),
read by path. The question is ``title``; the gold documents are
``favor_ids`` + ``against_ids``; each perspective has one document, so
Cover@k (eq. 3) counts the perspectives whose document is in the top k.

The corpus is indexed once with the real index builder (cached under
``cache_dir``, :mod:`assistant.eval.persphere_data`), so every method runs the
code ``sphere search`` and the retriever run:

* ``bm25``, ``dense``, ``hybrid`` — :func:`assistant.index.search.search` on
  the title (hybrid = RRF of the dense and BM25 document rankings).
* ``sphere`` — :class:`assistant.retrieval.retriever.Retriever` in its default
  mode on the plan the rules make of the title
  (:func:`assistant.understand.parse_rules`: claims from the question, no
  gold information). This is the honest number.
* ``sphere_gold_claims`` — the same plan with the gold claims ``t1``/``t2`` as
  the two sides (an upper bound for better question understanding).
* ``sphere_no_claims`` — the plan without claims (question channel only).

**One list from two sides.** Recall@k and Cover@k are over the top k
documents for the query; the retriever returns disjoint pro and con lists,
merged by fused score (:func:`merge_sides`). ``<method>_interleave`` merges
by interleaving (pro₁, con₁, pro₂, …) instead — a hard per-side quota, which
measured ~5 points lower Recall@10 because side assignment is near chance with
MiniLM (docs/RETRIEVAL.md).

**Cross-validation** (``--cv``): the ``sphere`` parameters are chosen on one
half of the queries and scored on the other (2 folds over query ids, split by
a hash of the id); ``<method>_cv`` reports the held-out scores, which are the
figures to trust. The shipped defaults (:class:`SphereParams`) are the grid
point best on all queries.

Output (``--json``), values in percent::

    {"benchmark": "persphere", "methods": {M: {"recall@10": v, "cover@10": v, …}},
     "tasks": {TOPIC: {M: {…}}}, "cv": {…}}

Tasks are the topic prefixes of ``id`` (living, politics, …).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from assistant.eval.metrics import cover_at_k, mean_recall_at_k
from assistant.eval.persphere_data import PerSphereQuery, corpus_index_for, load_queries
from assistant.models import DocumentHit, QueryPlan, Side

Ranking = list[str]


def merge_sides(
    hits: dict[Side, list[DocumentHit]], k: int | None = None, how: str = "score"
) -> Ranking:
    """One ranking from the two (disjoint) side lists.

    ``score``: all documents by their fused score (each side's score is the same
    convex mix of topic and claim channels, so the scales agree);
    ``interleave``: pro₁, con₁, pro₂, con₂, … (a side that runs out leaves the
    rest to the other) — a hard per-side quota.
    """
    out: Ranking = []
    seen: set[str] = set()
    if how == "score":
        every = sorted(
            (h for side in ("pro", "con") for h in hits.get(side, [])), key=lambda h: -h.score
        )
        pairs: Iterable[tuple[DocumentHit | None, ...]] = ((h,) for h in every)
    elif how == "interleave":
        pairs = itertools.zip_longest(hits.get("pro", []), hits.get("con", []))
    else:
        raise ValueError(f"unknown merge {how!r}")
    for pair in pairs:
        for h in pair:
            # a hit with folded copies stands for each of them, in place: the
            # ranking is by document id, as the benchmark's gold is
            for doc_id in [h.doc_id, *h.copies] if h is not None else []:
                if doc_id not in seen:
                    seen.add(doc_id)
                    out.append(doc_id)
    return out[:k] if k is not None else out


def hit_scores(hits: dict[Side, list[DocumentHit]]) -> dict[str, float]:
    """doc_id → fused score for every listed document and every copy folded into a hit."""
    return {d: h.score for side in hits.values() for h in side for d in (h.doc_id, *h.copies)}


def score_rankings(
    queries: Sequence[PerSphereQuery], rankings: Sequence[Ranking], ks: Sequence[int]
) -> dict[str, float]:
    """Recall@k (eq. 2) and Cover@k (eq. 3) in percent."""
    golds = [q.gold for q in queries]
    persp = [q.perspective_docs for q in queries]
    out: dict[str, float] = {}
    for k in ks:
        out[f"recall@{k}"] = round(100 * mean_recall_at_k(rankings, golds, k), 2)
    for k in ks:
        out[f"cover@{k}"] = round(100 * cover_at_k(rankings, persp, k), 2)
    return out


def fold_of(qid: str, folds: int = 2) -> int:
    """Deterministic fold of a query id (sha256, so independent of file order)."""
    return int(hashlib.sha256(qid.encode("utf-8")).hexdigest(), 16) % folds


def report(
    queries: Sequence[PerSphereQuery], runs: dict[str, list[Ranking]], ks: Sequence[int]
) -> dict[str, Any]:
    """The JSON object: overall and per-topic metrics for every method."""
    topics = sorted({q.topic for q in queries})
    out: dict[str, Any] = {"benchmark": "persphere", "methods": {}, "tasks": {}}
    for name, rankings in runs.items():
        out["methods"][name] = score_rankings(queries, rankings, ks)
    for t in topics:
        idx = [i for i, q in enumerate(queries) if q.topic == t]
        out["tasks"][t] = {
            name: score_rankings([queries[i] for i in idx], [r[i] for i in idx], ks)
            for name, r in runs.items()
        }
    return out


def plans_for(queries: Sequence[PerSphereQuery]) -> dict[str, list[QueryPlan]]:
    """The three plans per query: rules (honest), gold claims, no claims."""
    from assistant.understand import parse_rules

    rules = [parse_rules(q.title) for q in queries]
    return {
        "sphere": rules,
        "sphere_gold_claims": [
            replace(p, claims=q.claims) for p, q in zip(rules, queries, strict=True)
        ],
        "sphere_no_claims": [replace(p, claims=("", "")) for p in rules],
    }


def _objective(queries: Sequence[PerSphereQuery], rankings: Sequence[Ranking]) -> float:
    golds = [q.gold for q in queries]
    return mean_recall_at_k(rankings, golds, 10) + mean_recall_at_k(rankings, golds, 20)


def cross_validate(
    queries: Sequence[PerSphereQuery],
    run: Callable[[Any, Sequence[int]], list[Ranking]],
    grid: Sequence[Any],
    folds: int = 2,
) -> tuple[list[Ranking], list[Any]]:
    """Held-out rankings: for each fold, the grid point best on the other folds.

    ``run(params, query_indices)`` returns the rankings of those queries.
    Returns (rankings in query order, the chosen grid point per fold).
    """
    fold = [fold_of(q.qid, folds) for q in queries]
    cache: dict[int, list[Ranking]] = {}
    everything = list(range(len(queries)))
    for g, params in enumerate(grid):
        cache[g] = run(params, everything)
    out: list[Ranking] = [[] for _ in queries]
    chosen = []
    for f in range(folds):
        train = [i for i in everything if fold[i] != f]
        test = [i for i in everything if fold[i] == f]
        best = max(
            range(len(grid)),
            key=lambda g: _objective([queries[i] for i in train], [cache[g][i] for i in train]),
        )
        chosen.append(grid[best])
        for i in test:
            out[i] = cache[best][i]
    return out, chosen


def default_grid(base: Any) -> list[Any]:
    """The ``sphere`` parameter grid searched by ``--cv`` (small on purpose): λ × γ × β × μ × δ."""
    grid = []
    for lam, gamma, beta, mu, delta in itertools.product(
        (0.1, 0.15, 0.2), (0.0, 0.2), (0.0, 1.0, 2.0), (0.0, 0.3), (0.0, 0.5)
    ):
        grid.append(
            replace(
                base,
                lexical_weight=lam,
                side_weight=gamma,
                prf_weight=beta,
                rm3_weight=mu,
                knn_weight=delta,
            )
        )
    return grid


def run_persphere(
    data: Path,
    corpus: Path,
    *,
    ks: Sequence[int] = (10, 20),
    settings: Any = None,
    embedder: Any = None,
    cv: bool = False,
    methods: Iterable[str] = ("bm25", "dense", "hybrid", "sphere"),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the benchmark; return the report object (see module docstring)."""
    from assistant.config import Settings
    from assistant.embed import embedder_from_settings
    from assistant.eval.cache import embed_cached
    from assistant.index.search import search
    from assistant.pipeline import load_stance
    from assistant.retrieval.retriever import Retriever, query_texts

    settings = settings or Settings()  # type: ignore[call-arg]
    say = progress or (lambda _m: None)
    queries = load_queries(Path(data))
    if embedder is None:
        embedder = embedder_from_settings(settings)
    say("opening the corpus index (built once, then cached)")
    index = corpus_index_for(settings, corpus, embedder)
    depth = max(ks)
    methods = list(methods)
    runs: dict[str, list[Ranking]] = {}
    try:
        rs = settings.retrieval
        for m in ("bm25", "dense", "hybrid"):
            if m not in methods:
                continue
            say(f"running {m}")
            runs[m] = [
                [
                    h.doc_id
                    for h in search(
                        index,
                        embedder if m != "bm25" else None,
                        q.title,
                        k=depth,
                        mode=m,
                        candidates=max(rs.candidates, depth * 5),
                        k_r=rs.k_r,
                        rrf_k=rs.rrf_k,
                    )
                ]
                for q in queries
            ]
        cv_info: dict[str, Any] = {}
        if "sphere" in methods:
            retriever = Retriever(index, embedder, rs.model_copy(update={"mode": "sphere"}))
            all_plans = plans_for(queries)
            texts = sorted({t for ps in all_plans.values() for p in ps for t in query_texts(p)})
            vecs = embed_cached(embedder, texts, settings.cache_dir)
            row = {t: i for i, t in enumerate(texts)}

            stance = load_stance(settings)

            def run(
                plans: list[QueryPlan], params: Any, which: Sequence[int], how: str = "score"
            ) -> list[Ranking]:
                params = replace(
                    params,
                    stance_docs=settings.stance.documents,
                    stance_min_confidence=settings.stance.min_confidence,
                )
                r = Retriever(index, embedder, retriever.settings, params=params, stance=stance)
                out: list[Ranking] = [[] for _ in plans]
                for i in which:
                    qv = vecs[[row[t] for t in query_texts(plans[i])]]
                    out[i] = merge_sides(r.retrieve_encoded(plans[i], qv, k=depth), depth, how)
                return out

            for name, plans in all_plans.items():
                say(f"running {name}")
                runs[name] = run(plans, retriever.params, range(len(queries)))
            for name in ("sphere", "sphere_gold_claims"):
                runs[f"{name}_interleave"] = run(
                    all_plans[name], retriever.params, range(len(queries)), "interleave"
                )
            if cv:
                grid = default_grid(retriever.params)
                for name in ("sphere", "sphere_gold_claims"):
                    say(f"cross-validating {name} over {len(grid)} settings")
                    plans = all_plans[name]

                    def run_plans(
                        params: Any, which: Sequence[int], plans: list[QueryPlan] = plans
                    ) -> list[Ranking]:
                        return run(plans, params, which)

                    held, chosen = cross_validate(queries, run_plans, grid)
                    runs[f"{name}_cv"] = held
                    cv_info[name] = [
                        {k: v for k, v in asdict(c).items() if k in _TUNED} for c in chosen
                    ]
    finally:
        index.close()
    out = report(queries, runs, ks)
    if cv_info:
        out["cv"] = {"folds": 2, "chosen": cv_info}
    return out


_TUNED = (
    "lexical_weight",
    "side_weight",
    "prf_weight",
    "prf_docs",
    "rm3_weight",
    "aspect_weight",
    "knn_weight",
    "mmr",
)
