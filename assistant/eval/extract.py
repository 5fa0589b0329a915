"""``sphere eval extract`` and ``sphere eval aspects``: the understand stage, measured.

* extract — perspective extraction on PIR (paper 000 §3.4, Table 6 and A.8):
  QA-F1 of the extracted perspective against the file's annotated one, per
  task and averaged, for methods ``rules`` (no model), ``llm`` (the A.8 prompt
  under a span grammar) and ``sphere`` (the combination :func:`understand`
  uses); plus the Table 6 check that retrieval is as good with extracted
  perspectives as with annotated ones: Recall@5 of plain cosine retrieval
  with the query text "perspective: root query", once with the annotated and
  once with the extracted perspective (same root, same corpus).
* aspects — aspect extraction on Recipe-MPR (paper 003 §3.1, §4.3.1):
  intersection-over-union of the extracted aspects with the gold aspect keys
  of ``correctness_explanation``, with and without the model.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import DataError, SphereError
from assistant.eval.data import read_json
from assistant.eval.metrics import qa_f1

_TOKEN = re.compile(r"[\w']+")


def word_set(texts: Sequence[str]) -> set[str]:
    """Lower-cased word tokens of ``texts`` (the unit of aspect IoU)."""
    out: set[str] = set()
    for t in texts:
        out.update(w.lower() for w in _TOKEN.findall(t))
    return out


def aspect_iou(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Token IoU |T_pred ∩ T_gold| / |T_pred ∪ T_gold| over the words the aspects cover.

    Paper 003 §3.1 defines aspects as sub-spans so that extraction can be
    scored by overlap (IoU); with spans of one query, word sets stand in for
    character positions. Both empty → 1.
    """
    p, g = word_set(predicted), word_set(gold)
    if not p and not g:
        return 1.0
    return len(p & g) / len(p | g)


def matched_aspect_iou(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """Mean over gold aspects of the best token IoU with one predicted aspect (segmentation)."""
    if not gold:
        return 1.0 if not predicted else 0.0
    scores = []
    for g in gold:
        gs = word_set([g])
        best = 0.0
        for p in predicted:
            ps = word_set([p])
            if ps | gs:
                best = max(best, len(ps & gs) / len(ps | gs))
        scores.append(best)
    return float(np.mean(scores))


# --------------------------------------------------------------------------- PIR extract


def _rules_perspective(query: str) -> str:
    from assistant.understand import parse_rules

    plan = parse_rules(query)
    return plan.perspectives[0].text if plan.perspectives else query


def _extractors(backend: Any) -> dict[str, Callable[[str], str]]:
    from assistant.understand import llm_perspective, understand

    def rules(q: str) -> str:
        return _rules_perspective(q)

    def llm(q: str) -> str:
        try:
            p = llm_perspective(q, backend)
        except SphereError:
            return q
        return p.text if p else q

    def sphere(q: str) -> str:
        plan = understand(q, backend=backend, use_llm="auto")
        return plan.perspectives[0].text if plan.perspectives else q

    out: dict[str, Callable[[str], str]] = {"rules": rules}
    if backend is not None:
        out["llm"] = llm
        out["sphere"] = sphere
    return out


def recall_at_k(scores: np.ndarray, gold: Sequence[Sequence[int]], k: int) -> float:
    """Share of queries with any gold corpus entry in the top k (the PIR repo's Recall@k)."""
    top = np.argsort(-scores, axis=1)[:, :k]
    hits = [bool(set(top[i].tolist()) & set(gold[i])) for i in range(len(gold))]
    return float(np.mean(hits)) if hits else 0.0


def run_extract(
    data: str | Path,
    *,
    backend: Any = None,
    embedder: Any = None,
    limit: int | None = None,
    methods: Sequence[str] | None = None,
    k: int = 5,
    llm_limit: int | None = None,
) -> dict[str, Any]:
    from assistant.eval.pir import load_pir

    tasks = load_pir(data)
    extractors = _extractors(backend)
    chosen = [m for m in (methods or list(extractors)) if m in extractors]
    if not chosen:
        raise DataError(f"no usable method among {list(methods or [])} (rules, llm, sphere)")
    report: dict[str, Any] = {"benchmark": "pir_extract", "methods": {}, "tasks": {}}
    retrieval: dict[str, Any] = {}
    preds_by_task: dict[str, dict[str, list[str]]] = {}
    t0 = time.perf_counter()
    for task in tasks:
        n = len(task.queries) if limit is None else min(limit, len(task.queries))
        report["tasks"][task.name] = {}
        preds_by_task[task.name] = {}
        for m in chosen:
            # the free model is slow under a span grammar: it may run on fewer queries
            nm = min(n, llm_limit) if (m == "llm" and llm_limit) else n
            preds = [extractors[m](q) for q in task.queries[:nm]]
            preds_by_task[task.name][m] = preds + task.queries[nm:n]
            f1 = [qa_f1(p, [g]) for p, g in zip(preds, task.perspectives[:nm], strict=True)]
            report["tasks"][task.name][m] = {"qa_f1": round(100 * float(np.mean(f1)), 2), "n": nm}
        if embedder is not None:
            corpus = embedder.encode(task.corpus)
            roots = task.roots[:n]
            gold = task.gold[:n]

            def r_at(
                persp: Sequence[str],
                roots: Sequence[str] = roots,
                corpus: np.ndarray = corpus,
                gold: Sequence[Sequence[int]] = gold,
            ) -> float:
                texts = [f"{p}: {r.strip()}" for p, r in zip(persp, roots, strict=True)]
                return 100 * recall_at_k(embedder.encode(texts) @ corpus.T, gold, k)

            row = {
                "query": round(
                    100 * recall_at_k(embedder.encode(task.queries[:n]) @ corpus.T, gold, k), 2
                ),
                "annotated": round(r_at(task.perspectives[:n]), 2),
            }
            for m in chosen:
                if m != "llm" or not llm_limit:
                    row[f"extracted_{m}"] = round(r_at(preds_by_task[task.name][m]), 2)
            retrieval[task.name] = row
    for m in chosen:
        vals = [report["tasks"][t][m]["qa_f1"] for t in report["tasks"]]
        report["methods"][m] = {"qa_f1": round(float(np.mean(vals)), 2)}
    if retrieval:
        keys = list(next(iter(retrieval.values())))
        retrieval["average"] = {
            key: round(float(np.mean([retrieval[t][key] for t in retrieval])), 2) for key in keys
        }
        report["retrieval"] = {"metric": f"recall@{k}", "retriever": "cosine", **retrieval}
    report["seconds"] = round(time.perf_counter() - t0, 1)
    if backend is not None:
        report["model"] = {k_: v for k_, v in backend.info().items() if k_ != "sha256"}
    return report


# --------------------------------------------------------------------------- Recipe-MPR aspects


def load_recipe_queries(path: str | Path) -> list[tuple[str, list[str]]]:
    path = Path(path).expanduser()
    raw = read_json(
        path, what="Recipe-MPR", hint="pass --data ../shared/data/recipe-mpr/500QA.dev.json"
    )
    if not isinstance(raw, list):
        raise DataError(f"{path}: expected a JSON list of Recipe-MPR records")
    out = []
    for i, r in enumerate(raw):
        if not isinstance(r, dict) or "query" not in r or "correctness_explanation" not in r:
            raise DataError(f"{path}: record {i} lacks 'query' or 'correctness_explanation'")
        gold = [str(k) for k in r["correctness_explanation"] if str(k) != "<INFERRED>"]
        out.append((str(r["query"]), gold))
    return out


def run_aspects(
    data: str | Path, *, backend: Any = None, limit: int | None = None
) -> dict[str, Any]:
    from assistant.understand import llm_aspects, parse_rules, understand

    queries = load_recipe_queries(data)[:limit]
    methods: dict[str, Callable[[str], list[str]]] = {
        "rules": lambda q: [a.text for a in parse_rules(q).aspects]
    }
    if backend is not None:

        def llm(q: str) -> list[str]:
            try:
                return [a.text for a in llm_aspects(q, backend)]
            except SphereError:
                return []

        methods["llm"] = llm
        methods["sphere"] = lambda q: [
            a.text for a in understand(q, backend=backend, use_llm="always").aspects
        ]
    report: dict[str, Any] = {"benchmark": "recipe_mpr_aspects", "methods": {}, "tasks": {}}
    t0 = time.perf_counter()
    per_type: dict[str, dict[str, list[float]]] = {}
    for name, fn in methods.items():
        ious, matched, counts = [], [], []
        for q, gold in queries:
            pred = fn(q)
            ious.append(aspect_iou(pred, gold))
            matched.append(matched_aspect_iou(pred, gold))
            counts.append(len(pred))
        report["methods"][name] = {
            "iou": round(100 * float(np.mean(ious)), 2),
            "matched_iou": round(100 * float(np.mean(matched)), 2),
            "aspects_per_query": round(float(np.mean(counts)), 2),
        }
        per_type.setdefault("all", {})[name] = ious
    report["tasks"] = {"recipe_mpr": {m: v for m, v in report["methods"].items()}}
    report["n"] = len(queries)
    report["gold_aspects_per_query"] = round(float(np.mean([len(g) for _, g in queries])), 2)
    report["seconds"] = round(time.perf_counter() - t0, 1)
    return report
