"""The examples the follow-up rules were described with (the old module docstring of
followup.py and docs/ARCHITECTURE.md's rule table), one test row each: the previous
question, the turn, and what the rules alone make of it (edit, value, the rule)."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.understand import parse_rules
from assistant.understand.followup import Rule, asked_about, resolve

UNIFORMS = "Should school uniforms be mandatory?"
ROWS: list[tuple[str, str, str, Any, Rule]] = [
    # 1 a reference number
    (UNIFORMS, "why is [8] under Claim B?", "explain_ref", 8, Rule.REFERENCE),
    (UNIFORMS, "compare [2] and [8]", "compare_refs", [2, 8], Rule.REFERENCE),
    (UNIFORMS, "drop [5]", "drop_ref", 5, Rule.REFERENCE),
    (UNIFORMS, "quita la [3]", "drop_ref", 3, Rule.REFERENCE),
    # a number with a unit is a quantity, not a reference
    (
        UNIFORMS,
        "only articles under 800 words",
        "add_constraint",
        ("length", "<800", False),
        Rule.CONSTRAINTS,
    ),
    # 2 more of the same ranking (both sides after a two-sided plan)
    (UNIFORMS, "show me more", "more", "both", Rule.MORE),
    (UNIFORMS, "más, por favor", "more", "both", Rule.MORE),
    # 3 one side
    (UNIFORMS, "just the case against", "one_side", "con", Rule.ONE_SIDE),
    (UNIFORMS, "nur die Gegenargumente", "one_side", "con", Rule.ONE_SIDE),
    # 4 constraint phrases only
    (
        UNIFORMS,
        "only stuff in Spanish",
        "add_constraint",
        ("language", "es", False),
        Rule.CONSTRAINTS,
    ),
    (UNIFORMS, "nothing from blogs", "add_constraint", ("source", "blog", True), Rule.CONSTRAINTS),
    (UNIFORMS, "spanish only", "add_constraint", ("language", "es", False), Rule.CONSTRAINTS),
    (
        UNIFORMS,
        "no opinion pieces",
        "add_constraint",
        ("source", "opinion pieces", True),
        Rule.CONSTRAINTS,
    ),
    (
        UNIFORMS,
        "anything but spanish",
        "add_constraint",
        ("language", "es", True),
        Rule.CONSTRAINTS,
    ),
    (UNIFORMS, "I can't read German", "add_constraint", ("language", "de", True), Rule.CONSTRAINTS),
    (UNIFORMS, "reuters only", "add_constraint", ("source", "reuters", False), Rule.CONSTRAINTS),
    (
        UNIFORMS,
        "under five hundred words",
        "add_constraint",
        ("length", "<500", False),
        Rule.CONSTRAINTS,
    ),
    (
        UNIFORMS,
        "for ten-year-olds",
        "add_constraint",
        ("audience", "child", False),
        Rule.CONSTRAINTS,
    ),
    # 5 drop a facet
    (UNIFORMS, "forget the cost part", "drop_aspect", "cost", Rule.DROP_FACET),
    # 6 a group's view
    (UNIFORMS, "what do teachers say?", "add_perspective", "teachers", Rule.GROUP_VIEW),
    (UNIFORMS, "qu'en pensent les médecins ?", "add_perspective", "médecins", Rule.GROUP_VIEW),
    (UNIFORMS, "landlords?", "add_perspective", "landlords", Rule.GROUP_VIEW),
    # 7 a facet, and a property of what is wanted
    (UNIFORMS, "focus on animal welfare", "add_aspect", "animal welfare", Rule.FACET),
    (UNIFORMS, "what about the upfront cost?", "add_aspect", "upfront cost", Rule.FACET),
    (UNIFORMS, "how does that affect students?", "add_aspect", "students", Rule.FACET),
    (UNIFORMS, "is it legal though?", "add_aspect", "legal", Rule.FACET),
    (UNIFORMS, "with no ricotta", "add_aspect", "no ricotta", Rule.FACET),
    # a label is taken off; one that announces something new is a new topic
    (
        UNIFORMS,
        "New question: what do psychologists think about it?",
        "add_perspective",
        "psychologists",
        Rule.GROUP_VIEW,
    ),
    (UNIFORMS, "next: vaping bans?", "new_topic", None, Rule.ANNOUNCED),
    # siblings and questions of their own are new topics
    ("Should we tax inheritance?", "what about wealth taxes?", "new_topic", None, Rule.NEW_TOPIC),
    (
        "Should Mexico City ban cars in the centre?",
        "and in Lima?",
        "new_topic",
        None,
        Rule.NEW_TOPIC,
    ),
    ("Should we tax meat?", "tax sugar?", "new_topic", None, Rule.NEW_TOPIC),
    (
        "Should schools teach cursive?",
        "should schools teach coding?",
        "new_topic",
        None,
        Rule.NEW_TOPIC,
    ),
    (
        "Should coal plants be shut down?",
        "what about nuclear power then?",
        "new_topic",
        None,
        Rule.NEW_TOPIC,
    ),
    (UNIFORMS, "And is homeschooling better?", "new_topic", None, Rule.NEW_TOPIC),
    (UNIFORMS, "pros and cons", "new_topic", None, Rule.NEW_TOPIC),
]


def _value(value: Any) -> Any:
    if isinstance(value, dict):
        return (value["dimension"], value["value"], value["negated"])
    return value


@pytest.mark.parametrize(
    ("previous", "turn", "edit", "value", "by"), ROWS, ids=[r[1] for r in ROWS]
)
def test_a_rule_reads_its_example(
    previous: str, turn: str, edit: str, value: Any, by: Rule
) -> None:
    got = resolve(turn, parse_rules(previous))
    assert (got.edit, _value(got.value), got.by) == (edit, value, by)
    assert got.rule == by.label  # the rules alone add nothing to the label


def test_a_turn_after_a_question_about_one_reference() -> None:
    zoos = parse_rules("Should zoos be abolished?")
    asked = asked_about(resolve("why is [5] there?", zoos))
    dropped = resolve("drop it", zoos, None, asked)
    assert (dropped.edit, dropped.value, dropped.by) == ("drop_ref", 5, Rule.REFERENCE_ASKED)
    again = resolve("sorry, I meant 7", zoos, None, asked)
    assert (again.edit, again.value, again.by) == ("explain_ref", 7, Rule.REFERENCE_CORRECTED)
