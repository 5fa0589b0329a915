"""The footer: the keys that work here, and where the keys typed now will go.

Issue 36: after the evidence pane closed, a citation kept focus, so a question typed
next went nowhere and Enter opened the pane again, and nothing on screen said where
focus was. The label at the right names the focused widget (its ``focus_label``), as
long as the footer has room for: "focus: citation [3] (Enter opens)" on a wide screen,
"focus: [3]" on an 80-column one.
"""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Static


def focus_label(widget: Widget | None) -> str:
    """What the focused widget is, in a user's words: its ``focus_label`` when it has
    one, a button by its label, anything else by its id."""
    if widget is None:
        return "nothing"
    label = getattr(widget, "focus_label", None)
    if isinstance(label, str) and label:
        return label
    if isinstance(widget, Button):
        return f"“{widget.label}” button"
    if widget.id:
        return widget.id.replace("-", " ").replace("_", " ")
    return "search box" if isinstance(widget, Input) else type(widget).__name__


def focus_texts(widget: Widget | None) -> list[str]:
    """The label's wordings, longest first: with "focus:" and any "(…)" note, then
    without them, then the widget's ``focus_short`` ("[3]" for a citation)."""
    full = focus_label(widget)
    brief = re.sub(r"\s*\(.*\)$", "", full)
    short = getattr(widget, "focus_short", None)
    texts = [f"focus: {full}", f"focus: {brief}"]
    if isinstance(short, str) and short:
        texts.append(f"focus: {short}")
    texts += [brief, short if isinstance(short, str) and short else brief]
    return list(dict.fromkeys(texts))


class FocusLabel(Static):
    """The longest of its wordings that fits the room the footer's keys leave."""

    def __init__(self, texts: list[str], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.texts = texts

    def render(self) -> Content:
        room = self.content_region.width
        fits = [t for t in self.texts if len(t) <= room]
        return Content(fits[0] if fits else self.texts[-1])


class FocusFooter(Footer):
    """Textual's footer (re-composed whenever focus moves, since the keys change with it)
    with the focus label before the command palette's key."""

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield FocusLabel(focus_texts(self.screen.focused), classes="focus-where")
