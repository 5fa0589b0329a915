"""Loaders per format: a file becomes documents, or a reason it was skipped.

Files (``.txt``, ``.md``, ``.html``/``.htm``, ``.pdf``, and files with no
extension whose content is text) give one document each, and so does a
``.gz`` of any of them, read by its inner name (``README.gz``, ``x.html.gz``);
a large plain-text file is read in parts instead (:mod:`assistant.ingest.stream`);
record files (``.jsonl``, ``.json``, ``.csv``) give one document per record with
a field mapping, so benchmark files such as PerSphere's ``doc_new.jsonl``
(``{"id", "content"}``) ingest directly. Nothing here raises for a bad file:
problems come back as :class:`Skipped` entries with a reason a person can act on.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from assistant.ingest.reflow import reflow
from assistant.models import Document

TEXT_SUFFIXES = {".txt", ".md", ".markdown", ".rst"}
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}
PDF_SUFFIXES = {".pdf"}
RECORD_SUFFIXES = {".jsonl", ".ndjson", ".json", ".csv"}
SUPPORTED = TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES | RECORD_SUFFIXES

DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024
DEFAULT_MAX_RECORD_CHARS = 5_000_000
_TEXT_FIELDS = ("text", "content", "contents", "body", "passage", "document", "evidence")
_ID_FIELDS = ("id", "_id", "doc_id", "docid", "pId", "eId", "cId")
_TITLE_FIELDS = ("title", "name", "headline")
_SOURCE_FIELDS = ("source", "url", "site", "domain")


@dataclass(frozen=True)
class FieldMapping:
    """Which record fields hold the id, text, title and source (None = guess)."""

    id_field: str | None = None
    text_field: str | None = None
    title_field: str | None = None
    source_field: str | None = None
    meta_fields: tuple[str, ...] = ()


@dataclass
class Skipped:
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class LoadResult:
    """Documents from one file, PDF page offsets, and what was skipped or noted."""

    documents: list[Document] = field(default_factory=list)
    pages: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)  # whole file or single records
    notes: list[str] = field(default_factory=list)


def inner_suffix(path: Path) -> str:
    """The suffix that says how to read ``path``: ``x.html.gz`` -> ``.html``, ``README`` -> ''."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        return Path(path.stem).suffix.lower()
    return suffix


def _why_not_indexable(path: Path) -> str | None:
    """None when ``path`` is a file Sphere reads, else the reason it is skipped."""
    suffix = inner_suffix(path)
    if suffix in SUPPORTED:
        return None
    if suffix == "" or (path.suffix.lower() == ".gz" and _has_no_suffix(Path(path.stem))):
        kind = sniff(path)
        return None if kind else "no extension and not text"
    shown = path.suffix if path.suffix.lower() != ".gz" else "".join(path.suffixes[-2:])
    return f"unsupported file type '{shown or '(none)'}'"


def _has_no_suffix(path: Path) -> bool:
    return path.suffix == ""


def walk_paths(paths: Sequence[str | Path]) -> tuple[list[Path], list[Skipped]]:
    """Expand folders recursively into supported files (sorted), listing others."""
    files: list[Path] = []
    skipped: list[Skipped] = []

    def consider(f: Path) -> None:
        why = _why_not_indexable(f)
        if why is None:
            files.append(f.resolve())
        else:
            skipped.append(Skipped(str(f), why))

    for raw in paths:
        p = Path(raw).expanduser()
        if not p.exists():
            skipped.append(Skipped(str(raw), "path does not exist"))
            continue
        if p.is_file():
            consider(p)
            continue
        for child in sorted(p.rglob("*")):
            if any(part.startswith(".") for part in child.relative_to(p).parts):
                continue  # hidden files and folders (.git, .DS_Store)
            if child.is_symlink() and not child.exists():
                skipped.append(Skipped(str(child), "broken symbolic link"))
            elif child.is_file():
                consider(child)
    # de-duplicate while keeping order (a file given twice, or inside a given folder)
    seen: set[Path] = set()
    unique = [f for f in files if not (f in seen or seen.add(f))]  # type: ignore[func-returns-value]
    return unique, skipped


SNIFF_BYTES = 8192


def open_bytes(path: Path) -> BinaryIO:
    """``path`` opened for reading bytes, through gzip for a ``.gz``."""
    if path.suffix.lower() == ".gz":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def sniff_bytes(head: bytes) -> str | None:
    """'pdf', 'html' or 'txt' by content, None for binary data."""
    if head.startswith(b"%PDF"):
        return "pdf"
    if _looks_binary(head):
        return None
    start = head.lstrip()[:200].lower()
    if start.startswith((b"<!doctype html", b"<html")) or b"<html" in start:
        return "html"
    return "txt"


def sniff(path: Path) -> str | None:
    """What a file without an extension holds ('pdf', 'html', 'txt'), None if binary."""
    try:
        with open_bytes(path) as fh:
            head = fh.read(SNIFF_BYTES)
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error):
        return None
    return sniff_bytes(head) if head.strip() else "txt"


def _cp1252_fallback(err: UnicodeError) -> tuple[str, int]:
    """Decode each byte that is not valid UTF-8 as Windows-1252 (Latin-1 where undefined)."""
    assert isinstance(err, UnicodeDecodeError)
    bad = err.object[err.start : err.end]
    out = []
    for b in bad:
        try:
            out.append(bytes([b]).decode("cp1252"))
        except UnicodeDecodeError:
            out.append(bytes([b]).decode("latin-1"))
    return "".join(out), err.end


codecs.register_error("sphere-cp1252", _cp1252_fallback)


def decode_bytes(data: bytes) -> tuple[str, str | None]:
    """Decode text; return (text, note) where note names a non-UTF-8 fallback.

    UTF-8 (with or without BOM) and UTF-16 with a BOM are decoded as such.
    Anything else is decoded as UTF-8 where it is valid and as Windows-1252
    byte by byte where it is not, which also repairs files that mix the two.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16"), "decoded as UTF-16"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    return data.decode("utf-8", errors="sphere-cp1252"), "not UTF-8; decoded as Windows-1252"


def _looks_binary(head: bytes) -> bool:
    if not head:
        return False
    if b"\x00" in head:
        # UTF-16 text has NULs too
        return not head.startswith((b"\xff\xfe", b"\xfe\xff"))
    control = sum(1 for b in head if b < 9 or 13 < b < 32)
    return control / len(head) > 0.1


def clean_text(text: str) -> str:
    """Normalise newlines and drop NULs/control characters that break tokenisers.

    Zero-width and bidirectional marks are kept: they are part of real text.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", " ", text)


def count_words(text: str) -> int:
    return len(text.split())


def _title_from_text(text: str, fallback: str) -> str:
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line[:120]
    return fallback


class _Skip(Exception):
    pass


def _pick(record: dict[str, Any], explicit: str | None, guesses: Sequence[str]) -> Any:
    if explicit:
        return record.get(explicit)
    for name in guesses:
        if name in record and record[name] not in (None, ""):
            return record[name]
    return None


def _iter_records(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """Yield (record number, record or None, error) for JSONL, JSON and CSV."""
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson") or (suffix == ".json" and _is_json_lines(text)):
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                yield i, None, f"line {i}: malformed JSON ({exc.msg})"
                continue
            if isinstance(obj, dict):
                yield i, obj, ""
            else:
                yield i, None, f"line {i}: not a JSON object"
    elif suffix == ".json":
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _Skip(f"malformed JSON ({exc.msg} at line {exc.lineno})") from None
        if isinstance(obj, dict):
            # {"id": {...}, ...} or {"records": [...]} or a single record
            lists = [v for v in obj.values() if isinstance(v, list)]
            if len(lists) == 1 and all(isinstance(x, dict) for x in lists[0]):
                items: list[Any] = lists[0]
            elif obj and all(isinstance(v, dict) for v in obj.values()):
                items = [{"id": k, **v} for k, v in obj.items()]
            else:
                items = [obj]
        elif isinstance(obj, list):
            items = obj
        else:
            raise _Skip("JSON file holds neither a list of records nor an object")
        for i, item in enumerate(items, 1):
            if isinstance(item, dict):
                yield i, item, ""
            elif isinstance(item, str):
                yield i, {"id": str(i - 1), "text": item}, ""
            else:
                yield i, None, f"record {i}: not an object"
    else:  # csv
        try:
            reader = csv.DictReader(io.StringIO(text, newline=""))
            for i, row in enumerate(reader, 2):
                yield i, dict(row), ""
        except csv.Error as exc:
            raise _Skip(f"malformed CSV ({exc})") from None


def _is_json_lines(text: str) -> bool:
    head = text.lstrip()[:1]
    if head != "{":
        return False
    first = text.lstrip().split("\n", 1)[0]
    try:
        json.loads(first)
    except json.JSONDecodeError:
        return False
    return "\n" in text.strip()


def too_large(size: int, limit: int, what: str = "file") -> str:
    """The skip reason of a file over the size limit, naming the setting that raises it."""
    return (
        f"{what} too large ({size / 1e6:.0f} MB > {limit / 1e6:.0f} MB limit; "
        "raise index.max_file_mb in config.yaml to index it)"
    )


def _read(path: Path, max_file_bytes: int) -> bytes:
    """The file's bytes (decompressed for ``.gz``); raises _Skip over the limit."""
    size = path.stat().st_size
    if size > max_file_bytes:
        raise _Skip(too_large(size, max_file_bytes))
    if path.suffix.lower() != ".gz":
        return path.read_bytes()
    try:
        with open_bytes(path) as fh:
            data = fh.read(max_file_bytes + 1)
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise _Skip(f"damaged gzip file ({exc})") from None
    if len(data) > max_file_bytes:
        raise _Skip(too_large(len(data), max_file_bytes, "decompressed file"))
    return data


def file_kind(path: Path, head: bytes) -> str:
    """How to read a file: 'pdf', 'html', 'records', 'md' or 'txt' ('' = binary)."""
    suffix = inner_suffix(path)
    if suffix in PDF_SUFFIXES:
        return "pdf"
    if suffix in HTML_SUFFIXES:
        return "html"
    if suffix in RECORD_SUFFIXES:
        return "records"
    if suffix in (".md", ".markdown"):
        return "md"
    if suffix in TEXT_SUFFIXES:
        return "txt"
    return sniff_bytes(head) or ""


def load_file(
    path: Path,
    *,
    mapping: FieldMapping | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    max_record_chars: int = DEFAULT_MAX_RECORD_CHARS,
    data: bytes | None = None,
) -> LoadResult:
    """Read one file into documents; never raises for the file's content."""
    mapping = mapping or FieldMapping()
    result = LoadResult()
    name = str(path)
    try:
        if data is None:
            data = _read(path, max_file_bytes)
        if not data.strip():
            raise _Skip("empty file")
        _load_bytes(path, data, mapping, max_record_chars, result)
    except OSError as exc:
        result.skipped.append(Skipped(name, f"cannot read file ({exc.strerror or exc})"))
    except _Skip as skip:
        result.documents.clear()
        result.skipped.append(Skipped(name, str(skip)))
    except RecursionError:
        result.documents.clear()
        result.skipped.append(Skipped(name, "structure nested too deeply to parse"))
    return result


def _load_bytes(
    path: Path, data: bytes, mapping: FieldMapping, max_record_chars: int, result: LoadResult
) -> None:
    kind = file_kind(path, data[:SNIFF_BYTES])
    if kind == "pdf":
        from assistant.ingest.pdf import PdfSkip, read_pdf

        if not data.startswith(b"%PDF"):
            raise _Skip("not a PDF file (no %PDF header)")
        try:
            text, pages, title = read_pdf(data, clean_text)
        except PdfSkip as exc:
            raise _Skip(str(exc)) from None
        if not text.strip():
            raise _Skip("PDF has no extractable text (scanned images?)")
        doc = _file_document(path, text, fmt="pdf", title=title)
        result.documents.append(doc)
        result.pages[doc.doc_id] = pages
        return
    if not kind or _looks_binary(data[:SNIFF_BYTES]):
        raise _Skip("binary file, not text")
    text, note = decode_bytes(data)
    if note:
        result.notes.append(f"{path}: {note}")
    text = clean_text(text)
    if kind == "html":
        from assistant.ingest.html import html_to_text

        title, body = html_to_text(text)
        if not body.strip():
            raise _Skip("HTML has no text")
        result.documents.append(_file_document(path, body, fmt="html", title=title))
    elif kind == "records":
        _load_records(path, text, mapping, max_record_chars, result)
        if not result.documents and not result.skipped:
            raise _Skip("no records found")
    else:
        if not text.strip():
            raise _Skip("file has only whitespace")
        result.documents.append(_file_document(path, reflow(text), fmt=kind))


def _file_document(path: Path, text: str, *, fmt: str, title: str = "") -> Document:
    return Document(
        doc_id=str(path),
        title=title.strip() or _title_from_text(text, Path(path.stem).stem or path.name),
        text=text,
        source=str(path),
        path=str(path),
        format=fmt,
        n_words=count_words(text),
    )


def _load_records(
    path: Path, text: str, mapping: FieldMapping, max_chars: int, result: LoadResult
) -> None:
    name = str(path)
    seen: set[str] = set()
    for number, record, error in _iter_records(path, text):
        if record is None:
            result.skipped.append(Skipped(name, error))
            continue
        body = _pick(record, mapping.text_field, _TEXT_FIELDS)
        if body is None:
            wanted = mapping.text_field or "/".join(_TEXT_FIELDS[:3])
            result.skipped.append(Skipped(name, f"record {number}: no text field '{wanted}'"))
            continue
        if isinstance(body, list):
            body = "\n\n".join(str(x) for x in body)
        body = clean_text(str(body))
        if not body.strip():
            result.skipped.append(Skipped(name, f"record {number}: empty text"))
            continue
        if len(body) > max_chars:
            result.skipped.append(
                Skipped(name, f"record {number}: text too long ({len(body):,} characters)")
            )
            continue
        rid = _pick(record, mapping.id_field, _ID_FIELDS)
        doc_id = str(rid) if rid not in (None, "") else f"{path.stem}:{number}"
        if doc_id in seen:
            result.skipped.append(Skipped(name, f"record {number}: duplicate id '{doc_id}'"))
            continue
        seen.add(doc_id)
        title = _pick(record, mapping.title_field, _TITLE_FIELDS)
        source = _pick(record, mapping.source_field, _SOURCE_FIELDS)
        meta = {f: record[f] for f in mapping.meta_fields if f in record}
        if "url" in record and "url" not in meta:
            meta["url"] = record["url"]
        result.documents.append(
            Document(
                doc_id=doc_id,
                title=str(title).strip() if title else _title_from_text(body, doc_id),
                text=body,
                source=str(source) if source else path.name,
                path=f"{path}#{number}",
                format="record",
                n_words=count_words(body),
                meta=meta,
            )
        )
