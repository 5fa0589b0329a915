"""The ``sphere eval extract`` command over :mod:`assistant.eval.extract`."""

from __future__ import annotations

import json
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.eval.extract import run_aspects, run_extract


def _load_backend(ctx: Context, no_llm: bool) -> Any:
    if no_llm:
        return None
    from assistant.llm import load_backend

    return load_backend(ctx.settings.llm)


def _load_embedder(ctx: Context) -> Any:
    from assistant.embed import embedder_from_settings

    return embedder_from_settings(ctx.settings)


@click.command("extract")
@click.option("--data", required=True, type=click.Path(dir_okay=False), help="PIR JSON file")
@click.option("--limit", type=int, default=None, help="first N queries per task")
@click.option(
    "--llm-limit",
    type=int,
    default=20,
    show_default=True,
    help="first N queries per task for the slow 'llm' method (0 = all)",
)
@click.option("--no-llm", is_flag=True, help="rules only (no model)")
@click.option("--no-retrieval", is_flag=True, help="skip the Recall@5 comparison")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def extract_command(
    ctx: Context,
    data: str,
    limit: int | None,
    llm_limit: int,
    no_llm: bool,
    no_retrieval: bool,
    as_json: bool,
) -> None:
    """Perspective extraction on PIR: QA-F1 (paper 000 A.8) and Recall@5 (Table 6)."""
    backend = _load_backend(ctx, no_llm)
    embedder = None if no_retrieval else _load_embedder(ctx)
    report = run_extract(
        data, backend=backend, embedder=embedder, limit=limit, llm_limit=llm_limit or None
    )
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    methods = list(report["methods"])
    click.echo(f"{'task':<14}" + "".join(f"{m:>10}" for m in methods))
    for t, row in report["tasks"].items():
        click.echo(f"{t:<14}" + "".join(f"{row[m]['qa_f1']:>10.1f}" for m in methods))
    click.echo(
        f"{'average':<14}" + "".join(f"{report['methods'][m]['qa_f1']:>10.1f}" for m in methods)
    )
    if "retrieval" in report:
        click.echo("\nRecall@5, cosine, query = 'perspective: root'")
        rows = {t: r for t, r in report["retrieval"].items() if isinstance(r, dict)}
        keys = list(next(iter(rows.values())))
        click.echo(f"{'task':<14}" + "".join(f"{k_:>20}" for k_ in keys))
        for t, r in rows.items():
            click.echo(f"{t:<14}" + "".join(f"{r[k_]:>20.1f}" for k_ in keys))


@click.command("aspects")
@click.option("--data", required=True, type=click.Path(dir_okay=False), help="Recipe-MPR JSON file")
@click.option("--limit", type=int, default=None, help="first N queries")
@click.option("--no-llm", is_flag=True, help="rules only (no model)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def aspects_command(
    ctx: Context, data: str, limit: int | None, no_llm: bool, as_json: bool
) -> None:
    """Aspect extraction on Recipe-MPR: IoU with the gold aspect keys (paper 003 §3.1)."""
    backend = _load_backend(ctx, no_llm)
    report = run_aspects(data, backend=backend, limit=limit)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"{'method':<10}{'IoU':>8}{'matched':>10}{'aspects/q':>11}")
    for m, r in report["methods"].items():
        click.echo(
            f"{m:<10}{r['iou']:>8.1f}{r['matched_iou']:>10.1f}{r['aspects_per_query']:>11.2f}"
        )
    click.echo(f"({report['n']} queries; gold {report['gold_aspects_per_query']} aspects/query)")
