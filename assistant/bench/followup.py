"""Follow-up timings for ``sphere bench ask``: how long a follow-up that only edits the
plan takes, against the first question's full answer, in one process with the pipeline
loaded (the app's situation; ``sphere ask --session`` also loads the pipeline first).

Per round, on a pipeline that loads no language model: the stance model's cache and the
pipeline's sentence cache are cleared, the first question is answered in full, then
each follow-up is read against that first turn (:func:`assistant.thread.next_step`,
what ``sphere ask --session`` and the app do) and run with the step's plan and skip
list (``Pipeline.run(question, plan=step.plan, skip=step.skip)``). Each follow-up
keeps whatever the first answer left in the caches, as it would in a session.

A follow-up's ``seconds`` include reading it (``next_step``); its other figures
(stage timings, references cited, time in the stance model and texts it judged) are
the last round's.

The issue's target: a follow-up that only adds a constraint or pages a side answers
in under a second on the demo index (no model). Nothing here asserts it: the figures
are reported with the machine's load average, since a loaded machine is slower. What
a follow-up costs is mostly the stance model on documents the first answer did not
judge; the documents it did judge come from the stance model's cache, because a
follow-up's claims are read with the thread's question
(:meth:`~assistant.models.QueryPlan.claims_question`), not with the follow-up's words.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from assistant.errors import SphereError
from assistant.models import Side

FIRST_QUESTION = "Should school uniforms be mandatory?"
# (question, the edit next_step must read in it, label)
FOLLOW_UPS: tuple[tuple[str, str, str], ...] = (
    ("only documents in Spanish", "add_constraint", "constraint"),
    ("show me more", "more", "page"),
)
TARGET_SECONDS = 1.0


@dataclass
class _Turn:
    """What :func:`assistant.thread.next_step` reads of a recorded turn."""

    id: int
    result: Any
    status: str = "done"


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_followup_bench(
    settings: Any,
    index: str = "demo",
    *,
    first: str = FIRST_QUESTION,
    follow_ups: Sequence[tuple[str, str, str]] = FOLLOW_UPS,
    rounds: int = 3,
) -> dict[str, Any]:
    """Seconds of the first question and of each follow-up (median over ``rounds``),
    each follow-up's ratio to the first, the load average before and after."""
    from assistant.pipeline import Pipeline
    from assistant.thread import next_step

    no_llm = settings.model_copy(update={"llm": settings.llm.model_copy(update={"use": "never"})})
    load_before = _load()
    t = time.perf_counter()
    pipe = Pipeline.from_settings(no_llm, index)
    load_seconds = time.perf_counter() - t
    stance = pipe.stance
    first_runs: list[float] = []
    runs: dict[str, list[float]] = {q: [] for q, _e, _l in follow_ups}
    last: dict[str, dict[str, Any]] = {}
    first_timings: dict[str, float] = {}
    try:
        for _ in range(rounds):
            if stance is not None:
                stance.clear_cache()
            pipe._sentence_cache.clear()
            t = time.perf_counter()
            result = pipe.run(first)
            first_runs.append(time.perf_counter() - t)
            first_timings = result.timings
            turns = [_Turn(1, result)]
            for question, edit, label in follow_ups:
                spent = stance.seconds if stance is not None else 0.0
                judged = stance.judged if stance is not None else 0
                t = time.perf_counter()
                step = next_step(question, turns)
                step_s = time.perf_counter() - t
                if step.plan is None or step.follow.edit != edit:
                    raise SphereError(
                        f"bench: “{question}” was read as {step.follow.edit}, not {edit}"
                    )
                skip = cast("dict[Side, set[str]] | None", step.skip)  # next_step's keys are sides
                answer = pipe.run(question, plan=step.plan, skip=skip)
                runs[question].append(time.perf_counter() - t)
                last[question] = {
                    "label": label,
                    "edit": edit,
                    "changes": list(step.changes),
                    "next_step_seconds": round(step_s, 4),
                    "timings": answer.timings,
                    "cited": sum(
                        len(p.references) for c in answer.summary.claims for p in c.perspectives
                    ),
                    "stance_seconds": round(stance.seconds - spent, 4) if stance else 0.0,
                    "stance_texts_judged": (stance.judged - judged) if stance else 0,
                }
    finally:
        pipe.close()
    first_s = statistics.median(first_runs)
    steps = []
    for question, _edit, _label in follow_ups:
        s = statistics.median(runs[question])
        steps.append(
            {
                "question": question,
                **last[question],
                "seconds": round(s, 4),
                "runs": [round(x, 4) for x in runs[question]],
                "ratio_to_first": round(s / max(first_s, 1e-9), 3),
                "under_target": s < TARGET_SECONDS,
            }
        )
    return {
        "index": index,
        "llm": "never",
        "stance": "off" if stance is None else "on",
        "rounds": rounds,
        "load_seconds": round(load_seconds, 3),
        "first": {
            "question": first,
            "seconds": round(first_s, 4),
            "runs": [round(x, 4) for x in first_runs],
            "timings": first_timings,
        },
        "followups": steps,
        "target_seconds": TARGET_SECONDS,
        "load_average_before": load_before,
        "load_average_after": _load(),
        "cores": os.cpu_count(),
    }


def followup_lines(r: dict[str, Any]) -> list[str]:
    """The text report of :func:`run_followup_bench`."""
    la = " ".join(f"{x:.2f}" for x in r["load_average_after"])
    lines = [
        f"follow-ups on {r['index']} (no language model, stance model {r['stance']}, "
        f"pipeline loaded; median of {r['rounds']}; load average {la} on {r['cores']} cores):",
        f"  {r['first']['seconds']:6.2f} s          first question: {r['first']['question']}",
    ]
    for s in r["followups"]:
        mark = "" if s["under_target"] else f"  (above the {r['target_seconds']:.0f} s target)"
        lines.append(
            f"  {s['seconds']:6.2f} s  ×{s['ratio_to_first']:.2f}  "
            f"{s['label']}: {s['question']} ({'; '.join(s['changes'])}){mark}"
        )
    return lines
