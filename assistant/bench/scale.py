"""``sphere bench scale``: a large index from precomputed vectors.

Builds a real index folder (SQLite metadata, append-only vector file, FAISS,
BM25) of N synthetic passages — clustered unit vectors, so the approximate
index faces realistic structure — streaming the vectors to disk in chunks, so
memory stays at the FAISS index plus one chunk. The encoder is skipped (its own
rate is ``sphere bench index``). Reports build time, peak RSS, the FAISS type
chosen, and recall@10 of the approximate top-10 against exact search over the
same vectors.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import numpy as np

from assistant.bench.index import peak_rss_mb
from assistant.commands.context import Context, pass_ctx
from assistant.models import Document, Passage

PASSAGES_PER_DOC = 5


@dataclass
class _VectorsOnly:
    """Stands in for the embedder in the manifest: the vectors come precomputed."""

    name: str = "synthetic-clustered"
    dim: int = 384


def synthetic_vectors(
    start: int, count: int, dim: int, *, n_clusters: int = 1000, seed: int = 0
) -> np.ndarray:
    """Rows [start, start+count) of a reproducible clustered unit-vector set."""
    centers = np.random.default_rng(seed).standard_normal((n_clusters, dim)).astype(np.float32)
    rng = np.random.default_rng(seed + 1 + start)
    assign = rng.integers(0, n_clusters, count)
    x = centers[assign] + 1.5 * rng.standard_normal((count, dim)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def build_synthetic_index(
    folder: Path,
    n: int,
    *,
    dim: int = 384,
    chunk: int = 50_000,
    flat_threshold: int = 200_000,
    approximate: str = "ivf",
    nprobe: int = 32,
) -> dict[str, Any]:
    from assistant.index.build import BuildOptions, BuildReport, _finalize
    from assistant.index.meta import MetaStore

    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    meta = MetaStore(folder, dim=dim)
    emb = _VectorsOnly(dim=dim)
    meta.set_info("embedder", emb.name)
    meta.set_info("dim", str(dim))
    options = BuildOptions(flat_threshold=flat_threshold, approximate=approximate, nprobe=nprobe)
    meta.set_info(
        "chunking",
        json.dumps({"max_words": options.max_words, "overlap_words": options.overlap_words}),
    )
    meta.set_info("state", "building")
    for start in range(0, n, chunk):
        count = min(chunk, n - start)
        first = meta.append_vectors(synthetic_vectors(start, count, dim))
        docs: list[Document] = []
        passages: list[list[Passage]] = []
        for d in range(start // PASSAGES_PER_DOC, (start + count) // PASSAGES_PER_DOC):
            doc_id = f"syn-{d}"
            docs.append(Document(doc_id=doc_id, title=f"Synthetic {d}", text=f"synthetic {d}"))
            passages.append(
                [
                    Passage(doc_id, j, f"synthetic passage {d} part {j}", 0, 11)
                    for j in range(PASSAGES_PER_DOC)
                ]
            )
        meta.commit_batch("synthetic", docs, passages, first)
    ingest_s = time.perf_counter() - t0
    report = BuildReport(name=folder.name)
    t1 = time.perf_counter()
    _finalize(folder, meta, emb, options, report)  # type: ignore[arg-type]
    meta.set_info("state", "clean")
    finalize_s = time.perf_counter() - t1
    meta.close()
    manifest = json.loads((folder / "manifest.json").read_text())
    return {
        "passages": n,
        "ingest_seconds": ingest_s,
        "index_seconds": finalize_s,
        "build_seconds": ingest_s + finalize_s,
        "faiss": manifest["faiss"],
        "vectors_mb": n * dim * 4 / 1e6,
        "disk_mb": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6,
    }


def approximate_recall(folder: Path, *, queries: int = 200, k: int = 10, seed: int = 7) -> float:
    """Mean |approx top-k ∩ exact top-k| / k over queries near the data."""
    from assistant.index.store import Index

    index = Index.open(folder.parent, folder.name)
    try:
        vecs = index.meta.vectors_memmap()
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(vecs), size=queries, replace=False)
        q = np.asarray(vecs[np.sort(pick)], dtype=np.float32)
        q = q + 0.5 * rng.standard_normal(q.shape).astype(np.float32) / np.sqrt(q.shape[1])
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        _s, approx = index.search_dense(q, k)
        # exact: brute force over the memmap in chunks (row == passage id - 1 here)
        pids, vec_rows, _ = index.meta.live_rows()
        best_s = np.full((queries, k), -np.inf, dtype=np.float32)
        best_i = np.zeros((queries, k), dtype=np.int64)
        for i in range(0, len(vec_rows), 100_000):
            rows = vec_rows[i : i + 100_000]
            s = q @ np.asarray(vecs[rows]).T
            cand_s = np.concatenate([best_s, s], axis=1)
            cand_i = np.concatenate([best_i, np.broadcast_to(pids[i : i + 100_000], s.shape)], 1)
            top = np.argpartition(-cand_s, k - 1, axis=1)[:, :k]
            best_s = np.take_along_axis(cand_s, top, 1)
            best_i = np.take_along_axis(cand_i, top, 1)
        hits = [len(set(a.tolist()) & set(e.tolist())) for a, e in zip(approx, best_i, strict=True)]
        return float(np.mean(hits)) / k
    finally:
        index.close()


def run_scale_bench(
    n: int,
    *,
    folder: Path | None = None,
    approximate: str = "ivf",
    nprobe: int = 32,
    flat_threshold: int = 200_000,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sphere-scale-") as tmp:
        target = folder or Path(tmp) / f"scale{n}"
        result = build_synthetic_index(
            target, n, approximate=approximate, nprobe=nprobe, flat_threshold=flat_threshold
        )
        result["peak_rss_mb_after_build"] = peak_rss_mb()
        result["recall@10_vs_exact"] = approximate_recall(target)
        result["peak_rss_mb"] = peak_rss_mb()
        return result


@click.command("scale")
@click.option("--passages", "n", default=1_000_000, show_default=True, type=click.IntRange(1000))
@click.option("--approximate", type=click.Choice(["ivf", "hnsw"]), default="ivf", show_default=True)
@click.option("--nprobe", default=32, show_default=True, type=click.IntRange(1))
@click.option("--flat-threshold", default=200_000, show_default=True, type=click.IntRange(0))
@click.option("--keep", type=click.Path(file_okay=False), help="keep the index in this folder")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def scale_bench_command(
    ctx: Context,
    n: int,
    approximate: str,
    nprobe: int,
    flat_threshold: int,
    keep: str | None,
    as_json: bool,
) -> None:
    """Build an index of N synthetic passages (precomputed vectors); time, memory, recall."""
    result = run_scale_bench(
        n,
        folder=Path(keep) if keep else None,
        approximate=approximate,
        nprobe=nprobe,
        flat_threshold=flat_threshold,
    )
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(
        f"{n:,} passages: build {result['build_seconds']:.1f} s "
        f"(ingest {result['ingest_seconds']:.1f} s + FAISS/BM25 {result['index_seconds']:.1f} s), "
        f"FAISS {result['faiss']['kind']} {result['faiss']['params']}\n"
        f"peak RSS {result['peak_rss_mb']:.0f} MB (vectors alone {result['vectors_mb']:.0f} MB), "
        f"disk {result['disk_mb']:.0f} MB\n"
        f"approximate recall@10 vs exact: {result['recall@10_vs_exact']:.3f}"
    )
