"""BM25 over passage texts with bm25s (sparse-matrix BM25, Lucene scoring)."""

from __future__ import annotations

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


class BM25Index:
    def __init__(self, retriever: Any, ids: np.ndarray) -> None:
        self.retriever = retriever
        self.ids = ids  # corpus row -> passage id

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
        np.save(tmp / "ids.npy", self.ids)
        if folder.exists():
            shutil.rmtree(folder)
        tmp.rename(folder)

    @classmethod
    def load(cls, folder: Path) -> BM25Index:
        import bm25s

        ids = np.load(folder / "ids.npy")
        retriever = bm25s.BM25.load(str(folder), mmap=False) if len(ids) else bm25s.BM25()
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
        for i, toks in enumerate(tokenize_strings(queries)):
            token_ids = self.retriever.get_tokens_ids(toks)
            if not token_ids:
                continue
            s = np.asarray(self.retriever.get_scores_from_ids(token_ids), dtype=np.float32)
            hit = np.flatnonzero(s > 0)
            if len(hit) > kk:
                hit = hit[np.argpartition(-s[hit], kk - 1)[:kk]]
            hit = hit[np.lexsort((hit, -s[hit]))]
            pids[i, : len(hit)] = self.ids[hit]
            scores[i, : len(hit)] = s[hit]
        return scores, pids
