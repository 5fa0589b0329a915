"""A fake embedder for control-flow tests: fast, deterministic, no model.

Each text becomes a unit vector of word hashes; ``delay`` seconds per call
make a build slow enough to interrupt. Calls and texts are counted.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np


class HashEmbedder:
    name = "test/hash-embedder"
    dim = 16

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.calls = 0
        self.texts = 0

    def encode(self, texts: Sequence[str], **_kw: Any) -> np.ndarray:
        self.calls += 1
        self.texts += len(texts)
        if self.delay:
            time.sleep(self.delay)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.split()[:64]:
                out[i, zlib.crc32(w.encode()) % self.dim] += 1.0
        out[:, 0] += 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)
