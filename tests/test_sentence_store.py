"""Sentence vectors stored with an index at build time (assistant/index/sentences.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assistant.index import BuildOptions, build_index
from assistant.index.sentences import FILE, SentenceStore, passage_key
from assistant.index.store import Index
from assistant.summarize.evidence import Passage, SourceDoc, sentence_spans, split_passages
from assistant.summarize.hiersphere import sentence_vectors

PAGE = (
    "School uniforms\n"
    "- Uniforms hide the differences in wealth that pupils otherwise see every day. "
    "They also cost families less than a wardrobe of fashionable clothes.\n"
    "2.4 Critics answer that uniforms stifle the self-expression of teenagers. "
    "Pupils, they say, learn nothing about choice when every choice is made for them.\n"
)
NOTE = "Nuclear power emits little carbon. Its waste stays dangerous for thousands of years."


def _build(folder: Path, files: list[Path], embedder: Any, **kw: Any) -> Path:
    build_index(folder, "t", files, embedder, BuildOptions(**kw))
    return folder / "t"


@pytest.fixture()
def files(tmp_path: Path) -> list[Path]:
    a, b = tmp_path / "uniforms.txt", tmp_path / "nuclear.txt"
    a.write_text(PAGE, encoding="utf-8")
    b.write_text(NOTE, encoding="utf-8")
    return [a, b]


def test_a_small_index_stores_each_passage_sentences_vectors_as_the_summarizer_reads_them(
    tmp_path: Path, files: list[Path], embedder: Any
) -> None:
    folder = _build(tmp_path / "idx", files, embedder)
    assert (folder / FILE).is_file()
    assert json.loads((folder / "manifest.json").read_text())["sentences"] == {"file": FILE}
    index = Index.open(tmp_path / "idx", "t")
    try:
        pids = sorted(int(p) for p in index.meta.live_rows()[0])
        texts = index.passage_texts(pids)
        stored = index.stored_sentence_vectors([(p, texts[p]) for p in pids])
        assert sorted(stored) == pids
        for pid in pids:
            at, vecs = stored[pid]
            spans = sentence_spans(texts[pid])
            # the summarizer's quote units, list markers left out
            assert [tuple(x) for x in at.tolist()] == spans
            live = embedder.encode([texts[pid][s:e] for s, e in spans])
            cos = np.sum(live * vecs, axis=1) / np.linalg.norm(vecs, axis=1)
            assert cos.min() > 0.999
        # a document's vectors come from the store, the same as embedded live
        passages = [
            Passage("d", i, texts[p], 0, len(texts[p]), None, p) for i, p in enumerate(pids)
        ]
        doc = SourceDoc("d", passages=passages, sentences=split_passages("d", passages))
        live_doc = SourceDoc("d", passages=passages, sentences=doc.sentences)
        doc.stored_vectors = stored
        got = sentence_vectors([doc], embedder)["d"]
        want = sentence_vectors([live_doc], embedder)["d"]
        assert got.shape == want.shape
        assert float(np.min(np.sum(got * want, axis=1))) > 0.999
        # a span the store does not hold (other sentence rules): embedded live, whole
        first = pids[0]
        doc.stored_vectors = {**stored, first: (stored[first][0] + 1, stored[first][1])}
        np.testing.assert_allclose(sentence_vectors([doc], embedder)["d"], want, atol=1e-6)
        # a passage the store lacks: the document is embedded live, whole
        doc.stored_vectors = {pids[0]: stored[pids[0]]} if len(pids) > 1 else {}
        if len(pids) > 1:
            partial = sentence_vectors([doc], embedder)["d"]
            np.testing.assert_allclose(partial, want, atol=1e-6)
    finally:
        index.close()


def test_a_rebuild_embeds_only_new_passages_and_drops_the_stale_ones(
    tmp_path: Path, files: list[Path], embedder: Any
) -> None:
    folder = _build(tmp_path / "idx", files, embedder)
    before = SentenceStore(folder / FILE).keys()
    files[1].write_text("Wind power is cheap. It needs storage for calm days.", encoding="utf-8")
    _build(tmp_path / "idx", files, embedder)
    after = SentenceStore(folder / FILE).keys()
    new = passage_key("Wind power is cheap. It needs storage for calm days.")
    assert new in after and new not in before
    assert passage_key(NOTE) in before and passage_key(NOTE) not in after
    assert before & after  # the unchanged page's rows were kept, not re-embedded


def test_a_large_index_stores_none_and_answers_embed_its_sentences(
    tmp_path: Path, files: list[Path], embedder: Any
) -> None:
    folder = _build(tmp_path / "idx", files, embedder)
    assert (folder / FILE).is_file()
    # grown past the cap (here: 1 passage): the store left from before is removed
    files[0].write_text(PAGE + "\nA new paragraph about uniforms and cost.", encoding="utf-8")
    _build(tmp_path / "idx", files, embedder, sentence_vectors_max_passages=1)
    assert not (folder / FILE).exists()
    index = Index.open(tmp_path / "idx", "t")
    try:
        assert index.stored_sentence_vectors([(0, NOTE)]) == {}
    finally:
        index.close()


def test_a_damaged_store_is_read_as_no_store(tmp_path: Path) -> None:
    path = tmp_path / FILE
    path.write_bytes(b"not a database at all" * 10)
    store = SentenceStore.open(tmp_path)
    got = {} if store is None else store.get([passage_key("x")])
    assert got == {}
    with pytest.raises(sqlite3.Error):
        sqlite3.connect(path).execute("SELECT 1 FROM sentences").fetchall()


def test_an_index_built_before_stores_gets_one_at_its_next_build(
    tmp_path: Path, files: list[Path], embedder: Any
) -> None:
    folder = _build(tmp_path / "idx", files, embedder, sentence_vectors_max_passages=0)
    assert not (folder / FILE).exists()
    _build(tmp_path / "idx", files, embedder)  # no file changed
    assert (folder / FILE).is_file()
    assert len(SentenceStore(folder / FILE).keys()) == 2
