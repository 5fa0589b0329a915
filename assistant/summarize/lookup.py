"""The answer to a lookup question: a ranked list, each row checked against the aspects.

A lookup (``QueryPlan.intent == "lookup"``) wants items with some properties
(a dish, a hotel, a product, a report of one event) and has no claims, so it
gets no two-sided summary. With two or more aspects the retriever ranks the
documents by aspect fusion (paper 003 §4.3: S(a, i) by late fusion, eq. 1, of
the aspect's passage scores; the aspects' scores combined by the configured
aggregator, §4.3.3) and :func:`answer_lookup` says, for every ranked document
and every aspect, whether the document meets it: the sentence of the document
that best supports the aspect, checked the way summary citations are checked
(:func:`assistant.summarize.verify.best_support` with
:func:`~assistant.summarize.verify.terms_match`: ``terms``, or ``similarity``
at the verifier's threshold with a sentence of the same polarity,
:func:`~assistant.summarize.verify.same_polarity`). An aspect no sentence supports is not met; its
row still records the nearest sentence, unverified, with its cosine, so the
reader sees why. With fewer than two aspects a lookup is a plain ranked list.

The ranking is the retriever's; the marks never reorder it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.errors import CancelledError
from assistant.models import AspectMatch, DocumentHit, Lookup, LookupRow, QueryPlan
from assistant.retrieval.retriever import plan_queries
from assistant.summarize.evidence import SourceDoc
from assistant.summarize.hiersphere import sentence_vectors
from assistant.summarize.verify import (
    Support,
    VerifyOptions,
    best_support,
    same_polarity,
    terms_match,
    verified_reference,
)


def lookup_aspects(plan: QueryPlan) -> list[str]:
    """The aspects a lookup's rows are checked against: the ones the retriever fuses.

    Whitespace-normalised and de-duplicated, and none when fewer than two remain
    (:func:`assistant.retrieval.retriever.plan_queries`).
    """
    return list(plan_queries(plan).aspects)


def answer_lookup(
    plan: QueryPlan,
    hits: Sequence[DocumentHit],
    docs: Sequence[SourceDoc],
    embedder: Any,
    *,
    aggregator: str = "",
    options: VerifyOptions | None = None,
    sentence_cache: dict[str, np.ndarray] | None = None,
    cancel: threading.Event | None = None,
) -> Lookup:
    """One :class:`LookupRow` per hit, in rank order, with an :class:`AspectMatch` per aspect.

    ``docs`` are the hits' documents with their sentences
    (:meth:`assistant.pipeline.Pipeline.source_docs`); ``aggregator`` names the
    aspect fusion that ranked them (recorded when there are aspects);
    ``sentence_cache`` (doc id -> unit sentence vectors) is read and filled.
    """
    opts = options or VerifyOptions()
    aspects = lookup_aspects(plan)
    by_id = {d.doc_id: d for d in docs}
    avecs = np.zeros((0, 1), np.float32)
    svecs: dict[str, np.ndarray] = {}
    if aspects:
        avecs = np.asarray(embedder.encode(aspects), dtype=np.float32)
        avecs /= np.maximum(np.linalg.norm(avecs, axis=1, keepdims=True), 1e-12)
        with_text = [by_id[h.doc_id] for h in hits if h.doc_id in by_id]
        svecs = sentence_vectors([d for d in with_text if d.sentences], embedder, sentence_cache)
    rows: list[LookupRow] = []
    for rank, hit in enumerate(hits, 1):
        if cancel is not None and cancel.is_set():
            raise CancelledError("the answer was cancelled")
        doc = by_id.get(hit.doc_id)
        matches = [
            _match(a, vec, doc, svecs.get(hit.doc_id), opts, hit.scores.get(f"aspect:{a}", 0.0))
            for a, vec in zip(aspects, avecs, strict=False)
        ]
        rows.append(
            LookupRow(
                rank=rank,
                doc_id=hit.doc_id,
                title=hit.title,
                source=hit.source,
                path=hit.path,
                score=float(hit.score),
                aspects=matches,
                copies=list(hit.copies),
            )
        )
    return Lookup(plan.question, aspects, rows, aggregator if aspects else "")


def _match(
    aspect: str,
    vec: np.ndarray,
    doc: SourceDoc | None,
    sent_vecs: np.ndarray | None,
    options: VerifyOptions,
    score: float,
) -> AspectMatch:
    """Does ``doc`` meet ``aspect``: its verified supporting sentence, or the nearest one."""
    if doc is None or not doc.sentences or sent_vecs is None:
        return AspectMatch(aspect, False, None, float(score))
    sup = best_support(
        aspect,
        vec,
        doc,
        sent_vecs,
        options,
        match=terms_match,
        check="terms",
        comparable=same_polarity,
    )
    if sup is not None:
        return AspectMatch(aspect, True, verified_reference(doc, sup, None), float(score))
    sims = sent_vecs @ vec
    i = int(np.argmax(sims))
    nearest_sentence = Support(doc.sentences[i], float(sims[i]), "similarity")
    nearest = verified_reference(doc, nearest_sentence, None)
    nearest.verified = False
    return AspectMatch(aspect, False, nearest, float(score))
