"""The ``sphere bench report`` command over :mod:`assistant.bench.report`."""

from __future__ import annotations

import json

import click

from assistant.bench.report import ASK_QUESTIONS, run_ask_bench
from assistant.commands.context import Context, pass_ctx


@click.command("ask")
@click.option("--index", "index_name", default="demo", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--followup-rounds",
    default=3,
    show_default=True,
    type=click.IntRange(0, 100),
    help="rounds of the follow-up timings (first question, then a constraint and a page; "
    "no language model); 0 skips them",
)
@pass_ctx
def ask_bench_command(ctx: Context, index_name: str, as_json: bool, followup_rounds: int) -> None:
    """End-to-end ``sphere ask`` seconds (model loaded once) on two demo questions, then
    follow-ups that only add a constraint or page a side, against the first answer."""
    result = run_ask_bench(ctx.settings, ASK_QUESTIONS, index_name)
    if followup_rounds:
        from assistant.bench.followup import run_followup_bench

        result["followups"] = run_followup_bench(ctx.settings, index_name, rounds=followup_rounds)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(f"load {result['load_seconds']:.1f} s")
    for r in result["runs"]:
        click.echo(f"{r['seconds']:6.1f} s  {r['question']}")
    click.echo(f"mean {result['mean_seconds']:.1f} s, peak RSS {result['peak_rss_mb']:.0f} MB")
    if "stance_ratio" in result:
        click.echo(
            f"without the stance model {result['mean_seconds_without_stance']:.1f} s "
            f"(with / without {result['stance_ratio']:.2f}, "
            f"+{result['stance_added_seconds']:.2f} s)"
        )
    if "followups" in result:
        from assistant.bench.followup import followup_lines

        for line in followup_lines(result["followups"]):
            click.echo(line)
