"""The optional language model: span and JSON answers under grammars, and how they combine."""

from __future__ import annotations

import re
import threading
from typing import Any, Literal

from assistant.errors import CancelledError, InputError, SphereError
from assistant.models import Aspect, Constraint, QueryPerspective, QueryPlan, Side
from assistant.understand.aspects import find_aspects
from assistant.understand.claims import make_claims
from assistant.understand.intent import _AUX_START, _STRONG_DEBATE, decide_intent
from assistant.understand.perspectives import _BOTH_FACETS, _CON, _PRO, classify_perspective
from assistant.understand.rules import _root_text
from assistant.understand.text import check_question
from assistant.understand.values import AUDIENCES, FORMATS, language_code

UseLLM = Literal["auto", "always", "never"] | bool

_MODEL_LOCK = threading.Lock()


def llm_perspective(question: str, backend: Any, *, max_words: int = 24) -> QueryPerspective | None:
    """The model's perspective phrase, constrained to a span of the question (paper 000 A.8)."""
    # llama.cpp's grammar helpers load only when a model answers (start-up time)
    from assistant.llm.grammar import NONE_ANSWER, locate_span, span_grammar
    from assistant.llm.prompts import load_prompts

    prompt = load_prompts().get("perspective_extraction")
    grammar = span_grammar(question, max_words=max_words)
    with _MODEL_LOCK:
        text = backend.grammar_chat(
            prompt.messages(query=question), grammar, max_tokens=prompt.max_tokens * 2
        )
    text = text.strip()
    if not text or text == NONE_ANSWER:
        return None
    span = locate_span(question, text)
    if span is None:
        return None
    role, side = classify_perspective(text)
    return QueryPerspective(text=question[span[0] : span[1]], role=role, side=side, span=span)


def llm_aspects(question: str, backend: Any, *, max_words: int = 8) -> list[Aspect]:
    """The model's aspects, each a span of the question; overlapping ones are dropped."""
    # llama.cpp's grammar helpers load only when a model answers (start-up time)
    from assistant.llm.grammar import locate_span, span_grammar
    from assistant.llm.prompts import load_prompts

    prompt = load_prompts().get("aspect_extraction")
    span_g = span_grammar(question, max_words=max_words, allow_none=False)
    body = span_g.gbnf.replace("root ::= n0\n", "")
    from assistant.llm.base import GrammarSpec  # with the grammar helpers above

    grammar = GrammarSpec(
        gbnf='root ::= n0 (" | " n0)? (" | " n0)? (" | " n0)? (" | " n0)?\n' + body
    )
    with _MODEL_LOCK:
        text = backend.grammar_chat(
            prompt.messages(query=question), grammar, max_tokens=prompt.max_tokens
        )
    out: list[Aspect] = []
    pos = 0
    for part in text.split(" | "):
        span = locate_span(question, part, near=pos)
        if span is None or any(a.span and span[0] < a.span[1] and a.span[0] < span[1] for a in out):
            continue
        out.append(Aspect(text=question[span[0] : span[1]], span=span))
        pos = span[1]
    return sorted(out, key=lambda a: a.span[0] if a.span else 0)


def llm_claims(question: str, backend: Any) -> tuple[str, str] | None:
    from assistant.llm.prompts import load_prompts  # only when a model answers

    prompt = load_prompts().get("claims")
    schema = prompt.schema_for()
    with _MODEL_LOCK:
        data = backend.json(
            prompt.messages(question=question), schema, max_tokens=prompt.max_tokens
        )
    pro, con = str(data["pro"]).strip(), str(data["con"]).strip()
    if not pro or not con or pro.lower() == con.lower():
        return None
    return pro, con


_VIEWPOINT_WORD = re.compile(
    _PRO.pattern + "|" + _CON.pattern + r"|\b(?:perspective|viewpoint|point of view|wing|biased|"
    r"neutral|liberal|conservative|analogy|similar)\b",
    re.I,
)


def combine(rules: QueryPlan, model_perspective: QueryPerspective | None) -> QueryPlan:
    """The 'sphere' rule: keep the rules' perspectives where a cue fired; otherwise take
    the model's span only if it carries a viewpoint word (chosen by ``sphere eval extract``)."""
    cue_fired = any(p.role != "interpretation" for p in rules.perspectives)
    if cue_fired or model_perspective is None:
        return rules
    if not _VIEWPOINT_WORD.search(model_perspective.text):
        return rules
    plan = rules.copy()
    plan.perspectives = [model_perspective]
    span = model_perspective.span or (0, 0)
    plan.root_query = _root_text(
        plan.question, (0, len(plan.question)), [model_perspective], [], False
    )
    plan.intent, plan.target_side = decide_intent(
        plan.question, plan.root_query, plan.perspectives, False
    )
    plan.claims = (
        make_claims(plan.root_query, plan.intent, plan.question)
        if plan.intent != "factual"
        else ("", "")
    )
    plan.aspects = find_aspects(plan.question, (0, len(plan.question)), [span])
    plan.source = "rules+llm"
    return plan


def _want_model(use_llm: UseLLM) -> str:
    if use_llm is True:
        return "always"
    if use_llm is False:
        return "never"
    if use_llm not in ("auto", "always", "never"):
        raise InputError(f"use_llm must be auto, always or never, not {use_llm!r}")
    return str(use_llm)


_DIMENSIONS = ("language", "length", "source", "keyword", "format", "audience")


def llm_plan(question: str, backend: Any) -> QueryPlan:
    """The model's whole plan (intent, side, aspects, constraints) in one JSON answer.

    The answer is constrained by the prompt's JSON schema and then validated:
    aspects that are not spans of the question are dropped, a side is kept
    only for a one-sided intent, and the claims are made from the question by
    the rules (:func:`make_claims`). Model failures raise :class:`SphereError`.
    """
    # llama.cpp's grammar helpers load only when a model answers (start-up time)
    from assistant.llm.grammar import locate_span
    from assistant.llm.prompts import load_prompts

    q = check_question(question)
    prompt = load_prompts().get("question_plan")
    with _MODEL_LOCK:
        data = backend.json(
            prompt.messages(question=q), prompt.schema_for(), max_tokens=prompt.max_tokens
        )
    intent = str(data.get("intent", "two_sided"))
    if intent not in ("two_sided", "one_sided", "factual", "lookup"):
        intent = "two_sided"
    side = str(data.get("side", "none"))
    target: Side | None = side if intent == "one_sided" and side in ("pro", "con") else None  # type: ignore[assignment]
    if intent == "one_sided" and target is None:
        intent = "two_sided"
    aspects: list[Aspect] = []
    for text in data.get("aspects") or []:
        span = locate_span(q, str(text))
        if span and not any(
            a.span and span[0] < a.span[1] and a.span[0] < span[1] for a in aspects
        ):
            aspects.append(Aspect(text=q[span[0] : span[1]], span=span))
    constraints = [
        Constraint(
            str(c["dimension"]),
            str(c["value"]).strip(),
            negated=bool(c.get("negated")),
            hard=str(c["dimension"]) not in ("audience", "format"),
            text=str(c["value"]).strip(),
        )
        for c in data.get("constraints") or []
        if isinstance(c, dict)
        and c.get("dimension") in _DIMENSIONS
        and str(c.get("value", "")).strip()
    ]
    return QueryPlan(
        question=q,
        root_query=q,
        aspects=sorted(aspects, key=lambda a: a.span[0] if a.span else 0),
        claims=make_claims(q, intent) if intent in ("two_sided", "one_sided") else ("", ""),  # type: ignore[arg-type]
        constraints=constraints,
        intent=intent,  # type: ignore[arg-type]
        target_side=target,
        source="llm",
    )


def _valid_constraint(q: str, c: Constraint) -> bool:
    """The rules' check of a constraint the model proposed: a value of the dimension's
    kind, and for sources and keywords, words that are in the question."""

    v = c.value.strip().lower()
    if c.dimension == "language":
        return (len(v) == 2 and v.isalpha()) or language_code(v) is not None
    if c.dimension == "length":
        return bool(re.fullmatch(r"short|long|[<>]\s*\d+", v))
    if c.dimension == "format":
        return v in set(FORMATS.values())
    if c.dimension == "audience":
        return v in set(AUDIENCES.values())
    return bool(v) and all(w in q.lower() for w in re.findall(r"\w+", v))


def _rules_defaulted(plan: QueryPlan) -> bool:
    """True when the rules' intent is their default (two-sided with no cue): nothing in
    the question said debate, side, fact or lookup, so the model may decide."""

    q = plan.question
    return (
        plan.intent == "two_sided"
        and not any(p.role in ("stance", "verdict") for p in plan.perspectives)
        and not _AUX_START.match(q)
        and not _STRONG_DEBATE.search(q)
        and not _BOTH_FACETS.search(q)
    )


def capable_plan(rules: QueryPlan, backend: Any) -> QueryPlan:
    """A capable model's plan, with the rules as validator and fallback.

    The model (:func:`llm_plan`) decides the intent and side only where the rules
    fell back on their default; its constraints are added when they pass the
    rules' check (:func:`_valid_constraint`); its aspects replace the rules' when
    they are spans of the question and at least as many; its claims
    (:func:`llm_claims`) replace the rules' for a debate. Any model failure
    returns the rules' plan.
    """
    try:
        model = llm_plan(rules.question, backend)
        plan = rules.copy()
        took = False
        model_decides = _rules_defaulted(rules) and model.intent != rules.intent
        if model_decides and (model.intent != "lookup" or model.aspects):
            plan.intent, plan.target_side = model.intent, model.target_side
            if plan.intent in ("factual", "lookup"):
                plan.claims = ("", "")
            took = True
        have = {(c.dimension, c.value.lower(), c.negated) for c in plan.constraints}
        for c in model.constraints:
            key = (c.dimension, c.value.lower(), c.negated)
            if key not in have and _valid_constraint(plan.question, c):
                plan.constraints.append(c)
                have.add(key)
                took = True
        if model.aspects and len(model.aspects) >= len(plan.aspects):
            plan.aspects = model.aspects
            took = True
        if plan.intent in ("two_sided", "one_sided"):
            claims = llm_claims(plan.root_query, backend)
            if claims:
                plan.claims = claims
                took = True
        if took:
            plan.source = "rules+llm"
        return plan
    except CancelledError:
        raise
    except SphereError:
        return rules
