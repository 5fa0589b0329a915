"""Edit a query plan as YAML and re-run the question with it."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from assistant.errors import InputError
from assistant.models import QueryPlan
from assistant.ui.plan_text import plan_to_text, text_to_plan


class PlanEditorScreen(ModalScreen[QueryPlan | None]):
    """Dismisses with the edited plan ("re-run") or ``None`` (cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "rerun", "Re-run with this plan"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, question: str, plan: QueryPlan) -> None:
        super().__init__()
        self.question = question
        self.plan = plan

    def compose(self) -> ComposeResult:
        with Vertical(id="plan-box"):
            yield Static(
                Content.assemble(("Query plan for  ", "bold"), self.question), id="plan-question"
            )
            yield TextArea(
                plan_to_text(self.plan), id="plan-text", soft_wrap=True, show_line_numbers=False
            )
            yield Static("", id="plan-error")
            with Horizontal(id="plan-buttons"):
                yield Button("Re-run with this plan", variant="primary", id="rerun")
                yield Button("Cancel", id="cancel")

    def action_rerun(self) -> None:
        text = self.query_one(TextArea).text
        try:
            plan = text_to_plan(text, self.plan)
        except InputError as exc:
            self.query_one("#plan-error", Static).update(
                Content.styled(f"Cannot use this plan: {exc.message}", "$error")
            )
            return
        self.dismiss(plan)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rerun":
            self.action_rerun()
        else:
            self.action_cancel()
