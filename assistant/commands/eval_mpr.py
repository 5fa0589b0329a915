"""The ``sphere eval mpr`` command over :mod:`assistant.eval.mpr`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click
import numpy as np

from assistant.commands.context import Context, pass_ctx
from assistant.eval.mpr import (
    DISTRIBUTIONS,
    K_I,
    TABLE_K_R,
    MPRRun,
    _percentless,
    extractor_name,
    format_table,
    load_mpr,
)


def _embedder_fn(ctx: Context) -> Callable[[list[str]], np.ndarray]:
    from assistant.embed import embedder_from_settings
    from assistant.eval.cache import embed_cached

    s = ctx.settings.resolved()
    embedder = embedder_from_settings(s)
    return lambda texts: embed_cached(embedder, texts, s.cache_dir)


@click.command("mpr")
@click.option(
    "--data",
    "data",
    required=True,
    type=click.Path(dir_okay=False),
    help="500QA.dev.json (e.g. ../shared/data/recipe-mpr/500QA.dev.json)",
)
@click.option(
    "--k-r",
    "k_r",
    default=1,
    show_default=True,
    type=click.IntRange(1, 100),
    help="reviews averaged per item (late fusion K_R)",
)
@click.option(
    "--distribution", default="disjoint", show_default=True, type=click.Choice(list(DISTRIBUTIONS))
)
@click.option(
    "--aspects",
    "aspects_mode",
    default="gold",
    show_default=True,
    type=click.Choice(["gold", "extracted"]),
)
@click.option(
    "--table",
    "table",
    is_flag=True,
    help="paper-style table over K_R in {1,2,5,10} and all four distributions",
)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def mpr_command(
    ctx: Context,
    data: str,
    k_r: int,
    distribution: str,
    aspects_mode: str,
    table: bool,
    as_json: bool,
) -> None:
    """MAP@10 / Recall@10 of late fusion vs aspect fusion on Recipe-MPR (paper 003)."""
    mpr = load_mpr(data)
    embed = _embedder_fn(ctx)
    if table:
        rows = {}
        for d in DISTRIBUTIONS:
            run = MPRRun(mpr, d, aspects_mode, embed)
            for k in TABLE_K_R:
                rows[(d, k)] = run.evaluate(k)
        if as_json:
            out: dict[str, Any] = {
                "benchmark": "mpr",
                "methods": _percentless(rows[("disjoint", 1)]),
                "tasks": {f"{d}/k_r={k}": _percentless(v) for (d, k), v in rows.items()},
                "config": {"aspects": aspects_mode, "k_i": K_I},
            }
            click.echo(json.dumps(out))
        else:
            click.echo(f"Recipe-MPR, {aspects_mode} query aspects, K_I = {K_I}")
            click.echo(format_table(rows))
        return
    run = MPRRun(mpr, distribution, aspects_mode, embed)
    res = run.evaluate(k_r)
    report = {
        "benchmark": "mpr",
        "methods": _percentless(res),
        "tasks": {f"{distribution}/k_r={k_r}": _percentless(res)},
        "config": {
            "distribution": distribution,
            "k_r": k_r,
            "aspects": aspects_mode,
            "extractor": extractor_name() if aspects_mode == "extracted" else None,
            "k_i": K_I,
            "queries": len(run.queries),
            "items": len(mpr.item_ids),
            "reviews": run.n_reviews,
        },
    }
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(format_table({(distribution, k_r): res}))
