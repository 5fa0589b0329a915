"""The ``sphere eval demo`` command over :mod:`assistant.eval.demo`."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.eval.demo import QUESTIONS, run_demo_eval


@click.command("demo")
@click.option(
    "--index",
    "index_name",
    default="demo",
    show_default=True,
    help="an index built from the demo corpus (`sphere index demo`)",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def demo_command(ctx: Context, index_name: str, as_json: bool) -> None:
    """The four demo questions: each cited document's side against its record's side."""
    if not index_name.strip():
        raise InputError("--index is empty")
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    out = run_demo_eval(ctx.settings, index_name, progress=say)
    if as_json:
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for topic, question in QUESTIONS:
        click.echo(f"\n{question}")
        for method, rows in out["answers"].get(topic, {}).items():
            click.echo(f"  [{method}] {out['tasks'][topic][method]}")
            for r in rows:
                mark = "ok" if r["cited_under"] == r["record"] else "--"
                p = f" {r['stance']:.2f}" if r["stance"] is not None else ""
                click.echo(
                    f"    {mark} {r['doc_id']:18s} under {r['cited_under']:8s}"
                    f" record {r['record']:8s}{p}  {r['title']}"
                )
    click.echo("")
    for method, vals in out["methods"].items():
        click.echo(f"{method:14s} {vals}")
