"""``sphere eval lookup``: Recipe-MPR through the product's path, on small slices.

A tiny file in Recipe-MPR's format (written here) keeps the default run fast;
the slow test runs the real dev file's first queries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.config import Settings
from assistant.eval.lookup import METHODS, parser_counts, run_lookup_eval, score
from assistant.eval.mpr import load_mpr
from assistant.models import QueryPlan

RECORDS = [
    {
        "query": "I want a warm soup with oysters",
        "query_type": {"Specific": 1, "Negated": 0},
        "options": {
            "o1": "Simple creamy oyster soup",
            "o2": "Seasoned crackers shaped like oysters",
            "o3": "Cold cucumber soup with dill",
            "o4": "Creamy clam chowder made with whole milk",
            "o5": "Grilled beef steak with pepper sauce",
        },
        "answer": "o1",
        "correctness_explanation": {"warm soup": "soup", "oysters": "oyster"},
    },
    {
        "query": "Can I have roasted fish with lemon?",
        "query_type": {"Specific": 1, "Negated": 0},
        "options": {
            "f1": "Salmon roasted with lemon and dill",
            "f2": "Fried fish with chips",
            "f3": "Lemon tart with meringue",
            "f4": "Roasted vegetables with garlic",
            "o3": "Cold cucumber soup with dill",
        },
        "answer": "f1",
        "correctness_explanation": {"roasted": "roasted", "fish": "salmon", "lemon": "lemon"},
    },
    {
        "query": "A pasta dish without meat",
        "query_type": {"Specific": 0, "Negated": 1},
        "options": {
            "p1": "Spaghetti with tomato and basil, vegetarian",
            "p2": "Lasagna with beef and pork",
            "p3": "Penne with chicken and cream",
            "p4": "Rice salad with tuna",
            "o5": "Grilled beef steak with pepper sauce",
        },
        "answer": "p1",
        "correctness_explanation": {"pasta dish": "spaghetti", "without meat": "vegetarian"},
    },
]


@pytest.fixture()
def mpr_file(tmp_path: Path) -> Path:
    path = tmp_path / "mini-mpr.json"
    path.write_text(json.dumps(RECORDS), encoding="utf-8")
    return path


def _settings(tmp_path: Path) -> Settings:
    return Settings.model_validate(
        {"cache_dir": str(tmp_path / "cache"), "index_dir": str(tmp_path / "idx")}
    )


def test_score_by_hand() -> None:
    runs = [["a", "g", "b"], ["g"], ["x"] * 10 + ["g"]]
    # AP@10 = 1/2, 1, 0 (rank 11) -> 0.5; Recall@10 = 1, 1, 0 -> 0.6667
    assert score(runs, ["g", "g", "g"]) == {"map@10": 0.5, "recall@10": 0.6667}


def test_parser_counts() -> None:
    def plan(intent: str, *aspects: str) -> QueryPlan:
        from assistant.models import Aspect

        return QueryPlan("q", "q", aspects=[Aspect(a) for a in aspects], intent=intent)  # type: ignore[arg-type]

    counts = parser_counts(
        [plan("lookup", "a", "b"), plan("lookup", "a"), plan("two_sided", "a", "b", "c")]
    )
    assert counts == {
        "queries": 3,
        "lookup": 2,
        "lookup_2plus_aspects": 1,
        "2plus_aspects": 2,
        "intents": {"lookup": 2, "two_sided": 1},
    }


def test_eval_lookup_runs_on_a_small_slice(
    mpr_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from assistant.cli import main

    monkeypatch.setenv("SPHERE_CACHE_DIR", str(tmp_path / "cache"))
    main(["eval", "lookup", "--data", str(mpr_file), "--no-reference", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["benchmark"] == "lookup"
    assert set(out["methods"]) == set(METHODS)
    for figures in out["methods"].values():
        assert set(figures) == {"map@10", "recall@10"}
        assert 0.0 <= figures["map@10"] <= figures["recall@10"] <= 1.0
    parsed = out["parser"]
    assert parsed["queries"] == 3 == out["config"]["queries"]
    assert 0 <= parsed["lookup_2plus_aspects"] <= parsed["lookup"] <= 3
    assert sum(parsed["intents"].values()) == 3
    assert set(out["tasks"]) == {"Specific", "Negated"}
    assert out["config"]["items"] == 13  # distinct option ids
    # the built index is cached: a second run reopens it
    index_dirs = list((tmp_path / "cache" / "recipe-mpr").glob("*/corpus"))
    assert len(index_dirs) == 1
    main(["eval", "lookup", "--data", str(mpr_file), "--no-reference", "--limit", "1"])
    text = capsys.readouterr().out
    assert "fusion_on" in text and "as lookups" in text
    assert list((tmp_path / "cache" / "recipe-mpr").glob("*/corpus")) == index_dirs


def test_as_parsed_follows_the_parser(
    mpr_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the parser reads a query as a lookup, ``as_parsed`` is the lookup path."""
    import assistant.understand as understand_module
    from assistant.pipeline import as_lookup_plan

    real = understand_module.understand

    def reads_lookups(question: object, **kwargs: Any) -> QueryPlan:
        return as_lookup_plan(real(question, **kwargs))

    monkeypatch.setattr(understand_module, "understand", reads_lookups)
    out = run_lookup_eval(load_mpr(mpr_file), _settings(tmp_path), reference=False)
    assert out["parser"]["lookup"] == 3
    assert out["methods"]["as_parsed"] == out["methods"]["fusion_on"]


@pytest.mark.slow
def test_eval_lookup_on_the_real_dev_file(shared_data: Path, tmp_path: Path) -> None:
    data = load_mpr(shared_data / "recipe-mpr" / "500QA.dev.json")
    out = run_lookup_eval(data, _settings(tmp_path), limit=5, reference=False)
    assert out["config"]["queries"] == 5 and out["config"]["items"] == 1546
    assert set(out["methods"]) == set(METHODS)
