"""The indexing progress bar is drawn at the builder's first event, not before: a build
refused before it starts (a missing path) prints its error alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from assistant.commands.index_cmd import _BuildProgress


def test_bar_waits_for_the_first_event() -> None:
    with _BuildProgress(True) as bar:
        assert bar.progress is None
        bar.update("start", {"files": 2})
        assert bar.progress is not None
        bar.update("file", {})
    with _BuildProgress(False) as quiet:
        quiet.update("start", {"files": 2})
        assert quiet.progress is None


def test_missing_path_prints_the_error_without_a_bar(tmp_path: Path) -> None:
    env = {**os.environ, "SPHERE_INDEX_DIR": str(tmp_path / "idx"), "HF_HUB_OFFLINE": "1"}
    r = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "index", "build", "x", str(tmp_path / "nowhere")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 2
    assert "path does not exist" in r.stderr
    assert "indexing" not in r.stdout + r.stderr
    assert not (tmp_path / "idx" / "x").exists()
