"""Pilot tests of "unsure is not neutral" and side corrections in the app (issue 33).

The scripted answer (tests/ui_fakes.py) cites d1, d2 under Claim A and d3, d4 under
Claim B; the stance model left d5 "side unclear" (pro 0.44 · con 0.38 · neither 0.18)
and said d6 "takes no side" (pro 0.08 · con 0.07 · neither 0.85).
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from assistant.models import NO_EVIDENCE
from assistant.ui.app import SphereApp
from assistant.ui.components.answer_view import (
    AnswerView,
    CitationMarker,
    ClaimColumn,
    DocumentMarker,
)
from assistant.ui.components.chat_input import ChatInput
from assistant.ui.components.evidence_pane import EvidencePane
from assistant.ui.components.sessions_sidebar import SessionItem
from assistant.ui.components.turn_view import TurnView
from tests.test_ui_app import ask, finish, run, text_of, wait_until
from tests.ui_fakes import PASSAGES, MemoryStore, ScriptedPipeline, build_app


def cited(app: SphereApp, side: str) -> list[str]:
    """The documents the answer cites under ``side``, in order."""
    for column in app.query(ClaimColumn):
        if column.claim.side == side:
            return [m.reference.doc_id for m in column.query(CitationMarker)]
    raise AssertionError(f"no {side} column")


def marker_of(app: SphereApp, doc_id: str) -> CitationMarker:
    return next(m for m in app.query(CitationMarker) if m.reference.doc_id == doc_id)


def apart_of(app: SphereApp, doc_id: str) -> DocumentMarker:
    return next(m for m in app.query(DocumentMarker) if m.document.doc_id == doc_id)


async def open_citation(pilot: Pilot[None], doc_id: str) -> None:
    marker_of(pilot.app, doc_id).focus()  # type: ignore[arg-type]
    await pilot.press("enter")
    await pilot.pause()


def balance(app: SphereApp) -> str:
    return text_of(app.query_one(AnswerView).query_one(".balance"))


def test_the_answer_lists_side_unclear_apart_from_no_side_with_probabilities(
    tmp_path: Path,
) -> None:
    app = build_app(tmp_path)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        answer = text_of(app.query_one(AnswerView))
        assert "Takes no side (1)" in answer and "Side unclear (1)" in answer
        assert "Taken out by you" not in answer  # nothing taken out yet
        unclear, no_side = apart_of(app, "d5"), apart_of(app, "d6")
        assert "Exemptions and school attendance" in text_of(unclear)
        assert "pro 0.44 · con 0.38 · neither 0.18" in text_of(unclear)
        assert "pro 0.08 · con 0.07 · neither 0.85" in text_of(no_side)
        # the groups come in that order, each under its own heading
        assert answer.index("Takes no side") < answer.index("A history of school vaccination")
        assert answer.index("Side unclear") < answer.index("Exemptions and school attendance")
        # opening one shows why, its probabilities and its passage
        unclear.focus()
        await pilot.press("enter")
        await pilot.pause()
        pane = app.query_one(EvidencePane)
        shown = text_of(pane)
        assert pane.is_open and pane.document is not None and pane.reference is None
        assert "Side unclear: the stance model cannot tell which claim it argues" in shown
        assert "pro 0.44 · con 0.38 · neither 0.18" in shown
        assert PASSAGES[51] in shown
        assert "a / b: place under Claim A / B · x: take out" in shown
        # the pane follows focus to the "takes no side" document
        no_side.focus()
        await pilot.pause()
        assert pane.document is not None and pane.document.doc_id == "d6"
        assert "Takes no side: the stance model says it argues neither claim" in text_of(pane)
        # the footer offers a / b / x here, and m only for a citation
        assert app.correction_allowed("place") and app.correction_allowed("take_out")
        assert not app.correction_allowed("move_other_claim")

    run(app, flow)


def test_m_moves_the_open_citation_under_the_other_claim_and_back(tmp_path: Path) -> None:
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        assert cited(app, "pro") == ["d1", "d2", "d2"] and cited(app, "con") == ["d3", "d4"]
        assert "Claim A: 2 documents" in balance(app)
        await open_citation(pilot, "d1")
        pane = app.query_one(EvidencePane)
        assert "m: move under the other claim · x: take out" in text_of(pane)
        await pilot.press("m")
        await finish(pilot)
        # d1's reference left Claim A (its perspective stays: it cites d2 too) for Claim B
        assert cited(app, "pro") == ["d2", "d2"] and cited(app, "con")[-1] == "d1"
        assert "herd-immunity threshold" in text_of(app.query(ClaimColumn).first())
        assert "(moved by you)" in text_of(app.query(ClaimColumn).last())
        assert "Claim A: 1 document," in balance(app) and "Claim B: 3 documents" in balance(app)
        assert "lopsidedness 0.50" in balance(app)
        moved = marker_of(app, "d1")
        assert moved.has_class("-by-user")
        # the pane stays on the document, now under Claim B, with the model's own judgment
        assert pane.is_open and pane.reference is not None and pane.reference.doc_id == "d1"
        assert pane.side == "con" and app.focused is moved
        assert "Moved here by you · the stance model: pro 0.91 · con 0.05 · neither 0.04" in (
            text_of(pane)
        )
        # the session log keeps the correction as a labelled example
        ((turn_id, corr),) = store.corrections
        assert turn_id == app.query_one(TurnView).turn_id
        assert (corr.doc_id, corr.was, corr.to, corr.label) == ("d1", "pro", "con", 1)
        assert corr.p == [0.91, 0.05, 0.04]
        assert corr.question == "Should vaccination be compulsory for school children?"
        assert corr.claims[0].startswith("Vaccination should be compulsory")
        assert corr.passages == [PASSAGES[11]]
        assert corr.quotes == ["above the 95 percent herd immunity threshold"]
        # m again undoes it: the document is back under Claim A
        await pilot.press("m")
        await finish(pilot)
        assert "d1" in cited(app, "pro") and "d1" not in cited(app, "con")
        assert [c.to for _, c in store.corrections] == ["con", "pro"]
        assert "Claim A: 2 documents" in balance(app)

    run(app, flow)


def test_x_takes_documents_out_until_a_claim_has_no_evidence(tmp_path: Path) -> None:
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await open_citation(pilot, "d3")
        await pilot.press("x")
        await finish(pilot)
        assert cited(app, "con") == ["d4"]
        assert "Coercion erodes" not in text_of(app.query(ClaimColumn).last())
        answer = text_of(app.query_one(AnswerView))
        assert "Taken out by you (1)" in answer and "Trust and coercion in public health" in answer
        # the pane now shows it among the documents taken out: a / b put it back
        pane = app.query_one(EvidencePane)
        assert pane.document is not None and pane.document.group == "removed"
        assert app.focused is apart_of(app, "d3")
        assert not app.correction_allowed("take_out") and app.correction_allowed("place")
        await open_citation(pilot, "d4")
        await pilot.press("x")
        await finish(pilot)
        con = app.query(ClaimColumn).last()
        assert cited(app, "con") == [] and NO_EVIDENCE in text_of(con)
        assert "Claim B: 0 documents" in balance(app) and "lopsidedness 1.00" in balance(app)
        assert [c.to for _, c in store.corrections] == ["out", "out"]
        # placing d3 again (b) brings Claim B back, and its note goes
        apart_of(app, "d3").focus()
        await pilot.press("enter", "b")
        await finish(pilot)
        assert cited(app, "con") == ["d3"] and NO_EVIDENCE not in text_of(
            app.query(ClaimColumn).last()
        )

    run(app, flow)


def test_a_side_unclear_document_is_placed_under_a_claim(tmp_path: Path) -> None:
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        apart_of(app, "d5").focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("m")  # m is for citations: nothing moves
        await pilot.pause()
        assert store.corrections == []
        # nor is it typed into the question box: the pane keeps its keys (issue 36)
        assert app.query_one(ChatInput).value == "" and app.query_one(EvidencePane).is_open
        await pilot.press("b")
        await finish(pilot)
        assert cited(app, "con")[-1] == "d5"
        assert "Side unclear" not in text_of(app.query_one(AnswerView))
        pane = app.query_one(EvidencePane)
        assert pane.reference is not None and pane.reference.by_user == "placed"
        shown = text_of(pane)
        assert "Placed here by you · the stance model: pro 0.44 · con 0.38 · neither 0.18" in shown
        assert "placed by you, not checked by the verifier" in shown
        # its quote is the first sentence of its best passage
        assert pane.reference.quote == PASSAGES[51]
        ((_, corr),) = store.corrections
        assert (corr.was, corr.to, corr.p) == ("unclear", "con", [0.44, 0.38, 0.18])

    run(app, flow)


def test_correction_keys_type_into_the_question_box(tmp_path: Path) -> None:
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await open_citation(pilot, "d1")
        box = app.query_one(ChatInput)
        box.focus()
        await pilot.press("m", "a", "x", "b")
        await pilot.pause()
        assert box.value == "maxb" and store.corrections == []
        assert cited(app, "pro")[0] == "d1"

    run(app, flow)


def test_the_command_palette_moves_the_open_document(tmp_path: Path) -> None:
    store = MemoryStore()
    app = build_app(tmp_path, store=store)

    async def flow(pilot: Pilot[None]) -> None:
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for title in (
            "Move the open document under the other claim",
            "Take the open document out of the answer",
            "Place the open document under Claim A",
            "Place the open document under Claim B",
        ):
            assert title in titles
        await ask(pilot)
        await finish(pilot)
        await pilot.press("ctrl+p")  # nothing open: the command says what to do
        await pilot.pause()
        await pilot.press(*"move the open document")
        await wait_until(pilot, lambda: _first_command(app) is not None)
        await pilot.press("enter")
        await finish(pilot)
        assert store.corrections == []
        await open_citation(pilot, "d4")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"move the open document")
        await wait_until(pilot, lambda: "Move the open" in (_first_command(app) or ""))
        await pilot.press("enter")
        await finish(pilot)
        assert cited(app, "pro")[-1] == "d4"
        assert [(c.doc_id, c.to) for _, c in store.corrections] == [("d4", "pro")]

    run(app, flow)


def _first_command(app: SphereApp) -> str | None:
    from textual.command import CommandList

    try:
        options = app.screen.query_one(CommandList)
    except Exception:
        return None
    return str(options.get_option_at_index(0).prompt) if options.option_count else None


def test_a_lookup_row_cannot_be_corrected(tmp_path: Path) -> None:
    from assistant.ui.components.lookup_view import LookupTable
    from tests.ui_fakes import LOOKUP_QUESTION

    store = MemoryStore()
    app = build_app(tmp_path, store=store, pipeline=ScriptedPipeline(lookup=True))

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot, LOOKUP_QUESTION)
        await finish(pilot)
        app.query_one(LookupTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(EvidencePane).is_open
        assert not any(app.correction_allowed(a) for a in ("move_other_claim", "take_out", "place"))
        await pilot.press("x", "m", "a")
        await pilot.pause()
        assert store.corrections == []
        assert app.query_one(ChatInput).value == ""  # the pane's keys, not a question's

    run(app, flow)


def test_corrections_are_kept_when_the_session_is_reopened(tmp_path: Path) -> None:
    from assistant.store import SessionStore

    db = tmp_path / "sessions.db"
    app = build_app(tmp_path, store=SessionStore(db))

    async def flow(pilot: Pilot[None]) -> None:
        await ask(pilot)
        await finish(pilot)
        await open_citation(pilot, "d1")
        await pilot.press("m")
        await finish(pilot)
        apart_of(app, "d6").focus()
        await pilot.press("enter", "x")
        await finish(pilot)

    run(app, flow)
    reopened = SessionStore(db)
    ((_, first), (_, second)) = reopened.all_corrections()
    assert (first.doc_id, first.to, first.p) == ("d1", "con", [0.91, 0.05, 0.04])
    assert (second.doc_id, second.was, second.to) == ("d6", "no_side", "out")
    app2 = build_app(tmp_path, store=reopened)

    async def reopen(pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+b")
        await finish(pilot)
        assert len(app2.query(SessionItem)) == 1
        await pilot.press("enter")
        await finish(pilot)
        assert cited(app2, "con")[-1] == "d1" and "d1" not in cited(app2, "pro")
        assert marker_of(app2, "d1").has_class("-by-user")
        answer = text_of(app2.query_one(AnswerView))
        assert "Taken out by you (1)" in answer and "Takes no side" not in answer
        # and a correction of the reopened turn is recorded against it
        await open_citation(pilot, "d1")
        await pilot.press("m")
        await finish(pilot)
        assert [c.to for _, c in reopened.all_corrections()] == ["con", "out", "pro"]

    run(app2, reopen)
