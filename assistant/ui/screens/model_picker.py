"""Choose the language model from the ones found on this machine.

Opened from the command palette ("Choose language model") and from the
fix-it screen when the model cannot be loaded (``m``). The search
(:func:`assistant.llm.discover.discover`: the usual model folders and the
servers on 127.0.0.1) runs in a worker; the screen dismisses with the chosen
:class:`~assistant.llm.discover.FoundModel`, which the app writes into the
settings file as ``llm.model`` (as ``sphere models use`` does).
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
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

ModelFinder = Callable[[Any], list[Any]]


def describe_model(m: Any) -> str:
    """One line: ``name — source · 7.2B · Q4_K_M · context 8192 · capable``."""
    from assistant.llm.gguf import format_parameters

    facts = [m.source]
    if m.parameters:
        facts.append(format_parameters(m.parameters))
    elif m.size_label:
        facts.append(m.size_label)
    if m.quantization:
        facts.append(m.quantization)
    if m.context_length:
        facts.append(f"context {m.context_length}")
    if m.error:
        facts.append("unreadable")
    else:
        facts.append("capable" if m.capable else "not capable")
    return f"{m.name} — " + " · ".join(facts) + ("  (in use)" if m.current else "")


class ModelsFound(Message):
    def __init__(self, models: list[Any] | None, error: str = "") -> None:
        super().__init__()
        self.models = models
        self.error = error


class ModelPickerScreen(ModalScreen[Any]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, finder: ModelFinder, settings: Any) -> None:
        super().__init__(classes="prompt")
        self.finder = finder
        self.settings = settings
        self.models: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="prompt-box"):
            yield Static(Content.styled("Choose the language model", "bold"))
            yield Static(Content("Looking for models on this machine…"), id="model-status")
            yield OptionList(id="model-list")
            yield Static(
                Content.styled(
                    "Capable (a server, or ≥ 3B parameters and context ≥ 4096): with "
                    "llm.use: auto Sphere loads only a capable model. The choice is written "
                    "to the settings file as llm.model (sphere models use NAME does the same).",
                    "$text-muted",
                ),
                classes="model-hint",
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).display = False
        self._find()

    @work(thread=True, exclusive=True, exit_on_error=False, group="models")
    def _find(self) -> None:
        try:
            models = [m for m in self.finder(self.settings) if not m.error]
        except Exception as exc:  # shown on the screen, never as a traceback
            self.post_message(ModelsFound(None, str(exc)))
        else:
            self.post_message(ModelsFound(models))

    def on_models_found(self, message: ModelsFound) -> None:
        status = self.query_one("#model-status", Static)
        if message.models is None:
            status.update(Content.styled(f"The search failed: {message.error}", "$error"))
            return
        self.models = message.models
        if not self.models:
            status.update(Content("No language models found on this machine."))
            return
        status.update(
            Content(
                f"{len(self.models)} found (Ollama, LM Studio, GPT4All, Hugging Face, "
                "~/models, servers on 127.0.0.1):"
            )
        )
        lst = self.query_one(OptionList)
        lst.add_options(
            [Option(Content(describe_model(m)), id=str(i)) for i, m in enumerate(self.models)]
        )
        lst.display = True
        current = next((i for i, m in enumerate(self.models) if m.current), 0)
        lst.highlighted = current
        lst.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.models[int(event.option.id or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)
