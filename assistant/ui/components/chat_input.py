"""The question box: an Input with shell-like history on Up/Down."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input


class ChatInput(Input):
    focus_label = "question box"  # the footer's "focus: …"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history_previous", "Previous question", show=False),
        Binding("down", "history_next", "Next question", show=False),
    ]

    def __init__(self, *, history: list[str] | None = None, **kwargs: object) -> None:
        # focus comes back here with keys typed elsewhere (SphereApp.on_key): selecting
        # the text on focus would let the next key replace the key just inserted
        kwargs.setdefault("select_on_focus", False)
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.history: list[str] = list(history or [])
        self._position: int | None = None  # index into history while browsing
        self._draft = ""

    def remember(self, question: str) -> None:
        """Add a question to the history (no consecutive duplicates)."""
        if question and (not self.history or self.history[-1] != question):
            self.history.append(question)
        self._position = None

    def set_history(self, questions: list[str]) -> None:
        self.history = []
        for q in questions:
            self.remember(q)

    def _show(self, text: str) -> None:
        self.value = text
        self.cursor_position = len(text)

    def action_history_previous(self) -> None:
        if not self.history:
            return
        if self._position is None:
            self._draft = self.value
            self._position = len(self.history)
        self._position = max(self._position - 1, 0)
        self._show(self.history[self._position])

    def action_history_next(self) -> None:
        if self._position is None:
            return
        self._position += 1
        if self._position >= len(self.history):
            self._position = None
            self._show(self._draft)
        else:
            self._show(self.history[self._position])
