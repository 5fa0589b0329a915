"""What the stance model reads of a passage: the passage whole, or its paragraphs.

The chunker (:mod:`assistant.ingest.chunk`) packs sentences into passages across
block boundaries, so one passage of a debate page often holds the end of a
point and the counter that rebuts it: two sides, where a judgment of the whole
passage gives one. The retriever and the summarizer judge the same parts (so the
model's cache serves both) and the summarizer quotes a side from the parts that
take it.
"""

from __future__ import annotations

import re
from typing import Literal

StanceUnit = Literal["paragraph", "passage"]

# a block (a line of a document's text: a paragraph, a heading, a list item) of at least
# this many words is a paragraph, judged on its own
PARAGRAPH_WORDS = 40
_SENTENCE_STOP = re.compile(r"[.!?…]")


def paragraph_units(text: str, *, min_words: int = PARAGRAPH_WORDS) -> list[tuple[int, int]]:
    """(start, end) of the parts of a passage whose side is judged apart: its paragraphs.

    A passage is packed from sentences across block boundaries
    (:mod:`assistant.ingest.chunk`), so on a debate page one passage often holds
    the end of a point and the counter that rebuts it: two sides, where the
    stance model would give it one. Each block (line) of at least ``min_words``
    words is a unit of its own; a run of shorter blocks (list items, question and
    answer lines, a sentence carried over from the passage before) is one unit;
    a short block without a full stop, question or exclamation mark (a heading,
    "Reasons, in brief:") belongs to the block after it. A passage of one block
    is one unit, its whole text.
    """
    units: list[list[int]] = []  # [start, end, is_short]
    heading: int | None = None
    for m in re.finditer(r"[^\n]+", text):
        line = m.group()
        if not line.strip():
            continue
        s, e = m.start() + (len(line) - len(line.lstrip())), m.start() + len(line.rstrip())
        words = len(line.split())
        start = s if heading is None else heading
        if words < min_words and not _SENTENCE_STOP.search(line):
            heading = start
            continue
        heading = None
        short = int(words < min_words)
        if short and units and units[-1][2]:
            units[-1][1] = e
        else:
            units.append([start, e, short])
    if heading is not None:
        if units:
            units[-1][1] = len(text.rstrip())
        else:
            units.append([heading, len(text.rstrip()), 1])
    return [(u[0], u[1]) for u in units] or [(0, len(text))]


def judged_parts(text: str, unit: StanceUnit = "paragraph") -> list[tuple[int, int]]:
    """(start, end) of the parts of ``text`` judged apart: its paragraphs when it has
    more than one and ``unit`` is "paragraph", else the whole text."""
    if unit == "paragraph":
        spans = paragraph_units(text)
        if len(spans) > 1:
            return spans
    return [(0, len(text))]
