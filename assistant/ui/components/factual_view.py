"""The answer to a factual question: not a debate, the passages that answer it, ranked.

A heading says it is not a debate; each row is a document (rank, title,
source, page) with the sentence of it that answers the question and a
``[n]`` marker that opens the passage in the evidence pane, as a citation's
does. "Argue both sides" asks the same question again as a debate.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from assistant.locations import shown_location
from assistant.models import AnswerRow, FactualAnswer
from assistant.ui.components.answer_view import CitationMarker
from assistant.ui.messages import TwoSidedRequested


def row_heading(row: AnswerRow) -> str:
    """ "2. Shared MIME-info Database — freedesktop.org, p. 3"."""
    parts = [row.title or row.doc_id]
    source = shown_location(row.source)  # a demo record: "demo corpus, record 13"
    if source and source != parts[0]:
        parts.append(f"— {source}")
    ref = row.reference
    page = f", p. {ref.page}" if ref is not None and ref.page else ""
    return f"{row.rank}. " + " ".join(parts) + page


class FactualView(Vertical):
    def __init__(self, answer: FactualAnswer, notes: list[str], turn_key: int) -> None:
        super().__init__()
        self.answer = answer
        self.notes = notes
        self.turn_key = turn_key

    def compose(self) -> ComposeResult:
        yield Static(
            Content.assemble(("Not a debate  ", "bold"), self.answer.ranking_text()),
            classes="answer-heading",
        )
        if not self.answer.rows:
            yield Static(Content("No document in this index answers it."), classes="answer-empty")
        for row in self.answer.rows:
            with Vertical(classes="answer-row"):
                with Horizontal(classes="answer-title"):
                    yield Static(Content(row_heading(row)), classes="answer-source")
                    if row.reference is not None:
                        yield CitationMarker(row.reference, row.rank, self.turn_key)
                quote = row.reference.quote if row.reference else "(the document has no text)"
                yield Static(Content(f"“{quote}”"), classes="answer-quote")
        for note in self.notes:
            yield Static(Content("Note: " + note), classes="summary-note")
        yield Button("Argue both sides", id=f"two-sided-{self.turn_key}", classes="two-sided")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.has_class("two-sided"):
            event.stop()
            self.post_message(TwoSidedRequested(self.turn_key))
