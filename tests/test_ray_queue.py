"""The Ray build's batch queue: sorted tasks, longest first, vectors back in reading order.

The embedder here is a stand-in with ``submit``/``result`` (control flow only);
tests/test_ray_build.py builds real indexes on a real Ray cluster.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assistant.index.build import RAY_BATCH, BuildReport, _AsyncQueue


class _Recorder:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.tasks: list[list[str]] = []

    def submit(self, texts: list[str]) -> Any:
        self.tasks.append(list(texts))
        return len(self.tasks) - 1

    def result(self, ticket: int) -> np.ndarray:
        # a "vector" that names its text: its length and its number
        return np.array([[len(t), float(t.split()[-1])] for t in self.tasks[ticket]])


def _texts(n: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(["w"] * int(rng.integers(1, 60)) + [str(i)]) for i in range(n)]


def test_vectors_come_back_in_reading_order() -> None:
    emb = _Recorder(workers=2)
    q = _AsyncQueue(emb, BuildReport("t"), 4096)
    texts = _texts(1000)
    vecs = q.result(q.submit(texts))
    assert vecs.shape == (1000, 2)
    assert vecs[:, 1].tolist() == list(range(1000))
    assert vecs[:, 0].tolist() == [len(t) for t in texts]


def test_tasks_are_sorted_by_length_and_sent_longest_first() -> None:
    emb = _Recorder(workers=2)
    q = _AsyncQueue(emb, BuildReport("t"), 4096)
    q.submit(_texts(1000))
    # cut in the length order; the last (longest) stretch is sent first
    assert [len(t) for t in emb.tasks] == [1000 - 3 * RAY_BATCH, RAY_BATCH, RAY_BATCH, RAY_BATCH]
    longest = [max(len(x) for x in t) for t in emb.tasks]
    shortest = [min(len(x) for x in t) for t in emb.tasks]
    # each task's texts are one stretch of the length order, the longest stretch first
    assert all(a >= b for a, b in zip(shortest, longest[1:], strict=False))
    assert longest == sorted(longest, reverse=True)


def test_a_small_batch_is_split_so_no_actor_idles() -> None:
    emb = _Recorder(workers=4)
    q = _AsyncQueue(emb, BuildReport("t"), 8)
    vecs = q.result(q.submit(_texts(8)))
    assert [len(t) for t in emb.tasks] == [2, 2, 2, 2]
    assert vecs[:, 1].tolist() == list(range(8))
    assert q.depth >= 2
