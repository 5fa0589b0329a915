"""``sphere eval …``: benchmark harnesses over ../shared/data (by path).

Each harness lives in ``assistant/eval/`` and exposes a click command; add it to
``SUBCOMMANDS`` here. All print one JSON object with ``--json``:
``{"benchmark": …, "methods": {METHOD: {METRIC: value}},
"tasks": {TASK: {METHOD: {METRIC: value}}}}``.
"""

from __future__ import annotations

import importlib

import click

SUBCOMMANDS: list[tuple[str, str]] = [
    ("assistant.eval.pir", "pir_command"),
    ("assistant.eval.persphere", "persphere_command"),
    ("assistant.eval.mpr", "mpr_command"),
    ("assistant.eval.lookup", "lookup_command"),
    ("assistant.eval.instruct", "instruct_command"),
    ("assistant.eval.extract", "extract_command"),
    ("assistant.eval.extract", "aspects_command"),
    ("assistant.eval.summary", "summary_command"),
    ("assistant.eval.stance", "stance_command"),
    ("assistant.eval.demo", "demo_command"),
    ("assistant.eval.understand", "understand_command"),
    ("assistant.eval.claims", "claims_command"),
    ("assistant.eval.conversation", "conversation_command"),
    ("assistant.eval.ingest", "html_command"),
    ("assistant.eval.ingest", "sentences_command"),
    ("assistant.eval.real", "real_command"),
]


@click.group("eval")
def eval_group() -> None:
    """Evaluate on the benchmarks (PIR, PerSphere, Recipe-MPR, …)."""


for _module, _attr in SUBCOMMANDS:
    eval_group.add_command(getattr(importlib.import_module(_module), _attr))
