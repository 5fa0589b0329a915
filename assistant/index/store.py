"""A built index, opened for search: FAISS + BM25 + metadata.

This is what retrieval talks to. Everything is by passage id; documents are
grouped through ``doc_rows`` (an int array, passage id -> document row) so late
fusion is pure numpy.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import (
    IndexCorruptError,
    IndexIncompleteError,
    IndexMismatchError,
    IndexNotFoundError,
    InputError,
)
from assistant.index.meta import MetaStore
from assistant.models import Document, Passage
from assistant.wording import count

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def check_name(name: str) -> str:
    if not _NAME.match(name or ""):
        raise InputError(
            f"invalid index name {name!r}",
            hint="use letters, digits, '.', '_' or '-' (up to 64), starting with a letter or digit",
        )
    return name


def index_path(index_dir: Path, name: str) -> Path:
    return Path(index_dir) / check_name(name)


def list_indexes(index_dir: Path) -> list[str]:
    if not Path(index_dir).is_dir():
        return []
    return sorted(
        p.name for p in Path(index_dir).iterdir() if p.is_dir() and (p / "meta.sqlite").exists()
    )


def index_state(index_dir: Path, name: str) -> str:
    """'clean', 'incomplete' (a build was interrupted), 'building' (one runs now) or
    'unreadable'."""
    import fcntl
    import sqlite3

    folder = index_path(index_dir, name)
    try:
        db = sqlite3.connect(f"file:{folder / 'meta.sqlite'}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM info WHERE key='state'").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return "unreadable"
    if row is not None and row[0] == "clean":
        return "clean"
    try:
        with open(folder / ".lock", "a") as fh:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return "building"
    except OSError:
        pass
    return "incomplete"


def resume_command(index_dir: Path, name: str) -> str:
    """The command that resumes an interrupted build of ``name``, as it was given."""
    import shlex

    try:
        meta = MetaStore(index_path(index_dir, name), readonly=True)
        try:
            recorded = meta.get_info("resume")
            if recorded:
                return recorded
            args = json.loads(meta.get_info("build_args") or "[]")
        finally:
            meta.close()
    except Exception:
        args = []
    return (
        shlex.join(["sphere", "index", "build", name, *args])
        if args
        else (f"sphere index build {name} PATH…")
    )


def describe_indexes(index_dir: Path) -> list[str]:
    """Index names for a list or a hint, an unfinished one marked: 'notes (incomplete)'."""
    out = []
    for n in list_indexes(index_dir):
        state = index_state(index_dir, n)
        out.append(n if state == "clean" else f"{n} ({state})")
    return out


def remove_index(index_dir: Path, name: str) -> None:
    path = index_path(index_dir, name)
    if not (path / "meta.sqlite").exists():
        raise IndexNotFoundError(f"no index named '{name}' in {index_dir}")
    shutil.rmtree(path)


def _single_thread_search() -> None:
    """One OpenMP thread for FAISS queries.

    A question sends a handful of query vectors; FAISS's OpenMP threads then
    cost far more than they save, and on a loaded two-core machine they spin
    (measured: 27 ms vs 0.4 ms for 2k passages). Builds set their own count.

    torch shares FAISS's OpenMP runtime, so its OpenMP thread count drops to
    one as well; torch's own count (which also sets MKL's, process-wide) is set
    to match. Otherwise MKL kept whatever count torch last set, which depended
    on whether a worker pool (:mod:`assistant.workers`) had started before
    or after the index was opened, and vectors embedded in this thread moved
    in their last bits with it (issue 17). Batches that should use every core
    run on :class:`~assistant.workers.Workers`.
    """
    import faiss

    faiss.omp_set_num_threads(1)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


class Index:
    """A built index. Thread-safe for concurrent searches."""

    def __init__(
        self, folder: Path, meta: MetaStore, faiss_index: Any, bm25: Any, manifest: dict[str, Any]
    ) -> None:
        self.folder = folder
        self.name = folder.name
        self.meta = meta
        self.faiss = faiss_index
        self.bm25 = bm25
        self.manifest = manifest
        spec = manifest.get("faiss") or {}
        compressed = spec.get("kind") == "ivfpq"
        pids, _vec_rows, doc_rows = meta.live_rows()
        size = int(pids.max()) + 1 if len(pids) else 0
        # a compressed (large) index keeps these two arrays at 4 bytes a passage
        small = compressed and size < 2**31 and (len(_vec_rows) == 0 or _vec_rows.max() < 2**31)
        rows_dtype: type[np.signedinteger[Any]] = np.int32 if small else np.int64
        # passage id -> document row (-1 for ids that no longer exist)
        self.doc_rows: np.ndarray = np.full(size, -1, dtype=rows_dtype)
        self.doc_rows[pids] = doc_rows
        self._vec_rows: np.ndarray = np.full(size, -1, dtype=rows_dtype)
        self._vec_rows[pids] = _vec_rows
        del pids, _vec_rows, doc_rows
        self._vectors = meta.vectors_memmap()
        self._lock = threading.Lock()
        # a compressed index scores approximately: its candidates are re-scored exactly
        params = spec.get("params", {})
        self._rescore = int(params.get("rescore", 256)) if compressed else 0
        self._rescore_factor = int(params.get("rescore_factor", 4))
        self._sentences: Any = None  # the sentence vector store, opened at first use
        self._sentences_opened = False

    # ------------------------------------------------------------------ open
    @classmethod
    def open(cls, index_dir: Path, name: str, *, embedder_name: str | None = None) -> Index:
        folder = index_path(index_dir, name)
        if not (folder / "meta.sqlite").exists():
            have = list_indexes(index_dir)
            how = f"build it with `sphere index build {name} PATH…`"
            how += "" if have else ", or try the demo index: `sphere index demo`"
            shown = describe_indexes(index_dir)
            raise IndexNotFoundError(
                f"no index named '{name}' in {index_dir}",
                hint=(f"available: {', '.join(shown)}; " if have else "") + how,
                index_name=name,
                available=shown,
            )
        meta = MetaStore(folder, readonly=True)
        state = meta.get_info("state")
        if state != "clean":
            n_docs, _ = meta.counts()
            meta.close()
            if index_state(index_dir, name) == "building":
                raise IndexIncompleteError(
                    f"index '{name}' is being built ({count(n_docs, 'document')} so far)",
                    hint="wait for the build to finish",
                )
            raise IndexIncompleteError(
                f"index '{name}' is incomplete: a build of it was interrupted "
                f"({count(n_docs, 'document')} kept)",
                hint=f"resume it with `{resume_command(index_dir, name)}`",
            )
        built_with = meta.get_info("embedder") or ""
        if embedder_name is not None and built_with != embedder_name:
            meta.close()
            raise IndexMismatchError(
                f"index '{name}' was built with embedder '{built_with}', "
                f"but the configured embedder is '{embedder_name}'",
                hint="set embedder.model back, or rebuild with `sphere index build --rebuild`",
            )
        _single_thread_search()
        try:
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
            from assistant.index.lexical import BM25Index
            from assistant.index.vectors import load_index

            faiss_index = load_index(folder / "faiss.index", manifest.get("faiss"))
            # beside a compressed index BM25 stays on disk too (its matrix is ~1 KB a
            # passage of 200 words): only the FAISS codes and id arrays are in memory
            compressed = (manifest.get("faiss") or {}).get("kind") == "ivfpq"
            bm25 = BM25Index.load(folder / "bm25", mmap=compressed)
        except (OSError, ValueError, RuntimeError, KeyError) as exc:
            meta.close()
            raise IndexCorruptError(
                f"index '{name}' is damaged ({type(exc).__name__}: {str(exc)[:120]})",
                hint=f"rebuild it: `sphere index build {name} PATH… --rebuild`",
            ) from None
        _n_docs, n_pass = meta.counts()
        if faiss_index.ntotal != n_pass or len(bm25.ids) != n_pass:
            meta.close()
            raise IndexCorruptError(
                f"index '{name}' is inconsistent: {n_pass} passages in the metadata, "
                f"{faiss_index.ntotal} in FAISS, {len(bm25.ids)} in BM25",
                hint=f"rebuild it: `sphere index build {name} PATH… --rebuild`",
            )
        return cls(folder, meta, faiss_index, bm25, manifest)

    # ------------------------------------------------------------------ facts
    @property
    def dim(self) -> int:
        return self.meta.dim

    @property
    def embedder_name(self) -> str:
        return self.meta.get_info("embedder") or ""

    @property
    def n_passages(self) -> int:
        return int(self.faiss.ntotal)

    @property
    def n_documents(self) -> int:
        return self.meta.counts()[0]

    # ------------------------------------------------------------------ search
    def search_dense(self, qvecs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Inner-product search: (scores, passage_ids), each (m, k); id -1 pads."""
        q = np.ascontiguousarray(np.atleast_2d(qvecs), dtype=np.float32)
        k = max(1, min(k, max(self.n_passages, 1)))
        if self.n_passages == 0:
            return np.zeros((len(q), k), np.float32), np.full((len(q), k), -1, np.int64)
        if self._rescore:
            return self._search_rescored(q, k)
        scores, ids = self.faiss.search(q, k)
        return scores, ids

    def _search_rescored(self, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Approximate candidates (IVF-PQ), exact inner products from ``vectors.f32``.

        FAISS returns ``max(rescore, rescore_factor·k)`` candidates per query
        by their compressed scores; each is re-scored with its stored float vector (one
        sorted read of the memory-mapped file for all queries' candidates) and
        the best ``k`` by exact score are returned, ties by passage id.
        """
        fetch = min(max(k, self._rescore, self._rescore_factor * k), self.n_passages)
        _approx, cand = self.faiss.search(q, fetch)
        ok = cand >= 0
        uniq, inverse = np.unique(cand[ok], return_inverse=True)
        rows = self._vec_rows[uniq]  # ascending passage ids: rows in file order
        exact = q @ np.asarray(self._vectors[rows], dtype=np.float32).T  # (m, u)
        full = np.full(cand.shape, -np.inf, dtype=np.float32)
        full[ok] = exact[np.nonzero(ok)[0], inverse]
        ids_sorted = np.where(ok, cand, np.iinfo(np.int64).max)
        order = np.lexsort((ids_sorted, -full), axis=1)[:, :k]
        scores = np.take_along_axis(full, order, 1)
        ids = np.take_along_axis(cand, order, 1)
        missing = ~np.isfinite(scores)
        scores[missing], ids[missing] = 0.0, -1
        return scores.astype(np.float32), ids

    def search_bm25(self, queries: Sequence[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:  # bm25s keeps per-call state on the retriever
            return self.bm25.search(queries, k)

    def vectors(self, passage_ids: np.ndarray) -> np.ndarray:
        """Stored unit vectors of the given passages, (n, dim) float32."""
        pids = np.asarray(passage_ids, dtype=np.int64)
        rows = self._vec_rows[pids]
        if (rows < 0).any():
            raise KeyError("unknown passage id")
        return np.asarray(self._vectors[rows], dtype=np.float32)

    def doc_index(self, passage_ids: np.ndarray) -> np.ndarray:
        """Document row of each passage id (for grouping passages into documents)."""
        return self.doc_rows[np.asarray(passage_ids, dtype=np.int64)].astype(np.int64, copy=False)

    # ------------------------------------------------------------------ records
    def passages(self, passage_ids: Sequence[int]) -> dict[int, Passage]:
        return {pid: p for pid, (p, _row) in self.meta.passages(passage_ids).items()}

    def passages_and_documents(
        self, passage_ids: Sequence[int]
    ) -> tuple[dict[int, Passage], dict[int, Document]]:
        return self.meta.passages_and_documents(passage_ids)

    def passage_texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        return self.meta.passage_texts(passage_ids)

    def passage_text(self, passage_id: int) -> str:
        p = self.meta.passages([passage_id]).get(int(passage_id))
        return p[0].text if p else ""

    def documents_by_row(
        self, rows: Sequence[int], *, with_text: bool = False, brief: bool = False
    ) -> dict[int, Document]:
        return self.meta.documents_by_row(rows, with_text=with_text, brief=brief)

    def document(self, doc_id: str) -> Document | None:
        return self.meta.document(doc_id)

    def passages_of(self, doc_id: str) -> list[Passage]:
        return self.meta.passages_of_doc(doc_id)

    def info(self) -> dict[str, Any]:
        n_docs, n_pass = self.meta.counts()
        return {
            "name": self.name,
            "path": str(self.folder),
            "documents": n_docs,
            "passages": n_pass,
            "embedder": self.embedder_name,
            "dim": self.dim,
            "chunking": self.manifest.get("chunking", {}),
            "faiss": self.manifest.get("faiss", {}),
            "files": len(self.manifest.get("files", {})),
            "skipped": len(self.meta.skipped()),
            "built": self.manifest.get("built", ""),
            "size_bytes": sum(p.stat().st_size for p in self.folder.rglob("*") if p.is_file()),
        }

    def stored_sentence_vectors(
        self, passages: Sequence[tuple[int, str]]
    ) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """passage id -> (sentence spans, unit vectors) of the (id, text) pairs whose text
        the index stored at build time (:mod:`assistant.index.sentences`); {} without a
        store."""
        from assistant.index.sentences import SentenceStore, passage_key

        with self._lock:
            if not self._sentences_opened:
                self._sentences = SentenceStore.open(self.folder)
                self._sentences_opened = True
            store = self._sentences
            if store is None:
                return {}
            keys = {pid: passage_key(text) for pid, text in passages}
            got = store.get(keys.values())
        return {pid: got[k] for pid, k in keys.items() if k in got}

    def close(self) -> None:
        if self._sentences is not None:
            self._sentences.close()
        self.meta.close()
