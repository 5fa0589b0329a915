"""The small things a new user noticed (issue 36, item 7), one test each: counts that
agree with their number, a citation's path printed once, demo records named instead of
an install path, ``sphere ask ""``, ``--config /dev/null``. The app's two (the palette's
"new topic" command, "answered in") are in tests/test_ui_details.py."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.commands.ask_cmd import cited_as, render_apart, render_lookup, render_text
from assistant.config import load_settings
from assistant.demo import demo_corpus_path
from assistant.errors import ConfigError
from assistant.export import turn_to_markdown
from assistant.locations import citation_where, shown_location
from assistant.models import AnswerRow, FactualAnswer, Lookup, LookupRow, Reference
from assistant.ui.format import balance_text
from assistant.wording import count
from tests.turn_strategies import example_turn

ONE_PLURAL = re.compile(
    r"\b1 (documents|sources|perspectives|distinct sources|turns|aspects|files|passages|"
    r"answers|references|questions)\b"
)


# ------------------------------------------------------------------ plural agreement


def test_count_agrees_with_its_number() -> None:
    assert count(1, "document") == "1 document"
    assert [count(n, "source") for n in (0, 2)] == ["0 sources", "2 sources"]
    assert count(1, "index", "indexes") == "1 index"
    assert count(3, "index", "indexes") == "3 indexes"


def test_no_output_says_one_with_a_plural() -> None:
    """The example turn's Claim B has one document, one source and one perspective."""
    turn = example_turn()
    con = next(s for s in turn.summary.balance.sides if s.side == "con")
    assert (con.documents_cited, con.distinct_sources, con.perspectives) == (1, 1, 1)
    text = render_text(turn)
    assert "AGAINST  1 document, 1 source, 1 perspective," in text
    shown = balance_text(turn.summary.balance)
    assert "Claim B: 1 document, 1 source, 1 perspective" in shown
    # the documents that take no side are a group of their own, counted in its heading
    turn.summary.balance.no_side_doc_ids = ["uniforms-05"]
    apart = render_apart(turn)
    assert apart[0].startswith("  Takes no side (1): ")
    markdown = turn_to_markdown(turn)
    lookup = Lookup(question="a quiet hotel", aspects=["quiet rooms"], rows=[])
    for said in (text, shown, markdown, lookup.ranking_text(), *render_lookup(lookup), *apart):
        assert not ONE_PLURAL.search(said), said
    assert lookup.ranking_text() == "Ranked by the whole question; 1 aspect checked."


def test_sessions_show_and_the_index_report_agree_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.commands.index_cmd import _print_report
    from assistant.index.build import BuildReport
    from assistant.store import SessionStore

    with SessionStore(Path(os.environ["SPHERE_SESSION_DB"])) as store:
        sid = store.create_session(index="demo")
        store.add_turn(sid, example_turn())
    main(["sessions", "show", str(sid)])
    out = capsys.readouterr().out
    assert " · 1 turn\n" in out and not ONE_PLURAL.search(out)
    report = BuildReport(name="one")
    report.documents = report.passages = report.files_indexed = 1
    _print_report(report)
    out = capsys.readouterr().out
    assert "1 document, 1 passage " in out and "1 file indexed" in out
    assert not ONE_PLURAL.search(out)


# ------------------------------------------------------------------ where a citation is


def test_a_file_citation_prints_its_path_once() -> None:
    path = "/home/u/papers/libtasn1.pdf"
    ref = Reference(doc_id=path, title="GNU Libtasn1", source=path, path=path, page=28)
    assert cited_as(ref.title, ref.source, ref.doc_id, ref.path, ref.page) == (
        f"GNU Libtasn1 — {path} (p. 28)"
    )
    turn = example_turn()
    turn.summary.claims[0].perspectives[0].references = [ref]
    assert render_text(turn).count(path) == 1
    # the evidence pane's line: the source, then the page alone
    assert citation_where(ref.source, ref.path, ref.page) == (path, "page 28")
    note = next(x for x in turn_to_markdown(turn).splitlines() if "GNU Libtasn1" in x)
    assert note.count("libtasn1.pdf") == 1 and "page 28" in note
    # a record keeps its id; a document without a title is named once by its path
    assert cited_as("", path, path, path) == path


def test_demo_records_are_named_not_pointed_into_the_install() -> None:
    installed = "/opt/pipx/venvs/sphere/lib/python3.11/site-packages/assistant/demo/corpus.jsonl"
    assert shown_location(f"{installed}#13") == "demo corpus, record 13"
    assert shown_location(f"{demo_corpus_path()}#2") == "demo corpus, record 2"
    assert shown_location("/data/news.jsonl#13") == "/data/news.jsonl#13"  # a user's records
    assert shown_location(installed) == installed  # a file, not a record of it
    ref = Reference(
        doc_id="uniforms-13",
        title="Uniforms hide poverty? Not really",
        source="Social Mobility Quarterly (magazine)",
        path=f"{installed}#13",
    )
    assert citation_where(ref.source, ref.path) == (ref.source, "demo corpus, record 13")
    turn = example_turn()
    turn.summary.claims[0].perspectives[0].references = [ref]
    markdown = turn_to_markdown(turn)
    assert "site-packages" not in markdown
    assert "Social Mobility Quarterly (magazine). demo corpus, record 13." in markdown
    assert "site-packages" not in render_text(turn)


def test_a_lookup_row_names_its_file_once() -> None:
    path = "/home/u/hotels/seaview.html"
    row = LookupRow(rank=1, doc_id=path, title="Seaview", source=path, path=path, score=0.5)
    lines = render_lookup(Lookup(question="a hotel", aspects=[], rows=[row]))
    (head,) = [x for x in lines if "Seaview" in x]
    assert head.count(path) == 1


def test_a_factual_answer_names_its_file_once_and_no_install_path() -> None:
    """The factual answers main gained go through the same rules as citations."""
    from assistant.commands.ask_cmd import render_answer
    from assistant.export import _answer, _Footnotes
    from assistant.ui.components.factual_view import row_heading

    path = "/home/u/specs/mime.pdf"
    ref = Reference(doc_id=path, title="MIME-info", source=path, path=path, page=3, quote="A.")
    row = AnswerRow(rank=1, doc_id=path, title="MIME-info", source=path, path=path, reference=ref)
    demo = f"{demo_corpus_path()}#13"
    other = AnswerRow(rank=2, doc_id="uniforms-13", title="Uniforms", source=demo, path=demo)
    answer = FactualAnswer(question="what is it?", rows=[row, other])
    text = "\n".join(render_answer(answer))
    markdown = "\n".join(_answer(answer, _Footnotes()))
    for said in (text, markdown, row_heading(row), row_heading(other)):
        assert said.count(path) <= 1 and "site-packages" not in said and "corpus.jsonl" not in said
    assert text.count(path) == 1 and "(p. 3)" in text
    assert "demo corpus, record 13" in text and "demo corpus, record 13" in markdown
    assert row_heading(other) == "2. Uniforms — demo corpus, record 13"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("question", ["", "   "])
def test_an_empty_question_says_so_and_shows_how_to_ask(
    question: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["ask", question])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "the question is empty" in err
    assert 'sphere ask "Should school uniforms be mandatory?"' in err
    assert "understand" not in err


def test_config_dev_null_is_an_empty_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = load_settings(os.devnull, environ={})
    assert settings.source_empty and settings.default_index == "demo"  # the defaults
    main(["--config", os.devnull, "config", "show"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        f"# settings file: {os.devnull} (found as --config; it holds no settings: "
        "built-in defaults)"
    )
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing set yet\n", encoding="utf-8")
    assert load_settings(empty, environ={}).source_empty
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.yaml", environ={})
    with pytest.raises(ConfigError, match="is a folder, not a config file"):
        load_settings(tmp_path, environ={})
    if Path("/dev/zero").exists():
        with pytest.raises(ConfigError, match="is a device, not a config file"):
            load_settings("/dev/zero", environ={})
    with pytest.raises(ConfigError, match=r"from \$SPHERE_CONFIG\) is a folder"):
        load_settings(None, environ={"SPHERE_CONFIG": str(tmp_path)})


def test_config_from_a_pipe_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "settings.fifo"
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # the writer end, as a shell's <(…) would be
        try:
            with fifo.open("w", encoding="utf-8") as f:
                f.write("default_index: piped\nsession_db: log.db\n")
        finally:
            os._exit(0)
    try:
        settings = load_settings(fifo, environ={})
    finally:
        os.waitpid(pid, 0)
    assert settings.default_index == "piped" and not settings.source_empty
    # a pipe's folder is no place for files: relative paths are from the current folder
    assert settings.session_db == Path.cwd() / "log.db"
