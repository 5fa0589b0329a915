"""Live progress of one pass: stage steps, a progress bar, elapsed time, Esc to cancel."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import ProgressBar, Static

from assistant.models import Progress
from assistant.ui.format import STAGE_ORDER, STAGES, format_elapsed, overall_fraction, stage_text


def stepper(current: Progress | None) -> Content:
    """``✓ Understanding  ✓ Retrieving  ● Local summaries 2/4  ○ Editorial merge  ○ Verifying``."""
    done_upto = STAGE_ORDER.index(current.stage) if current and current.stage in STAGES else -1
    if current is not None and current.stage == "done":
        done_upto = len(STAGE_ORDER)
    parts: list[str | tuple[str, str]] = []
    for i, stage in enumerate(STAGE_ORDER):
        label = STAGES[stage][0]
        if i:
            parts.append("  ")
        if i < done_upto:
            parts.append((f"✓ {label}", "$success"))
        elif i == done_upto and current is not None:
            step = f" {current.step}/{current.total}" if current.total > 0 else ""
            parts.append((f"● {label}{step}", "bold $accent"))
        else:
            parts.append((f"○ {label}", "$text-muted"))
    return Content.assemble(*parts)


class ProgressPanel(Vertical):
    """Shown inside a running turn; ``clock`` is injectable so snapshots are stable."""

    def __init__(self, clock: Callable[[], float], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._clock = clock
        self._started = clock()
        self._current: Progress | None = None
        self._timer: Timer | None = None
        self._stopped = False

    def compose(self) -> ComposeResult:
        yield Static(stepper(None), classes="stepper")
        with Horizontal(classes="bar-row"):
            yield ProgressBar(total=1000, show_eta=False, show_percentage=True)
            yield Static("", classes="elapsed")
        yield Static("", classes="detail")

    def on_mount(self) -> None:
        self._tick()
        if not self._stopped:
            self._timer = self.set_interval(0.25, self._tick)
        if self._current is not None:  # progress that came before the panel was mounted
            self._show(self._current)

    @property
    def elapsed(self) -> float:
        return self._clock() - self._started

    def _tick(self) -> None:
        self.query_one(".elapsed", Static).update(
            Content.assemble(
                (format_elapsed(self.elapsed), "bold"), ("  Esc to cancel", "$text-muted")
            )
        )

    def on_resize(self) -> None:
        self.settle_bar()

    def settle_bar(self) -> None:
        """Round the drawn bar to its width now.

        Textual's bar rounds its value to half cells of its width when the value is
        set, and keeps a value set before its first layout (width 0) unrounded, so
        the same progress could be drawn ``╸`` or ``╺`` depending on that race.
        Assigning the value again once the bar has a size makes the drawing depend
        on the progress only.
        """
        bar = self.query("Bar")
        if bar and self._current is not None:
            inner = bar.first()
            if inner.size.width:
                inner.percentage = self.query_one(ProgressBar).percentage  # type: ignore[attr-defined]

    def update_progress(self, progress: Progress) -> None:
        """Show ``progress``. A worker's first report can arrive while the panel is still
        being mounted (its bar not yet in the DOM): it is kept and shown on mount."""
        self._current = progress
        if self.is_mounted:
            self._show(progress)

    def _show(self, progress: Progress) -> None:
        self.query_one(".stepper", Static).update(stepper(progress))
        self.query_one(ProgressBar).update(progress=round(overall_fraction(progress) * 1000))
        detail = self.query_one(".detail", Static)
        detail.update(Content(stage_text(progress)))
        detail.display = bool(progress.detail)
        self.call_after_refresh(self.settle_bar)

    def stop(self) -> float:
        """Stop the clock; return the elapsed seconds."""
        self._stopped = True
        if self._timer is not None:
            self._timer.stop()
        if self.is_mounted:  # a turn can fail before its panel has finished mounting
            self._tick()
        return self.elapsed
