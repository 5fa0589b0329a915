"""Hard-wrapped lines joined back into paragraphs.

A line break ends a sentence (:mod:`assistant.ingest.sentences`), so text
wrapped at a fixed width (PDF lines, READMEs wrapped at 72 columns) must be
joined back first, or every quote would stop at a wrap. A line break is a wrap
when the line before it is long (at least 60 % of the text's wrap width, the
90th percentile of line lengths) and the next line does not open a block (a
list item, a Markdown heading, quote or table row, indented code); inside
fenced code nothing is joined. A word hyphenated across a wrap
("informa-" / "tion") is joined without its hyphen when asked.
"""

from __future__ import annotations

import re

# a numbered section heading opens a block too: "1.2. What is this spec?", "2.3.1 Scope"
_BLOCK_START = re.compile(
    r"\s{4}|\t|\s*(?:[-*+•▪◦‣]\s|\d{1,3}[.)]\s|\d{1,3}(?:\.\d{1,3})+\.\s|"
    r"\d{1,3}(?:\.\d{1,3}){2,}\s|[#>|]|```|~~~)"
)
# a line that is not continued on the next: indented code, a heading, a table row
_BLOCK_LINE = re.compile(r"\s{4}|\t|\s*[#|]")
_HYPHEN_WRAP = re.compile(r"(?<=[a-z])-\n(?=[a-z])")
_FENCE = re.compile(r"\s*(?:```|~~~)")
MIN_WIDTH = 30  # text whose lines are all shorter (a poem, a list) is not wrapped text


def wrap_width(lines: list[str]) -> int:
    lengths = sorted(len(x.rstrip()) for x in lines if x.strip())
    if not lengths:
        return 0
    return lengths[min(len(lengths) - 1, int(len(lengths) * 0.9))]


def reflow(text: str, *, join_hyphens: bool = False) -> str:
    """``text`` with wrapped line breaks replaced by spaces (hyphenated words joined)."""
    width = wrap_width(text.split("\n"))  # measured before hyphenated words are joined
    if join_hyphens:
        text = _HYPHEN_WRAP.sub("", text)
    lines = text.split("\n")
    if width < MIN_WIDTH or len(lines) < 2:
        return text
    long_line = 0.6 * width
    out: list[str] = []
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        out.append(line)
        if i == len(lines) - 1:
            break
        nxt = lines[i + 1]
        wrapped = (
            not fenced
            and line.strip()
            and nxt.strip()
            and len(line.rstrip()) >= long_line
            and not _BLOCK_START.match(nxt)
            and not _BLOCK_LINE.match(line)
        )
        out.append(" " if wrapped else "\n")
    return "".join(out)
