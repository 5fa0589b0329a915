"""The footer: the keys that work here, and where the keys typed now will go.

Issue 36: after the evidence pane closed, a citation kept focus, so a question typed
next went nowhere and Enter opened the pane again, and nothing on screen said where
focus was. The label at the right names the focused widget (its ``focus_label``), as
long as the footer has room for: "focus: citation [3] (Enter opens)" on a wide screen,
"focus: [3]" on an 80-column one.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Static
from textual.widgets._footer import FooterKey  # in no public module of Textual


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


# Keys the footer leaves out first when it is too narrow for its keys and the focus
# label (they still work, and F1 lists them): the evidence pane's m/x/a/b and Esc stay.
DROP_FIRST = ("pick_index", "toggle_sidebar", "new_session", "export", "help")


def key_cells(key: FooterKey) -> int:
    """Cells a compact footer key takes: "key description" and its margin (the palette
    key: its border)."""
    described = 1 + cell_len(key.description) if key.description else 0
    return cell_len(key.key_display) + described + 1


class FocusFooter(Footer):
    """Textual's footer (re-composed whenever focus moves, since the keys change with it)
    with the focus label before the command palette's key. On a narrow screen the keys of
    :data:`DROP_FIRST` give way until the label's shortest "focus: …" wording fits: with
    the evidence pane open, 80 columns hold its keys (m, x) and the label both."""

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        texts = focus_texts(self.screen.focused)
        label = min((t for t in texts if t.startswith("focus: ")), key=len, default=texts[-1])
        room = self.app.size.width - len(label) - 2  # the label's padding
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        used = sum(key_cells(k) for k in keys)
        for action in DROP_FIRST:
            for key in (k for k in keys if k.action == action and used > room):
                widgets.remove(key)
                used -= key_cells(key)
        yield from widgets
        yield FocusLabel(texts, classes="focus-where")

    def on_resize(self) -> None:
        self.refresh(recompose=True)  # which keys fit depends on the width
