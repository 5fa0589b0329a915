"""The ``sphere eval instruct`` command over :mod:`assistant.eval.instruct`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.instruct import build_items, load_corpus, run_instruct
from assistant.eval.persphere_data import load_queries


@click.command("instruct")
@click.option("--data", "data", required=True, type=click.Path(dir_okay=False), help="data.jsonl")
@click.option(
    "--corpus", "corpus", required=True, type=click.Path(dir_okay=False), help="doc_new.jsonl"
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--show", is_flag=True, help="print the test queries and exit")
@click.option(
    "--ablation", is_flag=True, help="also run sphere without the compliance term in the score"
)
@pass_ctx
def instruct_command(
    ctx: Context, data: str, corpus: str, as_json: bool, show: bool, ablation: bool
) -> None:
    """SICR / WISE (paper 002) of plain retrieval and sphere's constraints on PerSphere."""
    if show:
        items = build_items(load_queries(Path(data)), load_corpus(Path(corpus)))
        for its in items.values():
            for it in its:
                click.echo(json.dumps(it.__dict__, ensure_ascii=False))
        return
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    methods = ("plain", "plain_dense", "sphere") + (("sphere_no_compliance",) if ablation else ())
    out = run_instruct(
        Path(data), Path(corpus), settings=ctx.settings, methods=methods, progress=say
    )
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    keys = ["sicr", "sicr_ref", "wise", "ndcg@10_original", "ndcg@10_instructed"]
    keys.append("ndcg@10_reversed")
    click.echo(f"{'task':9s}{'method':22s}" + "".join(f"{k[:14]:>15s}" for k in keys))
    for task, per in [*out["tasks"].items(), ("average", out["methods"])]:
        for m, vals in per.items():
            click.echo(f"{task:9s}{m:22s}" + "".join(f"{vals[k]:15.2f}" for k in keys))
