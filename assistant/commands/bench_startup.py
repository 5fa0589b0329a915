"""The ``sphere bench startup`` command over :mod:`assistant.bench.startup`."""

from __future__ import annotations

import json

import click

from assistant.bench.startup import run_startup_bench
from assistant.commands.context import Context, pass_ctx


@click.command("startup")
@click.option("--index", "index_name", default="demo", show_default=True)
@click.option("--rounds", default=2, show_default=True, type=click.IntRange(1, 20))
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def startup_bench_command(ctx: Context, index_name: str, rounds: int, as_json: bool) -> None:
    """Start-up to a usable app, and `sphere ask` wall time: model loaded vs not."""
    ctx.settings  # noqa: B018  (a bad settings file fails here, before any child starts)
    result = run_startup_bench(
        config_path=ctx.config_path,
        index=index_name,
        rounds=rounds,
        say=lambda m: click.echo(f"… {m}", err=True),
    )
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    for part, label in (("app", "app usable"), ("ask", "sphere ask")):
        e = result[part]
        click.echo(
            f"{label:<12} not loaded {e['not_loaded']['mean']:.2f} s "
            f"({e['not_loaded']['peak_rss_mb']} MB), loaded {e['loaded']['mean']:.2f} s "
            f"({e['loaded']['peak_rss_mb']} MB): ratio {e['ratio_loaded_to_not_loaded']:.2f}, "
            f"{e['seconds_saved']:+.2f} s"
        )
