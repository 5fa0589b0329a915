"""The two-sided answer: one column per claim, perspectives with citation markers.

Output format of paper 004 (PerSphere): query → two claims → perspectives →
references. Each reference is a focusable ``[n]`` marker; Enter or a click
opens it in the evidence pane. Below the balance, the summarized documents the
answer does not cite, by why (takes no side, side unclear, taken out by you),
each with the stance model's probabilities and openable the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from assistant.citations import number_references, reference_key
from assistant.models import NO_EVIDENCE, ClaimSummary, Reference, Summary
from assistant.summarize.balance import probabilities_text
from assistant.summarize.correct import GROUP_TITLES, GROUP_WHY, GROUPS, ApartDocument
from assistant.ui.format import SIDE_LABELS, balance_text
from assistant.ui.messages import (
    CitationFocused,
    CitationSelected,
    DocumentFocused,
    DocumentSelected,
)


class CitationMarker(Static, can_focus=True):
    """``[n]``: focusable and clickable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open citation", show=False),
        Binding("space", "select", "Open citation", show=False),
    ]

    def __init__(self, reference: Reference, number: int, turn_key: int) -> None:
        classes = "citation" + ("" if reference.verified else " -unverified")
        if reference.by_user:
            classes += " -by-user"
        super().__init__(Content(f"[{number}]"), classes=classes, markup=False)
        self.reference = reference
        self.number = number
        self.turn_key = turn_key
        by = f" ({reference.by_user} here by you)" if reference.by_user else ""
        self.tooltip = (reference.title or reference.doc_id) + by

    @property
    def focus_label(self) -> str:  # the footer's "focus: …"
        return f"citation [{self.number}] (Enter opens)"

    @property
    def focus_short(self) -> str:
        return f"[{self.number}]"

    def action_select(self) -> None:
        self.post_message(CitationSelected(self.reference, self.number, self.turn_key))

    def on_click(self) -> None:
        self.focus()
        self.action_select()

    def on_focus(self) -> None:
        self.post_message(CitationFocused(self.reference, self.number, self.turn_key))


class DocumentMarker(Static, can_focus=True):
    """A document the answer keeps apart, with its probabilities: focusable and
    clickable (the evidence pane shows it, and a/b place it under a claim)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Open document", show=False),
        Binding("space", "select", "Open document", show=False),
    ]

    def __init__(self, document: ApartDocument, turn_key: int) -> None:
        said = probabilities_text(document.p)
        super().__init__(
            Content.assemble(
                "▸ ",
                (document.title or document.doc_id, "bold"),
                (f"  {said}" if said else "", "$text-muted"),
            ),
            classes=f"apart-document -{document.group}",
            markup=False,
        )
        self.document = document
        self.turn_key = turn_key

    @property
    def focus_label(self) -> str:  # the footer's "focus: …"
        return "a document not cited (Enter opens)"

    @property
    def focus_short(self) -> str:
        return "not cited"

    def action_select(self) -> None:
        self.post_message(DocumentSelected(self.document, self.turn_key))

    def on_click(self) -> None:
        self.focus()
        self.action_select()

    def on_focus(self) -> None:
        self.post_message(DocumentFocused(self.document, self.turn_key))


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
            by = {r.by_user for r in perspective.references}
            mark = f"  ({by.pop()} by you)" if len(by) == 1 and "" not in by else ""
            with Horizontal(classes="perspective"):
                yield Static(
                    Content.assemble("• " + perspective.text, (mark, "italic $text-muted")),
                    classes="perspective-text",
                )
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
    def __init__(
        self, summary: Summary, turn_key: int, apart: Sequence[ApartDocument] = ()
    ) -> None:
        super().__init__()
        self.summary = summary
        self.turn_key = turn_key
        self.numbers = number_references(summary)
        self.apart = list(apart)

    def compose(self) -> ComposeResult:
        with Horizontal(classes="columns"):
            for claim in self.summary.claims:
                yield ClaimColumn(claim, self.numbers, self.turn_key)
        yield Static(
            Content.assemble(("Balance  ", "bold"), balance_text(self.summary.balance)),
            classes="balance",
        )
        for group in GROUPS:
            docs = [d for d in self.apart if d.group == group]
            if not docs:
                continue
            yield Static(
                Content.assemble(
                    (f"{GROUP_TITLES[group]} ({len(docs)})", "bold"),
                    (f"  {GROUP_WHY[group]}", "$text-muted"),
                ),
                classes="apart-title",
            )
            for d in docs:
                yield DocumentMarker(d, self.turn_key)
        for note in self.summary.notes:
            yield Static(Content("Note: " + note), classes="summary-note")
