"""``sphere bench scale``: a large index from precomputed vectors.

Builds a real index folder (SQLite metadata, append-only vector file, FAISS,
BM25) of N synthetic passages — clustered unit vectors, so the approximate
index faces realistic structure — streaming the vectors to disk in chunks, so
memory stays at the FAISS index plus one chunk. The encoder is skipped (its own
rate is ``sphere bench index``). Reports build time, peak RSS, the FAISS type
chosen, and recall@10 of the approximate top-10 against exact search over the
same vectors.

Passage texts carry their cluster's topic token and words (``t12 w12x3 …``,
the vocabulary of :mod:`assistant.bench.search`), so BM25 does real work;
:class:`ClusterQueryEmbedder` maps question texts to vectors drawn like the
data around the cluster their ``tNNN`` token names. With ``search_queries``
the same methods as ``sphere bench search`` (plain, PAP, PAP+, aspect fusion,
the ``sphere`` retriever) are timed on the large (approximate) index, and
candidate re-scored PAP+ is compared with exact PAP+ computed by a chunked
brute-force pass over the vector file.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.bench.index import peak_rss_mb
from assistant.errors import InputError
from assistant.models import Document, Passage

PASSAGES_PER_DOC = 5


@dataclass
class _VectorsOnly:
    """Stands in for the embedder in the manifest: the vectors come precomputed."""

    name: str = "synthetic-clustered"
    dim: int = 384


N_CLUSTERS = 1000
NOISE = 1.5


def _centers(n_clusters: int, dim: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n_clusters, dim)).astype(np.float32)


def synthetic_vectors(
    start: int,
    count: int,
    dim: int,
    *,
    n_clusters: int = N_CLUSTERS,
    seed: int = 0,
    with_clusters: bool = False,
) -> Any:
    """Rows [start, start+count) of a reproducible clustered unit-vector set.

    With ``with_clusters``, returns ``(vectors, cluster of each row)``.
    """
    centers = _centers(n_clusters, dim, seed)
    rng = np.random.default_rng(seed + 1 + start)
    assign = rng.integers(0, n_clusters, count)
    x = centers[assign] + NOISE * rng.standard_normal((count, dim)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return (x, assign) if with_clusters else x


class ClusterQueryEmbedder:
    """Question texts → unit vectors drawn like the data around their ``tNNN`` cluster.

    Deterministic (noise seeded by the text's CRC-32); a text without a topic
    token gets pure noise.
    """

    def __init__(self, dim: int = 384, n_clusters: int = N_CLUSTERS, seed: int = 0) -> None:
        self.centers = _centers(n_clusters, dim, seed)
        self.dim = dim
        self.name = _VectorsOnly.name

    def encode(self, texts: Any, **_kw: Any) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            rng = np.random.default_rng(zlib.crc32(text.encode("utf-8")))
            v = NOISE * rng.standard_normal(self.dim).astype(np.float32)
            for tok in text.split():
                if tok[:1] == "t" and tok[1:].isdigit():
                    v += self.centers[int(tok[1:]) % len(self.centers)]
                    break
            out[i] = v / max(float(np.linalg.norm(v)), 1e-12)
        return out


def _passage_text(cluster: int, doc: int, part: int, rng: np.random.Generator) -> str:
    from assistant.bench.search import _vocab

    words = rng.choice(_vocab(cluster), 5, replace=False).tolist()
    return " ".join([f"t{cluster}", *words, f"d{doc}", f"p{part}"])


def build_synthetic_index(
    folder: Path,
    n: int,
    *,
    dim: int = 384,
    chunk: int = 50_000,
    flat_threshold: int = 200_000,
    approximate: str = "ivf",
    nprobe: int = 32,
    opq: bool = False,
    rescore: int = 1024,
    pq_threshold: int = 0,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    from assistant.index.build import BuildOptions, BuildReport, _finalize
    from assistant.index.meta import MetaStore

    key = json.dumps({"n": n, "chunk": chunk})
    if (folder / "meta.sqlite").exists():
        # only an unfinished build of the same size and chunking is resumed
        probe = MetaStore(folder, dim=dim)
        resumable = probe.get_info("synthetic") == key and probe.get_info("state") == "building"
        probe.close()
        if not resumable:
            shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    meta = MetaStore(folder, dim=dim)
    emb = _VectorsOnly(dim=dim)
    # a killed build of the same size resumes after its last committed chunk (each chunk
    # is one transaction, its rows seeded by its start, so the result is the same)
    resume_from = 0
    if meta.get_info("synthetic") == key and meta.get_info("state") == "building":
        meta.truncate_orphans()
        resume_from = meta.counts()[1]
    meta.set_info("synthetic", key)
    meta.set_info("embedder", emb.name)
    meta.set_info("dim", str(dim))
    options = BuildOptions(
        flat_threshold=flat_threshold,
        approximate=approximate,
        nprobe=nprobe,
        opq=opq,
        rescore=rescore,
        pq_threshold=pq_threshold,
        sentence_vectors_max_passages=0,  # synthetic vectors: no text to embed sentences of
    )
    meta.set_info(
        "chunking",
        json.dumps({"max_words": options.max_words, "overlap_words": options.overlap_words}),
    )
    meta.set_info("state", "building")
    for start in range(resume_from, n, chunk):
        count = min(chunk, n - start)
        vecs, clusters = synthetic_vectors(start, count, dim, with_clusters=True)
        first = meta.append_vectors(vecs)
        rng = np.random.default_rng(start)
        docs: list[Document] = []
        passages: list[list[Passage]] = []
        for d in range(start // PASSAGES_PER_DOC, (start + count) // PASSAGES_PER_DOC):
            doc_id = f"syn-{d}"
            parts: list[Passage] = []
            at = 0
            for j in range(PASSAGES_PER_DOC):
                row = d * PASSAGES_PER_DOC + j - start
                text = _passage_text(int(clusters[row]), d, j, rng)
                parts.append(Passage(doc_id, j, text, at, at + len(text)))
                at += len(text) + 1
            body = " ".join(x.text for x in parts)
            docs.append(Document(doc_id=doc_id, title=f"Synthetic {d}", text=body))
            passages.append(parts)
        meta.commit_batch("synthetic", docs, passages, first)
        if progress:
            progress("ingest", start + count, n)
    ingest_s = time.perf_counter() - t0
    if resume_from:
        ingest_s = float("nan")  # part of the ingest ran in an earlier process
    report = BuildReport(name=folder.name)
    t1 = time.perf_counter()
    if progress:
        progress("finalize", 0, 1)
    _finalize(folder, meta, emb, options, report)  # type: ignore[arg-type]
    meta.set_info("state", "clean")
    finalize_s = time.perf_counter() - t1
    meta.close()
    manifest = json.loads((folder / "manifest.json").read_text())
    files = {
        "vectors.f32": folder / "vectors.f32",
        "faiss.index": folder / "faiss.index",
        "meta.sqlite": folder / "meta.sqlite",
    }
    part_bytes = {k: f.stat().st_size for k, f in files.items() if f.exists()}
    part_bytes["bm25"] = sum(f.stat().st_size for f in (folder / "bm25").rglob("*") if f.is_file())
    disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    return {
        "passages": n,
        "ingest_seconds": ingest_s,
        "index_seconds": finalize_s,
        "build_seconds": ingest_s + finalize_s,
        "stage_seconds": {k: round(v, 1) for k, v in report.stage_seconds.items()},
        "faiss": manifest["faiss"],
        "vectors_mb": n * dim * 4 / 1e6,
        "disk_mb": disk / 1e6,
        "disk_bytes_per_passage": round(disk / n, 1),
        "disk_bytes_per_passage_by_file": {k: round(v / n, 1) for k, v in part_bytes.items()},
        "faiss_bytes_per_passage": round(part_bytes["faiss.index"] / n, 1),
    }


def chunked_top_k(
    index: Any,
    score: Callable[[np.ndarray], np.ndarray],
    k: int,
    chunk: int = 100_000,
    live: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by a brute-force pass over the vector file, ``chunk`` rows at a time.

    ``score`` maps a (n, d) block of stored vectors to (m, n) scores for m
    queries; returns (m, k) scores and passage ids, best first (ties: lower id).
    ``live`` = (passage ids, vector rows) when the caller already read them.
    """
    vecs = index.meta.vectors_memmap()
    pids, vec_rows = live if live is not None else index.meta.live_rows()[:2]
    best_s: np.ndarray | None = None
    best_i: np.ndarray | None = None
    for i in range(0, len(vec_rows), chunk):
        s = np.atleast_2d(score(np.asarray(vecs[vec_rows[i : i + chunk]])))
        ids = np.broadcast_to(pids[i : i + chunk], s.shape)
        if best_s is not None and best_i is not None:
            s, ids = np.concatenate([best_s, s], 1), np.concatenate([best_i, ids], 1)
        top = np.argpartition(-s, min(k, s.shape[1]) - 1, axis=1)[:, :k]
        best_s, best_i = np.take_along_axis(s, top, 1), np.take_along_axis(ids, top, 1)
    assert best_s is not None and best_i is not None
    order = np.lexsort((best_i, -best_s), axis=1)
    return np.take_along_axis(best_s, order, 1), np.take_along_axis(best_i, order, 1)


def approximate_recall(
    folder: Path, *, queries: int = 200, k: int = 10, seed: int = 7, raw: bool = False
) -> Any:
    """Mean |approx top-k ∩ exact top-k| / k over queries near the data.

    With ``raw``, returns (recall, recall of FAISS alone): for IVF-PQ the
    second is the compressed index's own top-k, before exact re-scoring.
    """
    from assistant.index.store import Index

    index = Index.open(folder.parent, folder.name)
    try:
        q = _near_queries(index, queries, seed)
        _s, approx = index.search_dense(q, k)
        _r, faiss_only = index.faiss.search(q, k)
        _e, exact = chunked_top_k(index, lambda block: q @ block.T, k)
        found = _recall(approx, exact, k)
        return (found, _recall(faiss_only, exact, k)) if raw else found
    finally:
        index.close()


def _near_queries(index: Any, queries: int, seed: int) -> np.ndarray:
    """Unit queries near stored vectors (a stored vector plus noise), reproducible."""
    vecs = index.meta.vectors_memmap()
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(vecs), size=queries, replace=False)
    q = np.asarray(vecs[np.sort(pick)], dtype=np.float32)
    q = q + 0.5 * rng.standard_normal(q.shape).astype(np.float32) / np.sqrt(q.shape[1])
    return np.asarray(q / np.linalg.norm(q, axis=1, keepdims=True), dtype=np.float32)


def _recall(found: np.ndarray, exact: np.ndarray, k: int) -> float:
    hits = [len(set(a.tolist()) & set(e.tolist())) for a, e in zip(found, exact, strict=True)]
    return float(np.mean(hits)) / k


def rescore_sweep(
    folder: Path,
    nprobes: Sequence[int],
    rescores: Sequence[int],
    *,
    queries: int = 100,
    k: int = 10,
    seed: int = 7,
) -> list[dict[str, Any]]:
    """Recall@k against exact and ms a query of a compressed index, per (nprobe, rescore).

    The query-time knobs behind the defaults (``index.rescore``, the manifest's
    nprobe), measured on the kept index without rebuilding it; one exact pass
    over the vector file, then each setting, one query at a time, one thread.
    """
    import faiss

    from assistant.index.store import Index

    index = Index.open(folder.parent, folder.name)
    try:
        if not index._rescore:
            raise InputError(f"{folder} is not a compressed (IVF-PQ) index")
        q = _near_queries(index, queries, seed)
        _e, exact = chunked_top_k(index, lambda block: q @ block.T, k)
        faiss.omp_set_num_threads(1)
        ivf = faiss.extract_index_ivf(index.faiss)
        rows = []
        for nprobe in nprobes:
            ivf.nprobe = int(nprobe)
            for rescore in rescores:
                index._rescore = int(rescore)
                times, found = [], []
                for i in range(len(q)):
                    t0 = time.perf_counter()
                    _s, ids = index.search_dense(q[i : i + 1], k)
                    times.append(time.perf_counter() - t0)
                    found.append(ids[0])
                ms = np.asarray(times) * 1000.0
                rows.append(
                    {
                        "nprobe": int(nprobe),
                        "rescore": int(rescore),
                        f"recall@{k}": round(_recall(np.asarray(found), exact, k), 3),
                        "p50_ms": round(float(np.percentile(ms, 50)), 2),
                        "p95_ms": round(float(np.percentile(ms, 95)), 2),
                    }
                )
        return rows
    finally:
        index.close()


_OPEN_PROBE = """
import json, sys
from pathlib import Path

def anon_kb():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1])
    return 0

import faiss, numpy, bm25s  # noqa: F401  (imports are not the index's memory)
from assistant.index.store import Index
folder = Path(sys.argv[1])
before = anon_kb()
index = Index.open(folder.parent, folder.name)
after = anon_kb()
print(json.dumps({"anon_kb": after - before, "passages": index.n_passages}))
"""


def open_memory(folder: Path) -> dict[str, Any]:
    """Anonymous memory an opened index holds, measured in a fresh process.

    RssAnon after :meth:`Index.open` minus before (imports done first): FAISS,
    BM25, the passage id → row arrays. File-backed pages of the memory-mapped
    vector file are not counted (the kernel drops them under pressure).
    """
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _OPEN_PROBE, str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout.strip().splitlines()[-1])
    n = max(int(data["passages"]), 1)
    return {
        "open_anon_mb": round(data["anon_kb"] / 1024, 1),
        "memory_bytes_per_passage": round(data["anon_kb"] * 1024 / n, 1),
    }


def exact_pap_plus_chunked(index: Any, chunk: int = 100_000) -> Any:
    """Exact PAP+ top-k by a chunked brute-force pass over the vector file (any size)."""
    from assistant.retrieval.pap import Projection

    live = index.meta.live_rows()[:2]  # read once, not per query

    def exact(q: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
        proj = Projection.of(q, p)
        return chunked_top_k(index, proj.pap_plus, k, chunk, live)[1][0]

    return exact


def search_on_index(
    folder: Path,
    *,
    queries: int = 50,
    candidates: int = 200,
    exact: bool = True,
    exact_queries: int | None = None,
) -> dict[str, Any]:
    """Time the search methods of ``sphere bench search`` on a built scale index."""
    from assistant.bench.search import make_plans, time_methods
    from assistant.index.store import Index

    index = Index.open(folder.parent, folder.name)
    try:
        emb = ClusterQueryEmbedder(index.meta.dim)
        plans = make_plans(queries, len(emb.centers))
        return time_methods(
            index,
            emb,
            plans,
            candidates=candidates,
            exact_top=exact_pap_plus_chunked(index) if exact else None,
            exact_queries=exact_queries,
        )
    finally:
        index.close()


def run_scale_bench(
    n: int,
    *,
    folder: Path | None = None,
    approximate: str = "ivf",
    nprobe: int = 32,
    flat_threshold: int = 200_000,
    search_queries: int = 0,
    opq: bool = False,
    rescore: int = 1024,
    reuse: bool = False,
    exact_queries: int | None = None,
    say: Callable[[str], None] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Build (or, with ``reuse``, reopen a kept) index of ``n`` passages and measure it."""
    tell = say or (lambda _m: None)
    with tempfile.TemporaryDirectory(prefix="sphere-scale-") as tmp:
        target = folder or Path(tmp) / f"scale{n}"
        if reuse and (target / "manifest.json").exists():
            tell(f"reusing the index in {target}")
            result = _describe(target, n)
        else:
            resumable = reuse and (target / "meta.sqlite").exists()
            if resumable:
                tell(f"resuming the killed build in {target}")
            elif target.exists() and any(target.iterdir()):
                shutil.rmtree(target)
            result = build_synthetic_index(
                target,
                n,
                approximate=approximate,
                nprobe=nprobe,
                flat_threshold=flat_threshold,
                opq=opq,
                rescore=rescore,
                progress=progress,
            )
            result["peak_rss_mb_after_build"] = peak_rss_mb()
        tell("measuring the opened index's memory")
        result.update(open_memory(target))
        tell("recall@10 against exact search")
        recall, raw = approximate_recall(target, raw=True)
        result["recall@10_vs_exact"] = recall
        result["recall@10_faiss_alone"] = raw
        if search_queries:
            tell(f"timing search methods with {search_queries} queries")
            result["search"] = search_on_index(
                target, queries=search_queries, exact_queries=exact_queries
            )
        result["peak_rss_mb"] = peak_rss_mb()
        return result


def _describe(folder: Path, n: int) -> dict[str, Any]:
    """The size figures of an index built earlier (``--reuse``); no build times."""
    manifest = json.loads((folder / "manifest.json").read_text())
    disk = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    faiss_bytes = (folder / "faiss.index").stat().st_size
    return {
        "passages": manifest["counts"]["passages"],
        "reused": True,
        "faiss": manifest["faiss"],
        "vectors_mb": n * 384 * 4 / 1e6,
        "disk_mb": disk / 1e6,
        "disk_bytes_per_passage": round(disk / max(n, 1), 1),
        "faiss_bytes_per_passage": round(faiss_bytes / max(n, 1), 1),
    }


class _ScaleProgress:
    """Progress of the ingest of a scale index on stderr: a bar with ETA on a terminal,
    else plain lines (a stage a line, a count at most every 30 s); stage messages."""

    def __init__(self, show: bool) -> None:
        from assistant.progress_bar import PlainLines, bars_wanted

        self.show = show
        self.progress: Any = None
        self.task: Any = None
        self.plain = PlainLines() if show and not bars_wanted() else None

    def __enter__(self) -> _ScaleProgress:
        if self.show and self.plain is None:
            from assistant.progress_bar import eta_bar

            self.progress = eta_bar("M/N")
            self.progress.start()
            self.task = self.progress.add_task("writing passages", total=None)
        return self

    def update(self, stage: str, done: int, total: int) -> None:
        if self.plain is not None:
            if stage == "ingest":
                self.plain.stage("writing passages")
                self.plain.tick(f"{done:,}/{total:,}", force=done >= total)
            else:
                self.plain.stage("training + filling FAISS, BM25")
            return
        if not self.progress:
            return
        if stage == "ingest":
            self.progress.update(self.task, completed=done, total=total)
        else:
            self.progress.update(self.task, description="training + filling FAISS, BM25")

    def say(self, msg: str) -> None:
        if self.plain is not None:
            self.plain.line(f"… {msg}")
        elif self.progress:
            self.progress.console.print(f"… {msg}")

    def __exit__(self, *exc: object) -> None:
        if self.progress:
            self.progress.stop()
