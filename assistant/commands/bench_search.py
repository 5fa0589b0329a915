"""The ``sphere bench search`` command over :mod:`assistant.bench.search`."""

from __future__ import annotations

import json

import click

from assistant.bench.search import run_bench
from assistant.commands.context import Context, pass_ctx


@click.command("search")
@click.option(
    "--sizes", default="10000,100000", show_default=True, help="comma-separated passage counts"
)
@click.option("--queries", default=50, show_default=True, type=click.IntRange(2, 10_000))
@click.option("--hnsw", is_flag=True, help="build an approximate (HNSW) index instead of flat")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def search_bench_command(ctx: Context, sizes: str, queries: int, hnsw: bool, as_json: bool) -> None:
    """Latency of plain search, PAP, PAP+, aspect fusion and the sphere retriever (ratios)."""
    from assistant.errors import InputError

    try:
        ns = [int(x) for x in sizes.split(",") if x.strip()]
    except ValueError:
        raise InputError(f"--sizes must be integers separated by commas, not {sizes!r}") from None
    if not ns or min(ns) < 10:
        raise InputError("--sizes needs at least one size of 10 passages or more")
    say = None if as_json else (lambda m: click.echo(f"… {m}", err=True))
    out = run_bench(
        ns, queries=queries, candidates=ctx.settings.retrieval.candidates, hnsw=hnsw, progress=say
    )
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    for n, res in out["sizes"].items():
        click.echo(f"{n} passages ({res['faiss']}, {res['queries']} queries)")
        for name, m in res["methods"].items():
            click.echo(
                f"  {name:14s} p50 {m['p50_ms']:8.2f} ms  p95 {m['p95_ms']:8.2f} ms  "
                f"×{m['ratio_p50']:.2f} / ×{m['ratio_p95']:.2f}"
            )
        click.echo(
            f"  PAP+ re-scored = exact on {res['pap_plus_rescored_identical_pct']}% of queries"
        )
