"""Where a cited document is, as a person reads it (issue 36).

A file's document has its path as its source and its id, so a citation printed the
path two or three times; a record of the bundled demo corpus pointed into the installed
package (``…/site-packages/assistant/demo/corpus.jsonl#13``), a path that says nothing
to a reader and changes with every install.
"""

from __future__ import annotations

from pathlib import PurePath

# the bundled corpus, wherever the package is installed (assistant/demo/__init__.py)
DEMO_CORPUS_PARTS = ("assistant", "demo", "corpus.jsonl")


def shown_location(path: str) -> str:
    """``path``, or "demo corpus, record 13" for a record of the bundled demo corpus
    (its path is ``…/assistant/demo/corpus.jsonl#13``, the loader's ``file#record``)."""
    file, hash_sign, record = path.rpartition("#")
    if hash_sign and record.isdigit() and PurePath(file).parts[-3:] == DEMO_CORPUS_PARTS:
        return f"demo corpus, record {record}"
    return path


def citation_where(source: str, path: str, page: int | None = None) -> tuple[str, str]:
    """(source, location) of a citation, each "" when it adds nothing: a file's source is
    its path, so the location is then the page alone; the page goes with the location
    ("reports/a.pdf, page 3")."""
    source, location = shown_location(source), shown_location(path)
    if location == source:
        location = ""
    if page:
        location = f"{location}, page {page}" if location else f"page {page}"
    return source, location


def document_label(doc_id: str, *shown: str) -> str:
    """The document's id, or "" when one of the texts ``shown`` beside it is the id
    already (a file's id is its path, which its source shows)."""
    return "" if doc_id in shown else doc_id
