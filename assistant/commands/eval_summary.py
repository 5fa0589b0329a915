"""The ``sphere eval summary`` command over :mod:`assistant.eval.summary`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.summary import METRICS, run_summary_eval


@click.command("summary")
@click.option("--data", "data", required=True, type=click.Path(dir_okay=False), help="data.jsonl")
@click.option(
    "--corpus", "corpus", required=True, type=click.Path(dir_okay=False), help="doc_new.jsonl"
)
@click.option(
    "--path",
    "path",
    type=click.Choice(["deterministic", "model"]),
    default=None,
    help="only this summary path (default: sphere + both deterministic methods)",
)
@click.option("--hier/--vanilla", "hier", default=None, help="only HierSphere or only vanilla")
@click.option("--limit", type=click.IntRange(1, None), default=None, help="first N questions")
@click.option("--gold-claims", is_flag=True, help="also run sphere with the gold claims t1/t2")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def summary_command(
    ctx: Context,
    data: str,
    corpus: str,
    path: str | None,
    hier: bool | None,
    limit: int | None,
    gold_claims: bool,
    as_json: bool,
) -> None:
    """Two-sided summaries on PerSphere (paper 004): vanilla vs HierSphere, rules vs model."""
    paths = [path] if path else ["deterministic"]
    shapes = (
        ["hiersphere"]
        if hier is True
        else ["vanilla"]
        if hier is False
        else ["vanilla", "hiersphere"]
    )
    methods = [f"{s}_{p}" for p in paths for s in shapes]
    if path is None and hier is None:
        methods = ["sphere", *methods]
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    out = run_summary_eval(
        Path(data),
        Path(corpus),
        settings=ctx.settings,
        methods=methods,
        limit=limit,
        gold_claims=gold_claims,
        progress=say,
    )
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    click.echo(f"{out['n_questions']} questions")
    click.echo(
        f"{'method':26s}" + "".join(f"{m.replace('perspective_', 'p')[:12]:>13s}" for m in METRICS)
    )
    for name, vals in out["methods"].items():
        click.echo(f"{name:26s}" + "".join(f"{vals[m]:13.2f}" for m in METRICS))
