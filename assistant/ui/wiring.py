"""The real backends behind the app, reached lazily (no ``textual`` here).

``make_app`` uses these unless a test passes its own: the pipeline is
``assistant.pipeline.Pipeline.from_settings``, the session log is
``assistant.store.SessionStore`` and the exporter is
``assistant.export.session_to_markdown``.
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
