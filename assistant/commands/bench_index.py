"""The ``sphere bench index`` command over :mod:`assistant.bench.index`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.bench.index import run_index_bench
from assistant.commands.context import Context, pass_ctx


@click.command("index")
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--text-field", help="record field holding the text")
@click.option("--id-field", help="record field holding the id")
@click.option("--rounds", default=2, show_default=True, type=click.IntRange(1, 20))
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def index_bench_command(
    ctx: Context,
    paths: tuple[str, ...],
    text_field: str | None,
    id_field: str | None,
    rounds: int,
    as_json: bool,
) -> None:
    """Indexing throughput / raw encoder throughput on the same texts (target ≥ 0.9).

    PATHS default to the bundled demo corpus.
    """
    from assistant.demo import demo_corpus_path

    targets = [Path(p) for p in paths] or [demo_corpus_path()]
    result = run_index_bench(
        ctx.settings, targets, text_field=text_field, id_field=id_field, rounds=rounds
    )
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"{result['documents']} documents, {result['passages']} passages\n"
        f"raw encoder : {result['encoder_passages_per_s']:.1f} passages/s "
        f"(median of {rounds}: {result['encoder_seconds']:.2f} s)\n"
        f"index build : {result['index_passages_per_s']:.1f} passages/s, "
        f"{result['index_docs_per_s']:.1f} docs/s ({result['build_seconds']:.2f} s)\n"
        f"ratio       : {result['ratio']:.3f} (target ≥ 0.9)\n"
        f"peak RSS    : {result['peak_rss_mb']:.0f} MB"
    )
