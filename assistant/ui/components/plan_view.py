"""The query plan above an answer (DESIGN §2 "understand"), with an edit button; for a
follow-up, first what it changed in the plan of the turn it follows."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from assistant.models import QueryPlan
from assistant.ui.format import follow_up_lines, plan_lines


class FollowUpView(Vertical):
    """ "Follows turn 3" and the plan's diff against that turn's ("+ constraint language es")."""

    def __init__(
        self, plan: QueryPlan, previous: QueryPlan | None, number: int | None = None
    ) -> None:
        super().__init__()
        self.plan = plan
        self.previous = previous
        self.number = number  # the followed turn's place in the session

    def compose(self) -> ComposeResult:
        head, changes = follow_up_lines(self.plan, self.previous, self.number)
        yield Static(
            Content.assemble(
                (head, "bold $accent"),
                ("  · not a follow-up? Ctrl+T asks it as a new topic", "$text-muted"),
            ),
            classes="follow-head",
        )
        for line in changes:
            style = "$success" if line.startswith("+") else "$error" if line[:1] == "-" else ""
            yield Static(Content.assemble(("  " + line, style)), classes="follow-change")


class PlanView(Vertical):
    def __init__(
        self, plan: QueryPlan, previous: QueryPlan | None = None, number: int | None = None
    ) -> None:
        super().__init__()
        self.plan = plan
        self.previous = previous
        self.number = number

    def compose(self) -> ComposeResult:
        source = {"user": "edited by you", "rules": "rules", "llm": "model"}.get(
            self.plan.source, self.plan.source
        )
        if self.plan.follows is not None:
            yield FollowUpView(self.plan, self.previous, self.number)
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
