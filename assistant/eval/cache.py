"""Embedding cache for the evaluation harnesses.

A text list is embedded once per embedder and stored as
``cache_dir / "emb" / f"{sha256(embedder name + texts)}.npy"``; later runs load
it. The key covers the embedder name and every text (in order), so any change
to either makes a new entry. Writes are atomic (temp file + rename), so an
interrupted run never leaves a truncated cache file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from assistant.embed import Embedder


def cache_key(embedder_name: str, texts: Sequence[str]) -> str:
    """sha256 over the embedder name and the texts (NUL-separated, so no two lists collide)."""
    h = hashlib.sha256(embedder_name.encode("utf-8"))
    for t in texts:
        h.update(b"\x00")
        h.update(t.encode("utf-8"))
    return h.hexdigest()


def cache_path(cache_dir: Path, embedder_name: str, texts: Sequence[str]) -> Path:
    return Path(cache_dir).expanduser() / "emb" / f"{cache_key(embedder_name, texts)}.npy"


def embed_cached(embedder: Embedder, texts: Sequence[str], cache_dir: Path) -> np.ndarray:
    """(len(texts), dim) float32 unit vectors for ``texts``, from the cache when possible.

    Duplicate texts are embedded once. A cache file with the wrong shape (from
    a damaged write) is ignored and rewritten.
    """
    texts = list(texts)
    path = cache_path(cache_dir, embedder.name, texts)
    if path.is_file():
        try:
            arr = np.load(path)
            if arr.shape == (len(texts), embedder.dim):
                return arr.astype(np.float32, copy=False)
        except (OSError, ValueError):
            pass
    unique = list(dict.fromkeys(texts))
    vecs = embedder.encode(unique) if unique else np.zeros((0, embedder.dim), np.float32)
    where = {t: i for i, t in enumerate(unique)}
    out = np.asarray(vecs, dtype=np.float32)[[where[t] for t in texts]] if texts else vecs
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npy.tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.save(fh, out)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out
