"""``sphere bench scale``: a real index from precomputed vectors, then search on it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from assistant.bench.scale import (
    ClusterQueryEmbedder,
    build_synthetic_index,
    exact_pap_plus_chunked,
    search_on_index,
)
from assistant.index.store import Index
from assistant.retrieval.pap import Projection


def test_scale_index_is_a_real_consistent_index(tmp_path: Path) -> None:
    folder = tmp_path / "idx" / "scale"
    r = build_synthetic_index(folder, 4000, flat_threshold=1000, chunk=1500)
    assert r["faiss"]["kind"] == "ivf" and r["passages"] == 4000
    assert set(r["stage_seconds"]) == {"faiss", "bm25", "compact"}
    index = Index.open(folder.parent, "scale")
    try:
        docs, passages = index.meta.counts()
        assert (docs, passages) == (800, 4000)
        # passages carry their cluster's topic token and words, at their offsets
        passages = index.passages([1, 2, 3, 4, 5])
        assert len(passages) == 5
        for ps in passages.values():
            topic, *words = ps.text.split()
            assert topic[0] == "t" and topic[1:].isdigit()
            assert all(w.startswith(f"w{topic[1:]}x") for w in words[:5])
            assert ps.end - ps.start == len(ps.text)
        # BM25 finds passages by topic words
        s, ids = index.search_bm25(["t7 w7x1 w7x2"], 20)
        assert (ids[0] >= 0).sum() > 0 and s[0][0] > 0
    finally:
        index.close()


def test_chunked_exact_pap_plus_matches_brute_force(tmp_path: Path) -> None:
    folder = tmp_path / "idx" / "scale"
    build_synthetic_index(folder, 3000, flat_threshold=10**9, chunk=3000)
    index = Index.open(folder.parent, "scale")
    try:
        emb = ClusterQueryEmbedder(index.meta.dim)
        q, p = emb.encode(["t3 w3x0 w3x1", "t3 against w3x4"])
        pids = np.sort(index.meta.live_rows()[0])
        brute = Projection.of(q, p).pap_plus(index.vectors(pids))
        want = pids[np.lexsort((pids, -brute))][:10]
        got = exact_pap_plus_chunked(index, chunk=700)(q, p, 10)
        # rank by rank the same passage, or one whose exact score ties it within float32
        # rounding: scoring 700 rows at a time sums in other blocks than all 3000 at once
        exact = dict(zip(pids.tolist(), brute.tolist(), strict=True))
        assert len(got) == len(want) == 10
        for g, w in zip(got.tolist(), want.tolist(), strict=True):
            assert g == w or abs(exact[g] - exact[w]) <= 1e-6
    finally:
        index.close()


def test_search_methods_on_flat_scale_index_rescore_exactly(tmp_path: Path) -> None:
    """On an exact (flat) index, candidate re-scored PAP+ must equal exact PAP+."""
    folder = tmp_path / "idx" / "scale"
    build_synthetic_index(folder, 3000, flat_threshold=10**9, chunk=3000)
    out = search_on_index(folder, queries=6, candidates=200)
    assert out["queries"] == 6
    assert out["pap_plus_rescored_identical_pct"] == 100.0
    for m in out["methods"].values():
        assert m["p50_ms"] > 0 and m["p95_ms"] >= m["p50_ms"]
