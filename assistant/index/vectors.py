"""FAISS index choice, build and load.

Exact inner-product search (``IndexFlatIP``) up to ``flat_threshold`` passages;
above it an approximate index, chosen by ``approximate``:

* ``ivf`` (default): ``IndexIVFFlat`` with nlist ≈ 4·√n inverted lists, k-means
  trained on a sample of at most 64·nlist vectors, searched with ``nprobe``
  lists. Builds fast on two cores (1M × 384 in minutes) and keeps exact
  vectors, so scores are exact for the candidates it finds.
* ``hnsw``: ``IndexHNSWFlat`` — better recall per millisecond, but its graph
  build is several times slower on two cores.

Every index is wrapped in ``IndexIDMap2`` so FAISS ids are Sphere passage ids.
The choice and its parameters are recorded in the manifest; recall against
exact search is measured by ``sphere bench scale``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np


@dataclass
class FaissSpec:
    kind: str  # flat | hnsw
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params)}


def choose_spec(
    n: int,
    *,
    flat_threshold: int,
    hnsw_m: int = 32,
    ef_search: int = 128,
    nprobe: int = 32,
    approximate: str = "ivf",
) -> FaissSpec:
    if n <= flat_threshold:
        return FaissSpec("flat", {"metric": "inner_product"})
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
                "train_size": min(n, 64 * nlist),
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
    if spec.kind == "flat":
        base = faiss.IndexFlatIP(dim)
    elif spec.kind == "ivf":
        nlist = int(spec.params["nlist"])
        quantizer = faiss.IndexFlatIP(dim)
        base = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
        train_n = int(spec.params.get("train_size", 64 * nlist))
        # an evenly spaced sample: deterministic, and reads the memmap sequentially
        step = max(1, len(ids) // train_n)
        sample = np.ascontiguousarray(vectors[::step][:train_n], dtype=np.float32)
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
    base: Any = faiss.downcast_index(index.index) if hasattr(index, "index") else index
    params = spec.get("params", {})
    if spec.get("kind") == "hnsw":
        base.hnsw.efSearch = int(params.get("ef_search", 128))
    elif spec.get("kind") == "ivf":
        base.nprobe = int(params.get("nprobe", 32))
