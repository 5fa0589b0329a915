"""Follow-ups resolved against the previous plan (assistant.understand.followup), and
``sphere eval conversation`` on a small set. Examples written for this file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.errors import DataError
from assistant.eval.conversation import load_dialogues, run_conversation
from assistant.understand import parse_rules
from assistant.understand.followup import resolve

PREV = parse_rules("Should cities ban cars from their centres?")


@pytest.mark.parametrize(
    ("text", "edit", "value"),
    [
        ("what about the noise?", "add_aspect", None),
        ("and jobs?", "add_aspect", "jobs"),
        ("how does that affect shop owners?", "add_aspect", "shop owners"),
        ("forget the cost bit", "drop_aspect", "cost"),
        (
            "only articles in German",
            "add_constraint",
            {"dimension": "language", "value": "de", "negated": False},
        ),
        (
            "nothing from blogs please",
            "add_constraint",
            {"dimension": "source", "value": "blog", "negated": True},
        ),
        ("just the case against", "one_side", "con"),
        ("ok only the supporters", "one_side", "pro"),
        ("what do cyclists think?", "add_perspective", "cyclists"),
        ("and from the drivers' point of view?", "add_perspective", "drivers"),
        ("show me more", "more", "both"),
        ("any more against?", "more", "con"),
        ("why is [8] under Claim B?", "explain_ref", 8),
        ("compare [2] and [8]", "compare_refs", [2, 8]),
        ("drop [5]", "drop_ref", 5),
    ],
)
def test_follow_ups_edit_the_previous_plan(text: str, edit: str, value: object) -> None:
    r = resolve(text, PREV)
    assert (r.follows, r.edit) == (True, edit)
    if value is not None:
        assert r.value == value
    if r.plan is not None:
        assert r.plan.root_query == PREV.root_query  # the topic is kept
        assert r.changes


def test_the_edit_is_applied_and_nothing_else_changes() -> None:
    r = resolve("only articles in German", PREV)
    assert r.plan is not None
    before, after = PREV.to_dict(), r.plan.to_dict()
    assert after["constraints"][-1]["value"] == "de"
    after["constraints"] = before["constraints"]
    assert after == before
    r = resolve("more from the other side", resolve("just the case for", PREV).plan)
    assert (r.edit, r.value) == ("more", "con")


@pytest.mark.parametrize(
    "text",
    [
        "Is nuclear power safe?",
        "what about nuclear power then?",  # another topic, not a facet of cars in cities
        "Why do critics oppose congestion charges in London?",
        "best vegetarian lasagne recipe",
    ],
)
def test_a_topic_of_its_own_starts_a_new_thread(text: str) -> None:
    r = resolve(text, PREV)
    assert (r.follows, r.edit, r.plan) == (False, "new_topic", None)


def test_eval_conversation_scores_a_small_set(tmp_path: Path) -> None:
    rows = [
        {
            "id": "c1",
            "turns": [
                {"text": "Should cities ban cars?"},
                {
                    "text": "what about jobs?",
                    "expect": {"follows": True, "edit": "add_aspect", "value": "jobs"},
                },
                {
                    "text": "Is coffee healthy?",
                    "expect": {"follows": False, "edit": "new_topic", "value": None},
                },
            ],
        }
    ]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    r = run_conversation(p)["methods"]["rules"]
    assert r["turns"] == 2 and r["resolved_plan_acc"] == 100.0 and r["new_topic_as_followup"] == 0.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "turns": [{"text": "q"}, {"text": "a"}]}) + "\n")
    with pytest.raises(DataError, match="turn 2 needs"):
        load_dialogues(bad)
    from assistant.commands.context import Context
    from assistant.commands.eval_cmd import eval_group

    res = CliRunner().invoke(
        eval_group, ["conversation", "--data", str(p), "--json"], obj=Context(None)
    )
    assert res.exit_code == 0 and json.loads(res.output)["dialogues"] == 1


@pytest.mark.parametrize("name", ["conversation_dev.jsonl", "conversation_test.jsonl"])
def test_the_shipped_dialogue_sets_load(name: str) -> None:
    dialogues = load_dialogues(Path(__file__).parent / "data" / name)
    assert len(dialogues) >= 60
    for d in dialogues:
        for t in d["turns"][1:]:
            assert t["expect"]["follows"] == (t["expect"]["edit"] != "new_topic"), d["id"]


def test_a_follow_up_searches_its_topic_and_added_facets_not_its_own_words() -> None:
    from assistant.retrieval.retriever import plan_queries
    from assistant.thread import continue_plan
    from assistant.understand import parse_rules

    first = parse_rules("Should school uniforms be mandatory?")
    _, more = continue_plan("show me more", first, 1)
    _, cost = continue_plan("what about the cost?", first, 1)
    _, teachers = continue_plan("what do teachers say?", first, 1)
    _, spanish = continue_plan("only documents in Spanish", first, 1)
    assert more is not None and cost is not None and teachers is not None and spanish is not None
    assert plan_queries(more).topic == plan_queries(first).topic  # the same ranking, paged
    assert not any("more" in t for t in plan_queries(more).texts)
    assert plan_queries(cost).topic[0] == "Should school uniforms be mandatory? cost"
    assert plan_queries(teachers).topic[0].endswith("teachers")
    assert not any("Spanish" in t for t in plan_queries(spanish).topic)
    assert first.search_question() == first.question  # a first turn searches its question
