"""FAISS index choice, build and load.

Exact inner-product search (``IndexFlatIP``) up to ``flat_threshold`` passages;
above it HNSW (``IndexHNSWFlat``, inner product) — no training pass, good
recall at high speed on CPU, memory ≈ vectors + 2·M ids per vector. Every
index is wrapped in ``IndexIDMap2`` so FAISS ids are Sphere passage ids.
The choice and its parameters are recorded in the manifest.
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


def choose_spec(n: int, *, flat_threshold: int, hnsw_m: int, ef_search: int) -> FaissSpec:
    if n <= flat_threshold:
        return FaissSpec("flat", {"metric": "inner_product"})
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

    if spec.kind == "flat":
        base = faiss.IndexFlatIP(dim)
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
    if spec and spec.get("kind") == "hnsw":
        base = faiss.downcast_index(index.index)
        base.hnsw.efSearch = int(spec.get("params", {}).get("ef_search", 128))
    return index
