"""F2: choose the index to research in."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class IndexPickerScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, names: list[str], current: str, index_dir: str) -> None:
        super().__init__(classes="prompt")
        self.names = names
        self.current = current
        self.index_dir = index_dir

    def compose(self) -> ComposeResult:
        with Vertical(classes="prompt-box"):
            yield Static(Content.styled("Open an index", "bold"))
            if self.names:
                options = [
                    Option(Content(n + ("  (open)" if n == self.current else "")), id=n)
                    for n in self.names
                ]
                yield OptionList(*options, id="index-list")
            else:
                yield Static(Content(f"No indexes in {self.index_dir}."))
            yield Static(
                Content.styled(
                    f"Indexes live in {self.index_dir}. Build one with: "
                    "sphere index build NAME PATH, or the demo: sphere index demo",
                    "$text-muted",
                ),
                classes="index-hint",
            )

    def on_mount(self) -> None:
        if self.names:
            lst = self.query_one(OptionList)
            if self.current in self.names:
                lst.highlighted = self.names.index(self.current)
            lst.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
