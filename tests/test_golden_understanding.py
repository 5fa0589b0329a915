"""The rules still read the development sets exactly as the golden files record (issue 35).

A failure means the question parser or the follow-up rules read some development turn
or question differently. If that is meant, rewrite the files with
``python -m tests.golden_understanding``, look at the diff, and name the change and why
in the commit message.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests import golden_understanding as golden


@pytest.mark.parametrize("path", [golden.FOLLOWUPS, golden.PLANS], ids=lambda p: p.name)
def test_golden_file_unchanged(path: Path) -> None:
    want = path.read_text(encoding="utf-8")
    got = golden.render(path)
    if got != want:
        diff = difflib.unified_diff(
            want.splitlines(), got.splitlines(), "golden", "now", n=0, lineterm=""
        )
        lines = list(diff)
        pytest.fail(
            f"{len([x for x in lines if x.startswith('+') and not x.startswith('+++')])} "
            "lines differ from the golden file:\n" + "\n".join(lines[:60])
        )
