"""``sphere config show``."""

from __future__ import annotations

import json

import click
import yaml

from assistant.commands.context import Context, pass_ctx


@click.group("config")
def config_group() -> None:
    """Inspect settings."""


@config_group.command("show")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of YAML")
@pass_ctx
def show(ctx: Context, as_json: bool) -> None:
    """Print the effective settings (file + environment + defaults)."""
    s = ctx.settings
    data = s.public_dict()
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    src = str(s.source_file) if s.source_file else "(defaults; no config.yaml found)"
    click.echo(f"# from {src} and SPHERE_* environment variables")
    click.echo(yaml.safe_dump(data, sort_keys=False).rstrip())
