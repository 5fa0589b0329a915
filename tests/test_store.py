"""The session log: round trips, migrations, refusal of foreign files, WAL, search."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.errors import StoreError
from assistant.models import TurnResult
from assistant.store import (
    SCHEMA_VERSION,
    SNIPPET_MARKS,
    SessionStore,
    answer_text,
    default_title,
    fts_query,
)
from tests.turn_strategies import example_turn, turn_results


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SessionStore]:
    with SessionStore(tmp_path / "sessions.db") as s:
        yield s


# --------------------------------------------------------------------------- round trips

_shared: dict[str, SessionStore] = {}


def _shared_store() -> SessionStore:
    # one store for all hypothesis examples (function-scoped fixtures don't reset per example)
    if "s" not in _shared:
        _shared["s"] = SessionStore(Path(tempfile.mkdtemp()) / "roundtrip.db")
    return _shared["s"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(result=turn_results)
def test_turn_round_trip(result: TurnResult) -> None:
    s = _shared_store()
    sid = s.create_session(index=result.index)
    tid = s.add_turn(sid, result)
    [stored] = s.turns(sid)
    assert stored.id == tid and stored.session_id == sid
    assert stored.result == result
    assert s.get_turn(tid).result == result


@settings(max_examples=30, deadline=None)
@given(
    title=st.text(max_size=80),
    index=st.text(max_size=20),
    settings_snapshot=st.dictionaries(st.text(max_size=10), st.integers() | st.text(max_size=10)),
    model=st.fixed_dictionaries(
        {"path": st.text(max_size=30), "sha256": st.text("0123456789abcdef", max_size=64)}
    ),
    embedder=st.text(max_size=20),
)
def test_session_round_trip(
    title: str, index: str, settings_snapshot: dict, model: dict, embedder: str
) -> None:
    s = _shared_store()
    sid = s.create_session(
        title, index=index, settings=settings_snapshot, model=model, embedder=embedder
    )
    info = s.get_session(sid)
    assert info.title == " ".join(title.split())
    assert (info.index, info.embedder, info.turns) == (index, embedder, 0)
    assert info.settings == settings_snapshot
    assert info.model == model


def test_title_defaults_to_first_question(store: SessionStore) -> None:
    sid = store.create_session(index="demo")
    long_q = "Should nuclear power be expanded to fight climate change, given  costs\nand risks?"
    store.add_turn(sid, example_turn(long_q))
    store.add_turn(sid, example_turn("second question"))
    info = store.get_session(sid)
    assert info.title == default_title(long_q)
    assert len(info.title) <= 60 and info.title.endswith("…") and "\n" not in info.title
    assert info.turns == 2
    assert [t.result.question for t in store.turns(sid)] == [long_q, "second question"]


def test_explicit_title_is_kept_and_rename(store: SessionStore) -> None:
    sid = store.create_session("My research", index="demo")
    store.add_turn(sid, example_turn())
    assert store.get_session(sid).title == "My research"
    store.rename_session(sid, "  Uniforms\tdebate ")
    assert store.get_session(sid).title == "Uniforms debate"


def test_list_sessions_newest_first(tmp_path: Path) -> None:
    times = iter(
        [
            "2025-01-01T10:00:00+00:00",
            "2025-03-01T10:00:00+00:00",
            "2025-02-01T10:00:00+00:00",
            "2025-03-01T10:00:00+00:00",
        ]
    )
    with SessionStore(tmp_path / "s.db", clock=lambda: next(times)) as s:
        a = s.create_session("a")
        b = s.create_session("b")
        c = s.create_session("c")
        d = s.create_session("d")  # same time as b: the later id wins the tie
        assert [x.id for x in s.list_sessions()] == [d, b, c, a]


def test_missing_session_is_a_store_error(store: SessionStore) -> None:
    for call in (
        lambda: store.get_session(99),
        lambda: store.turns(99),
        lambda: store.rename_session(99, "x"),
        lambda: store.delete_session(99),
        lambda: store.add_turn(99, example_turn()),
    ):
        with pytest.raises(StoreError, match="no session with id 99"):
            call()


def test_delete_removes_turns_and_search_entries(store: SessionStore) -> None:
    keep = store.create_session(index="demo")
    store.add_turn(keep, example_turn("Is a four-day work week good for business?"))
    gone = store.create_session(index="demo")
    store.add_turn(gone, example_turn())
    store.add_turn(gone, example_turn("Are uniforms cheaper?"))
    assert {h.session_id for h in store.search("uniforms")} == {gone, keep}  # answers mention it
    store.delete_session(gone)
    assert [s.id for s in store.list_sessions()] == [keep]
    assert {h.session_id for h in store.search("uniforms")} == {keep}
    n = store.db.execute("SELECT COUNT(*) FROM turns WHERE session_id = ?", [gone]).fetchone()
    assert n[0] == 0


def test_closed_store_refuses_calls(tmp_path: Path) -> None:
    s = SessionStore(tmp_path / "s.db")
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.list_sessions()


# --------------------------------------------------------------------------- file handling


def test_wal_mode_and_parent_folders_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "sessions.db"
    with SessionStore(path) as s:
        s.create_session("x")
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


@pytest.mark.parametrize(
    "content",
    [b"this is a text file, not a database\n", b"\x00\x01\x02" * 100, b"SQLite format 2\x00junk"],
)
def test_not_a_database_is_refused_and_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "sessions.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="not a SQLite database") as info:
        SessionStore(path)
    assert "session_db" in str(info.value)  # says what to do
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sessions.db"]


def test_foreign_sqlite_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a Sphere session log"):
        SessionStore(path)
    assert path.read_bytes() == before


def test_folder_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        SessionStore(tmp_path)


def test_empty_file_becomes_a_database(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    path.touch()
    with SessionStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION


# --------------------------------------------------------------------------- migrations

V1_SCHEMA = """
CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO _meta VALUES ('schema_version', '1');
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', created TEXT NOT NULL,
    updated TEXT NOT NULL, index_name TEXT NOT NULL DEFAULT '',
    embedder TEXT NOT NULL DEFAULT '', model_path TEXT NOT NULL DEFAULT '',
    model_sha256 TEXT NOT NULL DEFAULT '', settings_json TEXT NOT NULL DEFAULT '{}');
CREATE TABLE turns (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created TEXT NOT NULL, question TEXT NOT NULL, plan_json TEXT NOT NULL DEFAULT '{}',
    hits_json TEXT NOT NULL DEFAULT '{}', summary_json TEXT NOT NULL DEFAULT '{}',
    timings_json TEXT NOT NULL DEFAULT '{}', model_json TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'done');
CREATE INDEX turns_by_session ON turns(session_id, id);
"""


def _make_v1(path: Path, result: TurnResult) -> None:
    """A database as the first release wrote it: no retrieval column, no FTS."""
    d = result.to_dict()
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    conn.execute(
        "INSERT INTO sessions (id, title, created, updated, index_name, embedder, model_path, "
        "model_sha256) VALUES (7, 'old session', '2024-05-01T09:00:00+00:00', "
        "'2024-05-01T09:05:00+00:00', 'demo', 'all-MiniLM-L6-v2', '/models/m.gguf', 'abc123')"
    )
    conn.execute(
        "INSERT INTO turns (session_id, created, question, plan_json, hits_json, summary_json, "
        "timings_json, model_json) VALUES (7, '2024-05-01T09:05:00+00:00', ?, ?, ?, ?, ?, ?)",
        [d["question"]]
        + [json.dumps(d[k]) for k in ("plan", "hits", "summary", "timings", "model")],
    )
    conn.commit()
    conn.close()


def test_v1_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = example_turn()
    _make_v1(path, old)
    with SessionStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        applied = s.db.execute("SELECT version, name FROM _migrations ORDER BY version")
        assert [v for v, _ in applied.fetchall()] == list(range(2, SCHEMA_VERSION + 1))
        info = s.get_session(7)
        assert (info.title, info.index, info.turns) == ("old session", "demo", 1)
        assert info.model == {"path": "/models/m.gguf", "sha256": "abc123"}
        [turn] = s.turns(7)
        # v1 had no retrieval column: everything else survives, index comes from the session
        expected = example_turn(retrieval={})
        assert turn.result == expected
        # the answer text was back-filled and indexed for search
        hits = s.search("income differences")
        assert [(h.session_id, h.turn_id) for h in hits] == [(7, turn.id)]
        # and the migrated database takes new turns
        s.add_turn(7, example_turn("Is a four-day work week good for business?"))
        assert s.get_session(7).turns == 2
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_reopening_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SessionStore(path) as s:
        sid = s.create_session("x")
        s.add_turn(sid, example_turn())
    with SessionStore(path) as s:
        rows = s.db.execute("SELECT COUNT(*) FROM _migrations").fetchone()[0]
        assert rows == SCHEMA_VERSION
        assert len(s.turns(sid)) == 1


def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with SessionStore(path) as s:
        s.create_session("from the future")
    conn = sqlite3.connect(path)
    conn.execute("UPDATE _meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 5,))
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version of Sphere") as info:
        SessionStore(path)
    assert f"v{SCHEMA_VERSION + 5}" in str(info.value)
    assert "upgrade Sphere" in str(info.value)
    assert path.read_bytes() == before


def test_failed_migration_rolls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration that fails half-way leaves the database at the previous version."""
    from assistant import store as store_module

    path = tmp_path / "old.db"
    _make_v1(path, example_turn())

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE turns ADD COLUMN half_done TEXT")
        raise sqlite3.OperationalError("simulated failure")

    patched = [(v, n, broken if v == 2 else f) for v, n, f in store_module.MIGRATIONS]
    monkeypatch.setattr(store_module, "MIGRATIONS", patched)
    with pytest.raises(StoreError, match="simulated failure"):
        SessionStore(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT value FROM _meta").fetchone()[0] == "1"
        columns = [r[1] for r in conn.execute("PRAGMA table_info(turns)")]
        assert "half_done" not in columns
    finally:
        conn.close()


# --------------------------------------------------------------------------- search


@pytest.fixture
def searchable(store: SessionStore) -> SessionStore:
    a = store.create_session(index="demo")
    store.add_turn(a, example_turn())
    b = store.create_session(index="demo")
    store.add_turn(b, example_turn('Is a "four-day" week good for business?'))
    return store


def test_fts_query_quotes_every_word() -> None:
    assert fts_query('school "uniforms') == '"school" "uniforms"'
    assert fts_query("NEAR(a b)") == '"NEAR" "a" "b"'
    assert fts_query("uni* -cost") == '"uni"* "cost"'
    assert fts_query('  * " ( ) ') == ""


def test_search_finds_questions_and_answers(searchable: SessionStore) -> None:
    [hit] = searchable.search("four-day")
    assert hit.question == 'Is a "four-day" week good for business?'
    assert SNIPPET_MARKS[0] in hit.snippet
    # answer text (perspectives) is searchable too, with stemming: "visible" in a perspective
    assert len(searchable.search("income differences visible")) == 2
    assert searchable.search("uniform") == searchable.search("uniforms")  # porter stemming
    assert len(searchable.search("cheap*")) == 2  # prefix
    assert searchable.search("wardrobe xylophone") == []  # all words required


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        "'",
        "*",
        "**",
        "NEAR",
        "NEAR(",
        "AND OR NOT",
        "a AND",
        "-",
        "^",
        ":",
        "(",
        ")",
        "{question}",
        "question:",
        "col:val",
        "\\",
        "%",
        "_",
        "",
        "   ",
        "\x00",
        "é",
        "日本語",
        '"unbalanced quote',
        "uniforms*",
        "*uniforms",
        "NOT uniforms",
    ],
)
def test_awkward_queries_never_fail(searchable: SessionStore, query: str) -> None:
    hits = searchable.search(query)
    assert isinstance(hits, list)


def test_empty_query_returns_nothing(searchable: SessionStore) -> None:
    assert searchable.search("") == []
    assert searchable.search("  \t ") == []


def test_operator_words_are_literal(store: SessionStore) -> None:
    sid = store.create_session()
    store.add_turn(sid, example_turn("Is NEAR field communication safe?"))
    other = store.create_session()
    store.add_turn(other, example_turn("Is field work safe?"))
    assert [h.session_id for h in store.search("NEAR")] == [sid]
    # as operators these would match both sessions; as words ("or" is in no turn) they match none
    assert store.search("OR field") == []
    assert store.search("field OR xylophone") == []


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=st.text(max_size=30))
def test_any_query_is_safe(query: str) -> None:
    s = _shared_store()
    assert isinstance(s.search(query), list)


def test_answer_text_collects_claims_perspectives_notes() -> None:
    text = answer_text(example_turn().summary.to_dict())
    assert "School uniforms should be mandatory." in text
    assert "Uniforms make income differences less visible." in text
    assert "Only one document found for this side." in text
    assert "The index has few documents against this claim." in text
