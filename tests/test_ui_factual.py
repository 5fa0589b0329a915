"""The app on a factual question: an answer, not a debate; both sides on request (Pilot)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Button

from assistant.models import NOT_A_DEBATE
from assistant.ui.components.answer_view import CitationMarker, ClaimColumn
from assistant.ui.components.evidence_pane import EvidencePane
from assistant.ui.components.factual_view import FactualView
from tests.test_ui_app import ask, finish, run, text_of
from tests.ui_fakes import (
    FACTUAL_QUESTION,
    PASSAGES,
    MemoryStore,
    ScriptedPipeline,
    build_app,
    sample_factual_result,
)


def test_a_factual_question_is_answered_with_passages_not_a_debate(tmp_path: Path) -> None:
    store = MemoryStore()
    pipeline = ScriptedPipeline(factual=True)
    app = build_app(tmp_path, pipeline=pipeline, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot, FACTUAL_QUESTION)
        await finish(pilot)
        assert not app.query(ClaimColumn)  # no FOR / AGAINST columns
        view = app.query_one(FactualView)
        shown = text_of(view)
        assert "Not a debate" in shown and NOT_A_DEBATE in shown
        assert "FOR" not in shown and "AGAINST" not in shown and "Not:" not in shown
        assert "1. Measles coverage after school mandates — health.gov, p. 3" in shown
        assert "2. Enrolment rules and outbreaks — Journal of Epidemiology" in shown
        assert f"“{PASSAGES[11]}”" in shown and f"“{PASSAGES[12]}”" in shown
        # a row's [n] opens its passage in the evidence pane, as a citation does
        markers = list(view.query(CitationMarker))
        assert [m.number for m in markers] == [1, 2]
        markers[1].focus()
        await pilot.press("enter")
        await pilot.pause()
        pane = app.query_one(EvidencePane)
        assert pane.is_open and "Enrolment rules and outbreaks" in text_of(pane)
        (info,) = store.list_sessions()
        assert store.turns(info.id)[0].result.answer is not None

    run(app, flow)


def test_argue_both_sides_asks_again_as_a_debate(tmp_path: Path) -> None:
    pipeline = ScriptedPipeline(factual=True)
    app = build_app(tmp_path, pipeline=pipeline)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot, FACTUAL_QUESTION)
        await finish(pilot)
        button = app.query_one(FactualView).query_one(Button)
        assert str(button.label) == "Argue both sides"
        button.press()
        await pilot.pause()
        await finish(pilot)
        assert len(pipeline.calls) == 2
        question, plan = pipeline.calls[1]
        assert question == FACTUAL_QUESTION
        assert plan is not None and plan.intent == "two_sided" and plan.target_side is None
        # the factual reading's own perspective (the whole question) is not a side's
        assert all(p.role != "interpretation" for p in plan.perspectives)
        assert len(app.query(ClaimColumn)) == 2  # the debate, below the answer

    run(app, flow)


def test_reopened_session_shows_the_factual_answer(tmp_path: Path) -> None:
    from assistant.store import SessionStore

    db = tmp_path / "sessions.db"
    with SessionStore(db) as store:
        sid = store.create_session(index="demo")
        store.add_turn(sid, sample_factual_result())
    reopened = SessionStore(db)
    app = build_app(tmp_path, store=reopened)

    async def flow(pilot: Pilot[None]) -> None:
        app.open_session(sid)
        await pilot.pause()
        view = app.query_one(FactualView)
        assert "Not a debate" in text_of(view)
        assert len(view.query(CitationMarker)) == 2

    try:
        run(app, flow)
    finally:
        reopened.close()
