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
import tempfile
import time
import zlib
from collections.abc import Callable
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
        "stage_seconds": {k: round(v, 1) for k, v in report.stage_seconds.items()},
        "faiss": manifest["faiss"],
        "vectors_mb": n * dim * 4 / 1e6,
        "disk_mb": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6,
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
        _e, exact = chunked_top_k(index, lambda block: q @ block.T, k)
        hits = [len(set(a.tolist()) & set(e.tolist())) for a, e in zip(approx, exact, strict=True)]
        return float(np.mean(hits)) / k
    finally:
        index.close()


def exact_pap_plus_chunked(index: Any, chunk: int = 100_000) -> Any:
    """Exact PAP+ top-k by a chunked brute-force pass over the vector file (any size)."""
    from assistant.retrieval.pap import Projection

    live = index.meta.live_rows()[:2]  # read once, not per query

    def exact(q: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
        proj = Projection.of(q, p)
        return chunked_top_k(index, proj.pap_plus, k, chunk, live)[1][0]

    return exact


def search_on_index(
    folder: Path, *, queries: int = 50, candidates: int = 200, exact: bool = True
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
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sphere-scale-") as tmp:
        target = folder or Path(tmp) / f"scale{n}"
        result = build_synthetic_index(
            target, n, approximate=approximate, nprobe=nprobe, flat_threshold=flat_threshold
        )
        result["peak_rss_mb_after_build"] = peak_rss_mb()
        result["recall@10_vs_exact"] = approximate_recall(target)
        if search_queries:
            result["search"] = search_on_index(target, queries=search_queries)
        result["peak_rss_mb"] = peak_rss_mb()
        return result


@click.command("scale")
@click.option("--passages", "n", default=1_000_000, show_default=True, type=click.IntRange(1000))
@click.option("--approximate", type=click.Choice(["ivf", "hnsw"]), default="ivf", show_default=True)
@click.option("--nprobe", default=32, show_default=True, type=click.IntRange(1))
@click.option("--flat-threshold", default=200_000, show_default=True, type=click.IntRange(0))
@click.option("--keep", type=click.Path(file_okay=False), help="keep the index in this folder")
@click.option(
    "--search-queries",
    default=50,
    show_default=True,
    type=click.IntRange(0, 10_000),
    help="time the search methods on the built index with this many queries (0: skip)",
)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def scale_bench_command(
    ctx: Context,
    n: int,
    approximate: str,
    nprobe: int,
    flat_threshold: int,
    keep: str | None,
    search_queries: int,
    as_json: bool,
) -> None:
    """Build an index of N synthetic passages (precomputed vectors); time, memory, recall."""
    result = run_scale_bench(
        n,
        folder=Path(keep) if keep else None,
        approximate=approximate,
        nprobe=nprobe,
        flat_threshold=flat_threshold,
        search_queries=search_queries,
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
    for name, m in result.get("search", {}).get("methods", {}).items():
        click.echo(
            f"  {name:14s} p50 {m['p50_ms']:8.2f} ms  p95 {m['p95_ms']:8.2f} ms  "
            f"×{m['ratio_p50']:.2f} / ×{m['ratio_p95']:.2f}"
        )
    if "search" in result:
        pct = result["search"]["pap_plus_rescored_identical_pct"]
        click.echo(f"  PAP+ re-scored = exact on {pct}% of queries")
