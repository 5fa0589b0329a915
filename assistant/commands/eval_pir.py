"""The ``sphere eval pir`` command over :mod:`assistant.eval.pir`."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.pir import METHODS, format_table, load_pir, run_pir


@click.command("pir")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(dir_okay=False),
    help="demo_pir_dataset.json (e.g. ../shared/data/pir/demo_pir_dataset.json)",
)
@click.option("--k", "k", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option(
    "--method",
    "methods",
    multiple=True,
    type=click.Choice(list(METHODS)),
    help="only these methods (repeatable; default: all)",
)
@click.option(
    "--loto",
    is_flag=True,
    help="also sphere_loto: the margin weight chosen on the other tasks (leave-one-task-out)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def pir_command(
    ctx: Context, data: str, k: int, methods: tuple[str, ...], loto: bool, as_json: bool
) -> None:
    """p-Recall@k on the PIR demo set (paper 000) for cosine, PAP, baselines and sphere."""
    tasks = load_pir(data)
    if loto and len(tasks) < 2:
        raise click.UsageError("--loto chooses on the other tasks: the file needs two or more")
    from assistant.embed import embedder_from_settings

    s = ctx.settings.resolved()
    embedder = embedder_from_settings(s)
    report = run_pir(tasks, embedder, s.cache_dir, k, list(methods) or None, loto)
    click.echo(json.dumps(report) if as_json else format_table(report))
