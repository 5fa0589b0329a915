"""The ``sphere eval persphere`` command over :mod:`assistant.eval.persphere`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.persphere import run_persphere


@click.command("persphere")
@click.option("--data", "data", required=True, type=click.Path(dir_okay=False), help="data.jsonl")
@click.option(
    "--corpus", "corpus", required=True, type=click.Path(dir_okay=False), help="doc_new.jsonl"
)
@click.option("--k", "ks", multiple=True, type=click.IntRange(1, 1000), default=(10, 20))
@click.option("--cv", is_flag=True, help="also cross-validate the sphere parameters (2 folds)")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def persphere_command(
    ctx: Context, data: str, corpus: str, ks: tuple[int, ...], cv: bool, as_json: bool
) -> None:
    """Recall@k and Cover@k on PerSphere (paper 004) for bm25, dense, hybrid and sphere."""
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    out = run_persphere(
        Path(data), Path(corpus), ks=sorted(set(ks)), settings=ctx.settings, cv=cv, progress=say
    )
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    metrics = list(next(iter(out["methods"].values())).keys())
    click.echo(f"{'method':24s}" + "".join(f"{m:>11s}" for m in metrics))
    for name, vals in out["methods"].items():
        click.echo(f"{name:24s}" + "".join(f"{vals[m]:11.2f}" for m in metrics))
