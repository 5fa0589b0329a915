"""Small modal prompts: a line of text (rename), a yes/no question (delete)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static


class TextPrompt(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__(classes="prompt")
        self.prompt_title = title
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="prompt-box"):
            yield Static(Content.styled(self.prompt_title, "bold"))
            yield Input(self.value, id="prompt-input")
            yield Static(Content.styled("Enter to save · Esc to cancel", "$text-muted"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmPrompt(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", "No"),
        Binding("y", "answer(True)", "Yes"),
    ]

    def __init__(self, question: str, yes: str = "Delete") -> None:
        super().__init__(classes="prompt")
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="prompt-box"):
            yield Static(Content(self.question))
            with Horizontal(classes="prompt-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button("Keep (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")
