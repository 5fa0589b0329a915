"""A local build embeds on every core, even after the process opened an index.

Opening an index sets FAISS, and with it torch, to one thread for its queries
(``store._single_thread_search``), and threads started later inherit that; a
build in the same process (a test, an evaluation harness, a thread of the app)
must not run at half speed because of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch

from assistant.index import BuildOptions, build_index
from assistant.index.store import Index
from assistant.workers import usable_cpus


class _Spy:
    """The real embedder, recording torch's thread count in each ``encode`` call."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.name = real.name
        self.dim = real.dim
        self.threads: list[int] = []

    def encode(self, texts: Any, **kw: Any) -> Any:
        self.threads.append(torch.get_num_threads())
        return self.real.encode(texts, **kw)


def test_a_build_after_an_opened_index_uses_every_core(
    demo_index_dir: Path, embedder: Any, tmp_path: Path
) -> None:
    if usable_cpus() < 2:
        pytest.skip("one core")
    before = torch.get_num_threads()
    index = Index.open(demo_index_dir, "demo")
    try:
        assert torch.get_num_threads() == 1  # the queries' setting
        corpus = tmp_path / "c.jsonl"
        corpus.write_text(
            "\n".join(
                json.dumps({"id": f"d{i}", "text": f"Passage {i} about tea."}) for i in range(5)
            ),
            encoding="utf-8",
        )
        spy = _Spy(embedder)
        report = build_index(tmp_path / "idx", "t", [corpus], spy, BuildOptions())
        assert report.passages == 5
        assert spy.threads and all(n == usable_cpus() for n in spy.threads)
    finally:
        index.close()
        torch.set_num_threads(before)
