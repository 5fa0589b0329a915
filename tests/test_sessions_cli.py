"""``sphere sessions …`` and ``sphere export`` through the real entry point."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.cli import cli, main
from assistant.store import SessionStore
from tests.turn_strategies import example_turn


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A session log in a folder that does not exist yet, with no config.yaml around."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "user" / "data" / "sessions.db"
    monkeypatch.setenv("SPHERE_SESSION_DB", str(path))
    return path


@pytest.fixture
def filled(db: Path) -> dict[str, int]:
    times = iter(f"2025-06-0{d}T10:00:00+00:00" for d in range(1, 10))
    with SessionStore(db, clock=lambda: next(times)) as s:
        old = s.create_session(index="demo")
        s.add_turn(old, example_turn())
        new = s.create_session("Four-day week", index="demo")
        s.add_turn(new, example_turn("Is a four-day work week good for business?"))
        s.add_turn(new, example_turn("Does it reduce sick days?"))
    return {"old": old, "new": new}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_newest_first(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["sessions", "list", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert [d["id"] for d in data] == [filled["new"], filled["old"]]
    assert {"id", "title", "created", "turns"} <= set(data[0])
    assert data[0]["title"] == "Four-day week" and data[0]["turns"] == 2
    assert data[1]["title"] == "Should school uniforms be mandatory?"  # first question
    assert data[0]["created"] > data[1]["created"]


def test_list_on_a_fresh_machine_creates_the_database(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert not db.parent.exists()
    code, out, _ = run(["sessions", "list", "--json"], capsys)
    assert (code, json.loads(out)) == (0, [])
    assert db.exists()
    code, out, _ = run(["sessions", "list"], capsys)
    assert code == 0 and "No sessions yet" in out


def test_list_table(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["sessions", "list"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["ID", "CREATED", "TURNS"]
    assert "Four-day week" in lines[1] and "Should school uniforms" in lines[2]


def test_show(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["sessions", "show", str(filled["new"])], capsys)
    assert code == 0
    assert "Is a four-day work week good for business?" in out
    assert "For: School uniforms should be mandatory." in out
    assert "[uniforms-01, uniforms-02]" in out
    code, out, _ = run(["sessions", "show", str(filled["new"]), "--json"], capsys)
    data = json.loads(out)
    assert data["id"] == filled["new"] and len(data["turns"]) == 2
    assert data["turns"][1]["result"]["question"] == "Does it reduce sick days?"


@pytest.mark.parametrize("command", [["show", "999"], ["delete", "999", "--yes"]])
def test_unknown_session_is_a_clear_error(
    filled: dict[str, int], capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    code, out, err = run(["sessions", *command], capsys)
    assert code != 0
    assert "no session with id 999" in err
    assert "sphere sessions list" in err  # says what to do
    assert "Traceback" not in err + out


def test_delete(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["sessions", "delete", str(filled["old"]), "--yes"], capsys)
    assert code == 0 and f"Deleted session {filled['old']}" in out
    _, out, _ = run(["sessions", "list", "--json"], capsys)
    assert [d["id"] for d in json.loads(out)] == [filled["new"]]


def test_delete_asks_first(filled: dict[str, int]) -> None:
    result = CliRunner().invoke(cli, ["sessions", "delete", str(filled["old"])], input="n\n")
    assert result.exit_code != 0 and "Delete session" in result.output
    result = CliRunner().invoke(cli, ["sessions", "list", "--json"])
    assert len(json.loads(result.output)) == 2


def test_search(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["sessions", "search", "sick days", "--json"], capsys)
    hits = json.loads(out)
    assert code == 0 and [h["session_id"] for h in hits] == [filled["new"]]
    assert hits[0]["question"] == "Does it reduce sick days?"
    code, out, _ = run(["sessions", "search", 'NEAR("*'], capsys)
    assert code == 0 and "No turns match" in out
    code, out, _ = run(["sessions", "search", "four-day"], capsys)
    assert code == 0 and "*four*" in out


def test_not_a_database_is_a_clear_error(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db.parent.mkdir(parents=True)
    db.write_text("my notes\n")
    code, _, err = run(["sessions", "list"], capsys)
    assert code == 6
    assert "not a SQLite database" in err and "Traceback" not in err
    assert db.read_text() == "my notes\n"


def test_export_stdout_and_file(
    filled: dict[str, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["export", str(filled["new"])], capsys)
    assert code == 0
    assert out.startswith("# Four-day week\n")
    assert "## 2. Does it reduce sick days?" in out and "## Method" in out
    target = tmp_path / "report.md"
    code, out2, err = run(["export", str(filled["new"]), "-o", str(target)], capsys)
    assert code == 0 and out2 == "" and "Wrote session" in err
    assert target.read_text(encoding="utf-8") == out


@pytest.mark.parametrize("where", ["missing/dir/report.md", "."])
def test_export_bad_path(
    filled: dict[str, int], tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    code, _, err = run(["export", str(filled["new"]), "-o", str(tmp_path / where)], capsys)
    assert code == 2
    assert ("does not exist" in err) or ("is a folder" in err)
    assert "Traceback" not in err


def test_export_unknown_session(filled: dict[str, int], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["export", "42"], capsys)
    assert code == 6 and "no session with id 42" in err


@pytest.mark.skipif(os.name != "posix", reason="permissions")
def test_export_unwritable_file(
    filled: dict[str, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        code, _, err = run(["export", str(filled["new"]), "-o", str(locked / "r.md")], capsys)
        assert code == 2 and "cannot write" in err
    finally:
        locked.chmod(0o700)


# --------------------------------------------------------------------------- corrections


def test_show_lists_no_side_apart_from_side_unclear(
    filled: dict[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["sessions", "show", str(filled["old"])], capsys)
    assert code == 0
    no_side = out.index("Takes no side (1): the stance model says it argues neither claim")
    unclear = out.index("Side unclear (1): the stance model cannot tell which claim it argues")
    assert no_side < unclear
    assert "    pro 0.10 · con 0.12 · neither 0.78 — Questions and answers" in out[no_side:unclear]
    assert "pro 0.41 · con 0.33 · neither 0.26 — What a head teacher learned" in out[unclear:]
    assert "(uniforms-07)" in out[unclear:]
    code, out, _ = run(["sessions", "show", str(filled["old"]), "--json"], capsys)
    apart = json.loads(out)["turns"][0]["result"]["documents_apart"]
    assert [(d["doc_id"], d["group"], d["p"]) for d in apart] == [
        ("uniforms-14", "no_side", [0.1, 0.12, 0.78]),
        ("uniforms-07", "unclear", [0.41, 0.33, 0.26]),
    ]
    assert apart[1]["title"] == "What a head teacher learned from ten years of uniforms"


def test_correct_moves_a_document_and_the_log_keeps_it(
    filled: dict[str, int], db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = str(filled["new"])
    code, out, err = run(["sessions", "correct", sid, "2", "uniforms-02", "--to", "con"], capsys)
    assert (code, err) == (0, "")
    assert "Turn 2 of session" in out and "you moved uniforms-02" in out
    assert "under the Against claim (it was under the For claim)" in out
    assert "the stance model had said: pro 0.89 · con 0.06 · neither 0.05" in out
    assert "balance now: For 1 document, Against 2 documents; lopsidedness 0.33" in out
    code, out, _ = run(["sessions", "correct", sid, "2", "uniforms-07", "--to", "out"], capsys)
    assert code == 0 and "took uniforms-07" in out
    with SessionStore(db) as s:
        turns = s.turns(filled["new"])
        assert turns[0].result.corrections == []  # only the turn named was corrected
        fixes = turns[1].result.corrections
        assert [(c.doc_id, c.was, c.to, c.p) for c in fixes] == [
            ("uniforms-02", "pro", "con", [0.89, 0.06, 0.05]),
            ("uniforms-07", "unclear", "out", [0.41, 0.33, 0.26]),
        ]
        assert fixes[0].question == "Does it reduce sick days?"
    # sessions show and the export show them
    code, out, _ = run(["sessions", "show", sid], capsys)
    assert "[uniforms-02 (moved by you)]" in out and "Taken out by you (1)" in out
    assert "you took uniforms-07" in out
    code, out, _ = run(["export", sid], capsys)
    assert "*(moved by you)*" in out and "Moved by you under the Against claim" in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["999", "1", "uniforms-02", "--to", "con"], 6, "no session with id 999"),
        (["{new}", "3", "uniforms-02", "--to", "con"], 2, "has no turn 3 (1–2)"),
        (["{new}", "0", "uniforms-02", "--to", "con"], 2, "has no turn 0"),
        (["{new}", "1", "uniforms-99", "--to", "con"], 2, "'uniforms-99' is not in this answer"),
        (
            ["{new}", "1", "uniforms-02", "--to", "pro"],
            2,
            "'uniforms-02' is already under the For claim",
        ),
        (["{new}", "1", "uniforms-02", "--to", "left"], 2, "'left' is not one of"),
        (["{new}", "1", "uniforms-02"], 2, "Missing option '--to'"),
    ],
)
def test_correct_bad_input_is_a_clear_error(
    filled: dict[str, int],
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    code: int,
    message: str,
) -> None:
    argv = ["sessions", "correct", *(a.format(new=filled["new"]) for a in args)]
    got, out, err = run(argv, capsys)
    assert got == code and message in err
    assert "Traceback" not in out + err
    if "is not in this answer" in message:  # says which documents there are
        assert "uniforms-09 (con)" in err and "uniforms-07 (unclear)" in err
    with SessionStore(Path(os.environ["SPHERE_SESSION_DB"])) as s:
        assert s.all_corrections() == []
