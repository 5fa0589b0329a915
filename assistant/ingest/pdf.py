"""PDF text: pages as pypdf reads them, without running headers, footers and page numbers.

pypdf gives the text of a page line by line. A line among the first or last
two of a page is a running header or footer when, with digits masked, it
recurs on at least three pages and on at least 30 % of them (so a book's
alternating left and right headers count); a line there that is only a page
number ("12", "- 12 -", "Page 3 of 9", "xiv") is dropped on any page, and so is
a table-of-contents line anywhere (a dot leader and a page number: "Concept Index
. . . . 32"). The rest is joined back into paragraphs (:mod:`assistant.ingest.reflow`, words
hyphenated across lines joined).
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from collections.abc import Callable

from assistant.ingest.reflow import reflow

EDGE_LINES = 2
_PAGE_NUMBER = re.compile(
    r"(?:page\s+)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlc]{1,7})\s*[-–—)\]]?(?:\s*(?:of|/)\s*\d{1,4})?",
    re.IGNORECASE,
)


# a table-of-contents entry: a dot leader, then a page number ("Concept Index . . . . 32")
_LEADER = re.compile(r"(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,7})\s*$", re.IGNORECASE)


class PdfSkip(Exception):
    """The PDF cannot be indexed; the message says why."""


def _mask(line: str) -> str:
    return " ".join(re.sub(r"\d+", "#", line.lower()).split())


def _edges(lines: list[str]) -> list[int]:
    """Indexes of the first and last EDGE_LINES non-blank lines."""
    filled = [i for i, x in enumerate(lines) if x.strip()]
    return sorted(set(filled[:EDGE_LINES] + filled[-EDGE_LINES:]))


def strip_running_lines(pages: list[str]) -> list[str]:
    """Pages without running headers, footers and page numbers."""
    split = [p.split("\n") for p in pages]
    seen: Counter[str] = Counter()
    for lines in split:
        seen.update({_mask(lines[i]) for i in _edges(lines)})
    need = max(3, math.ceil(0.3 * len(pages)))
    out = []
    for lines in split:
        drop = {
            i
            for i in _edges(lines)
            if _PAGE_NUMBER.fullmatch(lines[i].strip()) or seen[_mask(lines[i])] >= need
        }
        out.append("\n".join(x for i, x in enumerate(lines) if i not in drop))
    return out


def read_pdf(data: bytes, clean: Callable[[str], str]) -> tuple[str, list[tuple[int, int]], str]:
    """(text, page offsets, title) of a PDF; raises :class:`PdfSkip`."""
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                ok = bool(reader.decrypt(""))
            except Exception:
                ok = False
            if not ok:
                raise PdfSkip("password-protected PDF (remove the password to index it)")
        raw = [clean(page.extract_text() or "") for page in reader.pages]
        try:
            meta = reader.metadata
            title = str(meta.title) if meta and meta.title else ""
        except Exception:
            title = ""
    except PdfSkip:
        raise
    except Exception as exc:  # pypdf raises many things on damaged files
        raise PdfSkip(f"unreadable PDF ({type(exc).__name__}: {str(exc)[:80]})") from None
    parts: list[str] = []
    pages: list[tuple[int, int]] = []
    pos = 0
    for text in strip_running_lines(raw):
        text = "\n".join(x for x in text.split("\n") if not _LEADER.search(x))
        t = reflow(text, join_hyphens=True).strip()
        if parts:
            pos += 2  # the "\n\n" joining pages
        pages.append((pos, pos + len(t)))
        parts.append(t)
        pos += len(t)
    return "\n\n".join(parts), pages, title
