"""The two-sided answer: one column per claim, perspectives with citation markers.

Output format of paper 004 (PerSphere): query → two claims → perspectives →
references. Each reference is a focusable ``[n]`` marker; Enter or a click
opens it in the evidence pane.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from assistant.citations import number_references, reference_key
from assistant.models import NO_EVIDENCE, ClaimSummary, Reference, Summary
from assistant.ui.format import SIDE_LABELS, balance_text
from assistant.ui.messages import CitationFocused, CitationSelected


class CitationMarker(Static, can_focus=True):
    """``[n]``: focusable and clickable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open citation", show=False),
        Binding("space", "select", "Open citation", show=False),
    ]

    def __init__(self, reference: Reference, number: int, turn_key: int) -> None:
        classes = "citation" + ("" if reference.verified else " -unverified")
        super().__init__(Content(f"[{number}]"), classes=classes, markup=False)
        self.reference = reference
        self.number = number
        self.turn_key = turn_key
        self.tooltip = reference.title or reference.doc_id

    def action_select(self) -> None:
        self.post_message(CitationSelected(self.reference, self.number, self.turn_key))

    def on_click(self) -> None:
        self.focus()
        self.action_select()

    def on_focus(self) -> None:
        self.post_message(CitationFocused(self.reference, self.number, self.turn_key))


class ClaimColumn(Vertical):
    def __init__(
        self, claim: ClaimSummary, numbers: dict[tuple[str, int], int], turn_key: int
    ) -> None:
        super().__init__(classes=f"claim -{claim.side}")
        self.claim = claim
        self.numbers = numbers
        self.turn_key = turn_key

    def compose(self) -> ComposeResult:
        label = SIDE_LABELS.get(self.claim.side, self.claim.side)
        yield Static(
            Content.assemble((f" {label} ", "reverse"), " ", (self.claim.claim, "bold")),
            classes="claim-title",
        )
        if not self.claim.perspectives:
            yield Static(Content(self.claim.note or NO_EVIDENCE), classes="claim-note")
            return
        for perspective in self.claim.perspectives:
            with Horizontal(classes="perspective"):
                yield Static(Content("• " + perspective.text), classes="perspective-text")
                with Horizontal(classes="markers"):
                    seen: set[int] = set()
                    for ref in perspective.references:
                        n = self.numbers[reference_key(ref)]
                        if n not in seen:
                            seen.add(n)
                            yield CitationMarker(ref, n, self.turn_key)
        if self.claim.note:
            yield Static(Content(self.claim.note), classes="claim-note")


class AnswerView(Vertical):
    def __init__(self, summary: Summary, turn_key: int) -> None:
        super().__init__()
        self.summary = summary
        self.turn_key = turn_key
        self.numbers = number_references(summary)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="columns"):
            for claim in self.summary.claims:
                yield ClaimColumn(claim, self.numbers, self.turn_key)
        yield Static(
            Content.assemble(("Balance  ", "bold"), balance_text(self.summary.balance)),
            classes="balance",
        )
        for note in self.summary.notes:
            yield Static(Content("Note: " + note), classes="summary-note")
