"""``sphere models list [--json] [--no-servers]`` and ``sphere models use NAME``.

``list`` shows the language models already on this machine
(:mod:`assistant.llm.discover`): GGUF files in the usual places, read from
their headers (path, size, quantization, parameter count, context length,
whether the model is capable), and the models of servers listening on the
loopback address. ``use`` writes one of them (a listed name, a GGUF path,
``bundled`` or an http(s) URL) as ``llm.model`` into the settings file that
``sphere config show`` reports, editing that one line
(:mod:`assistant.config_edit`); with no settings file it creates
``$XDG_CONFIG_HOME/sphere/config.yaml``.
"""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx
from assistant.llm.discover import SOURCES


@click.group("models")
def models_group() -> None:
    """List the language models on this machine; choose the one Sphere uses."""


def _size(n: int | None) -> str:
    if not n:
        return "?"
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


@models_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@click.option("--no-servers", is_flag=True, help="do not ask the loopback servers")
@pass_ctx
def list_command(ctx: Context, as_json: bool, no_servers: bool) -> None:
    """GGUF files in the usual places and models of servers on 127.0.0.1."""
    from assistant.llm.discover import discover
    from assistant.llm.gguf import format_parameters

    settings = ctx.settings
    found = discover(settings, servers=not no_servers)
    if as_json:
        data = found.to_dict()
        data["configured"] = {"model": settings.llm.model, "use": settings.llm.use}
        click.echo(json.dumps(data, indent=2))
        return
    if not found.models:
        click.echo("No language models found (see `sphere models list --json` for where).")
        return
    rows = [("", "NAME", "SOURCE", "PARAMS", "QUANT", "CONTEXT", "SIZE", "CAPABLE", "WHERE")]
    for m in found.models:
        rows.append(
            (
                "*" if m.current else "",
                m.name,
                m.source,
                format_parameters(m.parameters) if m.parameters else (m.size_label or "?"),
                m.quantization or "?",
                str(m.context_length or "?"),
                _size(m.size_bytes),
                "error" if m.error else ("yes" if m.capable else "no"),
                m.url + (f" (model {m.server_model})" if m.server_model else "")
                if m.kind == "server"
                else m.path,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        click.echo(
            "  ".join(c.ljust(w) for c, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1]
        )
    for m in found.models:
        if m.error:
            click.echo(f"! {m.name}: {m.error}", err=True)
    asked = [s for s in found.searched if "url" in s]
    listening = [s["url"] for s in asked if s.get("found")]
    click.echo(
        f"\n* = llm.model now. Capable: a server, or ≥ 3B parameters and context ≥ 4096 "
        f"(llm.use: auto loads only a capable model). Servers asked: {len(asked)}"
        + (f", answering: {', '.join(listening)}" if listening else ", none answering")
        + ". Choose one with  sphere models use NAME"
    )


@models_group.command("use")
@click.argument("name")
@click.option(
    "--source",
    type=click.Choice(SOURCES),
    default=None,
    help="where NAME is listed, when two places list the same name",
)
@pass_ctx
def use_command(ctx: Context, name: str, source: str | None) -> None:
    """Make NAME the language model: a name from `sphere models list`, a GGUF path,
    `bundled`, or an http(s)://…/v1 server URL. Written to the settings file
    `sphere config show` reports."""
    from assistant.llm.capable import assess
    from assistant.llm.discover import apply_choice, resolve_choice

    settings = ctx.settings
    choice = resolve_choice(name, settings, source=source)
    path, old, notes = apply_choice(choice, settings)
    click.echo(f"llm.model: {choice.value}  ({choice.label}; was {old})")
    if choice.server_model:
        click.echo(f"llm.server_model: {choice.server_model}")
    click.echo(f"written to {path}")
    try:
        cap = assess(settings.llm.model_copy(update={"model": choice.value}))
    except Exception:
        cap = None
    if cap is not None:
        verdict = "capable" if cap.capable else "not capable"
        effect = (
            "llm.use: auto will load it for the question parser and the summaries"
            if cap.capable
            else "llm.use: auto will not load it (llm.use: always would)"
        )
        click.echo(f"{verdict} ({cap.reason}): {effect}")
    for note in notes:
        click.echo(f"note: {note}", err=True)
