"""``llm.use: auto`` with a capable model: the model plans, the rules validate."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.errors import BackendUnavailableError
from assistant.understand import parse_rules, understand


class PlanModel:
    """A stand-in for a capable model's answers (control flow only)."""

    capable = True

    def __init__(self, plan: dict[str, Any], claims: dict[str, str] | None = None) -> None:
        self.plan = plan
        self.claims = claims or {"pro": "Yes, it is.", "con": "No, it is not."}
        self.calls: list[str] = []

    def json(self, messages: list[dict[str, str]], schema: dict[str, Any], **_: Any) -> dict:  # type: ignore[type-arg]
        if "intent" in schema.get("properties", {}):
            self.calls.append("plan")
            return self.plan
        self.calls.append("claims")
        return self.claims

    def info(self) -> dict[str, Any]:
        return {"backend": "fake"}


def test_auto_with_a_model_that_is_not_capable_is_the_rules() -> None:
    model = PlanModel({"intent": "factual", "side": "none", "aspects": [], "constraints": []})
    model.capable = False
    q = "nuclear power"
    assert understand(q, backend=model, use_llm="auto").to_dict() == parse_rules(q).to_dict()
    assert model.calls == []


def test_the_model_decides_only_where_the_rules_defaulted() -> None:
    answer = {"intent": "lookup", "side": "none", "aspects": ["solar"], "constraints": []}
    # "urban farming ideas" has no cue: the rules default to two-sided, the model decides
    plan = understand("urban farming ideas solar", backend=PlanModel(answer), use_llm="auto")
    assert plan.intent == "lookup" and plan.source == "rules+llm" and plan.claims == ("", "")
    # "Should …" is a debate by the rules' own cue: the model's intent is not taken
    plan = understand("Should cities ban cars?", backend=PlanModel(answer), use_llm="auto")
    assert plan.intent == "two_sided" and plan.claims == ("Yes, it is.", "No, it is not.")


def test_model_constraints_pass_the_rules_check() -> None:
    answer = {
        "intent": "two_sided",
        "side": "none",
        "aspects": [],
        "constraints": [
            {"dimension": "language", "value": "de", "negated": False},  # valid code
            {"dimension": "source", "value": "reuters", "negated": True},  # not in the question
            {"dimension": "format", "value": "poem", "negated": False},  # not a format
            {"dimension": "keyword", "value": "congestion", "negated": False},  # in the question
        ],
    }
    plan = understand(
        "Should cities ban cars? think of congestion", backend=PlanModel(answer), use_llm="auto"
    )
    got = {(c.dimension, c.value) for c in plan.constraints}
    assert ("language", "de") in got and ("keyword", "congestion") in got
    assert ("source", "reuters") not in got and ("format", "poem") not in got


def test_a_failing_model_leaves_the_rules_plan() -> None:
    class Broken(PlanModel):
        def json(self, *a: Any, **k: Any) -> dict:  # type: ignore[type-arg]
            raise BackendUnavailableError("the server went away")

    q = "Why do critics oppose congestion charges?"
    plan = understand(q, backend=Broken({}), use_llm="auto")
    assert plan.to_dict() == parse_rules(q).to_dict()


@pytest.mark.slow
def test_the_real_model_through_the_capable_path() -> None:
    """The bundled GGUF, really loaded, taken as capable: answers are validated into a plan."""
    from assistant.config import LLMSettings
    from assistant.llm import load_backend

    backend = load_backend(LLMSettings(), cache=False)
    try:
        backend.capable = True  # type: ignore[attr-defined]
        for q in ("cheap hotel in Rome with a garden", "Why do critics oppose congestion charges?"):
            plan = understand(q, backend=backend, use_llm="auto")
            rules = parse_rules(q)
            assert plan.question == q and plan.intent in (
                "two_sided",
                "one_sided",
                "factual",
                "lookup",
            )
            for a in plan.aspects:
                assert a.span and q[a.span[0] : a.span[1]] == a.text  # spans of the question
            if rules.target_side is not None:  # a cue the rules read stays the rules' call
                assert (plan.intent, plan.target_side) == (rules.intent, rules.target_side)
    finally:
        backend.close()
