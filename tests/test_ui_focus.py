"""Focus follows the user (issue 36): after the evidence pane closes, focus is back in the
question box; a printable key typed anywhere else moves focus there and is kept; keys a
widget binds keep their meaning; the footer says where focus is. Pilot tests with the
scripted pipeline (the real follow-up rule reads the typed turn)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, ListView

from assistant.ui.components.answer_view import CitationMarker
from assistant.ui.components.chat_input import ChatInput
from assistant.ui.components.evidence_pane import EvidencePane
from assistant.ui.components.focus_footer import FocusLabel, focus_label, focus_texts
from assistant.ui.components.plan_view import FollowUpView
from assistant.ui.components.turn_view import TurnView
from assistant.ui.screens.help_screen import HelpScreen
from assistant.ui.screens.prompts import TextPrompt
from tests.test_ui_app import ask, finish, run, text_of
from tests.ui_fakes import MemoryStore, ScriptedPipeline, build_app, seeded_store

FOLLOW_UP = "only sources from government"


def footer_says(app: object) -> str:
    return str(app.query_one(FocusLabel).render())  # type: ignore[attr-defined]


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def open_first_citation(pilot: Pilot[None]) -> CitationMarker:
    """Ask, then open the answer's first citation with Enter."""
    await ask(pilot)
    await finish(pilot)
    marker = pilot.app.query(CitationMarker).first()
    marker.focus()
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()
    return marker


def test_escape_from_the_evidence_pane_returns_to_the_question_box(tmp_path: Path) -> None:
    """The issue's path: a citation opened with Enter, Esc, a follow-up typed and sent."""
    pipe = ScriptedPipeline()
    app = build_app(tmp_path, pipeline=pipe, store=MemoryStore())

    async def flow(pilot: Pilot[None]) -> None:
        marker = await open_first_citation(pilot)
        pane = app.query_one(EvidencePane)
        assert pane.is_open and pane.number == marker.number
        await pilot.press("escape")
        await pilot.pause()
        box = app.query_one(ChatInput)
        assert not pane.is_open and app.focused is box
        await type_text(pilot, FOLLOW_UP)
        assert box.value == FOLLOW_UP
        await pilot.press("enter")
        await finish(pilot)
        assert not pane.is_open  # Enter asked the question; it did not reopen the pane
        assert box.value == ""
        second = list(app.query(TurnView))[1]
        assert second.question == FOLLOW_UP
        assert "Follows turn 1" in text_of(second.query_one(FollowUpView))

    run(app, flow)
    assert [q for q, _plan in pipe.calls] == [pipe.calls[0][0], FOLLOW_UP]
    assert pipe.calls[1][1] is not None and pipe.calls[1][1].follows == 1


def test_a_key_typed_on_a_citation_goes_to_the_question_box(tmp_path: Path) -> None:
    app = build_app(tmp_path)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        box = app.query_one(ChatInput)
        box.value = "draft: "
        marker = app.query(CitationMarker).first()
        marker.focus()
        await pilot.pause()
        assert app.focused is marker
        await type_text(pilot, "why is [1] there?")
        assert app.focused is box
        # the draft is kept and the keys go after it, none lost, none replacing it
        assert box.value == "draft: why is [1] there?"
        assert not app.query_one(EvidencePane).is_open

    run(app, flow)


def test_keys_a_widget_binds_keep_their_meaning(tmp_path: Path) -> None:
    """Space on a citation opens it, ? opens the help, r on the sessions list renames:
    only keys that nothing binds are typed into the question box."""
    app = build_app(tmp_path, store=seeded_store(2))

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        box = app.query_one(ChatInput)
        marker = app.query(CitationMarker).first()
        marker.focus()
        await pilot.press("space")
        await pilot.pause()
        assert app.query_one(EvidencePane).is_open and app.focused is marker
        assert box.value == ""
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert isinstance(app.focused, ListView)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        await pilot.press("escape")
        await pilot.pause()
        # the session search box types its own keys
        search = app.query_one("#session-search", Input)
        search.focus()
        await pilot.pause()
        await type_text(pilot, "ab")
        assert search.value == "ab" and box.value == ""

    run(app, flow)


def test_the_evidence_panes_keys_are_not_typed_while_it_is_open(tmp_path: Path) -> None:
    """m, x, a and b correct a side while the evidence pane is open (a and b do nothing
    on a citation, and are not typed either); the footer lists m and x beside where focus
    is; once the pane is closed, the same letters are a question's."""
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        marker = await open_first_citation(pilot)
        box = app.query_one(ChatInput)
        keys = {k.key for k in app.query("FooterKey")}  # type: ignore[attr-defined]
        assert {"m", "x"} <= keys and not {"a", "b"} & keys
        assert footer_says(app).startswith("focus: ") and f"[{marker.number}]" in footer_says(app)
        await pilot.press("a", "b")
        await pilot.pause()
        assert box.value == "" and app.focused is marker and store.corrections == []
        await pilot.press("m")  # moves the cited document under the other claim
        await pilot.pause()
        await pilot.pause()
        assert box.value == "" and len(store.corrections) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is box
        await type_text(pilot, "max b")
        assert box.value == "max b" and len(store.corrections) == 1

    run(app, flow)


def test_the_footer_says_where_focus_is(tmp_path: Path) -> None:
    app = build_app(tmp_path)

    async def flow(pilot: Pilot[None]) -> None:
        assert footer_says(app) == "focus: question box"
        await ask(pilot)
        await finish(pilot)
        marker = app.query(CitationMarker).first()
        marker.focus()
        await pilot.pause()
        await pilot.pause()
        assert footer_says(app) == f"focus: citation [{marker.number}] (Enter opens)"
        button = app.query_one(".edit-plan")
        button.focus()
        await pilot.pause()
        await pilot.pause()
        assert footer_says(app) == "focus: “Edit plan · re-run” button"
        await pilot.press("x")
        await pilot.pause()
        await pilot.pause()
        assert footer_says(app) == "focus: question box"

    run(app, flow)


def test_the_footer_label_fits_a_narrow_screen(tmp_path: Path) -> None:
    """80 columns with the evidence pane open: the keys leave room for "focus: [1]"."""
    app = build_app(tmp_path)

    async def flow(pilot: Pilot[None]) -> None:
        marker = await open_first_citation(pilot)
        label = app.query_one(FocusLabel)
        shown = footer_says(app)
        assert shown in label.texts and len(shown) <= label.content_region.width
        assert shown.endswith(f"[{marker.number}]")

    run(app, flow, size=(80, 24))


def test_focus_label_names() -> None:
    from textual.widgets import Button, Static

    from assistant.models import Reference

    assert focus_label(None) == "nothing"
    assert focus_label(ListView(id="session-list")) == "session list"
    assert focus_label(Button("Go")) == "“Go” button"
    assert focus_label(Static()) == "Static"
    marker = CitationMarker(Reference(doc_id="d"), 3, 1)
    assert focus_texts(marker) == [
        "focus: citation [3] (Enter opens)",
        "focus: citation [3]",
        "focus: [3]",
        "citation [3]",
        "[3]",
    ]
    assert focus_texts(ChatInput()) == ["focus: question box", "question box"]
