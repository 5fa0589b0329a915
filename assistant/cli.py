"""Command line: ``sphere`` (the app) and ``sphere <command> …``.

The CLI is a thin shell over the library. Every :class:`SphereError` is printed
as ``title: message`` on stderr with a non-zero exit, never as a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from assistant.commands.context import Context
from assistant.demo import explain_missing
from assistant.errors import IndexNotFoundError, SphereError

# (module, attribute) of each command; modules import lazily-heavy libraries
# inside their functions so `sphere --help` stays fast.
COMMANDS: list[tuple[str, str]] = [
    ("assistant.commands.config_cmd", "config_group"),
    ("assistant.commands.index_cmd", "index_group"),
    ("assistant.commands.search_cmd", "search_command"),
    ("assistant.commands.eval_cmd", "eval_group"),
    ("assistant.commands.bench_cmd", "bench_group"),
    ("assistant.commands.understand_cmd", "understand_command"),
    ("assistant.commands.sessions_cmd", "sessions_group"),
    ("assistant.commands.export_cmd", "export_command"),
    ("assistant.commands.ask_cmd", "ask_command"),
    ("assistant.commands.train_cmd", "train_group"),
    ("assistant.commands.models_cmd", "models_group"),
]


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    help="settings file (default: $SPHERE_CONFIG, ./config.yaml, then "
    "$XDG_CONFIG_HOME/sphere/config.yaml)",
)
@click.version_option(package_name="sphere-assistant")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None) -> None:
    """Sphere: offline, perspective-aware balanced research.

    With no command, opens the terminal app on the default index.
    """
    ctx.obj = Context(config_path)
    if ctx.invoked_subcommand is None:
        from assistant.commands import app_cmd

        app_cmd.run_app(ctx.obj)


def _register() -> None:
    for module_name, attr in COMMANDS:
        module = importlib.import_module(module_name)
        cli.add_command(getattr(module, attr))


_register()


def _close_models() -> None:
    """Free the language models a command loaded before the interpreter exits."""
    factory = sys.modules.get("assistant.llm.factory")  # not imported: nothing loaded
    if factory is not None:
        factory.close_backends()


def main(argv: list[str] | None = None) -> Any:
    try:
        return _run(argv)
    finally:
        _close_models()


def _run(argv: list[str] | None) -> Any:
    try:
        return cli.main(args=argv, prog_name="sphere", standalone_mode=False)
    except SphereError as exc:
        if isinstance(exc, IndexNotFoundError):
            exc = explain_missing(exc)
        click.secho(f"{exc.title}: {exc}", fg="red", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
