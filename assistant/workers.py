"""Threads that each run torch on one intra-op thread, for whole batches.

Used by the stance model (:mod:`assistant.stance.net`) and the embedder's
per-document batches (:meth:`assistant.embed.SentenceTransformerEmbedder.encode_groups`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import torch

MAX_WORKERS = 8  # threads running batches: beyond this, batches get too small to pay


def usable_cpus() -> int:
    """Cores this process may run on (its affinity mask where the OS has one).

    Not ``torch.get_num_threads()``: torch and FAISS share one OpenMP runtime,
    and an opened index sets FAISS, so torch, to one thread for its queries.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """torch on ``n`` threads in this thread for the block (if torch is loaded), then back.

    For work that should use every core in the calling thread, such as a local
    index build's ``encode`` calls: a process that opened an index first has
    torch on one thread (:func:`assistant.index.store._single_thread_search`),
    and threads it starts later inherit that.
    """
    torch_mod = sys.modules.get("torch")
    if torch_mod is None:
        yield
        return
    before = torch_mod.get_num_threads()
    if before == n:
        yield
        return
    torch_mod.set_num_threads(n)
    try:
        yield
    finally:
        torch_mod.set_num_threads(before)


def worker_count() -> int:
    """Threads for a :class:`Workers` pool on this machine (0: run in the caller)."""
    n = min(usable_cpus(), MAX_WORKERS)
    return n if n > 1 else 0


_shared: Workers | None = None
_shared_lock = threading.Lock()


def shared_workers() -> Workers | None:
    """The process's pool, started on first use (``None`` on one core: run in the caller).

    One pool serves every user (the stance model, the embedder's per-document
    batches); its threads take whole batches from a queue, so callers in several
    threads share it safely. A closed pool is replaced by a new one.
    """
    global _shared
    n = worker_count()
    if not n:
        return None
    with _shared_lock:
        if _shared is None or _shared.closed:
            _shared = Workers(n)
        return _shared


class Workers:
    """``n`` threads that each run torch on one intra-op thread, for whole batches.

    On a busy machine intra-op threads wait at every operator for a sibling the
    scheduler has parked (170 demo pairs, 2 cores at load 4: 2.9 s with 2
    intra-op threads, 1.9 s with 1, 1.5 s with 2 of these workers); a batch per
    thread meets no such barrier, and each batch's result depends only on its
    own inputs, never on which thread ran it.
    """

    def __init__(self, n: int) -> None:
        import torch

        self.n = max(1, n)
        self.closed = False
        before = torch.get_num_threads()
        ready = threading.Barrier(self.n + 1)

        def one_thread() -> None:
            torch.set_num_threads(1)
            torch.get_num_threads()  # this thread's count is settled now
            ready.wait()

        self.pool = ThreadPoolExecutor(self.n, "torch-worker", initializer=one_thread)
        for _ in range(self.n):
            self.pool.submit(lambda: None)
        ready.wait()
        # set_num_threads also sets the default of threads started later: restore it
        torch.set_num_threads(before)

    def map(self, fn: Callable[[Any], torch.Tensor], items: Sequence[Any]) -> list[torch.Tensor]:
        return list(self.pool.map(fn, items))

    def close(self) -> None:
        self.closed = True
        self.pool.shutdown(wait=False)


# A forward pass costs about as much as this many more padded tokens (Python and
# per-operator start-up): the batch split trades a little padding for fewer
# passes. On 2 cores, 170 demo pairs: 32 and 64 fastest, 0 (37 batches) and 256
# (4 batches, 7 % more padding) slower.
BATCH_OVERHEAD_TOKENS = 64


def length_batches(lengths: Sequence[int], max_size: int, overhead: int) -> list[tuple[int, int]]:
    """Cut ``lengths`` (sorted ascending) into runs ``[start, end)`` of at most
    ``max_size``, each padded to its own longest, minimising padded tokens +
    ``overhead`` per run (exact, by dynamic programming over the cut points)."""
    n = len(lengths)
    if not n:
        return []
    ln = np.asarray(lengths, np.int64)
    cost = np.zeros(n + 1, np.int64)
    cut = np.zeros(n + 1, np.int64)
    for end in range(1, n + 1):
        starts = np.arange(max(0, end - max_size), end)
        c = cost[starts] + ln[end - 1] * (end - starts) + overhead
        j = int(np.argmin(c))
        cost[end], cut[end] = c[j], starts[j]
    runs: list[tuple[int, int]] = []
    end = n
    while end:
        runs.append((int(cut[end]), end))
        end = int(cut[end])
    return runs[::-1]
