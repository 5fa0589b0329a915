"""The answer to a lookup question: a table of ranked documents, one column per aspect.

Columns: rank, title, and for each of the plan's aspects ✓ (a sentence of the
document meets it, verified) or ✗. Enter or a click on a row opens it in the
evidence pane: each aspect with its quote and how it was checked.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import DataTable, Static

from assistant.models import Lookup, LookupRow
from assistant.ui.messages import LookupRowHighlighted, LookupRowSelected

TITLE_WIDTH = 44
MET = Text("✓", style="bold green")
NOT_MET = Text("✗", style="red")


class LookupTable(DataTable[object]):
    """The ranked rows; the row key is the row's rank."""

    focus_label = "results table (Enter opens a row)"  # the footer's "focus: …"
    focus_short = "table"


class LookupView(Vertical):
    def __init__(self, lookup: Lookup, notes: list[str], turn_key: int) -> None:
        super().__init__()
        self.lookup = lookup
        self.notes = notes
        self.turn_key = turn_key
        self._rows = {str(r.rank): r for r in lookup.rows}

    def compose(self) -> ComposeResult:
        yield Static(Content(self.lookup.ranking_text()), classes="lookup-heading")
        if self.lookup.rows:
            yield LookupTable(cursor_type="row", zebra_stripes=True, classes="lookup-table")
        else:
            yield Static(Content("No document in this index matches."), classes="lookup-empty")
        for note in self.notes:
            yield Static(Content("Note: " + note), classes="summary-note")

    def on_mount(self) -> None:
        for table in self.query(LookupTable):
            longest = max(len(r.title or r.doc_id) for r in self.lookup.rows)
            table.add_column("#", key="rank")
            table.add_column("Document", key="title", width=max(8, min(TITLE_WIDTH, longest)))
            for n, aspect in enumerate(self.lookup.aspects):
                table.add_column(aspect, key=f"aspect-{n}")
            for row in self.lookup.rows:
                marks = [MET if m.met else NOT_MET for m in row.aspects]
                table.add_row(str(row.rank), row.title or row.doc_id, *marks, key=str(row.rank))

    def row(self, key: str | None) -> LookupRow | None:
        return self._rows.get(key or "")

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        row = self.row(event.row_key.value)
        if row is not None:
            self.post_message(LookupRowSelected(row, self.turn_key))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        row = self.row(event.row_key.value)
        if row is not None:
            self.post_message(LookupRowHighlighted(row, self.turn_key))
