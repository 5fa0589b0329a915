"""``sphere bench …``: speed and memory benchmarks, reported as ratios.

Each benchmark lives in ``assistant/bench/`` and exposes a click command; add it
to ``SUBCOMMANDS`` here. Timings are reported as ratios to a reference run in
the same process, never asserted in tests.
"""

from __future__ import annotations

import importlib

import click

SUBCOMMANDS: list[tuple[str, str]] = [
    ("assistant.commands.bench_llm", "llm_bench_command"),
    ("assistant.commands.bench_search", "search_bench_command"),
    ("assistant.commands.bench_index", "index_bench_command"),
    ("assistant.commands.bench_scale", "scale_bench_command"),
    ("assistant.commands.bench_report", "ask_bench_command"),
    ("assistant.commands.bench_startup", "startup_bench_command"),
]


@click.group("bench", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="print the whole report as JSON")
@click.option("--scale-passages", default=1_000_000, show_default=True, type=click.IntRange(1000))
@click.option("--search-sizes", default="10000,100000", show_default=True)
@click.option("--out", default="bench-results", show_default=True, type=click.Path(file_okay=False))
@click.option(
    "--compare",
    nargs=2,
    type=click.Path(exists=True, dir_okay=False),
    help="compare two saved reports instead of running",
)
@click.pass_context
def bench_group(
    ctx: click.Context,
    as_json: bool,
    scale_passages: int,
    search_sizes: str,
    out: str,
    compare: tuple[str, str] | None,
) -> None:
    """Measure speed and memory (ratios against a reference run in the same process).

    With no subcommand, runs every benchmark, prints a table and saves the JSON
    under --out so two runs can be compared.
    """
    if ctx.invoked_subcommand is not None:
        return
    import json
    from pathlib import Path

    from assistant.bench import report

    if compare:
        a, b = (json.loads(Path(p).read_text(encoding="utf-8")) for p in compare)
        for name, x, y in report.compare(a, b):
            click.echo(f"{name:<48} {x:>10} {y:>10}")
        return
    try:
        sizes = tuple(int(x) for x in search_sizes.split(",") if x.strip())
    except ValueError:
        raise click.BadParameter(
            "comma-separated passage counts", param_hint="--search-sizes"
        ) from None
    result = report.run_all(
        scale_passages=scale_passages,
        search_sizes=sizes,
        say=lambda m: click.echo(f"… {m}", err=True),
        config_path=ctx.obj.config_path,
    )
    path = report.write_result(result, Path(out))
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        for name, value in report.summary_rows(result):
            click.echo(f"{name:<48} {value:>10}")
    click.echo(f"saved {path}", err=True)


for _module, _attr in SUBCOMMANDS:
    bench_group.add_command(getattr(importlib.import_module(_module), _attr))
