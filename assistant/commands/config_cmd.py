"""``sphere config show``."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

import click
import yaml

from assistant.commands.context import Context, pass_ctx
from assistant.config import CONFIG_SEARCH, ENV_PREFIX, Settings


@click.group("config")
def config_group() -> None:
    """Inspect settings."""


@config_group.command("show")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of YAML")
@pass_ctx
def show(ctx: Context, as_json: bool) -> None:
    """Print the effective settings (file + environment + defaults) and which file was read."""
    s = ctx.settings
    data = s.public_dict()
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for line in describe_sources(s):
        click.echo(f"# {line}")
    click.echo(yaml.safe_dump(data, sort_keys=False).rstrip())


def describe_sources(s: Settings, environ: Mapping[str, str] | None = None) -> list[str]:
    """Which settings file was read (and how it was found), and the overriding variables."""
    environ = os.environ if environ is None else environ
    if s.source_file:
        empty = "; it holds no settings: built-in defaults" if s.source_empty else ""
        lines = [f"settings file: {s.source_file} (found as {s.source_how}{empty})"]
    else:
        lines = [f"no settings file (looked for {CONFIG_SEARCH}): built-in defaults"]
    env = sorted(k for k in environ if k.startswith(ENV_PREFIX) and k != ENV_PREFIX + "CONFIG")
    if env:
        lines.append("overridden by " + ", ".join(env))
    return lines
