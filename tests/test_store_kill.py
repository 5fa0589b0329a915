"""Killing the process mid-turn loses at most that turn and never damages earlier ones."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assistant.store import SessionStore
from tests.turn_strategies import example_turn

REPO = Path(__file__).resolve().parents[1]

# Writes numbered turns forever, printing each id after its commit returned. The turns are
# large (many hits) so that a good share of the wall time is spent inside a transaction.
WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from assistant.store import SessionStore
    from tests.test_store_kill import numbered_turn

    store = SessionStore(Path(sys.argv[1]))
    sid = store.create_session("kill test", index="demo")
    print("session", sid, flush=True)
    n = 0
    while True:
        n += 1
        tid = store.add_turn(sid, numbered_turn(n))
        print("turn", tid, n, flush=True)
    """
)


def numbered_turn(n: int):  # type: ignore[no-untyped-def]
    result = example_turn(f"Question number {n}: should uniforms be mandatory?")
    hits = result.hits["pro"]
    result.hits["pro"] = [hits[i % len(hits)] for i in range(60)]
    result.timings = {"n": float(n)}
    return result


@pytest.mark.parametrize("kill_after", [3, 17])
def test_kill_during_turns_keeps_committed_turns(tmp_path: Path, kill_after: int) -> None:
    db = tmp_path / "sessions.db"
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    committed: dict[int, int] = {}  # turn id -> n
    session_id = None
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            kind, *rest = line.split()
            if kind == "session":
                session_id = int(rest[0])
            else:
                committed[int(rest[0])] = int(rest[1])
            if len(committed) >= kill_after:
                proc.send_signal(signal.SIGKILL)  # mid-way through the next turn
                break
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    assert session_id is not None

    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()

    with SessionStore(db) as store:
        turns = store.turns(session_id)
        stored = {t.id: t for t in turns}
        # every turn reported as committed is there, intact
        for tid, n in committed.items():
            assert stored[tid].result == numbered_turn(n)
        # at most the turn in flight (committed but not yet reported) is extra, and it is whole
        extra = set(stored) - set(committed)
        assert len(extra) <= 1
        for tid in extra:
            n = int(stored[tid].result.timings["n"])
            assert stored[tid].result == numbered_turn(n)
        assert store.get_session(session_id).turns == len(turns)
        # full-text index agrees with the table
        assert len(store.search("uniforms mandatory")) == len(turns)
