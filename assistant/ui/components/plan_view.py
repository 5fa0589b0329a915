"""The query plan above an answer (DESIGN §2 "understand"), with an edit button."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from assistant.models import QueryPlan
from assistant.ui.format import plan_lines


class PlanView(Vertical):
    def __init__(self, plan: QueryPlan) -> None:
        super().__init__()
        self.plan = plan

    def compose(self) -> ComposeResult:
        source = {"user": "edited by you", "rules": "rules", "llm": "model"}.get(
            self.plan.source, self.plan.source
        )
        with Horizontal(classes="plan-head"):
            yield Static(
                Content.assemble(("Query plan", "bold"), (f"  ({source})", "$text-muted")),
                classes="plan-title",
            )
            yield Button("Edit plan · re-run", compact=True, classes="edit-plan")
        for label, value in plan_lines(self.plan):
            with Horizontal(classes="plan-row"):
                yield Static(Content(label), classes="plan-label")
                yield Static(Content(value), classes="plan-value")
