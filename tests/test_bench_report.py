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
        "startup": {
            "app": {"not_loaded": {"mean": 6.7}, "loaded": {"mean": 12.4}},
            "ask": {"not_loaded": {"mean": 13.9}, "loaded": {"mean": 21.4}},
        },
        "peak_rss_mb": 900.0,
    }


def test_summary_rows_and_compare(tmp_path: Path) -> None:
    rows = dict(summary_rows(_report(0.95, 1.3)))
    assert rows["indexing / raw encoder"] == "0.950"
    assert rows["search 10000: sphere p95 ratio to plain"] == "1.30"
    assert rows["approx. recall@10"] == "0.990"
    assert rows["app usable s, model not loaded / loaded"] == "6.7 / 12.4"
    assert rows["fresh sphere ask s, model not loaded / loaded"] == "13.9 / 21.4"
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


def test_run_all_runs_every_part_and_keeps_each_peak_rss() -> None:
    from assistant.bench.report import run_all

    calls: list[list[str]] = []

    def fake_part(args: list[str], *, config_path: str | None = None) -> dict:  # type: ignore[type-arg]
        calls.append(list(args))
        rss = {
            "index": 700.0,
            "search": 900.0,
            "llm": 400.0,
            "scale": 4000.0,
            "ask": 1200.0,
            "startup": 100.0,
        }
        return {"process": {"peak_rss_mb": rss[args[0]], "seconds": 1.0}}

    said: list[str] = []
    out = run_all(scale_passages=5000, search_sizes=(1000, 2000), say=said.append, part=fake_part)
    assert [c[0] for c in calls] == ["index", "search", "llm", "scale", "ask", "startup"]
    assert calls[1][1:] == ["--sizes", "1000,2000"]
    assert calls[3][1:] == ["--passages", "5000"]
    assert out["peak_rss_mb"] == 4000.0  # the largest child, not a sum or the parent's
    assert len(said) == 6


@pytest.mark.slow
def test_run_part_measures_a_real_child_process() -> None:
    """A real ``sphere bench scale`` child: JSON back, its own peak RSS, search on IVF."""
    from assistant.bench.report import run_part

    r = run_part(
        ["scale", "--passages", "3000", "--flat-threshold", "1000", "--search-queries", "4"]
    )
    assert r["passages"] == 3000
    assert r["faiss"]["kind"] == "ivf"
    assert 0.5 <= r["recall@10_vs_exact"] <= 1.0
    assert set(r["search"]["methods"]) == {"plain", "pap", "pap_plus", "aspect_fusion", "sphere"}
    assert r["search"]["queries"] == 4
    # the child's own high-water mark: a Python with numpy and FAISS loaded, well under 4 GB
    assert 50 < r["process"]["peak_rss_mb"] < 4000


def test_run_part_reports_a_failing_child() -> None:
    from assistant.bench.report import BenchPartError, run_part

    with pytest.raises(BenchPartError, match=r"bench scale.*exit 2"):
        run_part(["scale", "--passages", "5"])  # below the minimum of 1000


def _ask_result(index: str, seconds: list[float]) -> dict:  # type: ignore[type-arg]
    runs = [{"question": f"q{i}", "seconds": s} for i, s in enumerate(seconds)]
    return {
        "index": index,
        "load_seconds": 1.0,
        "runs": runs,
        "mean_seconds": sum(seconds) / len(seconds),
        "median_seconds": sorted(seconds)[len(seconds) // 2],
        "peak_rss_mb": 100.0,
        "load_average": [1.0, 1.0, 1.0],
    }


def test_bench_ask_against_a_reference_index(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.bench import report
    from assistant.cli import main

    asked: list[tuple[str, list[str]]] = []
    seconds = {"real": [3.0, 6.0, 9.0], "demo": [1.0, 2.0, 4.0]}

    def fake(settings: object, questions: list[str], index: str = "demo") -> dict:  # type: ignore[type-arg]
        asked.append((index, list(questions)))
        return _ask_result(index, seconds[index])

    monkeypatch.setattr(report, "run_ask_bench", fake)
    args = ["bench", "ask", "--index", "real", "--against", "demo", "--followup-rounds", "0"]
    main([*args, "--question", "Is A good?", "--question", "Is B bad?", "--json"])
    out = json.loads(capsys.readouterr().out)
    # the same questions on both indexes, the index first
    assert asked == [("real", ["Is A good?", "Is B bad?"]), ("demo", ["Is A good?", "Is B bad?"])]
    assert out["ratio_median"] == 3.0 and out["against"]["index"] == "demo"
    assert out["ratio_mean"] == round(6.0 / (7.0 / 3), 3)
    main(args)
    text = capsys.readouterr().out
    assert "real / demo: median 3.00" in text and "index demo" in text
    with pytest.raises(SystemExit) as exc:
        main([*args, "--question", " "])
    assert exc.value.code == 2


def test_bench_ask_times_no_first_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first answer of a process pays one-off costs (lazy models, first reads):
    it is run untimed, with the stance model, before the timed pairs, so they do not
    land in the first timed run (the one without the stance model)."""
    from assistant import pipeline
    from assistant.bench.report import run_ask_bench

    calls: list[tuple[str, bool]] = []

    class Stance:
        seconds = 0.0

        def clear_cache(self) -> None:
            pass

    class Retriever:
        stance: object = None

    class Pipe:
        def __init__(self) -> None:
            self.stance: object = Stance()
            self.retriever = Retriever()
            self._sentence_cache: dict[str, object] = {}

        def run(self, q: str) -> object:
            calls.append((q, self.stance is not None))
            return type("R", (), {"timings": {}})()

        def close(self) -> None:
            pass

    monkeypatch.setattr(pipeline.Pipeline, "from_settings", classmethod(lambda cls, s, i: Pipe()))
    out = run_ask_bench(object(), ["Is A good?", "Is B bad?"])
    assert calls[0] == ("Is A good?", True)  # the untimed first answer
    assert calls[1:] == [
        ("Is A good?", False),
        ("Is A good?", True),
        ("Is B bad?", False),
        ("Is B bad?", True),
    ]
    assert len(out["runs"]) == len(out["runs_without_stance"]) == 2
    assert out["warmup_seconds"] >= 0.0
