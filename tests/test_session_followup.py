"""``sphere ask QUESTION --session ID``: follow-ups on the real demo index, recorded in
the session; questions about the answer answered from the log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.store import SessionStore


def _ask(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(["ask", *args, "--no-llm"])
    return capsys.readouterr().out


def test_a_session_continues_with_follow_ups(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    _ask(["Should school uniforms be mandatory?", "--save"], capsys)
    out = json.loads(_ask(["only documents in Spanish", "--session", "1", "--json"], capsys))
    plan = out["plan"]
    assert plan["follows"] == 1 and plan["root_query"].startswith("Should school uniforms")
    assert ("language", "es") in {(c["dimension"], c["value"]) for c in plan["constraints"]}
    assert plan["derivation"].startswith("add_constraint")
    out = json.loads(_ask(["what about the cost?", "--session", "1", "--json"], capsys))
    assert out["plan"]["follows"] == 2 and "cost" in [a["text"] for a in out["plan"]["aspects"]]
    # the constraint of turn 2 is still in force: an edit changes one thing
    assert ("language", "es") in {(c["dimension"], c["value"]) for c in out["plan"]["constraints"]}
    # a new topic starts a new thread in the same session
    out = json.loads(_ask(["Is nuclear power safe?", "--session", "1", "--json"], capsys))
    assert out["plan"]["follows"] is None and "nuclear" in out["plan"]["root_query"].lower()
    with SessionStore(Path(__import__("os").environ["SPHERE_SESSION_DB"])) as store:
        turns = store.turns(1)
    assert [t.result.plan.follows for t in turns] == [None, 1, 2, None]


def test_questions_about_the_answer_come_from_the_log(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    _ask(["Should school uniforms be mandatory?", "--save"], capsys)
    text = _ask(["why is [1] there?", "--session", "1"], capsys)
    assert text.startswith("[1] ") and "under Claim" in text and "quote: “" in text
    text = _ask(["compare [1] and [2]", "--session", "1"], capsys)
    assert "[1] " in text and "\n[2] " in text
    with SessionStore(Path(__import__("os").environ["SPHERE_SESSION_DB"])) as store:
        turns = store.turns(1)
    # recorded in the thread, answered without a search (no hits, no claims)
    assert [t.result.plan.follows for t in turns] == [None, 1, 1]
    assert all(t.result.reply and not t.result.hits for t in turns[1:])
    assert turns[1].result.plan.derivation == "explain_ref: 1"
    # a follow-up after them edits the last searched turn, not the reply
    out = json.loads(_ask(["only documents in Spanish", "--session", "1", "--json"], capsys))
    assert out["plan"]["follows"] == 1
    with pytest.raises(SystemExit) as exc:
        main(["ask", "why is [99] there?", "--session", "1", "--no-llm"])
    assert exc.value.code != 0
    assert "no reference [99]" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ask", "more please", "--session", "7", "--no-llm"])
    assert "7" in capsys.readouterr().err


def test_drop_it_after_why_drops_the_reference_asked_about(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reopened from the session log, the reply turn still says which reference it was
    about: "ok, drop it" after "why is [2] there?" drops [2] and re-runs the merge."""
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    first = json.loads(_ask(["Should school uniforms be mandatory?", "--save", "--json"], capsys))
    _ask(["why is [2] there?", "--session", "1"], capsys)
    out = json.loads(_ask(["ok, drop it", "--session", "1", "--json"], capsys))
    assert out["plan"]["follows"] == 1
    assert out["plan"]["derivation"].startswith("drop_ref: - reference [2] ")
    dropped = out["plan"]["derivation"].split()[-1]
    assert dropped in _cited(first) and dropped not in _cited(out)


def _cited(out: dict) -> set[str]:  # type: ignore[type-arg]
    return {
        r["doc_id"]
        for c in out["summary"]["claims"]
        for p in c["perspectives"]
        for r in p["references"]
    }


def test_more_pages_down_without_repeating_cited_documents(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    first = json.loads(_ask(["Should school uniforms be mandatory?", "--save", "--json"], capsys))
    more = json.loads(_ask(["show me more", "--session", "1", "--json"], capsys))
    assert more["plan"]["follows"] == 1 and more["plan"]["derivation"].startswith("more")
    assert _cited(first) and _cited(more) and not (_cited(first) & _cited(more))
    again = json.loads(_ask(["any more?", "--session", "1", "--json"], capsys))
    assert again["plan"]["follows"] == 2
    assert not (_cited(again) & (_cited(first) | _cited(more)))  # the whole thread is skipped


def test_drop_a_reference_writes_the_answer_again_without_it(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    first = json.loads(_ask(["Should school uniforms be mandatory?", "--save", "--json"], capsys))
    ref1 = first["summary"]["claims"][0]["perspectives"][0]["references"][0]["doc_id"]
    out = json.loads(_ask(["drop [1]", "--session", "1", "--json"], capsys))
    assert (
        out["plan"]["follows"] == 1
        and out["plan"]["derivation"] == f"drop_ref: - reference [1] {ref1}"
    )
    assert ref1 not in _cited(out) and _cited(out)
    assert ref1 not in {h["doc_id"] for hs in out["hits"].values() for h in hs}


def test_one_side_answers_with_that_side_only(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    first = json.loads(_ask(["Should school uniforms be mandatory?", "--save", "--json"], capsys))
    sides = {c["side"]: c for c in first["summary"]["claims"]}
    assert sides["pro"]["perspectives"] and sides["con"]["perspectives"]
    out = json.loads(_ask(["just the case against", "--session", "1", "--json"], capsys))
    assert (out["plan"]["intent"], out["plan"]["target_side"]) == ("one_sided", "con")
    sides = {c["side"]: c for c in out["summary"]["claims"]}
    assert sides["con"]["perspectives"]
    assert not sides["pro"]["perspectives"] and "Left out" in sides["pro"]["note"]
    # the side asked for has the whole budget: the same documents on each side as the
    # two-sided answer (asking for more of one side moves nothing between the sides),
    # and more of its perspectives than the two-sided answer could show
    assert {s: [h["doc_id"] for h in hs] for s, hs in out["hits"].items()} == {
        s: [h["doc_id"] for h in hs] for s, hs in first["hits"].items()
    }
    cap = max(len(c["perspectives"]) for c in first["summary"]["claims"])
    assert len(sides["con"]["perspectives"]) > cap
    assert f"({len(first['hits']['pro'])} documents found for this one" in sides["pro"]["note"]
    # paging the other side makes it the side shown
    out = json.loads(_ask(["more from the other side", "--session", "1", "--json"], capsys))
    assert (out["plan"]["intent"], out["plan"]["target_side"]) == ("one_sided", "pro")
    sides = {c["side"]: c for c in out["summary"]["claims"]}
    assert not sides["con"]["perspectives"]
