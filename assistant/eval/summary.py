"""``sphere eval summary``: two-sided summaries on PerSphere Theperspective (paper 004).

Question = ``title``; gold = claims ``t1``/``t2``, perspectives
``response1``/``response2``, one supporting document each
(``favor_ids``/``against_ids``). Every method runs the real pass: the plan from
:func:`assistant.understand.understand` (rules, no gold information), the
perspective-aware :class:`~assistant.retrieval.retriever.Retriever` over the
corpus index (built once and cached, :mod:`assistant.eval.persphere_data`),
then :meth:`assistant.pipeline.Pipeline.answer` (HierSphere + verification).
Retrieval runs once per question and is shared by the methods; its time is
added to each method's ``seconds_per_question``.

Methods: ``sphere`` (the default set-up: ``summary.path: auto``, HierSphere),
``vanilla_deterministic``, ``hiersphere_deterministic``, ``vanilla_model``,
``hiersphere_model`` (vanilla = one local summary over all documents, paper
004 §4.2; HierSphere = four local summaries + editorial merge, §5).
``--gold-claims`` adds ``sphere_gold_claims``: the same with ``t1``/``t2`` as
the claims (an upper bound for question understanding).

**Aligning claims.** Our claims come from the question, so which of ours is
``t1`` is decided by claim text alone: the pairing (ours₁→t1, ours₂→t2) or the
swap, whichever has the larger summed MiniLM cosine. No gold document or
perspective is used for it.

Metrics (percent, micro-averaged over all questions):

* ``perspective_recall@τ`` — gold perspectives matched by a generated
  perspective on the aligned side with MiniLM cosine ≥ τ (τ = 0.6, 0.7, 0.8);
* ``side_accuracy`` — of the (document, side) citations whose document is gold
  for the question, the share under the claim the document is gold for;
* ``citation_precision`` — cited (document, side) pairs that are gold pairs;
* ``citation_recall`` — gold (document, side) pairs cited under that side
  (for these three figures a citation of a hit also cites the copies folded
  into it: documents whose best passage is the cited one's, under other ids,
  ``DocumentHit.copies``);
* ``grounded_rate`` — references that pass an independent check done here, not
  the verifier's bookkeeping: the document was retrieved for the question, the
  quote is an exact substring of the document's text *as read from the corpus
  file*, and the perspective is supported by the quote (its normalised text
  occurs in the quote, or their MiniLM cosine, recomputed here, is ≥ 0.6);
* ``duplicate_pairs`` — pairs of perspectives on one side with cosine ≥ 0.9
  (a count over all questions);
* ``seconds_per_question`` — understanding + retrieval + summary + verification.

Output (``--json``)::

    {"benchmark": "persphere_summary", "methods": {M: {metric: v}},
     "tasks": {TOPIC: {M: {metric: v}}}, "n_questions": N, "examples": {…}}
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import InputError
from assistant.eval.persphere_data import PerSphereQuery, corpus_index_for, load_queries
from assistant.models import SIDES, QueryPlan, Side, Summary
from assistant.summarize.hiersphere import SummaryOptions
from assistant.summarize.verify import normalise

THRESHOLDS = (0.6, 0.7, 0.8)
GROUNDED_SIMILARITY = 0.6
DUPLICATE_SIMILARITY = 0.9
METRICS = (
    "perspective_recall@0.6",
    "perspective_recall@0.7",
    "perspective_recall@0.8",
    "side_accuracy",
    "citation_precision",
    "citation_recall",
    "grounded_rate",
    "duplicate_pairs",
    "seconds_per_question",
)


@dataclass
class Counts:
    """Sums over questions; :meth:`metrics` turns them into the reported figures."""

    gold_perspectives: int = 0
    matched: dict[float, int] = field(default_factory=lambda: dict.fromkeys(THRESHOLDS, 0))
    gold_cited: int = 0
    gold_cited_right: int = 0
    cited_pairs: int = 0
    cited_gold_pairs: int = 0
    gold_pairs: int = 0
    gold_pairs_cited: int = 0
    references: int = 0
    grounded: int = 0
    duplicate_pairs: int = 0
    seconds: float = 0.0
    questions: int = 0

    def add(self, other: Counts) -> None:
        for k, v in vars(other).items():
            if k == "matched":
                for t, n in v.items():
                    self.matched[t] += n
            else:
                setattr(self, k, getattr(self, k) + v)

    def metrics(self) -> dict[str, float]:
        def pct(a: float, b: float) -> float:
            return round(100.0 * a / b, 2) if b else 0.0

        out = {
            f"perspective_recall@{t}": pct(self.matched[t], self.gold_perspectives)
            for t in THRESHOLDS
        }
        out["side_accuracy"] = pct(self.gold_cited_right, self.gold_cited)
        out["citation_precision"] = pct(self.cited_gold_pairs, self.cited_pairs)
        out["citation_recall"] = pct(self.gold_pairs_cited, self.gold_pairs)
        out["grounded_rate"] = pct(self.grounded, self.references)
        out["duplicate_pairs"] = float(self.duplicate_pairs)
        out["seconds_per_question"] = (
            round(self.seconds / self.questions, 3) if self.questions else 0.0
        )
        return out


def align_claims(
    ours: tuple[str, str], gold: tuple[str, str], embed: Callable[[list[str]], np.ndarray]
) -> dict[Side, int]:
    """Which gold claim (0 = t1, 1 = t2) each of our sides stands for, by claim text only."""
    v = embed([ours[0], ours[1], gold[0], gold[1]])
    straight = float(v[0] @ v[2] + v[1] @ v[3])
    swapped = float(v[0] @ v[3] + v[1] @ v[2])
    return {"pro": 0, "con": 1} if straight >= swapped else {"pro": 1, "con": 0}


def score_summary(
    q: PerSphereQuery,
    summary: Summary,
    mapping: dict[Side, int],
    retrieved: set[str],
    corpus: dict[str, str],
    embed: Callable[[list[str]], np.ndarray],
    copies: dict[str, list[str]] | None = None,
) -> Counts:
    """The counts of one question (see the module docstring for each figure).

    ``copies`` maps a retrieved document to the documents folded into its hit
    (the same best passage under other ids); a citation of it cites them too.
    """
    copies = copies or {}
    c = Counts(questions=1)
    gold_docs = (set(q.favor_ids), set(q.against_ids))
    gold_side_of = {d: 0 for d in q.favor_ids} | {d: 1 for d in q.against_ids}
    persp: dict[int, list[str]] = {0: [], 1: []}
    cited: set[tuple[str, int]] = set()
    refs: list[tuple[str, str, str]] = []  # perspective, doc id, quote
    for claim in summary.claims:
        g = mapping[claim.side]
        for p in claim.perspectives:
            persp[g].append(p.text)
            for r in p.references:
                cited.update((d, g) for d in (r.doc_id, *copies.get(r.doc_id, [])))
                refs.append((p.text, r.doc_id, r.quote))
    # perspective recall
    texts = [t for g in (0, 1) for t in q.perspectives[g]] + persp[0] + persp[1]
    vecs = embed(texts) if texts else np.zeros((0, 1))
    n0, n1 = len(q.perspectives[0]), len(q.perspectives[1])
    gv = (vecs[:n0], vecs[n0 : n0 + n1])
    ov = (vecs[n0 + n1 : n0 + n1 + len(persp[0])], vecs[n0 + n1 + len(persp[0]) :])
    for g in (0, 1):
        c.gold_perspectives += len(gv[g])
        if len(gv[g]) and len(ov[g]):
            best = (gv[g] @ ov[g].T).max(axis=1)
            for t in THRESHOLDS:
                c.matched[t] += int((best >= t - 1e-9).sum())
        # distinctness: near-duplicate perspectives on one side
        if len(ov[g]) > 1:
            sims = ov[g] @ ov[g].T
            iu = np.triu_indices(len(ov[g]), 1)
            c.duplicate_pairs += int((sims[iu] >= DUPLICATE_SIMILARITY).sum())
    # citations
    for doc, g in cited:
        c.cited_pairs += 1
        if doc in gold_docs[g]:
            c.cited_gold_pairs += 1
        if doc in gold_side_of:
            c.gold_cited += 1
            c.gold_cited_right += int(gold_side_of[doc] == g)
    for g in (0, 1):
        c.gold_pairs += len(gold_docs[g])
        c.gold_pairs_cited += sum(1 for d in gold_docs[g] if (d, g) in cited)
    # grounded: recomputed here from the corpus file
    if refs:
        pv = embed([p for p, _, _ in refs])
        qv = embed([qt or " " for _, _, qt in refs])
        for (ptext, doc, quote), a, b in zip(refs, pv, qv, strict=True):
            c.references += 1
            text = corpus.get(doc, "")
            ok = doc in retrieved and bool(quote) and quote in text
            supported = normalise(ptext) in normalise(quote) or float(a @ b) >= GROUNDED_SIMILARITY
            c.grounded += int(ok and supported)
    return c


def method_options(base: SummaryOptions, name: str, auto_path: str) -> SummaryOptions:
    """The :class:`SummaryOptions` of a method name."""
    if name in ("sphere", "sphere_gold_claims"):
        return replace(base, path=auto_path)  # type: ignore[arg-type]
    hier, path = name.split("_", 1)
    return replace(
        base,
        path=path,  # type: ignore[arg-type]
        groups=base.groups if hier == "hiersphere" else 1,
    )


def run_summary_eval(
    data: Path,
    corpus: Path,
    *,
    settings: Any,
    methods: Sequence[str],
    limit: int | None = None,
    gold_claims: bool = False,
    progress: Callable[[str], None] | None = None,
    examples: int = 1,
) -> dict[str, Any]:
    """Run the benchmark; return the report object (module docstring)."""
    from assistant.embed import embedder_from_settings
    from assistant.pipeline import AUTO_PATH, Pipeline, load_stance
    from assistant.understand import understand

    say = progress or (lambda _m: None)
    queries = load_queries(Path(data))[: limit or None]
    corpus_text = _read_corpus(Path(corpus))
    embedder = embedder_from_settings(settings)
    say("opening the corpus index (built once, then cached)")
    index = corpus_index_for(settings, corpus, embedder)
    need_model = any(m.endswith("_model") for m in methods)
    backend = None
    if need_model:
        from assistant.llm import load_backend

        backend = load_backend(settings.llm)
    pipe = Pipeline(settings, index, embedder, backend=backend, stance=load_stance(settings))

    def embed(texts: list[str]) -> np.ndarray:
        v = np.asarray(embedder.encode(texts), dtype=np.float32)
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)

    base = pipe.summary_options()
    runs = list(methods) + (["sphere_gold_claims"] if gold_claims else [])
    totals = {m: Counts() for m in runs}
    per_task: dict[str, dict[str, Counts]] = {}
    shown: dict[str, Any] = {}
    try:
        for qi, q in enumerate(queries, 1):
            say(f"question {qi}/{len(queries)}: {q.title}")
            t = time.perf_counter()
            plan = understand(q.title, use_llm="never")
            hits = pipe.retrieve(plan, lambda _p: None)
            t_retrieve = time.perf_counter() - t
            plans: dict[str, tuple[QueryPlan, Any, float]] = {"plan": (plan, hits, t_retrieve)}
            if gold_claims:
                t = time.perf_counter()
                gplan = replace(plan, claims=q.claims, source="user")
                plans["gold"] = (
                    gplan,
                    pipe.retrieve(gplan, lambda _p: None),
                    time.perf_counter() - t,
                )
            for m in runs:
                p, h, tr = plans["gold" if m == "sphere_gold_claims" else "plan"]
                opts = method_options(base, m, AUTO_PATH)
                t = time.perf_counter()
                summary, _report = pipe.answer(p, h, opts)
                seconds = tr + time.perf_counter() - t
                mapping: dict[Side, int] = (
                    {"pro": 0, "con": 1}
                    if m == "sphere_gold_claims"
                    else align_claims(p.claims, q.claims, embed)
                )
                retrieved = {x.doc_id for s in SIDES for x in h.get(s, [])}
                copies = {x.doc_id: x.copies for s in SIDES for x in h.get(s, []) if x.copies}
                counts = score_summary(q, summary, mapping, retrieved, corpus_text, embed, copies)
                counts.seconds = seconds
                totals[m].add(counts)
                per_task.setdefault(q.topic, {}).setdefault(m, Counts()).add(counts)
                if qi <= examples and m == runs[0]:
                    shown[q.qid] = _example(q, summary, mapping)
    finally:
        index.close()
    return {
        "benchmark": "persphere_summary",
        "n_questions": len(queries),
        "methods": {m: totals[m].metrics() for m in runs},
        "tasks": {t: {m: c.metrics() for m, c in ms.items()} for t, ms in sorted(per_task.items())},
        "settings": {
            "groups": base.groups,
            "documents": base.documents,
            "max_perspectives": base.max_perspectives,
            "auto_path": AUTO_PATH,
            "retrieval_k": pipe.settings.retrieval.k,
        },
        "examples": shown,
    }


def _read_corpus(path: Path) -> dict[str, str]:
    if not path.is_file():
        raise InputError(f"corpus file not found: {path}", hint="pass --corpus …/doc_new.jsonl")
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                out[str(r["id"])] = str(r.get("content", ""))
    return out


def _example(q: PerSphereQuery, summary: Summary, mapping: dict[Side, int]) -> dict[str, Any]:
    """Gold versus ours for one question (for the report)."""
    gold = [
        {
            "claim": q.claims[g],
            "perspectives": [
                {"text": t, "doc": d}
                for t, d in zip(q.perspectives[g], (q.favor_ids, q.against_ids)[g], strict=False)
            ],
        }
        for g in (0, 1)
    ]
    ours = [
        {
            "claim": c.claim,
            "gold_claim": mapping[c.side] + 1,
            "note": c.note,
            "perspectives": [
                {"text": p.text, "docs": [r.doc_id for r in p.references]} for p in c.perspectives
            ],
        }
        for c in summary.claims
    ]
    return {"question": q.title, "gold": gold, "ours": ours}
