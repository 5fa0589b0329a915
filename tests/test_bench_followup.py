"""``sphere bench ask``: follow-up timings on the real demo index (no timed assertions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.bench.followup import followup_lines
from assistant.bench.report import summary_rows
from assistant.cli import main


def test_bench_ask_times_follow_ups_against_the_first_answer(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    main(["bench", "ask", "--json", "--followup-rounds", "2"])
    out = json.loads(capsys.readouterr().out)
    fu = out["followups"]
    assert fu["llm"] == "never" and fu["stance"] == "off" and fu["rounds"] == 2
    assert fu["first"]["question"] == "Should school uniforms be mandatory?"
    assert len(fu["first"]["runs"]) == 2 and fu["first"]["seconds"] > 0
    assert [(s["label"], s["edit"], s["changes"]) for s in fu["followups"]] == [
        ("constraint", "add_constraint", ["+ constraint language es"]),
        ("page", "more", ["+ page both"]),
    ]
    for s in fu["followups"]:
        assert len(s["runs"]) == 2 and min(s["runs"]) <= s["seconds"] <= max(s["runs"])
        # the ratio is of the unrounded seconds: equal to the rounded ones' within rounding
        assert s["ratio_to_first"] == pytest.approx(s["seconds"] / fu["first"]["seconds"], abs=2e-3)
        assert s["under_target"] == (s["seconds"] < fu["target_seconds"])
        assert s["timings"]["understand"] < s["timings"]["total"]  # no question parsing
    assert fu["followups"][1]["cited"] > 0  # the page found more documents
    for key in ("load_average_before", "load_average_after"):
        assert len(fu[key]) == 3 and all(x >= 0 for x in fu[key])

    lines = followup_lines(fu)
    assert "load average" in lines[0] and "no language model" in lines[0]
    assert "first question: Should school uniforms be mandatory?" in lines[1]
    assert "constraint: only documents in Spanish (+ constraint language es)" in lines[2]
    assert f"×{fu['followups'][1]['ratio_to_first']:.2f}" in lines[3]

    rows = dict(summary_rows({"ask": out, "peak_rss_mb": 1.0, "index": {"ratio": 1.0}}))
    assert rows["follow-up s, page (demo, no model)"] == f"{fu['followups'][1]['seconds']:.2f}"
    assert rows["follow-up / first answer, constraint"] == (
        f"{fu['followups'][0]['ratio_to_first']:.2f}"
    )


def test_a_follow_up_read_as_something_else_stops_the_bench(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assistant.bench.followup import run_followup_bench
    from assistant.config import load_settings
    from assistant.errors import SphereError

    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    with pytest.raises(SphereError, match="was read as new_topic, not more"):
        run_followup_bench(
            load_settings(), follow_ups=[("Is nuclear power safe?", "more", "page")], rounds=1
        )
