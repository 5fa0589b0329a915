"""The ``sphere eval claims`` command over :mod:`assistant.eval.claims`."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.claims import run_claims


@click.command("claims")
@click.option(
    "--data",
    required=True,
    type=click.Path(dir_okay=False),
    help="an understand set (tests/data/understand_dev.jsonl)",
)
@click.option("--limit", type=int, default=None, help="first N questions")
@click.option("--failures", "show_failures", is_flag=True, help="list the claims that fail")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def claims_command(
    ctx: Context, data: str, limit: int | None, show_failures: bool, as_json: bool
) -> None:
    """Are the plans' claims declarative, free of template words, not the question?"""
    report = run_claims(data, limit=limit)
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    click.echo(f"{report['questions']} questions from {data}")
    click.echo(
        f"parser loaded in {report['parser_load_seconds']:.2f} s; the rules' plan "
        f"{report['rules_ms_per_question']:.1f} ms a question"
    )
    cols = ("ok", "declarative", "no_template", "not_repeated", "labelled")
    click.echo(f"{'group':<14}{'n':>5}" + "".join(f"{c:>14}" for c in cols))
    for g, r in report["groups"].items():
        cells = "".join(f"{r[c]:>14.1f}" if r[c] is not None else f"{'–':>14}" for c in cols)
        click.echo(f"{g:<14}{r['n']:>5}" + cells)
    if show_failures:
        for f in report["failures"]:
            click.echo(f"  {f['id']}: {f['question']!r} -> {f['claims'][0]!r} ({f['why'][0]})")
