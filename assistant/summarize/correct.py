"""The user corrects a side (issue 33): a document moved under the other claim, placed
under a claim, or taken out of the answer.

A correction is applied to a finished answer, never by running the pass again:
the document's references leave the claim(s) it no longer stands under (a
perspective left without a reference is dropped, a claim left without one gets
the no-evidence note), and under its new claim it keeps the references it had
(marked ``by_user="moved"``) or, when the answer did not cite it, gets one
whose quote is the first sentence of its best passage (``"placed"``). The
balance report is counted again. The :class:`~assistant.models.Correction`
keeps what the stance model saw and said about the document, so the session
log's corrections are a labelled set (``sphere eval stance --corrections``).

Pure functions on :class:`~assistant.models.TurnResult`: the app, ``sphere
sessions correct`` and the session log (:meth:`SessionStore.add_correction`)
apply the same one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from assistant.errors import InputError
from assistant.models import (
    NO_EVIDENCE,
    PLACES,
    SIDES,
    Correction,
    DocumentHit,
    PassageHit,
    Place,
    Reference,
    SummaryPerspective,
    TurnResult,
)
from assistant.summarize.balance import balance_report

# how the app names the claims (the export and ``sessions show`` say For / Against)
CLAIM_NAMES = {"pro": "Claim A", "con": "Claim B"}
# where a document stands in an answer (``Correction.was``), after "under"/"among"
PLACE_NAMES = {
    "both": "under both claims",
    "no_side": "among the documents that take no side",
    "unclear": "among the documents whose side is unclear",
    "out": "taken out of the answer",
}
GROUPS = ("no_side", "unclear", "removed")
# how every surface (app, ``sphere ask``, the export, ``sessions show``) names the groups
GROUP_TITLES = {
    "no_side": "Takes no side",
    "unclear": "Side unclear",
    "removed": "Taken out by you",
}
GROUP_WHY = {
    "no_side": "the stance model says it argues neither claim",
    "unclear": "the stance model cannot tell which claim it argues",
    "removed": "you said it argues neither claim",
}


@dataclass(frozen=True)
class ApartDocument:
    """A summarized document the answer does not cite, and why (``group``: ``no_side``,
    ``unclear`` or ``removed`` by the user), with the stance model's probabilities."""

    doc_id: str
    title: str
    source: str
    group: str
    p: tuple[float, float, float] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "doc_id": self.doc_id,
            "title": self.title,
            "source": self.source,
            "group": self.group,
            "p": list(self.p) if self.p is not None else None,
        }


def _hit(result: TurnResult, doc_id: str) -> DocumentHit | None:
    for hits in result.hits.values():
        for h in hits:
            if h.doc_id == doc_id:
                return h
    return None


def _probs(result: TurnResult, doc_id: str) -> tuple[float, float, float] | None:
    p = result.summary.balance.stance_p.get(doc_id)
    return (float(p[0]), float(p[1]), float(p[2])) if p and len(p) == 3 else None


def documents_apart(result: TurnResult) -> list[ApartDocument]:
    """The answer's "takes no side", "side unclear" and "taken out by you" documents,
    in that order, each with its title (from the retrieval hits) and probabilities."""
    b = result.summary.balance
    out = []
    for group, ids in zip(
        GROUPS, (b.no_side_doc_ids, b.unclear_doc_ids, b.removed_doc_ids), strict=True
    ):
        for d in ids:
            h = _hit(result, d)
            title, source = (h.title, h.source) if h else ("", "")
            out.append(ApartDocument(d, title, source, group, _probs(result, d)))
    return out


def place_of(result: TurnResult, doc_id: str) -> str | None:
    """Where ``doc_id`` stands in the answer (a key of :data:`PLACE_NAMES`), or None."""
    sides = {
        c.side
        for c in result.summary.claims
        for p in c.perspectives
        for r in p.references
        if r.doc_id == doc_id
    }
    if len(sides) == 2:
        return "both"
    if sides:
        return sides.pop()
    b = result.summary.balance
    for place, ids in (
        ("out", b.removed_doc_ids),
        ("unclear", b.unclear_doc_ids),
        ("no_side", b.no_side_doc_ids),
    ):
        if doc_id in ids:
            return place
    return None


def correctable(result: TurnResult) -> dict[str, str]:
    """Every document of the answer a correction can move, with its place: the cited
    ones in the order they are cited, then those kept apart."""
    docs = [r.doc_id for c in result.summary.claims for p in c.perspectives for r in p.references]
    docs += [a.doc_id for a in documents_apart(result)]
    out: dict[str, str] = {}
    for d in dict.fromkeys(docs):
        place = place_of(result, d)
        if place is not None:
            out[d] = place
    return out


def judged_passages(result: TurnResult, doc_id: str) -> list[PassageHit]:
    """The document's passages as the summarizer judged them: its retrieved passages
    (from every side's hits), in document order (``Pipeline.source_docs``)."""
    found: dict[int, PassageHit] = {}
    for hits in result.hits.values():
        for h in hits:
            if h.doc_id == doc_id:
                for ph in h.passages:
                    if ph.text:
                        found.setdefault(ph.passage_id, ph)
    return sorted(found.values(), key=lambda ph: (ph.start, ph.end))


def _check_answer(result: TurnResult) -> None:
    if result.reply:
        raise InputError("this turn is an answer from the session log: it cites no sides")
    if result.lookup is not None or not result.summary.claims:
        raise InputError("this turn is a ranked list (a lookup): it has no claims to correct")


def make_correction(
    result: TurnResult,
    doc_id: str,
    to: str,
    *,
    created: str = "",
    claims: dict[str, str] | None = None,
) -> Correction:
    """The correction that puts ``doc_id`` ``to`` a claim (``pro``, ``con``) or out of
    the answer (``out``), with the model's judgment of it. :class:`InputError` when the
    turn has no claims, the document is not in the answer, or it is there already
    (``claims`` names the claims in that message; default :data:`CLAIM_NAMES`)."""
    _check_answer(result)
    if to not in PLACES:
        raise InputError(f"cannot move a document to {to!r}", hint="use pro, con or out")
    places = correctable(result)
    if doc_id not in places:
        have = ", ".join(places) or "none"
        raise InputError(
            f"document {doc_id!r} is not in this answer",
            hint=f"the documents it cites or keeps apart: {have}",
        )
    was = places[doc_id]
    if was == to:
        where = "out of the answer" if to == "out" else place_name(to, claims)
        raise InputError(f"document {doc_id!r} is already {where}")
    plan = result.plan
    texts = {c.side: c.claim for c in result.summary.claims}
    hit = _hit(result, doc_id)
    quotes = [
        r.quote
        for c in result.summary.claims
        for p in c.perspectives
        for r in p.references
        if r.doc_id == doc_id and r.quote
    ]
    stance = result.model.get("stance") if isinstance(result.model, dict) else None
    return Correction(
        doc_id=doc_id,
        to=PLACES[PLACES.index(to)],  # the checked name as a Place
        was=was,
        title=hit.title if hit else "",
        question=plan.claims_question(),
        claims=(texts.get("pro", plan.claims[0]), texts.get("con", plan.claims[1])),
        p=list(p) if (p := _probs(result, doc_id)) else None,
        passages=[ph.text for ph in judged_passages(result, doc_id)],
        quotes=list(dict.fromkeys(quotes)),
        stance_model=str(stance.get("sha256", "")) if isinstance(stance, dict) else "",
        created=created or datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )


def _placed_reference(result: TurnResult, doc_id: str) -> Reference:
    """A reference for a document the answer did not cite: the first sentence of its
    best passage (not checked by the verifier: ``check="user"``)."""
    from assistant.summarize.evidence import sentence_spans

    hit = _hit(result, doc_id)
    best = hit.passages[0] if hit and hit.passages else None
    ref = Reference(
        doc_id=doc_id,
        title=hit.title if hit else "",
        source=hit.source if hit else "",
        path=hit.path if hit else "",
        retrieval_score=hit.score if hit else 0.0,
        check="user",
        by_user="placed",
    )
    if best is not None and best.text.strip():
        s, e = (sentence_spans(best.text) or [(0, len(best.text))])[0]
        ref.page, ref.passage_id = best.page, best.passage_id
        ref.quote, ref.quote_start, ref.quote_end = best.text[s:e], s, e
    return ref


def _take(result: TurnResult, doc_id: str, keep_side: str) -> list[Reference]:
    """Remove ``doc_id``'s references from every claim but ``keep_side``'s; return them.
    A perspective left without a reference is dropped."""
    taken: list[Reference] = []
    for claim in result.summary.claims:
        if claim.side == keep_side:
            continue
        for p in claim.perspectives:
            taken += [r for r in p.references if r.doc_id == doc_id]
            p.references = [r for r in p.references if r.doc_id != doc_id]
        claim.perspectives = [p for p in claim.perspectives if p.references]
    return taken


def _put(result: TurnResult, corr: Correction, taken: list[Reference]) -> None:
    """Cite ``corr.doc_id`` under ``corr.to`` with the references it had elsewhere (one
    new perspective: its first quote), unless it is already cited there."""
    claim = next((c for c in result.summary.claims if c.side == corr.to), None)
    if claim is None or any(
        r.doc_id == corr.doc_id for p in claim.perspectives for r in p.references
    ):
        return
    k = SIDES.index(corr.to)
    p = corr.p or _probs(result, corr.doc_id)
    refs: dict[tuple[int, str], Reference] = {}
    for r in taken:
        refs.setdefault((r.passage_id, r.quote), r)
        r.by_user = "moved"
    moved = list(refs.values()) or [_placed_reference(result, corr.doc_id)]
    for r in moved:
        r.stance = round(float(p[k]), 4) if p else None
    text = " ".join(moved[0].quote.split()) or moved[0].title or corr.doc_id
    text = text[:1].upper() + text[1:]  # a perspective is a sentence, as condense() writes it
    claim.perspectives.append(SummaryPerspective(text, moved))


def _rebalance(result: TurnResult, corr: Correction) -> None:
    """The balance report counted again over the same documents, ``corr`` applied."""
    b = result.summary.balance
    d = corr.doc_id
    removed = [x for x in b.removed_doc_ids if x != d] + ([d] if corr.to == "out" else [])
    universe = {
        *b.unused_doc_ids,
        *b.no_side_doc_ids,
        *b.unclear_doc_ids,
        *b.removed_doc_ids,
        d,
        *(r.doc_id for c in result.summary.claims for p in c.perspectives for r in p.references),
    }
    order = [h.doc_id for s in SIDES for h in result.hits.get(s, []) if h.doc_id in universe]
    order += sorted(universe - set(order))
    result.summary.balance = balance_report(
        result.summary,
        order,
        [x for x in b.no_side_doc_ids if x != d],
        [x for x in b.unclear_doc_ids if x != d],
        b.stance_p,
        removed,
    )


def apply_correction(result: TurnResult, corr: Correction) -> TurnResult:
    """A copy of ``result`` with ``corr`` applied and appended to its corrections."""
    _check_answer(result)
    out = TurnResult.from_dict(result.to_dict())
    to: Place = corr.to
    had = {c.side for c in out.summary.claims if c.perspectives}
    taken = _take(out, corr.doc_id, to)
    if to != "out":
        _put(out, corr, taken)
    plan = out.plan
    shown = plan.target_side if plan.intent == "one_sided" and plan.target_side else None
    for claim in out.summary.claims:
        if claim.perspectives and claim.note == NO_EVIDENCE:
            claim.note = ""
        # the claim a one-sided answer leaves out keeps its note saying so
        elif (
            not claim.perspectives
            and (claim.side in had or not claim.note)
            and (shown is None or claim.side == shown)
        ):
            claim.note = NO_EVIDENCE
    _rebalance(out, corr)
    out.corrections.append(Correction.from_dict(corr.to_dict()))
    return out


def place_name(place: str, claims: dict[str, str] | None = None) -> str:
    """Where a document stands, in words: "under Claim A", "among the documents that
    take no side"; ``claims`` names the claims (default :data:`CLAIM_NAMES`)."""
    names = claims or CLAIM_NAMES
    return f"under {names[place]}" if place in names else PLACE_NAMES.get(place, place)


def correction_text(corr: Correction, claims: dict[str, str] | None = None) -> str:
    """``"moved uniforms-09 (Title) under Claim B (it was under Claim A)"``; ``claims``
    names the claims (the export: "the For claim", "the Against claim")."""
    what = corr.doc_id + (f" ({corr.title})" if corr.title else "")
    was = place_name(corr.was, claims)
    if corr.to == "out":
        return f"took {what} out of the answer (it was {was})"
    verb = "moved" if corr.was in (*SIDES, "both") else "placed"
    return f"{verb} {what} {place_name(corr.to, claims)} (it was {was})"
