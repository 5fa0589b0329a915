"""The terminal progress bar of long commands: description, bar, counts, elapsed, ETA."""

from __future__ import annotations

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
