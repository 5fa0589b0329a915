"""The dialogue sets follow-ups are measured and trained on (``tests/data/CONVERSATION.md``):
JSONL, one dialogue a line, each later turn with the edit it expects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.errors import DataError
from assistant.understand.followup import EDITS


def load_dialogues(path: str | Path) -> list[dict[str, Any]]:
    """The JSONL dialogues, checked line by line (:class:`DataError` names the line)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise DataError(f"{p}: no such file", hint="pass --data tests/data/conversation_dev.jsonl")
    out: list[dict[str, Any]] = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{p}:{n}: not JSON ({exc.msg})") from None
        turns = d.get("turns") if isinstance(d, dict) else None
        if not isinstance(turns, list) or len(turns) < 2:
            raise DataError(f"{p}:{n}: a dialogue needs 'turns' (two or more)")
        for i, t in enumerate(turns[1:], start=2):
            e = t.get("expect") if isinstance(t, dict) else None
            if not isinstance(e, dict) or e.get("edit") not in EDITS or "follows" not in e:
                raise DataError(f"{p}:{n}: turn {i} needs expect.follows and an edit in {EDITS}")
        out.append(d)
    if not out:
        raise DataError(f"{p}: no dialogues")
    return out
