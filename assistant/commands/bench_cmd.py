"""``sphere bench …``: speed and memory benchmarks, reported as ratios.

Each benchmark lives in ``assistant/bench/`` and exposes a click command; add it
to ``SUBCOMMANDS`` here. Timings are reported as ratios to a reference run in
the same process, never asserted in tests.
"""

from __future__ import annotations

import importlib

import click

SUBCOMMANDS: list[tuple[str, str]] = [
    ("assistant.bench.llm", "llm_bench_command"),
    ("assistant.bench.search", "search_bench_command"),
    ("assistant.bench.index", "index_bench_command"),
    ("assistant.bench.scale", "scale_bench_command"),
]


@click.group("bench")
def bench_group() -> None:
    """Measure speed and memory (ratios against a reference run in the same process)."""


for _module, _attr in SUBCOMMANDS:
    bench_group.add_command(getattr(importlib.import_module(_module), _attr))
