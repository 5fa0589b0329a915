"""``sphere`` with no command opens the app built by ``make_app`` on the default index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import assistant.ui.app as ui_app
from assistant.cli import main


def test_sphere_without_command_runs_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[Any] = []

    class Stub:
        def run(self) -> None:
            ran.append("run")

    def fake_make_app(settings: Any, **kwargs: Any) -> Stub:
        ran.append(settings.default_index)
        return Stub()

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SPHERE_CONFIG", raising=False)
    monkeypatch.setenv("SPHERE_DEFAULT_INDEX", "papers")
    monkeypatch.setattr(ui_app, "make_app", fake_make_app)
    main([])
    assert ran == ["papers", "run"]
