"""Follow-ups in the app: a typed turn without a topic of its own edits the last answer's
plan (shown as a diff), questions about an answer come from the answers on screen, and a
reopened session continues its thread. Pilot tests with the scripted pipeline; the
follow-up rule is the real one (assistant.understand.followup)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from assistant.ui.components.answer_view import ClaimColumn
from assistant.ui.components.plan_view import FollowUpView
from assistant.ui.components.turn_view import TurnView
from assistant.ui.screens.plan_editor import PlanEditorScreen
from tests.test_ui_app import QUESTION, ask, finish, run, text_of
from tests.ui_fakes import MemoryStore, ScriptedPipeline, build_app


def _turns(app: object) -> list[TurnView]:
    return list(app.query(TurnView))  # type: ignore[attr-defined]


def test_a_constraint_follow_up_edits_the_plan_and_shows_the_diff(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    store = MemoryStore()
    app = build_app(tmp_path, pipeline=pipe, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "only documents in Spanish")
        await finish(pilot)
        first, second = _turns(app)
        diff = text_of(second.query_one(FollowUpView))
        assert "Follows turn 1 ·" in diff  # its place in the session
        assert "+ constraint language es" in diff
        assert "(re-run with edited plan)" not in text_of(second)
        assert not first.query(FollowUpView)  # the first turn follows nothing
        await ask(pilot, "what about the side effects?")
        await finish(pilot)
        third = _turns(app)[2]
        assert "+ aspect side effects" in text_of(third.query_one(FollowUpView))
        assert "Follows turn 2 ·" in text_of(third.query_one(FollowUpView))

    run(app, flow)
    (_, first), (_, second), (_, third) = pipe.calls
    assert first is None and second is not None and third is not None
    assert second.follows == 1 and second.root_query == "vaccination compulsory school children"
    assert ("language", "es") in {(c.dimension, c.value) for c in second.constraints}
    # an edit changes one thing: the constraint stays, the aspect is added
    assert ("language", "es") in {(c.dimension, c.value) for c in third.constraints}
    assert "side effects" in [a.text for a in third.aspects] and third.follows == 2
    (info,) = store.list_sessions()
    assert [t.result.plan.follows for t in store.turns(info.id)] == [None, 1, 2]


def test_a_new_topic_is_not_a_follow_up(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    app = build_app(tmp_path, pipeline=pipe)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "Is nuclear power safe?")
        await finish(pilot)
        assert not _turns(app)[1].query(FollowUpView)

    run(app, flow)
    assert pipe.calls[1] == ("Is nuclear power safe?", None)  # parsed afresh


def test_questions_about_the_answer_are_answered_without_a_search(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    store = MemoryStore()
    app = build_app(tmp_path, pipeline=pipe, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "why is [3] under Claim B?")
        await finish(pilot)
        reply = _turns(app)[1]
        shown = text_of(reply)
        assert "[3] " in shown and "under Claim B" in shown and "quote: “" in shown
        assert "no new search" in shown and not reply.query(ClaimColumn)
        await ask(pilot, "compare [1] and [3]")
        await finish(pilot)
        assert "under Claim A" in text_of(_turns(app)[2])
        # a reference the answer does not have: said in the turn, nothing recorded
        await ask(pilot, "why is [42] there?")
        await finish(pilot)
        bad = _turns(app)[3]
        assert bad.has_class("-failed") and "no reference [42]" in text_of(bad)

    run(app, flow)
    assert len(pipe.calls) == 1  # no search after the first question
    (info,) = store.list_sessions()
    turns = store.turns(info.id)
    assert [t.result.plan.follows for t in turns] == [None, 1, 1]
    assert turns[1].result.reply and not turns[1].result.hits


def test_more_and_drop_skip_documents(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    app = build_app(tmp_path, pipeline=pipe)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "show me more")
        await finish(pilot)
        assert "+ page" in text_of(_turns(app)[1].query_one(FollowUpView))
        await ask(pilot, "drop [1]")
        await finish(pilot)
        assert "- reference [1]" in text_of(_turns(app)[2].query_one(FollowUpView))

    run(app, flow)
    cited = {"d1", "d2", "d3", "d4"}  # what the scripted answer cites
    first, more, drop = pipe.skips
    assert first is None and more is not None and drop is not None
    assert more == {"pro": cited, "con": cited}  # every cited document, out of both rankings
    assert drop == {"pro": {"d1"}, "con": {"d1"}}  # reference [1] only


def test_a_reopened_session_continues_its_thread(tmp_path: Path) -> None:
    store_mod = pytest.importorskip("assistant.store")
    db = tmp_path / "sessions.db"
    pipe = ScriptedPipeline()
    app = build_app(tmp_path, pipeline=pipe, store=store_mod.SessionStore(db))

    async def first(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "only documents in Spanish")
        await finish(pilot)

    run(app, first)
    store = store_mod.SessionStore(db)
    (info,) = store.list_sessions()
    ids = [t.id for t in store.turns(info.id)]
    pipe2 = ScriptedPipeline()
    app2 = build_app(tmp_path, pipeline=pipe2, store=store)

    async def reopen(pilot: Pilot[None]) -> None:
        app2.open_session(info.id)
        await finish(pilot)
        shown = text_of(_turns(app2)[1].query_one(FollowUpView))
        assert "Follows turn 1 ·" in shown and "+ constraint language es" in shown
        await ask(pilot, "just the case against")
        await finish(pilot)

    run(app2, reopen)
    ((_, plan),) = pipe2.calls
    assert plan is not None and plan.follows == ids[1] and plan.target_side == "con"
    assert ("language", "es") in {(c.dimension, c.value) for c in plan.constraints}
    assert [t.result.plan.follows for t in store.turns(info.id)] == [None, ids[0], ids[1]]


def test_editing_a_follow_up_plan_keeps_its_thread(tmp_path: Path) -> None:
    pipe = ScriptedPipeline()
    app = build_app(tmp_path, pipeline=pipe)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot, QUESTION)
        await finish(pilot)
        await ask(pilot, "only documents in Spanish")
        await finish(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, PlanEditorScreen)
        area = editor.query_one(TextArea)
        area.text = area.text.replace("value: es", "value: fr")
        await pilot.press("ctrl+s")
        await finish(pilot)
        edited = _turns(app)[2]
        assert "(re-run with edited plan)" in text_of(edited)
        assert "+ constraint language fr" in text_of(edited.query_one(FollowUpView))

    run(app, flow)
    _, plan = pipe.calls[2]
    assert plan is not None and plan.follows == 1 and plan.source == "user"
    assert ("language", "fr") in {(c.dimension, c.value) for c in plan.constraints}


def test_ctrl_t_asks_a_misread_follow_up_as_a_new_topic(tmp_path: Path) -> None:
    """A turn read as a follow-up that was meant as a question of its own: Ctrl+T asks it
    again, parsed on its own, and the new turn follows nothing."""
    pipe = ScriptedPipeline()
    store = MemoryStore()
    app = build_app(tmp_path, pipeline=pipe, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "what about the side effects?")
        await finish(pilot)
        second = _turns(app)[1]
        assert "Ctrl+T asks it as a new topic" in text_of(second.query_one(FollowUpView))
        await pilot.press("ctrl+t")
        await finish(pilot)
        third = _turns(app)[2]
        assert third.question == "what about the side effects?"
        assert not third.query(FollowUpView)
        await pilot.press("ctrl+t")  # the last answer is a new topic already
        await pilot.pause()
        assert len(_turns(app)) == 3

    run(app, flow)
    (_, first), (_, second), (_, third) = pipe.calls
    assert first is None and second is not None and second.follows == 1
    assert third is None  # parsed by the pipeline on its own
    (info,) = store.list_sessions()
    assert [t.result.plan.follows for t in store.turns(info.id)] == [None, 1, None]


def test_a_follow_up_in_a_later_session_names_the_turn_by_its_place_in_that_session(
    tmp_path: Path,
) -> None:
    # the session log's turn ids run across sessions: the second session's first turn is
    # no "turn 3" to the user
    store_mod = pytest.importorskip("assistant.store")
    db = tmp_path / "sessions.db"
    store = store_mod.SessionStore(db)
    app = build_app(tmp_path, pipeline=ScriptedPipeline(), store=store)

    async def two_sessions(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "only documents in Spanish")
        await finish(pilot)
        await pilot.press("ctrl+n")
        await pilot.pause()
        await ask(pilot)
        await finish(pilot)
        await ask(pilot, "what about the side effects?")
        await finish(pilot)
        first, second = _turns(app)
        assert second.result is not None and second.result.plan.follows == first.turn_id
        assert first.turn_id is not None and first.turn_id > 1
        assert "Follows turn 1 ·" in text_of(second.query_one(FollowUpView))

    run(app, two_sessions)


def test_a_turn_reader_that_cannot_load_is_shown_and_records_nothing(tmp_path: Path) -> None:
    # followup.reader names a file that is not a reader: the follow-up says so (no silent
    # fall-back to the rules), and the session keeps its one answered turn
    bad = tmp_path / "reader.safetensors"
    bad.write_bytes(b"not a reader")
    pipe = ScriptedPipeline()
    store = MemoryStore()
    app = build_app(tmp_path, pipeline=pipe, store=store)
    app.settings.followup.reader = str(bad)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        # a turn the rules alone cannot read, so the reader is asked
        await ask(pilot, "I'm putting this in front of a class of thirteen-year-olds next week.")
        await finish(pilot)
        failed = _turns(app)[-1]
        assert failed.error is not None and "turn reader" in text_of(failed)

    try:
        run(app, flow)
    finally:
        from assistant.understand.facet_judge import shared_judge

        shared_judge().reader_choice = "bundled"
    (info,) = store.list_sessions()
    assert len(store.turns(info.id)) == 1 and len(pipe.calls) == 1
