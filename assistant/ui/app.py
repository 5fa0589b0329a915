"""``SphereApp``: the conversational research desk, and ``make_app``, its one factory.

The CLI (``sphere`` with no command) and the tests build the app with
:func:`make_app`. Slow work (loading the index and models, answering) runs in
``@work(thread=True)`` workers that post typed messages (``messages.py``); the
session log is only touched on the app's own thread.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Header, Input, Static, TextArea

from assistant.config import Settings
from assistant.errors import CancelledError, SphereError
from assistant.models import Progress, QueryPlan, Side, TurnResult
from assistant.thread import next_step, reply_turn
from assistant.ui.components.chat_input import ChatInput
from assistant.ui.components.evidence_pane import EvidencePane
from assistant.ui.components.focus_footer import FocusFooter
from assistant.ui.components.sessions_sidebar import SessionRow, SessionsSidebar
from assistant.ui.components.turn_view import TurnView, error_text
from assistant.ui.evidence import (
    CORRECTION_ACTIONS,
    CORRECTION_KEYS,
    EvidenceActions,
)
from assistant.ui.format import export_filename, format_when, session_title
from assistant.ui.messages import (
    EditPlanRequested,
    PipelineFailed,
    PipelineReady,
    SessionChosen,
    SessionSearchChanged,
    TurnCancelled,
    TurnFailed,
    TurnFinished,
    TurnProgress,
    TwoSidedRequested,
)
from assistant.ui.protocols import (
    DemoBuilder,
    Exporter,
    PipelineFactory,
    ResearchPipeline,
    SessionLog,
)
from assistant.ui.screens.help_screen import HelpScreen
from assistant.ui.screens.index_picker import IndexPickerScreen
from assistant.ui.screens.model_picker import ModelFinder, ModelPickerScreen, describe_model
from assistant.ui.screens.plan_editor import PlanEditorScreen
from assistant.ui.screens.problem_screen import ProblemScreen
from assistant.ui.screens.prompts import ConfirmPrompt, TextPrompt
from assistant.ui.wiring import (
    default_demo_builder,
    default_exporter,
    default_model_chooser,
    default_model_finder,
    default_pipeline_factory,
    open_store,
    scan_index_names,
)
from assistant.understand.facet_judge import shared_judge
from assistant.wording import count

HERE = Path(__file__).parent
CSS_FILES = [
    HERE / "app.tcss",
    *sorted((HERE / "components").glob("*.tcss")),
    *sorted((HERE / "screens").glob("*.tcss")),
]

WELCOME = (
    "Ask a question below. Sphere looks for both sides in the index “{index}”, "
    "writes two opposing claims with the perspectives behind each, and cites "
    "every document: select a [n] marker to see the passage and whether it holds up."
)
EXAMPLE = "Try: Should school uniforms be mandatory?"
PROBLEM_HIDDEN = {"new_session", "toggle_sidebar", "export", "edit_plan"}
ModelChooser = Callable[[Settings, Any], tuple[Settings, str]]


@dataclass
class ThreadTurn:
    """An answered turn as :func:`assistant.thread.next_step` reads it (the session log's
    turn id; the turn's key in the app when nothing is logged)."""

    id: int
    result: TurnResult


class ModelCommands(Provider):
    """The command palette's "Use language model: NAME", one per model found here."""

    async def startup(self) -> None:
        app = self.app
        self.models: list[Any] = []
        if isinstance(app, SphereApp):
            try:
                found = await asyncio.to_thread(app.model_finder, app.settings)
            except Exception:  # the palette must open whatever the search meets
                found = []
            self.models = [m for m in found if not m.error]

    def _commands(self) -> list[tuple[str, str, Callable[[], None]]]:
        app = self.app
        if not isinstance(app, SphereApp):
            return []
        return [
            (f"Use language model: {m.name}", describe_model(m), partial(app.use_model, m))
            for m in getattr(self, "models", [])
        ]

    async def discover(self) -> Hits:
        for text, help_text, command in self._commands():
            yield DiscoveryHit(text, command, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, help_text, command in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), command, help=help_text)


class SphereApp(EvidenceActions):
    TITLE = "Sphere"
    COMMANDS = App.COMMANDS | {ModelCommands}
    CSS_PATH = CSS_FILES  # type: ignore[assignment]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012  (App declares it)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel_turn", "Cancel", key_display="esc"),
        Binding("escape", "close_panel", "Close", key_display="esc"),
        Binding("ctrl+n", "new_session", "New"),
        Binding("ctrl+b", "toggle_sidebar", "Sessions"),
        Binding("f2", "pick_index", "Index"),
        Binding("ctrl+r", "edit_plan", "Edit plan", show=False),
        Binding("ctrl+t", "ask_as_new_topic", "New topic", show=False),
        # priority: Input uses ctrl+e for "end of line" (End still does that)
        Binding("ctrl+e", "export", "Export", priority=True),
        Binding("f1", "help", "Help"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        index_name: str,
        pipeline_factory: PipelineFactory,
        store: SessionLog | None,
        store_problem: str = "",
        exporter: Exporter,
        clock: Callable[[], float],
        export_dir: Path,
        demo_builder: DemoBuilder | None = None,
        model_finder: ModelFinder | None = None,
        model_chooser: ModelChooser | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.index_name = index_name
        self.pipeline_factory = pipeline_factory
        self.store = store
        self.store_problem = store_problem
        self.exporter = exporter
        self.clock = clock
        self.export_dir = export_dir
        self.demo_builder = demo_builder
        self.model_finder: ModelFinder = model_finder or default_model_finder
        self.model_chooser: ModelChooser = model_chooser or default_model_chooser
        self.session_id: int | None = None
        self._pipeline: ResearchPipeline | None = None
        self._pipeline_name = ""
        self._pipeline_lock = threading.Lock()
        self._turn_keys = itertools.count(1)
        self._turns: dict[int, TurnView] = {}
        self._active_turn: int | None = None
        self._cancel = threading.Event()
        self._loading = False
        self._followups_warm = False  # the turn reader is loaded after the first answer

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(icon="◐")
        with Horizontal(id="body"):
            yield SessionsSidebar(id="sidebar")
            with Vertical(id="main"):
                with Container(id="workspace"):
                    with VerticalScroll(id="conversation", can_focus=False):
                        yield Static(self._welcome(), id="welcome")
                    yield EvidencePane(id="evidence")
                yield ChatInput(
                    placeholder="Ask a question…  (Enter to ask, ↑ for history)", id="ask"
                )
        yield FocusFooter(compact=True)

    def _welcome(self) -> Content:
        return Content.assemble(
            ("Balanced research over your own documents\n\n", "bold $accent"),
            WELCOME.format(index=self.index_name),
            ("\n\n" + EXAMPLE, "italic"),
            ("\n\nF1 help · Ctrl+B sessions · F2 index · Ctrl+P commands", "$text-muted"),
        )

    def on_mount(self) -> None:
        theme = self.settings.ui.theme
        if theme in self.available_themes:
            self.theme = theme
        else:
            self.notify(
                f"Unknown theme {theme!r} in ui.theme; using {self.theme}.", severity="warning"
            )
        if self.store_problem:
            self.notify(
                f"{self.store_problem}\nAnswers will not be saved.",
                title="Session log unavailable",
                severity="warning",
                timeout=10,
            )
        self._update_subtitle()
        self.query_one(ChatInput).focus()
        self._load_index(self.index_name)

    def _update_subtitle(self) -> None:
        title = "new session"
        if self.store is not None and self.session_id is not None:
            try:
                title = self.store.get_session(self.session_id).title or "untitled"
            except Exception:
                title = f"session {self.session_id}"
        state = " (loading…)" if self._loading else ""
        self.sub_title = f"{self.index_name}{state} · {title}"

    # ------------------------------------------------------------------ pipeline

    def _ensure_pipeline(self, name: str) -> ResearchPipeline:
        """Load (once) the pipeline for ``name``; called from worker threads."""
        with self._pipeline_lock:
            if self._pipeline is None or self._pipeline_name != name:
                self._pipeline = None
                self._pipeline = self.pipeline_factory(self.settings, name)
                self._pipeline_name = name
            return self._pipeline

    def _load_index(self, name: str) -> None:
        self.index_name = name
        self._loading = True
        self._update_subtitle()
        self.query_one("#welcome", Static).update(self._welcome())
        self._load_pipeline(name)

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm")
    def _warm_followups(self) -> None:
        """Load the follow-up turn reader while the user reads the first answer."""
        judge = shared_judge()
        judge.configure(self.settings)
        judge.warm()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def _load_pipeline(self, name: str) -> None:
        try:
            pipeline = self._ensure_pipeline(name)
        except Exception as exc:
            self.post_message(PipelineFailed(name, exc))
        else:
            self.post_message(PipelineReady(name, pipeline))

    def on_pipeline_ready(self, message: PipelineReady) -> None:
        if message.index_name != self.index_name:
            return
        self._loading = False
        self._update_subtitle()

    def on_pipeline_failed(self, message: PipelineFailed) -> None:
        if message.index_name != self.index_name:
            return
        self._loading = False
        self._update_subtitle()
        if isinstance(self.screen, ProblemScreen):
            self.screen.dismiss(None)

        def retry(name: str | None) -> None:
            if name:
                self._load_index(name)

        self.push_screen(
            ProblemScreen(
                message.error,
                message.index_name,
                self.settings,
                self.demo_builder,
                find_models=self.model_finder,
            ),
            retry,
        )

    # ------------------------------------------------------------------ asking

    @on(Input.Submitted, "#ask")
    def _on_ask(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        if self.ask(question):
            box = self.query_one(ChatInput)
            box.remember(question)
            box.value = ""

    def ask(self, question: str, plan: QueryPlan | None = None, *, new_topic: bool = False) -> bool:
        """Start a turn; ``False`` if one is already running.

        A typed question (no ``plan``) is first read against the conversation
        (:func:`assistant.thread.next_step`): a follow-up runs the previous plan with its
        edit applied (shown as a diff), a question about an answer ("why is [3] there?")
        is answered from the answers on screen without a search, and anything else is a
        new topic. ``new_topic``: the user said it is one (Ctrl+T on a turn read as a
        follow-up); the question is parsed on its own."""
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return False
        skip = None
        previous: QueryPlan | None = None
        edited = plan  # a plan the user edited (shown as such)
        if plan is None and not new_topic:
            try:
                shared_judge().configure(self.settings)
                step = next_step(question, self._thread())
            except SphereError as exc:  # "why is [99] there?" when there is no [99]
                self._mount_turn(TurnView(next(self._turn_keys), question, error=exc))
                return True
            base = self._turn_by_id(step.follows)
            previous = base.result.plan if base is not None and base.result else None
            if step.reply and base is not None and base.result is not None:
                result = reply_turn(question, step, base.result)
                key = next(self._turn_keys)
                view = TurnView(
                    key,
                    question,
                    result=result,
                    previous=previous,
                    follows_number=self._turn_number(base),
                )
                self._turns[key] = view
                self._mount_turn(view)
                self._commit(result, view)
                return True
            plan, skip = step.plan, step.skip
        elif plan is not None and plan.follows is not None:
            base = self._turn_by_id(plan.follows)
            previous = base.result.plan if base is not None and base.result else None
        key = next(self._turn_keys)
        turn = TurnView(
            key,
            question,
            plan=edited,
            clock=self.clock,
            previous=previous,
            follows_number=self._turn_number(self._turn_by_id(plan.follows if plan else None)),
        )
        self._turns[key] = turn
        self._mount_turn(turn)
        self._active_turn = key
        self._cancel = threading.Event()
        self.query_one(ChatInput).add_class("-busy")
        self.refresh_bindings()
        self._run_turn(key, question, plan, self._cancel, self.index_name, skip)
        return True

    def _mount_turn(self, turn: TurnView) -> None:
        self._turns.setdefault(turn.turn_key, turn)
        self.query_one("#welcome").display = False
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.mount(turn)
        conversation.scroll_end(animate=False)

    def _thread(self) -> list[ThreadTurn]:
        """The answered turns on screen, oldest first, as the follow-up rule reads them."""
        return [
            ThreadTurn(t.turn_id if t.turn_id is not None else t.turn_key, t.result)
            for t in self._turns.values()
            if t.result is not None and t.is_attached
        ]

    def _turn_number(self, view: TurnView | None) -> int | None:
        """A turn's place in the session as shown and exported: the answered turns on
        screen counted in order (the session log records a turn once it is answered; a
        turn that failed or was cancelled is no turn)."""
        if view is None:
            return None
        n = 0
        for t in self._turns.values():
            if t.result is not None:
                n += 1
            if t is view:
                return n
        return None

    def _turn_by_id(self, turn_id: int | None) -> TurnView | None:
        if turn_id is None:
            return None
        for t in self._turns.values():
            if (t.turn_id if t.turn_id is not None else t.turn_key) == turn_id:
                return t
        return None

    @work(thread=True, exclusive=True, exit_on_error=False, group="ask")
    def _run_turn(
        self,
        key: int,
        question: str,
        plan: QueryPlan | None,
        cancel: threading.Event,
        index_name: str,
        skip: dict[Side, set[str]] | None = None,
    ) -> None:
        try:
            pipeline = self._ensure_pipeline(index_name)
            result = pipeline.run(
                question,
                plan=plan,
                progress=lambda p: self._report(key, p),
                cancel=cancel,
                skip=skip,
            )
        except CancelledError:
            self.post_message(TurnCancelled(key))
        except Exception as exc:  # shown in the turn, never as a traceback
            self.post_message(TurnFailed(key, exc))
        else:
            self.post_message(TurnFinished(key, result))

    def _report(self, key: int, progress: Progress) -> None:
        self.post_message(TurnProgress(key, progress))

    def on_turn_progress(self, message: TurnProgress) -> None:
        turn = self._turns.get(message.turn_key)
        if turn is not None and turn.running:
            turn.update_progress(message.progress)

    def _turn_over(self, key: int) -> TurnView | None:
        if self._active_turn == key:
            self._active_turn = None
            self.query_one(ChatInput).remove_class("-busy")
            self.refresh_bindings()
        return self._turns.get(key)

    async def on_turn_finished(self, message: TurnFinished) -> None:
        turn = self._turn_over(message.turn_key)
        if turn is None:
            return
        mounted = turn.show_result(message.result)
        self._commit(message.result, turn)
        if not self._followups_warm:
            self._followups_warm = True
            self._warm_followups()
        # the answer must be in the DOM before the scroll: a scroll to the turn's top
        # computed while the answer's height is still unknown is clamped short of it
        await mounted
        # "answered in …" once the whole answer is built, so both are drawn together
        answered = turn.show_answered()
        if answered is not None:
            await answered
        # queued on the conversation, behind the scroll_end of the turn's start (a
        # callback queued on the app could run before it and be undone); immediate and
        # unanimated, so no scroll is still pending when the next screen is drawn
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.call_after_refresh(
            conversation.scroll_to_widget, turn, top=True, animate=False, immediate=True
        )

    def on_turn_failed(self, message: TurnFailed) -> None:
        turn = self._turn_over(message.turn_key)
        if turn is not None:
            turn.show_error(message.error)
        if not isinstance(message.error, SphereError):
            self.log.error("turn failed", message.error)

    def on_turn_cancelled(self, message: TurnCancelled) -> None:
        turn = self._turn_over(message.turn_key)
        if turn is not None:
            turn.show_cancelled()

    def _commit(self, result: TurnResult, view: TurnView | None = None) -> None:
        """Record a finished turn (its id goes on ``view``, for the follow-ups that edit
        it); the session is created with its first answer."""
        if self.store is None:
            return
        try:
            if self.session_id is None:
                self.session_id = self.store.create_session(
                    session_title(result.question),
                    index=self.index_name,
                    settings=self.settings.public_dict(),
                    model=result.model or None,
                    embedder=self.settings.embedder.model,
                )
            turn_id = self.store.add_turn(self.session_id, result)
            if view is not None and isinstance(turn_id, int):
                view.turn_id = turn_id
        except Exception as exc:
            self.notify(error_text(exc), title="Could not save this answer", severity="error")
            return
        self._update_subtitle()
        self._refresh_sidebar()

    # ------------------------------------------------------------------ plan

    def on_edit_plan_requested(self, message: EditPlanRequested) -> None:
        self._edit_plan(message.question, message.plan)

    def on_two_sided_requested(self, message: TwoSidedRequested) -> None:
        """A factual answer's "Argue both sides": the same question, read as a debate."""
        turn = self._turns.get(message.turn_key)
        if turn is None or turn.result is None:
            return
        # imported here as the app's other uses of the pipeline are: the app starts before
        # the pipeline's modules load (start-up time, `sphere bench startup`)
        from assistant.pipeline import as_two_sided_plan

        self.ask(turn.question, plan=as_two_sided_plan(turn.result.plan))

    def _edit_plan(self, question: str, plan: QueryPlan) -> None:
        def rerun(edited: QueryPlan | None) -> None:
            if edited is not None:
                self.ask(question, plan=edited)

        self.push_screen(PlanEditorScreen(question, plan), rerun)

    def _last_answered(self) -> TurnView | None:
        """The last turn on screen with an answer."""
        for turn in reversed(list(self._turns.values())):
            if turn.result is not None and turn.is_attached:
                return turn
        return None

    def action_ask_as_new_topic(self) -> None:
        """The last turn was read as a follow-up (or answered from the log) but was meant as
        a question of its own: ask it again as a new topic, which starts a new thread."""
        turn = self._last_answered()
        if turn is None or turn.result is None:
            self.notify("No answer yet: ask a question first.", severity="warning")
        elif turn.result.plan.follows is None:
            self.notify("The last answer already started a new topic.", severity="warning")
        else:
            self.ask(turn.question, new_topic=True)

    def action_edit_plan(self) -> None:
        turn = self._last_answered()
        if turn is None or turn.result is None:
            self.notify("No answer yet: ask a question first.", severity="warning")
        else:
            self._edit_plan(turn.question, turn.result.plan)

    # ------------------------------------------------------------------ sessions

    def _clear_conversation(self) -> None:
        conversation = self.query_one("#conversation", VerticalScroll)
        for turn in list(self._turns.values()):
            if turn.is_attached:
                turn.remove()
        self._turns.clear()
        self.query_one(EvidencePane).close()
        welcome = self.query_one("#welcome", Static)
        welcome.display = True
        conversation.scroll_home(animate=False)

    def action_new_session(self) -> None:
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return
        self._clear_conversation()
        self.session_id = None
        self._update_subtitle()
        self._refresh_sidebar()
        self.query_one(ChatInput).focus()

    def open_session(self, session_id: int) -> None:
        if self.store is None:
            return
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return
        try:
            info = self.store.get_session(session_id)
            stored = self.store.turns(session_id)
        except Exception as exc:
            self.notify(error_text(exc), title="Cannot open session", severity="error")
            return
        self._clear_conversation()
        self.session_id = session_id
        views = []
        plans = {item.id: item.result.plan for item in stored}
        numbers = {item.id: n for n, item in enumerate(stored, 1)}
        for item in stored:
            key = next(self._turn_keys)
            follows = item.result.plan.follows
            view = TurnView(
                key,
                item.result.question,
                result=item.result,
                previous=plans.get(follows) if follows is not None else None,
                follows_number=numbers.get(follows) if follows is not None else None,
            )
            view.turn_id = item.id
            self._turns[key] = view
            views.append(view)
        if views:
            self.query_one("#welcome").display = False
            self.query_one("#conversation", VerticalScroll).mount_all(views)
        self.query_one(ChatInput).set_history([t.result.question for t in stored])
        if info.index and info.index != self.index_name:
            self.notify(
                f"This session used the index “{info.index}”; “{self.index_name}” is open. "
                "Citations show the passages stored with the session.",
                severity="information",
            )
        self._update_subtitle()
        self._refresh_sidebar()
        if self.size.width < 100:  # too narrow to read two columns beside the list
            self._set_sidebar(False)
        self.query_one(ChatInput).focus()

    @work(exclusive=True, group="sidebar")
    async def _refresh_sidebar(self, query: str | None = None) -> None:
        sidebar = self.query_one(SessionsSidebar)
        if not sidebar.has_class("-open"):
            return
        if query is None:
            query = self.query_one("#session-search", Input).value
        rows: list[SessionRow] = []
        if self.store is not None:
            try:
                rows = session_rows(self.store, query.strip())
            except Exception as exc:
                self.notify(error_text(exc), title="Session search failed", severity="error")
        await sidebar.populate(rows, current=self.session_id)

    def _set_sidebar(self, open_: bool) -> None:
        sidebar = self.query_one(SessionsSidebar)
        sidebar.set_class(open_, "-open")
        self.refresh_bindings()
        if open_:
            self._refresh_sidebar()
            self.query_one("#session-list").focus()
        else:
            self.query_one(ChatInput).focus()

    def action_toggle_sidebar(self) -> None:
        self._set_sidebar(not self.query_one(SessionsSidebar).has_class("-open"))

    def on_session_search_changed(self, message: SessionSearchChanged) -> None:
        self._refresh_sidebar(message.query)

    def on_session_chosen(self, message: SessionChosen) -> None:
        if self.store is None:
            return
        sid = message.session_id
        if message.action == "open":
            self.open_session(sid)
            return
        try:
            info = self.store.get_session(sid)
        except Exception as exc:
            self.notify(error_text(exc), severity="error")
            return
        if message.action == "rename":

            def rename(title: str | None) -> None:
                if title and self.store is not None:
                    self.store.rename_session(sid, title)
                    self._update_subtitle()
                    self._refresh_sidebar()

            self.push_screen(TextPrompt("Rename session", info.title), rename)
        elif message.action == "delete":

            def delete(yes: bool | None) -> None:
                if yes and self.store is not None:
                    self.store.delete_session(sid)
                    if sid == self.session_id:
                        self._clear_conversation()
                        self.session_id = None
                        self._update_subtitle()
                    self._refresh_sidebar()
                    self.notify(f"Deleted “{info.title}”.")

            turns = count(info.turns, "answer")
            self.push_screen(
                ConfirmPrompt(f"Delete the session “{info.title}” and its {turns}?"), delete
            )

    # ------------------------------------------------------------------ index, export, misc

    def index_names(self) -> list[str]:
        if self._pipeline is not None:
            try:
                return list(self._pipeline.index_names())
            except Exception:
                pass
        return scan_index_names(self.settings)

    def action_pick_index(self) -> None:
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return

        def chosen(name: str | None) -> None:
            if not name:
                return
            if isinstance(self.screen, ProblemScreen):
                self.screen.dismiss(None)
            elif name == self.index_name and self._pipeline is not None:
                return
            if self._turns:
                self.action_new_session()
            self._load_index(name)

        self.push_screen(
            IndexPickerScreen(self.index_names(), self.index_name, str(self.settings.index_dir)),
            chosen,
        )

    def action_choose_model(self) -> None:
        """The models found on this machine; the one chosen becomes llm.model."""
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return

        def chosen(entry: Any) -> None:
            if entry is not None:
                self.use_model(entry)

        self.push_screen(ModelPickerScreen(self.model_finder, self.settings), chosen)

    def use_model(self, entry: Any) -> None:
        """Write ``entry`` as llm.model into the settings file and reload the pipeline."""
        if self._active_turn is not None:
            self.notify("A question is still running. Esc cancels it.", severity="warning")
            return
        try:
            settings, note = self.model_chooser(self.settings, entry)
        except Exception as exc:
            self.notify(error_text(exc), title="Cannot use this model", severity="error")
            return
        self.settings = settings
        self.notify(note, title="Language model", timeout=8)
        factory = sys.modules.get("assistant.llm.factory")
        if factory is not None:  # the old model is not needed any more
            factory.close_backends()
        with self._pipeline_lock:
            self._pipeline = None
        if isinstance(self.screen, ProblemScreen):
            self.screen.dismiss(self.index_name)  # its callback loads the index again
        else:
            self._load_index(self.index_name)

    def action_export(self) -> None:
        if self.store is None or self.session_id is None:
            self.notify("Nothing to export yet: ask a question first.", severity="warning")
            return
        try:
            info = self.store.get_session(self.session_id)
            markdown = self.exporter(info, self.store.turns(self.session_id))
            path = self.export_dir / export_filename(self.session_id, info.title)
            path.write_text(markdown, encoding="utf-8")
        except Exception as exc:
            self.notify(error_text(exc), title="Export failed", severity="error")
            return
        self.notify(str(path), title="Exported to Markdown", timeout=8)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_dark(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_cancel_turn(self) -> None:
        if self._active_turn is not None:
            self._cancel.set()
            self.notify("Cancelling…", timeout=2)

    def action_close_panel(self) -> None:
        evidence = self.query_one(EvidencePane)
        if evidence.is_open:
            evidence.close()
            self.refresh_bindings()
            # back to the question box: a citation that kept focus took what was typed
            # next, and Enter on it opened the pane again (issue 36)
            self._focus_input()
        elif self.query_one(SessionsSidebar).has_class("-open"):
            self._set_sidebar(False)

    def _focus_input(self) -> ChatInput | None:
        """Focus the question box now (``Widget.focus`` waits for the message queue, and
        keys already queued behind it would still go to the old widget)."""
        try:
            box = self.screen.query_one(ChatInput)
        except NoMatches:  # another screen is on top
            return None
        self.screen.set_focus(box)
        return box

    def on_key(self, event: events.Key) -> None:
        """A printable key that reached the app unused (the focused widget neither typed
        it nor binds it) goes to the question box, which takes focus and keeps the key:
        typing a question after reading a citation or the sessions list just works."""
        if not event.is_printable or not event.character or event.key in self.active_bindings:
            return
        if isinstance(self.focused, (Input, TextArea)):
            return  # another text box (the session search) typed it or chose not to
        if event.key in CORRECTION_KEYS and self.screen.query("EvidencePane.-open"):
            # m, x, a, b correct a side while the pane is open: one that does not apply
            # to what it shows (a on a citation) is no letter of a question either
            return
        box = self._focus_input()
        if box is None:
            return
        event.prevent_default()  # handled here: no app binding runs for it
        box.cursor_position = len(box.value)  # after whatever draft is there
        box.insert_text_at_cursor(event.character)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.screen, ProblemScreen) and action in PROBLEM_HIDDEN:
            return False  # nothing to export or edit until an index opens
        if action == "cancel_turn":
            return self._active_turn is not None
        if action in CORRECTION_ACTIONS:
            try:
                return self.correction_allowed(action)
            except NoMatches:  # another screen is on top
                return False
        if action == "close_panel":
            if self._active_turn is not None:
                return False  # Esc cancels first
            try:
                pane, sidebar = self.query_one(EvidencePane), self.query_one(SessionsSidebar)
            except NoMatches:  # another screen is on top
                return False
            return pane.is_open or sidebar.has_class("-open")
        return True

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New session", "Start a new conversation", self.action_new_session)
        yield SystemCommand(
            "Export session to Markdown",
            "Write this session to a .md file in the current folder",
            self.action_export,
        )
        yield SystemCommand("Open index", "Research in another index", self.action_pick_index)
        yield SystemCommand(
            "Choose language model",
            "The models on this machine (Ollama, LM Studio, GPT4All, Hugging Face, servers)",
            self.action_choose_model,
        )
        yield SystemCommand(
            "Toggle sessions sidebar",
            "List, open, rename, delete, search",
            self.action_toggle_sidebar,
        )
        yield SystemCommand(
            "Edit plan and re-run",
            "Change the query plan of the last answer",
            self.action_edit_plan,
        )
        last = self._last_answered()
        if last is not None and last.result is not None and last.result.plan.follows is not None:
            # only a turn read as a follow-up can be asked again as a new topic
            yield SystemCommand(
                "Ask the last question as a new topic",
                "It was read as a follow-up but has a topic of its own (Ctrl+T)",
                self.action_ask_as_new_topic,
            )
        yield SystemCommand(
            "Move the open document under the other claim",
            "Correct its side (m in the evidence pane); the session log keeps it",
            self.action_move_other_claim,
        )
        yield SystemCommand(
            "Take the open document out of the answer",
            "It argues neither claim (x in the evidence pane)",
            self.action_take_out,
        )
        for side, label, key in (("pro", "Claim A", "a"), ("con", "Claim B", "b")):
            yield SystemCommand(
                f"Place the open document under {label}",
                f"A document the answer does not cite ({key} in the evidence pane)",
                partial(self.action_place, side),
            )
        yield SystemCommand("Help", "Keys and what Sphere does", self.action_help)
        yield SystemCommand(
            "Toggle light/dark theme",
            "Switch between textual-light and -dark",
            self.action_toggle_dark,
        )

    def on_unmount(self) -> None:
        # a thread worker cannot be killed; ask the pipeline to stop
        self._cancel.set()


def session_rows(store: SessionLog, query: str) -> list[SessionRow]:
    """Sidebar rows: every session (newest first) or the sessions matching ``query``."""
    if not query:
        return [
            SessionRow(
                s.id,
                s.title,
                " · ".join(
                    x
                    for x in (
                        format_when(s.updated or s.created),
                        count(s.turns, "answer"),
                        s.index,
                    )
                    if x
                ),
            )
            for s in store.list_sessions()
        ]
    rows: dict[int, SessionRow] = {}
    for hit in store.search(query):
        if hit.session_id in rows:
            continue
        try:
            title = store.get_session(hit.session_id).title
        except Exception:
            title = hit.question
        snippet = " ".join((hit.snippet or hit.question).split())
        rows[hit.session_id] = SessionRow(hit.session_id, title, snippet[:80])
    return list(rows.values())


def make_app(
    settings: Settings,
    *,
    index_name: str | None = None,
    pipeline_factory: PipelineFactory | None = None,
    store: SessionLog | None = None,
    exporter: Exporter | None = None,
    clock: Callable[[], float] | None = None,
    export_dir: Path | None = None,
    use_store: bool = True,
    demo_builder: DemoBuilder | None = None,
    app_class: type[SphereApp] | None = None,
    model_finder: ModelFinder | None = None,
    model_chooser: ModelChooser | None = None,
) -> SphereApp:
    """The one way to build the app (CLI and tests).

    ``pipeline_factory(settings, index_name)`` defaults to
    ``Pipeline.from_settings``; ``store`` to ``SessionStore(settings.session_db)``
    (``use_store=False`` runs without a log); ``clock`` (seconds, monotonic) is
    injectable so snapshot tests show a fixed elapsed time; ``demo_builder``
    (what the missing-index screen's "build the demo index" runs) defaults to
    :func:`assistant.demo.build_demo_index`. ``model_finder(settings)`` (the
    models the picker, the palette and the fix-it screen offer) defaults to
    :func:`assistant.llm.discover.discover`, ``model_chooser(settings, model)``
    (which writes the choice to the settings file and returns the new settings
    and a note) to :func:`assistant.ui.wiring.default_model_chooser`. ``app_class`` (a subclass of
    :class:`SphereApp`) is for ``sphere bench startup``, which times the app.
    """
    problem = ""
    if store is None and use_store:
        store, problem = open_store(settings)
    return (app_class or SphereApp)(
        settings,
        index_name=index_name or settings.default_index,
        pipeline_factory=pipeline_factory or default_pipeline_factory,
        store=store,
        store_problem=problem,
        exporter=exporter or default_exporter,
        clock=clock or time.monotonic,
        export_dir=export_dir or Path.cwd(),
        demo_builder=demo_builder or default_demo_builder,
        model_finder=model_finder,
        model_chooser=model_chooser,
    )
