"""Past sessions: list, open (Enter), rename (r), delete (d), search (type above)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, ListItem, ListView, Static

from assistant.ui.messages import SessionChosen, SessionSearchChanged


@dataclass
class SessionRow:
    session_id: int
    title: str
    meta: str  # "2025-03-14 09:01 · 2 turns · demo" or a search snippet


class SessionItem(ListItem):
    def __init__(self, row: SessionRow, *, current: bool = False) -> None:
        super().__init__(classes="-current" if current else "")
        self.row = row

    def compose(self) -> ComposeResult:
        yield Label(Content(self.row.title or "(untitled)"), classes="session-title")
        yield Label(Content(self.row.meta), classes="session-meta")


class SessionsSidebar(Vertical):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rename", "Rename", show=False),
        Binding("d,delete", "delete", "Delete", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Content.styled("Sessions", "bold"), classes="sidebar-title")
        yield Input(placeholder="Search sessions…", id="session-search")
        yield ListView(id="session-list")
        yield Static(
            Content.styled("⏎ open · r rename · d delete", "$text-muted"),
            classes="sidebar-help",
        )

    async def populate(self, rows: list[SessionRow], current: int | None = None) -> None:
        """Replace the list; the highlight stays on the session it was on, if still there."""
        view = self.query_one(ListView)
        before = self.selected_id()
        await view.clear()
        await view.extend(SessionItem(r, current=r.session_id == current) for r in rows)
        if not rows:
            await view.append(
                ListItem(Label(Content.styled("No sessions yet", "$text-muted")), disabled=True)
            )
            return
        ids = [r.session_id for r in rows]
        view.index = ids.index(before) if before in ids else 0

    def selected_id(self) -> int | None:
        item = self.query_one(ListView).highlighted_child
        return item.row.session_id if isinstance(item, SessionItem) else None

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        event.stop()
        if isinstance(event.item, SessionItem):
            self.post_message(SessionChosen(event.item.row.session_id, "open"))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(SessionSearchChanged(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one(ListView).focus()

    def _chosen(self, action: str) -> None:
        sid = self.selected_id()
        if sid is not None:
            self.post_message(SessionChosen(sid, action))

    def action_rename(self) -> None:
        self._chosen("rename")

    def action_delete(self) -> None:
        self._chosen("delete")
