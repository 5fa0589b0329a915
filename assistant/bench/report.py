"""``sphere bench`` with no subcommand: every benchmark in one report.

Runs indexing (vs the raw encoder), search (plain, PAP, PAP+, aspect fusion,
the sphere retriever, as ratios to plain FAISS), the LLM backend (vs raw
llama.cpp), a large synthetic index (build time, memory, approximate recall)
and end-to-end ``sphere ask`` on the demo index. Writes the JSON to
``bench-results/<timestamp>.json`` so two runs can be compared with
``sphere bench --compare A.json B.json``.
"""

from __future__ import annotations

import json
import platform
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from assistant.bench.index import peak_rss_mb


def run_ask_bench(settings: Any, questions: list[str]) -> dict[str, Any]:
    from assistant.pipeline import Pipeline

    t = time.perf_counter()
    pipe = Pipeline.from_settings(settings, "demo")
    load = time.perf_counter() - t
    runs: list[dict[str, Any]] = []
    try:
        for q in questions:
            t = time.perf_counter()
            result = pipe.run(q)
            runs.append(
                {"question": q, "seconds": time.perf_counter() - t, "timings": result.timings}
            )
    finally:
        pipe.close()
    return {
        "load_seconds": load,
        "runs": runs,
        "mean_seconds": sum(float(r["seconds"]) for r in runs) / max(len(runs), 1),
        "peak_rss_mb": peak_rss_mb(),
    }


def run_all(
    settings: Any, *, scale_passages: int, search_sizes: tuple[int, ...], say: Any
) -> dict[str, Any]:
    from assistant.bench.index import run_index_bench
    from assistant.bench.llm import run_bench as run_llm
    from assistant.bench.scale import run_scale_bench
    from assistant.bench.search import run_bench as run_search
    from assistant.demo import DEMO_FIELDS, demo_corpus_path

    out: dict[str, Any] = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "cpu": platform.processor(),
            "cores": __import__("os").cpu_count(),
        },
    }
    say("indexing vs raw encoder (demo corpus)")
    out["index"] = run_index_bench(
        settings,
        [demo_corpus_path()],
        text_field=DEMO_FIELDS["text_field"],
        id_field=DEMO_FIELDS["id_field"],
        rounds=3,
    )
    say(f"search latency at {search_sizes}")
    out["search"] = run_search(search_sizes, progress=say)
    say("LLM backend vs raw llama.cpp")
    out["llm"] = run_llm(settings.llm.model, n_threads=settings.llm.n_threads)
    say(f"large index: {scale_passages:,} synthetic passages")
    out["scale"] = run_scale_bench(scale_passages)
    say("sphere ask on the demo index")
    out["ask"] = run_ask_bench(
        settings,
        ["Should school uniforms be mandatory?", "Is a four-day work week good for business?"],
    )
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def summary_rows(r: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [("indexing / raw encoder", f"{r['index']['ratio']:.3f}")]
    for n, s in r.get("search", {}).get("sizes", {}).items():
        for method, v in s.get("methods", {}).items():
            rows.append((f"search {n}: {method} p95 ratio to plain", f"{v['ratio_p95']:.2f}"))
        rows.append(
            (f"search {n}: PAP+ re-scored = exact", f"{s['pap_plus_rescored_identical_pct']:.0f} %")
        )
    if "llm" in r:
        rows.append(
            ("LLM tokens/s, backend / raw llama.cpp", f"{r['llm']['throughput_ratio']:.3f}")
        )
    sc = r.get("scale", {})
    if sc:
        rows.append((f"{sc['passages']:,}-passage build s", f"{sc['build_seconds']:.0f}"))
        rows.append(("approx. recall@10", f"{sc['recall@10_vs_exact']:.3f}"))
    if "ask" in r:
        rows.append(("sphere ask mean s (demo)", f"{r['ask']['mean_seconds']:.1f}"))
    rows.append(("peak RSS MB", f"{r['peak_rss_mb']:.0f}"))
    return rows


def write_result(result: dict[str, Any], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (datetime.now().strftime("%Y%m%d-%H%M%S") + ".json")
    path.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return path


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    ra, rb = dict(summary_rows(a)), dict(summary_rows(b))
    return [(k, ra.get(k, "-"), rb.get(k, "-")) for k in dict.fromkeys([*ra, *rb])]
