"""Typed messages between the pipeline worker threads, the widgets and the app.

Workers never touch widgets: they ``post_message`` one of these (thread-safe)
and the app updates the screen on its own thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from assistant.models import LookupRow, Progress, QueryPlan, Reference, TurnResult
from assistant.summarize.correct import ApartDocument

if TYPE_CHECKING:
    from assistant.ui.protocols import ResearchPipeline


class PipelineReady(Message):
    def __init__(self, index_name: str, pipeline: ResearchPipeline) -> None:
        super().__init__()
        self.index_name = index_name
        self.pipeline = pipeline


class PipelineFailed(Message):
    def __init__(self, index_name: str, error: BaseException) -> None:
        super().__init__()
        self.index_name = index_name
        self.error = error


class TurnProgress(Message):
    def __init__(self, turn_key: int, progress: Progress) -> None:
        super().__init__()
        self.turn_key = turn_key
        self.progress = progress


class TurnFinished(Message):
    def __init__(self, turn_key: int, result: TurnResult) -> None:
        super().__init__()
        self.turn_key = turn_key
        self.result = result


class TurnFailed(Message):
    def __init__(self, turn_key: int, error: BaseException) -> None:
        super().__init__()
        self.turn_key = turn_key
        self.error = error


class TurnCancelled(Message):
    def __init__(self, turn_key: int) -> None:
        super().__init__()
        self.turn_key = turn_key


class PassageLoaded(Message):
    """Passage text fetched from the index for the evidence pane."""

    def __init__(self, reference: Reference, number: int, turn_key: int, text: str | None) -> None:
        super().__init__()
        self.reference = reference
        self.number = number
        self.turn_key = turn_key
        self.text = text


class CitationSelected(Message):
    """A citation marker was clicked or activated (Enter)."""

    def __init__(self, reference: Reference, number: int, turn_key: int) -> None:
        super().__init__()
        self.reference = reference
        self.number = number
        self.turn_key = turn_key


class CitationFocused(Message):
    """A citation marker got focus (an open evidence pane follows it)."""

    def __init__(self, reference: Reference, number: int, turn_key: int) -> None:
        super().__init__()
        self.reference = reference
        self.number = number
        self.turn_key = turn_key


class LookupRowSelected(Message):
    """A row of a lookup's table was chosen (Enter or click): show its evidence."""

    def __init__(self, row: LookupRow, turn_key: int) -> None:
        super().__init__()
        self.row = row
        self.turn_key = turn_key


class LookupRowHighlighted(Message):
    """The cursor moved to a row of a lookup's table (an open evidence pane follows it)."""

    def __init__(self, row: LookupRow, turn_key: int) -> None:
        super().__init__()
        self.row = row
        self.turn_key = turn_key


class TwoSidedRequested(Message):
    """A factual answer's "Argue both sides": ask the turn's question again as a debate."""

    def __init__(self, turn_key: int) -> None:
        super().__init__()
        self.turn_key = turn_key


class DocumentSelected(Message):
    """A document the answer keeps apart (takes no side, side unclear, taken out) was
    activated (Enter or click): show it in the evidence pane."""

    def __init__(self, document: ApartDocument, turn_key: int) -> None:
        super().__init__()
        self.document = document
        self.turn_key = turn_key


class DocumentFocused(Message):
    """Such a document got focus (an open evidence pane follows it)."""

    def __init__(self, document: ApartDocument, turn_key: int) -> None:
        super().__init__()
        self.document = document
        self.turn_key = turn_key


class EditPlanRequested(Message):
    def __init__(self, turn_key: int, question: str, plan: QueryPlan) -> None:
        super().__init__()
        self.turn_key = turn_key
        self.question = question
        self.plan = plan


class SessionChosen(Message):
    """The sidebar asks to open / rename / delete a session."""

    def __init__(self, session_id: int, action: str) -> None:
        super().__init__()
        self.session_id = session_id
        self.action = action  # open | rename | delete


class SessionSearchChanged(Message):
    def __init__(self, query: str) -> None:
        super().__init__()
        self.query = query
