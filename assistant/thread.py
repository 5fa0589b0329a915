"""A research session as a thread: follow-ups resolved against the last turn, and
questions about the answer itself answered from the session log (no new search).

Used by ``sphere ask QUESTION --session ID``; the rule that decides whether a turn
has a topic of its own is :mod:`assistant.understand.followup`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from assistant.citations import Cited, cited
from assistant.errors import InputError
from assistant.models import QueryPlan, Summary, TurnResult
from assistant.understand.facet_judge import FacetJudge, shared_judge
from assistant.understand.followup import FollowUp, resolve

# edits that re-run the pass with the edited plan
PLAN_EDITS = ("add_aspect", "drop_aspect", "add_constraint", "one_side", "add_perspective")
# edits answered from the session log
LOG_EDITS = ("explain_ref", "compare_refs")


def _get(refs: dict[int, Cited], n: int) -> Cited:
    if n not in refs:
        have = ", ".join(f"[{k}]" for k in sorted(refs)) or "none"
        raise InputError(f"the last answer has no reference [{n}] (it has {have})")
    return refs[n]


def _describe(c: Cited) -> list[str]:
    r = c.ref
    stance = (
        f"; the stance model gives {r.stance:.2f} that it supports this claim"
        if r.stance is not None
        else ""
    )
    check = (
        f"verified by {r.check}, support {r.support:.2f}"
        if r.verified
        else f"not verified (support {r.support:.2f})"
    )
    by = f" ({r.by_user} here by you)" if r.by_user else ""
    return [
        f"[{c.number}] {r.title or r.doc_id} ({r.doc_id}){' — ' + r.source if r.source else ''}",
        f"  under Claim {'A' if c.side == 'pro' else 'B'}{by}: {c.claim}",
        f"  perspective: {c.perspective}",
        f"  quote: “{r.quote}”",
        f"  {check}; retrieval score {r.retrieval_score:.3f}{stance}",
    ]


def answer_from_log(follow: FollowUp, last: TurnResult) -> str:
    """The text answer to a question about the last answer ("why is [8] there?",
    "compare [2] and [8]")."""
    refs = cited(last)
    if follow.edit == "explain_ref":
        return "\n".join(_describe(_get(refs, int(follow.value))))
    if follow.edit == "compare_refs":
        a, b = (int(x) for x in follow.value)
        return "\n".join([*_describe(_get(refs, a)), "", *_describe(_get(refs, b))])
    raise InputError(f"{follow.edit} is not answered from the log")


def continue_plan(
    question: str,
    last_plan: QueryPlan,
    last_turn_id: int,
    judge: FacetJudge | None = None,
    asked: tuple[str, list[int]] | None = None,
) -> tuple[FollowUp, QueryPlan | None]:
    """The follow-up reading of ``question`` and the plan to run (None: a new topic,
    parsed afresh by the pipeline; or an answer from the log). ``judge``: the embedder's
    reading of a phrase no lexicon knows (default: :func:`shared_judge`); ``asked``: what
    the question about the answer just before asked about (:func:`asked_of`)."""
    follow = resolve(
        question, last_plan, judge if judge is not None else shared_judge(), asked=asked
    )
    if follow.follows and follow.edit in (*PLAN_EDITS, "more") and follow.plan is not None:
        plan = follow.plan
        plan.follows = last_turn_id
        plan.derivation = f"{follow.edit}: " + "; ".join(follow.changes)
        plan.question = question
        return follow, plan
    return follow, None


def thread_of(turns: list[Any], last_id: int) -> list[TurnResult]:
    """The results of the thread ending at turn ``last_id``: it, the turn it follows, …"""
    by_id = {t.id: t for t in turns}
    out: list[TurnResult] = []
    tid: int | None = last_id
    while tid is not None and tid in by_id and len(out) < 1000:
        out.append(by_id[tid].result)
        tid = by_id[tid].result.plan.follows
    return out


def more_skip(thread: list[TurnResult]) -> dict[str, set[str]]:
    """Every document the thread's answers cited, left out of both rankings: "more" pages
    further down, and the summary pools both sides, so nothing cited comes back."""
    cited_ids = {
        r.doc_id
        for result in thread
        for claim in result.summary.claims
        for p in claim.perspectives
        for r in p.references
    }
    return {"pro": set(cited_ids), "con": set(cited_ids)}


def drop_plan(
    follow: FollowUp, last: TurnResult, last_turn_id: int
) -> tuple[QueryPlan, dict[str, set[str]]]:
    """ "drop [5]": the last plan again, with the document behind [5] left out of both
    rankings, so the summary is written again without it."""
    c = _get(cited(last), int(follow.value))
    plan = last.plan.copy()
    plan.follows = last_turn_id
    plan.derivation = f"drop_ref: - reference [{c.number}] {c.ref.doc_id}"
    follow.changes = [f"- reference [{c.number}] {c.ref.doc_id}"]
    return plan, {"pro": {c.ref.doc_id}, "con": {c.ref.doc_id}}


def describe_follow(follow: FollowUp) -> dict[str, Any]:
    return {
        "follows": follow.follows,
        "edit": follow.edit,
        "value": follow.value,
        "rule": follow.rule,
        "changes": follow.changes,
    }


# --------------------------------------------------------------------------- one step


class TurnLike(Protocol):
    """A recorded turn as the session log gives it back (``store.StoredTurn``)."""

    id: int
    result: TurnResult


def plan_diff(old: QueryPlan, new: QueryPlan) -> list[str]:
    """What ``new`` changes in ``old``, one line a change, as the app shows a follow-up's
    plan ("+ constraint language es", "- aspect cost", "~ side con → pro")."""
    out: list[str] = []
    if old.root_query != new.root_query:
        out.append(f"~ topic {old.root_query} → {new.root_query}")
    if old.intent != new.intent:
        out.append(f"~ intent {old.intent} → {new.intent}")
    if old.target_side != new.target_side:
        if old.target_side is None:
            out.append(f"+ side {new.target_side}")
        elif new.target_side is None:
            out.append(f"- side {old.target_side}")
        else:
            out.append(f"~ side {old.target_side} → {new.target_side}")
    if old.claims != new.claims:
        out.append(f"~ claims {new.claims[0]} | {new.claims[1]}")

    def lines(sign: str, a: Iterable[str], b: Iterable[str], what: str) -> None:
        bs = set(b)
        out.extend(f"{sign} {what} {x}" for x in dict.fromkeys(a) if x not in bs)

    def cons(plan: QueryPlan) -> list[str]:
        return [
            f"{c.dimension} {'not ' if c.negated else ''}{c.value}".strip()
            for c in plan.constraints
        ]

    for what, a, b in (
        ("aspect", [x.text for x in old.aspects], [x.text for x in new.aspects]),
        ("constraint", cons(old), cons(new)),
        ("perspective", [p.text for p in old.perspectives], [p.text for p in new.perspectives]),
    ):
        lines("-", a, b, what)
        lines("+", b, a, what)
    return out


@dataclass
class Step:
    """What to do with a typed turn in a session: run a pass (``plan`` None: a new topic,
    parsed afresh) or answer from the log (``reply``)."""

    follow: FollowUp
    follows: int | None = None  # the turn it edits (None: a new topic)
    plan: QueryPlan | None = None
    skip: dict[str, set[str]] | None = None
    reply: str = ""
    changes: list[str] = field(default_factory=list)


def asked_of(turns: Sequence[TurnLike]) -> tuple[str, list[int]] | None:
    """When the last turn was a question about an answer ("why is [5] there?"), its edit
    and reference numbers, so that "drop it" or "sorry, I meant 7" after it find them."""
    if not turns:
        return None
    t = turns[-1]
    if getattr(t, "status", "done") != "done" or not t.result.reply:
        return None
    m = re.match(r"(explain_ref|compare_refs): \[?([\d, ]+)\]?$", t.result.plan.derivation)
    if m is None:
        return None
    return m.group(1), [int(n) for n in re.findall(r"\d+", m.group(2))]


def base_turn(turns: Sequence[TurnLike]) -> TurnLike | None:
    """The turn a follow-up edits: the last one answered with a search (a question about
    an answer is itself answered from the log, so it is skipped)."""
    for t in reversed(turns):
        if getattr(t, "status", "done") == "done" and not t.result.reply:
            return t
    return None


def next_step(question: str, turns: Sequence[TurnLike]) -> Step:
    """Read ``question`` against the session's turns (oldest first) and say what to do.

    The one entry point of ``sphere ask --session`` and the app: the follow-up rule
    (:func:`assistant.understand.followup.resolve`) against the last searched turn, then
    the edit applied (a plan edit, "more" with every cited document skipped, "drop [n]",
    or an answer from the log)."""
    last = base_turn(turns)
    if last is None:
        return Step(resolve(question, None))
    follow, plan = continue_plan(question, last.result.plan, last.id, asked=asked_of(turns))
    if not follow.follows:
        return Step(follow)
    if follow.edit in LOG_EDITS:
        return Step(
            follow, last.id, reply=answer_from_log(follow, last.result), changes=[follow.edit]
        )
    skip = None
    if follow.edit == "drop_ref":
        plan, skip = drop_plan(follow, last.result, last.id)
        plan.question = question
    elif follow.edit == "more":
        skip = more_skip(thread_of(list(turns), last.id))
    if plan is None:
        raise InputError(f"“{question}” cannot be answered as a follow-up of turn {last.id}")
    return Step(follow, last.id, plan=plan, skip=skip, changes=list(follow.changes))


def reply_turn(question: str, step: Step, base: TurnResult) -> TurnResult:
    """The session-log record of an answer from the log: the base plan, marked as following
    its turn, no hits, no claims, the text in ``reply``."""
    plan = base.plan.copy()
    plan.question = question
    plan.follows = step.follows
    plan.derivation = f"{step.follow.edit}: {step.follow.value}"
    return TurnResult(
        question=question,
        plan=plan,
        hits={},
        summary=Summary(question=question, claims=[], notes=[]),
        index=base.index,
        model=dict(base.model),
        reply=step.reply,
    )
