"""Loaders: every format, and every bad input gives a reason, never an exception."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.ingest.loaders import FieldMapping, load_file, walk_paths


def _pdf(path: Path, pages: list[str], password: str | None = None) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 10, text)
    if password:
        pdf.set_encryption(owner_password="owner", user_password=password)
    pdf.output(str(path))
    return path


def test_text_markdown_html(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Plain words here.\nSecond line.", encoding="utf-8")
    (tmp_path / "b.md").write_text("# Heading\n\nBody text.", encoding="utf-8")
    (tmp_path / "c.html").write_text(
        "<html><head><title>T</title><script>var x=1;</script></head>"
        "<body><p>Para one.</p><p>Para two.</p></body></html>",
        encoding="utf-8",
    )
    a = load_file(tmp_path / "a.txt").documents[0]
    b = load_file(tmp_path / "b.md").documents[0]
    c = load_file(tmp_path / "c.html").documents[0]
    assert a.title == "Plain words here." and a.n_words == 5
    assert b.title == "Heading" and b.format == "md"
    assert c.title == "T" and "var x" not in c.text and "Para one." in c.text


def test_pdf_pages(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "d.pdf", ["Alpha page text.", "Beta page text."])
    res = load_file(path)
    assert not res.skipped
    doc = res.documents[0]
    pages = res.pages[doc.doc_id]
    assert len(pages) == 2
    assert "Beta" in doc.text[pages[1][0] : pages[1][1]]


def test_password_protected_pdf_is_skipped_with_reason(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "secret.pdf", ["hidden"], password="pw")
    res = load_file(path)
    assert not res.documents
    assert "password" in res.skipped[0].reason


def test_truncated_pdf(tmp_path: Path) -> None:
    good = _pdf(tmp_path / "x.pdf", ["Some text " * 50]).read_bytes()
    bad = tmp_path / "trunc.pdf"
    bad.write_bytes(good[: len(good) // 3])
    res = load_file(bad)
    assert not res.documents and res.skipped


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.txt", b"", "empty"),
        ("blank.txt", b"   \n\t ", "empty"),
        ("bin.txt", bytes(range(256)) * 10, "binary"),
        ("fake.pdf", b"hello, not a pdf", "not a PDF"),
        ("bad.json", b'{"a": [1, 2', "malformed JSON"),
    ],
)
def test_bad_files_are_skipped_with_reason(
    tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    p = tmp_path / name
    p.write_bytes(data)
    res = load_file(p)
    assert not res.documents
    assert reason in res.skipped[0].reason


def test_non_utf8_is_decoded_and_noted(tmp_path: Path) -> None:
    p = tmp_path / "latin.txt"
    p.write_bytes("Café crème à la française, déjà vu.".encode("cp1252"))
    res = load_file(p)
    assert res.documents and "Café" in res.documents[0].text
    assert res.notes and "not UTF-8" in res.notes[0]


def test_huge_file_is_skipped(tmp_path: Path) -> None:
    p = tmp_path / "big.txt"
    p.write_text("word " * 1000)
    res = load_file(p, max_file_bytes=100)
    assert "too large" in res.skipped[0].reason


def test_jsonl_records_with_mapping_and_malformed_lines(tmp_path: Path) -> None:
    p = tmp_path / "docs.jsonl"
    lines = [
        json.dumps({"id": 7, "content": "Seven text.", "site": "s7"}),
        "{not json",
        json.dumps({"id": 8, "content": ""}),
        json.dumps({"id": 7, "content": "duplicate"}),
        json.dumps(["not", "an", "object"]),
        json.dumps({"id": 9, "content": "Nine text."}),
    ]
    p.write_text("\n".join(lines), encoding="utf-8")
    res = load_file(p, mapping=FieldMapping(text_field="content", source_field="site"))
    assert [d.doc_id for d in res.documents] == ["7", "9"]
    assert res.documents[0].source == "s7"
    reasons = " | ".join(s.reason for s in res.skipped)
    assert "line 2: malformed JSON" in reasons
    assert "empty text" in reasons and "duplicate id" in reasons and "not a JSON object" in reasons


def test_json_list_and_csv(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(
        json.dumps([{"pId": 1, "text": "One."}, {"pId": 2, "text": "Two."}])
    )
    (tmp_path / "b.csv").write_text("id,title,body\nx,Ex,Body x.\ny,Why,Body y.\n")
    a = load_file(tmp_path / "a.json").documents
    b = load_file(tmp_path / "b.csv", mapping=FieldMapping(text_field="body")).documents
    assert [d.doc_id for d in a] == ["1", "2"]
    assert [(d.doc_id, d.title) for d in b] == [("x", "Ex"), ("y", "Why")]


def test_missing_text_field_is_reported(tmp_path: Path) -> None:
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps({"id": 1, "body": "x"}) + "\n" + json.dumps({"id": 2, "body": "y"}))
    res = load_file(p, mapping=FieldMapping(text_field="content"))
    assert not res.documents
    assert "no text field 'content'" in res.skipped[0].reason


def test_walk_lists_unsupported_and_missing(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.txt").write_text("a")
    (tmp_path / "img.png").write_bytes(b"\x89PNG")
    (tmp_path / ".hidden.txt").write_text("h")
    files, skipped = walk_paths([tmp_path, tmp_path / "nope"])
    assert [f.name for f in files] == ["a.txt"]
    reasons = {Path(s.path).name: s.reason for s in skipped}
    assert "unsupported" in reasons["img.png"] and reasons["nope"] == "path does not exist"


def test_persphere_corpus_ingests_directly(shared_data: Path) -> None:
    path = shared_data / "persphere/theperspective/doc_new.jsonl"
    res = load_file(path, mapping=FieldMapping(text_field="content"))
    assert len(res.documents) == 4107 and not res.skipped
    assert res.documents[205].doc_id == "205"


def test_mixed_encodings_keep_utf8_and_repair_cp1252(tmp_path: Path) -> None:
    p = tmp_path / "mixed.txt"
    p.write_bytes("naïve UTF-8 ".encode() + "and café in cp1252".encode("cp1252"))
    doc = load_file(p).documents[0]
    assert doc.text == "naïve UTF-8 and café in cp1252"


def test_utf16_with_bom(tmp_path: Path) -> None:
    p = tmp_path / "u16.txt"
    p.write_bytes("Grüße aus Köln".encode("utf-16"))
    assert load_file(p).documents[0].text == "Grüße aus Köln"
