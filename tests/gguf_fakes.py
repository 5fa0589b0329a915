"""Small GGUF files for tests: a real header, no weights.

:func:`write_gguf` writes the header of a GGUF v3 file (metadata and tensor
records) and nothing after it: enough for :mod:`assistant.llm.gguf`, which reads
only the header, to report a 7B model without 4 GB on disk.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any

STRING, ARRAY, UINT32, UINT64, FLOAT32 = 8, 9, 4, 10, 6


def _str(s: str) -> bytes:
    raw = s.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def _value(v: Any) -> bytes:
    if isinstance(v, str):
        return struct.pack("<I", STRING) + _str(v)
    if isinstance(v, float):
        return struct.pack("<I", FLOAT32) + struct.pack("<f", v)
    if isinstance(v, list):
        body = b"".join(_str(x) for x in v)
        return struct.pack("<I", ARRAY) + struct.pack("<IQ", STRING, len(v)) + body
    return struct.pack("<I", UINT32) + struct.pack("<I", int(v))


def write_gguf(
    path: Path,
    *,
    metadata: dict[str, Any],
    tensors: list[tuple[str, list[int]]],
) -> Path:
    """A GGUF v3 header with ``metadata`` and one record per (name, shape) tensor."""
    out = bytearray(b"GGUF")
    out += struct.pack("<IQQ", 3, len(tensors), len(metadata))
    for key, value in metadata.items():
        out += _str(key) + _value(value)
    offset = 0
    for name, shape in tensors:
        out += _str(name) + struct.pack("<I", len(shape))
        out += b"".join(struct.pack("<Q", d) for d in shape)
        out += struct.pack("<IQ", 0, offset)
        offset += 32
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(out) + b"\0" * (64 + offset))  # alignment, then "tensor data"
    return path


def fake_model(
    path: Path,
    *,
    parameters: int,
    context: int = 8192,
    file_type: int = 15,
    label: str = "",
    arch: str = "llama",
    extra: dict[str, Any] | None = None,
) -> Path:
    """A model of ``parameters`` parameters (two tensors), Q4_K_M by default."""
    first = parameters // 2
    meta: dict[str, Any] = {
        "general.architecture": arch,
        "general.name": path.stem,
        "general.file_type": file_type,
        f"{arch}.context_length": context,
        "tokenizer.ggml.tokens": [f"t{i}" for i in range(40)],  # an array to skip
    }
    if label:
        meta["general.size_label"] = label
    meta.update(extra or {})
    return write_gguf(
        path,
        metadata=meta,
        tensors=[("a.weight", [first]), ("b.weight", [parameters - first])],
    )


def link(src: Path, dst: Path, *, hard: bool = False) -> Path:
    """``dst`` → ``src`` without copying: a hard link (when asked and possible) or a symlink."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if hard:
        try:
            os.link(src, dst)
            return dst
        except OSError:
            pass  # another file system: a symlink does as well
    dst.symlink_to(src)
    return dst
