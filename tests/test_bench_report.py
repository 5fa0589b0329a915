"""`sphere bench --compare` reads two saved reports and lines up their figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.bench.report import compare, summary_rows


def _report(ratio: float, sphere_p95: float) -> dict:  # type: ignore[type-arg]
    return {
        "index": {"ratio": ratio},
        "search": {
            "sizes": {
                "10000": {
                    "methods": {"plain": {"ratio_p95": 1.0}, "sphere": {"ratio_p95": sphere_p95}},
                    "pap_plus_rescored_identical_pct": 100.0,
                }
            }
        },
        "llm": {"throughput_ratio": 1.01},
        "scale": {"passages": 1000, "build_seconds": 3.0, "recall@10_vs_exact": 0.99},
        "ask": {"mean_seconds": 4.2},
        "peak_rss_mb": 900.0,
    }


def test_summary_rows_and_compare(tmp_path: Path) -> None:
    rows = dict(summary_rows(_report(0.95, 1.3)))
    assert rows["indexing / raw encoder"] == "0.950"
    assert rows["search 10000: sphere p95 ratio to plain"] == "1.30"
    assert rows["approx. recall@10"] == "0.990"
    table = {name: (a, b) for name, a, b in compare(_report(0.95, 1.3), _report(0.91, 1.4))}
    assert table["indexing / raw encoder"] == ("0.950", "0.910")


def test_compare_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_report(0.95, 1.3)))
    b.write_text(json.dumps(_report(0.91, 1.4)))
    main(["bench", "--compare", str(a), str(b)])
    out = capsys.readouterr().out
    assert "indexing / raw encoder" in out and "0.910" in out
