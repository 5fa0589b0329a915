"""The ``sphere bench llm`` command over :mod:`assistant.bench.llm`."""

from __future__ import annotations

import json

import click

from assistant.bench.llm import run_bench
from assistant.commands.context import Context, pass_ctx


@click.command("llm")
@click.option("--tokens", "n_tokens", type=int, default=128, show_default=True)
@click.option("--repeats", type=int, default=3, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def llm_bench_command(ctx: Context, n_tokens: int, repeats: int, as_json: bool) -> None:
    """Backend tokens/s vs raw llama.cpp, load time, time to first token."""
    s = ctx.settings.llm
    if s.model.startswith(("http://", "https://")):
        from assistant.errors import InputError

        raise InputError("`sphere bench llm` measures an in-process GGUF; llm.model is a URL")
    r = run_bench(s.model, n_tokens=n_tokens, repeats=repeats, n_threads=s.n_threads)
    if as_json:
        click.echo(json.dumps(r, indent=2))
        return
    tps = r["tokens_per_s"]
    click.echo(f"model: {r['model']['model']} ({r['model']['n_threads']} threads)")
    click.echo(
        f"tokens/s: backend {tps['backend']:.1f}, raw llama.cpp {tps['raw_llama_cpp']:.1f}, "
        f"ratio {r['throughput_ratio']:.3f} (target >= 0.95)"
    )
    ld = r["load_seconds"]
    click.echo(f"load: backend {ld['backend']:.2f} s, raw {ld['raw_llama_cpp']:.2f} s")
    lp = r["long_prompt"]
    click.echo(
        f"time to first token: {r['ttft_seconds'] * 1000:.0f} ms; with a "
        f"{lp['system_prompt_tokens']}-token system prompt {lp['ttft_seconds'] * 1000:.0f} ms "
        "(every prompt is evaluated whole)"
    )
