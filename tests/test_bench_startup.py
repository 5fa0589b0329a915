"""`sphere bench startup`: the app and `sphere ask` with the model loaded and not.

Only the report's shape and what was loaded are checked; times are never asserted.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.slow
def test_startup_bench_runs_both_modes(demo_index_dir: Path, tmp_path: Path) -> None:
    from assistant.bench.startup import run_startup_bench

    cfg = tmp_path / "config.yaml"
    cfg.write_text(f"index_dir: {demo_index_dir}\nllm:\n  n_ctx: 1024\n", encoding="utf-8")
    said: list[str] = []
    r = run_startup_bench(config_path=str(cfg), index="demo", rounds=1, say=said.append)
    assert r["model"]["loaded"] is False and r["model"]["model"] == "bundled"
    for part in ("app", "ask"):
        e = r[part]
        for mode in ("not_loaded", "loaded"):
            assert len(e[mode]["seconds"]) == 1 and e[mode]["mean"] > 0
            assert e[mode]["peak_rss_mb"] > 0
        assert e["ratio_loaded_to_not_loaded"] > 0
    assert set(r["ask"]["understand_mean"]) == {"not_loaded", "loaded"}
    assert len(said) == 4
