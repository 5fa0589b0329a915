"""The Ray build's throughput against the local build (``sphere bench scale --ray-workers``).

The same corpus is indexed from nothing by the local build (the embedder in
the build's process, all cores) and by Ray builds with each worker count
(a local Ray instance, one embedder per actor), alternating rounds so drift
in machine load hits every variant. Models are loaded and warmed before the
clock starts (a build pays for its model once, not per batch); the ratio of
median build times is reported: ``ratio_to_local`` = Ray passages/s ÷ local
passages/s. Every Ray build is also checked to equal the local build (same
passages in the same order, vectors within float tolerance).

The default corpus is the bundled demo corpus, repeated with new ids until it
has ``passages`` passages (its texts are short: one passage a document).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


def repeated_demo_corpus(folder: Path, passages: int) -> Path:
    """The demo corpus repeated (ids and a copy number changed) to ``passages`` records."""
    from assistant.demo import demo_corpus_path

    records = [
        json.loads(line)
        for line in demo_corpus_path().read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    out = folder / "corpus.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for i in range(passages):
            r = dict(records[i % len(records)])
            copy = i // len(records)
            r["id"] = f"{r.get('id', i)}-c{copy}"
            r["text"] = f"{r['text']} (copy {copy})"
            fh.write(json.dumps(r) + "\n")
    return out


def _index_arrays(folder: Path) -> tuple[list[tuple[str, int, str]], np.ndarray]:
    from assistant.index.meta import MetaStore

    meta = MetaStore(folder, readonly=True)
    try:
        rows = meta.db.execute(
            "SELECT d.doc_id, p.ordinal, p.text FROM passages p "
            "JOIN documents d ON d.row = p.doc_row ORDER BY p.passage_id"
        ).fetchall()
        _pids, vec_rows, _ = meta.live_rows()
        vecs = np.asarray(meta.vectors_memmap()[vec_rows])
    finally:
        meta.close()
    return [tuple(r) for r in rows], vecs


def run_ray_build_bench(
    settings: Any,
    paths: list[Path] | None,
    workers: list[int],
    *,
    rounds: int = 2,
    passages: int = 1024,
) -> dict[str, Any]:
    from assistant.embed import embedder_from_settings
    from assistant.index.build import BuildOptions, build_index
    from assistant.index.distributed import RayEmbedder, import_ray

    ray = import_ray()
    options = BuildOptions(
        max_words=settings.chunking.max_words,
        overlap_words=settings.chunking.overlap_words,
        rebuild=True,
    )
    with tempfile.TemporaryDirectory(prefix="sphere-raybench-") as tmp:
        root = Path(tmp)
        targets = paths or [repeated_demo_corpus(root, passages)]
        local = embedder_from_settings(settings)
        local.encode(["warm-up"] * 64)
        times: dict[str, list[float]] = {"local": [], **{f"ray{w}": [] for w in workers}}
        counts: dict[str, int] = {}
        reference: tuple[list[Any], np.ndarray] | None = None
        equal: dict[str, bool] = {}
        max_diff: dict[str, float] = {}
        for _ in range(rounds):
            t = time.perf_counter()
            rep = build_index(root / "idx", "local", targets, local, options)
            times["local"].append(time.perf_counter() - t)
            counts["local"] = rep.passages
            if reference is None:
                reference = _index_arrays(root / "idx" / "local")
            for w in workers:
                emb = RayEmbedder(settings, "", w)
                try:
                    emb.pids()  # actors up
                    for ref in [emb.submit(["warm-up"] * 64) for _ in range(w)]:
                        emb.result(ref)
                    t = time.perf_counter()
                    rep = build_index(root / "idx", f"ray{w}", targets, emb, options)
                    times[f"ray{w}"].append(time.perf_counter() - t)
                finally:
                    emb.close()
                    if ray.is_initialized():
                        ray.shutdown()
                texts, vecs = _index_arrays(root / "idx" / f"ray{w}")
                same = texts == reference[0] and vecs.shape == reference[1].shape
                diff = float(np.abs(vecs - reference[1]).max()) if same else float("inf")
                equal[f"ray{w}"] = bool(same and diff <= 1e-4)
                max_diff[f"ray{w}"] = diff
        n = counts["local"]
        local_s = statistics.median(times["local"])
        out: dict[str, Any] = {
            "passages": n,
            "rounds": rounds,
            "local_seconds": local_s,
            "local_passages_per_s": n / local_s,
            "workers": {},
        }
        for w in workers:
            sec = statistics.median(times[f"ray{w}"])
            out["workers"][str(w)] = {
                "seconds": sec,
                "passages_per_s": n / sec,
                "ratio_to_local": local_s / sec,
                "same_index_as_local": equal[f"ray{w}"],
                "max_abs_vector_diff": max_diff[f"ray{w}"],
            }
        out["runs"] = times
        return out
