"""Verify every reference of a summary against the text it cites (DESIGN §2 "verify").

A reference is kept only if

1. its document exists and was retrieved for this question (it is in the pool
   the summarizer was given), and
2. the document supports the perspective, by one of (``Reference.check``):

   * ``quote`` — the perspective (normalised: case, spacing, end punctuation)
     occurs in a sentence of the document; support 1.0;
   * ``similarity`` — the MiniLM cosine between the perspective and the best
     sentence of the document is at least ``threshold``; support = that cosine;
   * ``model`` — optional, off by default: the model's judgment with paper
     004's reference-determination prompt (Table 9) answers ``Reference`` and
     the best sentence still reaches ``model_floor``.

A kept reference records the passage, the quote (the supporting sentence, an
exact substring of ``Index.passage_text(passage_id)``), its offsets in that
passage text, the support score, the check and ``verified=True``. Unsupported
references are removed; a perspective left with none is dropped; a claim left
with none gets the note :data:`~assistant.models.NO_EVIDENCE` instead of an
invented perspective.

With the stance model's judgment of every summarized document (``stance``:
doc id → (P(pro), P(con), P(neither))), a reference is also checked for its
side: a document the model places under neither claim is not cited; a
document it places under the *other* claim with at least ``stance_min``
probability, and more than the claim it is cited under (below 0.5 both can
reach it), is moved to the perspective of that claim it supports (by the
checks above) or, if there is none, removed. ``VerifyReport.moved`` and
``removed`` say which and why, and every kept reference records the
probability of the claim it stands under (``Reference.stance``).

A lookup's aspects (:mod:`assistant.summarize.lookup`) are checked the same
way, with :func:`terms_match` in place of the verbatim quote (an aspect is a
short phrase: "oysters", "not baked in the oven"): ``terms`` — every content
word of the aspect, stemmed as BM25 stems it, occurs in one sentence, and so
does each negation word it has (a sentence that negates and an aspect that
does not never match this way); else ``similarity`` as above, among the
sentences that carry a negation exactly when the aspect does
(:func:`same_polarity`: the embedder cannot tell "X" from "not X").

A passage judged on its own (``passage_stance``: passage id → probabilities)
is checked by its own judgment when that passage takes a claim with
``stance_min``: a reference quoting it stands or falls with the side of that
passage, not of the whole document; a passage that is not that sure is checked
by the document's judgment, its passages' leanings summed, as the summarizer
placed it (:func:`_reference_judgement`).

A document supports one of two opposing claims, never both, unless its
passages do: when verified references to one document sit under both claims
(a weak model writes the same perspective on both sides), only the
better-supported one is kept (ties: the claim whose retrieval side found the
document) and the other is removed with its reason — except where each
reference quotes a passage that the stance model itself places under the claim
it is cited for (a debate page's point and its counter).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.errors import CancelledError, SphereError
from assistant.index.lexical import fast_tokens
from assistant.models import NO_EVIDENCE, ClaimSummary, Reference, Summary, SummaryPerspective
from assistant.summarize.evidence import Sentence, SourceDoc, judgement_at, unit_rows
from assistant.summarize.hiersphere import sentence_vectors

_NORM = re.compile(r"[\s\"'“”‘’]+")
_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")
NEGATIONS = frozenset({"no", "not", "without", "non", "never", "nor", "isn't", "don't", "doesn't"})


@dataclass
class VerifyOptions:
    # MiniLM cosine a perspective needs with one sentence of a cited document
    threshold: float = 0.6
    use_model: bool = False
    model_floor: float = 0.4


@dataclass
class VerifyReport:
    """What verification did (for the session log and the eval harness)."""

    checked: int = 0
    kept: int = 0
    removed: list[dict[str, str]] = field(default_factory=list)  # doc_id, perspective, reason
    dropped_perspectives: int = 0
    # references moved to the other claim by the stance check: doc_id, from, to, reason
    moved: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "kept": self.kept,
            "removed": list(self.removed),
            "dropped_perspectives": self.dropped_perspectives,
            "moved": list(self.moved),
        }


def normalise(text: str) -> str:
    """Lower case, one space between words, quotes and end punctuation removed."""
    return _NORM.sub(" ", text.lower()).strip(" .!?;:,")


def quote_match(perspective: str, sentence: str) -> bool:
    """Does the (normalised) perspective occur in the (normalised) sentence?"""
    p = normalise(perspective)
    return len(p.split()) >= 3 and p in normalise(sentence)


def terms_match(phrase: str, sentence: str) -> bool:
    """Does every content word of ``phrase`` occur in ``sentence`` (module docstring)?

    Words are compared as BM25 tokens (:func:`~assistant.index.lexical.fast_tokens`:
    lower case, English stopwords dropped, Snowball stems), so "oysters" finds
    "oyster"; the phrase's negation words must occur as they are, and a
    sentence with a negation the phrase lacks does not match ("meat" is not
    met by "a stew without meat").
    """
    need = set(fast_tokens(phrase))
    if not need:
        return False
    neg_p, neg_s = _negations(phrase), _negations(sentence)
    if neg_s - neg_p or not neg_p <= neg_s:
        return False
    return need <= set(fast_tokens(sentence))


def same_polarity(phrase: str, sentence: str) -> bool:
    """Do both, or neither, carry a negation word? MiniLM places "X" and "not X" close
    together ("without nuts" and "Brownies with nuts.": cosine 0.63), so a similarity
    between texts of opposite polarity says nothing about support."""
    return bool(_negations(phrase)) == bool(_negations(sentence))


def _negations(text: str) -> set[str]:
    return {w for w in _WORDS.findall(text.lower().replace("’", "'")) if w in NEGATIONS}


@dataclass
class Support:
    """A sentence that supports a text, its score and the check that passed."""

    sentence: Sentence
    score: float
    check: str


def best_support(
    text: str,
    vec: np.ndarray,
    doc: SourceDoc,
    sent_vecs: np.ndarray,
    options: VerifyOptions,
    hint: tuple[int, int, int] | None = None,
    *,
    match: Callable[[str, str], bool] = quote_match,
    check: str = "quote",
    comparable: Callable[[str, str], bool] | None = None,
) -> Support | None:
    """The sentence of ``doc`` that supports ``text``, or ``None``.

    A ``match`` wins (the hinted sentence first; by default the verbatim
    quote, reported as ``check``); otherwise the most similar sentence, if it
    reaches the threshold, among the sentences ``comparable(text, sentence)``
    allows (all by default).
    """
    sents = doc.sentences
    if not sents:
        return None
    order = list(range(len(sents)))
    if hint is not None:
        order.sort(key=lambda i: (sents[i].passage_id, sents[i].start, sents[i].end) != hint)
    for i in order:
        if match(text, sents[i].text):
            return Support(sents[i], 1.0, check)
    sims = sent_vecs @ vec
    if comparable is not None:
        allowed = np.array([comparable(text, s.text) for s in sents])
        sims = np.where(allowed, sims, -np.inf)
    i = int(np.argmax(sims))
    if float(sims[i]) >= options.threshold:
        return Support(sents[i], float(sims[i]), "similarity")
    return None


def model_supports(
    text: str, doc: SourceDoc, backend: Any, prompts: Any, cancel: threading.Event | None
) -> bool:
    """Paper 004 Table 9 reference determination, under a JSON schema (enum label)."""
    prompt = prompts.get("reference_determination")
    body = " ".join(doc.text.split()[:250])
    values = {"perspective": text, "document": body}
    data = backend.json(
        prompt.messages(**values),
        prompt.schema_for(**values),
        max_tokens=prompt.max_tokens,
        cancel=cancel,
    )
    return data.get("label") == "Reference"


def verify_summary(
    summary: Summary,
    docs: Sequence[SourceDoc],
    embedder: Any,
    options: VerifyOptions | None = None,
    *,
    sentence_vecs: dict[str, np.ndarray] | None = None,
    backend: Any = None,
    prompts: Any = None,
    cancel: threading.Event | None = None,
    stance: dict[str, tuple[float, float, float]] | None = None,
    stance_min: float = 0.5,
    passage_stance: dict[int, tuple[float, float, float]] | None = None,
    unit_stance: dict[tuple[int, int], tuple[float, float, float]] | None = None,
) -> tuple[Summary, VerifyReport]:
    """A copy of ``summary`` with only verified references (see the module docstring).

    ``docs`` is the retrieved pool (the only documents that may be cited);
    ``sentence_vecs`` may carry unit vectors of each document's sentences
    already computed by the summarizer.
    """
    opts = options or VerifyOptions()
    judged = stance or {}
    by_passage = passage_stance or {}
    by_unit = unit_stance or {}
    # ref, doc, claim index, from, P(that claim)
    to_move: list[tuple[Reference, SourceDoc, int, str, float]] = []
    pool = {d.doc_id: d for d in docs}
    report = VerifyReport()
    texts = [p.text for c in summary.claims for p in c.perspectives]
    pvecs = (
        unit_rows(np.asarray(embedder.encode(texts), dtype=np.float32))
        if texts
        else np.zeros((0, 1))
    )
    # vectors given for a document's sentences, in order; any other count is another
    # reading of it and is embedded again
    svecs = {
        k: v
        for k, v in (sentence_vecs or {}).items()
        if k in pool and len(v) == len(pool[k].sentences)
    }
    cited = {r.doc_id for c in summary.claims for p in c.perspectives for r in p.references}
    need = [pool[d] for d in sorted(cited) if d in pool and d not in svecs and pool[d].sentences]
    svecs.update(sentence_vectors(need, embedder))
    use_model = opts.use_model and backend is not None and prompts is not None
    claims: list[ClaimSummary] = []
    k = 0
    for claim in summary.claims:
        kept_p: list[SummaryPerspective] = []
        for p in claim.perspectives:
            vec = pvecs[k]
            k += 1
            refs: list[Reference] = []
            seen: set[str] = set()
            for ref in p.references:
                if cancel is not None and cancel.is_set():
                    raise CancelledError("the answer was cancelled")
                if ref.doc_id in seen:
                    continue  # the same document cited twice by one perspective
                report.checked += 1
                reason = ""
                doc = pool.get(ref.doc_id)
                side_p = _reference_judgement(
                    judgement_at(by_passage, by_unit, ref.passage_id, ref.quote_start),
                    judged.get(ref.doc_id),
                    stance_min,
                )
                mine = 0 if claim.side == "pro" else 1
                if doc is None:
                    reason = "not retrieved for this question"
                elif not doc.sentences:
                    reason = "document has no text in the index"
                elif side_p is not None and (
                    max(side_p[0], side_p[1]) < stance_min or side_p[2] > max(side_p[:2])
                ):
                    reason = (
                        "the stance model places it under neither claim "
                        f"(pro {side_p[0]:.2f}, con {side_p[1]:.2f}, neither {side_p[2]:.2f})"
                    )
                elif (
                    side_p is not None
                    and side_p[1 - mine] >= stance_min
                    and side_p[1 - mine] > side_p[mine]
                ):
                    seen.add(ref.doc_id)
                    to_move.append((ref, doc, 1 - mine, p.text, side_p[1 - mine]))
                    continue
                else:
                    hint = (
                        (ref.passage_id, ref.quote_start, ref.quote_end)
                        if ref.passage_id >= 0
                        else None
                    )
                    sup = best_support(p.text, vec, doc, svecs[ref.doc_id], opts, hint)
                    if sup is None and use_model:
                        sims = svecs[ref.doc_id] @ vec
                        i = int(np.argmax(sims))
                        try:
                            if float(sims[i]) >= opts.model_floor and model_supports(
                                p.text, doc, backend, prompts, cancel
                            ):
                                sup = Support(doc.sentences[i], float(sims[i]), "model")
                        except CancelledError:
                            raise
                        except SphereError:
                            sup = None
                    if sup is None:
                        reason = "the document does not support the perspective"
                    else:
                        seen.add(ref.doc_id)
                        refs.append(
                            verified_reference(
                                doc, sup, side_p[mine] if side_p is not None else None
                            )
                        )
                        report.kept += 1
                if reason:
                    report.removed.append(
                        {"doc_id": ref.doc_id, "perspective": p.text, "reason": reason}
                    )
            # kept while empty: a reference moved here by the stance check may fill it
            kept_p.append(SummaryPerspective(p.text, refs))
        claims.append(ClaimSummary(claim.claim, claim.side, kept_p, claim.note))
    if to_move:
        _move_references(claims, to_move, embedder, svecs, opts, report)
    for c in claims:
        empty = sum(1 for p in c.perspectives if not p.references)
        report.dropped_perspectives += empty
        c.perspectives = [p for p in c.perspectives if p.references]
    claims = _one_claim_per_document(claims, pool, report, by_passage, stance_min, by_unit)
    for c in claims:
        if not c.perspectives:
            c.note = NO_EVIDENCE
    out = Summary(
        question=summary.question,
        claims=claims,
        balance=summary.balance,
        method=summary.method,
        notes=list(summary.notes),
    )
    return out, report


def _reference_judgement(
    passage: tuple[float, float, float] | None,
    document: tuple[float, float, float] | None,
    stance_min: float,
) -> tuple[float, float, float] | None:
    """The judgment a reference is checked by, as the summarizer placed it: its quote's
    passage's own when that passage takes a claim with ``stance_min`` (a page that
    argues both claims, passage by passage), else the document's as a whole (its
    passages' leanings summed: none of them sure alone, together they can be)."""
    top = max(passage[0], passage[1]) if passage is not None else 0.0
    if passage is not None and top >= stance_min and top > passage[2]:
        return passage
    return document if document is not None else passage


def verified_reference(doc: SourceDoc, sup: Support, stance: float | None) -> Reference:
    """The kept reference: the supporting sentence as quote, with its offsets and checks."""
    s = sup.sentence
    return Reference(
        doc_id=doc.doc_id,
        title=doc.title,
        source=doc.source,
        path=doc.path,
        page=s.page,
        passage_id=s.passage_id,
        quote=s.text,
        quote_start=s.start,
        quote_end=s.end,
        retrieval_score=doc.score,
        support=round(sup.score, 4),
        verified=True,
        check=sup.check,
        stance=round(stance, 4) if stance is not None else None,
    )


def _move_references(
    claims: list[ClaimSummary],
    to_move: list[tuple[Reference, SourceDoc, int, str, float]],
    embedder: Any,
    svecs: dict[str, np.ndarray],
    opts: VerifyOptions,
    report: VerifyReport,
) -> None:
    """References the stance model puts under the other claim: moved there, or removed.

    A reference moves to the perspective of the other claim that its document
    supports best (the quote and similarity checks of :func:`best_support`);
    with no such perspective it is removed. In place.
    """
    if len(claims) < 2:
        for ref, _doc, _ci, frm, _p in to_move:
            report.removed.append(
                {"doc_id": ref.doc_id, "perspective": frm, "reason": "supports the other claim"}
            )
        return
    targets = [(ci, p) for ci, c in enumerate(claims) for p in c.perspectives]
    tvecs = (
        unit_rows(np.asarray(embedder.encode([p.text for _ci, p in targets]), dtype=np.float32))
        if targets
        else np.zeros((0, 1))
    )
    for ref, doc, ci, frm, p_other in to_move:
        best: tuple[Support, SummaryPerspective] | None = None
        for (tci, tp), vec in zip(targets, tvecs, strict=True):
            if tci != ci or any(r.doc_id == doc.doc_id for r in tp.references):
                continue
            sup = best_support(tp.text, vec, doc, svecs[doc.doc_id], opts)
            if sup is not None and (best is None or sup.score > best[0].score):
                best = (sup, tp)
        why = f"the stance model says it supports {claims[ci].side} ({p_other:.2f})"
        if best is None:
            report.removed.append({"doc_id": ref.doc_id, "perspective": frm, "reason": why})
            continue
        sup, tp = best
        tp.references.append(verified_reference(doc, sup, p_other))
        report.kept += 1
        report.moved.append({"doc_id": doc.doc_id, "from": frm, "to": tp.text, "reason": why})


def _one_claim_per_document(
    claims: list[ClaimSummary],
    pool: dict[str, SourceDoc],
    report: VerifyReport,
    by_passage: dict[int, tuple[float, float, float]] | None = None,
    stance_min: float = 0.5,
    by_unit: dict[tuple[int, int], tuple[float, float, float]] | None = None,
) -> list[ClaimSummary]:
    """Keep each document's references under one claim only, unless each quotes a
    passage the stance model places under its own claim (module docstring)."""
    if len(claims) < 2:
        return claims
    by_passage = by_passage or {}
    by_unit = by_unit or {}

    def unit(r: Reference, ci: int) -> tuple[str, int]:
        p = judgement_at(by_passage, by_unit, r.passage_id, r.quote_start)
        if p is not None and p[ci] >= stance_min and p[ci] == max(p):
            return (r.doc_id, ci)  # this passage argues this claim: its own unit
        return (r.doc_id, -1)

    # unit -> ((support, found by this claim's side, earlier claim first), claim index)
    best: dict[tuple[str, int], tuple[tuple[float, int, int], int]] = {}
    for ci, c in enumerate(claims):
        for p in c.perspectives:
            for r in p.references:
                doc = pool.get(r.doc_id)
                key = (r.support, int(doc is not None and doc.side == c.side), -ci)
                u = unit(r, ci)
                if u not in best or key > best[u][0]:
                    best[u] = (key, ci)
    out: list[ClaimSummary] = []
    for ci, c in enumerate(claims):
        kept_p: list[SummaryPerspective] = []
        for p in c.perspectives:
            refs = []
            for r in p.references:
                if best[unit(r, ci)][1] == ci:
                    refs.append(r)
                    continue
                report.kept -= 1
                report.removed.append(
                    {
                        "doc_id": r.doc_id,
                        "perspective": p.text,
                        "reason": "also cited under the opposing claim, which it supports better",
                    }
                )
            if refs:
                kept_p.append(SummaryPerspective(p.text, refs))
            else:
                report.dropped_perspectives += 1
        out.append(ClaimSummary(c.claim, c.side, kept_p, c.note))
    return out
