"""``sphere eval …``: benchmark harnesses over ../shared/data (by path).

Each harness lives in ``assistant/eval/`` as plain functions; its click command is
``assistant/commands/eval_<name>.py``; add it to ``SUBCOMMANDS`` here. All print one
JSON object with ``--json``:
``{"benchmark": …, "methods": {METHOD: {METRIC: value}},
"tasks": {TASK: {METHOD: {METRIC: value}}}}``.
"""

from __future__ import annotations

import importlib

import click

SUBCOMMANDS: list[tuple[str, str]] = [
    ("assistant.commands.eval_pir", "pir_command"),
    ("assistant.commands.eval_persphere", "persphere_command"),
    ("assistant.commands.eval_mpr", "mpr_command"),
    ("assistant.commands.eval_lookup", "lookup_command"),
    ("assistant.commands.eval_instruct", "instruct_command"),
    ("assistant.commands.eval_extract", "extract_command"),
    ("assistant.commands.eval_extract", "aspects_command"),
    ("assistant.commands.eval_summary", "summary_command"),
    ("assistant.commands.eval_stance", "stance_command"),
    ("assistant.commands.eval_demo", "demo_command"),
    ("assistant.commands.eval_understand", "understand_command"),
    ("assistant.commands.eval_claims", "claims_command"),
    ("assistant.commands.eval_conversation", "conversation_command"),
    ("assistant.commands.eval_ingest", "html_command"),
    ("assistant.commands.eval_ingest", "sentences_command"),
    ("assistant.commands.eval_real", "real_command"),
]


@click.group("eval")
def eval_group() -> None:
    """Evaluate on the benchmarks (PIR, PerSphere, Recipe-MPR, …)."""


for _module, _attr in SUBCOMMANDS:
    eval_group.add_command(getattr(importlib.import_module(_module), _attr))
