"""Question → :class:`~assistant.models.QueryPlan` (DESIGN §2 "understand").

Two paths (DESIGN §5):

* :func:`parse_rules` — deterministic: cue lexicons (``assistant/understand/words/``),
  regular patterns and negation scope give a complete plan with no model:
  perspectives with PIR roles (paper 000 §2), aspects as non-overlapping
  sub-spans (paper 003 §3.1), two opposing claims built from the question's
  own syntax by an English dependency parse (paper 004; :mod:`.claims`),
  InfoSearch constraints (paper 002 §3) and the intent.
* the model (optional) answers only under grammars — a span grammar for the
  perspective phrase and the aspects, a JSON schema for the claims — and its
  answers are validated; :func:`understand` combines the two by the rule the
  evaluation chose (``sphere eval extract`` / ``sphere eval aspects``): the
  rules decide wherever a cue fired; the model's span is used only where the
  rules found no cue and the span carries a viewpoint word.

Text in the question is data: it is never executed as instructions, and the
model sees it only inside a prompt whose answer is constrained to spans of the
question or to a fixed JSON shape.
"""

from __future__ import annotations

from typing import Any

from assistant.errors import CancelledError, InputError, SphereError
from assistant.models import QueryPlan
from assistant.understand.aspects import find_aspects
from assistant.understand.claims import make_claims, negate_statement, persphere_claims
from assistant.understand.constraints import find_constraints
from assistant.understand.intent import decide_intent
from assistant.understand.model import (
    UseLLM,
    _want_model,
    capable_plan,
    combine,
    llm_aspects,
    llm_claims,
    llm_perspective,
)
from assistant.understand.perspectives import classify_perspective, ideology_value
from assistant.understand.rules import parse_rules
from assistant.understand.text import MAX_QUESTION_CHARS, check_question

__all__ = [
    "MAX_QUESTION_CHARS",
    "UseLLM",
    "check_question",
    "classify_perspective",
    "combine",
    "decide_intent",
    "extract_aspects",
    "find_aspects",
    "find_constraints",
    "ideology_value",
    "llm_aspects",
    "llm_claims",
    "llm_perspective",
    "make_claims",
    "negate_statement",
    "parse_rules",
    "persphere_claims",
    "understand",
]


def understand(
    question: object,
    *,
    backend: Any = None,
    embedder: Any = None,
    use_llm: UseLLM = "auto",
) -> QueryPlan:
    """Question → QueryPlan.

    ``use_llm``: ``"never"`` — rules only; ``"auto"`` — a capable model
    (:func:`assistant.llm.capable.is_capable`) plans and the rules validate
    (:func:`capable_plan`); the bundled 135M model is not capable and loses to
    the rules everywhere it was measured (``sphere eval understand``: intent
    31.7 vs 100 on the dev set; ``sphere eval extract``: QA-F1 24.3 vs 75.6), so
    for it ``auto`` is the rules; ``"always"`` — the model proposes a perspective span when no cue
    fired, claims for two-sided questions, and aspects when the rules found
    fewer than two (for a stronger configured model). Any model failure falls
    back to the rules' answer.
    ``embedder`` is accepted for callers that pass one; the rules do not need it.
    """
    del embedder
    plan = parse_rules(question)
    mode = _want_model(use_llm)
    if backend is None or mode == "never":
        return plan
    if mode == "auto":
        from assistant.llm.capable import is_capable  # reads a GGUF header: only with a model

        # a capable model (docs/UNDERSTAND.md; docs/ARCHITECTURE.md "Which language model"):
        # the model plans, the rules validate; the bundled 135M model is not capable and is unused
        return capable_plan(plan, backend) if is_capable(backend) else plan
    try:
        cue_fired = any(p.role != "interpretation" for p in plan.perspectives)
        if not cue_fired and plan.intent != "factual":
            plan = combine(plan, llm_perspective(plan.question, backend))
        if plan.intent == "two_sided":
            claims = llm_claims(plan.root_query, backend)
            if claims:
                plan.claims = claims
                plan.source = "rules+llm"
        if len(plan.aspects) < 2:
            excl = [p.span for p in plan.perspectives if p.span and p.role != "interpretation"]
            aspects = [
                a
                for a in llm_aspects(plan.question, backend)
                if a.span and not any(a.span[0] < s[1] and s[0] < a.span[1] for s in excl)
            ]
            if len(aspects) >= 2:
                plan.aspects = aspects
                plan.source = "rules+llm"
    except CancelledError:
        raise
    except SphereError:
        # unavailable server, bad output, context overflow: the rules' plan stands
        return plan
    return plan


def extract_aspects(query: str) -> list[str]:
    """Aspect texts of ``query`` by the rules (the hook ``assistant.eval.mpr`` looks for)."""
    try:
        return [a.text for a in parse_rules(query).aspects]
    except InputError:
        return []
