"""What a GGUF file says about its model, read from the header alone.

:func:`read_gguf` memory-maps the file and walks the header (GGUF versions 2
and 3): the metadata key/value pairs, then one record per tensor (name, shape,
type, offset). The weights are never read and llama.cpp is never loaded, so a
7B model's facts cost a few milliseconds and no memory to speak of.

What comes out (:class:`GGUFInfo`):

* ``parameters``: the sum over tensors of their element counts (the product of
  each tensor's dimensions); for a model split over several files
  (``split.count`` > 1, ``…-00001-of-0000N.gguf``) the parts beside it are read
  too. When no part can be read the ``general.size_label`` (``"7B"``,
  ``"8x7B"``, ``"135M"``) gives an estimate.
* ``quantization``: ``general.file_type`` as llama.cpp names it (``Q4_K_M``).
* ``context_length``: ``<general.architecture>.context_length``, the context
  the model was trained for.

A damaged or foreign file raises :class:`GGUFError` (a
:class:`~assistant.errors.ModelError`) with the reason, never ``struct.error``.
"""

from __future__ import annotations

import mmap
import re
import struct
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import ModelError

MAGIC = b"GGUF"

#: llama.cpp's ``llama_ftype`` (``general.file_type``), as ``LLAMA_FTYPE_MOSTLY_…`` names it
FILE_TYPES: dict[int, str] = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    19: "IQ2_XXS",
    20: "IQ2_XS",
    21: "Q2_K_S",
    22: "IQ3_XS",
    23: "IQ3_XXS",
    24: "IQ1_S",
    25: "IQ4_NL",
    26: "IQ3_S",
    27: "IQ3_M",
    28: "IQ2_S",
    29: "IQ2_M",
    30: "IQ4_XS",
    31: "IQ1_M",
    32: "BF16",
    33: "Q4_0_4_4",
    34: "Q4_0_4_8",
    35: "Q4_0_8_8",
    36: "TQ1_0",
    37: "TQ2_0",
    38: "MXFP4_MOE",
    39: "NVFP4",
    40: "Q1_0",
    41: "Q2_0",
}

# GGUF metadata value types
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL, _STRING, _ARRAY = range(10)
_UINT64, _INT64, _FLOAT64 = 10, 11, 12
_SCALARS: dict[int, str] = {
    _UINT8: "<B",
    _INT8: "<b",
    _UINT16: "<H",
    _INT16: "<h",
    _UINT32: "<I",
    _INT32: "<i",
    _FLOAT32: "<f",
    _BOOL: "<?",
    _UINT64: "<Q",
    _INT64: "<q",
    _FLOAT64: "<d",
}
_MAX_COUNT = 1 << 40  # a count above this is a damaged header, not a model
_SPLIT = re.compile(r"^(?P<stem>.*)-(?P<part>\d{5})-of-(?P<total>\d{5})\.gguf$", re.IGNORECASE)
_SIZE_LABEL = re.compile(
    r"^\s*(?:(?P<experts>\d+)\s*x\s*)?(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>[KMBT])\b", re.IGNORECASE
)
_UNITS = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
#: metadata values longer than this (token lists, merges) are not kept in ``GGUFInfo.metadata``
_KEEP_ARRAY = 16


class GGUFError(ModelError):
    """The file is not a readable GGUF model."""

    title = "Not a usable GGUF file"


@dataclass
class GGUFInfo:
    """The facts of one GGUF model file (see the module docstring)."""

    path: str
    size_bytes: int
    version: int
    architecture: str = ""
    name: str = ""
    size_label: str = ""
    file_type: int | None = None
    quantization: str = ""
    context_length: int | None = None
    tensors: int = 0
    parameters: int | None = None
    parameters_from: str = ""  # "tensors" | "size_label" | ""
    split_count: int = 1
    metadata: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_dict(self, *, metadata: bool = False) -> dict[str, Any]:
        d = asdict(self)
        if not metadata:
            d.pop("metadata")
        return d


class _Reader:
    def __init__(self, buf: Any, path: Path) -> None:
        self.buf = buf
        self.pos = 0
        self.path = path

    def take(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.buf):
            raise GGUFError(f"{self.path} ends inside its GGUF header (truncated?)")
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += size
        return value

    def count(self) -> int:
        n = int(self.take("<Q"))
        if n > _MAX_COUNT:
            raise GGUFError(f"{self.path} has a damaged GGUF header (a count of {n})")
        return n

    def string(self) -> str:
        n = self.count()
        end = self.pos + n
        if end > len(self.buf):
            raise GGUFError(f"{self.path} ends inside its GGUF header (truncated?)")
        raw = bytes(self.buf[self.pos : end])
        self.pos = end
        return raw.decode("utf-8", "replace")

    def skip_strings(self, n: int) -> None:
        buf, pos, size = self.buf, self.pos, len(self.buf)
        for _ in range(n):
            if pos + 8 > size:
                raise GGUFError(f"{self.path} ends inside its GGUF header (truncated?)")
            (length,) = struct.unpack_from("<Q", buf, pos)
            pos += 8 + length
        if pos > size:
            raise GGUFError(f"{self.path} ends inside its GGUF header (truncated?)")
        self.pos = pos

    def value(self, kind: int) -> Any:
        if kind in _SCALARS:
            return self.take(_SCALARS[kind])
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            item = int(self.take("<I"))
            n = self.count()
            if n > _KEEP_ARRAY:
                if item == _STRING:
                    self.skip_strings(n)
                elif item in _SCALARS:
                    self.pos += n * struct.calcsize(_SCALARS[item])
                    if self.pos > len(self.buf):
                        raise GGUFError(f"{self.path} ends inside its GGUF header (truncated?)")
                else:
                    for _ in range(n):
                        self.value(item)
                return f"<array of {n}>"
            return [self.value(item) for _ in range(n)]
        raise GGUFError(f"{self.path} has a damaged GGUF header (value type {kind})")


def size_label_parameters(label: str) -> int | None:
    """``"7B"`` → 7e9, ``"8x7B"`` → 56e9, ``"135M"`` → 135e6; None if it is not a size."""
    m = _SIZE_LABEL.match(label or "")
    if not m:
        return None
    n = float(m.group("num")) * _UNITS[m.group("unit").upper()]
    if m.group("experts"):
        n *= int(m.group("experts"))
    return int(n)


def _parse(path: Path) -> tuple[int, dict[str, Any], int, int]:
    """(version, metadata, tensor count, parameter count) of one GGUF file."""
    try:
        f = path.open("rb")
    except OSError as exc:
        raise GGUFError(f"cannot read {path}: {exc.strerror or exc}") from None
    with f:
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise GGUFError(f"cannot read {path}: {exc.strerror or exc}") from None
        if size < 24:
            raise GGUFError(f"{path} is empty or truncated ({size} bytes), not a GGUF model")
        try:
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise GGUFError(f"cannot read {path}: {exc}") from None
        with buf:
            if buf[:4] != MAGIC:
                raise GGUFError(
                    f"{path} is not a GGUF model file (it starts with {bytes(buf[:4])!r})"
                )
            r = _Reader(buf, path)
            r.pos = 4
            version = int(r.take("<I"))
            if version not in (2, 3):
                raise GGUFError(f"{path} is GGUF version {version}; versions 2 and 3 are read")
            n_tensors = r.count()
            n_kv = r.count()
            meta: dict[str, Any] = {}
            for _ in range(n_kv):
                key = r.string()
                meta[key] = r.value(int(r.take("<I")))
            params = 0
            last = 0  # the largest tensor offset: where the last tensor's data starts
            for _ in range(n_tensors):
                r.skip_strings(1)
                n_dims = int(r.take("<I"))
                if n_dims > 8:
                    raise GGUFError(f"{path} has a damaged tensor record ({n_dims} dimensions)")
                elements = 1
                for _d in range(n_dims):
                    elements *= r.count()
                r.take("<I")  # type
                last = max(last, int(r.take("<Q")))
                params += elements
            align = meta.get("general.alignment", 32)
            align = align if isinstance(align, int) and align > 0 else 32
            data_start = -(-r.pos // align) * align
            if n_tensors and data_start + last >= size:
                raise GGUFError(
                    f"{path} ends before its tensor data ({size} bytes; a partial download?)"
                )
    return version, meta, n_tensors, params


_CACHE: dict[tuple[str, int, int], GGUFInfo] = {}
_CACHE_LOCK = threading.Lock()


def read_gguf(path: str | Path) -> GGUFInfo:
    """The header facts of the GGUF at ``path`` (cached per path, size and mtime)."""
    p = Path(path).expanduser()
    try:
        st = p.stat()
    except OSError as exc:
        raise GGUFError(
            f"GGUF model file not found: {p}"
            if isinstance(exc, FileNotFoundError)
            else f"cannot read {p}: {exc.strerror or exc}"
        ) from None
    if not p.is_file():
        raise GGUFError(f"{p} is not a file")
    key = (str(p), st.st_size, st.st_mtime_ns)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    version, meta, n_tensors, params = _parse(p)
    arch = str(meta.get("general.architecture", "") or "")
    file_type = meta.get("general.file_type")
    ctx = meta.get(f"{arch}.context_length") if arch else None
    info = GGUFInfo(
        path=str(p),
        size_bytes=st.st_size,
        version=version,
        architecture=arch,
        name=str(meta.get("general.name", "") or ""),
        size_label=str(meta.get("general.size_label", "") or ""),
        file_type=int(file_type) if isinstance(file_type, int) else None,
        quantization=FILE_TYPES.get(int(file_type), f"type {file_type}")
        if isinstance(file_type, int)
        else "",
        context_length=int(ctx) if isinstance(ctx, int) and ctx > 0 else None,
        tensors=n_tensors,
        parameters=params if n_tensors else None,
        parameters_from="tensors" if n_tensors else "",
        metadata=meta,
    )
    split = meta.get("split.count")
    if isinstance(split, int) and split > 1:
        info.split_count = split
        _add_split_parts(info, p)
    if info.parameters is None and info.size_label:
        info.parameters = size_label_parameters(info.size_label)
        info.parameters_from = "size_label" if info.parameters else ""
    with _CACHE_LOCK:
        _CACHE[key] = info
    return info


def _add_split_parts(info: GGUFInfo, first: Path) -> None:
    """Sum the tensors of ``…-0000k-of-0000N.gguf`` beside the first part."""
    m = _SPLIT.match(first.name)
    if not m:
        info.parameters, info.parameters_from = None, ""
        return
    total = int(m.group("total"))
    params = info.parameters or 0
    size = info.size_bytes
    for k in range(2, total + 1):
        part = first.with_name(f"{m.group('stem')}-{k:05d}-of-{total:05d}.gguf")
        try:
            _v, _meta, _n, n_params = _parse(part)
            size += part.stat().st_size
        except (GGUFError, OSError):
            info.parameters, info.parameters_from = None, ""  # incomplete: fall back to the label
            return
        params += n_params
    info.parameters = params
    info.size_bytes = size


def is_later_split_part(path: Path) -> bool:
    """``…-00002-of-00003.gguf`` and later: listed through their first part."""
    m = _SPLIT.match(path.name)
    return m is not None and int(m.group("part")) > 1


def format_parameters(n: int | None) -> str:
    """134515008 → ``135M``, 7241732096 → ``7.2B``."""
    if not n:
        return "?"
    for unit, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f}{unit}" if value < 10 else f"{value:.0f}{unit}"
    return str(n)
