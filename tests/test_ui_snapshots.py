"""Snapshot tests (pytest-textual-snapshot) of the main screens at a fixed size.

Stable by construction: a fixed clock (elapsed shows 3.2 s), a session log with
fixed timestamps, the scripted pipeline, and cursor blink off. After a change
that alters the look, inspect the diff report, then accept it with
``pytest tests/test_ui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from assistant.ui.components.answer_view import CitationMarker
from assistant.ui.components.chat_input import ChatInput
from assistant.ui.components.lookup_view import LookupTable
from assistant.ui.components.progress_panel import ProgressPanel
from tests.ui_fakes import (
    LOOKUP_QUESTION,
    FixedClock,
    ScriptedPipeline,
    build_app,
    missing_index_factory,
    no_cursor_blink,
    seeded_store,
)

SIZE = (100, 32)
QUESTION = "Should vaccination be compulsory for school children?"


async def _ask(pilot: Pilot[Any], question: str = QUESTION) -> None:
    no_cursor_blink(pilot.app)
    box = pilot.app.query_one(ChatInput)
    box.value = question
    await pilot.press("enter")


async def _answered(pilot: Pilot[Any]) -> None:
    await _ask(pilot)
    await pilot.app.workers.wait_for_complete()
    # messages posted from the worker and the scroll to the new turn settle
    # later on a loaded machine: wait for both before the screenshot
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def _app(tmp_path: Path, **kwargs: Any) -> Any:
    # the export folder is a temp dir, but nothing in these screens shows it; an answer
    # takes 4.2 s on the fixed clock ("answered in 4.2 s")
    kwargs.setdefault("pipeline", ScriptedPipeline(seconds=4.2))
    return build_app(tmp_path, **kwargs)


def test_snapshot_welcome(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        no_cursor_blink(pilot.app)

    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_snapshot_answer(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=_answered)


def test_snapshot_answer_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=_answered)


def test_finished_answer_starts_at_the_top_of_the_view(tmp_path: Path) -> None:
    """At 80x24 the turn is taller than the view: it must show from its top.

    (The scroll to the turn was once queued on the app while the scroll to the
    end at the turn's start sat on the conversation's queue; in some runs it ran
    first and was undone, leaving the view at the answer's bottom.)"""
    import asyncio

    from assistant.ui.components.turn_view import TurnView

    async def go() -> tuple[int, int, int]:
        app = _app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _answered(pilot)
            conversation = app.query_one("#conversation")
            turn = list(conversation.query(TurnView))[-1]
            return (
                int(conversation.scroll_y),
                int(conversation.max_scroll_y),
                turn.virtual_region.y,
            )

    scroll_y, max_scroll_y, turn_y = asyncio.run(go())
    assert max_scroll_y > 0  # the turn does not fit: the test can tell top from bottom
    assert 0 <= turn_y - scroll_y <= 1, (scroll_y, max_scroll_y, turn_y)


def test_a_second_answer_starts_at_the_top_of_the_view(tmp_path: Path) -> None:
    """The second turn's answer is scrolled to its top too: the scroll waits for the
    answer to be mounted (before, it was clamped while the answer's height was unknown,
    and the view stayed on the first answer)."""
    import asyncio

    from assistant.ui.components.turn_view import TurnView

    async def go() -> tuple[int, int, int]:
        app = _app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _answered(pilot)
            await _ask(pilot, "Is nuclear power safe?")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            conversation = app.query_one("#conversation")
            turn = list(conversation.query(TurnView))[-1]
            return (
                int(conversation.scroll_y),
                int(conversation.max_scroll_y),
                turn.virtual_region.y,
            )

    scroll_y, max_scroll_y, turn_y = asyncio.run(go())
    assert turn_y > 0 and max_scroll_y >= turn_y  # room to scroll the second turn to the top
    assert 0 <= turn_y - scroll_y <= 1, (scroll_y, max_scroll_y, turn_y)


def test_snapshot_answer_light_theme(snap_compare: Any, tmp_path: Path) -> None:
    app = _app(tmp_path, theme="textual-light")
    assert snap_compare(app, terminal_size=SIZE, run_before=_answered)


def test_snapshot_progress_mid_run(snap_compare: Any, tmp_path: Path) -> None:
    gate = threading.Event()
    pipe = ScriptedPipeline(gate=gate)
    clock = FixedClock(100.0)

    async def run_before(pilot: Pilot[Any]) -> None:
        await _ask(pilot)
        for _ in range(300):
            if pipe.paused.is_set():
                break
            await pilot.pause(0.01)
        clock.now = 103.2
        await pilot.pause(0.3)  # one tick of the elapsed timer
        pilot.app.query_one(ProgressPanel).settle_bar()  # the bar rounded to its width
        await pilot.pause()

    app = _app(tmp_path, pipeline=pipe, clock=clock)
    try:
        assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
    finally:
        gate.set()


def test_snapshot_evidence_pane(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _answered(pilot)
        marker = pilot.app.query(CitationMarker).first()
        marker.focus()
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(140, 36), run_before=run_before)


def test_snapshot_lookup_table(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _ask(pilot, LOOKUP_QUESTION)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    app = _app(tmp_path, pipeline=ScriptedPipeline(lookup=True, seconds=4.2))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_lookup_row_evidence(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _ask(pilot, LOOKUP_QUESTION)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        pilot.app.query_one(LookupTable).focus()
        await pilot.press("down", "enter")
        await pilot.pause()

    app = _app(tmp_path, pipeline=ScriptedPipeline(lookup=True, seconds=4.2))
    assert snap_compare(app, terminal_size=(140, 36), run_before=run_before)


def test_snapshot_sessions_sidebar(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        no_cursor_blink(pilot.app)
        await pilot.press("ctrl+b")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        no_cursor_blink(pilot.app)

    app = _app(tmp_path, store=seeded_store(3))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_help(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(_app(tmp_path), terminal_size=SIZE, press=["f1"])


def test_snapshot_plan_editor(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _answered(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        no_cursor_blink(pilot.app)

    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_snapshot_missing_index(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    # a fixed path, so the message in the snapshot does not change between runs
    app = build_app(Path("/srv/sphere"), factory=missing_index_factory)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_follow_up_diff(snap_compare: Any, tmp_path: Path) -> None:
    """A follow-up's plan drawn as a diff against the turn it follows."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _answered(pilot)
        await _ask(pilot, "only documents in Spanish")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_snapshot_side_unclear_document(snap_compare: Any, tmp_path: Path) -> None:
    """A "side unclear" document opened from under the answer: why, its probabilities,
    its passage, and the keys that place it."""
    from assistant.ui.components.answer_view import DocumentMarker

    async def run_before(pilot: Pilot[Any]) -> None:
        await _answered(pilot)
        unclear = next(m for m in pilot.app.query(DocumentMarker) if m.document.group == "unclear")
        unclear.focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(140, 36), run_before=run_before)


def test_snapshot_moved_by_you(snap_compare: Any, tmp_path: Path) -> None:
    """A citation moved under the other claim with ``m``: the answer and its balance
    drawn again, the pane on the moved reference with the model's own judgment."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await _answered(pilot)
        pilot.app.query(CitationMarker).first().focus()
        await pilot.press("enter", "m")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        pilot.app.clear_notifications()  # the "Corrected" toast times out: not stable
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(140, 36), run_before=run_before)
