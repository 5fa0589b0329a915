"""The evidence pane: where a citation comes from and whether it holds up.

Shows the document title, source, file/page, the passage with the supporting
quote highlighted, and the verification result (DESIGN §2 "verify"). For a
row of a lookup's table (:meth:`EvidencePane.show_row`): the document, and
each aspect met or not with its sentence and how it was checked. For a
document the answer keeps apart (:meth:`EvidencePane.show_document`): why
(takes no side, side unclear, taken out by you) with the stance model's
probabilities, and its best passage. The head names the keys that correct a
side (``m``, ``x``, ``a``, ``b``: the app's bindings) where they apply.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from assistant.locations import citation_where, document_label, shown_location
from assistant.models import LookupRow, Reference
from assistant.summarize.correct import ApartDocument
from assistant.ui.format import (
    apart_text,
    aspect_check_text,
    quote_span,
    stance_text,
    verification_text,
)
from assistant.wording import count

# the correction keys for what is open, on the line under the head (the app's
# bindings do the work)
KEYS_REFERENCE = "m: move under the other claim · x: take out"
KEYS_DOCUMENT = "a / b: place under Claim A / B · x: take out"
KEYS_REMOVED = "a / b: place under Claim A / B"


def passage_content(passage: str | None, ref: Reference) -> Content:
    """The passage with the quote highlighted; the bare quote when there is no passage."""
    if not passage:
        note = (
            "Passage text not available in the loaded index; the cited quote:\n\n",
            "$text-muted italic",
        )
        return (
            Content.assemble(note, (f"“{ref.quote}”", "bold"))
            if ref.quote
            else (
                Content.styled(
                    "No passage text or quote recorded for this citation.", "$text-muted italic"
                )
            )
        )
    span = quote_span(passage, ref)
    content = Content(passage)
    if span is None:
        if ref.quote:
            content = Content.assemble(
                content,
                ("\n\nQuote (not found verbatim in this passage): ", "$text-muted"),
                (f"“{ref.quote}”", "bold"),
            )
        return content
    return content.stylize("bold reverse", span[0], span[1])


class EvidencePane(VerticalScroll, can_focus=False):
    """Hidden until a citation is selected (``-open`` class)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.reference: Reference | None = None
        self.row: LookupRow | None = None  # the lookup row shown, when it shows one
        self.document: ApartDocument | None = None  # a document kept apart, when shown
        self.side: str | None = None  # the claim the shown reference is cited under
        self.number = 0
        self.turn_key = -1

    def compose(self) -> ComposeResult:
        with Horizontal(classes="evidence-head"):
            yield Static("Evidence", classes="evidence-number")
            yield Static(Content.styled("Esc close", "$text-muted"), classes="evidence-close")
        yield Static("", classes="evidence-keys")
        yield Static("", classes="evidence-title")
        yield Static("", classes="evidence-where")
        yield Static("", classes="evidence-check")
        yield Static("", classes="evidence-passage")

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def show(
        self,
        ref: Reference,
        number: int,
        turn_key: int,
        passage: str | None,
        copies: Sequence[str] = (),
        side: str | None = None,
        probs: list[float] | None = None,
    ) -> None:
        """Open on ``ref``; ``copies`` are the documents with the same text (folded hits);
        ``side`` is the claim it is cited under (for the stance line); ``probs`` the
        stance model's probabilities for its document (shown when the user moved it)."""
        self.reference, self.number, self.turn_key = ref, number, turn_key
        self.row, self.document, self.side = None, None, side
        self._keys(KEYS_REFERENCE)
        self.query_one(".evidence-number", Static).update(
            Content.styled(f"Evidence [{number}]", "bold")
        )
        self.query_one(".evidence-title", Static).update(
            Content.styled(ref.title or ref.doc_id, "bold $accent")
        )
        where = " · ".join(x for x in citation_where(ref.source, ref.path, ref.page) if x)
        if ref.retrieval_score:
            where += f" · retrieval score {ref.retrieval_score:.2f}"
        if copies:
            where += "\nSame passage also in: " + ", ".join(copies)
        self.query_one(".evidence-where", Static).update(Content(where or ref.doc_id))
        check = Content.styled(verification_text(ref), "$success" if ref.verified else "$warning")
        stance = stance_text(ref, side, probs)
        if stance:
            check = Content.assemble(check, "\n", Content.styled(stance, "$accent"))
        self.query_one(".evidence-check", Static).update(check)
        self.query_one(".evidence-passage", Static).update(passage_content(passage, ref))
        self.add_class("-open")
        self.scroll_home(animate=False)

    def show_row(self, row: LookupRow, turn_key: int, passage: str | None = None) -> None:
        """Open on a lookup's row: each aspect with its sentence; ``passage`` (the best
        passage of the document) is shown when the row has no aspects to show."""
        self.reference, self.row, self.number, self.turn_key = None, row, row.rank, turn_key
        self.document, self.side = None, None
        self._keys("")
        self.query_one(".evidence-number", Static).update(
            Content.styled(f"Rank {row.rank}", "bold")
        )
        self.query_one(".evidence-title", Static).update(
            Content.styled(row.title or row.doc_id, "bold $accent")
        )
        where = " · ".join(x for x in citation_where(row.source, row.path) if x)
        where += (" · " if where else "") + f"score {row.score:.3f} · {row.doc_id}"
        if row.copies:
            where += "\nSame passage also in: " + ", ".join(row.copies)
        self.query_one(".evidence-where", Static).update(Content(where))
        check = Content("")
        if row.aspects:
            check = Content.styled(
                f"{row.met} of {count(len(row.aspects), 'aspect')} met",
                "$success" if row.met == len(row.aspects) else "$warning",
            )
        self.query_one(".evidence-check", Static).update(check)
        parts: list[Content] = []
        for m in row.aspects:
            mark = ("✓ " if m.met else "✗ ") + m.aspect
            parts.append(Content.styled(mark, "bold $success" if m.met else "bold $warning"))
            if m.reference is not None and m.reference.quote:
                parts.append(Content.styled(f"“{m.reference.quote}”", "" if m.met else "italic"))
            parts.append(Content.styled(aspect_check_text(m), "$text-muted"))
            parts.append(Content(""))
        if not row.aspects:
            parts.append(Content(passage or "Passage text not available."))
        body = Content("\n").join(parts) if parts else Content("")
        self.query_one(".evidence-passage", Static).update(body)
        self.add_class("-open")
        self.scroll_home(animate=False)

    def show_document(self, doc: ApartDocument, turn_key: int, passage: str | None) -> None:
        """Open on a document the answer keeps apart: why, the stance model's
        probabilities, and ``passage`` (its best retrieved passage)."""
        self.reference, self.row, self.document, self.side = None, None, doc, None
        self.number, self.turn_key = 0, turn_key
        self._keys(KEYS_REMOVED if doc.group == "removed" else KEYS_DOCUMENT)
        self.query_one(".evidence-number", Static).update(Content.styled("Not cited", "bold"))
        self.query_one(".evidence-title", Static).update(
            Content.styled(doc.title or doc.doc_id, "bold $accent")
        )
        # a file's id is its path, which its source shows; a demo record's source is a label
        shown = (shown_location(doc.source), document_label(doc.doc_id, doc.source))
        where = " · ".join(x for x in shown if x)
        self.query_one(".evidence-where", Static).update(Content(where))
        self.query_one(".evidence-check", Static).update(
            Content.styled(apart_text(doc), "$warning" if doc.group == "unclear" else "$accent")
        )
        self.query_one(".evidence-passage", Static).update(
            Content(passage) if passage else Content.styled("Passage text not available.", "italic")
        )
        self.add_class("-open")
        self.scroll_home(animate=False)

    @property
    def doc_id(self) -> str | None:
        """The document shown (a citation's or a kept-apart one); None for a lookup row."""
        if self.reference is not None:
            return self.reference.doc_id
        return self.document.doc_id if self.document is not None else None

    def _keys(self, text: str) -> None:
        keys = self.query_one(".evidence-keys", Static)
        keys.update(Content.styled(text, "$text-muted"))
        keys.display = bool(text)

    def close(self) -> None:
        self.remove_class("-open")
