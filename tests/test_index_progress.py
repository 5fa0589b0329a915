"""The indexing progress bar is drawn at the builder's first event, not before: a build
refused before it starts (a missing path) prints its error alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from assistant.commands.index_cmd import _BuildProgress


def test_bar_waits_for_the_first_event(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("assistant.progress_bar.bars_wanted", lambda: True)
    with _BuildProgress(True) as bar:
        assert bar.progress is None
        bar.update("start", {"files": 2})
        assert bar.progress is not None
        bar.update("file_start", {"path": "/x/big.txt", "total": 100})
        bar.update("file_progress", {"path": "/x/big.txt", "bytes": 50, "total": 100,
                                     "part": 1, "passages": 7})  # fmt: skip
        assert bar.big is not None
        bar.update("file", {"path": "/x/big.txt"})
        assert bar.big is None
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


def test_without_a_terminal_stages_are_plain_lines(capsys) -> None:  # type: ignore[no-untyped-def]
    """stderr redirected (as under pytest): no bar, one line per stage, and inside a
    large file a line at most every 30 s (the first one at once)."""
    with _BuildProgress(True) as bar:
        bar.update("start", {"files": 3, "bytes": 52_000_000, "unchanged": 0})
        bar.update("batch", {"documents": 2, "passages": 2})
        bar.update("file", {"path": "/x/a.txt"})
        bar.update("file_start", {"path": "/x/big.txt", "total": 50_000_000})
        for i in range(1, 6):
            where = {"path": "/x/big.txt", "bytes": i * 500_000, "total": 50_000_000}
            bar.update("file_progress", {**where, "part": i, "passages": i * 10})
        bar.update("file", {"path": "/x/big.txt"})
        bar.update("finalize", {})
        assert bar.progress is None
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "indexing: 3 files to read (52.0 MB), 0 unchanged",
        "reading /x/big.txt (50.0 MB) in parts",
        "reading /x/big.txt (50.0 MB) in parts: 0.5 of 50.0 MB, 10 passages",
        "indexing: 2 documents, 2 passages",
        "writing FAISS + BM25: 2 documents, 2 passages",
    ]


def test_training_steps_without_a_terminal_are_plain_lines_with_an_eta(capsys) -> None:  # type: ignore[no-untyped-def]
    """A training job in the background (stderr a log file) still says how far it is and
    when it ends: plain lines with step, percent and ETA, the rate of this process only."""
    from assistant.progress_bar import PlainSteps, step_bar

    now = [0.0]
    bar = step_bar(100, initial=40, desc="stance")  # pytest's stderr is no terminal
    assert isinstance(bar, PlainSteps)
    bar._t0 = 0.0
    bar._lines._clock = lambda: now[0]
    bar.set_postfix(loss="1.200", epoch=2)
    now[0] = 10.0
    bar.update(10)  # 10 steps in 10 s of this process -> 1 s/step, 50 left
    now[0] = 20.0
    bar.update(10)  # within 30 s of the last line: quiet
    now[0] = 60.0
    bar.update(40)  # the last step: always printed
    bar.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "stance: step 50/100 (50 %), 1.00 s/step, ETA 0:00:50, loss=1.200, epoch=2"
    assert lines[-1].startswith("stance: step 100/100 (100 %)") and "ETA 0:00:00" in lines[-1]
    assert len(lines) == 2
