"""The object every command receives: settings loaded once, lazily."""

from __future__ import annotations

import click

from assistant.config import Settings, load_settings


class Context:
    def __init__(self, config_path: str | None) -> None:
        self.config_path = config_path
        self._settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_path)
        return self._settings


pass_ctx = click.make_pass_decorator(Context)
