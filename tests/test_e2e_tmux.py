"""The real ``sphere`` in tmux, as a person uses it (issue 6).

Builds the demo index, starts the app on it with the bundled model, types a
question, waits for both claims, opens a citation, exports the session, quits,
and checks the turn is in the session database.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.demo import demo_corpus_path

pytestmark = pytest.mark.slow


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=30
    ).stdout


def _wait_for(session: str, *needles: str, timeout: float = 300) -> str:
    deadline = time.time() + timeout
    screen = ""
    while time.time() < deadline:
        screen = _tmux("capture-pane", "-t", session, "-p")
        if all(n in screen for n in needles):
            return screen
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {needles!r}; screen was:\n{screen}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_real_app_in_tmux(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "SPHERE_INDEX_DIR": str(tmp_path / "indexes"),
        "SPHERE_SESSION_DB": str(tmp_path / "sessions.db"),
        "HF_HUB_OFFLINE": "1",
        "TERM": "xterm-256color",
    }
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "assistant.cli",
            "index",
            "build",
            "demo",
            str(demo_corpus_path()),
            "--id-field",
            "id",
            "--text-field",
            "text",
            "--title-field",
            "title",
            "--source-field",
            "source",
            "-q",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    session = f"sphere-e2e-{os.getpid()}"
    command = " ".join(
        [f"{k}={v!r}" for k, v in env.items() if k.startswith(("SPHERE_", "HF_"))]
        + [sys.executable, "-m", "assistant.cli"]
    )
    _tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", str(tmp_path), command)
    try:
        _tmux("resize-window", "-t", session, "-x", "120", "-y", "40")
        _wait_for(session, "Ask a question", timeout=180)
        _tmux("send-keys", "-t", session, "Should school uniforms be mandatory?", "Enter")
        _wait_for(session, "Claim A", "Claim B", "[1]", "[5]", timeout=300)
        _tmux("send-keys", "-t", session, "Tab")
        _tmux("send-keys", "-t", session, "Tab")
        _tmux("send-keys", "-t", session, "Enter")
        _wait_for(session, "Evidence [", "Verified", timeout=60)
        _tmux("send-keys", "-t", session, "Escape")
        _tmux("send-keys", "-t", session, "C-e")
        _wait_for(session, "Exported to Markdown", timeout=60)
        _tmux("send-keys", "-t", session, "C-q")
        time.sleep(2)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
    exports = list(tmp_path.glob("sphere-session-*.md"))
    assert exports, "no Markdown export written"
    text = exports[0].read_text(encoding="utf-8")
    assert "Should school uniforms be mandatory?" in text and "[^1]:" in text
    assert "Lopsidedness" in text  # the balance report came along
    db = sqlite3.connect(tmp_path / "sessions.db")
    try:
        rows = db.execute("SELECT question FROM turns").fetchall()
        assert rows == [("Should school uniforms be mandatory?",)]
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.close()
