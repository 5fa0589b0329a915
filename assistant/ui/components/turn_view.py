"""One question and its answer in the conversation."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import AwaitMount, Widget
from textual.widgets import Button, Static

from assistant.errors import SphereError
from assistant.models import Progress, QueryPlan, TurnResult
from assistant.summarize.correct import documents_apart
from assistant.ui.components.answer_view import AnswerView
from assistant.ui.components.factual_view import FactualView
from assistant.ui.components.lookup_view import LookupView
from assistant.ui.components.plan_view import FollowUpView, PlanView
from assistant.ui.components.progress_panel import ProgressPanel
from assistant.ui.format import format_elapsed
from assistant.ui.messages import EditPlanRequested
from assistant.wording import count


def error_text(error: BaseException) -> str:
    """What a failed turn says: the SphereError's title, message and hint; never a traceback."""
    if isinstance(error, SphereError):
        text = f"{error.title}: {error.message}"
        return text + (f"\nHint: {error.hint}" if error.hint else "")
    return f"Unexpected error: {type(error).__name__}: {error}"


class TurnView(Vertical):
    """States: running → done | failed | cancelled (``-running`` etc. CSS classes)."""

    def __init__(
        self,
        turn_key: int,
        question: str,
        *,
        plan: QueryPlan | None = None,
        clock: Callable[[], float] | None = None,
        result: TurnResult | None = None,
        previous: QueryPlan | None = None,
        error: BaseException | None = None,
        follows_number: int | None = None,
    ) -> None:
        """A running turn (give ``clock``), a finished one (give ``result``) or one that
        failed before it started (give ``error``). ``previous``: the plan of the turn a
        follow-up edits (its plan is shown as a diff against it); ``follows_number``: that
        turn's place in the session as shown ("Follows turn 2")."""
        state = "-failed" if error is not None else "-running" if result is None else "-done"
        super().__init__(classes=state)
        self.turn_key = turn_key
        self.turn_id: int | None = None  # the session log's id, once recorded
        self.question = question
        self.edited_plan = plan
        self.result = result
        self.previous = previous
        self.follows_number = follows_number
        self.error = error
        self._clock = clock or (lambda: 0.0)
        self._started = self._clock()  # a running turn's "answered in" counts from here

    def compose(self) -> ComposeResult:
        parts: list[str | tuple[str, str]] = [("❯ ", "bold $accent"), (self.question, "bold")]
        if self.edited_plan is not None:
            parts.append(("  (re-run with edited plan)", "$text-muted"))
        yield Static(Content.assemble(*parts), classes="question")
        if self.error is not None:
            yield Static(Content(error_text(self.error)), classes="turn-error")
        elif self.result is None:
            yield ProgressPanel(self._clock)
        else:
            yield from self._result_widgets(self.result)

    @property
    def running(self) -> bool:
        return self.has_class("-running")

    def update_progress(self, progress: Progress) -> None:
        for panel in self.query(ProgressPanel):
            panel.update_progress(progress)

    def _finish(self, state: str) -> float | None:
        elapsed = None
        for panel in self.query(ProgressPanel):
            elapsed = panel.stop()
            panel.remove()
        self.remove_class("-running")
        self.add_class(state)
        return elapsed

    def _result_widgets(self, result: TurnResult, *, live: bool = False) -> list[Widget]:
        """The answer's widgets; ``live`` (an answer just computed): without the line
        saying how long it took, which :meth:`show_answered` adds once it is on screen."""
        if result.reply:  # a question about an earlier answer, answered from the log
            return [
                FollowUpView(result.plan, self.previous, self.follows_number),
                Static(Content(result.reply), classes="turn-reply"),
                Static(
                    Content("answered from this session's answers · no new search"),
                    classes="turn-meta",
                ),
            ]
        answer: Widget
        if result.lookup is not None:
            answer = LookupView(result.lookup, result.summary.notes, self.turn_key)
        elif result.answer is not None:
            answer = FactualView(result.answer, result.summary.notes, self.turn_key)
        else:
            answer = AnswerView(result.summary, self.turn_key, documents_apart(result))
        widgets: list[Widget] = [PlanView(result.plan, self.previous, self.follows_number), answer]
        if not live:  # a stored turn: the time its pass took, from the log
            widgets.append(self._meta(result, result.seconds))
        return widgets

    @staticmethod
    def _meta(result: TurnResult, seconds: float) -> Static:
        n_docs = sum(len(v) for v in result.hits.values())
        meta = f"{count(n_docs, 'document')} retrieved · answered in {format_elapsed(seconds)}"
        if result.index:
            meta += f" · index {result.index}"
        return Static(Content(meta), classes="turn-meta")

    def show_result(self, result: TurnResult) -> AwaitMount:
        """Show the answer; await the returned mount to act once it is in the DOM, then
        call :meth:`show_answered`."""
        self._finish("-done")
        self.result = result
        return self.mount_all(self._result_widgets(result, live=True))

    def show_answered(self) -> AwaitMount | None:
        """Add "answered in …" once the answer is in place (await :meth:`show_result`'s
        mount first, which waits for the answer's every widget), with the time the user
        waited for it: from the question to now, on the app's clock. Issue 36: the line
        was mounted with the answer, so it was drawn while the answer's columns were still
        being built, and it summed the pass's stage timings with their total."""
        if self.result is None or not self.is_attached or self.query(".turn-meta"):
            return None
        return self.mount(self._meta(self.result, self._clock() - self._started))

    async def show_corrected(self, result: TurnResult) -> AnswerView:
        """Show ``result`` (this turn with a side corrected) in place of the answer; the
        new answer view, once mounted."""
        self.result = result
        old = self.query_one(AnswerView)
        new = AnswerView(result.summary, self.turn_key, documents_apart(result))
        await self.mount(new, after=old)
        await old.remove()
        return new

    def show_error(self, error: BaseException) -> None:
        self._finish("-failed")
        self.mount(Static(Content(error_text(error)), classes="turn-error"))

    def show_cancelled(self) -> None:
        elapsed = self._finish("-cancelled")
        after = f" after {format_elapsed(elapsed)}" if elapsed is not None else ""
        self.mount(
            Static(
                Content(f"Cancelled{after}. Ask again, or press ↑ to edit."),
                classes="turn-cancelled",
            )
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.has_class("edit-plan") and self.result is not None:
            event.stop()
            self.post_message(EditPlanRequested(self.turn_key, self.question, self.result.plan))
