"""``sphere bench scale``: a real index from precomputed vectors, then search on it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

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
    assert set(r["stage_seconds"]) == {"faiss", "bm25", "sentences", "compact"}
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


def test_choose_spec_compressed_by_setting_or_size() -> None:
    from assistant.index.vectors import choose_spec, pq_subquantizers

    small = choose_spec(5000, flat_threshold=1000, approximate="ivfpq")
    assert small.kind == "ivf"  # too few points to train 256 codes a sub-quantizer
    spec = choose_spec(50_000, flat_threshold=1000, approximate="ivfpq")
    assert spec.kind == "ivfpq" and spec.params["pq_m"] == 48 and spec.params["rescore"] == 1024
    assert spec.params["train_size"] == min(50_000, max(64 * spec.params["nlist"], 39 * 256))
    assert "evenly spaced" in spec.params["train_sample"]
    # by size: above pq_threshold whatever approximate says; the default path is untouched
    assert choose_spec(60_000, flat_threshold=1000, pq_threshold=50_000).kind == "ivfpq"
    assert choose_spec(40_000, flat_threshold=1000, pq_threshold=50_000).kind == "ivf"
    assert choose_spec(40_000, flat_threshold=100_000, pq_threshold=1).kind == "flat"
    assert pq_subquantizers(384, 48) == 48 and pq_subquantizers(100, 48) == 25


def test_compressed_index_rescores_exactly(tmp_path: Path) -> None:
    folder = tmp_path / "idx" / "pq"
    r = build_synthetic_index(folder, 12_000, flat_threshold=1000, approximate="ivfpq")
    assert r["faiss"]["kind"] == "ivfpq"
    # 48 code bytes + an 8-byte id a passage, plus the coarse quantizer and PQ centroids
    # (~0.55 MB here, 47 bytes a passage at 12k; 0.06 at 10M)
    assert 56 <= r["faiss_bytes_per_passage"] < 110
    index = Index.open(folder.parent, "pq")
    try:
        assert index._vec_rows.dtype == np.int32
        emb = ClusterQueryEmbedder(index.meta.dim)
        q = emb.encode(["t5 w5x1", "t9 w9x2 w9x3"])
        scores, ids = index.search_dense(q, 20)
        assert (ids >= 0).all()
        for i in range(2):
            # the scores are the exact inner products with the stored vectors, best first
            exact = index.vectors(ids[i]) @ q[i]
            np.testing.assert_allclose(scores[i], exact, rtol=1e-5, atol=1e-6)
            assert (np.diff(scores[i]) <= 1e-7).all()
        info = index.info()
        assert info["faiss"]["params"]["nprobe"] == 32
    finally:
        index.close()
    from assistant.bench.scale import approximate_recall

    recall, faiss_alone = approximate_recall(folder, queries=40, raw=True)
    # 0.84 measured here (12k passages, PQ trained on 10k); 0.962 at 1M (docs/SCALE.md)
    assert recall >= 0.75 and recall > faiss_alone
    out = search_on_index(folder, queries=4, candidates=50)
    assert out["pap_plus_exact_checked"] == 4
    from assistant.bench.scale import rescore_sweep

    rows = rescore_sweep(folder, [4, 32], [16, 2048], queries=30)
    assert [(r["nprobe"], r["rescore"]) for r in rows] == [(4, 16), (4, 2048), (32, 16), (32, 2048)]
    by = {(r["nprobe"], r["rescore"]): r["recall@10"] for r in rows}
    # more candidates re-scored exactly can only find more of the exact top-10
    assert by[(32, 2048)] >= by[(32, 16)] and by[(32, 2048)] > 0.8  # 0.883 measured


def test_killed_scale_build_resumes(tmp_path: Path) -> None:
    class Killed(Exception):
        pass

    def die_after_two(stage: str, done: int, _total: int) -> None:
        if stage == "ingest" and done >= 2000:
            raise Killed

    folder = tmp_path / "idx" / "resumed"
    with pytest.raises(Killed):
        build_synthetic_index(
            folder, 4000, flat_threshold=10**9, chunk=1000, progress=die_after_two
        )
    r = build_synthetic_index(folder, 4000, flat_threshold=10**9, chunk=1000)
    whole = tmp_path / "idx" / "whole"
    build_synthetic_index(whole, 4000, flat_threshold=10**9, chunk=1000)
    assert r["passages"] == 4000
    a, b = Index.open(folder.parent, "resumed"), Index.open(whole.parent, "whole")
    try:
        assert a.meta.counts() == b.meta.counts() == (800, 4000)
        pids = np.arange(1, 4001)
        np.testing.assert_array_equal(a.vectors(pids), b.vectors(pids))
        assert a.passage_texts([1, 2500, 4000]) == b.passage_texts([1, 2500, 4000])
    finally:
        a.close()
        b.close()
    # another size in the same folder starts over instead of appending
    build_synthetic_index(folder, 3000, flat_threshold=10**9, chunk=1000)
    again = Index.open(folder.parent, "resumed")
    try:
        assert again.meta.counts() == (600, 3000)
    finally:
        again.close()


def test_sweep_needs_a_kept_index(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from assistant.cli import cli

    out = CliRunner().invoke(cli, ["bench", "scale", "--sweep", "32:256"])
    assert out.exit_code == 2 and "--sweep" in out.output
    out = CliRunner().invoke(
        cli, ["bench", "scale", "--keep", str(tmp_path), "--reuse", "--sweep", "x:y"]
    )
    assert out.exit_code == 2 and "--sweep" in out.output
