"""The ``sphere eval real`` command over :mod:`assistant.eval.real`."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.real import format_report, rescore, run_real_eval


@click.command("real")
@click.option(
    "--data",
    required=True,
    help="a folder with gold.jsonl and pages/ (e.g. ../shared/data/idebate-html)",
)
@click.option(
    "--questions",
    "questions_path",
    default=None,
    help="the questions, one JSON object a line (default: tests/data/real_questions.jsonl)",
)
@click.option(
    "--index-dir",
    default=None,
    help="where the pages' index is built and reused (default: under the cache folder)",
)
@click.option("--limit", type=click.IntRange(1, None), default=None, help="the first N questions")
@click.option(
    "--rescore",
    "rescore_path",
    default=None,
    help="score the answers of a saved --json run again (no index, no questions asked)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def real_command(
    ctx: Context,
    data: str,
    questions_path: str | None,
    index_dir: str | None,
    limit: int | None,
    rescore_path: str | None,
    as_json: bool,
) -> None:
    """Furniture, whole sentences, sides, claims and time of answers on real saved pages."""
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    if rescore_path:
        out = rescore(rescore_path, data)
        click.echo(json.dumps(out, indent=2, ensure_ascii=False) if as_json else format_report(out))
        return
    out = run_real_eval(
        data,
        ctx.settings,
        questions_path=questions_path,
        index_dir=index_dir,
        limit=limit,
        progress=say,
    )
    click.echo(json.dumps(out, indent=2, ensure_ascii=False) if as_json else format_report(out))
