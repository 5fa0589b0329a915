"""The ``sphere bench ask`` command over :mod:`assistant.bench.report`."""

from __future__ import annotations

import json

import click

from assistant.bench.report import ASK_QUESTIONS, ask_lines, run_ask_against, run_ask_bench
from assistant.commands.context import Context, pass_ctx


@click.command("ask")
@click.option("--index", "index_name", default="demo", show_default=True)
@click.option(
    "--against",
    default=None,
    help="a reference index (e.g. demo) asked the same questions in the same run; "
    "reports the ratio of the median seconds",
)
@click.option(
    "--question",
    "questions",
    multiple=True,
    help="a question to time (repeatable; default: the two demo questions)",
)
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
def ask_bench_command(
    ctx: Context,
    index_name: str,
    against: str | None,
    questions: tuple[str, ...],
    as_json: bool,
    followup_rounds: int,
) -> None:
    """End-to-end ``sphere ask`` seconds (model loaded once) on two demo questions (or
    --question), then follow-ups that only add a constraint or page a side, against the
    first answer; with --against, the same questions on a reference index too."""
    asked = [q.strip() for q in questions if q.strip()] or list(ASK_QUESTIONS)
    if questions and len(asked) != len(questions):
        raise click.BadParameter("a question may not be empty", param_hint="--question")
    if against:
        result = run_ask_against(ctx.settings, asked, index_name, against)
    else:
        result = run_ask_bench(ctx.settings, asked, index_name)
    if followup_rounds:
        from assistant.bench.followup import run_followup_bench

        result["followups"] = run_followup_bench(ctx.settings, index_name, rounds=followup_rounds)
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    for line in ask_lines(result):
        click.echo(line)
    if "followups" in result:
        from assistant.bench.followup import followup_lines

        for line in followup_lines(result["followups"]):
            click.echo(line)
