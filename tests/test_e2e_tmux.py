"""The real ``sphere`` in tmux, as a person uses it (issue 6).

Builds the demo index, starts the app on it with the bundled model, types a
question, waits for both claims, opens a citation, exports the session, quits,
and checks the turn is in the session database.
"""

from __future__ import annotations

import os
import shutil
import signal
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
        if _pane(session, "pane_dead") == "1":
            status = _pane(session, "pane_dead_status") or _pane(session, "pane_dead_signal")
            history = _tmux("capture-pane", "-t", session, "-p", "-S", "-")
            raise AssertionError(
                f"the app exited (status {status!r}) while we waited for "
                f"{needles!r}; its pane was:\n{history}"
            )
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {needles!r}; screen was:\n{screen}")


def _pane(session: str, field: str) -> str:
    """One of tmux's format fields for the session's pane (``pane_dead``, ...)."""
    return _tmux("display-message", "-p", "-t", session, f"#{{{field}}}").strip()


def _exit_screen(session: str, timeout: float = 60) -> str:
    """The pane's text, with its history, once the app's process has exited."""
    deadline = time.time() + timeout
    while _pane(session, "pane_dead") != "1":
        if time.time() > deadline:
            raise AssertionError("the app did not exit")
        time.sleep(0.5)
    return _tmux("capture-pane", "-t", session, "-p", "-S", "-")


TURNS_SQL = "SELECT id, question, summary_json, hits_json FROM turns"
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _env(tmp_path: Path, indexes: Path) -> dict[str, str]:
    return {
        **os.environ,
        "SPHERE_INDEX_DIR": str(indexes),
        "SPHERE_SESSION_DB": str(tmp_path / "sessions.db"),
        "HF_HUB_OFFLINE": "1",
        "TERM": "xterm-256color",
    }


@pytest.fixture(scope="module")
def demo_indexes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo index, built once by the real ``sphere index build``."""
    indexes = tmp_path_factory.mktemp("e2e") / "indexes"
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
        env={**os.environ, "SPHERE_INDEX_DIR": str(indexes), "HF_HUB_OFFLINE": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    return indexes


def _start_app(session: str, env: dict[str, str], cwd: Path, *, keep_pane: bool = False) -> None:
    command = " ".join(
        [f"{k}={v!r}" for k, v in env.items() if k.startswith(("SPHERE_", "HF_"))]
        + ["exec", sys.executable, "-m", "assistant.cli"]
    )
    _tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", str(cwd), command)
    _tmux("resize-window", "-t", session, "-x", "120", "-y", "40")
    if keep_pane:  # when the app exits, to read what it printed last
        _tmux("set-option", "-t", session, "remain-on-exit", "on")


@needs_tmux
def test_real_app_in_tmux(tmp_path: Path, demo_indexes: Path) -> None:
    env = _env(tmp_path, demo_indexes)
    session = f"sphere-e2e-{os.getpid()}"
    _start_app(session, env, tmp_path, keep_pane=True)
    try:
        _wait_for(session, "Ask a question", timeout=180)
        _tmux("send-keys", "-t", session, "Should school uniforms be mandatory?", "Enter")
        _wait_for(session, "Claim A", "Claim B", "[1]", "[2]", timeout=300)
        _tmux("send-keys", "-t", session, "Tab")
        _tmux("send-keys", "-t", session, "Tab")
        _tmux("send-keys", "-t", session, "Enter")
        _wait_for(session, "Evidence [", "Verified", timeout=60)
        _tmux("send-keys", "-t", session, "Escape")
        _tmux("send-keys", "-t", session, "C-e")
        _wait_for(session, "Exported to Markdown", timeout=60)
        _tmux("send-keys", "-t", session, "C-q")
        after_exit = _exit_screen(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
    # the model is closed before the interpreter exits: nothing printed after the app
    assert "Traceback" not in after_exit and "Exception ignored" not in after_exit, after_exit
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


@needs_tmux
def test_app_killed_mid_answer_keeps_earlier_turns(tmp_path: Path, demo_indexes: Path) -> None:
    """SIGKILL the real app while it is answering its second question (issue 8).

    The first turn, answered and saved before the kill, must come back whole; the
    database must pass ``PRAGMA integrity_check``; and the app must start again on it.
    """
    # the model writes the summaries: an answer takes seconds, so the kill lands mid-answer
    env = {**_env(tmp_path, demo_indexes), "SPHERE_LLM__USE": "always"}
    session = f"sphere-kill-{os.getpid()}"
    _start_app(session, env, tmp_path, keep_pane=True)
    try:
        _wait_for(session, "Ask a question", timeout=180)
        _tmux("send-keys", "-t", session, "Should school uniforms be mandatory?", "Enter")
        _wait_for(session, "Claim A", "Claim B", "[1]", timeout=300)
        db = tmp_path / "sessions.db"
        conn = sqlite3.connect(db)
        try:
            before = conn.execute(TURNS_SQL).fetchall()
        finally:
            conn.close()
        assert [r[1] for r in before] == ["Should school uniforms be mandatory?"]
        _tmux("send-keys", "-t", session, "Is a four-day work week good for business?", "Enter")
        # the second answer is under way: its progress panel is on screen
        _wait_for(session, "Esc to cancel", "Local summaries", timeout=120)
        pid = int(_tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())
        os.kill(pid, signal.SIGKILL)
        # the pane stays after its process (remain-on-exit): tmux marks it dead once the
        # process has gone, and says by which signal
        deadline = time.time() + 30
        while time.time() < deadline and _pane(session, "pane_dead") != "1":
            time.sleep(0.1)
        assert _pane(session, "pane_dead") == "1", "the app survived SIGKILL"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        after = conn.execute(TURNS_SQL).fetchall()
    finally:
        conn.close()
    assert after == before  # the earlier turn intact, byte for byte; the killed one not saved
    # and the app opens the same log again: the session list shows the saved turn
    listing = subprocess.run(
        [sys.executable, "-m", "assistant.cli", "sessions", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert listing.returncode == 0, listing.stderr
    assert "uniforms" in listing.stdout.lower()


FOLLOW_UP = "only sources from government"


def _save_screens(screens: list[tuple[str, str]]) -> None:
    """With ``FOCUS_TMUX_CAPTURE=FILE`` set, the screens of the focus path go to FILE (the
    capture kept with the evaluation results)."""
    target = os.environ.get("FOCUS_TMUX_CAPTURE")
    if not target:
        return
    parts = [f"=== {title} ===\n{screen.rstrip()}\n" for title, screen in screens]
    Path(target).write_text("\n".join(parts), encoding="utf-8")


@needs_tmux
def test_typing_after_the_evidence_pane_reaches_the_question_box(
    tmp_path: Path, demo_indexes: Path
) -> None:
    """Issue 36: a citation opened with Enter, the pane closed with Esc, a follow-up typed
    and sent with Enter. The keys reach the question box, the follow-up is asked (it
    follows turn 1), and the pane does not open again."""
    env = _env(tmp_path, demo_indexes)
    session = f"sphere-focus-{os.getpid()}"
    _start_app(session, env, tmp_path, keep_pane=True)
    screens: list[tuple[str, str]] = []
    try:
        _wait_for(session, "Ask a question", "focus: question box", timeout=180)
        _tmux("send-keys", "-t", session, "Should school uniforms be mandatory?", "Enter")
        screens.append(("the answer", _wait_for(session, "Claim A", "[1]", timeout=300)))
        _tmux("send-keys", "-t", session, "Tab")
        _tmux("send-keys", "-t", session, "Tab")
        _wait_for(session, "focus: citation [", timeout=30)
        _tmux("send-keys", "-t", session, "Enter")
        screens.append(("Enter on a citation", _wait_for(session, "Evidence [", timeout=60)))
        _tmux("send-keys", "-t", session, "Escape")
        closed = _wait_for(session, "focus: question box", timeout=30)
        assert "Evidence [" not in closed
        screens.append(("Esc", closed))
        _tmux("send-keys", "-t", session, "-l", FOLLOW_UP)  # typed as one burst, as a paste
        screens.append(("typed", _wait_for(session, FOLLOW_UP, timeout=30)))
        _tmux("send-keys", "-t", session, "Enter")
        answered = _wait_for(session, f"❯ {FOLLOW_UP}", "Follows turn 1", timeout=300)
        time.sleep(2)  # anything the Enter would still open would be on screen by now
        answered = _tmux("capture-pane", "-t", session, "-p")
        screens.append(("Enter: the follow-up asked", answered))
        assert "Evidence [" not in answered  # the pane did not reopen
        _tmux("send-keys", "-t", session, "C-q")
        _exit_screen(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)
        _save_screens(screens)
    db = sqlite3.connect(tmp_path / "sessions.db")
    try:
        rows = db.execute("SELECT question FROM turns ORDER BY id").fetchall()
    finally:
        db.close()
    assert rows == [("Should school uniforms be mandatory?",), (FOLLOW_UP,)]
