"""The app's text helpers and the plan editor's YAML round trip (no Textual needed)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from assistant.citations import number_references
from assistant.errors import InputError
from assistant.models import (
    BalanceReport,
    ClaimSummary,
    Progress,
    Reference,
    SideBalance,
    Summary,
    SummaryPerspective,
)
from assistant.ui.format import (
    balance_text,
    export_filename,
    format_elapsed,
    format_when,
    overall_fraction,
    plan_lines,
    quote_span,
    session_title,
    slugify,
    stage_text,
    verification_text,
)
from assistant.ui.plan_text import plan_to_text, text_to_plan
from tests.ui_fakes import sample_plan


def test_overall_fraction_by_stage() -> None:
    # summarizing spans [0.35, 0.80]; 2 of 4 groups is half of it
    assert overall_fraction(Progress("summarizing", 2, 4)) == pytest.approx(0.35 + 0.45 / 2)
    assert overall_fraction(Progress("understanding")) == 0.0
    assert overall_fraction(Progress("retrieving", 2, 2)) == pytest.approx(0.35)
    assert overall_fraction(Progress("verifying", 9, 3)) == pytest.approx(1.0)  # clamped
    assert overall_fraction(Progress("done")) == 1.0
    assert overall_fraction(Progress("mystery", 1, 2)) == 0.0


def test_stage_text() -> None:
    assert stage_text(Progress("summarizing", 2, 4)) == "Local summaries 2/4"
    assert stage_text(Progress("retrieving", 1, 2, "pro")) == "Retrieving 1/2 · pro"
    assert stage_text(Progress("merging")) == "Editorial merge"
    assert stage_text(Progress("done")) == "Done"


def test_format_elapsed() -> None:
    assert format_elapsed(3.21) == "3.2 s"
    assert format_elapsed(-1) == "0.0 s"
    assert format_elapsed(125.0) == "2 min 05 s"


def _ref(doc: str, pid: int, quote: str = "", start: int = -1, end: int = -1) -> Reference:
    return Reference(doc_id=doc, passage_id=pid, quote=quote, quote_start=start, quote_end=end)


def test_number_references_by_first_appearance_across_claims() -> None:
    summary = Summary(
        question="q",
        claims=[
            ClaimSummary(
                "a",
                "pro",
                [
                    SummaryPerspective("p1", [_ref("d1", 1), _ref("d2", 5)]),
                    SummaryPerspective("p2", [_ref("d2", 5)]),
                ],
            ),
            ClaimSummary("b", "con", [SummaryPerspective("p3", [_ref("d3", 7), _ref("d1", 2)])]),
        ],
    )
    assert number_references(summary) == {("d1", 1): 1, ("d2", 5): 2, ("d3", 7): 3, ("d1", 2): 4}


def test_quote_span_prefers_stored_offsets_then_searches() -> None:
    passage = "Alpha beta. Gamma delta epsilon."
    assert quote_span(passage, _ref("d", 1, "Gamma delta", 12, 23)) == (12, 23)
    # offsets from another rendering of the passage: found by search instead
    assert quote_span(passage, _ref("d", 1, "Gamma delta", 0, 11)) == (12, 23)
    assert quote_span(passage, _ref("d", 1, "gamma DELTA")) == (12, 23)
    assert quote_span(passage, _ref("d", 1, "zeta")) is None
    assert quote_span(passage, _ref("d", 1, "")) is None


def test_verification_text() -> None:
    ok = Reference(doc_id="d", verified=True, check="quote", support=0.9)
    assert verification_text(ok) == "✓ Verified — quote found in the passage (support 0.90)"
    bad = Reference(doc_id="d", verified=False, check="similarity", support=0.412)
    assert verification_text(bad).startswith("✗ Not verified")
    assert "(support 0.41)" in verification_text(bad)


def test_slug_and_export_filename() -> None:
    assert slugify("Should X be Y? Ça va!") == "should-x-be-y-ca-va"
    assert slugify("???") == "session"
    long = slugify("Should vaccination be compulsory for school children?")
    assert long == "should-vaccination-be-compulsory-for"  # cut on a word boundary
    assert export_filename(7, "A/B test") == "sphere-session-7-a-b-test.md"


def test_session_title_shortens_on_word_boundary() -> None:
    assert session_title("  short   question ") == "short question"
    title = session_title("word " * 30, max_len=20)
    assert title == "word word word word…"
    assert len(title) <= 20


def test_format_when() -> None:
    assert format_when(datetime(2025, 3, 14, 9, 5)) == "2025-03-14 09:05"
    local = datetime(2025, 3, 14, 9, 5, tzinfo=timezone.utc).astimezone()
    assert format_when("2025-03-14T09:05:00+00:00") == local.strftime("%Y-%m-%d %H:%M")
    assert format_when("not a date at all") == "not a date at all"[:16]
    assert format_when(None) == ""


def test_balance_text() -> None:
    report = BalanceReport(
        sides=[SideBalance("pro", 3, 2, 0.5, 2), SideBalance("con", 1, 1, 0.4, 1)],
        lopsidedness=0.5,
    )
    assert balance_text(report) == (
        "Claim A: 3 documents, 2 sources, 2 perspectives · "
        "Claim B: 1 document, 1 source, 1 perspective · lopsidedness 0.50 (one-sided)"
    )


def test_plan_lines_name_every_part_of_the_plan() -> None:
    labels = [label for label, _ in plan_lines(sample_plan("q"))]
    assert labels == ["Root query", "Claims", "Perspectives", "Aspects", "Constraints"]
    constraints = dict(plan_lines(sample_plan("q")))["Constraints"]
    assert constraints == "source ≠ news (soft)"


def test_plan_text_round_trip() -> None:
    plan = sample_plan("Should vaccination be compulsory?")
    back = text_to_plan(plan_to_text(plan), plan)
    assert back.to_dict() == {**plan.to_dict(), "source": "user"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("root_query: [", "not valid YAML at line 1"),
        ("- a list", "must be a mapping"),
        ("root_query: ''", "root_query must not be empty"),
        ("root_query: x\nwhatever: 1", "unknown plan field 'whatever'"),
        ("root_query: x\nintent: maybe", "intent must be one of"),
        ("root_query: x\nperspectives: [{role: stance}]", "perspective 1 needs a 'text'"),
        ("root_query: x\nperspectives: [{text: a, side: left}]", "must be pro, con or null"),
        ("root_query: x\nconstraints: [{dimension: color, value: red}]", "dimension must be"),
        ("root_query: x\naspects: one", "'aspects' must be a list"),
    ],
)
def test_plan_text_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        text_to_plan(text, sample_plan("q"))


def test_plan_text_accepts_short_forms() -> None:
    plan = text_to_plan(
        "root_query: x\nclaims: [for it, against it]\nperspectives: [cost]\n"
        "aspects: [{text: price}]\ntarget_side: con\nintent: one_sided\n",
        sample_plan("q"),
    )
    assert plan.claims == ("for it", "against it")
    assert plan.perspectives[0].text == "cost" and plan.perspectives[0].role == "other"
    assert [a.text for a in plan.aspects] == ["price"]
    assert (plan.intent, plan.target_side) == ("one_sided", "con")
    assert plan.question == "q"
