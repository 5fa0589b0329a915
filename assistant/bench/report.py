"""``sphere bench`` with no subcommand: every benchmark in one report.

Runs, each in a child process of its own (``python -m assistant.cli bench PART
--json``) so that every part's peak RSS is its own (``os.wait4``'s
``ru_maxrss`` of that child) and one part's memory cannot inflate the next:
indexing (vs the raw encoder), search (plain, PAP, PAP+, aspect fusion, the
sphere retriever, as ratios to plain FAISS at 10k and 100k passages), the LLM
backend (vs raw llama.cpp), a large synthetic index (build time, memory,
approximate recall, and the same search methods on it), end-to-end
``sphere ask`` on the demo index (and follow-ups on it: a constraint, a page),
and start-up with the language model loaded and not loaded (``bench startup``).
Writes the JSON to
``bench-results/<timestamp>.json`` so two runs can be compared with
``sphere bench --compare A.json B.json``.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from assistant.bench.index import peak_rss_mb
from assistant.errors import SphereError

ASK_QUESTIONS = (
    "Should school uniforms be mandatory?",
    "Is a four-day work week good for business?",
)


def run_ask_bench(settings: Any, questions: Sequence[str], index: str = "demo") -> dict[str, Any]:
    """Each question answered with the stance model and without it, in one process,
    after one untimed answer (``warmup_seconds``) that pays the first answer's one-off
    costs.

    The two runs of a question alternate (without first), the stance cache is
    cleared before every run with it, so its cost is paid in full each time,
    and the pipeline's sentence vectors before every run, so that the run with
    the stance model does not reuse the summarizer's work of the run without;
    ``stance_ratio`` is mean seconds with / without, ``stance_seconds`` the
    time inside the stance network.
    """
    from assistant.pipeline import Pipeline

    t = time.perf_counter()
    pipe = Pipeline.from_settings(settings, index)
    load = time.perf_counter() - t
    stance = pipe.stance
    runs: list[dict[str, Any]] = []
    plain: list[dict[str, Any]] = []
    warmup = 0.0
    try:
        # one untimed answer first (the stance model on): the one-off costs of a first
        # answer (the lazy embedder and stance model, the index's first reads, torch's
        # first kernels) otherwise land in the first timed run, the one without the
        # stance model, and understate what the stance model adds
        if questions:
            t = time.perf_counter()
            pipe.run(questions[0])
            warmup = time.perf_counter() - t
        for q in questions:
            for with_stance in (False, True) if stance is not None else (False,):
                pipe.stance = pipe.retriever.stance = stance if with_stance else None
                spent = 0.0
                pipe._sentence_cache.clear()  # each run embeds its sentences, as a new question
                if stance is not None:
                    stance.clear_cache()
                    spent = stance.seconds
                t = time.perf_counter()
                result = pipe.run(q)
                row = {
                    "question": q,
                    "seconds": time.perf_counter() - t,
                    "timings": result.timings,
                }
                if with_stance:
                    row["stance_seconds"] = round(stance.seconds - spent, 4)
                (runs if with_stance or stance is None else plain).append(row)
    finally:
        pipe.stance = pipe.retriever.stance = stance
        pipe.close()

    def mean(rows: list[dict[str, Any]]) -> float:
        return sum(float(r["seconds"]) for r in rows) / max(len(rows), 1)

    def median(rows: list[dict[str, Any]]) -> float:
        return statistics.median(float(r["seconds"]) for r in rows) if rows else 0.0

    out = {
        "index": index,
        "load_seconds": load,
        "warmup_seconds": warmup,
        "runs": runs,
        "mean_seconds": mean(runs),
        "median_seconds": median(runs),
        "peak_rss_mb": peak_rss_mb(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if stance is not None:
        out["runs_without_stance"] = plain
        out["mean_seconds_without_stance"] = mean(plain)
        out["median_seconds_without_stance"] = median(plain)
        out["stance_ratio"] = round(mean(runs) / max(mean(plain), 1e-9), 3)
        out["stance_added_seconds"] = round(mean(runs) - mean(plain), 3)
    return out


def run_ask_against(
    settings: Any, questions: Sequence[str], index: str, against: str
) -> dict[str, Any]:
    """The same questions on ``index`` and then on ``against`` (a reference index, e.g.
    the demo), in one process and one run, so that both see the same machine load;
    ``ratio_median``/``ratio_mean`` are ``index`` seconds over ``against`` seconds."""
    load_start = [round(x, 2) for x in os.getloadavg()]
    result = run_ask_bench(settings, questions, index)
    ref = run_ask_bench(settings, questions, against)
    result["against"] = ref
    result["ratio_median"] = round(result["median_seconds"] / max(ref["median_seconds"], 1e-9), 3)
    result["ratio_mean"] = round(result["mean_seconds"] / max(ref["mean_seconds"], 1e-9), 3)
    result["load_average_start"] = load_start
    return result


def ask_lines(result: dict[str, Any]) -> list[str]:
    """The text report of :func:`run_ask_bench` (and of its ``against`` run)."""
    lines = [f"index {result['index']}: load {result['load_seconds']:.1f} s"]
    lines += [f"{r['seconds']:6.1f} s  {r['question']}" for r in result["runs"]]
    lines.append(
        f"median {result['median_seconds']:.2f} s, mean {result['mean_seconds']:.2f} s, "
        f"peak RSS {result['peak_rss_mb']:.0f} MB, load average {result['load_average']}"
    )
    if "stance_ratio" in result:
        lines.append(
            f"without the stance model {result['mean_seconds_without_stance']:.1f} s "
            f"(with / without {result['stance_ratio']:.2f}, "
            f"+{result['stance_added_seconds']:.2f} s)"
        )
    if "against" in result:
        lines += ask_lines(result["against"])
        lines.append(
            f"{result['index']} / {result['against']['index']}: median "
            f"{result['ratio_median']:.2f}, mean {result['ratio_mean']:.2f} "
            f"(load average at the start {result['load_average_start']})"
        )
    return lines


class BenchPartError(SphereError):
    """A benchmark child process failed."""


def run_part(args: Sequence[str], *, config_path: str | None = None) -> dict[str, Any]:
    """``sphere bench ARGS --json`` in a child process; its JSON plus ``process`` figures.

    ``process.peak_rss_mb`` is the child's own peak resident set (``wait4``).
    """
    cmd = [sys.executable, "-m", "assistant.cli"]
    if config_path:
        cmd += ["--config", config_path]
    cmd += ["bench", *args, "--json"]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-5:])
        raise BenchPartError(f"'sphere bench {args[0]}' failed (exit {proc.returncode}): {tail}")
    try:
        result: dict[str, Any] = json.loads(stdout)
    except ValueError:
        raise BenchPartError(f"'sphere bench {args[0]}' printed no JSON") from None
    result["process"] = {"peak_rss_mb": usage.ru_maxrss / 1024, "seconds": round(wall, 1)}
    return result


def run_all(
    *,
    scale_passages: int,
    search_sizes: tuple[int, ...],
    say: Callable[[str], None],
    config_path: str | None = None,
    part: Callable[..., dict[str, Any]] = run_part,
) -> dict[str, Any]:
    from assistant.demo import DEMO_FIELDS, demo_corpus_path

    out: dict[str, Any] = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "cpu": platform.processor(),
            "cores": os.cpu_count(),
            "load_before": os.getloadavg()[0],
        },
    }
    steps: list[tuple[str, str, list[str]]] = [
        (
            "index",
            "indexing vs raw encoder (demo corpus)",
            [
                "index",
                str(demo_corpus_path()),
                "--text-field",
                DEMO_FIELDS["text_field"],
                "--id-field",
                DEMO_FIELDS["id_field"],
                "--rounds",
                "3",
            ],
        ),
        (
            "search",
            f"search latency at {', '.join(map(str, search_sizes))} passages",
            ["search", "--sizes", ",".join(map(str, search_sizes))],
        ),
        ("llm", "LLM backend vs raw llama.cpp", ["llm"]),
        (
            "scale",
            f"large index: {scale_passages:,} synthetic passages, then search on it",
            ["scale", "--passages", str(scale_passages)],
        ),
        ("ask", "sphere ask on the demo index", ["ask"]),
        ("startup", "start-up and sphere ask, language model loaded vs not", ["startup"]),
    ]
    for key, label, args in steps:
        say(label)
        out[key] = part(args, config_path=config_path)
    out["peak_rss_mb"] = max(float(out[k]["process"]["peak_rss_mb"]) for k, _l, _a in steps)
    out["machine"]["load_after"] = os.getloadavg()[0]
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
        n = sc["passages"]
        rows.append((f"{n:,}-passage build s", f"{sc['build_seconds']:.0f}"))
        rows.append(("approx. recall@10", f"{sc['recall@10_vs_exact']:.3f}"))
        for method, v in sc.get("search", {}).get("methods", {}).items():
            name = f"search {n} ({sc['faiss']['kind']}): {method} p95 ms"
            rows.append((name, f"{v['p95_ms']:.2f}"))
    if "ask" in r:
        rows.append(("sphere ask mean s (demo)", f"{r['ask']['mean_seconds']:.1f}"))
        fu = r["ask"].get("followups")
        for s in fu["followups"] if fu else []:
            rows.append((f"follow-up s, {s['label']} (demo, no model)", f"{s['seconds']:.2f}"))
            rows.append((f"follow-up / first answer, {s['label']}", f"{s['ratio_to_first']:.2f}"))
    for part, label in (("app", "app usable"), ("ask", "fresh sphere ask")):
        e = r.get("startup", {}).get(part)
        if e:
            rows.append((f"{label} s, model not loaded / loaded", _pair(e, "not_loaded", "loaded")))
    for key in ("index", "search", "llm", "scale", "ask", "startup"):
        rss = r.get(key, {}).get("process", {}).get("peak_rss_mb")
        if rss is not None:
            rows.append((f"peak RSS MB: {key}", f"{rss:.0f}"))
    rows.append(("peak RSS MB", f"{r['peak_rss_mb']:.0f}"))
    return rows


def _pair(e: dict[str, Any], a: str, b: str) -> str:
    return f"{e[a]['mean']:.1f} / {e[b]['mean']:.1f}"


def write_result(result: dict[str, Any], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (datetime.now().strftime("%Y%m%d-%H%M%S") + ".json")
    path.write_text(json.dumps(result, indent=2), encoding="utf-8")
    return path


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, str]]:
    ra, rb = dict(summary_rows(a)), dict(summary_rows(b))
    return [(k, ra.get(k, "-"), rb.get(k, "-")) for k in dict.fromkeys([*ra, *rb])]
