"""The app offers the language models found on this machine: on the fix-it screen
when the model cannot be loaded (m), and in the command palette."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from assistant.config import load_settings
from assistant.errors import ModelError
from assistant.llm.discover import FoundModel
from assistant.ui.app import make_app
from assistant.ui.screens.model_picker import ModelPickerScreen
from assistant.ui.screens.problem_screen import ProblemScreen
from tests.test_ui_app import finish, run, text_of, wait_until
from tests.ui_fakes import FixedClock, MemoryStore, ScriptedPipeline

MODELS = [
    FoundModel(
        name="qwen2.5:7b",
        source="ollama",
        kind="gguf",
        path="/m/qwen.gguf",
        parameters=7_615_616_512,
        quantization="Q4_K_M",
        context_length=32768,
        capable=True,
    ),
    FoundModel(
        name="bundled",
        source="bundled",
        kind="gguf",
        path="/b/smol.gguf",
        parameters=134_515_008,
        quantization="Q4_1",
        context_length=8192,
    ),
]


def _app(tmp_path: Path, factory: Any, **kwargs: Any) -> Any:
    cfg = tmp_path / "config.yaml"
    cfg.write_text(
        f"index_dir: {tmp_path / 'indexes'}\nllm:\n  model: /gone/model.gguf  # mine\n",
        encoding="utf-8",
    )
    settings = load_settings(cfg, environ={})
    return make_app(
        settings,
        pipeline_factory=factory,
        store=MemoryStore(),
        clock=FixedClock(),
        export_dir=tmp_path,
        model_finder=lambda s: list(MODELS),
        **kwargs,
    )


def test_fix_it_screen_offers_the_models_found(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    asked: list[str] = []

    def factory(settings: Any, name: str) -> Any:
        asked.append(settings.llm.model)
        if settings.llm.model == "/gone/model.gguf":
            raise ModelError("GGUF model file not found: /gone/model.gguf")
        return pipe

    app = _app(tmp_path, factory)

    async def flow(pilot: Pilot[None]) -> None:
        await finish(pilot)
        screen = app.screen
        assert isinstance(screen, ProblemScreen)
        await wait_until(pilot, lambda: "qwen2.5:7b" in text_of(screen))
        shown = text_of(screen)
        assert "Press m to choose a language model" in shown
        assert "Found on this machine: qwen2.5:7b (ollama, capable), bundled (bundled)" in shown
        assert "Press d" not in shown  # the demo index is no fix for a model
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPickerScreen))
        picker = app.screen
        await wait_until(pilot, lambda: bool(picker.models))
        options = picker.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts == [
            "qwen2.5:7b — ollama · 7.6B · Q4_K_M · context 32768 · capable",
            "bundled — bundled · 135M · Q4_1 · context 8192 · not capable",
        ]
        await pilot.press("enter")
        await finish(pilot)
        await wait_until(pilot, lambda: not isinstance(app.screen, ProblemScreen))
        await finish(pilot)
        assert app.settings.llm.model == "/m/qwen.gguf"
        assert asked == ["/gone/model.gguf", "/m/qwen.gguf"]
        assert app._pipeline is pipe

    run(app, flow)
    # written into the settings file, its comment kept
    text = (tmp_path / "config.yaml").read_text()
    assert "  model: /m/qwen.gguf      # mine\n" in text  # the comment where it was
    assert load_settings(tmp_path / "config.yaml", environ={}).llm.model == "/m/qwen.gguf"


def test_command_palette_offers_the_models_found(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    loads: list[str] = []
    chosen: list[str] = []

    def factory(settings: Any, name: str) -> Any:
        loads.append(settings.llm.model)
        return pipe

    def chooser(settings: Any, entry: Any) -> tuple[Any, str]:
        chosen.append(entry.name)
        llm = settings.llm.model_copy(update={"model": entry.path})
        return settings.model_copy(update={"llm": llm}), f"{entry.name}: written"

    app = _app(tmp_path, factory, model_chooser=chooser)

    async def flow(pilot: Pilot[None]) -> None:
        await finish(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Choose language model" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"use language model qwen")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await finish(pilot)
        await wait_until(pilot, lambda: len(loads) == 2)
        await finish(pilot)

    run(app, flow)
    assert chosen == ["qwen2.5:7b"]
    assert loads == ["/gone/model.gguf", "/m/qwen.gguf"]  # the pipeline was loaded again
