"""A capable model rewrites a follow-up into a standalone question; the rules check it
(assistant/understand/rewrite.py)."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.errors import BackendUnavailableError
from assistant.thread import continue_plan
from assistant.understand import parse_rules
from assistant.understand.rewrite import agrees, rewrite_followup

FIRST = "Should school uniforms be mandatory?"


def _edited(followup: str) -> Any:
    follow, plan = continue_plan(followup, parse_rules(FIRST), 1)
    assert follow.follows and plan is not None
    return plan


class Rewriter:
    """A stand-in for a capable model's rewrite (control flow only)."""

    def __init__(self, answer: str | Exception) -> None:
        self.answer = answer
        self.prompts: list[str] = []

    def json(self, messages: list[dict[str, str]], schema: dict[str, Any], **_: Any) -> dict:  # type: ignore[type-arg]
        self.prompts.append(messages[-1]["content"])
        if isinstance(self.answer, Exception):
            raise self.answer
        return {"question": self.answer}


@pytest.mark.parametrize(
    ("followup", "rewrite", "ok"),
    [
        (
            "only documents in Spanish",
            "Should school uniforms be mandatory? Only documents in Spanish.",
            True,
        ),
        ("only documents in Spanish", "Should school uniforms be mandatory?", False),  # edit lost
        (
            "only documents in Spanish",
            "Is nuclear power safe? Only documents in Spanish.",
            False,
        ),  # topic lost
        ("what about the cost?", "What do mandatory school uniforms cost families?", True),
        ("what about the cost?", "Are mandatory school uniforms fair?", False),
        (
            "just the case against",
            "What are the arguments against mandatory school uniforms?",
            True,
        ),
        ("just the case against", "What are the arguments for mandatory school uniforms?", False),
        ("what do teachers say?", "What do teachers say about mandatory school uniforms?", True),
    ],
)
def test_the_rules_accept_a_rewrite_only_with_the_edit_and_the_topic(
    followup: str, rewrite: str, ok: bool
) -> None:
    edited = _edited(followup)
    accepted, why = agrees(rewrite, parse_rules(rewrite), edited)
    assert accepted is ok, why
    assert bool(why) is not ok


def test_an_accepted_rewrite_gives_the_standalone_topic_and_keeps_the_edit() -> None:
    edited = _edited("what about the cost?")
    model = Rewriter("What do mandatory school uniforms cost families?")
    plan = rewrite_followup(edited, "what about the cost?", model)
    assert "Previous question: Should school uniforms be mandatory?" in model.prompts[0]
    assert "Follow-up: what about the cost?" in model.prompts[0]
    assert plan.root_query != edited.root_query and "cost" in plan.root_query.lower()
    assert plan.source == "rules+llm" and "rewritten by the model" in plan.derivation
    assert [a.text for a in plan.aspects] == [a.text for a in edited.aspects]
    assert plan.claims == edited.claims and plan.follows == 1


def test_a_rejected_rewrite_or_a_failing_model_leaves_the_rules_plan() -> None:
    edited = _edited("only documents in Spanish")
    plan = rewrite_followup(edited, "only documents in Spanish", Rewriter("Tell me a joke."))
    assert plan.root_query == edited.root_query and "rejected" in plan.derivation
    assert plan.constraints == edited.constraints
    down = rewrite_followup(
        edited, "only documents in Spanish", Rewriter(BackendUnavailableError("server down"))
    )
    assert down.root_query == edited.root_query and "no rewrite (server down)" in down.derivation
    # "more" does not change the question: the model is not asked
    _, more = continue_plan("show me more", parse_rules(FIRST), 1)
    model = Rewriter("unused")
    assert rewrite_followup(more, "show me more", model) is more and model.prompts == []  # type: ignore[arg-type]


def test_the_real_model_rewrites_through_the_check() -> None:
    """The bundled GGUF, really loaded and taken as capable: whatever it writes, the plan
    that comes out carries the rules' edit, and the derivation says what happened."""
    from assistant.config import LLMSettings
    from assistant.llm import load_backend

    backend = load_backend(LLMSettings(), cache=False)
    try:
        backend.capable = True  # type: ignore[attr-defined]
        for followup in ("only documents in Spanish", "what about the cost?"):
            edited = _edited(followup)
            plan = rewrite_followup(edited, followup, backend)
            assert plan.constraints == edited.constraints and plan.aspects == edited.aspects
            assert plan.claims == edited.claims and plan.follows == 1
            assert ("rewritten by the model" in plan.derivation) != (
                "rejected" in plan.derivation or "no rewrite" in plan.derivation
            )
    finally:
        backend.close()
