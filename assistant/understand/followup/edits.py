"""What a follow-up makes of the previous plan: the edit, its value, the rule that read it,
and the plan edited accordingly."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.models import Aspect, Constraint, QueryPerspective, QueryPlan, Side
from assistant.understand.followup.words import _content, _stem

EDITS = (
    "new_topic",
    "add_aspect",
    "drop_aspect",
    "add_constraint",
    "one_side",
    "add_perspective",
    "more",
    "explain_ref",
    "compare_refs",
    "drop_ref",
)


class Rule(enum.Enum):
    """The rule that read a turn (docs/ARCHITECTURE.md, "Follow-ups: the rules"). Its
    :attr:`label` is the text the session log keeps, which older logs hold too."""

    FIRST_TURN = enum.auto()
    BAD_INPUT = enum.auto()
    NEW_TOPIC = enum.auto()
    ANNOUNCED = enum.auto()
    REFERENCE = enum.auto()
    REFERENCE_ASKED = enum.auto()
    REFERENCE_COMPARED = enum.auto()
    REFERENCE_CORRECTED = enum.auto()
    MORE = enum.auto()
    ONE_SIDE = enum.auto()
    CONSTRAINTS = enum.auto()
    DROP_FACET = enum.auto()
    GROUP_VIEW = enum.auto()
    FACET = enum.auto()
    RESTATED = enum.auto()
    LEARNED_REQUEST = enum.auto()
    LEARNED_EDIT = enum.auto()
    LEARNED_NEW_TOPIC = enum.auto()
    GUIDED_CONSTRAINT = enum.auto()

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def number(self) -> int:
        """The rule's number in the table (0 for a new topic or a first turn)."""
        head = self.label.split(" ", 1)[0]
        return int(head) if head.isdigit() else 0


_LABELS = {
    Rule.FIRST_TURN: "first turn",
    Rule.BAD_INPUT: "bad input",
    Rule.NEW_TOPIC: "a topic of its own",
    Rule.ANNOUNCED: "a topic of its own (announced)",
    Rule.REFERENCE: "1 reference",
    Rule.REFERENCE_ASKED: "1 reference (the one asked about)",
    Rule.REFERENCE_COMPARED: "1 reference (compared)",
    Rule.REFERENCE_CORRECTED: "1 reference (corrected)",
    Rule.MORE: "2 more",
    Rule.ONE_SIDE: "3 one side",
    Rule.CONSTRAINTS: "4 constraints only",
    Rule.DROP_FACET: "5 drop a facet",
    Rule.GROUP_VIEW: "6 a group's view",
    Rule.FACET: "7 a facet",
    Rule.RESTATED: "7 a facet (the question restated)",
    Rule.LEARNED_REQUEST: "8 turn-kind model",
    Rule.LEARNED_EDIT: "9 turn-kind model",
    Rule.LEARNED_NEW_TOPIC: "9 turn-kind model",
    Rule.GUIDED_CONSTRAINT: "9 constraint by the turn reader",
}


@dataclass
class FollowUp:
    """What a turn makes of the previous plan: the edit, its value, the plan to run."""

    follows: bool
    edit: str
    value: Any = None
    plan: QueryPlan | None = None
    by: Rule = Rule.NEW_TOPIC  # the rule that decided
    changes: list[str] = field(default_factory=list)  # "+ constraint language es"
    note: str = ""  # what the rule's label adds: " (one_side 0.93) by the stance model"

    @property
    def rule(self) -> str:
        """The rule's label as the session log keeps it ("8 turn-kind model (more 0.91)")."""
        return self.by.label + self.note


def _edit(
    previous: QueryPlan,
    edit: str,
    value: Any,
    by: Rule,
    changes: list[str],
    apply: Callable[[QueryPlan], None] | None = None,
    note: str = "",
) -> FollowUp:
    plan = previous.copy()
    if apply is not None:
        apply(plan)
    plan.derivation = f"{edit}: " + "; ".join(changes)
    return FollowUp(True, edit, value, plan=plan, by=by, changes=changes, note=note)


def _page(previous: QueryPlan, side: str, by: Rule = Rule.MORE, note: str = "") -> FollowUp:
    """More of a side's ranking. After a one-sided plan, paging the other side (or both)
    makes that the side the answer shows ("more from the other side" after "just the case
    for": the case against)."""

    def apply(plan: QueryPlan) -> None:
        if previous.intent == "one_sided" and side != previous.target_side:
            if side in ("pro", "con"):
                plan.target_side = side  # type: ignore[assignment]
            else:
                plan.intent, plan.target_side = "two_sided", None

    return _edit(previous, "more", side, by, [f"+ page {side}"], apply, note)


def _one_side(
    previous: QueryPlan, side: Side, by: Rule = Rule.ONE_SIDE, note: str = ""
) -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.intent, plan.target_side = "one_sided", side

    return _edit(previous, "one_side", side, by, [f"+ side {side}"], apply, note)


def _add_perspective(previous: QueryPlan, who: str) -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.perspectives.append(QueryPerspective(text=who, role="entity"))

    return _edit(previous, "add_perspective", who, Rule.GROUP_VIEW, [f"+ perspective {who}"], apply)


def _add_aspect(previous: QueryPlan, x: str) -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.aspects.append(Aspect(text=x))

    return _edit(previous, "add_aspect", x, Rule.FACET, [f"+ aspect {x}"], apply)


def _con(c: Constraint) -> dict[str, Any]:
    return {"dimension": c.dimension, "value": c.value, "negated": c.negated}


def _one_sided(previous: QueryPlan) -> Side | None:
    if previous.intent == "one_sided" and previous.target_side in ("pro", "con"):
        return previous.target_side
    return None


def _other(side: Side) -> Side:
    return "con" if side == "pro" else "pro"


def _without(plan: QueryPlan, stems: set[str]) -> None:
    """The plan's facets without those that share a stem with ``stems``."""
    plan.aspects = [a for a in plan.aspects if not ({_stem(w) for w in _content(a.text)} & stems)]


def _drop(previous: QueryPlan, x: str) -> FollowUp:
    stems = {_stem(w) for w in _content(x)}
    return _edit(
        previous,
        "drop_aspect",
        x,
        Rule.DROP_FACET,
        [f"- aspect {x}"],
        lambda plan: _without(plan, stems),
    )
