"""Side corrections (issue 33): applying one to an answer, keeping them in the session
log (migration 4, round trips), ``sphere sessions correct`` and ``sphere eval stance
--corrections``."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.errors import InputError, StoreError
from assistant.models import NO_EVIDENCE, PLACES, Correction, TurnResult
from assistant.store import SCHEMA_VERSION, SessionStore
from assistant.summarize.correct import (
    apply_correction,
    correctable,
    documents_apart,
    make_correction,
    place_of,
)
from tests.turn_strategies import example_turn, texts

NOW = "2025-06-02T09:16:00+00:00"


def corrected(result: TurnResult, doc_id: str, to: str) -> TurnResult:
    return apply_correction(result, make_correction(result, doc_id, to, created=NOW))


def refs_of(result: TurnResult, side: str) -> list[str]:
    return [
        r.doc_id
        for c in result.summary.claims
        if c.side == side
        for p in c.perspectives
        for r in p.references
    ]


# --------------------------------------------------------------------------- applying


def test_a_correction_records_what_the_model_saw_and_said() -> None:
    result = example_turn()
    fix = make_correction(result, "uniforms-09", "pro", created=NOW)
    assert (fix.doc_id, fix.was, fix.to, fix.label) == ("uniforms-09", "con", "pro", 0)
    assert fix.p == [0.22, 0.67, 0.11]  # the model's own, from the turn's balance report
    assert fix.question == "Should school uniforms be mandatory?"
    assert fix.claims == (
        "School uniforms should be mandatory.",
        "School uniforms should not be mandatory.",
    )
    # the text it judged: the document's retrieved passages; and the quote it was cited with
    assert fix.passages == [result.hits["con"][0].passages[0].text]
    assert fix.quotes == [result.summary.claims[1].perspectives[0].references[0].quote]
    assert fix.stance_model == "5e1a"
    assert Correction.from_dict(json.loads(json.dumps(fix.to_dict()))) == fix


def test_moving_a_document_moves_its_references_and_counts_the_balance_again() -> None:
    before = example_turn()
    after = corrected(before, "uniforms-02", "con")
    assert "uniforms-02" not in refs_of(after, "pro") and refs_of(after, "con")[-1] == "uniforms-02"
    pro, con = after.summary.claims
    # the perspective that cited only uniforms-02 is dropped; the one citing it with
    # uniforms-01 stays, citing uniforms-01 alone
    assert [p.text for p in pro.perspectives] == ["Uniforms make income differences less visible."]
    moved = con.perspectives[-1]
    assert moved.text == "A mandatory uniform is cheaper for most households"
    assert [(r.by_user, r.stance) for r in moved.references] == [("moved", 0.06)]
    b = after.summary.balance
    assert [s.documents_cited for s in b.sides] == [1, 2]
    assert b.lopsidedness == pytest.approx(1 / 3, abs=1e-6)
    assert after.corrections[-1].doc_id == "uniforms-02"
    assert before.corrections == [] and refs_of(before, "pro")[0] == "uniforms-02"  # a copy


def test_taking_the_last_document_out_leaves_the_no_evidence_note() -> None:
    after = corrected(example_turn(), "uniforms-09", "out")
    con = after.summary.claims[1]
    assert con.perspectives == [] and con.note == NO_EVIDENCE
    b = after.summary.balance
    assert b.removed_doc_ids == ["uniforms-09"] and "uniforms-09" not in b.unused_doc_ids
    assert [s.documents_cited for s in b.sides] == [2, 0] and b.lopsidedness == 1.0
    assert [d.group for d in documents_apart(after) if d.doc_id == "uniforms-09"] == ["removed"]
    # placed back, the claim has evidence again and its note goes
    back = corrected(after, "uniforms-09", "con")
    assert back.summary.claims[1].note == "" and refs_of(back, "con") == ["uniforms-09"]
    assert back.summary.balance.removed_doc_ids == []


def test_a_side_unclear_document_is_placed_with_its_first_sentence() -> None:
    after = corrected(example_turn(), "uniforms-07", "pro")
    (ref,) = after.summary.claims[0].perspectives[-1].references
    assert (ref.by_user, ref.check, ref.verified) == ("placed", "user", False)
    assert ref.quote == "When our school brought in a uniform, mornings got calmer."
    assert (ref.passage_id, ref.quote_start, ref.quote_end) == (70, 0, len(ref.quote))
    assert ref.stance == 0.41
    assert after.summary.balance.unclear_doc_ids == []
    assert place_of(after, "uniforms-07") == "pro"


def test_a_one_sided_answer_keeps_the_note_of_the_claim_it_leaves_out() -> None:
    result = example_turn()
    result.plan.intent, result.plan.target_side = "one_sided", "pro"
    left_out = "Left out: only the other claim was asked for."
    result.summary.claims[1].perspectives, result.summary.claims[1].note = [], left_out
    after = corrected(result, "uniforms-02", "out")
    assert after.summary.claims[1].note == left_out
    emptied = corrected(corrected(after, "uniforms-01", "out"), "uniforms-07", "out")
    assert emptied.summary.claims[0].note == NO_EVIDENCE


@pytest.mark.parametrize(
    ("doc_id", "to", "message"),
    [
        ("uniforms-02", "pro", "already under Claim A"),
        ("uniforms-15", "pro", "not in this answer"),  # retrieved, never summarized
        ("nope", "out", "not in this answer"),
        ("uniforms-02", "sideways", "cannot move a document to 'sideways'"),
    ],
)
def test_bad_corrections_are_input_errors(doc_id: str, to: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        make_correction(example_turn(), doc_id, to)


def test_a_lookup_or_a_reply_cannot_be_corrected() -> None:
    from tests.ui_fakes import sample_lookup_result

    with pytest.raises(InputError, match="ranked list"):
        make_correction(sample_lookup_result(), "harbour", "pro")
    reply = example_turn(reply="[1] is there because …")
    with pytest.raises(InputError, match="from the session log"):
        make_correction(reply, "uniforms-02", "con")


DOCS = ["uniforms-01", "uniforms-02", "uniforms-07", "uniforms-09", "uniforms-14"]
steps = st.lists(st.tuples(st.sampled_from(DOCS), st.sampled_from(PLACES)), max_size=6)


def _apply_all(result: TurnResult, moves: list[tuple[str, str]]) -> TurnResult:
    for doc_id, to in moves:
        try:
            result = corrected(result, doc_id, to)
        except InputError:  # already there: nothing to correct
            assert place_of(result, doc_id) == to
    return result


@settings(max_examples=40, deadline=None)
@given(moves=steps)
def test_any_sequence_of_corrections_keeps_the_answer_consistent(
    moves: list[tuple[str, str]],
) -> None:
    after = _apply_all(example_turn(), moves)
    places = correctable(after)
    assert set(places) == set(DOCS)  # no document is lost or duplicated
    for doc_id, to in moves[-1:]:
        assert places[doc_id] == to
    for claim in after.summary.claims:
        assert all(p.references for p in claim.perspectives)  # none left without one
        assert claim.perspectives or claim.note  # an empty claim says so
    b = after.summary.balance
    for s in b.sides:
        assert s.documents_cited == len(set(refs_of(after, s.side)))
    apart = [*b.no_side_doc_ids, *b.unclear_doc_ids, *b.removed_doc_ids]
    cited = {*refs_of(after, "pro"), *refs_of(after, "con")}
    assert len(apart) == len(set(apart)) and not cited & set(apart)
    assert b.unused_doc_ids == ["uniforms-15"]


# --------------------------------------------------------------------------- the session log

_shared: dict[str, SessionStore] = {}


def _store() -> SessionStore:
    if "s" not in _shared:
        _shared["s"] = SessionStore(Path(tempfile.mkdtemp()) / "corrections.db")
    return _shared["s"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=steps)
def test_the_log_shows_what_the_app_showed(moves: list[tuple[str, str]]) -> None:
    """Each correction applied on screen and recorded in the log: reading the turn back
    gives the same answer, corrections and all."""
    s = _store()
    sid = s.create_session(index="demo")
    live = example_turn()
    tid = s.add_turn(sid, live)
    for doc_id, to in moves:
        try:
            fix = make_correction(live, doc_id, to, created=NOW)
        except InputError:
            continue
        live = apply_correction(live, fix)
        assert s.add_correction(tid, fix) == live
    [stored] = s.turns(sid)
    assert stored.result == live
    assert s.get_turn(tid).result == live


corrections = st.builds(
    Correction,
    doc_id=texts,
    to=st.sampled_from(PLACES),
    was=st.sampled_from(["pro", "con", "both", "no_side", "unclear", "out"]),
    title=texts,
    question=texts,
    claims=st.tuples(texts, texts),
    p=st.none() | st.lists(st.floats(0, 1, allow_nan=False, width=64), min_size=3, max_size=3),
    passages=st.lists(texts, max_size=3),
    quotes=st.lists(texts, max_size=2),
    stance_model=texts,
    created=st.text(min_size=1, max_size=25),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fixes=st.lists(corrections, max_size=3))
def test_corrections_round_trip_through_the_log(fixes: list[Correction]) -> None:
    s = _store()
    sid = s.create_session(index="demo")
    result = example_turn(corrections=fixes)
    tid = s.add_turn(sid, result)
    assert s.get_turn(tid).result == result
    got = [c for turn_id, c in s.all_corrections() if turn_id == tid]
    assert got == fixes


def test_the_log_keeps_the_answer_as_the_pass_wrote_it(tmp_path: Path) -> None:
    with SessionStore(tmp_path / "s.db") as s:
        sid = s.create_session(index="demo")
        tid = s.add_turn(sid, example_turn())
        first = make_correction(example_turn(), "uniforms-09", "out", created=NOW)
        after = s.add_correction(tid, first)
        s.add_correction(tid, make_correction(after, "uniforms-07", "con", created=NOW))
        original, shown = s.db.execute(
            "SELECT model_summary_json, summary_json FROM turns WHERE id = ?", (tid,)
        ).fetchone()
        assert json.loads(original) == example_turn().summary.to_dict()
        assert json.loads(shown) == s.get_turn(tid).result.summary.to_dict()
        # the search text follows the answer shown: the taken-out document's perspective
        assert not s.search("Branded items")
        # deleting the session deletes its corrections
        s.delete_session(sid)
        assert s.all_corrections() == []


def test_a_bad_correction_leaves_the_log_untouched(tmp_path: Path) -> None:
    from tests.ui_fakes import sample_lookup_result

    with SessionStore(tmp_path / "s.db") as s:
        sid = s.create_session(index="demo")
        tid = s.add_turn(sid, sample_lookup_result())
        fix = make_correction(example_turn(), "uniforms-02", "con", created=NOW)
        with pytest.raises(InputError, match="ranked list"):
            s.add_correction(tid, fix)
        with pytest.raises(StoreError, match="no turn with id 999"):
            s.add_correction(999, fix)
        assert s.all_corrections() == []
        assert s.get_turn(tid).result == sample_lookup_result()


def test_a_v3_log_is_migrated_and_takes_corrections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assistant import store as store_module

    path = tmp_path / "v3.db"
    full = list(store_module.MIGRATIONS)
    monkeypatch.setattr(store_module, "MIGRATIONS", [m for m in full if m[0] <= 3])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 3)
    old = example_turn()
    with SessionStore(path) as s:
        assert s.schema_version == 3
        sid = s.create_session(index="demo")
        tid = s.add_turn(sid, old)
    conn = sqlite3.connect(path)
    assert "corrections" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", full)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION)
    with SessionStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION == 4
        applied = s.db.execute("SELECT name FROM _migrations WHERE version = 4").fetchone()
        assert applied == ("m004_corrections",)
        [turn] = s.turns(sid)
        assert turn.result == old and turn.result.corrections == []
        after = s.add_correction(tid, make_correction(old, "uniforms-02", "con", created=NOW))
        assert s.get_turn(tid).result == after
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


# --------------------------------------------------------------------------- sphere ask


def test_ask_text_lists_no_side_apart_from_side_unclear_with_probabilities() -> None:
    from assistant.commands.ask_cmd import render_text, turn_json

    text = render_text(example_turn())
    no_side = text.index("Takes no side (1): the stance model says it argues neither claim")
    unclear = text.index("Side unclear (1): the stance model cannot tell which claim it argues")
    assert no_side < unclear
    assert "pro 0.10 · con 0.12 · neither 0.78 — Questions and answers" in text[no_side:unclear]
    assert "pro 0.41 · con 0.33 · neither 0.26 — What a head teacher learned" in text[unclear:]
    data = turn_json(example_turn())
    assert [(d["doc_id"], d["group"]) for d in data["documents_apart"]] == [
        ("uniforms-14", "no_side"),
        ("uniforms-07", "unclear"),
    ]
    moved = render_text(corrected(example_turn(), "uniforms-02", "con"))
    assert "(uniforms-02) — moved here by you" in moved


def test_ask_on_the_demo_index_shows_the_groups_the_answer_has(
    demo_index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The real pass: whatever the model leaves apart is in --json with its title and
    probabilities, in the text output and in --markdown, each group by its own name."""
    from assistant.cli import main

    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    question = "Should school uniforms be mandatory?"
    main(["ask", question, "--json"])
    data = json.loads(capsys.readouterr().out)
    balance = data["summary"]["balance"]
    apart = data["documents_apart"]
    assert [d["doc_id"] for d in apart if d["group"] == "no_side"] == balance["no_side_doc_ids"]
    assert [d["doc_id"] for d in apart if d["group"] == "unclear"] == balance["unclear_doc_ids"]
    cited = {
        r["doc_id"]
        for c in data["summary"]["claims"]
        for p in c["perspectives"]
        for r in p["references"]
    }
    # the model's probabilities are kept for every summarized document, cited or not
    assert cited | {d["doc_id"] for d in apart} <= set(balance["stance_p"])
    for d in apart:
        assert d["title"] and len(d["p"]) == 3 and d["p"] == balance["stance_p"][d["doc_id"]]
    main(["ask", question])
    text = capsys.readouterr().out
    main(["ask", question, "--markdown"])
    markdown = capsys.readouterr().out
    for group, title in (("no_side", "Takes no side"), ("unclear", "Side unclear")):
        shown = [d for d in apart if d["group"] == group]
        assert (f"{title} ({len(shown)})" in text) == bool(shown)
        assert (f"- {title}: " in markdown) == bool(shown)
        for d in shown:
            assert f"({d['doc_id']})" in text and f"(`{d['doc_id']}`)" in markdown


def test_why_is_a_moved_reference_there_says_the_user_moved_it() -> None:
    from types import SimpleNamespace

    from assistant.thread import cited, next_step

    after = corrected(example_turn(), "uniforms-09", "pro")
    number = next(n for n, c in cited(after).items() if c.ref.doc_id == "uniforms-09")
    turns = [SimpleNamespace(id=1, result=after, status="done")]
    step = next_step(f"why is [{number}] there?", turns)
    assert "under Claim A (moved here by you)" in step.reply
    assert "the stance model gives 0.22 that it supports this claim" in step.reply
