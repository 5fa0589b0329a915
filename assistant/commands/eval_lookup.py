"""The ``sphere eval lookup`` command over :mod:`assistant.eval.lookup`."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.lookup import format_report, run_lookup_eval
from assistant.eval.mpr import load_mpr


@click.command("lookup")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(dir_okay=False),
    help="500QA.dev.json (e.g. ../shared/data/recipe-mpr/500QA.dev.json)",
)
@click.option(
    "--limit", type=click.IntRange(1, None), default=None, help="score the first N queries only"
)
@click.option(
    "--reference/--no-reference",
    default=True,
    show_default=True,
    help="also run sphere eval mpr's default for comparison",
)
@click.option("--all-aggregators", is_flag=True, help="also fusion_on with every other aggregator")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def lookup_command(
    ctx: Context,
    data: str,
    limit: int | None,
    reference: bool,
    all_aggregators: bool,
    as_json: bool,
) -> None:
    """MAP@10 / Recall@10 of lookups through understand → plan → retrieval on Recipe-MPR."""
    mpr = load_mpr(data)
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    out = run_lookup_eval(
        mpr,
        ctx.settings,
        limit=limit,
        reference=reference,
        all_aggregators=all_aggregators,
        progress=say,
    )
    click.echo(json.dumps(out, indent=2) if as_json else format_report(out))
