"""``sphere eval understand``: the set format, the matching rules and the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.errors import DataError
from assistant.eval.understand import (
    Item,
    iou,
    load_items,
    match_one_to_one,
    run_understand,
    score,
    value_match,
)
from assistant.models import Aspect, Constraint, QueryPlan

DATA = Path(__file__).parent / "data"


def _write(tmp_path: Path, rows: list[object]) -> Path:
    p = tmp_path / "set.jsonl"
    p.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return p


def _row(**kw: object) -> dict[str, object]:
    row: dict[str, object] = {
        "id": "x-1",
        "family": "debate",
        "question": "Should zoos exist?",
        "intent": "two_sided",
        "target_side": None,
        "constraints": [],
        "aspects": [],
    }
    row.update(kw)
    return row


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["{not json"], "not JSON"),
        ([_row(intent="debate")], "intent must be one of"),
        ([_row(target_side="yes")], "target_side"),
        ([_row(constraints=[{"dimension": "colour", "value": "red"}])], "constraint"),
        ([_row(), _row()], "duplicate id"),
        ([{"id": "x", "question": "q"}], "missing intent"),
    ],
)
def test_bad_sets_are_named_by_line(tmp_path: Path, rows: list[object], message: str) -> None:
    with pytest.raises(DataError, match=message):
        load_items(_write(tmp_path, rows))


def test_value_matching_rules() -> None:
    assert value_match("length", "<300", "<280")  # within 10 %
    assert not value_match("length", "<300", "<200")
    assert value_match("length", "short", "<300")  # direction only
    assert not value_match("length", "short", ">300")
    assert value_match("source", "blog", "blogs") is False  # no stemming: words must overlap
    assert value_match("source", "news sites", "news")
    assert value_match("keyword", "Insulin", "insulin")
    assert not value_match("language", "es", "fr")
    assert iou("the beach", "a beach") == 1.0  # function words do not count


def test_one_to_one_matching_does_not_reuse() -> None:
    same = lambda g, p: 1.0 if g == p else 0.0  # noqa: E731
    assert match_one_to_one(["a", "a"], ["a"], same) == 1
    assert match_one_to_one(["a", "b"], ["b", "a", "c"], same) == 2


def test_score_counts_side_only_for_one_sided() -> None:
    items = [
        Item("1", "one_sided", "q", "one_sided", "con", (), ()),
        Item("2", "lookup", "q2", "lookup", None, (("language", "es", False),), ("cheap", "quiet")),
    ]
    plans = [
        QueryPlan(question="q", root_query="q", intent="one_sided", target_side="pro"),
        QueryPlan(
            question="q2",
            root_query="q2",
            intent="lookup",
            aspects=[Aspect("cheap"), Aspect("near a park")],
            constraints=[Constraint("language", "es"), Constraint("source", "blog", negated=True)],
        ),
    ]
    out = score(items, plans)
    assert out["intent_acc"] == 100.0 and out["side_acc"] == 0.0 and out["side_n"] == 1
    assert out["constraint_precision"] == 50.0 and out["constraint_recall"] == 100.0
    assert out["aspect_precision"] == 50.0 and out["aspect_recall"] == 50.0
    assert set(out["families"]) == {"one_sided", "lookup"}


def test_run_with_the_rules_on_a_small_set(tmp_path: Path) -> None:
    p = _write(
        tmp_path,
        [
            _row(id="a", question="Find evidence against the claim: zoos protect species."),
            _row(id="b", question="Should zoos exist? Only documents in Spanish."),
        ],
    )
    report = run_understand(p, methods=("rules",))
    rules = report["methods"]["rules"]
    assert rules["n"] == 2
    assert rules["intent_acc"] == 50.0  # the first is one-sided, gold says two-sided
    assert [m["id"] for m in report["misses"]["rules"]] == ["a"]


def test_command_json_and_bad_file(tmp_path: Path) -> None:
    from assistant.commands.context import Context
    from assistant.commands.eval_cmd import eval_group

    p = _write(tmp_path, [_row()])
    res = CliRunner().invoke(
        eval_group, ["understand", "--data", str(p), "--no-llm", "--json"], obj=Context(None)
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert set(report["methods"]) == {"rules", "sphere"}
    # the real command line: a clear message, a non-zero exit, no traceback
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "assistant.cli",
            "eval",
            "understand",
            "--data",
            str(tmp_path / "nope.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0
    assert "no such file" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", ["understand_dev.jsonl", "understand_test.jsonl"])
def test_the_shipped_sets_load(name: str) -> None:
    items = load_items(DATA / name)
    assert len(items) >= (200 if "dev" in name else 100)
    for it in items:
        for a in it.aspects:
            assert a in it.question, (it.id, a)
        assert (it.target_side is not None) == (it.intent == "one_sided"), it.id
