"""BM25 over passage texts with bm25s (sparse-matrix BM25, Lucene scoring)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

_STEMMER: Any = None


def _stemmer() -> Any:
    global _STEMMER
    if _STEMMER is None:
        import Stemmer

        _STEMMER = Stemmer.Stemmer("english")
    return _STEMMER


def tokenize(texts: Sequence[str]) -> Any:
    import bm25s

    return bm25s.tokenize(
        list(texts), stopwords="en", stemmer=_stemmer(), show_progress=False, lower=True
    )


def tokenize_strings(texts: Sequence[str]) -> list[list[str]]:
    """Query tokens as strings (the index's vocabulary maps them to ids)."""
    import bm25s

    out = bm25s.tokenize(
        list(texts),
        stopwords="en",
        stemmer=_stemmer(),
        show_progress=False,
        lower=True,
        return_ids=False,
    )
    return [list(t) for t in out]


_SPLIT = re.compile(r"(?u)\b\w\w+\b")  # bm25s's default token pattern
_STOP: frozenset[str] | None = None


def fast_tokens(text: str) -> list[str]:
    """The tokens :func:`tokenize_strings` gives for one text, without bm25s's per-call overhead.

    Same steps as ``bm25s.tokenize`` (lower-case, its token pattern, English
    stopwords dropped before stemming, the Snowball stemmer); bm25s builds
    progress bars and vocabularies on every call (~0.5 ms), which the
    retriever's per-query feedback cannot afford.
    """
    global _STOP
    if _STOP is None:
        from bm25s.stopwords import STOPWORDS_EN

        _STOP = frozenset(STOPWORDS_EN)
    words = [w for w in _SPLIT.findall(text.lower()) if w not in _STOP]
    return list(_stemmer().stemWords(words)) if words else []


def term_key(term: str) -> int:
    """A term's 64-bit key in a memory-mapped vocabulary (BLAKE2b, not Python's salted hash)."""
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=8).digest(), "little")


class MappedVocab:
    """bm25s's term -> id dict, as two memory-mapped arrays: sorted term keys and their ids.

    bm25s keeps its vocabulary in a Python dict that it loads whole even when
    the score matrix is memory-mapped: about 235 bytes a term, which for a
    large index is more memory than the compressed vectors (47 MB for 200k
    terms at 1M synthetic passages). Here a lookup is a binary search of the
    term's key in ``vocab.keys.npy`` (uint64, sorted) giving its id from
    ``vocab.ids.npy``; the kernel pages in the few entries a query touches.
    Keys are 64-bit BLAKE2b digests: two terms of one index sharing a key is
    checked when the files are written (and then the dict is kept); an unseen
    query term matching a key by chance has probability about V / 2^64.
    Supports what bm25s's ``get_tokens_ids`` uses: ``in`` and ``[]``.
    """

    KEYS = "vocab.keys.npy"
    IDS = "vocab.ids.npy"

    def __init__(self, keys: np.ndarray, ids: np.ndarray) -> None:
        self.keys = keys
        self.ids = ids

    def __len__(self) -> int:
        return len(self.keys)

    def _find(self, term: str) -> int:
        k = np.uint64(term_key(term))
        i = int(np.searchsorted(self.keys, k))
        return i if i < len(self.keys) and self.keys[i] == k else -1

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self._find(term) >= 0

    def __getitem__(self, term: str) -> int:
        i = self._find(term)
        if i < 0:
            raise KeyError(term)
        return int(self.ids[i])

    @classmethod
    def write(cls, folder: Path, vocab: dict[str, int]) -> bool:
        """Write the two arrays beside bm25s's files; False (nothing written) on a key clash."""
        keys = np.fromiter((term_key(t) for t in vocab), dtype=np.uint64, count=len(vocab))
        ids = np.fromiter(vocab.values(), dtype=np.int64, count=len(vocab))
        order = np.argsort(keys, kind="stable")
        keys, ids = keys[order], ids[order]
        if len(keys) > 1 and bool(np.any(keys[1:] == keys[:-1])):
            return False
        np.save(folder / cls.KEYS, keys)
        np.save(folder / cls.IDS, ids.astype(np.int32 if len(ids) < 2**31 else np.int64))
        return True

    @classmethod
    def open(cls, folder: Path) -> MappedVocab | None:
        if not (folder / cls.KEYS).exists() or not (folder / cls.IDS).exists():
            return None
        return cls(
            np.load(folder / cls.KEYS, mmap_mode="r"), np.load(folder / cls.IDS, mmap_mode="r")
        )


class BM25Index:
    def __init__(self, retriever: Any, ids: np.ndarray) -> None:
        self.retriever = retriever
        self.ids = ids  # corpus row -> passage id
        self._row_of: np.ndarray | None = None  # passage id -> corpus row (built on first use)
        self._sorted = True  # row indices sorted within each token column (checked with _row_of)

    @classmethod
    def build(cls, texts: Sequence[str], ids: np.ndarray) -> BM25Index:
        import bm25s

        retriever = bm25s.BM25()
        if len(texts):
            retriever.index(tokenize(texts), show_progress=False)
        return cls(retriever, np.asarray(ids, dtype=np.int64))

    def save(self, folder: Path) -> None:
        tmp = folder.with_name(folder.name + ".tmp")
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir(parents=True)
        if len(self.ids):
            self.retriever.save(str(tmp))
            MappedVocab.write(tmp, dict(self.retriever.vocab_dict))
        np.save(tmp / "ids.npy", self.ids)
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)

    @classmethod
    def load(cls, folder: Path, *, mmap: bool = False) -> BM25Index:
        """Load; with ``mmap`` the score matrix, ids and vocabulary stay in the files.

        ``mmap`` is for large (compressed) indexes: the vocabulary is then the
        :class:`MappedVocab` beside bm25s's files when there is one (an index
        written before it keeps bm25s's dict; :func:`upgrade_vocab` adds it).
        """
        import bm25s

        ids = np.load(folder / "ids.npy", mmap_mode="r" if mmap else None)
        if not len(ids):
            return cls(bm25s.BM25(), ids)
        mapped = MappedVocab.open(folder) if mmap else None
        retriever = bm25s.BM25.load(str(folder), mmap=mmap, load_vocab=mapped is None)
        if mapped is not None:
            retriever.vocab_dict = mapped
        return cls(retriever, ids)

    def search(self, queries: Sequence[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, passage_ids), each (len(queries), k); missing entries have id -1.

        Only passages that share a term with the query (score > 0) are ranked:
        bm25s's own top-k runs ``argpartition`` over every passage's score, most
        of them tied at zero, which cost ~6 ms a query at 100k passages; ties
        are broken by corpus row, so results are deterministic.
        """
        m = len(queries)
        scores = np.zeros((m, k), dtype=np.float32)
        pids = np.full((m, k), -1, dtype=np.int64)
        n = len(self.ids)
        if n == 0 or m == 0:
            return scores, pids
        kk = min(k, n)
        for i, toks in enumerate(map(fast_tokens, queries)):
            token_ids = self.retriever.get_tokens_ids(toks)
            if not token_ids:
                continue
            rows, s = self._matches(token_ids)
            keep = s > 0
            rows, s = rows[keep], s[keep]
            top = np.arange(len(rows))
            if len(top) > kk:
                top = top[np.argpartition(-s, kk - 1)[:kk]]
            top = top[np.lexsort((rows[top], -s[top]))]
            pids[i, : len(top)] = self.ids[rows[top]]
            scores[i, : len(top)] = s[top]
        return scores, pids

    def _matches(self, token_ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """(corpus rows, BM25 scores) of the passages holding any of the tokens, rows sorted.

        bm25s scores a query into a dense array of every passage (``np.add.at``
        per token, then a pass to find the non-zero ones): 40 MB and ~10 ms a
        query at 10M passages, most of a ``sphere`` search's time there. When
        the tokens' postings are a small part of the corpus, only those rows
        are scored: the union of the postings, then each token's scores added
        in query order, as bm25s adds them, so the float32 sums are the same
        bits. Otherwise (or for a BM25 variant with non-occurrence scores) the
        dense scores, cut to their non-zero rows.
        """
        sc = self.retriever.scores
        data, indices, indptr = sc["data"], sc["indices"], sc["indptr"]
        n = len(self.ids)
        tids = np.asarray(token_ids, dtype=np.int64)
        lo, hi = np.asarray(indptr[tids], dtype=np.int64), np.asarray(indptr[tids + 1], np.int64)
        postings = int((hi - lo).sum())
        if postings * 4 > n or getattr(self.retriever, "nonoccurrence_array", None) is not None:
            dense = np.asarray(self.retriever.get_scores_from_ids(token_ids), dtype=np.float32)
            rows = np.flatnonzero(dense > 0)  # on a bool array: ~10x faster than on floats
            return rows, dense[rows]
        cols = [np.asarray(indices[a:b], dtype=np.int64) for a, b in zip(lo, hi, strict=True)]
        rows = np.unique(np.concatenate(cols)) if cols else np.zeros(0, dtype=np.int64)
        out = np.zeros(len(rows), dtype=np.float32)
        for col, a, b in zip(cols, lo, hi, strict=True):
            # a token's rows are distinct, so a fancy-index add is one add a row, in order
            out[np.searchsorted(rows, col)] += np.asarray(data[a:b], dtype=np.float32)
        return rows, out

    def score_all(self, text: str) -> np.ndarray:
        """BM25 score of ``text`` against every passage, in corpus-row order, (n,) float32."""
        n = len(self.ids)
        token_ids = self.retriever.get_tokens_ids(fast_tokens(text)) if n else []
        if not token_ids:
            return np.zeros(n, dtype=np.float32)
        return np.asarray(self.retriever.get_scores_from_ids(token_ids), dtype=np.float32)

    def contributions(self, token_ids: Sequence[int], passage_ids: np.ndarray) -> np.ndarray:
        """BM25 contribution of each token to each passage, (len(token_ids), len(passage_ids)).

        Read from the precomputed score matrix (bm25s keeps it column-per-token
        with row indices sorted), by binary search of the passages' rows in each
        token's column: O(len(passage_ids) · log n) a token, so scoring a few
        hundred candidates for feedback terms costs no pass over the index.
        Unknown passage ids score 0.
        """
        pids = np.asarray(passage_ids, dtype=np.int64)
        out = np.zeros((len(token_ids), len(pids)), dtype=np.float32)
        if not len(pids) or not len(token_ids) or not len(self.ids):
            return out
        sc = self.retriever.scores
        data, indices, indptr = sc["data"], sc["indices"], sc["indptr"]
        if self._row_of is None:
            row_of = np.full(int(self.ids.max()) + 1, -1, dtype=np.int64)
            row_of[self.ids] = np.arange(len(self.ids))
            self._row_of = row_of
            self._sorted = _columns_sorted(np.asarray(indices), np.asarray(indptr))
        ok = (pids >= 0) & (pids < len(self._row_of))
        rows = np.full(len(pids), -1, dtype=np.int64)
        rows[ok] = self._row_of[pids[ok]]
        for i, t in enumerate(token_ids):
            lo, hi = int(indptr[t]), int(indptr[t + 1])
            col = indices[lo:hi]
            if not self._sorted:  # not what bm25s builds; kept correct, not fast
                j = np.flatnonzero(np.isin(col, rows))
                where = {int(r): lo + int(k) for r, k in zip(col[j], j, strict=True)}
                for c, r in enumerate(rows):
                    if int(r) in where:
                        out[i, c] = data[where[int(r)]]
                continue
            j = np.searchsorted(col, rows)
            hit = (rows >= 0) & (j < len(col))
            hit[hit] = col[j[hit]] == rows[hit]
            out[i, hit] = data[lo + j[hit]]
        return out


def _columns_sorted(indices: np.ndarray, indptr: np.ndarray) -> bool:
    """True when the row indices increase within every column of a CSC matrix."""
    if len(indices) < 2:
        return True
    starts = np.zeros(len(indices), dtype=bool)
    at = indptr[(indptr > 0) & (indptr < len(indices))]
    starts[at] = True
    return bool(np.all((np.diff(indices) > 0) | starts[1:]))


def upgrade_vocab(folder: Path) -> bool:
    """Add the memory-mapped vocabulary to a BM25 folder written without it; True if added."""
    if MappedVocab.open(folder) is not None or not (folder / "vocab.index.json").exists():
        return False
    with (folder / "vocab.index.json").open(encoding="utf-8") as fh:
        vocab = json.load(fh)
    tmp = folder / ".vocab-upgrade"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    if not MappedVocab.write(tmp, vocab):
        shutil.rmtree(tmp)
        return False
    # ids first: the keys file is what marks the vocabulary present
    (tmp / MappedVocab.IDS).replace(folder / MappedVocab.IDS)
    (tmp / MappedVocab.KEYS).replace(folder / MappedVocab.KEYS)
    tmp.rmdir()
    return True
