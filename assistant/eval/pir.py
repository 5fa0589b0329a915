"""``sphere eval pir``: p-Recall@k on the PIR demo set (paper 000).

Data: ``demo_pir_dataset.json`` from the PIR repo (``../shared/data/pir/``,
data README §3): one JSON object whose keys are the six tasks; per task
``corpus`` (texts), and per query ``queries[i]``, ``source_queries[i]``,
``perspectives[i]``, ``query_labels[i]``, and ``key_ref[str(i)]`` (gold corpus
indices).

How the file maps onto paper 000's eq. (1) and Table 4:

* **query** q = ``queries[i]`` (root query + perspective, as the user wrote it).
* **root query** r = ``source_queries[i]``. Queries with the same
  ``source_queries`` string are one root asked from different perspectives —
  exactly how the authors' notebook groups them (``root_mapping``).
* **perspective** p = ``perspectives[i]`` (its text, e.g. "a claim that opposes
  the argument"). In ``ambigqa`` the perspective text *is* the whole query
  (p = q), which is where literal PAP collapses (q_p = 0).
* **success** = any index in ``key_ref[str(i)]`` in the top k ("find one is
  ok", as the notebook).
* **p-Recall@k** = mean over roots of the mean success of their queries
  (:func:`assistant.eval.metrics.p_recall_at_k`). ``query_labels`` (support /
  undermine / …) are perspective *categories*; the repo also prints plain
  Recall@k per label, which is not eq. (1) and is not reported here.

Methods (all score every corpus entry with one embedder; cosine on unit vectors):
``cosine`` cos(q, c); ``pap`` cos(q_p, c) and ``pap_plus`` cos(q_p, c_p) with
α = 1 applied literally (no guard: the paper's method); the Table 4 baselines
``add`` … ``tri_sum`` (:mod:`assistant.retrieval.pap`); ``sphere_single`` the
guarded policy of one (query, perspective) alone,
:func:`assistant.retrieval.pap.sphere_pap_scores`; ``sphere`` the policy for the
whole question: a query's single policy plus
:data:`~assistant.retrieval.pap.MARGIN_WEIGHT` × its margin
(:func:`assistant.retrieval.pap.plan_margins`) over the other queries that share its root query
— the question's other perspectives, as a plan gives the retriever both sides —
so a document counts for the perspective it fits better than the others (each
query sees the other queries' *texts*, never their gold); ``sphere_lexical``
that ``sphere`` policy (divided by 3, the scale of one cosine) mixed with the
query's BM25 over the task corpus, normalised by its top score, at the
retriever's own λ (``SphereParams.lexical_weight``, chosen on PerSphere, not on
PIR) — the dense + lexical mix the ``sphere`` retriever runs.

Output (``--json``), values in percent::

    {"benchmark": "pir", "methods": {M: {"p_recall@5": v}},
     "tasks": {TASK: {M: {"p_recall@5": v}}}}

``methods`` holds the macro average over the tasks (as Table 4's "Avg.").
With ``--loto`` there is also ``sphere_loto`` (``sphere`` with its margin
weight chosen on the other five tasks from :data:`MARGIN_GRID`, the held-out
figure) and ``"loto": {"grid": [...], "chosen": {TASK: weight}}``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import DataError
from assistant.eval.data import read_json
from assistant.eval.metrics import p_recall_at_k
from assistant.retrieval import pap as P
from assistant.retrieval.retriever import SphereParams

TASK_FIELDS = ("corpus", "queries", "source_queries", "perspectives", "query_labels", "key_ref")

# name -> scorer(q, r, p, C, lex, margin) -> (n,) scores; ``lex`` is the query's BM25 over
# the corpus scaled to max 1 (only the lexical methods read it), ``margin`` the query's row
# of :func:`~assistant.retrieval.pap.plan_margins` over the queries that share its root
# query (only the plan methods read it)
Scorer = Callable[
    [np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray
]

LEXICAL_WEIGHT = SphereParams().lexical_weight


def _sphere_at(weight: float) -> Scorer:
    """The plan policy at margin weight ``weight``: the policy of q alone + weight × margin."""

    def score(
        q: np.ndarray,
        r: np.ndarray,
        p: np.ndarray,
        C: np.ndarray,
        lex: np.ndarray,
        margin: np.ndarray,
    ) -> np.ndarray:
        return P.sphere_pap_scores(q, p, C, root=r) + weight * margin

    return score


_sphere = _sphere_at(P.MARGIN_WEIGHT)

#: margin weights searched by ``--loto`` (the shipped weight is 1)
MARGIN_GRID: tuple[float, ...] = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def _sphere_lexical(
    q: np.ndarray, r: np.ndarray, p: np.ndarray, C: np.ndarray, lex: np.ndarray, margin: np.ndarray
) -> np.ndarray:
    dense = _sphere(q, r, p, C, lex, margin) / 3.0  # topic + PAP+ + margin: three cosines
    return (1.0 - LEXICAL_WEIGHT) * dense + LEXICAL_WEIGHT * lex


METHODS: dict[str, Scorer] = {
    "cosine": lambda q, r, p, C, lex, m: P.cosine_scores(q, C),
    "pap": lambda q, r, p, C, lex, m: P.pap_scores(q, p, C, 1.0, on_degenerate="ignore"),
    "pap_plus": lambda q, r, p, C, lex, m: P.pap_plus_scores(q, p, C, 1.0, on_degenerate="ignore"),
    "add": lambda q, r, p, C, lex, m: P.add_scores(r, p, C),
    "concat": lambda q, r, p, C, lex, m: P.concat_scores(r, p, C),
    "cast": lambda q, r, p, C, lex, m: P.cast_scores(q, p, C),
    "cast_plus": lambda q, r, p, C, lex, m: P.cast_plus_scores(q, p, C),
    "dual_sum": lambda q, r, p, C, lex, m: P.dual_sum_scores(r, p, C),
    "tri_sum": lambda q, r, p, C, lex, m: P.tri_sum_scores(q, r, p, C),
    "sphere_single": lambda q, r, p, C, lex, m: P.sphere_pap_scores(q, p, C, root=r),
    "sphere": _sphere,
    "sphere_lexical": _sphere_lexical,
}
LEXICAL_METHODS = frozenset({"sphere_lexical"})


@dataclass(frozen=True)
class PIRTask:
    """One PIR task, validated."""

    name: str
    corpus: list[str]
    queries: list[str]
    roots: list[str]
    perspectives: list[str]
    labels: list[str]
    gold: list[list[int]]


def load_pir(path: str | Path) -> list[PIRTask]:
    """Read and validate ``demo_pir_dataset.json``; :class:`DataError` says what is wrong."""
    path = Path(path).expanduser()
    raw = read_json(
        path, what="PIR data", hint="pass --data ../shared/data/pir/demo_pir_dataset.json"
    )
    if not isinstance(raw, dict) or not raw:
        raise DataError(f"{path}: expected a JSON object with one entry per PIR task")
    tasks = []
    for name, t in raw.items():
        if not isinstance(t, dict):
            raise DataError(f"{path}: task {name!r} is not an object")
        missing = [f for f in TASK_FIELDS if f not in t]
        if missing:
            raise DataError(f"{path}: task {name!r} lacks field(s) {', '.join(missing)}")
        n = len(t["queries"])
        for f in ("source_queries", "perspectives", "query_labels"):
            if not isinstance(t[f], list) or len(t[f]) != n:
                raise DataError(f"{path}: task {name!r}: '{f}' must be a list of {n} entries")
        corpus = t["corpus"]
        if not isinstance(corpus, list) or not corpus:
            raise DataError(f"{path}: task {name!r}: 'corpus' must be a non-empty list")
        gold: list[list[int]] = []
        for i in range(n):
            ref = t["key_ref"].get(str(i)) if isinstance(t["key_ref"], dict) else None
            if ref is None:
                raise DataError(f"{path}: task {name!r}: key_ref has no entry for query {i}")
            ref = ref if isinstance(ref, list) else [ref]
            if not all(isinstance(j, int) and 0 <= j < len(corpus) for j in ref):
                raise DataError(
                    f"{path}: task {name!r}: key_ref[{i}] must index the corpus "
                    f"(0..{len(corpus) - 1})"
                )
            gold.append(ref)
        tasks.append(
            PIRTask(
                name,
                [str(x) for x in corpus],
                [str(x) for x in t["queries"]],
                [str(x) for x in t["source_queries"]],
                [str(x) for x in t["perspectives"]],
                [str(x) for x in t["query_labels"]],
                gold,
            )
        )
    return tasks


def evaluate_task(
    task: PIRTask,
    vectors: dict[str, np.ndarray],
    methods: dict[str, Scorer],
    k: int = 5,
) -> dict[str, float]:
    """p-Recall@k (fraction) per method for one task, given its embeddings.

    ``vectors`` holds unit vectors under ``corpus``, ``queries``, ``roots``,
    ``perspectives`` (row i = query i).
    """
    C = vectors["corpus"]
    Q = vectors["queries"]
    lexical = _lexical_scores(task) if LEXICAL_METHODS & set(methods) else None
    margins = plan_margins_of(task, vectors)
    out = {}
    for name, scorer in methods.items():
        rankings = []
        for i in range(len(task.queries)):
            lex = lexical[i] if lexical is not None else np.zeros(len(C), np.float32)
            q, r, p = Q[i], vectors["roots"][i], vectors["perspectives"][i]
            s = scorer(q, r, p, C, lex, margins[i])
            s = np.nan_to_num(np.asarray(s, dtype=np.float64), nan=-np.inf)
            rankings.append(np.argsort(-s, kind="stable")[:k].tolist())
        out[name] = p_recall_at_k(rankings, task.gold, task.roots, k)
    return out


def plan_margins_of(task: PIRTask, vectors: dict[str, np.ndarray]) -> np.ndarray:
    """(queries, corpus): each query's margin over the queries that share its root query.

    :func:`~assistant.retrieval.pap.plan_margins` once per root; a root asked
    from one perspective only gets 0.
    """
    Q, C = vectors["queries"], vectors["corpus"]
    out = np.zeros((len(Q), len(C)), np.float32)
    siblings: dict[str, list[int]] = {}
    for i, root in enumerate(task.roots):
        siblings.setdefault(root, []).append(i)
    for rows in siblings.values():
        if len(rows) > 1:
            out[rows] = P.plan_margins(Q[rows], vectors["roots"][rows[0]], C)
    return out


def _lexical_scores(task: PIRTask) -> np.ndarray:
    """(queries, corpus) BM25 of each query text over the task corpus, each row scaled to max 1.

    The index's own BM25 (bm25s, same tokenizer); a row with no shared term is 0.
    """
    from assistant.index.lexical import BM25Index

    bm = BM25Index.build(task.corpus, np.arange(len(task.corpus)))
    out = np.zeros((len(task.queries), len(task.corpus)), np.float32)
    for i, text in enumerate(task.queries):
        s = bm.score_all(text)
        top = float(s.max()) if len(s) else 0.0
        if top > 0:
            out[i] = s / top
    return out


def embed_task(task: PIRTask, embedder: Any, cache_dir: Path) -> dict[str, np.ndarray]:
    from assistant.eval.cache import embed_cached

    return {
        "corpus": embed_cached(embedder, task.corpus, cache_dir),
        "queries": embed_cached(embedder, task.queries, cache_dir),
        "roots": embed_cached(embedder, task.roots, cache_dir),
        "perspectives": embed_cached(embedder, task.perspectives, cache_dir),
    }


def leave_one_task_out(
    grid_scores: dict[str, list[float]],
) -> tuple[dict[str, float], dict[str, int]]:
    """Held-out scores: for each task, the grid point best on the *other* tasks.

    ``grid_scores[task][g]`` is the score of grid point g on that task. The
    best point maximises the mean over the other tasks; ties go to the earlier
    point. Returns (held-out score per task, chosen grid index per task).
    """
    held: dict[str, float] = {}
    chosen: dict[str, int] = {}
    names = list(grid_scores)
    n_points = len(next(iter(grid_scores.values()))) if grid_scores else 0
    for t in names:
        rest = [u for u in names if u != t]
        means = [
            float(np.mean([grid_scores[u][g] for u in rest])) if rest else 0.0
            for g in range(n_points)
        ]
        best = int(np.argmax(means))  # the first of equal means
        held[t], chosen[t] = grid_scores[t][best], best
    return held, chosen


def run_pir(
    tasks: list[PIRTask],
    embedder: Any,
    cache_dir: Path,
    k: int = 5,
    methods: list[str] | None = None,
    loto: bool = False,
) -> dict[str, Any]:
    """The full report: per task and macro-averaged p-Recall@k in percent.

    With ``loto``, also ``sphere_loto``: the ``sphere`` policy with its margin
    weight chosen on the other five tasks (:data:`MARGIN_GRID`), and
    ``report["loto"]`` with the weight chosen for each held-out task.
    """
    chosen = {m: METHODS[m] for m in (methods or list(METHODS))}
    grid = {f"_w{w}": _sphere_at(w) for w in MARGIN_GRID} if loto else {}
    key = f"p_recall@{k}"
    per_task: dict[str, dict[str, dict[str, float]]] = {}
    grid_scores: dict[str, list[float]] = {}
    for task in tasks:
        res = evaluate_task(task, embed_task(task, embedder, cache_dir), {**chosen, **grid}, k)
        per_task[task.name] = {m: {key: round(100 * res[m], 2)} for m in chosen}
        grid_scores[task.name] = [res[g] for g in grid]
    names = list(chosen)
    extra: dict[str, Any] = {}
    if loto:
        held, pick = leave_one_task_out(grid_scores)
        for t, v in held.items():
            per_task[t]["sphere_loto"] = {key: round(100 * v, 2)}
        names.append("sphere_loto")
        extra["loto"] = {
            "grid": list(MARGIN_GRID),
            "chosen": {t: MARGIN_GRID[g] for t, g in pick.items()},
        }
    avg = {
        m: {key: round(float(np.mean([per_task[t][m][key] for t in per_task])), 2)} for m in names
    }
    return {"benchmark": "pir", "methods": avg, "tasks": per_task, **extra}


def format_table(report: dict[str, Any]) -> str:
    tasks = list(report["tasks"])
    methods = list(report["methods"])
    key = next(iter(report["methods"][methods[0]]))
    w = max(len(m) for m in [*methods, "method"]) + 1
    head = f"{'method':<{w}}" + "".join(f"{t[:11]:>12}" for t in tasks) + f"{'avg':>9}"
    lines = [f"PIR {key} (percent)", head, "-" * len(head)]
    for m in methods:
        row = "".join(f"{report['tasks'][t][m][key]:>12.1f}" for t in tasks)
        lines.append(f"{m:<{w}}{row}{report['methods'][m][key]:>9.1f}")
    return "\n".join(lines)
