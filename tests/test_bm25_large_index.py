"""BM25 for large indexes: the memory-mapped vocabulary and the scoring of matching rows
only give bm25s's own ids, scores and rankings."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.index.lexical import BM25Index, MappedVocab, fast_tokens, upgrade_vocab


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


def test_scoring_the_matching_rows_gives_bm25s_dense_scores_bit_for_bit(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(300)]
    texts = [" ".join(rng.choice(words, 12)) for _ in range(3000)]
    index = BM25Index.build(texts, np.arange(len(texts)) * 3 + 1)
    queries = [" ".join(rng.choice(words, int(rng.integers(1, 6)))) for _ in range(40)]
    queries += ["w1 w1 w2", "nothing", " ".join(words[:40]), " ".join(words[100:190])]
    sparse = dense = 0
    for q in queries:
        tids = index.retriever.get_tokens_ids(fast_tokens(q))
        if not tids:
            continue
        full = np.asarray(index.retriever.get_scores_from_ids(tids), dtype=np.float32)
        rows, got = index._matches(tids)
        np.testing.assert_array_equal(rows, np.flatnonzero(full))
        assert got.tobytes() == full[rows].tobytes()  # the same float32 bits
        postings = sum(
            int(index.retriever.scores["indptr"][t + 1] - index.retriever.scores["indptr"][t])
            for t in tids
        )
        sparse += postings * 4 <= len(texts)
        dense += postings * 4 > len(texts)
    assert sparse and dense  # both paths were taken
    s, p = index.search(queries, 7)
    for i, q in enumerate(queries):
        tids = index.retriever.get_tokens_ids(fast_tokens(q))
        if not tids:
            assert (p[i] == -1).all()
            continue
        # what search did before: bm25s's dense scores, their non-zero rows, the top 7
        full = np.asarray(index.retriever.get_scores_from_ids(tids), dtype=np.float32)
        hit = np.flatnonzero(full > 0)
        if len(hit) > 7:
            hit = hit[np.argpartition(-full[hit], 6)[:7]]
        hit = hit[np.lexsort((hit, -full[hit]))]
        np.testing.assert_array_equal(p[i][: len(hit)], index.ids[hit])
        assert s[i][: len(hit)].tobytes() == full[hit].tobytes()
