"""``sphere bench startup``: what loading the language model costs at start-up.

Two figures, each measured with the model not loaded (``llm.use: auto`` with a
model that is not capable: no stage uses it) and loaded (``llm.use: always``),
alternating in one run so both see the same machine load:

* **app**: from starting a fresh ``python`` process to the app being usable
  on the index (the Textual app, headless, has mounted and its pipeline is
  ready: the moment a question can be answered). The child is ``python -m
  assistant.bench.startup app …``; it writes the wall-clock time of that moment.
* **ask**: the wall time of ``sphere ask QUESTION --json`` in a fresh process
  (start-up, one answer, exit). With ``always`` the question parser also calls
  the model; ``ask.understand_mean`` gives that stage's seconds per mode.

Each child's peak RSS comes from ``wait4``. The report gives the means, the
ratio loaded / not loaded and the seconds saved. No test asserts a time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from assistant.errors import SphereError

QUESTION = "Should school uniforms be mandatory?"
MODES = {"not_loaded": "auto", "loaded": "always"}


class StartupBenchError(SphereError):
    title = "Benchmark failed"


def _run_child(
    cmd: Sequence[str], env: dict[str, str], cwd: str | None = None
) -> tuple[float, float, int, str, str]:
    """(start time, seconds, peak RSS MB, stdout, stderr) of one child process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.time()
        t = time.perf_counter()
        proc = subprocess.Popen(
            list(cmd), stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd
        )
        _pid, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if code != 0:
        tail = "\n".join(stderr.strip().splitlines()[-5:])
        raise StartupBenchError(f"{' '.join(cmd[2:5])} … failed (exit {code}): {tail}")
    return start, seconds, int(usage.ru_maxrss / 1024), stdout, stderr


def _stats(values: list[float]) -> dict[str, Any]:
    return {
        "seconds": [round(v, 3) for v in values],
        "mean": round(sum(values) / max(len(values), 1), 3),
        "min": round(min(values), 3) if values else None,
    }


def run_startup_bench(
    *,
    config_path: str | None,
    index: str,
    rounds: int,
    question: str = QUESTION,
    say: Callable[[str], None] = lambda _m: None,
) -> dict[str, Any]:
    base = [sys.executable, "-m"]
    cfg = ["--config", config_path] if config_path else []
    times: dict[str, dict[str, list[float]]] = {
        part: {m: [] for m in MODES} for part in ("app", "ask")
    }
    rss: dict[str, dict[str, list[int]]] = {part: {m: [] for m in MODES} for part in ("app", "ask")}
    llm: dict[str, Any] = {}
    understand: dict[str, list[float]] = {m: [] for m in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        env_base = {
            **os.environ,
            "SPHERE_SESSION_DB": str(Path(tmp) / "sessions.db"),
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
        }
        for r in range(rounds):
            for mode, use in MODES.items():
                env = {**env_base, "SPHERE_LLM__USE": use}
                say(f"round {r + 1}/{rounds}: app, model {mode.replace('_', ' ')}")
                ready = Path(tmp) / f"ready-{r}-{mode}.json"
                start, _s, peak, _o, _e = _run_child(
                    [*base, "assistant.bench.startup", *cfg, "app", index, str(ready)], env
                )
                data = json.loads(ready.read_text(encoding="utf-8"))
                times["app"][mode].append(float(data["ready_at"]) - start)
                rss["app"][mode].append(peak)
                llm.setdefault(mode, data.get("llm", {}))
                say(f"round {r + 1}/{rounds}: sphere ask, model {mode.replace('_', ' ')}")
                # --no-log: a benchmark's answers are not the user's (and the figures
                # stay those of the answer alone, as before answers were logged)
                ask = ["ask", question, "--index", index, "--json", "--no-log"]
                _start, seconds, peak, stdout, _e = _run_child(
                    [*base, "assistant.cli", *cfg, *ask], env
                )
                answer = json.loads(stdout)
                understand[mode].append(float(answer.get("timings", {}).get("understand", 0.0)))
                loaded = bool(answer["model"].get("llm", {}).get("loaded"))
                if loaded != (mode == "loaded"):
                    raise StartupBenchError(
                        f"sphere ask with llm.use: {use} {'loaded' if loaded else 'did not load'} "
                        "the model; this benchmark needs a model that is not capable"
                    )
                times["ask"][mode].append(seconds)
                rss["ask"][mode].append(peak)
    out: dict[str, Any] = {
        "index": index,
        "rounds": rounds,
        "question": question,
        "load_before": os.getloadavg()[0],
        "model": llm.get("not_loaded", {}),
    }
    for part in ("app", "ask"):
        entry: dict[str, Any] = {}
        for mode in MODES:
            entry[mode] = {**_stats(times[part][mode]), "peak_rss_mb": max(rss[part][mode])}
        loaded, not_loaded = entry["loaded"]["mean"], entry["not_loaded"]["mean"]
        entry["ratio_loaded_to_not_loaded"] = round(loaded / max(not_loaded, 1e-9), 3)
        entry["seconds_saved"] = round(loaded - not_loaded, 3)
        entry["rss_saved_mb"] = entry["loaded"]["peak_rss_mb"] - entry["not_loaded"]["peak_rss_mb"]
        out[part] = entry
    # with llm.use: always the question parser also calls the model: that share of the
    # ask figure is the model's work, not its loading
    out["ask"]["understand_mean"] = {m: _stats(v)["mean"] for m, v in understand.items()}
    out["load_after"] = os.getloadavg()[0]
    return out


# ------------------------------------------------------------------ the app child


def _app_child(argv: list[str]) -> int:
    """``python -m assistant.bench.startup [--config F] app INDEX OUT``: time to usable."""
    config_path = None
    if argv[:1] == ["--config"]:
        config_path, argv = argv[1], argv[2:]
    if len(argv) != 3 or argv[0] != "app":
        print(
            "usage: python -m assistant.bench.startup [--config F] app INDEX OUT", file=sys.stderr
        )
        return 2
    index, out = argv[1], Path(argv[2])
    from assistant.config import load_settings
    from assistant.ui.app import SphereApp, make_app
    from assistant.ui.messages import PipelineFailed, PipelineReady

    class TimedApp(SphereApp):
        failure = ""

        def on_pipeline_ready(self, message: PipelineReady) -> None:
            super().on_pipeline_ready(message)
            ready_at = time.time()
            info = message.pipeline.model_info() if hasattr(message.pipeline, "model_info") else {}
            out.write_text(
                json.dumps({"ready_at": ready_at, "llm": info.get("llm", {})}), encoding="utf-8"
            )
            self.exit()

        def on_pipeline_failed(self, message: PipelineFailed) -> None:
            self.failure = str(message.error)
            self.exit(return_code=1)

    settings = load_settings(config_path)
    app = make_app(settings, index_name=index, use_store=False, app_class=TimedApp)
    app.run(headless=True)
    if isinstance(app, TimedApp) and app.failure:
        print(app.failure, file=sys.stderr)
        return 1
    from assistant.llm.factory import close_backends

    close_backends()
    return 0 if out.is_file() else 1


if __name__ == "__main__":  # pragma: no cover - run as a child process
    sys.exit(_app_child(sys.argv[1:]))
