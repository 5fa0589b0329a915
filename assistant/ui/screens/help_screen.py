"""F1 / ? : what Sphere does and every key."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# Sphere — balanced research over your own documents

Ask a question ("Should school uniforms be mandatory?",
"find evidence against a four-day week from business sources"). Sphere works
out the **perspectives**, **aspects** and **constraints** in it, searches the
open index for both sides, and writes **two opposing claims**, each with the
perspectives that support it and the documents they cite. A **lookup** (items
with wanted properties: "a hotel with quiet rooms and breakfast included")
gets a table instead: one row per document, ✓ or ✗ for each aspect.

**Follow-ups** edit the last answer instead of starting over: "what about the
cost?", "only documents in Spanish", "just the case against", "what do
teachers say?", "more from the other side", "drop [5]". The plan shows what
changed ("+ constraint language es"). "Why is [8] there?" and "compare [2]
and [8]" are answered from the answers on screen, without a new search. A
question with a topic of its own starts a new thread.

| Key | Does |
| --- | --- |
| Enter | ask the question in the box |
| typing anywhere | goes to the question box (footer says where); with evidence open, not m x a b |
| ↑ / ↓ | previous / next question |
| Esc | cancel the running question · close the evidence pane (back to the question box) |
| Tab / Shift+Tab | move between citations `[n]` and buttons |
| Enter on `[n]`, or click | show the evidence: source, passage, quote, verification |
| Enter on a table row | show the row's sentence for each aspect and how it was checked |
| m (evidence open) | move the document under the other claim |
| x (evidence open) | take the document out of the answer |
| a / b (evidence open) | place a listed document under Claim A / Claim B |
| Ctrl+R | edit the query plan of the last answer and re-run it |
| Ctrl+T | the last question was read as a follow-up: ask it as a new topic |
| Ctrl+N | new session |
| Ctrl+B | sessions: open (Enter), rename (r), delete (d), search |
| F2 | choose another index |
| Ctrl+E | export this session to Markdown (in the current folder) |
| Ctrl+P | command palette (also: theme, light/dark) |
| F1 or ? | this help |
| Ctrl+Q | quit |

A citation in yellow was **not verified**: its quote was not found in the
passage and the passage was not similar enough to the perspective. Under the
answer, documents the stance model did not cite are listed apart: **takes no
side** (it says neither claim) and **side unclear** (it leans without the
confidence it needs), each with its probabilities. When the model got a side
wrong, correct it from the evidence pane (m, x, a, b): the answer and its
balance update, and the session log keeps the correction. Every answer is
saved to the session log as soon as it finishes.

Build an index: `sphere index build NAME PATH`. Settings: `sphere config show`.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "dismiss_help", "Close help"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Markdown(HELP)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
