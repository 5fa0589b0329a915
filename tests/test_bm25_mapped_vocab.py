"""BM25's memory-mapped vocabulary (large indexes): same ids and results as bm25s's dict."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.index.lexical import BM25Index, MappedVocab, upgrade_vocab


def _index(tmp_path: Path) -> Path:
    texts = [f"Record {i} on bread, yeast and flour, batch d{i}." for i in range(400)]
    texts += ["School uniforms cost families money.", "Nuclear power is low-carbon."]
    folder = tmp_path / "bm25"
    BM25Index.build(texts, np.arange(100, 100 + len(texts))).save(folder)
    return folder


QUERIES = ["bread d7", "uniforms cost", "nothing matches here", "d399 flour", "nuclear power"]


def test_mapped_vocab_gives_bm25s_ids_and_results(tmp_path: Path) -> None:
    folder = _index(tmp_path)
    plain = BM25Index.load(folder)
    mapped = BM25Index.load(folder, mmap=True)
    vocab = mapped.retriever.vocab_dict
    assert isinstance(vocab, MappedVocab) and isinstance(vocab.keys, np.memmap)
    assert len(vocab) == len(plain.retriever.vocab_dict)
    for term, tid in plain.retriever.vocab_dict.items():
        assert term in vocab and vocab[term] == tid
    assert "zzzunseen" not in vocab and 7 not in vocab
    for q in QUERIES:
        s1, p1 = plain.search([q], 5)
        s2, p2 = mapped.search([q], 5)
        np.testing.assert_array_equal(p1, p2)
        np.testing.assert_allclose(s1, s2)
    assert mapped.search(["uniforms cost"], 3)[1][0][0] == 500


def test_an_index_without_it_keeps_the_dict_and_can_be_upgraded(tmp_path: Path) -> None:
    folder = _index(tmp_path)
    for name in (MappedVocab.KEYS, MappedVocab.IDS):
        (folder / name).unlink()
    old = BM25Index.load(folder, mmap=True)
    assert isinstance(old.retriever.vocab_dict, dict)
    expected = old.search(QUERIES, 5)
    assert upgrade_vocab(folder) and not upgrade_vocab(folder)  # once
    new = BM25Index.load(folder, mmap=True)
    assert isinstance(new.retriever.vocab_dict, MappedVocab)
    got = new.search(QUERIES, 5)
    np.testing.assert_array_equal(expected[1], got[1])
    assert not (folder / ".vocab-upgrade").exists()


def test_a_key_clash_writes_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import assistant.index.lexical as lexical

    monkeypatch.setattr(lexical, "term_key", lambda term: 42)
    assert not MappedVocab.write(tmp_path, {"a": 0, "b": 1})
    assert not (tmp_path / MappedVocab.KEYS).exists()
