"""``sphere eval lookup``: lookups through the product's own path on Recipe-MPR (paper 003).

``sphere eval mpr`` measures aspect fusion on review corpora it generates
from the gold aspects. This harness measures what a user gets instead: the
Recipe-MPR options are indexed as a real Sphere index (the index builder, the
bundled embedder, FAISS and BM25; one document per option id, its text the
option text; built once under ``cache_dir / "recipe-mpr"``), and every query
is asked as typed through the pipeline's own steps —
:meth:`Pipeline.understand` (the question parser) → the plan →
:meth:`Pipeline.retrieve` (the ``sphere`` retriever) — and the top 10
documents are scored against the query's ``answer`` with MAP@10 and
Recall@10 (paper 003 Tables 2–4). The queries are the ones ``sphere eval mpr``
scores (gold item with at least two aspects, paper 003 §5.1); every option of
the file is a candidate for every query, as there.

Methods (all on the parser's plan; nothing is chosen on the labels):

* ``as_parsed`` — the plan exactly as the parser made it, retrieved as the
  product retrieves it: a lookup (with ≥ 2 aspects: ranked by aspect fusion)
  gives one list; any other intent gives two side lists, merged by score
  (:func:`assistant.eval.persphere.merge_sides`). This figure improves by
  itself as the parser learns to read these queries as lookups.
* ``fusion_on`` — the plan read as a lookup (:func:`as_lookup_plan`) with the
  parser's aspects: ranked by aspect fusion (``retrieval.aspect_aggregator``,
  η = 1) when the parser found ≥ 2 aspects, else by the whole question.
* ``fusion_off`` — the same lookup plans with aspect fusion off
  (``lookup_aspect_weight`` = 0): ranked by the whole question.
* ``fusion_on_gold_aspects`` — an upper bound, not a product figure: the
  lookup plans with the gold aspects (the keys of ``correctness_explanation``).
* ``fusion_on:<aggregator>`` (``--all-aggregators``) — ``fusion_on`` with each
  of the other aggregators of paper 003 §4.3.3, reported as ``sphere eval mpr``
  reports them; the product uses the configured one.

``parser`` counts how many queries the parser read as lookups (and with ≥ 2
aspects), its intents, and how many plans have ≥ 2 aspects. ``reference`` runs
``sphere eval mpr``'s default (disjoint generated reviews, K_R = 1) with gold
and with extracted aspects, for the same embedder; ``--no-reference`` skips it.

The stance model is not run: it only moves documents between the two side
lists of a two-sided plan, and with the shipped γ = 0 and w_m = 0
(:class:`~assistant.retrieval.retriever.SphereParams`) a document's score is
the same on either side, so the lists merged by score are the same top 10
(it cost 0.6 s a query). The language model is not loaded either, so
``llm.use: always`` is read as the rules.

Output (``--json``), fractions like ``sphere eval mpr``::

    {"benchmark": "lookup", "methods": {M: {"map@10": v, "recall@10": v}},
     "tasks": {QUERY_TYPE: {M: {…}}}, "parser": {…}, "reference": {…}, "config": {…}}
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.config import Settings
from assistant.errors import InputError
from assistant.eval.metrics import average_precision_at_k, recall_at_k
from assistant.eval.mpr import K_I, MPRData, MPRQuery, MPRRun, eval_queries
from assistant.eval.persphere import merge_sides
from assistant.eval.persphere_data import open_corpus_index
from assistant.index.store import Index
from assistant.ingest.loaders import FieldMapping
from assistant.models import Aspect, QueryPlan
from assistant.pipeline import Pipeline, as_lookup_plan
from assistant.retrieval.fusion import AGGREGATORS
from assistant.retrieval.retriever import Retriever

METHODS: tuple[str, ...] = ("as_parsed", "fusion_on", "fusion_off", "fusion_on_gold_aspects")
KIND = "recipe-mpr"
Say = Callable[[str], None]


def items_corpus(data: MPRData, cache_dir: Path) -> Path:
    """The options as ``{"id", "content"}`` records, written once under the cache folder.

    The file is named by a hash of its content, so it is derived data, never edited.
    """
    lines = "".join(
        json.dumps({"id": i, "content": t}, ensure_ascii=False) + "\n"
        for i, t in zip(data.item_ids, data.item_texts, strict=True)
    ).encode("utf-8")
    folder = Path(cache_dir).expanduser() / KIND
    path = folder / f"items-{hashlib.sha256(lines).hexdigest()[:16]}.jsonl"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".jsonl.tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(lines)
        os.replace(tmp, path)
    return path


def items_index(data: MPRData, settings: Settings, embedder: Any) -> Index:
    """The options as a Sphere index: built on first use, then reopened from the cache."""
    return open_corpus_index(
        items_corpus(data, settings.cache_dir),
        embedder,
        settings.cache_dir,
        max_words=settings.chunking.max_words,
        overlap_words=settings.chunking.overlap_words,
        kind=KIND,
        mapping=FieldMapping(id_field="id", text_field="content"),
    )


def with_gold_aspects(plan: QueryPlan, query: MPRQuery) -> QueryPlan:
    return replace(plan, aspects=[Aspect(a) for a in query.gold_aspects])


def score(rankings: Sequence[Sequence[str]], gold: Sequence[str]) -> dict[str, float]:
    """MAP@10 and Recall@10 (fractions), one relevant item per query."""
    n = max(len(gold), 1)
    ap = sum(average_precision_at_k(r, [g], K_I) for r, g in zip(rankings, gold, strict=True))
    rc = sum(recall_at_k(r, [g], K_I) for r, g in zip(rankings, gold, strict=True))
    return {f"map@{K_I}": round(ap / n, 4), f"recall@{K_I}": round(rc / n, 4)}


def parser_counts(plans: Sequence[QueryPlan]) -> dict[str, Any]:
    intents: dict[str, int] = {}
    for p in plans:
        intents[p.intent] = intents.get(p.intent, 0) + 1
    two = [p for p in plans if len({a.text.strip() for a in p.aspects if a.text.strip()}) >= 2]
    return {
        "queries": len(plans),
        "lookup": intents.get("lookup", 0),
        "lookup_2plus_aspects": sum(1 for p in two if p.intent == "lookup"),
        "2plus_aspects": len(two),
        "intents": dict(sorted(intents.items())),
    }


def run_lookup_eval(
    data: MPRData,
    settings: Settings,
    *,
    limit: int | None = None,
    reference: bool = True,
    all_aggregators: bool = False,
    progress: Say | None = None,
) -> dict[str, Any]:
    """Every method of the module docstring on the first ``limit`` scored queries."""
    from assistant.embed import embedder_from_settings

    say = progress or (lambda _m: None)
    settings = settings.resolved()
    # a list of K_I documents, whatever retrieval.k the settings ask for
    settings = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"k": K_I})}
    )
    queries = eval_queries(data)[:limit] if limit is not None else eval_queries(data)
    if not queries:
        raise InputError("no Recipe-MPR query to score", hint="check --data and --limit")
    embedder = embedder_from_settings(settings)
    say("opening the index of the options (built on the first run)")
    index = items_index(data, settings, embedder)
    try:
        stance = None  # see the module docstring
        on = Pipeline(settings, index, embedder, stance=stance)
        params = replace(on.retriever.params, lookup_aspect_weight=0.0)
        off = Pipeline(
            settings,
            index,
            embedder,
            stance=stance,
            retriever=Retriever(index, embedder, settings.retrieval, params=params, stance=stance),
        )
        plans = [on.understand(q.text) for q in queries]
        lookups = [as_lookup_plan(p) for p in plans]
        jobs: dict[str, tuple[Pipeline, list[QueryPlan]]] = {
            "as_parsed": (on, plans),
            "fusion_on": (on, lookups),
            "fusion_off": (off, lookups),
            "fusion_on_gold_aspects": (
                on,
                [with_gold_aspects(p, q) for p, q in zip(lookups, queries, strict=True)],
            ),
        }
        if all_aggregators:
            for agg in AGGREGATORS:
                if agg == settings.retrieval.aspect_aggregator:
                    continue
                rs = settings.retrieval.model_copy(update={"aspect_aggregator": agg})
                other = settings.model_copy(update={"retrieval": rs})
                jobs[f"fusion_on:{agg}"] = (
                    Pipeline(other, index, embedder, stance=stance),
                    lookups,
                )
        runs: dict[str, list[list[str]]] = {}
        for name, (pipeline, ps) in jobs.items():
            say(f"running {name} on {len(ps)} queries")
            runs[name] = [merge_sides(pipeline.retrieve(p, lambda _p: None), K_I) for p in ps]
    finally:
        index.close()
    gold = [q.answer for q in queries]
    tasks: dict[str, dict[str, dict[str, float]]] = {}
    for qtype in sorted({t for q in queries for t in q.types}):
        which = [i for i, q in enumerate(queries) if qtype in q.types]
        tasks[qtype] = {
            m: score([runs[m][i] for i in which], [gold[i] for i in which]) for m in runs
        }
    out: dict[str, Any] = {
        "benchmark": "lookup",
        "methods": {m: score(runs[m], gold) for m in runs},
        "tasks": tasks,
        "parser": parser_counts(plans),
        "config": {
            "queries": len(queries),
            "items": len(data.item_ids),
            "k_i": K_I,
            "aggregator": settings.retrieval.aspect_aggregator,
            "k_r": settings.retrieval.k_r,
            "embedder": getattr(embedder, "name", ""),
            "stance": "off",
        },
    }
    if reference:
        out["reference"] = mpr_reference(data, settings, embedder, say)
    return out


def mpr_reference(data: MPRData, settings: Settings, embedder: Any, say: Say) -> dict[str, Any]:
    """``sphere eval mpr``'s default run (disjoint reviews, K_R = 1), gold and extracted aspects."""
    from assistant.eval.cache import embed_cached

    agg = settings.retrieval.aspect_aggregator
    out: dict[str, Any] = {"distribution": "disjoint", "k_r": 1}
    for mode in ("gold", "extracted"):
        say(f"running sphere eval mpr's harness ({mode} aspects)")
        run = MPRRun(
            data, "disjoint", mode, lambda t: embed_cached(embedder, t, settings.cache_dir)
        )
        res = run.evaluate(1)
        out[f"aspects={mode}"] = {
            m: {k: round(v, 4) for k, v in res[m].items()} for m in ("mono_lf", agg)
        }
        out["queries"] = len(run.queries)
    return out


def format_report(out: dict[str, Any]) -> str:
    lines = [
        f"Recipe-MPR through the product's path: {out['config']['queries']} queries, "
        f"{out['config']['items']} options indexed, MAP@{K_I} / Recall@{K_I}",
        "",
        f"{'method':26s}{'MAP@10':>9s}{'Re@10':>9s}",
    ]
    for m, v in out["methods"].items():
        lines.append(f"{m:26s}{v['map@10']:9.3f}{v['recall@10']:9.3f}")
    p = out["parser"]
    lines += [
        "",
        f"The parser read {p['lookup']} of {p['queries']} queries as lookups "
        f"({p['lookup_2plus_aspects']} with ≥ 2 aspects); {p['2plus_aspects']} plans have "
        f"≥ 2 aspects; intents {p['intents']}.",
    ]
    ref = out.get("reference")
    if ref:
        lines += [
            "",
            f"sphere eval mpr (generated disjoint reviews, K_R = 1, {ref['queries']} queries):",
        ]
        for mode in ("gold", "extracted"):
            for m, v in ref[f"aspects={mode}"].items():
                lines.append(
                    f"  {mode + ' aspects, ' + m:32s}{v['map@10']:9.3f}{v['recall@10']:9.3f}"
                )
    return "\n".join(lines)
