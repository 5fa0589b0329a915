"""``sphere`` with no command: the terminal app (Textual is imported only here, lazily)."""

from __future__ import annotations

from assistant.commands.context import Context


def run_app(ctx: Context) -> None:
    """Open the app on the configured default index."""
    from assistant.ui.app import make_app

    make_app(ctx.settings).run()
