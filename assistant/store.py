"""The session log: sessions and their turns in one SQLite file (DESIGN §2, "record").

A *session* is a conversation on one index; a *turn* is one question and
everything the pass produced for it (:class:`~assistant.models.TurnResult`):
query plan, retrieval hits with their per-method scores, the two-sided summary
with its verification and balance report (or, for a lookup question, the
ranked list with each row's aspect checks, kept in ``extra_json`` under
``lookup``; for a factual question, the passages that answer it, under
``answer``), stage timings, the model and retrieval settings used.

Durability: the file is in WAL mode and each turn is written in one
transaction when it finishes, so killing the process loses at most the turn in
flight and never damages earlier ones.

Schema changes are numbered migrations (the habit of simonw/llm's
``migrations.py``), each applied in its own transaction together with the bump
of ``_meta.schema_version``. A database written by a newer Sphere is refused,
not "upgraded" backwards; a file that is not a SQLite database is refused and
left untouched.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlite_utils

from assistant.errors import StoreError
from assistant.models import Correction, TurnResult

SQLITE_MAGIC = b"SQLite format 3\x00"
TITLE_MAX = 60

# --------------------------------------------------------------------------- records


@dataclass
class SessionInfo:
    """One row of the sessions list."""

    id: int
    title: str
    created: str  # ISO 8601, UTC
    updated: str
    turns: int
    index: str
    embedder: str = ""
    model: dict[str, Any] = field(default_factory=dict)  # path, sha256, backend …
    settings: dict[str, Any] = field(default_factory=dict)  # snapshot at creation

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class StoredTurn:
    id: int
    session_id: int
    created: str
    result: TurnResult
    status: str = "done"


@dataclass
class SearchHit:
    session_id: int
    turn_id: int
    question: str
    snippet: str  # matched words wrapped in SNIPPET_MARKS
    session_title: str = ""
    created: str = ""
    turn_number: int = 0  # the turn's place in its session (turn_numbers)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def turn_numbers(turns: Iterable[StoredTurn]) -> dict[int, int]:
    """Turn id → the turn's place in its session (1, 2, …), oldest first: how the app,
    ``sessions show``, the export and ``sphere ask --session`` name a turn ("Follows turn
    2"). The ids are the log's, shared by every session, so they are not shown as turns."""
    return {t.id: n for n, t in enumerate(turns, 1)}


# Not [ ]: snippets are shown in Rich/Textual, where brackets are markup.
SNIPPET_MARKS = ("«", "»")

# --------------------------------------------------------------------------- migrations

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[int, str, Migration]] = []


def migration(version: int) -> Callable[[Migration], Migration]:
    def register(fn: Migration) -> Migration:
        MIGRATIONS.append((version, fn.__name__, fn))
        return fn

    return register


@migration(1)
def m001_sessions_and_turns(conn: sqlite3.Connection) -> None:
    conn.execute(
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            index_name TEXT NOT NULL DEFAULT '',
            embedder TEXT NOT NULL DEFAULT '',
            model_path TEXT NOT NULL DEFAULT '',
            model_sha256 TEXT NOT NULL DEFAULT '',
            settings_json TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    conn.execute(
        """CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            created TEXT NOT NULL,
            question TEXT NOT NULL,
            plan_json TEXT NOT NULL DEFAULT '{}',
            hits_json TEXT NOT NULL DEFAULT '{}',
            summary_json TEXT NOT NULL DEFAULT '{}',
            timings_json TEXT NOT NULL DEFAULT '{}',
            model_json TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL DEFAULT 'done'
        )"""
    )
    conn.execute("CREATE INDEX turns_by_session ON turns(session_id, id)")


@migration(2)
def m002_turn_details(conn: sqlite3.Connection) -> None:
    """Retrieval settings, verification/balance, answer text (for search) per turn."""
    for column in (
        "index_name TEXT NOT NULL DEFAULT ''",
        "retrieval_json TEXT NOT NULL DEFAULT '{}'",
        "balance_json TEXT NOT NULL DEFAULT '{}'",
        "verification_json TEXT NOT NULL DEFAULT '{}'",
        "answer_text TEXT NOT NULL DEFAULT ''",
        # keys of TurnResult.to_dict() this schema has no column for (forward compatible)
        "extra_json TEXT NOT NULL DEFAULT '{}'",
    ):
        conn.execute(f"ALTER TABLE turns ADD COLUMN {column}")
    conn.execute("ALTER TABLE sessions ADD COLUMN model_json TEXT NOT NULL DEFAULT '{}'")
    conn.execute(
        "UPDATE turns SET index_name = "
        "(SELECT sessions.index_name FROM sessions WHERE sessions.id = turns.session_id)"
    )
    rows = conn.execute("SELECT id, summary_json FROM turns").fetchall()
    for turn_id, summary_json in rows:
        summary = _loads(summary_json, {})
        conn.execute(
            "UPDATE turns SET answer_text = ?, balance_json = ?, verification_json = ? "
            "WHERE id = ?",
            (
                answer_text(summary),
                _dumps(summary.get("balance", {})),
                _dumps(verification_summary(summary)),
                turn_id,
            ),
        )


@migration(3)
def m003_full_text_search(conn: sqlite3.Connection) -> None:
    # External-content FTS5 kept in step by triggers (sqlite-utils' enable_fts shape),
    # written out here because enable_fts commits and a migration must be one transaction.
    conn.execute(
        "CREATE VIRTUAL TABLE turns_fts USING fts5(question, answer_text, "
        "content='turns', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')"
    )
    conn.execute(
        "CREATE TRIGGER turns_ai AFTER INSERT ON turns BEGIN "
        "INSERT INTO turns_fts(rowid, question, answer_text) "
        "VALUES (new.id, new.question, new.answer_text); END"
    )
    conn.execute(
        "CREATE TRIGGER turns_ad AFTER DELETE ON turns BEGIN "
        "INSERT INTO turns_fts(turns_fts, rowid, question, answer_text) "
        "VALUES ('delete', old.id, old.question, old.answer_text); END"
    )
    conn.execute(
        "CREATE TRIGGER turns_au AFTER UPDATE ON turns BEGIN "
        "INSERT INTO turns_fts(turns_fts, rowid, question, answer_text) "
        "VALUES ('delete', old.id, old.question, old.answer_text); "
        "INSERT INTO turns_fts(rowid, question, answer_text) "
        "VALUES (new.id, new.question, new.answer_text); END"
    )
    conn.execute("INSERT INTO turns_fts(turns_fts) VALUES ('rebuild')")


@migration(4)
def m004_corrections(conn: sqlite3.Connection) -> None:
    """The user's corrections of sides (issue 33), each a labelled example: the document,
    where the answer had it and where the user put it, what the stance model read it
    against (question, claims), what it judged (the passages) and what it said (its three
    probabilities; NULL when the turn did not record them). ``turns.model_summary_json``
    keeps the summary as the pass wrote it, before its first correction ('' if none)."""
    conn.execute(
        """CREATE TABLE corrections (
            id INTEGER PRIMARY KEY,
            turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
            created TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            old_place TEXT NOT NULL DEFAULT '',
            new_place TEXT NOT NULL CHECK (new_place IN ('pro', 'con', 'out')),
            question TEXT NOT NULL DEFAULT '',
            claim_a TEXT NOT NULL DEFAULT '',
            claim_b TEXT NOT NULL DEFAULT '',
            p_pro REAL,
            p_con REAL,
            p_neither REAL,
            passages_json TEXT NOT NULL DEFAULT '[]',
            quotes_json TEXT NOT NULL DEFAULT '[]',
            stance_model TEXT NOT NULL DEFAULT ''
        )"""
    )
    conn.execute("CREATE INDEX corrections_by_turn ON corrections(turn_id, id)")
    conn.execute("ALTER TABLE turns ADD COLUMN model_summary_json TEXT NOT NULL DEFAULT ''")


SCHEMA_VERSION = max(v for v, _, _ in MIGRATIONS)

# --------------------------------------------------------------------------- helpers


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _loads(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def answer_text(
    summary: dict[str, Any],
    lookup: dict[str, Any] | None = None,
    answer: dict[str, Any] | None = None,
) -> str:
    """The searchable text of an answer: claims, perspective sentences, notes;
    for a lookup the listed documents' titles and their aspects' verified quotes;
    for a factual answer its documents' titles and quotes."""
    parts: list[str] = []
    for row in (answer or {}).get("rows", []) or []:
        parts.append(str(row.get("title", "") or row.get("doc_id", "")))
        ref = row.get("reference") or {}
        if ref.get("quote"):
            parts.append(str(ref["quote"]))
    for row in (lookup or {}).get("rows", []) or []:
        parts.append(str(row.get("title", "") or row.get("doc_id", "")))
        for m in row.get("aspects", []) or []:
            ref = m.get("reference") or {}
            if m.get("met") and ref.get("quote"):
                parts.append(str(ref["quote"]))
    for claim in summary.get("claims", []) or []:
        parts.append(str(claim.get("claim", "")))
        parts.extend(str(p.get("text", "")) for p in claim.get("perspectives", []) or [])
        if claim.get("note"):
            parts.append(str(claim["note"]))
    parts.extend(str(n) for n in summary.get("notes", []) or [])
    return "\n".join(p for p in parts if p)


def verification_summary(
    summary: dict[str, Any],
    lookup: dict[str, Any] | None = None,
    answer: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Counts of verified references, for inspection and queries without parsing summaries.

    A lookup's references are its rows' aspect evidence (verified = the aspect is met);
    a factual answer's, its rows' quotes.
    """
    refs = [
        r
        for claim in summary.get("claims", []) or []
        for p in claim.get("perspectives", []) or []
        for r in p.get("references", []) or []
    ]
    refs += [
        m["reference"]
        for row in (lookup or {}).get("rows", []) or []
        for m in row.get("aspects", []) or []
        if m.get("reference")
    ]
    refs += [
        row["reference"] for row in (answer or {}).get("rows", []) or [] if row.get("reference")
    ]
    supports = [float(r.get("support", 0.0) or 0.0) for r in refs]
    return {
        "references": len(refs),
        "verified": sum(1 for r in refs if r.get("verified")),
        "mean_support": sum(supports) / len(supports) if supports else 0.0,
    }


def default_title(question: str) -> str:
    title = " ".join(question.split())
    return title if len(title) <= TITLE_MAX else title[: TITLE_MAX - 1].rstrip() + "…"


_WORD = re.compile(r"(\w+)(\*?)")


def fts_query(text: str) -> str:
    """User text → a safe FTS5 query: each word a quoted phrase, all required.

    FTS5 syntax (quotes, ``NEAR``, ``AND``, ``-``, ``:``, ``^``) in the input is
    taken literally; a trailing ``*`` on a word keeps its prefix meaning.
    Returns ``""`` when the text has no words.
    """
    return " ".join(f'"{w}"' + ("*" if star else "") for w, star in _WORD.findall(text))


# --------------------------------------------------------------------------- the store

_KNOWN_KEYS = {
    "question",
    "plan",
    "hits",
    "summary",
    "index",
    "timings",
    "model",
    "retrieval",
    "corrections",  # rows of the corrections table
}

_CORRECTION_COLUMNS = (
    "turn_id, created, doc_id, title, old_place, new_place, question, claim_a, claim_b, "
    "p_pro, p_con, p_neither, passages_json, quotes_json, stance_model"
)


def _correction_row(turn_id: int, c: Correction, created: str) -> tuple[Any, ...]:
    p = list(c.p) if c.p is not None and len(c.p) == 3 else [None, None, None]
    return (
        turn_id,
        created,
        c.doc_id,
        c.title,
        c.was,
        c.to,
        c.question,
        c.claims[0],
        c.claims[1],
        *p,
        _dumps(list(c.passages)),
        _dumps(list(c.quotes)),
        c.stance_model,
    )


def _correction(row: tuple[Any, ...]) -> Correction:
    (created, doc_id, title, old, new, question, a, b, pp, pc, pn, passages, quotes, model) = row
    p = [float(pp), float(pc), float(pn)] if None not in (pp, pc, pn) else None
    return Correction(
        doc_id=doc_id,
        to=new,
        was=old,
        title=title,
        question=question,
        claims=(a, b),
        p=p,
        passages=[str(t) for t in _loads(passages, [])],
        quotes=[str(t) for t in _loads(quotes, [])],
        stance_model=model,
        created=created,
    )


_SESSION_SELECT = (
    "SELECT s.id, s.title, s.created, s.updated, s.index_name, s.embedder, s.model_json, "
    "s.model_path, s.model_sha256, s.settings_json, "
    "(SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS n_turns FROM sessions s"
)


class SessionStore:
    """The session log in one SQLite file. Safe to share between threads."""

    def __init__(self, path: Path | str, *, clock: Callable[[], str] | None = None) -> None:
        self.path = Path(path).expanduser()
        self._clock = clock or _now
        self._lock = threading.RLock()
        self._check_file()
        try:
            conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the session database {self.path}: {exc}") from None
        self._conn: sqlite3.Connection | None = conn
        try:
            self._open(conn)
        except BaseException:
            conn.close()
            self._conn = None
            raise

    # ------------------------------------------------------------------ opening

    def _check_file(self) -> None:
        p = self.path
        if p.is_dir():
            raise StoreError(
                f"the session database path {p} is a folder",
                hint="set session_db in config.yaml to a file path",
            )
        if p.exists():
            try:
                with p.open("rb") as f:
                    head = f.read(len(SQLITE_MAGIC))
            except OSError as exc:
                raise StoreError(f"cannot read the session database {p}: {exc}") from None
            if head and head != SQLITE_MAGIC:
                raise StoreError(
                    f"{p} is not a SQLite database, so Sphere will not use or overwrite it",
                    hint="move the file away, or set session_db in config.yaml to another path",
                )
        else:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {p}: {exc}") from None

    def _open(self, conn: sqlite3.Connection) -> None:
        try:
            # busy_timeout first: switching to WAL can itself meet a lock
            conn.execute("PRAGMA busy_timeout = 10000")
            version = self._schema_version(conn)
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer version of Sphere "
                    f"(session schema v{version}; this version understands up to "
                    f"v{SCHEMA_VERSION})",
                    hint="upgrade Sphere, or set session_db in config.yaml to another file",
                )
            self.db = sqlite_utils.Database(conn)
            self.db.enable_wal()
            conn.execute("PRAGMA foreign_keys = ON")
            self._migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the session database {self.path} is unusable: {exc}") from None

    def _schema_version(self, conn: sqlite3.Connection) -> int:
        tables = {
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        }
        if "_meta" not in tables:
            if tables - {"sqlite_sequence"}:
                raise StoreError(
                    f"{self.path} is a SQLite database but not a Sphere session log; "
                    "Sphere will not change it",
                    hint="set session_db in config.yaml to another file",
                )
            return 0
        row = conn.execute("SELECT value FROM _meta WHERE key = 'schema_version'").fetchone()
        try:
            return int(row[0]) if row else 0
        except (TypeError, ValueError):
            raise StoreError(f"{self.path} has an unreadable schema version ({row[0]!r})") from None

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT)")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS _migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)"
        )
        for version, name, fn in sorted(MIGRATIONS):
            with self._transaction(conn):
                # re-read inside the write lock: another process may have migrated meanwhile
                if self._schema_version(conn) >= version:
                    continue
                fn(conn)
                conn.execute(
                    "INSERT OR REPLACE INTO _meta (key, value) VALUES ('schema_version', ?)",
                    (str(version),),
                )
                conn.execute(
                    "INSERT OR REPLACE INTO _migrations (version, name, applied) VALUES (?, ?, ?)",
                    (version, name, _now()),
                )

    @staticmethod
    @contextmanager
    def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def _use(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """The connection, under the lock, with SQLite errors turned into StoreError."""
        with self._lock:
            if self._conn is None:
                raise StoreError("the session database is closed")
            conn = self._conn
            try:
                if write:
                    with self._transaction(conn):
                        yield conn
                else:
                    yield conn
            except sqlite3.Error as exc:
                raise StoreError(f"session database {self.path}: {exc}") from None

    @property
    def schema_version(self) -> int:
        with self._use() as conn:
            return self._schema_version(conn)

    # ------------------------------------------------------------------ sessions

    def create_session(
        self,
        title: str = "",
        *,
        index: str = "",
        settings: dict[str, Any] | None = None,
        model: dict[str, Any] | None = None,
        embedder: str = "",
    ) -> int:
        model = dict(model or {})
        now = self._clock()
        with self._use(write=True) as conn:
            cur = conn.execute(
                "INSERT INTO sessions (title, created, updated, index_name, embedder, "
                "model_path, model_sha256, model_json, settings_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    " ".join(title.split()),
                    now,
                    now,
                    index,
                    embedder,
                    # the pipeline's model_info() calls the GGUF path "gguf"
                    str(model.get("path") or model.get("gguf") or ""),
                    str(model.get("sha256", "") or ""),
                    _dumps(model),
                    _dumps(settings or {}),
                ),
            )
            return int(cur.lastrowid or 0)

    def list_sessions(self) -> list[SessionInfo]:
        """All sessions, newest first."""
        with self._use() as conn:
            rows = conn.execute(_SESSION_SELECT + " ORDER BY s.created DESC, s.id DESC")
            return [self._session_info(r) for r in rows.fetchall()]

    def get_session(self, session_id: int) -> SessionInfo:
        with self._use() as conn:
            row = conn.execute(_SESSION_SELECT + " WHERE s.id = ?", (session_id,)).fetchone()
        if row is None:
            raise self._missing(session_id)
        return self._session_info(row)

    def rename_session(self, session_id: int, title: str) -> None:
        with self._use(write=True) as conn:
            cur = conn.execute(
                "UPDATE sessions SET title = ? WHERE id = ?", (" ".join(title.split()), session_id)
            )
            if cur.rowcount == 0:
                raise self._missing(session_id)

    def delete_session(self, session_id: int) -> None:
        """Delete a session and its turns (and their search entries)."""
        with self._use(write=True) as conn:
            conn.execute("DELETE FROM turns WHERE session_id = ?", (session_id,))
            cur = conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            if cur.rowcount == 0:
                raise self._missing(session_id)

    def _missing(self, session_id: int) -> StoreError:
        return StoreError(
            f"no session with id {session_id} in {self.path}",
            hint="`sphere sessions list` shows the sessions there are",
        )

    @staticmethod
    def _session_info(row: tuple[Any, ...]) -> SessionInfo:
        (sid, title, created, updated, index, embedder, model_json, path, sha, settings_json, n) = (
            row
        )
        model = _loads(model_json, {})
        if path and "path" not in model:
            model["path"] = path
        if sha and "sha256" not in model:
            model["sha256"] = sha
        return SessionInfo(
            id=int(sid),
            title=title,
            created=created,
            updated=updated,
            turns=int(n),
            index=index,
            embedder=embedder,
            model=model,
            settings=_loads(settings_json, {}),
        )

    # ------------------------------------------------------------------ turns

    def add_turn(self, session_id: int, result: TurnResult, *, status: str = "done") -> int:
        """Record a finished turn in one transaction; returns the turn id.

        A session without a title takes the first question (truncated) as its title.
        The turn's corrections (``result.corrections``, which its summary already
        shows) go to the corrections table.
        """
        d = result.to_dict()
        summary = d.get("summary", {})
        extra = {k: v for k, v in d.items() if k not in _KNOWN_KEYS}
        now = self._clock()
        try:
            values = (
                session_id,
                now,
                result.question,
                _dumps(d.get("plan", {})),
                _dumps(d.get("hits", {})),
                _dumps(summary),
                _dumps(d.get("timings", {})),
                _dumps(d.get("model", {})),
                status,
                result.index,
                _dumps(d.get("retrieval", {})),
                _dumps(summary.get("balance", {})),
                _dumps(verification_summary(summary, d.get("lookup"), d.get("answer"))),
                answer_text(summary, d.get("lookup"), d.get("answer")),
                _dumps(extra),
            )
            rows = [_correction_row(0, c, c.created or now) for c in result.corrections]
        except (TypeError, ValueError) as exc:
            raise StoreError(f"this turn cannot be saved as JSON: {exc}") from None
        with self._use(write=True) as conn:
            if (
                conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone()
                is None
            ):
                raise self._missing(session_id)
            cur = conn.execute(
                "INSERT INTO turns (session_id, created, question, plan_json, hits_json, "
                "summary_json, timings_json, model_json, status, index_name, retrieval_json, "
                "balance_json, verification_json, answer_text, extra_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            )
            turn_id = int(cur.lastrowid or 0)
            for row in rows:
                self._insert_correction(conn, (turn_id, *row[1:]))
            conn.execute(
                "UPDATE sessions SET updated = ?, "
                "title = CASE WHEN title = '' THEN ? ELSE title END WHERE id = ?",
                (now, default_title(result.question), session_id),
            )
            return turn_id

    _TURN_SELECT = (
        "SELECT id, session_id, created, status, question, plan_json, hits_json, summary_json, "
        "index_name, timings_json, model_json, retrieval_json, extra_json FROM turns"
    )

    def turns(self, session_id: int) -> list[StoredTurn]:
        """The turns of a session, oldest first (StoreError if the session is missing)."""
        self.get_session(session_id)
        with self._use() as conn:
            rows = conn.execute(
                self._TURN_SELECT + " WHERE session_id = ? ORDER BY id", (session_id,)
            ).fetchall()
            fixes = self._corrections_of(
                conn, "turn_id IN (SELECT id FROM turns WHERE session_id = ?)", (session_id,)
            )
        return [self._stored_turn(r, fixes.get(int(r[0]), [])) for r in rows]

    def get_turn(self, turn_id: int) -> StoredTurn:
        with self._use() as conn:
            return self._get_turn(conn, turn_id)

    def _get_turn(self, conn: sqlite3.Connection, turn_id: int) -> StoredTurn:
        row = conn.execute(self._TURN_SELECT + " WHERE id = ?", (turn_id,)).fetchone()
        if row is None:
            raise StoreError(f"no turn with id {turn_id} in {self.path}")
        fixes = self._corrections_of(conn, "turn_id = ?", (turn_id,))
        return self._stored_turn(row, fixes.get(turn_id, []))

    # ------------------------------------------------------------------ corrections

    @staticmethod
    def _insert_correction(conn: sqlite3.Connection, row: tuple[Any, ...]) -> int:
        cur = conn.execute(
            f"INSERT INTO corrections ({_CORRECTION_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        return int(cur.lastrowid or 0)

    @staticmethod
    def _corrections_of(
        conn: sqlite3.Connection, where: str, args: tuple[Any, ...]
    ) -> dict[int, list[Correction]]:
        rows = conn.execute(
            f"SELECT turn_id, {_CORRECTION_COLUMNS.split(', ', 1)[1]} FROM corrections "
            f"WHERE {where} ORDER BY id",
            args,
        ).fetchall()
        out: dict[int, list[Correction]] = {}
        for row in rows:
            out.setdefault(int(row[0]), []).append(_correction(row[1:]))
        return out

    def add_correction(self, turn_id: int, correction: Correction) -> TurnResult:
        """Record the user's ``correction`` of a side in turn ``turn_id`` and apply it to
        the turn's answer, in one transaction; returns the corrected turn.

        The summary is stored corrected (what every reader of the log shows), the
        summary as the pass wrote it is kept once in ``model_summary_json``, and the
        correction itself in the corrections table. :class:`InputError` (from
        :func:`~assistant.summarize.correct.apply_correction`) when the turn cannot take it.
        """
        from assistant.summarize.correct import apply_correction

        created = correction.created or self._clock()
        with self._use(write=True) as conn:
            before = self._get_turn(conn, turn_id).result
            after = apply_correction(before, correction)
            after.corrections[-1].created = created
            summary = after.summary.to_dict()
            conn.execute(
                "UPDATE turns SET model_summary_json = CASE WHEN model_summary_json = '' "
                "THEN summary_json ELSE model_summary_json END, summary_json = ?, "
                "balance_json = ?, verification_json = ?, answer_text = ? WHERE id = ?",
                (
                    _dumps(summary),
                    _dumps(summary.get("balance", {})),
                    _dumps(verification_summary(summary)),
                    answer_text(summary),
                    turn_id,
                ),
            )
            self._insert_correction(conn, _correction_row(turn_id, correction, created))
            conn.execute(
                "UPDATE sessions SET updated = ? WHERE id = "
                "(SELECT session_id FROM turns WHERE id = ?)",
                (created, turn_id),
            )
        return after

    def all_corrections(self) -> list[tuple[int, Correction]]:
        """Every correction in the log as (turn id, correction), oldest first."""
        with self._use() as conn:
            rows = conn.execute(
                f"SELECT {_CORRECTION_COLUMNS} FROM corrections ORDER BY id"
            ).fetchall()
        return [(int(r[0]), _correction(r[1:])) for r in rows]

    @staticmethod
    def _stored_turn(row: tuple[Any, ...], corrections: list[Correction]) -> StoredTurn:
        (tid, sid, created, status, question, plan, hits, summary, index, timings, model) = row[:11]
        retrieval, extra = row[11], row[12]
        data: dict[str, Any] = dict(_loads(extra, {}))
        data.update(
            question=question,
            plan=_loads(plan, {}),
            hits=_loads(hits, {}),
            summary=_loads(summary, {}),
            index=index,
            timings=_loads(timings, {}),
            model=_loads(model, {}),
            retrieval=_loads(retrieval, {}),
        )
        try:
            result = TurnResult.from_dict(data)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            raise StoreError(f"turn {tid} in the session database is unreadable: {exc}") from None
        result.corrections = list(corrections)
        return StoredTurn(
            id=int(tid), session_id=int(sid), created=created, result=result, status=status
        )

    # ------------------------------------------------------------------ search

    def search(self, query: str, *, limit: int = 50) -> list[SearchHit]:
        """Full-text search over questions and answers, best match first.

        Any string is safe: FTS5 operators in it are taken as words.
        """
        match = fts_query(query)
        if not match:
            return []
        with self._use() as conn:
            rows = conn.execute(
                "SELECT t.session_id, t.id, t.question, "
                "snippet(turns_fts, -1, ?, ?, '…', 12), s.title, t.created, "
                "(SELECT COUNT(*) FROM turns o WHERE o.session_id = t.session_id "
                "AND o.id <= t.id) "
                "FROM turns_fts JOIN turns t ON t.id = turns_fts.rowid "
                "JOIN sessions s ON s.id = t.session_id "
                "WHERE turns_fts MATCH ? ORDER BY rank LIMIT ?",
                (*SNIPPET_MARKS, match, limit),
            ).fetchall()
        return [
            SearchHit(
                session_id=int(r[0]),
                turn_id=int(r[1]),
                question=r[2],
                snippet=r[3] or "",
                session_title=r[4],
                created=r[5],
                turn_number=int(r[6]),
            )
            for r in rows
        ]

    # ------------------------------------------------------------------ lifetime

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
