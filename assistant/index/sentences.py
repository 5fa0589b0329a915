"""Sentence vectors stored with an index, so that an answer does not embed them.

The summarizer compares every sentence of the retrieved passages with the
question and the two claims (:func:`assistant.summarize.hiersphere.prepare`).
On long pages that embedding is most of an answer's time: on the 208 saved
debate pages an answer reads 300–500 sentences (2.0 of its 2.6 s without the
stance model), on the demo's short records about 85. So an index of at most
``index.sentence_vectors_max_passages`` passages embeds, once, at build time,
each passage's sentences — the quote units of
:func:`~assistant.summarize.evidence.sentence_spans`, the units the summarizer
reads — and keeps their unit vectors in ``sentences.sqlite`` beside the index:
one row a distinct passage text (keyed by its BLAKE2b hash, so compaction and
renumbering leave it valid), the spans (start and end, int32) and the vectors
(float16: a cosine moves by about 1e-4). A sentence is looked up by its span, so
vectors stored by a Sphere whose sentence rules differed are never handed to a
sentence they were not computed for (such a document is embedded live). At 10
sentences a passage of 384 dimensions that is about 8 KB a passage; the default
cap (200,000 passages, about 1.5 GB) keeps it off large indexes, which embed at
answer time as before.

A passage's sentences are embedded as one batch, so their vectors depend on
that passage alone, never on what else was built or asked. A build resumed or
repeated embeds only the passage texts the store lacks and drops the rows of
texts no longer in the index.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

FILE = "sentences.sqlite"
#: passages embedded and committed together at build time
BUILD_BATCH = 256


def passage_key(text: str) -> bytes:
    """The store's key of a passage: the BLAKE2b-128 hash of its text."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def passage_sentences(texts: Sequence[str], embedder: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """(spans (n, 2), unit vectors as float16) of each passage's sentences, one batch a
    passage (:meth:`~assistant.embed.SentenceTransformerEmbedder.encode_groups`)."""
    from assistant.summarize.evidence import sentence_spans, unit_rows

    spans = [sentence_spans(t) for t in texts]
    groups = [[t[s:e] for s, e in sp] for t, sp in zip(texts, spans, strict=True)]
    if hasattr(embedder, "encode_groups"):
        vecs = embedder.encode_groups(groups)
    else:
        vecs = [embedder.encode(g) for g in groups]
    out = []
    for sp, v in zip(spans, vecs, strict=True):
        at = np.array(sp, dtype=np.int32).reshape(len(sp), 2)
        rows = unit_rows(np.asarray(v, np.float32).reshape(len(sp), -1))
        out.append((at, rows.astype(np.float16)))
    return out


class SentenceStore:
    """``sentences.sqlite``: passage key -> (sentence spans, float16 unit vectors)."""

    def __init__(self, path: Path, *, writable: bool = False) -> None:
        self.path = path
        if writable:
            self.db = sqlite3.connect(path, check_same_thread=False)
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS sentences "
                "(key BLOB PRIMARY KEY, dim INTEGER, spans BLOB, vecs BLOB)"
            )
        else:
            self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)

    @classmethod
    def open(cls, folder: Path) -> SentenceStore | None:
        """The index's store, read only; None when it has none (a large or an older index)."""
        path = folder / FILE
        if not path.is_file():
            return None
        try:
            return cls(path)
        except sqlite3.Error:
            return None

    def get(self, keys: Iterable[bytes]) -> dict[bytes, tuple[np.ndarray, np.ndarray]]:
        """The stored (spans (n, 2), float32 vectors) of the keys the store holds."""
        want = list(dict.fromkeys(keys))
        out: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}
        for i in range(0, len(want), 500):
            part = want[i : i + 500]
            marks = ",".join("?" * len(part))
            try:
                rows = self.db.execute(
                    f"SELECT key, dim, spans, vecs FROM sentences WHERE key IN ({marks})", part
                ).fetchall()
            except sqlite3.Error:  # unreadable: the summarizer embeds as without a store
                return {}
            for key, dim, spans, vecs in rows:
                at = np.frombuffer(spans, dtype=np.int32).reshape(-1, 2)
                v = np.frombuffer(vecs, dtype=np.float16).astype(np.float32)
                out[bytes(key)] = (at, v.reshape(len(at), int(dim)))
        return out

    def keys(self) -> set[bytes]:
        return {bytes(r[0]) for r in self.db.execute("SELECT key FROM sentences")}

    def put(self, rows: Iterable[tuple[bytes, np.ndarray, np.ndarray]]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO sentences VALUES (?, ?, ?, ?)",
                [
                    (k, int(v.shape[1]) if v.ndim == 2 else 0, s.tobytes(), v.tobytes())
                    for k, s, v in rows
                ],
            )

    def keep_only(self, live: set[bytes]) -> int:
        """Drop the rows of passage texts not in ``live``; how many were dropped."""
        stale = [(k,) for k in self.keys() - live]
        with self.db:
            self.db.executemany("DELETE FROM sentences WHERE key = ?", stale)
        return len(stale)

    def close(self) -> None:
        self.db.close()


def build_store(
    folder: Path, passages: Iterable[tuple[list[int], list[str]]], embedder: Any
) -> tuple[int, int]:
    """Embed the sentences of every passage text the store lacks; drop the stale ones.

    ``passages`` yields (ids, texts) batches (:meth:`MetaStore.iter_passage_texts`).
    Committed every :data:`BUILD_BATCH` passages, so a killed build keeps what it
    embedded. Returns (passage texts embedded, rows dropped).
    """
    store = SentenceStore(folder / FILE, writable=True)
    try:
        have = store.keys()
        live: set[bytes] = set()
        todo: dict[bytes, str] = {}
        embedded = 0

        def flush() -> None:
            nonlocal embedded
            keys = list(todo)
            got = passage_sentences([todo[k] for k in keys], embedder)
            store.put((k, s, v) for k, (s, v) in zip(keys, got, strict=True))
            have.update(keys)
            embedded += len(keys)
            todo.clear()

        for _ids, texts in passages:
            for text in texts:
                key = passage_key(text)
                live.add(key)
                if key not in have and key not in todo:
                    todo[key] = text
                    if len(todo) >= BUILD_BATCH:
                        flush()
        if todo:
            flush()
        dropped = store.keep_only(live)
    finally:
        store.close()
    return embedded, dropped
