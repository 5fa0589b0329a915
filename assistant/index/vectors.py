"""FAISS index choice, build and load.

Exact inner-product search (``IndexFlatIP``) up to ``flat_threshold`` passages;
above it an approximate index, chosen by ``approximate``:

* ``ivf`` (default): ``IndexIVFFlat`` with nlist ≈ 4·√n inverted lists, k-means
  trained on a sample of at most 64·nlist vectors, searched with ``nprobe``
  lists. Builds fast on two cores (1M × 384 in minutes) and keeps exact
  vectors, so scores are exact for the candidates it finds.
* ``hnsw``: ``IndexHNSWFlat`` — better recall per millisecond, but its graph
  build is several times slower on two cores.
* ``ivfpq``: the compressed index for 10–100 million passages, chosen by
  ``approximate: ivfpq`` or, whatever ``approximate`` says, above
  ``pq_threshold`` passages (an IVF-Flat or HNSW index holds every float vector
  in memory: 1.5 KB a passage). ``IndexIVFPQ`` with nlist ≈ √n lists and
  ``pq_m`` one-byte sub-quantizer codes a vector (48 for 384-d), optionally
  behind an OPQ rotation: ``pq_m`` + 8 (id) bytes a passage in memory. Its
  scores are approximate, so :class:`~assistant.index.store.Index` asks it for
  max(``rescore``, 4·k) candidates and re-scores them exactly from the memory-mapped
  float vectors (``vectors.f32``, on disk): what Sphere ranks (plain, PAP+,
  the retriever) is scored exactly, only the candidate set is approximate.

Flat, IVF-Flat and HNSW are wrapped in ``IndexIDMap2`` so FAISS ids are Sphere
passage ids; IVF-PQ stores the ids in its inverted lists (an ``IndexIDMap2``
would add a hash map of ~50 bytes a passage). The choice, its parameters and
the training sample are recorded in the manifest; recall against exact search
is measured by ``sphere bench scale``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class FaissSpec:
    kind: str  # flat | ivf | hnsw | ivfpq
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params)}


def pq_subquantizers(dim: int, want: int) -> int:
    """The largest divisor of ``dim`` not above ``want`` (IVF-PQ needs m | dim)."""
    for m in range(max(1, min(want, dim)), 0, -1):
        if dim % m == 0:
            return m
    return 1


def _train_size(n: int, nlist: int) -> int:
    return min(n, 64 * nlist)


def choose_spec(
    n: int,
    *,
    flat_threshold: int,
    hnsw_m: int = 32,
    ef_search: int = 128,
    nprobe: int = 32,
    approximate: str = "ivf",
    pq_threshold: int = 0,
    dim: int = 384,
    pq_m: int = 48,
    opq: bool = False,
    rescore: int = 1024,
) -> FaissSpec:
    """The FAISS index for ``n`` passages (see the module docstring)."""
    if n <= flat_threshold:
        return FaissSpec("flat", {"metric": "inner_product"})
    if (approximate == "ivfpq" or (pq_threshold and n > pq_threshold)) and n >= 39 * 256:
        nlist = int(max(16, min(65536, round(n**0.5), n // 39)))
        m = pq_subquantizers(dim, pq_m)
        return FaissSpec(
            "ivfpq",
            {
                "metric": "inner_product",
                "nlist": nlist,
                "nprobe": min(nprobe, nlist),
                "pq_m": m,
                "pq_bits": 8,
                "opq": bool(opq),
                "rescore": int(rescore),
                "rescore_factor": 4,
                # the product quantizer's 256 codes need ≥ 39·256 points too
                "train_size": min(n, max(_train_size(n, nlist), 39 * 256)),
                "train_sample": "evenly spaced rows of vectors.f32 (every n // train_size-th)",
                "code_bytes": m,
            },
        )
    if approximate == "ivfpq":
        approximate = "ivf"  # too few points to train the product quantizer
    if approximate == "ivf" and n < 39 * 16:
        return FaissSpec("flat", {"metric": "inner_product"})  # too few points to train IVF
    if approximate == "ivf":
        nlist = int(max(16, min(65536, round(4 * n**0.5), n // 39)))
        return FaissSpec(
            "ivf",
            {
                "metric": "inner_product",
                "nlist": nlist,
                "nprobe": min(nprobe, nlist),
                "train_size": _train_size(n, nlist),
            },
        )
    return FaissSpec(
        "hnsw",
        {"metric": "inner_product", "M": hnsw_m, "ef_construction": 80, "ef_search": ef_search},
    )


def build_index(
    dim: int,
    spec: FaissSpec,
    vectors: np.ndarray,
    ids: np.ndarray,
    *,
    batch: int = 100_000,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Build a FAISS index over ``vectors[i]`` with id ``ids[i]``, adding in batches.

    ``vectors`` may be a memmap: rows are read batch by batch, so building never
    holds a second full copy of the vectors beyond the index itself.
    """
    import faiss

    base: Any
    if spec.kind == "ivfpq":
        return _build_ivfpq(dim, spec, vectors, ids, batch=batch, progress=progress)
    if spec.kind == "flat":
        base = faiss.IndexFlatIP(dim)
    elif spec.kind == "ivf":
        nlist = int(spec.params["nlist"])
        quantizer = faiss.IndexFlatIP(dim)
        base = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
        sample = training_sample(vectors, int(spec.params.get("train_size", 64 * nlist)))
        base.train(sample)
        base.nprobe = int(spec.params.get("nprobe", 32))
        del sample
    elif spec.kind == "hnsw":
        base = faiss.IndexHNSWFlat(dim, int(spec.params["M"]), faiss.METRIC_INNER_PRODUCT)
        base.hnsw.efConstruction = int(spec.params.get("ef_construction", 80))
        base.hnsw.efSearch = int(spec.params.get("ef_search", 128))
    else:
        raise ValueError(f"unknown FAISS index kind {spec.kind!r}")
    index = faiss.IndexIDMap2(base)
    for i in range(0, len(ids), batch):
        chunk = np.ascontiguousarray(vectors[i : i + batch], dtype=np.float32)
        index.add_with_ids(chunk, np.ascontiguousarray(ids[i : i + batch], dtype=np.int64))
        if progress:
            progress(len(chunk))
    return index


def training_sample(vectors: np.ndarray, train_n: int) -> np.ndarray:
    """An evenly spaced sample: deterministic, and reads the memmap sequentially."""
    step = max(1, len(vectors) // max(train_n, 1))
    return np.ascontiguousarray(vectors[::step][:train_n], dtype=np.float32)


def _build_ivfpq(
    dim: int,
    spec: FaissSpec,
    vectors: np.ndarray,
    ids: np.ndarray,
    *,
    batch: int,
    progress: Callable[[int], None] | None,
) -> Any:
    """IVF-PQ (optionally OPQ-rotated) with ids in its inverted lists."""
    import faiss

    p = spec.params
    nlist, m, bits = int(p["nlist"]), int(p["pq_m"]), int(p.get("pq_bits", 8))
    desc = f"IVF{nlist},PQ{m}x{bits}"
    if p.get("opq"):
        desc = f"OPQ{m}," + desc
    index = faiss.index_factory(dim, desc, faiss.METRIC_INNER_PRODUCT)
    index.train(training_sample(vectors, int(p["train_size"])))
    faiss.extract_index_ivf(index).nprobe = int(p.get("nprobe", 32))
    for i in range(0, len(ids), batch):
        chunk = np.ascontiguousarray(vectors[i : i + batch], dtype=np.float32)
        index.add_with_ids(chunk, np.ascontiguousarray(ids[i : i + batch], dtype=np.int64))
        if progress:
            progress(len(chunk))
    return index


def save_index(index: Any, path: Path) -> None:
    import faiss

    tmp = path.with_suffix(".tmp")
    faiss.write_index(index, str(tmp))
    tmp.replace(path)


def load_index(path: Path, spec: dict[str, Any] | None = None) -> Any:
    import faiss

    index = faiss.read_index(str(path))
    set_search_params(index, spec)
    return index


def set_search_params(index: Any, spec: dict[str, Any] | None) -> None:
    """Apply query-time knobs (nprobe, efSearch) recorded in the manifest."""
    import faiss

    if not spec:
        return
    params = spec.get("params", {})
    if spec.get("kind") == "ivfpq":
        faiss.extract_index_ivf(index).nprobe = int(params.get("nprobe", 32))
        return
    base: Any = faiss.downcast_index(index.index) if hasattr(index, "index") else index
    if spec.get("kind") == "hnsw":
        base.hnsw.efSearch = int(params.get("ef_search", 128))
    elif spec.get("kind") == "ivf":
        base.nprobe = int(params.get("nprobe", 32))
