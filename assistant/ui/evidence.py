"""The evidence pane's part of the app: what opens in it, and side corrections.

A citation ``[n]``, a lookup's row, or a document the answer keeps apart (takes
no side, side unclear, taken out by you) opens in the pane. From the pane the
user corrects a side (issue 33), keyboard first: with a citation open, ``m``
moves its document under the other claim and ``x`` takes it out of the answer;
with a kept-apart document open, ``a`` / ``b`` place it under Claim A / B and
``x`` takes it out. The answer on screen is drawn again from the corrected turn
(:func:`assistant.summarize.correct.apply_correction`), the session log records
the correction (``SessionStore.add_correction``), and the pane reopens on the
document where it now stands, so a second key undoes the first.
:class:`EvidenceActions` is this part of :class:`~assistant.ui.app.SphereApp`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType

from assistant.errors import SphereError
from assistant.models import SIDES, LookupRow, Reference, TurnResult
from assistant.summarize.correct import (
    ApartDocument,
    apply_correction,
    correction_text,
    make_correction,
)
from assistant.ui.components.answer_view import CitationMarker, ClaimColumn, DocumentMarker
from assistant.ui.components.evidence_pane import EvidencePane
from assistant.ui.components.turn_view import TurnView, error_text
from assistant.ui.format import reference_side
from assistant.ui.messages import (
    CitationFocused,
    CitationSelected,
    DocumentFocused,
    DocumentSelected,
    LookupRowHighlighted,
    LookupRowSelected,
    PassageLoaded,
)

if TYPE_CHECKING:
    from assistant.ui.protocols import ResearchPipeline, SessionLog

CORRECTION_ACTIONS = frozenset({"move_other_claim", "take_out", "place"})
NOTHING_OPEN = (
    "Open a citation (Enter on [n]) or a document listed under the answer first: "
    "then m moves it under the other claim, x takes it out, a / b place it."
)


def copies_from_hits(result: TurnResult, ref: Reference) -> list[str]:
    """Ids of the documents folded into the cited one's hit (the same best passage)."""
    for hits in result.hits.values():
        for hit in hits:
            if hit.doc_id == ref.doc_id:
                return list(hit.copies)
    return []


def best_passage_text(result: TurnResult, doc_id: str) -> str | None:
    """The best passage of a retrieved document, from the hits stored with the turn."""
    for hits in result.hits.values():
        for hit in hits:
            if hit.doc_id == doc_id and hit.passages and hit.passages[0].text:
                return hit.passages[0].text
    return None


def passage_from_hits(result: TurnResult, ref: Reference) -> str | None:
    """The cited passage's text from the retrieval hits stored with the turn."""
    for hits in result.hits.values():
        for hit in hits:
            if hit.doc_id != ref.doc_id:
                continue
            for passage in hit.passages:
                if passage.text and (
                    passage.passage_id == ref.passage_id
                    or (ref.passage_id < 0 and ref.quote and ref.quote in passage.text)
                ):
                    return passage.text
    return None


CORRECTION_BINDINGS = [
    Binding("m", "move_other_claim", "Other claim"),
    Binding("x", "take_out", "Take out"),
    Binding("a", "place('pro')", "Claim A"),
    Binding("b", "place('con')", "Claim B"),
]
# keys the app does not send to the question box while the evidence pane is open
CORRECTION_KEYS = frozenset(b.key for b in CORRECTION_BINDINGS)


class EvidenceActions(App[None]):
    """Opening citations, rows and kept-apart documents; correcting sides."""

    BINDINGS: ClassVar[list[BindingType]] = list(CORRECTION_BINDINGS)

    _turns: dict[int, TurnView]
    _pipeline: ResearchPipeline | None
    store: SessionLog | None

    # ------------------------------------------------------------------ opening

    def on_citation_selected(self, message: CitationSelected) -> None:
        self._show_evidence(message.reference, message.number, message.turn_key)

    def on_citation_focused(self, message: CitationFocused) -> None:
        if self.query_one(EvidencePane).is_open:
            self._show_evidence(message.reference, message.number, message.turn_key)

    def _show_evidence(self, ref: Reference, number: int, turn_key: int) -> None:
        turn = self._turns.get(turn_key)
        passage = passage_from_hits(turn.result, ref) if turn and turn.result else None
        if passage is None and self._pipeline is not None and ref.passage_id >= 0:
            self._fetch_passage(ref, number, turn_key, self._pipeline)
            return
        self._open_reference(ref, number, turn_key, passage)

    def _open_reference(self, ref: Reference, number: int, turn_key: int, text: str | None) -> None:
        turn = self._turns.get(turn_key)
        result = turn.result if turn is not None else None
        self.query_one(EvidencePane).show(
            ref,
            number,
            turn_key,
            text,
            copies_from_hits(result, ref) if result else [],
            reference_side(result.summary, ref) if result else None,
            result.summary.balance.stance_p.get(ref.doc_id) if result else None,
        )
        self._after_evidence_opened()

    @work(thread=True, exclusive=True, exit_on_error=False, group="evidence")
    def _fetch_passage(
        self, ref: Reference, number: int, turn_key: int, pipeline: ResearchPipeline
    ) -> None:
        try:
            text: str | None = pipeline.passage_text(ref.passage_id)
        except Exception:
            text = None
        self.post_message(PassageLoaded(ref, number, turn_key, text))

    def on_passage_loaded(self, message: PassageLoaded) -> None:
        self._open_reference(message.reference, message.number, message.turn_key, message.text)

    def on_lookup_row_selected(self, message: LookupRowSelected) -> None:
        self._show_row(message.row, message.turn_key)

    def on_lookup_row_highlighted(self, message: LookupRowHighlighted) -> None:
        if self.query_one(EvidencePane).is_open:
            self._show_row(message.row, message.turn_key)

    def _show_row(self, row: LookupRow, turn_key: int) -> None:
        turn = self._turns.get(turn_key)
        passage = best_passage_text(turn.result, row.doc_id) if turn and turn.result else None
        self.query_one(EvidencePane).show_row(row, turn_key, passage)
        self._after_evidence_opened()

    def on_document_selected(self, message: DocumentSelected) -> None:
        self._show_document(message.document, message.turn_key)

    def on_document_focused(self, message: DocumentFocused) -> None:
        if self.query_one(EvidencePane).is_open:
            self._show_document(message.document, message.turn_key)

    def _show_document(self, doc: ApartDocument, turn_key: int) -> None:
        turn = self._turns.get(turn_key)
        passage = best_passage_text(turn.result, doc.doc_id) if turn and turn.result else None
        self.query_one(EvidencePane).show_document(doc, turn_key, passage)
        self._after_evidence_opened()

    def _after_evidence_opened(self) -> None:
        self.refresh_bindings()
        # the pane takes room from the conversation: keep the chosen item in sight
        focused = self.focused
        if isinstance(focused, (CitationMarker, DocumentMarker)):
            self.call_after_refresh(focused.scroll_visible, animate=False)

    # ------------------------------------------------------------------ correcting

    def _open_correctable(self) -> tuple[TurnView, str, EvidencePane] | None:
        """The finished two-sided turn whose document the evidence pane shows."""
        pane = self.query_one(EvidencePane)
        doc_id = pane.doc_id
        if not pane.is_open or doc_id is None:
            return None
        turn = self._turns.get(pane.turn_key)
        result = turn.result if turn is not None else None
        if turn is None or result is None or result.reply or result.lookup is not None:
            return None
        return turn, doc_id, pane

    def correction_allowed(self, action: str) -> bool:
        """Whether a correction key applies to what the pane shows (the footer shows
        only those that do)."""
        found = self._open_correctable()
        if found is None:
            return False
        pane = found[2]
        if action == "move_other_claim":
            return pane.reference is not None
        if action == "place":
            return pane.document is not None
        return pane.document is None or pane.document.group != "removed"

    async def action_move_other_claim(self) -> None:
        found = self._open_correctable()
        if found is None or found[2].side not in SIDES:
            said = NOTHING_OPEN if found is None else "It is not cited: a or b places it."
            self.notify(said, severity="warning")
            return
        turn, doc_id, pane = found
        await self.correct(turn, doc_id, "con" if pane.side == "pro" else "pro")

    async def action_take_out(self) -> None:
        found = self._open_correctable()
        if found is None:
            self.notify(NOTHING_OPEN, severity="warning")
            return
        await self.correct(found[0], found[1], "out")

    async def action_place(self, side: str) -> None:
        found = self._open_correctable()
        if found is None:
            self.notify(NOTHING_OPEN, severity="warning")
            return
        await self.correct(found[0], found[1], side)

    async def correct(self, turn: TurnView, doc_id: str, to: str) -> None:
        """Put ``doc_id`` of ``turn`` ``to`` a claim or out; record it; redraw the answer."""
        if turn.result is None:
            return
        try:
            corr = make_correction(turn.result, doc_id, to)
            after = apply_correction(turn.result, corr)
        except SphereError as exc:
            self.notify(exc.message, severity="warning")
            return
        if self.store is not None and turn.turn_id is not None:
            try:
                self.store.add_correction(turn.turn_id, corr)
            except Exception as exc:  # shown, never a traceback; the screen still changes
                self.notify(
                    error_text(exc), title="Could not save this correction", severity="error"
                )
        await turn.show_corrected(after)
        said = correction_text(corr)
        self.notify(said[:1].upper() + said[1:], title="Corrected", timeout=6)
        self._reopen(turn, doc_id, to)

    def _reopen(self, turn: TurnView, doc_id: str, to: str) -> None:
        """Focus the document where it now stands and show it in the pane."""
        for column in turn.query(ClaimColumn):
            if column.claim.side != to:
                continue
            for marker in column.query(CitationMarker):
                if marker.reference.doc_id == doc_id:
                    marker.focus()
                    self._show_evidence(marker.reference, marker.number, turn.turn_key)
                    return
        for item in turn.query(DocumentMarker):
            if item.document.doc_id == doc_id:
                item.focus()
                self._show_document(item.document, turn.turn_key)
                return
        self.query_one(EvidencePane).close()
        self.refresh_bindings()
