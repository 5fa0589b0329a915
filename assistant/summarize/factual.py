"""The answer to a factual question: the passages that answer it, ranked, not a debate.

A factual question ("What does the shared MIME-info database specification
define?") has no two sides, so it gets no claims and no two-sided summary.
Its answer is the retriever's ranking of the documents for the question, as a
lookup's is (:mod:`assistant.summarize.lookup`; the ranking is the retriever's
and nothing here reorders it), each document with the whole sentence of it
that answers the question best: the sentence whose MiniLM vector is nearest
the question's (all-MiniLM-L6-v2 was trained on question-answer pairs, among
others, so a question and its answer sentence are near), with its page and
passage as a citation's quote has them
(:func:`assistant.summarize.verify.verified_reference`). ``support`` is that
cosine; ``check`` is ``question``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.errors import CancelledError
from assistant.models import AnswerRow, DocumentHit, FactualAnswer, QueryPlan
from assistant.summarize.evidence import SourceDoc
from assistant.summarize.hiersphere import sentence_vectors
from assistant.summarize.verify import Support, verified_reference

CHECK = "question"


def answer_factual(
    plan: QueryPlan,
    hits: Sequence[DocumentHit],
    docs: Sequence[SourceDoc],
    embedder: Any,
    *,
    sentence_cache: dict[str, np.ndarray] | None = None,
    cancel: threading.Event | None = None,
) -> FactualAnswer:
    """One :class:`AnswerRow` per hit, in rank order, each with its answering sentence.

    ``docs`` are the hits' documents with their sentences
    (:meth:`assistant.pipeline.Pipeline.source_docs`); ``sentence_cache`` (doc id ->
    unit sentence vectors) is read and filled. A document with no text has no quote.
    """
    question = " ".join(plan.search_question().split()) or plan.question
    qvec = np.asarray(embedder.encode([question]), dtype=np.float32)[0]
    qvec /= max(float(np.linalg.norm(qvec)), 1e-12)
    by_id = {d.doc_id: d for d in docs}
    with_text = [by_id[h.doc_id] for h in hits if h.doc_id in by_id and by_id[h.doc_id].sentences]
    svecs = sentence_vectors(with_text, embedder, sentence_cache) if with_text else {}
    rows = []
    for rank, hit in enumerate(hits, 1):
        if cancel is not None and cancel.is_set():
            raise CancelledError("the answer was cancelled")
        doc = by_id.get(hit.doc_id)
        vecs = svecs.get(hit.doc_id)
        reference = None
        if doc is not None and doc.sentences and vecs is not None:
            sims = vecs @ qvec
            i = int(np.argmax(sims))  # the first of equals: the earlier sentence
            reference = verified_reference(
                doc, Support(doc.sentences[i], float(sims[i]), CHECK), None
            )
        rows.append(
            AnswerRow(
                rank=rank,
                doc_id=hit.doc_id,
                title=hit.title,
                source=hit.source,
                path=hit.path,
                score=float(hit.score),
                reference=reference,
                copies=list(hit.copies),
            )
        )
    return FactualAnswer(plan.question, rows)
