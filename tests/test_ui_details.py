"""Two small things in the app (issue 36, item 7): the palette offers "Ask the last
question as a new topic" only after a follow-up, and "answered in …" appears once the
answer is on screen, with the time the user waited for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from assistant.ui.components.answer_view import AnswerView
from assistant.ui.components.turn_view import TurnView
from tests.test_ui_app import ask, finish, run, text_of
from tests.ui_fakes import FixedClock, MemoryStore, ScriptedPipeline, build_app, sample_result

NEW_TOPIC = "Ask the last question as a new topic"


def _titles(app: Any) -> list[str]:
    return [c.title for c in app.get_system_commands(app.screen)]


def test_the_new_topic_command_is_offered_only_for_a_follow_up(tmp_path: Path) -> None:
    app = build_app(tmp_path)

    async def flow(pilot: Pilot[None]) -> None:
        assert NEW_TOPIC not in _titles(app)  # no answer yet
        await ask(pilot)
        await finish(pilot)
        assert NEW_TOPIC not in _titles(app)  # a first question is a new topic already
        await ask(pilot, "only documents in Spanish")
        await finish(pilot)
        assert NEW_TOPIC in _titles(app)  # read as a follow-up: it may have been meant anew
        await pilot.press("ctrl+t")
        await finish(pilot)
        assert NEW_TOPIC not in _titles(app)

    run(app, flow)


class WithTotal(ScriptedPipeline):
    def run(self, question: str, **kwargs: Any) -> Any:
        result = super().run(question, **kwargs)
        # the stages' timings overlap their total: summing them all would double it
        result.timings = {"understand": 0.5, "retrieve": 1.0, "summarize": 1.5, "total": 3.0}
        return result


def test_answered_in_is_the_time_waited_shown_with_the_answer(tmp_path: Path) -> None:
    app = build_app(tmp_path, pipeline=WithTotal(seconds=4.2))

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        turn = app.query_one(TurnView)
        meta = turn.query(".turn-meta")
        assert len(meta) == 1 and turn.query(AnswerView)
        # after the answer in the turn, with the app's clock: question to answer on screen
        assert turn.children[-1] is meta.first()
        assert "answered in 4.2 s" in text_of(meta.first())

    run(app, flow)


def test_the_answer_comes_before_its_time(tmp_path: Path) -> None:
    """``show_result`` mounts the answer without its time; ``show_answered`` adds it."""
    clock = FixedClock()
    app = build_app(tmp_path, clock=clock)

    async def flow(pilot: Pilot[None]) -> None:
        turn = TurnView(99, "Q?", clock=clock)
        await app.query_one("#conversation").mount(turn)
        clock.now += 2.5
        await turn.show_result(sample_result("Q?"))
        assert turn.query(AnswerView) and not turn.query(".turn-meta")
        answered = turn.show_answered()
        assert answered is not None
        await answered
        assert "answered in 2.5 s" in text_of(turn.query_one(".turn-meta"))
        assert turn.show_answered() is None  # once only
        assert len(turn.query(".turn-meta")) == 1

    run(app, flow)


def test_a_reopened_answer_shows_the_time_its_pass_took(tmp_path: Path) -> None:
    store = MemoryStore()
    result = sample_result("Should vaccination be compulsory for school children?")
    result.timings = {"understand": 0.5, "retrieve": 1.0, "summarize": 1.5, "total": 3.0}
    sid = store.create_session("vaccination", index="demo")
    store.add_turn(sid, result)
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        app.open_session(sid)
        await pilot.pause()
        meta = app.query_one(TurnView).query_one(".turn-meta")
        assert "answered in 3.0 s" in text_of(meta)  # the total, not 6.0 (total + stages)

    run(app, flow)
