"""The terminal progress bar of long commands: description, bar, counts, elapsed, ETA."""

from __future__ import annotations

import sys
import time
from typing import Any


def eta_bar(*middle: str, transient: bool = False) -> Any:
    """A started-later ``rich`` Progress on stderr with ``middle`` text columns before the
    elapsed time and the ETA (e.g. ``"{task.completed}/{task.total} files"``)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: list[Any] = [TextColumn("[bold]{task.description}"), BarColumn()]
    columns += [MofNCompleteColumn() if m == "M/N" else TextColumn(m) for m in middle]
    columns += [TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    return Progress(*columns, console=Console(stderr=True), transient=transient)


def bars_wanted() -> bool:
    """Bars only on a terminal: redirected into a file a bar leaves truncated redraws
    (issue 36), so a command writes plain lines (:class:`PlainLines`) there instead."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


class PlainLines:
    """One line on stderr per stage, and at most one every ``every`` seconds within one."""

    def __init__(self, every: float = 30.0) -> None:
        self.every = every
        self._clock = time.monotonic
        self._stage = ""
        self._last = -every

    def stage(self, name: str, detail: str = "") -> None:
        """A line when the stage changes."""
        if name != self._stage:
            self._stage = name
            self._print(f"{name}: {detail}" if detail else name)
            self._last -= self.every  # the stage's first progress line comes at once

    def tick(self, detail: str, *, force: bool = False) -> None:
        """A line of progress inside the stage, unless one was printed lately."""
        if force or self._clock() - self._last >= self.every:
            self._print(f"{self._stage}: {detail}" if self._stage else detail)

    def line(self, text: str) -> None:
        """A line as it is (a message, not progress)."""
        self._print(text)

    def _print(self, line: str) -> None:
        self._last = self._clock()
        print(line, file=sys.stderr, flush=True)
