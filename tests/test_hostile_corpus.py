"""A corpus of awkward files indexes without crashing and lists what it skipped (issue 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.index import BuildOptions, Index, build_index
from assistant.index.search import search


def _awkward_corpus(root: Path) -> dict[str, str]:
    """Write the files; return name -> expected outcome ("indexed" or a skip reason)."""
    from fpdf import FPDF

    root.mkdir()
    (root / "empty.txt").write_bytes(b"")
    (root / "binary.txt").write_bytes(bytes(range(256)) * 64)
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(0, 10, "A perfectly normal PDF page about tides. " * 30)
    good = bytes(pdf.output())
    (root / "truncated.pdf").write_bytes(good[: len(good) // 2])
    (root / "one-line.txt").write_text("QUJD" * 2_500_000, encoding="ascii")  # 10 MB, no spaces
    (root / "nested.html").write_text(
        "<html><body>"
        + "<div>" * 50_000
        + "Deep inside the nesting lives a sentence about owls."
        + "</div>" * 50_000
        + "</body></html>",
        encoding="utf-8",
    )
    (root / "mixed.txt").write_bytes(
        "Grüße from UTF-8, ".encode() + "and déjà vu from Windows-1252.".encode("cp1252")
    )
    with (root / "huge-line.jsonl").open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "big", "text": "word " * 2_100_000}) + "\n")  # > 10 MB line
        fh.write(json.dumps({"id": "small", "text": "A small record about lighthouses."}) + "\n")
    (root / "zero-width.txt").write_text(
        "Zero\u200bwidth\u200b joiners and \u202eright-to-left override\u202c text about "
        "the Nile. \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 mixed scripts.",
        encoding="utf-8",
    )
    return {
        "empty.txt": "empty",
        "binary.txt": "binary",
        "truncated.pdf": "unreadable PDF",
        "one-line.txt": "indexed",
        "nested.html": "indexed",
        "mixed.txt": "indexed",
        "zero-width.txt": "indexed",
    }


@pytest.mark.slow
def test_awkward_files_index_and_are_listed(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    expected = _awkward_corpus(tmp_path / "awkward")
    report = build_index(tmp_path / "idx", "awk", [tmp_path / "awkward"], embedder, BuildOptions())
    skipped = {Path(s.path.split("#")[0]).name: s.reason for s in report.skipped}
    for name, outcome in expected.items():
        if outcome == "indexed":
            assert name not in skipped, f"{name} was skipped: {skipped.get(name)}"
        else:
            assert outcome in skipped.get(name, ""), f"{name}: {skipped.get(name)}"
    assert "too long" in skipped["huge-line.jsonl"]  # the 10 MB record; its sibling is indexed
    index = Index.open(tmp_path / "idx", "awk")
    try:
        ids = {h.doc_id for h in search(index, embedder, "owls nesting", k=20)}
        assert any(i.endswith("nested.html") for i in ids) and "small" in ids
        doc = index.document(str((tmp_path / "awkward/mixed.txt").resolve()))
        assert doc is not None and doc.text == "Grüße from UTF-8, and déjà vu from Windows-1252."
        zw = index.document(str((tmp_path / "awkward/zero-width.txt").resolve()))
        assert (
            zw is not None and "\u202e" in zw.text
        )  # kept verbatim; escaping is the renderer's job
        assert index.meta.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        index.close()
