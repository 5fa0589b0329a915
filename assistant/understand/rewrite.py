"""A follow-up rewritten by a capable model into a standalone question, checked by the rules.

Conversational query rewriting (CANARD, Elgohary et al. 2019): "what about the cost?"
after "Should school uniforms be mandatory?" becomes "Should school uniforms be
mandatory, considering the cost?". With a capable model (a server, or a GGUF of at least
3B parameters; :func:`assistant.llm.capable.is_capable`) the pipeline asks for that
rewrite (prompt ``followup_rewrite``), parses it with the rules
(:func:`assistant.understand.rules.parse_rules`) and accepts it only when the parse
agrees with the rules' own reading of the follow-up (:func:`agrees`):

- the topic is kept: at least half of the previous topic's content words (first five
  letters) are in the rewrite;
- the edit is in it: an added constraint is found again by the rules in the rewrite
  (same dimension, value and negation), an added aspect or perspective's words appear
  in it, a dropped aspect's do not, a side switch is parsed as the same side.

An accepted rewrite gives the plan its standalone topic (``root_query``) for retrieval;
the rules' edited plan keeps its claims, constraints, aspects and side. A rejected one,
or any model failure, leaves the rules' plan, and the derivation says which happened.
"""

from __future__ import annotations

import re
from typing import Any

from assistant.errors import CancelledError, SphereError
from assistant.models import QueryPlan
from assistant.understand.model import _MODEL_LOCK
from assistant.understand.rules import parse_rules
from assistant.understand.text import _words
from assistant.understand.vocab import VOCAB

# edits whose plan the rewrite can state; "more", "drop [n]" and questions about the
# answer do not change the question
REWRITABLE = ("add_aspect", "drop_aspect", "add_constraint", "one_side", "add_perspective")
_SHORT = frozenset(VOCAB.grammar.rewrite_short)


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _words(text) if len(w) > 3 and w not in _SHORT}


def _added(plan: QueryPlan, what: str) -> list[str]:
    """The values a follow-up's derivation records as added (``+ aspect cost``) or
    dropped (``- aspect cost``), with their sign."""
    out = []
    for change in plan.edit_and_changes()[1]:
        m = re.match(rf"([+-]) {what} (.+)", change)
        if m:
            out.append(m.group(1) + m.group(2).strip())
    return out


def agrees(rewrite: str, parsed: QueryPlan, edited: QueryPlan) -> tuple[bool, str]:
    """Whether the rules' parse of ``rewrite`` carries the edit the rules made (``edited``,
    whose derivation names it) and keeps the topic; with the reason when it does not."""
    edit = edited.edit_and_changes()[0]
    topic = _stems(edited.root_query)
    if topic and len(topic & _stems(rewrite)) * 2 < len(topic):
        return False, "the rewrite lost the topic"
    words = _stems(rewrite)
    if edit == "add_constraint":
        have = {(c.dimension, c.value.lower(), c.negated) for c in parsed.constraints}
        for c in edited.constraints:
            if (c.dimension, c.value.lower(), c.negated) not in have:
                return False, f"the rules do not find the constraint {c.dimension} {c.value}"
    elif edit in ("add_aspect", "drop_aspect", "add_perspective"):
        what = "perspective" if edit == "add_perspective" else "aspect"
        for change in _added(edited, what):
            sign, value = change[0], change[1:]
            present = bool(_stems(value)) and _stems(value) <= words
            if (sign == "+") != present:
                return False, f"the rewrite {'lacks' if sign == '+' else 'keeps'} {value}"
    elif edit == "one_side":
        if parsed.intent != "one_sided" or parsed.target_side != edited.target_side:
            return False, f"the rules do not read the side {edited.target_side} in it"
    else:
        return False, f"{edit} is not rewritten"
    return True, ""


def rewrite_followup(edited: QueryPlan, followup: str, backend: Any) -> QueryPlan:
    """``edited`` (the rules' plan of a follow-up) with the model's standalone rewrite of
    ``followup`` when the rules accept it (:func:`agrees`); otherwise ``edited`` with the
    rejection in its derivation. Never raises for a model failure."""
    from assistant.llm.prompts import load_prompts  # only with a capable model

    edit = edited.edit_and_changes()[0]
    if edit not in REWRITABLE:
        return edited
    plan = edited.copy()
    prompt = load_prompts().get("followup_rewrite")
    try:
        with _MODEL_LOCK:
            data = backend.json(
                prompt.messages(previous=edited.root_query, followup=followup),
                prompt.schema_for(),
                max_tokens=prompt.max_tokens,
            )
        rewrite = " ".join(str(data.get("question") or "").split())
        if not rewrite:
            raise SphereError("the model gave an empty rewrite")
        parsed = parse_rules(rewrite)
    except CancelledError:
        raise
    except SphereError as exc:
        plan.derivation += f"; no rewrite ({exc.message})"
        return plan
    ok, why = agrees(rewrite, parsed, edited)
    if not ok:
        plan.derivation += f"; model's rewrite “{rewrite}” rejected: {why}"
        return plan
    plan.root_query = parsed.root_query or plan.root_query
    plan.source = "rules+llm"
    plan.derivation += f"; rewritten by the model: {rewrite}"
    return plan
