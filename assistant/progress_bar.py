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


class PlainSteps:
    """A training loop's progress where stderr is no terminal (a log file, ``nohup``):
    ``desc: step N/T (P %), S s/step, ETA H:MM:SS, key=value …`` at most every ``every``
    seconds, so a long job in the background still shows how far it is and when it ends.
    Takes the calls the loops make on a ``tqdm`` bar (``update``, ``set_postfix``,
    ``close``); the rate counts only the steps of this process (a resumed run)."""

    def __init__(self, total: int, initial: int = 0, desc: str = "", every: float = 30.0):
        self.total, self.n, self.desc = total, initial, desc
        self._lines = PlainLines(every)
        self._start_n, self._t0 = initial, self._lines._clock()
        self._post = ""

    def update(self, n: int = 1) -> None:
        self.n += n
        self._lines.tick(self._text(), force=self.n >= self.total)

    def set_postfix(self, **values: Any) -> None:
        self._post = ", ".join(f"{k}={v}" for k, v in values.items())

    def close(self) -> None:
        """Nothing to clear: the lines stay in the log."""

    def _text(self) -> str:
        done = self.n - self._start_n
        rate = (self._lines._clock() - self._t0) / done if done else 0.0
        left = int(rate * max(self.total - self.n, 0))
        eta = f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"
        pct = 100.0 * self.n / max(self.total, 1)
        head = f"{self.desc}: " if self.desc else ""
        tail = f", {self._post}" if self._post else ""
        return f"{head}step {self.n}/{self.total} ({pct:.0f} %), {rate:.2f} s/step, ETA {eta}{tail}"


def step_bar(total: int, *, initial: int = 0, desc: str = "", show: bool = True) -> Any:
    """A training loop's progress: a ``tqdm`` bar on a terminal, :class:`PlainSteps`
    lines elsewhere, nothing when ``show`` is false (``--no-progress``, tests)."""
    from tqdm import tqdm

    if show and not bars_wanted():
        return PlainSteps(total, initial, desc)
    return tqdm(
        total=total, initial=initial, disable=not show, unit="step", dynamic_ncols=True, desc=desc
    )
