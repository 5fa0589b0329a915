"""A session shown as a thread: ``sphere sessions show`` and ``sphere export`` on a real
session (the demo index, the real session log), and a follow-up's stance judgments made
against the thread's topic rather than the follow-up's own words."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from assistant.cli import main
from assistant.export import turn_to_markdown
from assistant.store import SessionStore
from tests.turn_strategies import example_turn

FIRST = "Should school uniforms be mandatory?"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(args)
    return capsys.readouterr().out


def _blocks(show: str) -> list[str]:
    """``sessions show``'s text cut into one block per turn (the header dropped)."""
    return re.split(r"\n(?=Turn \d+ · )", show)[1:]


@pytest.fixture
def thread(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> int:
    """A session on the demo index: a question, a question about its answer, a page of
    more, a constraint on that page, a new topic. Another session comes first, so turn
    ids (2…6) are not the turns' places in the session (1…5)."""
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    with SessionStore(Path(os.environ["SPHERE_SESSION_DB"])) as store:
        store.add_turn(store.create_session(index="demo"), example_turn())
    _run(["ask", FIRST, "--save", "--no-llm"], capsys)
    for q in (
        "why is [1] there?",
        "show me more",
        "only documents in Spanish",
        "Is nuclear power safe?",
    ):
        _run(["ask", q, "--session", "2", "--no-llm"], capsys)
    return 2


def test_sessions_show_is_the_thread(thread: int, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(["sessions", "show", str(thread), "--json"], capsys))
    ids = [t["id"] for t in data["turns"]]
    assert ids == [2, 3, 4, 5, 6]
    assert [t["follows"] for t in data["turns"]] == [None, 2, 2, 4, None]
    assert [t["follows"] for t in data["turns"]] == [
        t["result"]["plan"]["follows"] for t in data["turns"]
    ]
    assert data["turns"][1]["result"]["reply"].startswith("[1] ")

    blocks = _blocks(_run(["sessions", "show", str(thread)], capsys))
    # each turn by its place in the session; the log's id last
    assert [b.split(" · ")[0] for b in blocks] == [f"Turn {n}" for n in range(1, 6)]
    assert [b.split("\n")[0].split(" · ")[-1] for b in blocks] == [
        f"id {n + 1}" for n in range(1, 6)
    ]
    first, reply, more, spanish, nuclear = blocks
    assert "follows " not in first and "new thread" not in first and "For: " in first
    # the question about the answer: what it asked, and the answer itself, no claims
    # the turn followed by its place in the session, as the app and the export name it
    assert "\n  follows turn 1: about reference [1]\n" in reply
    assert "A (from the session log, no new search):\n    [1] " in reply
    assert "under Claim " in reply and "quote: “" in reply
    assert "For: " not in reply and "Against: " not in reply
    assert "\n  follows turn 1: + page both\n" in more
    assert "\n  follows turn 3: + constraint language es\n" in spanish
    assert "\n  new thread: a new topic" in nuclear and "follows " not in nuclear
    assert "Q: Is nuclear power safe?" in nuclear


def test_export_is_the_thread(thread: int, capsys: pytest.CaptureFixture[str]) -> None:
    text = _run(["export", str(thread)], capsys)
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    heads = [s.split("\n", 1)[0] for s in sections]
    assert heads[:5] == [
        f"1. {FIRST}",
        "2. why is \\[1\\] there?",
        "3. show me more",
        "4. only documents in Spanish",
        "5. Is nuclear power safe?",
    ]
    first, reply, more, spanish, nuclear = (s.split("\n\n")[1] for s in sections[:5])
    # a follow-up names the turn it follows by that turn's number here (not its id)
    assert first.startswith("### For")
    assert reply == (
        "*Follows turn 1: about reference \\[1\\] (answered from the session log, no new search)*"
    )
    assert more == "*Follows turn 1: \\+ page both*"
    assert spanish == "*Follows turn 3: \\+ constraint language es*"
    assert nuclear.startswith("*New thread: a new topic")

    # the reply: a list, one item per reference it describes, no claims or balance
    body = sections[1]
    assert "### " not in body
    item = re.search(r"^- \\\[1\\\] (.*)$", body, flags=re.M)
    assert item is not None
    assert re.search(r"^  - under Claim [AB]: ", body, flags=re.M)
    assert re.search(r"^  - quote: “", body, flags=re.M)
    # "[1]" is the first reference of turn 1's answer: the reply cites that same footnote
    first_marker = re.search(r"\[\^\d+\]", sections[0])
    assert first_marker is not None and item.group(1).endswith(first_marker.group(0))

    rendered = MarkdownIt("commonmark").use(footnote_plugin).render(text)
    assert "<h2>2. why is [1] there?</h2>" in rendered
    assert "<em>Follows turn 3: + constraint language es</em>" in rendered
    # the method appendix says the reply was no search
    appendix = text.split("### Question 2\n", 1)[1].split("### Question 3", 1)[0]
    assert "- Answer: from the session log (no search, no summary)" in appendix
    assert "- Follow-up edit: `explain_ref: 1`" in appendix


def test_one_turn_alone_names_the_turn_it_follows_by_its_id(thread: int) -> None:
    with SessionStore(Path(os.environ["SPHERE_SESSION_DB"])) as store:
        spanish = store.turns(thread)[3]
    assert spanish.id == 5
    text = turn_to_markdown(spanish.result)
    assert text.split("\n\n")[1] == "*Follows turn 4: \\+ constraint language es*"
    assert "- Follow-up edit: `add_constraint: + constraint language es`" in text


def test_a_follow_up_judges_stance_against_the_threads_topic(demo_index_dir: Path) -> None:
    """The stance model reads each claim with the question it answers: for "show me more"
    that is the thread's question, so the documents the first answer judged are not
    judged again (the same claim, the same text: the cache answers)."""
    from types import SimpleNamespace

    from assistant.config import load_settings
    from assistant.pipeline import Pipeline
    from assistant.thread import next_step

    settings = load_settings(environ={**os.environ, "SPHERE_INDEX_DIR": str(demo_index_dir)})
    settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"use": "never"})})
    with Pipeline.from_settings(settings, "demo") as pipe:
        stance = pipe.stance
        assert stance is not None
        stance.clear_cache()
        asked: list[str] = []
        real = stance.judge_documents

        def spy(question: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
            asked.append(question)
            return real(question, *args, **kwargs)

        stance.judge_documents = spy
        try:
            judged = stance.judged
            first = pipe.run(FIRST)
            first_judged = stance.judged - judged
            assert set(asked) == {FIRST}
            asked.clear()
            step = next_step("show me more", [SimpleNamespace(id=1, result=first, status="done")])
            assert step.plan is not None and step.plan.question == "show me more"
            judged = stance.judged
            more = pipe.run("show me more", plan=step.plan, skip=step.skip)
            more_judged = stance.judged - judged
        finally:
            del stance.judge_documents
    assert asked and set(asked) == {FIRST}  # not "show me more"
    assert more.plan.follows == 1
    # only the documents the first answer had not judged are new to the model
    assert first_judged > 0 and more_judged < first_judged / 2


def test_claims_question() -> None:
    plan = example_turn().plan.copy()
    plan.root_query = "school uniforms mandatory"
    assert plan.claims_question() == plan.question
    plan.follows, plan.question = 4, "show me more"
    assert plan.claims_question() == "school uniforms mandatory"
    plan.root_query = " "
    assert plan.claims_question() == "show me more"


def test_drop_it_after_a_reference_question_drops_that_reference() -> None:
    """The turn after "why is [1] there?" (answered from the log) knows which reference
    it was about: "get rid of it then" drops [1] and re-runs the merge."""
    from types import SimpleNamespace

    from assistant.thread import asked_of, next_step, reply_turn

    first = example_turn()
    turns = [SimpleNamespace(id=1, result=first, status="done")]
    why = next_step("why is [1] there?", turns)
    assert why.follow.edit == "explain_ref" and why.reply
    turns.append(SimpleNamespace(id=2, result=reply_turn("why is [1] there?", why, first)))
    assert asked_of(turns) == ("explain_ref", [1])
    step = next_step("get rid of it then", turns)
    assert (step.follow.edit, step.follow.value, step.follows) == ("drop_ref", 1, 1)
    assert step.plan is not None and step.skip
    assert asked_of(turns[:1]) is None
