"""``sphere index build``: incremental, resumable indexing.

A second run skips unchanged files (size + mtime, then SHA-256), re-indexes
changed ones and drops deleted ones. Work is committed in batches of whole
documents (see :mod:`assistant.index.meta`), so a build killed part-way resumes
where it stopped: documents already committed for an unchanged file are not
embedded again, and none is duplicated or lost. FAISS and BM25 are rebuilt from
the committed passages at the end, then the index is marked clean.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from assistant.embed import Embedder
from assistant.errors import IndexMismatchError, IngestError, InputError
from assistant.index.meta import MetaStore, is_storage_error
from assistant.index.sentences import FILE as SENTENCES_FILE
from assistant.index.sentences import build_store as build_sentence_store
from assistant.index.store import index_path
from assistant.ingest.attributes import document_attributes
from assistant.ingest.chunk import DEFAULT_MAX_WORDS, DEFAULT_OVERLAP_WORDS, chunk_document
from assistant.ingest.loaders import FieldMapping, Skipped, load_file, too_large, walk_paths
from assistant.ingest.stream import PART_CHARS, StreamSkip, iter_parts, stream_format, text_size
from assistant.models import Document, Passage

BuildProgress = Callable[[str, dict[str, Any]], None]


@dataclass
class BuildOptions:
    max_words: int = DEFAULT_MAX_WORDS
    overlap_words: int = DEFAULT_OVERLAP_WORDS
    batch_passages: int = 4096
    flat_threshold: int = 200_000
    hnsw_m: int = 32
    ef_search: int = 128
    nprobe: int = 32
    approximate: str = "ivf"
    pq_threshold: int = 5_000_000
    pq_m: int = 48
    opq: bool = False
    rescore: int = 1024
    mapping: FieldMapping = field(default_factory=FieldMapping)
    rebuild: bool = False
    max_file_bytes: int = 200 * 1024 * 1024
    #: a plain-text file over this many bytes is read and committed in parts of this size
    part_chars: int = PART_CHARS
    #: the command that resumes this build when it is not ``sphere index build NAME
    #: ARGS`` (the demo's: ``sphere index demo``); the index layer knows no demo
    resume: str = ""
    #: an index of at most this many passages stores its sentences' vectors
    #: (:mod:`assistant.index.sentences`); 0: never
    sentence_vectors_max_passages: int = 200_000


def options_from_settings(
    settings: Any,
    mapping: FieldMapping | None = None,
    *,
    rebuild: bool = False,
    batch_passages: int = 4096,
) -> BuildOptions:
    """Build options with the chunking and FAISS choices of ``settings`` (a ``Settings``)."""
    s = settings
    return BuildOptions(
        max_words=s.chunking.max_words,
        overlap_words=s.chunking.overlap_words,
        flat_threshold=s.index.flat_threshold,
        hnsw_m=s.index.hnsw_m,
        ef_search=s.index.ef_search,
        nprobe=s.index.nprobe,
        approximate=s.index.approximate,
        pq_threshold=s.index.pq_threshold,
        pq_m=s.index.pq_m,
        opq=s.index.opq,
        rescore=s.index.rescore,
        mapping=mapping or FieldMapping(),
        rebuild=rebuild,
        batch_passages=batch_passages,
        max_file_bytes=int(s.index.max_file_mb * 1024 * 1024),
        sentence_vectors_max_passages=s.index.sentence_vectors_max_passages,
    )


@dataclass
class BuildReport:
    name: str
    files_seen: int = 0
    files_indexed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    documents_added: int = 0
    documents_removed: int = 0
    passages_added: int = 0
    documents: int = 0
    passages: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    resumed: bool = False
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: seconds of the final steps: "faiss" (train + add + save), "bm25", "sentences",
    #: "compact"
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def docs_per_second(self) -> float:
        return self.documents_added / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in self.__dict__.items() if k != "skipped"}
        d["skipped"] = [{"path": s.path, "reason": s.reason} for s in self.skipped]
        d["docs_per_second"] = self.docs_per_second
        return d


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    lock_path = folder / ".lock"
    fh = open(lock_path, "w")  # noqa: SIM115 - held for the whole build
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IngestError(
                f"another build of index '{folder.name}' is running",
                hint="wait for it to finish",
            ) from None
        yield
    finally:
        fh.close()


def _write_error(
    exc: OSError | sqlite3.OperationalError | RuntimeError, folder: Path
) -> IngestError:
    msg = str(exc).lower()
    code = getattr(exc, "errno", None)
    if code == errno.ENOSPC or "disk is full" in msg or "no space" in msg:
        return IngestError(
            f"the disk is full while writing index '{folder.name}'",
            hint="free some space and run the same command again; it resumes where it stopped",
        )
    if code in (errno.EACCES, errno.EROFS, errno.EPERM) or "readonly" in msg or "read-only" in msg:
        return IngestError(
            f"cannot write to the index folder {folder} ({getattr(exc, 'strerror', None) or exc})",
            hint="check its permissions, or set index_dir in config.yaml to a writable folder",
        )
    return IngestError(f"cannot write index '{folder.name}': {exc}")


def build_index(
    index_dir: Path,
    name: str,
    paths: Sequence[str | Path],
    embedder: Embedder,
    options: BuildOptions | None = None,
    progress: BuildProgress | None = None,
) -> BuildReport:
    """Build or update index ``name`` from ``paths``; return what happened."""
    options = options or BuildOptions()
    folder = index_path(index_dir, name)
    if not paths:
        raise InputError("no paths given to index")
    files, skipped = walk_paths(paths)
    missing = [s for s in skipped if s.reason == "path does not exist"]
    if missing and not files:
        raise InputError(f"path does not exist: {missing[0].path}")
    if not files:
        given = ", ".join(str(p) for p in paths)
        raise InputError(
            f"no indexable files in {given}",
            hint="Sphere reads .txt .md .html .pdf .jsonl .json .csv",
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if options.rebuild:
            for child in folder.iterdir():
                if child.name != ".lock":
                    shutil.rmtree(child) if child.is_dir() else child.unlink()
        with _locked(folder):
            return _build(
                folder, files, skipped, embedder, options, progress, _build_args(paths, options)
            )
    except OSError as exc:
        raise _write_error(exc, folder) from None
    except sqlite3.OperationalError as exc:
        if not is_storage_error(exc):
            raise
        raise _write_error(exc, folder) from None
    except RuntimeError as exc:  # faiss.write_index reports I/O failures this way
        if "write" not in str(exc).lower() and "space" not in str(exc).lower():
            raise
        raise _write_error(exc, folder) from None


def _build_args(paths: Sequence[str | Path], options: BuildOptions) -> list[str]:
    """The paths and field options of this build: what resumes it (``sphere index list``)."""
    args = [str(Path(p).expanduser().resolve()) for p in paths]
    m = options.mapping
    flags = [("--id-field", m.id_field), ("--text-field", m.text_field),
             ("--title-field", m.title_field), ("--source-field", m.source_field)]  # fmt: skip
    args += [x for flag, value in flags if value for x in (flag, value)]
    args += [x for f in m.meta_fields for x in ("--meta-field", f)]
    return args


def _check_compat(meta: MetaStore, embedder: Embedder, options: BuildOptions) -> bool:
    """Return True when the index already has content built with these settings."""
    built_with = meta.get_info("embedder")
    if built_with is None:
        meta.set_info("embedder", embedder.name)
        meta.set_info("dim", str(embedder.dim))
        meta.set_info("chunking", json.dumps(_chunking(options)))
        meta._dim = embedder.dim
        return False
    if built_with != embedder.name or int(meta.get_info("dim") or 0) != embedder.dim:
        raise IndexMismatchError(
            f"index '{meta.folder.name}' was built with embedder '{built_with}', "
            f"not '{embedder.name}'",
            hint="use the embedder it was built with, or add --rebuild to start it over",
        )
    chunking = json.loads(meta.get_info("chunking") or "{}")
    if chunking != _chunking(options):
        raise IndexMismatchError(
            f"index '{meta.folder.name}' was built with chunking {chunking}, "
            f"now {_chunking(options)}",
            hint="add --rebuild to re-chunk every document",
        )
    return True


def _chunking(options: BuildOptions) -> dict[str, int]:
    return {"max_words": options.max_words, "overlap_words": options.overlap_words}


def _build(
    folder: Path,
    files: list[Path],
    walk_skipped: list[Skipped],
    embedder: Embedder,
    options: BuildOptions,
    progress: BuildProgress | None,
    args: list[str],
) -> BuildReport:
    t0 = time.perf_counter()
    report = BuildReport(name=folder.name, files_seen=len(files))
    report.skipped.extend(walk_skipped)
    emit = progress or (lambda _e, _d: None)
    meta = MetaStore(folder, dim=embedder.dim)
    try:
        _check_compat(meta, embedder, options)
        if meta.get_info("state") == "building":
            report.resumed = True
        meta.truncate_orphans()
        meta.set_info("state", "building")
        meta.set_info("build_args", json.dumps(args))
        if options.resume:
            meta.set_info("resume", options.resume)
        known = meta.file_rows()
        current = {str(f) for f in files}

        # files that no longer exist are dropped
        for path in list(known):
            if path not in current and not Path(path).exists():
                report.documents_removed += meta.delete_file(path)
                report.files_removed += 1
                del known[path]

        todo: list[tuple[Path, str, int, float, bool]] = []  # path, sha, size, mtime, resume
        for f in files:
            st = f.stat()
            row = known.get(str(f))
            if (
                row
                and row["complete"]
                and row["size"] == st.st_size
                and row["mtime"] == st.st_mtime
            ):
                report.files_unchanged += 1
                continue
            sha = sha256_file(f)
            if row and row["sha256"] == sha:
                if row["complete"]:
                    meta.upsert_file(str(f), sha, st.st_size, st.st_mtime, complete=True)
                    report.files_unchanged += 1
                    continue
                todo.append((f, sha, st.st_size, st.st_mtime, True))  # resume this file
                continue
            if row:  # changed: drop its old documents first
                report.documents_removed += meta.delete_file(str(f))
            todo.append((f, sha, st.st_size, st.st_mtime, False))

        # the small files of a folder do not wait behind a large one (stable: walk order)
        todo.sort(key=lambda t: text_size(t[0], t[2]) > options.part_chars)
        total_bytes = sum(t[2] for t in todo)
        emit(
            "start", {"files": len(todo), "bytes": total_bytes, "unchanged": report.files_unchanged}
        )
        pending: list[tuple[str, Document, list[Passage]]] = []
        pending_passages = 0
        # Batches are embedded by ``queue``: at once (local), or on Ray actors with up to
        # ``queue.depth`` batches in flight. Either way they are committed in the order
        # they were read, and a file is marked complete only once its last batch is.
        queue = _embed_queue(embedder, report, options.batch_passages)
        batch_passages = options.batch_passages
        inflight: deque[tuple[Any, ...]] = deque()
        inflight_docs: dict[str, str] = {}  # doc id -> file, submitted but not committed

        def commit(batch: list[tuple[str, Document, list[Passage]]], vecs: np.ndarray) -> None:
            first = meta.append_vectors(vecs)
            # one transaction per file group, in order
            by_file: dict[str, tuple[list[Document], list[list[Passage]]]] = {}
            for fpath, doc, ps in batch:
                docs, pss = by_file.setdefault(fpath, ([], []))
                docs.append(doc)
                pss.append(ps)
            row = first
            for fpath, (docs, pss) in by_file.items():
                meta.commit_batch(fpath, docs, pss, row)
                row += sum(len(p) for p in pss)
            for _f, doc, _ps in batch:
                inflight_docs.pop(doc.doc_id, None)
            report.documents_added += len(batch)
            report.passages_added += len(vecs)
            emit("batch", {"documents": len(batch), "passages": len(vecs)})

        def drain(keep: int) -> None:
            """Commit the oldest batches until at most ``keep`` are in flight."""
            while inflight and (inflight[0][0] == "file" or len(inflight) > keep):
                item = inflight.popleft()
                if item[0] == "batch":
                    commit(item[2], queue.result(item[1]))
                else:
                    _kind, fpath, sha, size, mtime = item
                    meta.upsert_file(fpath, sha, size, mtime, complete=True)
                    report.files_indexed += 1
                    emit("file", {"path": fpath, "bytes": size})

        def flush() -> None:
            nonlocal pending, pending_passages
            if not pending:
                return
            texts = [p.text for _f, _d, ps in pending for p in ps]
            for fpath, doc, _ps in pending:
                inflight_docs[doc.doc_id] = fpath
            inflight.append(("batch", queue.submit(texts), pending))
            pending = []
            pending_passages = 0
            drain(queue.depth)

        try:
            for f, sha, size, mtime, resume in todo:
                # recorded as incomplete first, so a kill mid-file is resumed next time
                meta.upsert_file(str(f), sha, size, mtime, complete=False)
                done_ids = meta.doc_ids_of_file(str(f)) if resume else set()
                file_passages = 0
                for docs, pages, where in _file_sources(f, size, options, report, emit):
                    clash = meta.existing_doc_files(d.doc_id for d in docs)
                    for doc in docs:
                        if doc.doc_id in done_ids:
                            continue
                        other = clash.get(doc.doc_id) or inflight_docs.get(doc.doc_id)
                        if other is not None and other != str(f):
                            report.skipped.append(
                                Skipped(
                                    str(f),
                                    f"document id '{doc.doc_id}' already indexed from {other}",
                                )
                            )
                            continue
                        passages = _prepare(doc, pages.get(doc.doc_id), options)
                        if not passages:
                            report.skipped.append(Skipped(doc.path or str(f), "no text to index"))
                            continue
                        pending.append((str(f), doc, passages))
                        pending_passages += len(passages)
                        file_passages += len(passages)
                        if pending_passages >= batch_passages:
                            flush()
                    if where is not None:  # a part of a large file: committed on its own
                        flush()
                        emit("file_progress", {**where, "passages": file_passages})
                flush()  # a file is complete only once all its documents are committed
                inflight.append(("file", str(f), sha, size, mtime))
                drain(queue.depth)
            drain(0)
        finally:
            queue.close()

        backfilled = _backfill_attributes(meta)
        if backfilled:
            report.notes.append(f"computed document attributes for {backfilled} older documents")
        changed = (
            report.resumed
            or report.files_indexed
            or report.files_removed
            or report.documents_removed
            or backfilled
            or not (folder / "faiss.index").exists()
            or not (folder / "manifest.json").exists()
            or _lacks_sentence_vectors(folder, meta, options)
        )
        if changed:
            emit("finalize", {})
            _finalize(folder, meta, embedder, options, report)
        meta.record_skipped((s.path, s.reason) for s in report.skipped)
        meta.set_info("state", "clean")
        # a finished index is one self-contained file (readable from read-only media)
        with contextlib.suppress(sqlite3.OperationalError):  # a reader has it open: stay WAL
            meta.db.execute("PRAGMA journal_mode=DELETE")
        report.documents, report.passages = meta.counts()
    finally:
        meta.close()
    report.seconds = time.perf_counter() - t0
    return report


def _prepare(
    doc: Document, pages: list[tuple[int, int]] | None, options: BuildOptions
) -> list[Passage]:
    """Attributes and passages of one document about to be embedded."""
    doc.attrs = document_attributes(doc.text, doc.meta)
    doc.language = doc.attrs.get("language", "")
    return chunk_document(
        doc.doc_id,
        doc.text,
        max_words=options.max_words,
        overlap_words=options.overlap_words,
        pages=pages,
    )


_Source = tuple[list[Document], dict[str, list[tuple[int, int]]], dict[str, Any] | None]


def _file_sources(
    f: Path, size: int, options: BuildOptions, report: BuildReport, emit: BuildProgress
) -> Iterator[_Source]:
    """The documents of one file: all at once, or part by part for a large text file
    (with where reading got: ``{"path", "bytes", "total", "part"}``)."""
    size = text_size(f, size)
    fmt = stream_format(f, size, options.part_chars)
    if fmt is None:
        result = load_file(f, mapping=options.mapping, max_file_bytes=options.max_file_bytes)
        report.skipped.extend(result.skipped)
        report.notes.extend(result.notes)
        yield result.documents, result.pages, None
        return
    if size > options.max_file_bytes:
        report.skipped.append(Skipped(str(f), too_large(size, options.max_file_bytes)))
        return
    emit("file_start", {"path": str(f), "total": size})
    try:
        for part in iter_parts(f, fmt=fmt, part_chars=options.part_chars):
            if part.bytes_read > options.max_file_bytes:  # a .gz that recorded less
                what = "decompressed file"
                report.skipped.append(
                    Skipped(str(f), too_large(part.bytes_read, options.max_file_bytes, what))
                )
                return
            where = {"path": str(f), "bytes": part.bytes_read, "total": size, "part": part.number}
            yield [part.document], {}, where
    except StreamSkip as exc:
        report.skipped.append(Skipped(str(f), str(exc)))
    except (OSError, EOFError, zlib.error) as exc:
        report.skipped.append(Skipped(str(f), f"cannot read file ({exc})"))


RAY_BATCH = 256  # at most this many passages in one Ray task


class _LocalQueue:
    """Embeds a batch when it is submitted: the build's own process, no batch in flight."""

    depth = 0

    def __init__(self, embedder: Embedder, report: BuildReport) -> None:
        self.embedder = embedder
        self.report = report

    def submit(self, texts: list[str]) -> np.ndarray:
        from assistant.workers import torch_threads, usable_cpus

        t = time.perf_counter()
        # every core, even in a process (or a thread of one) that opened an index first
        with torch_threads(usable_cpus()):
            vecs = self.embedder.encode(texts)
        self.report.embed_seconds += time.perf_counter() - t
        return vecs

    def result(self, ticket: np.ndarray) -> np.ndarray:
        return ticket

    def close(self) -> None:
        pass


class _AsyncQueue:
    """An embedder with ``submit``/``result`` (Ray actors): ``depth`` batches in flight.

    A batch (a commit: ``batch_passages`` passages, as in a local build) is
    sorted by length and cut into tasks of at most :data:`RAY_BATCH` passages
    (fewer when that leaves an actor idle), sent longest first, each to the
    actor with the least text still to embed, and put back in reading order
    when its vectors return. Sorting the whole batch, not each task, keeps
    padding as low as one local ``encode`` call over the batch: cut in reading
    order into 256-passage tasks, a 1,024-passage build spent 48 CPU-seconds
    embedding on one thread against 41 sorted as one (padding).
    """

    def __init__(self, embedder: Any, report: BuildReport, batch_passages: int) -> None:
        self.embedder = embedder
        self.report = report
        self.workers = max(1, int(getattr(embedder, "workers", 1)))
        # enough batches in flight for two tasks per actor, and at least one batch
        # queued behind the one being committed
        per_batch = -(-max(1, batch_passages) // RAY_BATCH)
        self.depth = max(2, -(-2 * self.workers // per_batch))

    def submit(self, texts: list[str]) -> Any:
        lengths = np.fromiter((len(t) for t in texts), np.int64, len(texts))
        order = np.argsort(lengths, kind="stable")
        size = max(1, min(RAY_BATCH, -(-len(texts) // self.workers)))
        tasks = [order[i : i + size] for i in range(0, len(order), size)]
        refs = [(idx, self.embedder.submit([texts[i] for i in idx])) for idx in reversed(tasks)]
        return len(texts), refs

    def result(self, ticket: Any) -> np.ndarray:
        n, refs = ticket
        t = time.perf_counter()
        out: np.ndarray | None = None
        for idx, ref in refs:
            vecs = np.asarray(self.embedder.result(ref), dtype=np.float32)
            if out is None:
                out = np.empty((n, vecs.shape[1]), dtype=np.float32)
            out[idx] = vecs
        self.report.embed_seconds += time.perf_counter() - t  # time waiting for the workers
        return out if out is not None else np.empty((0, 0), dtype=np.float32)

    def close(self) -> None:
        self.embedder.cancel_pending()


def _embed_queue(
    embedder: Any, report: BuildReport, batch_passages: int
) -> _LocalQueue | _AsyncQueue:
    if hasattr(embedder, "submit") and hasattr(embedder, "result"):
        return _AsyncQueue(embedder, report, batch_passages)
    return _LocalQueue(embedder, report)


def _backfill_attributes(meta: MetaStore) -> int:
    """Attributes for documents indexed before they existed (no re-embedding)."""
    done = 0
    while batch := meta.documents_missing_attrs():
        meta.set_attrs([(row, document_attributes(text, m)) for row, text, m in batch])
        done += len(batch)
    return done


def _finalize(
    folder: Path, meta: MetaStore, embedder: Embedder, options: BuildOptions, report: BuildReport
) -> None:
    import faiss

    from assistant.index.lexical import BM25Index
    from assistant.index.vectors import build_index as build_faiss
    from assistant.index.vectors import choose_spec, save_index

    faiss.omp_set_num_threads(os.cpu_count() or 1)  # training and adding are parallel work
    pids, vec_rows, _doc_rows = meta.live_rows()
    spec = choose_spec(
        len(pids),
        flat_threshold=options.flat_threshold,
        hnsw_m=options.hnsw_m,
        ef_search=options.ef_search,
        nprobe=options.nprobe,
        approximate=options.approximate,
        pq_threshold=options.pq_threshold,
        dim=meta.dim,
        pq_m=options.pq_m,
        opq=options.opq,
        rescore=options.rescore,
    )
    vectors = meta.vectors_memmap()
    # rows are appended in passage-id order, so this is usually a plain slice
    if len(vec_rows) and np.array_equal(
        vec_rows, np.arange(vec_rows[0], vec_rows[0] + len(vec_rows))
    ):
        source = vectors[int(vec_rows[0]) : int(vec_rows[0]) + len(vec_rows)]
    else:
        source = _RowView(vectors, vec_rows)  # type: ignore[assignment]
    t0 = time.perf_counter()
    index = build_faiss(meta.dim, spec, source, pids)
    save_index(index, folder / "faiss.index")
    del index
    report.stage_seconds["faiss"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    texts: list[str] = []
    ids: list[int] = []
    for batch_ids, batch_texts in meta.iter_passage_texts():
        ids.extend(batch_ids)
        texts.extend(batch_texts)
    BM25Index.build(texts, np.asarray(ids, dtype=np.int64)).save(folder / "bm25")
    del texts
    report.stage_seconds["bm25"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    has_sentences = _sentence_vectors(folder, meta, embedder, options, report)
    report.stage_seconds["sentences"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    compacted = _maybe_compact(meta, vectors)
    report.stage_seconds["compact"] = time.perf_counter() - t0
    if compacted:
        report.notes.append(f"compacted vector file (dropped {compacted} stale rows)")
    n_docs, n_pass = meta.counts()
    manifest = {
        "name": folder.name,
        "format_version": 1,
        "built": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "embedder": {"name": embedder.name, "dim": embedder.dim, "normalized": True},
        "chunking": _chunking(options),
        "faiss": spec.to_dict(),
        "bm25": {"library": "bm25s", "stemmer": "english", "stopwords": "en"},
        "sentences": {"file": SENTENCES_FILE} if has_sentences else None,
        "counts": {"documents": n_docs, "passages": n_pass},
        "files": {
            p: {"sha256": r["sha256"], "size": r["size"], "documents": r["n_docs"]}
            for p, r in meta.file_rows().items()
        },
    }
    tmp = folder / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(folder / "manifest.json")


def _stores_sentence_vectors(meta: MetaStore, options: BuildOptions) -> bool:
    """Whether the index is small enough to store its sentences' vectors (0: never)."""
    cap = options.sentence_vectors_max_passages
    return bool(cap) and meta.counts()[1] <= cap


def _lacks_sentence_vectors(folder: Path, meta: MetaStore, options: BuildOptions) -> bool:
    """An index small enough to store its sentences' vectors that has no store (one built
    before stores were): a rebuild with no changed file writes it."""
    return _stores_sentence_vectors(meta, options) and not (folder / SENTENCES_FILE).exists()


def _sentence_vectors(
    folder: Path, meta: MetaStore, embedder: Embedder, options: BuildOptions, report: BuildReport
) -> bool:
    """Store the sentences' vectors of an index small enough (:mod:`assistant.index.sentences`);
    a larger one has none (a store left from when it was smaller is removed)."""
    if not _stores_sentence_vectors(meta, options):
        (folder / SENTENCES_FILE).unlink(missing_ok=True)
        return False
    embedded, dropped = build_sentence_store(folder, meta.iter_passage_texts(), embedder)
    if embedded or dropped:
        report.notes.append(
            f"sentence vectors: {embedded} passages embedded, {dropped} stale dropped"
        )
    return True


class _RowView:
    """Lazy ``vectors[rows[i:j]]`` for FAISS batch adds after deletions."""

    def __init__(self, vectors: np.ndarray, rows: np.ndarray) -> None:
        self.vectors = vectors
        self.rows = rows

    def __getitem__(self, s: slice) -> np.ndarray:
        return np.asarray(self.vectors[self.rows[s]])

    def __len__(self) -> int:
        return len(self.rows)


def _maybe_compact(meta: MetaStore, vectors: np.ndarray) -> int:
    """Rewrite vectors.f32 without stale rows once they are over half of the file."""
    _pids, vec_rows, _ = meta.live_rows()
    total = meta.vector_rows()
    stale = total - len(vec_rows)
    if stale <= 0 or stale < total // 2:
        return 0
    tmp = meta.vec_path.with_suffix(".compact")
    order = np.argsort(vec_rows)
    with open(tmp, "wb") as fh:
        for i in range(0, len(order), 50_000):
            fh.write(np.ascontiguousarray(vectors[vec_rows[order[i : i + 50_000]]]).tobytes())
        fh.flush()
        os.fsync(fh.fileno())
    new_rows = np.empty_like(vec_rows)
    new_rows[order] = np.arange(len(vec_rows))
    pids, _, _ = meta.live_rows()
    with meta.db:
        # two steps so the UNIQUE(vec_row) constraint never sees a clash
        meta.db.executemany(
            "UPDATE passages SET vec_row=? WHERE passage_id=?",
            [(-1 - int(r), int(p)) for p, r in zip(pids, new_rows, strict=True)],
        )
        meta.db.execute("UPDATE passages SET vec_row = -1 - vec_row")
        tmp.replace(meta.vec_path)
    return int(stale)
