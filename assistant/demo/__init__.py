"""The bundled demo corpus (fictional documents written for the demo)."""

from __future__ import annotations

from pathlib import Path

DEMO_INDEX = "demo"
DEMO_FIELDS = {
    "id_field": "id",
    "text_field": "text",
    "title_field": "title",
    "source_field": "source",
}


def demo_corpus_path() -> Path:
    return Path(__file__).resolve().parent / "corpus.jsonl"
