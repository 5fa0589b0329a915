"""Chunking properties: offsets map back, nothing dropped, nothing duplicated."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.ingest.chunk import MAX_WORD_CHARS, chunk_document, chunk_text

WORDS = st.text(
    alphabet=st.sampled_from(list("abcdefghij .!?\n\t\u200b\u202eéß\"'")), min_size=0, max_size=600
)


def _words(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    hi = len(text) if hi is None else hi
    return [m.span() for m in re.finditer(r"\S+", text[:hi]) if m.start() >= lo]


@settings(max_examples=300, deadline=None)
@given(text=WORDS, max_words=st.integers(1, 40), overlap=st.integers(0, 20))
def test_offsets_map_back_and_cover_every_word(text: str, max_words: int, overlap: int) -> None:
    passages = chunk_document("d", text, max_words=max_words, overlap_words=overlap)
    for p in passages:
        assert p.text == text[p.start : p.end]
        assert p.text.strip() == p.text and p.text
        assert len(p.text.split()) <= max_words or len(p.text) > MAX_WORD_CHARS
    # every non-space character of the text is inside some passage
    covered = [False] * len(text)
    for p in passages:
        for i in range(p.start, p.end):
            covered[i] = True
    for i, ch in enumerate(text):
        if not ch.isspace():
            assert covered[i], f"character {i} {ch!r} dropped"
    assert [p.ordinal for p in passages] == list(range(len(passages)))


@settings(max_examples=300, deadline=None)
@given(text=WORDS, max_words=st.integers(1, 40))
def test_without_overlap_passages_are_disjoint_and_ordered(text: str, max_words: int) -> None:
    passages = chunk_document("d", text, max_words=max_words, overlap_words=0)
    for a, b in itertools.pairwise(passages):
        assert a.end <= b.start


@settings(max_examples=200, deadline=None)
@given(text=WORDS, max_words=st.integers(2, 40), overlap=st.integers(1, 20))
def test_overlap_only_repeats_the_tail(text: str, max_words: int, overlap: int) -> None:
    passages = chunk_document("d", text, max_words=max_words, overlap_words=overlap)
    for a, b in itertools.pairwise(passages):
        assert b.start > a.start  # always advances
        shared = text[b.start : a.end] if b.start < a.end else ""
        assert len(shared.split()) <= min(overlap, max_words - 1)


def test_pages_keep_their_numbers_and_offsets() -> None:
    pages_text = ["First page. It has words.", "Second page here."]
    text = "\n\n".join(pages_text)
    pages = [(0, len(pages_text[0])), (len(pages_text[0]) + 2, len(text))]
    passages = chunk_document("d", text, max_words=50, pages=pages)
    assert [p.page for p in passages] == [1, 2]
    assert passages[1].text == "Second page here."


def test_sentences_are_kept_whole_when_they_fit() -> None:
    text = "One two three. Four five six. Seven eight nine."
    spans = chunk_text(text, max_words=6, overlap_words=0)
    assert [text[s:e] for s, e in spans] == ["One two three. Four five six.", "Seven eight nine."]


def test_enormous_single_token_is_cut() -> None:
    text = "x" * 10_000
    passages = chunk_document("d", text, max_words=5, overlap_words=0)
    assert "".join(p.text for p in passages) == text
    assert max(len(p.text) for p in passages) <= 5 * MAX_WORD_CHARS


def test_default_passages_fit_the_bundled_encoders_window(embedder) -> None:  # type: ignore[no-untyped-def]
    """The default chunking is sized to the encoder: a passage longer than its window
    is embedded without its tail. Checked on the demo corpus's English documents,
    joined into long documents so that most passages are full ones. (Other languages
    take more word pieces per word: the demo's Spanish and German documents run to
    ~1.5, and their full passages do not fit.)"""
    import json
    from pathlib import Path

    import py3langid

    from assistant.ingest.chunk import DEFAULT_MAX_WORDS, DEFAULT_OVERLAP_WORDS

    model = embedder._model  # the real sentence-transformers model
    window = model.max_seq_length
    rows = Path("assistant/demo/corpus.jsonl").read_text(encoding="utf-8").splitlines()
    texts = [t for t in (json.loads(r)["text"] for r in rows) if py3langid.classify(t)[0] == "en"]
    long_docs = [" ".join(texts[i : i + 6]) for i in range(0, len(texts), 6)]
    passages = [
        doc[s:e]
        for doc in long_docs
        for s, e in chunk_text(
            doc, max_words=DEFAULT_MAX_WORDS, overlap_words=DEFAULT_OVERLAP_WORDS
        )
    ]
    full = [p for p in passages if len(p.split()) >= DEFAULT_MAX_WORDS * 0.8]
    assert len(full) >= 10
    tokens = sorted(len(model.tokenizer(p)["input_ids"]) for p in full)
    assert tokens[-1] <= window, tokens[-5:]
    # and the window is used: a typical full passage takes most of it
    assert tokens[len(tokens) // 2] >= 0.8 * window
