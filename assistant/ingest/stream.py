"""A large plain-text file read in parts, so memory stays bounded and work is committed as it goes.

A text file over :data:`PART_CHARS` is not read into one string: it is decoded
block by block and cut into parts of about ``PART_CHARS`` characters, each cut
at a paragraph break, else a line break, else a sentence start, else a space
(a hard cut only in a run with no space at all). Each part is one document
(``PATH#partN``, its path the file's), chunked and committed on its own, so
an interrupted build keeps every finished part and a rerun starts at the
first part not committed. The cuts depend only on the file's content, so a
rerun finds the same parts.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from assistant.ingest.loaders import (
    SNIFF_BYTES,
    _looks_binary,
    _title_from_text,
    clean_text,
    count_words,
    inner_suffix,
    open_bytes,
)
from assistant.ingest.reflow import reflow
from assistant.ingest.sentences import sentence_spans
from assistant.models import Document

PART_CHARS = 512 * 1024
READ_BYTES = 256 * 1024
_CUT_WINDOW = 16 * 1024  # where a cut is looked for: the last characters before PART_CHARS


class StreamSkip(Exception):
    """The file cannot be read as text; the message says why."""


@dataclass
class Part:
    """One part of a streamed file, and how far into the file (bytes) reading got."""

    document: Document
    number: int
    bytes_read: int
    last: bool


def _decoder(head: bytes) -> tuple[codecs.IncrementalDecoder, int]:
    """An incremental decoder for the file's encoding and how many BOM bytes to skip."""
    if head.startswith(b"\xef\xbb\xbf"):
        return codecs.getincrementaldecoder("utf-8")(errors="sphere-cp1252"), 3
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return codecs.getincrementaldecoder("utf-16")(errors="replace"), 0
    return codecs.getincrementaldecoder("utf-8")(errors="sphere-cp1252"), 0


def cut_point(text: str, limit: int) -> int:
    """Where to end a part of ``text`` (longer than ``limit``): a block, line or sentence end."""
    lo = max(1, limit - _CUT_WINDOW)
    for sep in ("\n\n", "\n"):
        at = text.rfind(sep, lo, limit)
        if at > 0:
            return at + len(sep)
    starts = [s for s, _e in sentence_spans(text, lo, limit)]
    if len(starts) > 1:
        return starts[-1]
    at = text.rfind(" ", lo, limit)
    return at + 1 if at > 0 else limit


def iter_parts(path: Path, *, fmt: str = "txt", part_chars: int = PART_CHARS) -> Iterator[Part]:
    """The parts of a text file, in order; raises :class:`StreamSkip` for binary data."""
    name = str(path)
    with open_bytes(path) as fh:
        head = fh.read(SNIFF_BYTES)
        if _looks_binary(head):
            raise StreamSkip("binary file, not text")
        decoder, skip = _decoder(head)
        buf = decoder.decode(head[skip:])
        number = 0
        read = len(head)
        title = ""
        eof = False
        while True:
            while not eof and len(buf) <= part_chars:
                block = fh.read(READ_BYTES)
                read += len(block)
                eof = not block
                buf += decoder.decode(block, final=eof)
            last = eof and len(buf) <= part_chars
            cut = len(buf) if last else cut_point(buf, part_chars)
            text, buf = buf[:cut], buf[cut:]
            text = reflow(clean_text(text))
            if not text.strip():
                if last:
                    return
                continue
            number += 1
            title = title or _title_from_text(text, Path(path.stem).stem or path.name)
            whole = last and number == 1
            yield Part(
                Document(
                    doc_id=name if whole else f"{name}#part{number}",
                    title=title if whole else f"{title} (part {number})",
                    text=text,
                    source=name,
                    path=name,
                    format=fmt,
                    n_words=count_words(text),
                    meta={} if whole else {"part": number},
                ),
                number,
                read,
                last,
            )
            if last:
                return


def text_size(path: Path, size: int) -> int:
    """Bytes of text in ``path``: its size, or for a ``.gz`` the size gzip recorded
    (its last four bytes, the length modulo 2**32; never less than the packed size)."""
    if path.suffix.lower() != ".gz":
        return size
    try:
        with open(path, "rb") as fh:
            fh.seek(-4, 2)
            recorded = int.from_bytes(fh.read(4), "little")
    except OSError:
        return size
    return max(recorded, size)


def stream_format(path: Path, size: int, part_chars: int = PART_CHARS) -> str | None:
    """'txt' or 'md' when ``path`` (``size`` bytes of text, :func:`text_size`) is plain
    text over ``part_chars``, to read in parts; else None."""
    from assistant.ingest.loaders import file_kind, sniff

    if size <= part_chars:
        return None
    kind = sniff(path) if inner_suffix(path) == "" else file_kind(path, b"")
    return kind if kind in ("txt", "md") else None
