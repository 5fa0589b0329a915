"""The real backends behind the app, reached lazily (no ``textual`` here).

``make_app`` uses these unless a test passes its own: the pipeline is
``assistant.pipeline.Pipeline.from_settings``, the session log is
``assistant.store.SessionStore``, the exporter is
``assistant.export.session_to_markdown``, the model finder is
``assistant.llm.discover.discover`` and the model chooser writes ``llm.model``
into the settings file (as ``sphere models use`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assistant.config import Settings
from assistant.errors import SphereError, StoreError
from assistant.ui.protocols import ResearchPipeline, SessionLog


def default_pipeline_factory(settings: Settings, index_name: str) -> ResearchPipeline:
    """Load the index and models (slow: run it in a worker thread)."""
    from assistant.pipeline import Pipeline

    return Pipeline.from_settings(settings, index_name)


def open_store(settings: Settings) -> tuple[SessionLog | None, str]:
    """The session log, or ``None`` and a message saying why answers won't be saved."""
    try:
        from assistant.store import SessionStore

        return SessionStore(settings.session_db), ""
    except SphereError as exc:
        return None, str(exc)
    except Exception as exc:  # a broken database must not stop the app from starting
        return None, str(StoreError(f"cannot open {settings.session_db}: {exc}"))


def default_exporter(info: Any, turns: Sequence[Any]) -> str:
    from assistant.export import session_to_markdown

    return session_to_markdown(info, turns)  # type: ignore[arg-type]


def scan_index_names(settings: Settings) -> list[str]:
    """Index folders in ``index_dir``, for the picker when no pipeline is loaded."""
    root = settings.index_dir
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def default_demo_builder(
    settings: Settings, progress: Callable[[str, dict[str, Any]], None]
) -> Any:
    """Build the demo index from the packaged corpus (slow: run it in a worker thread)."""
    from assistant.demo import build_demo_index

    return build_demo_index(settings, progress=progress)


def default_model_finder(settings: Settings) -> list[Any]:
    """The language models on this machine (slow-ish: files and loopback servers)."""
    from assistant.llm.discover import discover

    return discover(settings).models


def default_model_chooser(settings: Settings, entry: Any) -> tuple[Settings, str]:
    """Write ``entry`` as ``llm.model`` into the settings file; the new settings and a note.

    Raises :class:`~assistant.errors.SphereError` when the file cannot be written.
    """
    from assistant.llm.discover import apply_choice, choice_for

    choice = choice_for(entry)
    path, old, notes = apply_choice(choice, settings)
    llm = settings.llm.model_copy(
        update={"model": choice.value, "server_model": choice.server_model}
    )
    new = settings.model_copy(update={"llm": llm})
    if new.source_file is None:  # the per-user file was just created: it is the file now
        new.source_file = path
        new.source_how = "$XDG_CONFIG_HOME/sphere/config.yaml"
    text = f"{choice.label}: llm.model written to {path} (was {old})"
    return new, "\n".join([text, *notes])
