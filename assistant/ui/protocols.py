"""What the app needs from the pipeline and the session log.

The app is written against these small protocols so tests can drive it with a
scripted fake; :func:`assistant.ui.app.make_app` wires the real
``assistant.pipeline.Pipeline`` and ``assistant.store.SessionStore``.
No ``textual`` here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from assistant.config import Settings
from assistant.models import Correction, Document, Progress, QueryPlan, Side, TurnResult


class ResearchPipeline(Protocol):
    """One pass of DESIGN §2, as the UI calls it (from a worker thread)."""

    def run(
        self,
        question: str,
        *,
        plan: QueryPlan | None = None,
        progress: Callable[[Progress], None] | None = None,
        cancel: threading.Event | None = None,
        skip: dict[Side, set[str]] | None = None,
    ) -> TurnResult:
        """Answer ``question``; raise ``CancelledError`` soon after ``cancel`` is set.
        ``skip``: per side, documents to leave out (a follow-up's "more", "drop [n]")."""
        ...

    def passage_text(self, passage_id: int) -> str:
        """Full text of a passage of the loaded index (for the evidence pane)."""
        ...

    def document(self, doc_id: str) -> Document | None:
        """A document of the loaded index (title, source, path)."""
        ...

    def index_names(self) -> list[str]:
        """Names of the indexes that can be opened."""
        ...


# settings, index name -> pipeline; raises IndexNotFoundError / ModelError
PipelineFactory = Callable[[Settings, str], ResearchPipeline]


class SessionInfoLike(Protocol):
    id: int
    title: str
    created: Any
    updated: Any
    turns: int
    index: str


class StoredTurnLike(Protocol):
    id: int
    session_id: int
    created: Any
    result: TurnResult


class SearchHitLike(Protocol):
    session_id: int
    turn_id: int
    question: str
    snippet: str


class SessionLog(Protocol):
    """The subset of ``assistant.store.SessionStore`` the app uses (main thread only)."""

    def create_session(
        self,
        title: str = "",
        *,
        index: str = "",
        settings: dict[str, Any] | None = None,
        model: Any = None,
        embedder: str = "",
    ) -> int: ...

    def list_sessions(self) -> Sequence[SessionInfoLike]: ...

    def get_session(self, session_id: int) -> SessionInfoLike: ...

    def rename_session(self, session_id: int, title: str) -> None: ...

    def delete_session(self, session_id: int) -> None: ...

    def add_turn(self, session_id: int, result: TurnResult) -> int: ...

    def turns(self, session_id: int) -> Sequence[StoredTurnLike]: ...

    def add_correction(self, turn_id: int, correction: Correction) -> TurnResult:
        """Record the user's correction of a side in a turn; the corrected turn."""
        ...

    def search(self, query: str) -> Sequence[SearchHitLike]: ...


# (session info, stored turns) -> Markdown
Exporter = Callable[[Any, Sequence[Any]], str]

# (settings, progress(event, data)) -> build report; builds the demo index in index_dir
DemoBuilder = Callable[[Settings, Callable[[str, dict[str, Any]], None]], Any]
