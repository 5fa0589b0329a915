"""``sphere ask`` logs every answer, as the ``llm`` CLI does (issue 36): a new session or
the one ``--session`` names, the session and turn on stderr, ``--no-log`` and
``logging.enabled`` to skip it, ``--save`` kept as ``--log``; and turns are named by
their place in the session everywhere (``ask --session``, ``sessions show``/``search``,
the export). On the real demo index, the rules' path (no model, no stance model)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.store import SessionStore
from tests.turn_strategies import example_turn

QUESTION = "Should school uniforms be mandatory?"
LOGGED = re.compile(r"^Logged as session (\d+), turn (\d+) \(follow up with --session \1; ")


@pytest.fixture
def demo(demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    monkeypatch.setenv("SPHERE_FOLLOWUP__READER", "off")
    return Path(os.environ["SPHERE_SESSION_DB"])


def _sphere(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    main(args)
    captured = capsys.readouterr()
    return captured.out, captured.err


def _logged(err: str) -> tuple[int, int]:
    (line,) = [x for x in err.splitlines() if x.startswith("Logged as")]
    m = LOGGED.match(line)
    assert m, line
    return int(m.group(1)), int(m.group(2))


def test_an_answer_is_logged_and_listed(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, err = _sphere(["ask", QUESTION, "--no-llm", "--json"], capsys)
    assert json.loads(out)["question"] == QUESTION  # stdout stays the JSON
    session, turn = _logged(err)
    assert turn == 1
    listing, _ = _sphere(["sessions", "list"], capsys)
    row = next(line for line in listing.splitlines()[1:] if line.split()[0] == str(session))
    assert QUESTION in row and row.split()[2] == "1"  # one turn
    data = json.loads(_sphere(["sessions", "list", "--json"], capsys)[0])
    assert [(s["id"], s["turns"], s["title"]) for s in data] == [(session, 1, QUESTION)]


def test_no_log_and_the_setting(
    demo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _sphere(["ask", QUESTION, "--no-llm", "--no-log"], capsys)
    assert out.startswith("Question: ") and "Logged" not in err
    assert not demo.exists()  # not even created
    monkeypatch.setenv("SPHERE_LOGGING__ENABLED", "false")
    _out, err = _sphere(["ask", QUESTION, "--no-llm"], capsys)
    assert "Logged" not in err and not demo.exists()
    _out, err = _sphere(["ask", QUESTION, "--no-llm", "--log"], capsys)
    assert _logged(err) == (1, 1)
    _out, err = _sphere(["ask", QUESTION, "--no-llm", "--save"], capsys)  # the old flag
    assert _logged(err) == (2, 1)
    with pytest.raises(SystemExit) as exc:
        main(["ask", QUESTION, "--save", "--no-log"])
    assert exc.value.code == 2 and "choose one" in capsys.readouterr().err


def test_save_is_explained_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    main(["ask", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--log / --no-log" in text
    assert "--save the same as --log, kept for older scripts" in text


def test_a_log_that_cannot_be_written_stops_before_the_answer(
    demo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    monkeypatch.setenv("SPHERE_SESSION_DB", str(folder))
    with pytest.raises(SystemExit) as exc:
        main(["ask", QUESTION, "--no-llm"])
    captured = capsys.readouterr()
    assert exc.value.code != 0 and captured.out == ""
    assert "is a folder" in captured.err and "--no-log answers without recording" in captured.err
    out, _ = _sphere(["ask", QUESTION, "--no-llm", "--no-log"], capsys)
    assert out.startswith("Question: ")


def test_turns_are_named_by_their_place_in_the_session(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another session holds turns 1-3 of the log, so this session's turns 1-5 have ids
    4-8: every place that names a turn says 1-5."""
    with SessionStore(demo) as store:
        other = store.create_session(index="demo")
        for _ in range(3):
            store.add_turn(other, example_turn())
    _out, err = _sphere(["ask", QUESTION, "--no-llm"], capsys)
    session, _turn = _logged(err)
    out, err = _sphere(["ask", "why is [1] there?", "--session", str(session), "--no-llm"], capsys)
    assert out.startswith("[1] ") and _logged(err) == (session, 2)
    out, err = _sphere(["ask", "show me more", "--session", str(session), "--no-llm"], capsys)
    assert out.startswith("Follows turn 1: ")  # not the log's id 4
    assert _logged(err) == (session, 3)
    reply = json.loads(
        _sphere(
            ["ask", "why is [1] there?", "--session", str(session), "--no-llm", "--json"],
            capsys,
        )[0]
    )
    assert reply["session"] == session and reply["turn_number"] == 4 and reply["turn"] == 7
    assert reply["follows_number"] == 3 and reply["follows"] == 6
    md, _ = _sphere(
        ["ask", "only documents in Spanish", "--session", str(session), "--no-llm", "--markdown"],
        capsys,
    )
    assert md.startswith("## 5. only documents in Spanish")
    assert "*Follows turn 3: \\+ constraint language es*" in md

    show, _ = _sphere(["sessions", "show", str(session)], capsys)
    heads = re.findall(r"^Turn (\d+) · .* · id (\d+)$", show, flags=re.M)
    assert heads == [(str(n), str(n + 3)) for n in range(1, 6)]
    assert "\n  follows turn 1: about reference [1]\n" in show
    assert "\n  follows turn 1: + page both\n" in show
    assert "\n  follows turn 3: + constraint language es\n" in show
    data = json.loads(_sphere(["sessions", "show", str(session), "--json"], capsys)[0])
    assert [t["number"] for t in data["turns"]] == [1, 2, 3, 4, 5]
    assert [t["follows_number"] for t in data["turns"]] == [None, 1, 1, 3, 3]
    export, _ = _sphere(["export", str(session)], capsys)
    assert export.count("*Follows turn 3") == 2 and export.count("*Follows turn 1") == 2
    found, _ = _sphere(["sessions", "search", "Spanish"], capsys)
    assert f"session {session} · turn 5 · only documents in Spanish" in found
