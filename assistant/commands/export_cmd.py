"""``sphere export SESSION [-o FILE]``: a session as Markdown."""

from __future__ import annotations

from pathlib import Path

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError


@click.command("export")
@click.argument("session_id", type=int)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=True, path_type=Path),
    help="write to this file (default: standard output)",
)
@pass_ctx
def export_command(ctx: Context, session_id: int, output: Path | None) -> None:
    """Export a recorded session to Markdown (questions, claims, citations, method)."""
    from assistant.commands.sessions_cmd import open_store
    from assistant.export import session_to_markdown

    with open_store(ctx) as store:
        text = session_to_markdown(store.get_session(session_id), store.turns(session_id))
    if output is None:
        click.echo(text, nl=False)
        return
    write_text(output, text)
    click.echo(f"Wrote session {session_id} to {output}", err=True)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically enough for a report; clear errors otherwise."""
    path = path.expanduser()
    if path.is_dir():
        raise InputError(f"{path} is a folder", hint="give a file name, e.g. -o session.md")
    if not path.parent.is_dir():
        raise InputError(
            f"cannot write {path}: the folder {path.parent} does not exist",
            hint="create the folder first or choose another path",
        )
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
