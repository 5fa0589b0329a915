"""Reading benchmark files by path, with a :class:`DataError` a person can act on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.errors import DataError


def read_json(path: str | Path, *, what: str, hint: str) -> Any:
    """Parse the JSON file at ``path`` (``what`` names it in messages)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise DataError(f"{what} file not found: {p}", hint=hint)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{p} is not a readable JSON file: {exc}") from None
