"""Markdown export: golden files, escaping, and a fuzz test of the block structure.

Golden files live in tests/golden/. After a deliberate change to the layout, look
at the diff and regenerate them with ``SPHERE_UPDATE_GOLDEN=1 pytest tests/test_export.py``.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from assistant.export import md_code, md_text, session_to_markdown, turn_to_markdown
from assistant.models import (
    BalanceReport,
    ClaimSummary,
    Constraint,
    DocumentHit,
    QueryPlan,
    Reference,
    SideBalance,
    Summary,
    SummaryPerspective,
    TurnResult,
)
from assistant.store import SessionInfo, StoredTurn
from tests.turn_strategies import example_turn

GOLDEN = Path(__file__).parent / "golden"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("SPHERE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing; run with SPHERE_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="utf-8")


def parser() -> MarkdownIt:
    return MarkdownIt("commonmark").use(footnote_plugin)


def example_session() -> tuple[SessionInfo, list[StoredTurn]]:
    info = SessionInfo(
        id=3,
        title="Should school uniforms be mandatory?",
        created="2025-06-02T09:14:05+00:00",
        updated="2025-06-02T09:20:41+00:00",
        turns=2,
        index="demo",
        embedder="all-MiniLM-L6-v2",
        model={"path": "SmolLM2-135M-Instruct.Q4_1.gguf", "sha256": "0f3c"},
        settings={"retrieval": {"k": 10, "mode": "sphere"}, "summary": {"documents": 20}},
    )
    second = example_turn("Are uniforms cheaper for families?")
    second.summary.claims[1].perspectives = []
    second.summary.claims[1].note = ""
    turns = [
        StoredTurn(1, 3, "2025-06-02T09:15:00+00:00", example_turn()),
        StoredTurn(2, 3, "2025-06-02T09:20:41+00:00", second),
    ]
    return info, turns


# --------------------------------------------------------------------------- golden files


def test_turn_golden() -> None:
    check_golden("turn.md", turn_to_markdown(example_turn(), created="2025-06-02T09:15:00+00:00"))


def test_session_golden() -> None:
    check_golden("session.md", session_to_markdown(*example_session()))


def test_session_structure() -> None:
    info, turns = example_session()
    text = session_to_markdown(info, turns)
    tokens = parser().parse(text)
    headings = [
        (t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"
    ]
    assert headings[0] == ("h1", "Should school uniforms be mandatory?")
    assert ("h2", "1. Should school uniforms be mandatory?") in headings
    assert ("h2", "2. Are uniforms cheaper for families?") in headings
    assert ("h3", "For: School uniforms should be mandatory.") in headings
    assert ("h3", "Against: School uniforms should not be mandatory.") in headings
    assert headings[-3:] == [("h2", "Method"), ("h3", "Question 1"), ("h3", "Question 2")]
    # 3 distinct cited passages in turn 1; turn 2 cites two of them again and reuses their notes
    definitions = [t for t in tokens if t.type == "footnote_open"]
    assert len(definitions) == 3
    assert re.findall(r"^\[\^(\d+)\]:", text, flags=re.M) == ["1", "2", "3"]
    turn2 = text.split("## 2. ")[1].split("## Method")[0]
    assert re.findall(r"\[\^(\d+)\]", turn2) == ["1", "2", "1"]
    # the second turn's empty side says so
    assert text.count("No supporting evidence found in this index.") == 1
    # the awkward quote rendered as text, inside its footnote, not as structure
    rendered = parser().render(text)
    assert "# Prices rise - two to three times more [^1] on `compulsory` items | see table" in (
        html.unescape(re.sub(r"<[^>]+>", "", rendered))
    )


def test_balance_and_unused_documents() -> None:
    text = turn_to_markdown(example_turn())
    assert "- For: 2 documents cited, 2 distinct sources, mean retrieval score 0.685" in text
    assert "- Against: 1 document cited, 1 distinct source, mean retrieval score 0.640" in text
    assert "- Lopsidedness: 0.33" in text
    assert (
        "A short history of school uniforms, Open Learning Library (explainer) (`uniforms-15`)"
        in text
    )


def test_citations_are_deduplicated_within_a_turn() -> None:
    text = turn_to_markdown(example_turn())
    # uniforms-02 is cited by two perspectives with the same quote: one note, two markers
    assert text.count("[^1]") == 3  # two markers + the definition
    assert len(re.findall(r"^\[\^\d+\]:", text, flags=re.M)) == 3


# --------------------------------------------------------------------------- escaping


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("# heading", "\\# heading"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("12. item", "12\\. item"),
        ("3) item", "3\\) item"),
        ("> quote", "\\> quote"),
        ("a [^1] b", "a \\[\\^1\\] b"),
        ("x^[note]", "x\\^\\[note\\]"),
        ("<b>x</b>", "\\<b\\>x\\</b\\>"),
        ("a | b", "a \\| b"),
        ("`code`", "\\`code\\`"),
        ("*em* _em_", "\\*em\\* \\_em\\_"),
        # newlines are collapsed, so "-" is no longer at a line start
        ("line one\n- line two\r\n\n# three", "line one - line two \\# three"),
        ("&amp; c:\\path", "\\&amp; c:\\\\path"),
        ("=====", "\\====="),
        ("2024 was 12.5", "2024 was 12.5"),  # ordinary text stays readable
    ],
)
def test_md_text(raw: str, escaped: str) -> None:
    assert md_text(raw) == escaped


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("path/to/file.pdf", "`path/to/file.pdf`"),
        ("a`b", "``a`b``"),
        ("`x`", "`` `x` ``"),
        ("a``b```c", "````a``b```c````"),
        ("", "(none)"),
    ],
)
def test_md_code(raw: str, code: str) -> None:
    assert md_code(raw) == code


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\x00", "\ufffd")).strip()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_md_text_renders_back_to_the_original_text(raw: str) -> None:
    """Escaping is lossless: CommonMark shows exactly the text (whitespace collapsed)."""
    rendered = MarkdownIt("commonmark").render("x " + md_text(raw))
    assert (
        rendered
        == f"<p>{html.escape('x ' + _collapse(raw), quote=False).strip()}</p>\n".replace(
            '"', "&quot;"
        )
    )


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=40).filter(lambda s: s.strip()))
def test_md_code_renders_back_to_the_original_text(raw: str) -> None:
    tokens = MarkdownIt("commonmark").parseInline("x " + md_code(raw))[0].children or []
    codes = [t.content for t in tokens if t.type == "code_inline"]
    assert codes == [_collapse(raw)]


# --------------------------------------------------------------------------- fuzzing the layout

awkward = st.text(
    alphabet=st.characters() | st.sampled_from(list("#*_-+>[]^:`|<>&!\\=~ \n\t0123456789.)(")),
    min_size=1,
    max_size=30,
).filter(lambda s: s.strip())


def _turn_from(text: Callable[[], str]) -> TurnResult:
    """A fixed-shape turn whose every string comes from ``text``."""

    def ref(i: int) -> Reference:
        return Reference(
            doc_id=text(),
            title=text(),
            source=text(),
            path=text(),
            page=i or None,
            passage_id=i,
            quote=text(),
            verified=bool(i % 2),
            check=text(),
            support=0.5,
        )

    summary = Summary(
        question=text(),
        claims=[
            ClaimSummary(
                text(),
                "pro",
                [
                    SummaryPerspective(text(), [ref(0), ref(1)]),
                    SummaryPerspective(text(), [ref(2)]),
                ],
            ),
            ClaimSummary(text(), "con", [SummaryPerspective(text(), [ref(3)])], note=text()),
        ],
        balance=BalanceReport(
            [SideBalance("pro", 2, 2, 0.5, 2), SideBalance("con", 1, 1, 0.4, 1)],
            0.2,
            [text(), text()],
        ),
        notes=[text(), text()],
    )
    return TurnResult(
        question=text(),
        plan=QueryPlan(text(), text(), constraints=[Constraint(text(), text())]),
        hits={"pro": [DocumentHit(text(), 0.1, 1, text(), text())]},
        summary=summary,
        index=text(),
        timings={text(): 0.5},
        model={text(): text(), "nested": {text(): text()}},
        retrieval={text(): text()},
    )


def _shape(markdown: str) -> list[tuple[str, ...]]:
    """Block tokens plus the structural inline tokens (anything but plain text)."""
    shape: list[tuple[str, ...]] = []
    for t in parser().parse(markdown):
        if t.type == "inline":
            kids = tuple(c.type for c in t.children or [] if c.type not in ("text", "softbreak"))
            shape.append(("inline", *kids))
        else:
            shape.append((t.type, t.tag))
    return shape


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_document_text_cannot_change_the_layout(data: st.DataObject) -> None:
    """Arbitrary text in every field gives the same headings, lists and footnotes as plain words."""
    # distinct strings, so lookups by id (unused documents, dict keys) behave as with words
    texts = data.draw(
        st.lists(awkward.filter(lambda s: s != "nested"), min_size=80, max_size=80, unique=True)
    )
    fuzzed = _turn_from(iter(texts).__next__)
    plain = _turn_from(iter(f"word{i}" for i in range(1000)).__next__)
    for render in (
        lambda r: turn_to_markdown(r, number=1, created="2025-01-01"),
        lambda r: session_to_markdown(
            SessionInfo(1, r.question, "2025-01-01", "2025-01-02", 1, r.index, r.index, r.model),
            [StoredTurn(1, 1, "2025-01-01", r)],
        ),
    ):
        fuzzed_md, plain_md = render(fuzzed), render(plain)
        assert _shape(fuzzed_md) == _shape(plain_md)
        assert len(re.findall(r"^#{1,6} ", fuzzed_md, flags=re.M)) == len(
            re.findall(r"^#{1,6} ", plain_md, flags=re.M)
        )


def test_a_cited_document_with_copies_names_them_in_its_note() -> None:
    turn = example_turn()
    hit = turn.hits["pro"][0]
    hit.copies = ["uniforms-02 (copy)"]
    text = turn_to_markdown(turn)
    notes = [line for line in text.splitlines() if line.startswith("[^") and hit.doc_id in line]
    assert notes and all("Same passage also in `uniforms-02 (copy)`." in n for n in notes)
    others = [line for line in text.splitlines() if re.match(r"^\[\^\d+\]:", line)]
    assert sum("Same passage also in" in n for n in others) == len(notes)


def test_thread_lines_without_the_turns_they_follow() -> None:
    """A follow-up of a turn not in the export says so; a reply alone has no footnotes;
    what a question about the answer asked is said in words."""
    from assistant.export import follow_changes
    from assistant.models import Summary

    info, turns = example_session()
    follow = example_turn("only documents in Spanish")
    follow.plan.follows, follow.plan.derivation = 17, "add_constraint: + constraint language es"
    reply = example_turn("compare [1] and [2]")
    reply.summary = Summary(question=reply.question, claims=[], notes=[])
    reply.hits = {}
    reply.plan.follows, reply.plan.derivation = 1, "compare_refs: [1, 2]"
    reply.reply = "[1] A (a)\n  quote: “x”\n\n[2] B (b)\n  quote: “y”"
    assert follow_changes(reply.plan) == "compares references [1] and [2]"
    text = session_to_markdown(info, [*turns, StoredTurn(18, 3, "2025-06-03", follow)])
    assert "*Follows a turn not in this export (id 17): \\+ constraint language es*" in text
    alone = turn_to_markdown(reply)
    assert alone.split("\n\n")[1] == (
        "*Follows turn 1: compares references \\[1\\] and \\[2\\] "
        "(answered from the session log, no new search)*"
    )
    assert (
        alone.split("\n\n")[2] == "- \\[1\\] A (a)\n  - quote: “x”\n- \\[2\\] B (b)\n  - quote: “y”"
    )
    assert "[^" not in alone and "### Balance" not in alone


def corrected_turn() -> TurnResult:
    """The example turn after three corrections by the user: a cited document moved
    under the other claim, a "side unclear" one placed, and one taken out (issue 33)."""
    from assistant.summarize.correct import apply_correction, make_correction

    result = example_turn()
    for doc_id, to in (("uniforms-02", "con"), ("uniforms-07", "pro"), ("uniforms-01", "out")):
        fix = make_correction(result, doc_id, to, created="2025-06-02T09:16:00+00:00")
        result = apply_correction(result, fix)
    return result


def test_corrected_turn_golden() -> None:
    """A moved reference is marked "moved by you" with the model's own probabilities,
    the documents taken out are listed, and so are the corrections."""
    md = turn_to_markdown(corrected_turn(), created="2025-06-02T09:15:00+00:00")
    check_golden("turn_corrected.md", md)
    assert "*(moved by you)*" in md and "*(placed by you)*" in md
    assert "Moved by you under the Against claim (the stance model: pro 0.89 · con 0.06" in md
    assert "- Taken out by you: you said it argues neither claim (1):" in md
    assert "Side unclear" not in md  # the one unclear document was placed


def test_export_lists_no_side_apart_from_side_unclear_with_probabilities() -> None:
    md = turn_to_markdown(example_turn())
    no_side = md.index("- Takes no side: the stance model says it argues neither claim (1):")
    unclear = md.index("- Side unclear: the stance model cannot tell which claim it argues")
    assert no_side < unclear
    assert "(`uniforms-14`): pro 0.10 · con 0.12 · neither 0.78" in md[no_side:unclear]
    assert "(`uniforms-07`): pro 0.41 · con 0.33 · neither 0.26" in md[unclear:]
    assert "Taken out by you" not in md and "Corrected by you" not in md
