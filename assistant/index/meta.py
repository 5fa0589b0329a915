"""Index metadata in SQLite, and the append-only vector file beside it.

Layout of ``indexes/NAME/``::

    meta.sqlite     files, documents, passages, skipped, info (key/value)
    vectors.f32     float32 rows, one per passage, appended; passages.vec_row points in
    faiss.index     built from the live rows at the end of a build
    bm25/           bm25s index over passage texts (+ ids.npy: row -> passage_id)
    manifest.json   readable summary: embedder, dimension, chunking, FAISS type, hashes

The SQLite transaction is the commit point of a batch: vectors are appended
and flushed first, then documents and passages are inserted in one
transaction. A build killed between the two leaves unreferenced rows at the
end of ``vectors.f32``, which the next open truncates; so a resumed build never
sees a duplicate or a half-written document.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import IndexCorruptError, IndexMismatchError
from assistant.models import Document, Passage

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
    n_docs INTEGER NOT NULL DEFAULT 0, complete INTEGER NOT NULL DEFAULT 0, notes TEXT
);
CREATE TABLE IF NOT EXISTS documents (
    row INTEGER PRIMARY KEY, doc_id TEXT NOT NULL UNIQUE, file TEXT NOT NULL,
    title TEXT, source TEXT, path TEXT, format TEXT, language TEXT, n_words INTEGER,
    meta TEXT, text TEXT NOT NULL, attrs TEXT
);
CREATE INDEX IF NOT EXISTS documents_file ON documents(file);
CREATE TABLE IF NOT EXISTS passages (
    passage_id INTEGER PRIMARY KEY, doc_row INTEGER NOT NULL REFERENCES documents(row),
    ordinal INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, page INTEGER,
    text TEXT NOT NULL, vec_row INTEGER NOT NULL UNIQUE,
    UNIQUE (doc_row, ordinal)
);
CREATE TABLE IF NOT EXISTS skipped (path TEXT NOT NULL, reason TEXT NOT NULL);
"""


def is_storage_error(exc: BaseException) -> bool:
    """SQLite errors that mean "cannot write here", not "the file is damaged"."""
    msg = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and any(
        s in msg for s in ("disk is full", "readonly", "read-only", "unable to open", "disk i/o")
    )


class MetaStore:
    """SQLite metadata plus the vector file of one index."""

    def __init__(self, folder: Path, *, dim: int | None = None, readonly: bool = False) -> None:
        self.folder = folder
        self.db_path = folder / "meta.sqlite"
        self.vec_path = folder / "vectors.f32"
        self.readonly = readonly
        try:
            if readonly:
                uri = f"file:{self.db_path}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            else:
                self.db = sqlite3.connect(self.db_path, check_same_thread=False)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                self.db.executescript(_SCHEMA)
            self.db.execute("PRAGMA foreign_keys=ON")
            version = self.get_info("schema_version")
        except sqlite3.DatabaseError as exc:
            if is_storage_error(exc):
                raise  # disk full / read-only: the builder turns it into a clear message
            raise IndexCorruptError(
                f"the metadata database {self.db_path} is unreadable ({exc})",
                hint=f"remove it with `sphere index remove {folder.name}` and build it again",
            ) from None
        if version is None and not readonly:
            self.set_info("schema_version", str(SCHEMA_VERSION))
        elif version is not None and int(version) < SCHEMA_VERSION:
            if readonly:
                self.db.close()
                raise IndexMismatchError(
                    f"index '{folder.name}' was written by an older Sphere (schema {version})",
                    hint=f"run `sphere index build {folder.name} PATH…` again: it upgrades the "
                    "index in place without re-embedding",
                )
            self._migrate(int(version))
        elif version is not None and int(version) > SCHEMA_VERSION:
            raise IndexCorruptError(
                f"index {folder.name} was written by a newer Sphere (schema {version})",
                hint="upgrade Sphere, or rebuild the index",
            )
        self._dim = dim or (int(self.get_info("dim") or 0) or None)

    def _migrate(self, version: int) -> None:
        """Bring an index written by an older Sphere up to SCHEMA_VERSION."""
        with self.db:
            if version < 2:
                cols = {r[1] for r in self.db.execute("PRAGMA table_info(documents)")}
                if "attrs" not in cols:
                    self.db.execute("ALTER TABLE documents ADD COLUMN attrs TEXT")
            self.db.execute(
                "INSERT OR REPLACE INTO info VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )

    # ------------------------------------------------------------------ info
    def get_info(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM info WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_info(self, key: str, value: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO info VALUES (?, ?)", (key, value))

    def info(self) -> dict[str, str]:
        return {k: v for k, v in self.db.execute("SELECT key, value FROM info")}

    @property
    def dim(self) -> int:
        if not self._dim:
            raise IndexCorruptError(f"index {self.folder.name} has no vector dimension recorded")
        return self._dim

    # ------------------------------------------------------------------ vectors
    def vector_rows(self) -> int:
        if not self.vec_path.exists() or not self._dim:
            return 0
        return self.vec_path.stat().st_size // (4 * self._dim)

    def truncate_orphans(self) -> int:
        """Drop vector rows written after the last committed batch; return how many."""
        if self.readonly or not self.vec_path.exists() or not self._dim:
            return 0
        row = self.db.execute("SELECT MAX(vec_row) FROM passages").fetchone()
        keep = 0 if row[0] is None else int(row[0]) + 1
        have = self.vector_rows()
        if have > keep:
            with open(self.vec_path, "r+b") as fh:
                fh.truncate(keep * 4 * self.dim)
            return have - keep
        return 0

    def append_vectors(self, vectors: np.ndarray) -> int:
        """Append rows, flush to disk, and return the first new row number."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ValueError(f"expected (n, {self.dim}) vectors, got {vectors.shape}")
        first = self.vector_rows()
        with open(self.vec_path, "ab") as fh:
            fh.write(vectors.tobytes())
            fh.flush()
            os.fsync(fh.fileno())
        return first

    def vectors_memmap(self) -> np.ndarray:
        n = self.vector_rows()
        if n == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.memmap(self.vec_path, dtype=np.float32, mode="r", shape=(n, self.dim))

    # ------------------------------------------------------------------ files
    def file_rows(self) -> dict[str, dict[str, Any]]:
        cur = self.db.execute("SELECT path, sha256, size, mtime, n_docs, complete FROM files")
        return {
            r[0]: {"sha256": r[1], "size": r[2], "mtime": r[3], "n_docs": r[4], "complete": r[5]}
            for r in cur
        }

    def upsert_file(
        self, path: str, sha256: str, size: int, mtime: float, *, complete: bool
    ) -> None:
        with self.db:
            n = self.db.execute("SELECT COUNT(*) FROM documents WHERE file=?", (path,)).fetchone()
            self.db.execute(
                "INSERT OR REPLACE INTO files (path, sha256, size, mtime, n_docs, complete) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (path, sha256, size, mtime, int(n[0]), int(complete)),
            )

    def delete_file(self, path: str) -> int:
        """Remove a file and its documents and passages; return documents removed."""
        with self.db:
            rows = [
                r[0] for r in self.db.execute("SELECT row FROM documents WHERE file=?", (path,))
            ]
            self.db.executemany("DELETE FROM passages WHERE doc_row=?", [(r,) for r in rows])
            self.db.execute("DELETE FROM documents WHERE file=?", (path,))
            self.db.execute("DELETE FROM files WHERE path=?", (path,))
        return len(rows)

    def doc_ids_of_file(self, path: str) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT doc_id FROM documents WHERE file=?", (path,))}

    def existing_doc_files(self, doc_ids: Iterable[str]) -> dict[str, str]:
        ids = list(doc_ids)
        out: dict[str, str] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            q = f"SELECT doc_id, file FROM documents WHERE doc_id IN ({','.join('?' * len(part))})"
            out.update({r[0]: r[1] for r in self.db.execute(q, part)})
        return out

    # ------------------------------------------------------------------ batches
    def commit_batch(
        self,
        file: str,
        docs: Sequence[Document],
        passages: Sequence[Sequence[Passage]],
        first_vec_row: int,
    ) -> None:
        """Insert documents with their passages (vectors already appended)."""
        vec_row = first_vec_row
        with self.db:
            for doc, doc_passages in zip(docs, passages, strict=True):
                cur = self.db.execute(
                    "INSERT INTO documents (doc_id, file, title, source, path, format, language,"
                    " n_words, meta, text, attrs) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        doc.doc_id,
                        file,
                        doc.title,
                        doc.source,
                        doc.path,
                        doc.format,
                        doc.language,
                        doc.n_words,
                        json.dumps(doc.meta, ensure_ascii=False),
                        doc.text,
                        json.dumps(doc.attrs, ensure_ascii=False),
                    ),
                )
                doc_row = cur.lastrowid
                self.db.executemany(
                    'INSERT INTO passages (doc_row, ordinal, start, "end", page, text, vec_row)'
                    " VALUES (?,?,?,?,?,?,?)",
                    [
                        (doc_row, p.ordinal, p.start, p.end, p.page, p.text, vec_row + i)
                        for i, p in enumerate(doc_passages)
                    ],
                )
                vec_row += len(doc_passages)

    def record_skipped(self, skipped: Iterable[tuple[str, str]]) -> None:
        with self.db:
            self.db.execute("DELETE FROM skipped")
            self.db.executemany("INSERT INTO skipped VALUES (?, ?)", list(skipped))

    # ------------------------------------------------------------------ reads
    def counts(self) -> tuple[int, int]:
        d = self.db.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        p = self.db.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
        return int(d), int(p)

    def live_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(passage_ids, vec_rows, doc_rows) of every passage, by passage id."""
        cur = self.db.execute(
            "SELECT passage_id, vec_row, doc_row FROM passages ORDER BY passage_id"
        )
        # read in blocks into numpy: at 10M passages a single fetchall() would hold
        # ~1 GB of Python tuples at once
        parts: list[np.ndarray] = []
        while rows := cur.fetchmany(200_000):
            parts.append(np.array(rows, dtype=np.int64).reshape(-1, 3))
        arr = np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)
        return arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy()

    def iter_passage_texts(self, batch: int = 50_000) -> Iterable[tuple[list[int], list[str]]]:
        last = -1
        while True:
            rows = self.db.execute(
                "SELECT passage_id, text FROM passages WHERE passage_id > ? "
                "ORDER BY passage_id LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            yield [r[0] for r in rows], [r[1] for r in rows]
            last = rows[-1][0]

    def _passage_rows(self, passage_ids: Sequence[int]) -> Iterator[tuple[Passage, int, Any]]:
        """(Passage, doc_row, row) per id found; the row's [8:11] are title, source, path."""
        ids = [int(i) for i in passage_ids]
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            q = (
                'SELECT p.passage_id, d.doc_id, p.ordinal, p.text, p.start, p."end", p.page, '
                "p.doc_row, d.title, d.source, d.path FROM passages p "
                "JOIN documents d ON d.row = p.doc_row "
                f"WHERE p.passage_id IN ({','.join('?' * len(part))})"
            )
            for r in self.db.execute(q, part):
                passage = Passage(
                    doc_id=r[1], ordinal=r[2], text=r[3], start=r[4], end=r[5], page=r[6],
                    passage_id=r[0],
                )  # fmt: skip
                yield passage, r[7], r

    def passages(self, passage_ids: Sequence[int]) -> dict[int, tuple[Passage, int]]:
        """passage_id -> (Passage, doc_row)."""
        return {p.passage_id: (p, row) for p, row, _r in self._passage_rows(passage_ids)}

    def passages_and_documents(
        self, passage_ids: Sequence[int]
    ) -> tuple[dict[int, Passage], dict[int, Document]]:
        """(passage_id -> Passage, doc_row -> brief Document) in one read.

        What a result list shows of its evidence passages and their documents
        (id, title, source, path; see :meth:`documents_by_row` ``brief``).
        """
        passages: dict[int, Passage] = {}
        docs: dict[int, Document] = {}
        for p, row, r in self._passage_rows(passage_ids):
            passages[p.passage_id] = p
            if row not in docs:
                docs[row] = Document(
                    doc_id=p.doc_id, title=r[8] or "", text="", source=r[9] or "", path=r[10] or ""
                )
        return passages, docs

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """passage_id -> text, one read without the documents join (query feedback)."""
        ids = [int(i) for i in passage_ids]
        out: dict[int, str] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            marks = ",".join("?" * len(part))
            q = f"SELECT passage_id, text FROM passages WHERE passage_id IN ({marks})"
            out.update((int(r[0]), r[1]) for r in self.db.execute(q, part))
        return out

    def passages_of_doc(self, doc_id: str) -> list[Passage]:
        q = (
            'SELECT p.passage_id, p.ordinal, p.text, p.start, p."end", p.page FROM passages p '
            "JOIN documents d ON d.row = p.doc_row WHERE d.doc_id = ? ORDER BY p.ordinal"
        )
        return [
            Passage(
                doc_id=doc_id,
                ordinal=r[1],
                text=r[2],
                start=r[3],
                end=r[4],
                page=r[5],
                passage_id=r[0],
            )
            for r in self.db.execute(q, (doc_id,))
        ]

    _DOC_COLS = "row, doc_id, title, source, path, format, language, n_words, meta, attrs"

    def _doc(self, r: Sequence[Any], text: str = "") -> Document:
        return Document(
            doc_id=r[1],
            title=r[2] or "",
            text=text,
            source=r[3] or "",
            path=r[4] or "",
            format=r[5] or "",
            language=r[6] or "",
            n_words=r[7] or 0,
            meta=json.loads(r[8]) if r[8] else {},
            attrs=json.loads(r[9]) if r[9] else {},
        )

    def documents_missing_attrs(self, batch: int = 2000) -> list[tuple[int, str, dict[str, Any]]]:
        rows = self.db.execute(
            "SELECT row, text, meta FROM documents WHERE attrs IS NULL LIMIT ?", (batch,)
        ).fetchall()
        return [(int(r[0]), r[1], json.loads(r[2]) if r[2] else {}) for r in rows]

    def set_attrs(self, items: Sequence[tuple[int, dict[str, Any]]]) -> None:
        with self.db:
            self.db.executemany(
                "UPDATE documents SET attrs=?, language=? WHERE row=?",
                [(json.dumps(a, ensure_ascii=False), a.get("language", ""), r) for r, a in items],
            )

    def all_attrs(self) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """(document rows, attrs) of every document, for constraint filters."""
        rows = self.db.execute("SELECT row, attrs FROM documents ORDER BY row").fetchall()
        return (
            np.array([r[0] for r in rows], dtype=np.int64),
            [json.loads(r[1]) if r[1] else {} for r in rows],
        )

    def documents_by_row(
        self, rows: Sequence[int], *, with_text: bool = False, brief: bool = False
    ) -> dict[int, Document]:
        """row -> Document; ``brief`` reads only the id, title, source and path.

        A brief read is what a result list shows: it skips the JSON columns
        (``meta``, ``attrs``), whose parsing is most of this call's time.
        """
        out: dict[int, Document] = {}
        ids = [int(r) for r in rows]
        cols = "row, doc_id, title, source, path" if brief else self._DOC_COLS
        cols += ", text" if with_text else ""
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            q = f"SELECT {cols} FROM documents WHERE row IN ({','.join('?' * len(part))})"
            for r in self.db.execute(q, part):
                if brief:
                    out[int(r[0])] = Document(
                        doc_id=r[1],
                        title=r[2] or "",
                        text=r[5] if with_text else "",
                        source=r[3] or "",
                        path=r[4] or "",
                    )
                else:
                    out[int(r[0])] = self._doc(r, r[10] if with_text else "")
        return out

    def document(self, doc_id: str) -> Document | None:
        r = self.db.execute(
            f"SELECT {self._DOC_COLS}, text FROM documents WHERE doc_id=?", (doc_id,)
        ).fetchone()
        return None if r is None else self._doc(r, r[10])

    def skipped(self) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self.db.execute("SELECT path, reason FROM skipped")]

    def close(self) -> None:
        self.db.close()
