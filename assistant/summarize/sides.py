"""Which claim each summarized document, and each quote, stands under (the stance model).

The summarizer (:mod:`assistant.summarize.hiersphere`) reads the retrieved
documents; this module places them: :func:`judged_passages_only` keeps the
passages the stance model reads, :func:`stance_sides` judges them paragraph by
paragraph (:mod:`assistant.stance.units`) and gives each document the claims
its paragraphs take with an evidence sentence for each, which is then read
alone (:func:`_quotes_that_argue_their_claim`); on the model path
:func:`place_by_stance` moves a model-written perspective to the claim its
documents lean to. Everything works in place on the summarizer's
:class:`~assistant.summarize.hiersphere.Prepared`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from assistant.models import SIDES, QueryPlan, Side
from assistant.stance.units import judged_parts
from assistant.summarize.evidence import (
    SourceDoc,
    ends_as_sentence,
    shape_penalty,
    split_passages,
    unit_rows,
)

if TYPE_CHECKING:
    from assistant.summarize.hiersphere import Candidate, Prepared, SummaryOptions


def stance_sides(prep: Prepared, plan: QueryPlan, stance: Any, options: SummaryOptions) -> None:
    """Sides and evidence sentences from the stance model, in place on ``prep``.

    Each document is judged from its passages (the retrieved ones,
    :meth:`~assistant.stance.model.StanceModel.judge_documents`), each passage
    paragraph by paragraph (``options.stance_unit``,
    :func:`~assistant.stance.units.judged_parts`):
    every paragraph gets its own side, the document one from all of them. A
    document goes under each claim that one of its paragraphs takes with at least
    ``stance_min_confidence`` — so a page that argues both sides is cited under
    both, each side quoting the sentences of its own paragraphs — or, when none
    is that sure, under the claim the document as a whole takes with that
    confidence.
    Otherwise it is not cited: it "takes no side" (``prep.no_side``) when the
    model says neither, and its "side is unclear" (``prep.unclear``) when the model
    leans to a claim without reaching the confidence. A side's evidence sentence
    is the most relevant and central sentence of its paragraphs that also leans to
    its claim (:func:`_side_evidence`).
    """
    judged_docs = [d for d in prep.docs if len(prep.sent_vecs.get(d.doc_id, ())) > 0]
    if not judged_docs:
        return
    question = plan.claims_question()
    read = _passages_to_judge(judged_docs, options.stance_passages)
    unit = options.stance_unit
    units = [[(p, s, e) for p in ps for s, e in judged_parts(p.text, unit)] for ps in read]
    texts = [[p.text[s:e] for p, s, e in us] for us in units]
    results = stance.judge_documents(question, prep.claims, texts)
    need = options.stance_min_confidence
    quote_gate = quote_relevance_gate(prep, options)
    on_topic: set[int] = set()
    for d, us, jd in zip(judged_docs, units, results, strict=True):
        whole = jd.side
        prep.stance[d.doc_id] = whole.p
        pa, pb = max(whole.p[0], 1e-9), max(whole.p[1], 1e-9)
        prep.side_score[d.doc_id] = float(np.log(pa / pb))
        parts = Counter(p.passage_id for p, _s, _e in us)
        by_side: dict[int, set[int]] = {0: set(), 1: set()}
        for (passage, s, e), pj in zip(us, jd.passages, strict=True):
            pid = passage.passage_id
            held = [
                i for i, x in enumerate(d.sentences) if x.passage_id == pid and s <= x.start < e
            ]
            if parts[pid] == 1:
                prep.passage_stance[pid] = pj.p
            else:
                prep.unit_stance.update({(pid, d.sentences[i].start): pj.p for i in held})
            # a paragraph with no sentence in it (a heading, a reference entry) gives no
            # side of its own: there is nothing in it to quote
            prose = any(ends_as_sentence(d.sentences[i].text) for i in held)
            if pj.side != 2 and pj.confidence >= need and prose:
                by_side[pj.side].update(held)
        if quote_gate is not None:
            # experiment, off by default (SummaryOptions.quote_relevance_ratio): only
            # sentences near the question may be quoted, whatever their document's best
            near = prep.sent_vecs[d.doc_id] @ prep.query_vec >= quote_gate
            on_topic = {int(i) for i in np.flatnonzero(near)}
            argued = bool(by_side[0] or by_side[1])
            by_side = {k: v & on_topic for k, v in by_side.items()}
            if not on_topic or (argued and not by_side[0] and not by_side[1]):
                # no sentence near the question, or its arguing paragraphs all off it:
                # nothing it argues is quoted, nor a sentence of it that argues nothing
                prep.sides.pop(d.doc_id, None)
                prep.off_topic.append(d.doc_id)
                continue
        if not by_side[0] and not by_side[1]:
            if whole.side == 2 or whole.confidence < need:
                prep.sides.pop(d.doc_id, None)
                (prep.no_side if whole.side == 2 else prep.unclear).append(d.doc_id)
                continue
            by_side[whole.side] = (
                on_topic if quote_gate is not None else set(range(len(d.sentences)))
            )
        order = sorted((k for k in (0, 1) if by_side[k]), key=lambda k: -whole.p[k])
        sides = [SIDES[k] for k in order]
        prep.side_sets[d.doc_id] = sides
        prep.sides[d.doc_id] = sides[0]
        for k in order:
            idx = np.array(sorted(by_side[k]), dtype=np.int64)
            if not len(idx):
                idx = np.arange(len(d.sentences))
            prep.side_sentences[(d.doc_id, SIDES[k])] = idx
            prep.evidence_at[(d.doc_id, SIDES[k])] = _side_evidence(prep, d, idx, k, options)
        prep.evidence[d.doc_id] = prep.evidence_at[(d.doc_id, sides[0])]
    _quotes_that_argue_their_claim(prep, question, stance, options)


def quote_relevance_gate(prep: Prepared, options: SummaryOptions) -> float | None:
    """The cosine with the question a quoted sentence needs, or None (the default: off).

    The relevance gate (:func:`~assistant.summarize.hiersphere.prepare`) reads a
    document's best sentence, so a page of another subject that mentions the
    question's words once passes it, and then its arguing paragraphs are quoted
    whatever they are about ("Doing so violates the child's right to be free from
    pain." under "Child performers should be banned.", from a page on
    circumcision). With ``options.quote_relevance_ratio`` set, a quote must itself
    reach max(``relevance_floor``, ratio × the best document's relevance). Measured
    on the development pages and not shipped (docs/RETRIEVAL.md, "A gate on the
    quote"); kept so that the evaluation can rerun it.
    """
    ratio = options.quote_relevance_ratio
    if ratio is None or not prep.relevance:
        return None
    return max(options.relevance_floor, ratio * max(prep.relevance.values()))


def _quotes_that_argue_their_claim(
    prep: Prepared, question: str, stance: Any, options: SummaryOptions
) -> None:
    """A quote stands under a claim only if, read alone, it does not argue the other.

    A paragraph's side is the model's reading of the whole paragraph, and the
    evidence sentence is picked from it by embeddings, which place "X" and "not X" close
    together: on the real folder "libffi is not completely thread-safe." was
    quoted under "Libffi is safe to use from several threads at once." because
    its passage leaned that way. Each side's evidence sentence
    (``prep.evidence_at``) is read alone
    (:meth:`~assistant.stance.model.StanceModel.sentence_sides`); one that the
    model puts under the other claim with ``stance_min_confidence`` is not quoted
    there. A paragraph that rebuts the other side often restates it first, and the
    sentence nearest the question by embeddings is then the restatement: that
    side's next ``quote_retries`` sentences, best first, are read alone too, and
    the first that leans to the side's claim, without arguing the other, is
    quoted instead. A side with none is not cited (the two readings disagree); a
    document left with no side is "side unclear". In place on ``prep``.
    """
    if not hasattr(stance, "sentence_sides") or not prep.evidence_at:
        return
    need = options.stance_min_confidence
    by_id = {d.doc_id: d for d in prep.docs}
    keys = list(prep.evidence_at)
    texts = [
        by_id[doc_id].sentences[prep.evidence_at[(doc_id, side)]].text for doc_id, side in keys
    ]
    judged = stance.sentence_sides(question, prep.claims, texts)
    refused = [
        (doc_id, side)
        for (doc_id, side), j in zip(keys, judged, strict=True)
        if _argues_other(j.p, side, need)
    ]
    # a refused side reads its next sentences alone, best first: the first one that leans
    # to its claim and does not argue the other is quoted instead
    retry = [
        (key, i)
        for key in refused
        for i in _side_ranking(
            prep,
            by_id[key[0]],
            prep.side_sentences[key],
            SIDES.index(key[1]),
            options,
        )[1 : 1 + options.quote_retries]
    ]
    again = (
        stance.sentence_sides(
            question, prep.claims, [by_id[doc_id].sentences[i].text for (doc_id, _s), i in retry]
        )
        if retry
        else []
    )
    for (key, i), j in zip(retry, again, strict=True):
        k = SIDES.index(key[1])
        if key in refused and j.p[k] > j.p[1 - k] and not _argues_other(j.p, key[1], need):
            refused.remove(key)
            prep.evidence_at[key] = i
            if prep.side_sets[key[0]][0] == key[1]:
                prep.evidence[key[0]] = i
    for doc_id, side in refused:
        left = [s for s in prep.side_sets.get(doc_id, []) if s != side]
        prep.side_sentences.pop((doc_id, side), None)
        prep.evidence_at.pop((doc_id, side), None)
        if left:
            prep.side_sets[doc_id] = left
            prep.sides[doc_id] = left[0]
        else:
            prep.side_sets.pop(doc_id, None)
            prep.sides.pop(doc_id, None)
            if doc_id not in prep.unclear:
                prep.unclear.append(doc_id)
            continue
        prep.evidence[doc_id] = prep.evidence_at[(doc_id, left[0])]


def _argues_other(p: tuple[float, float, float], side: Side, need: float) -> bool:
    """Whether a sentence judged ``p`` argues the claim other than ``side``'s."""
    other = p[1 - SIDES.index(side)]
    return other >= need and other > p[SIDES.index(side)]


def _passages_to_judge(docs: Sequence[SourceDoc], budget: int) -> list[list[Any]]:
    """Each document's passages the stance model reads, in document order: its best
    (highest retrieval score) for every document, then its further passages, best
    first, for the best-ranked documents while ``budget`` passages in all allow."""

    def by_score(d: SourceDoc) -> list[Any]:
        return sorted(d.passages, key=lambda p: -d.passage_scores.get(p.passage_id, 0.0))

    chosen = [by_score(d)[:1] for d in docs]
    left = budget - sum(len(c) for c in chosen)
    for d, c in sorted(zip(docs, chosen, strict=True), key=lambda x: x[0].rank):
        if left <= 0:
            break
        extra = by_score(d)[1 : 1 + left]
        c.extend(extra)
        left -= len(extra)
    order = [{p.passage_id: i for i, p in enumerate(d.passages)} for d in docs]
    return [sorted(c, key=lambda p: o[p.passage_id]) for c, o in zip(chosen, order, strict=True)]


def judged_passages_only(docs: Sequence[SourceDoc], budget: int) -> list[SourceDoc]:
    """Each document as the stance model reads it: only the passages it judges
    (:func:`_passages_to_judge`) and their sentences.

    Every perspective and quote then comes from a passage whose side the model
    weighed, and the sentences embedded for an answer are those of at most
    ``budget`` passages, not of every retrieved one (on the 208 saved debate pages:
    about 250 sentences instead of 460 an answer). The documents given are not
    changed; a document whose passages are all read is returned as it is.
    """
    out: list[SourceDoc] = []
    for d, read in zip(docs, _passages_to_judge(docs, budget), strict=True):
        if not read or len(read) == len(d.passages):
            out.append(d)
            continue
        out.append(replace(d, passages=list(read), sentences=split_passages(d.doc_id, list(read))))
    return out


def _side_evidence(
    prep: Prepared, d: SourceDoc, idx: np.ndarray, k: int, options: SummaryOptions
) -> int:
    """The evidence sentence of document ``d`` for claim ``k`` among sentences ``idx``
    (the best of :func:`_side_ranking`)."""
    return _side_ranking(prep, d, idx, k, options)[0]


def _side_ranking(
    prep: Prepared, d: SourceDoc, idx: np.ndarray, k: int, options: SummaryOptions
) -> list[int]:
    """Sentences ``idx`` of document ``d`` as evidence for claim ``k``, best first:
    w·relevance + (1 − w)·centrality − shape penalty, plus ``claim_lean_weight`` ×
    (cos to claim k − cos to the other claim)."""
    sv = prep.sent_vecs[d.doc_id]
    w = options.relevance_weight
    rel = np.max(
        np.stack([sv @ prep.query_vec, sv @ prep.claim_vecs[0], sv @ prep.claim_vecs[1]]),
        axis=0,
    )
    cent = sv @ unit_rows(sv.mean(axis=0))
    shape = np.array([shape_penalty(s.text) for s in d.sentences])
    lean = sv @ prep.claim_vecs[k] - sv @ prep.claim_vecs[1 - k]
    score = w * rel + (1 - w) * cent - shape + options.claim_lean_weight * lean
    return [int(idx[i]) for i in np.argsort(-score[idx], kind="stable")]


def place_by_stance(final: list[Candidate], prep: Prepared, options: SummaryOptions) -> None:
    """Which claim a model-written perspective goes under, by its documents' stance.

    The language model puts each perspective under a claim; the stance model
    has judged every document it cites (and each judged passage). A perspective
    whose cited documents lean, summed over their log-odds log P(A)/P(B), to the
    other claim, with a mean probability for that claim of at least
    ``stance_min_confidence``, is moved there. A document counts by the passage
    its evidence sentence comes from when that passage was judged (a page that
    argues both claims leans by the passage quoted), else as a whole. Documents
    the stance model does not place under a claim do not vote. In place.
    """
    for c in final:
        votes = [
            _judged(prep, c, d)
            for d in c.doc_ids
            if d in prep.stance and d not in prep.no_side and d not in prep.unclear
        ]
        if not votes:
            continue
        lean = sum(float(np.log(max(p[0], 1e-9) / max(p[1], 1e-9))) for p in votes)
        other: Side = "con" if c.side == "pro" else "pro"
        want = 0 if lean > 0 else 1
        if SIDES[want] != other:
            continue
        conf = float(np.mean([p[want] for p in votes]))
        if conf >= options.stance_min_confidence:
            c.side = other


def _judged(prep: Prepared, c: Candidate, doc_id: str) -> tuple[float, float, float]:
    own = prep.judged_at(c.evidence.get(doc_id))
    return own if own is not None else prep.stance[doc_id]
