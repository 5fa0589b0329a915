"""Sides passage by passage (issues 33 and 34): a page that argues both claims is cited
under both, each side quoting its own passages; "takes no side" and "side unclear" are
kept apart. The stance model here is scripted (the point is the control flow); the
embedder is the bundled one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from assistant.models import Passage, QueryPlan
from assistant.stance.model import DocumentJudgement, SideJudgement
from assistant.summarize.balance import balance_report
from assistant.summarize.evidence import SourceDoc, split_passages
from assistant.summarize.hiersphere import SummaryOptions, summarize
from assistant.summarize.sides import _passages_to_judge
from assistant.summarize.verify import verify_summary

QUESTION = "Should cities ban cars from their centres?"
CLAIMS = (
    "Cities should ban cars from their centres.",
    "Cities should not ban cars from their centres.",
)
PRO = "Banning cars from the centre cut air pollution by a third within a year."
CON = "Banning cars from the centre drove shoppers to out-of-town malls and shops closed."
BACKGROUND = "The old town centre was laid out in the twelfth century around a market square."


class ScriptedStance:
    """Judges a passage by which scripted sentence it holds; records what it was asked."""

    def __init__(self, table: dict[str, tuple[float, float, float]]) -> None:
        self.table = table
        self.asked: list[list[str]] = []

    def judge_documents(
        self, question: str, claims: tuple[str, str], docs: Sequence[Sequence[str]]
    ) -> list[DocumentJudgement]:
        out = []
        for passages in docs:
            self.asked.append(list(passages))
            own = [self._one(t) for t in passages]
            whole = max(own, key=lambda j: j.confidence) if own else SideJudgement(2, (0, 0, 1))
            out.append(DocumentJudgement(whole, own))
        return out

    def _one(self, text: str) -> SideJudgement:
        for key, p in self.table.items():
            if key in text:
                return SideJudgement(max(range(3), key=p.__getitem__), p)
        return SideJudgement(2, (0.1, 0.1, 0.8))


def _doc(doc_id: str, rank: int, texts: list[str], first_pid: int) -> SourceDoc:
    d = SourceDoc(doc_id, title=doc_id, rank=rank, side_ranks={"pro": rank})
    d.passages = [
        Passage(doc_id, i, t, 0, len(t), passage_id=first_pid + i) for i, t in enumerate(texts)
    ]
    d.sentences = split_passages(doc_id, d.passages)
    d.passage_scores = {first_pid + i: 1.0 - 0.1 * i for i in range(len(texts))}
    return d


def _references(summary: Any) -> list[Any]:
    """Every reference of ``summary``, claim by claim."""
    return [r for c in summary.claims for p in c.perspectives for r in p.references]


def _by_side(summary: Any, field: str) -> dict[str, list[Any]]:
    """Each claim's side -> ``field`` of each of its references, in order."""
    return {
        c.side: [getattr(r, field) for p in c.perspectives for r in p.references]
        for c in summary.claims
    }


@pytest.fixture
def plan() -> QueryPlan:
    return QueryPlan(question=QUESTION, root_query=QUESTION, claims=CLAIMS)


def test_a_page_arguing_both_claims_is_cited_under_both_from_its_own_passages(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), CON: (0.06, 0.9, 0.04)})
    page = _doc("debate-page", 1, [PRO, BACKGROUND, CON], 10)
    draft = summarize(plan, [page], embedder, SummaryOptions(groups=1), stance=stance)
    quotes = _by_side(draft.summary, "quote")
    assert quotes["pro"] == [PRO] and quotes["con"] == [CON]
    summary, report = verify_summary(
        draft.summary,
        [page],
        embedder,
        stance=draft.stance,
        passage_stance=draft.passage_stance,
    )
    kept = _by_side(summary, "passage_id")
    assert kept == {"pro": [10], "con": [12]}, report.removed
    refs = _references(summary)
    assert sorted(r.stance for r in refs) == [0.9, 0.9]  # each its own passage's probability


def test_documents_read_from_some_of_their_passages_are_verified_against_those(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # with a passage budget of 2, each page is summarized from its best passage only; the
    # verifier was handed the whole pages with the vectors of those passages' sentences,
    # matched them by position and dropped the best-retrieved page of "Should child
    # performers be banned?" ("the document does not support the perspective")
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), CON: (0.06, 0.9, 0.04)})
    filler = "The council published the survey results on its website in the spring."
    pro_page = _doc("pro-page", 1, [PRO, BACKGROUND, filler], 10)
    con_page = _doc("con-page", 2, [CON, filler, BACKGROUND], 20)
    opts = SummaryOptions(groups=1, stance_passages=2)
    draft = summarize(plan, [pro_page, con_page], embedder, opts, stance=stance)
    assert [[p.passage_id for p in d.passages] for d in draft.docs] == [[10], [20]]
    cited = _by_side(draft.summary, "doc_id")
    assert cited == {"pro": ["pro-page"], "con": ["con-page"]}
    for pool in (draft.docs, [pro_page, con_page]):  # as the pipeline does; the whole pages
        summary, report = verify_summary(
            draft.summary,
            pool,
            embedder,
            sentence_vecs=draft.sentence_vecs,
            stance=draft.stance,
            passage_stance=draft.passage_stance,
        )
        kept = _by_side(summary, "doc_id")
        assert kept == cited, report.removed


class SentenceScriptedStance(ScriptedStance):
    """Also reads a sentence alone, from its own table (a quote's check)."""

    def __init__(
        self,
        table: dict[str, tuple[float, float, float]],
        sentences: dict[str, tuple[float, float, float]],
    ) -> None:
        super().__init__(table)
        self.sentences = sentences
        self.read_alone: list[str] = []

    def sentence_sides(
        self, question: str, claims: tuple[str, str], sentences: Sequence[str]
    ) -> list[SideJudgement]:
        self.read_alone.extend(sentences)
        out = []
        for t in sentences:
            p = next((v for k, v in self.sentences.items() if k in t), (0.34, 0.33, 0.33))
            out.append(SideJudgement(max(range(3), key=p.__getitem__), p))
        return out


def test_a_quote_that_alone_argues_the_other_claim_is_not_cited_under_this_one(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # the passage reads as claim A as a whole, but its evidence sentence, read alone, argues
    # B ("libffi is not completely thread-safe." under "Libffi is safe to use from several
    # threads"): the page is not cited under A, and with no other side it is "side unclear"
    negated = "Banning cars from the centre did not cut air pollution at all, the study found."
    stance = SentenceScriptedStance(
        {"did not cut": (0.8, 0.15, 0.05), PRO: (0.9, 0.05, 0.05)},
        {"did not cut": (0.1, 0.85, 0.05), PRO: (0.9, 0.05, 0.05)},
    )
    wrong = _doc("wrong-page", 1, [negated], 10)
    right = _doc("right-page", 2, [PRO], 20)
    draft = summarize(plan, [wrong, right], embedder, SummaryOptions(groups=1), stance=stance)
    cited = {r.doc_id for c in draft.summary.claims for p in c.perspectives for r in p.references}
    assert cited == {"right-page"}
    assert draft.unclear == ["wrong-page"]
    assert sorted(stance.read_alone) == sorted([negated, PRO])  # each side's quote, once


def test_without_passage_judgments_a_document_stays_under_one_claim(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # the same page, both references quoting passages the model never judged on their own:
    # the verifier keeps one claim only, as before
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), CON: (0.06, 0.9, 0.04)})
    page = _doc("debate-page", 1, [PRO, BACKGROUND, CON], 10)
    draft = summarize(plan, [page], embedder, SummaryOptions(groups=1), stance=stance)
    summary, report = verify_summary(draft.summary, [page], embedder, stance=None)
    sides = [c.side for c in summary.claims if c.perspectives]
    assert len(sides) == 1
    assert any("opposing claim" in r["reason"] for r in report.removed)


def test_no_side_and_side_unclear_are_kept_apart_with_their_probabilities(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    stance = ScriptedStance(
        {PRO: (0.9, 0.05, 0.05), "twelfth century": (0.1, 0.1, 0.8), "tram": (0.4, 0.35, 0.25)}
    )
    docs = [
        _doc("argues", 1, [PRO], 1),
        _doc("history", 2, [BACKGROUND], 2),
        _doc("leaning", 3, ["A tram line through the centre was debated for years."], 3),
    ]
    options = SummaryOptions(groups=1)
    assert options.stance_min_confidence > 0.4  # "tram" leans without the confidence needed
    draft = summarize(plan, docs, embedder, options, stance=stance)
    assert draft.no_side == ["history"] and draft.unclear == ["leaning"]
    report = balance_report(
        draft.summary, ["argues", "history", "leaning"], draft.no_side, draft.unclear, draft.stance
    )
    assert report.no_side_doc_ids == ["history"] and report.unclear_doc_ids == ["leaning"]
    assert report.stance_p["leaning"] == [0.4, 0.35, 0.25]
    assert report.unused_doc_ids == []


def test_the_stance_budget_reads_every_best_passage_then_the_best_ranked_documents() -> None:
    docs = [_doc(f"d{i}", i, [f"passage {i}.{j}" for j in range(4)], 10 * i) for i in (1, 2, 3)]
    read = _passages_to_judge(docs, 6)
    assert [len(r) for r in read] == [4, 1, 1]  # 3 best passages, then 3 more for d1
    # in document order, whatever the scores
    assert [p.passage_id for p in read[0]] == [10, 11, 12, 13]
    assert [len(r) for r in _passages_to_judge(docs, 2)] == [1, 1, 1]  # never below one each


def _paragraph(sentence: str, filler: str) -> str:
    """``sentence`` padded to a paragraph (>= PARAGRAPH_WORDS words) with ``filler``."""
    return " ".join([sentence, *([filler] * 4)])


@pytest.mark.parametrize("unit", ["paragraph", "passage"])
def test_a_passage_holding_a_point_and_its_counter_takes_both_sides_paragraph_by_paragraph(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
    unit: str,
) -> None:
    # the chunker packs sentences across paragraphs, so one passage of a debate page
    # often holds a point and the counter that rebuts it; judged whole it took one side
    point = _paragraph(PRO, "Residents reported cleaner air and quieter streets in the survey.")
    counter = _paragraph(CON, "Traders said footfall fell and several family shops shut.")
    text = f"Point: the case for a ban\n{point}\n{counter}"
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), CON: (0.06, 0.9, 0.04)})
    page = _doc("debate-page", 1, [text], 10)
    opts = SummaryOptions(groups=1, stance_unit=unit)  # type: ignore[arg-type]
    draft = summarize(plan, [page], embedder, opts, stance=stance)
    if unit == "passage":
        assert stance.asked == [[text]]
        assert draft.doc_sides == {"debate-page": "pro"}
        return
    # the heading goes with the paragraph after it; each paragraph is judged alone
    assert stance.asked == [[f"Point: the case for a ban\n{point}", counter]]
    summary, report = verify_summary(
        draft.summary,
        draft.docs,
        embedder,
        sentence_vecs=draft.sentence_vecs,
        stance=draft.stance,
        passage_stance=draft.passage_stance,
        unit_stance=draft.unit_stance,
    )
    quotes = _by_side(summary, "quote")
    assert len(quotes["pro"]) == 1 and quotes["pro"][0] in point, report.removed
    assert len(quotes["con"]) == 1 and quotes["con"][0] in counter, report.removed
    refs = _references(summary)
    assert sorted(r.stance for r in refs) == [0.9, 0.9]  # each its own paragraph's probability


def test_a_rebuttal_is_quoted_by_its_own_sentence_not_the_claim_it_restates(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # a counter-paragraph restates the point it rebuts; read alone, that restatement argues
    # the other claim, so the paragraph is quoted by a sentence that argues its own
    restated = "Supporters say banning cars from the centre cut air pollution by a third."
    rebuttal = "In fact the shops closed and shoppers drove further to out-of-town malls."
    stance = SentenceScriptedStance(
        {restated: (0.1, 0.85, 0.05)},  # the paragraph as a whole argues B
        {restated: (0.8, 0.15, 0.05), rebuttal: (0.1, 0.8, 0.1)},
    )
    page = _doc("counter-page", 1, [f"{restated} {rebuttal}"], 10)
    opts = SummaryOptions(groups=1, claim_lean_weight=-5.0)  # rank the restatement first
    draft = summarize(plan, [page], embedder, opts, stance=stance)
    quotes = _by_side(draft.summary, "quote")
    assert quotes == {"pro": [], "con": [rebuttal]}
    assert stance.read_alone == [restated, rebuttal]
    off = summarize(
        plan,
        [page],
        embedder,
        SummaryOptions(groups=1, claim_lean_weight=-5.0, quote_retries=0),
        stance=stance,
    )
    assert off.unclear == ["counter-page"]  # as before: the side is not cited


def test_a_paragraph_of_reference_entries_takes_no_side_and_is_never_quoted(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # a page's bibliography is a passage of its own: lines that end as no sentence ends;
    # even when the model reads a side into it there is nothing in it to quote
    refs = "\n".join(
        [
            "ETN, 'Car-free centres and the high street', 13 August 2013",
            "World Bank, 'Urban transport: cities without cars', 23 May 2013",
            "Smith, J. 'Footfall after pedestrianisation', Journal of Retail, November 2010",
        ]
    )
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), "ETN,": (0.05, 0.9, 0.05)})
    page = _doc("debate-page", 1, [_paragraph(PRO, BACKGROUND), refs], 10)
    draft = summarize(plan, [page], embedder, SummaryOptions(groups=1), stance=stance)
    quotes = _by_side(draft.summary, "quote")
    assert quotes.get("con", []) == []
    assert quotes["pro"] == [PRO]
    assert draft.doc_sides == {"debate-page": "pro"}


def test_a_heading_is_not_quoted_while_its_paragraph_has_a_sentence(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    # the heading repeats the question's words and is the nearest line to it by
    # embeddings, but it ends as no sentence does
    heading = "Should cities ban cars from their centres"
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05)})
    page = _doc("page", 1, [f"{heading}\n{PRO}"], 10)
    draft = summarize(plan, [page], embedder, SummaryOptions(groups=1), stance=stance)
    assert _by_side(draft.summary, "quote")["pro"] == [PRO]


OFF_TOPIC_ARG = "Doing so violates the infant's right to be free from pain and injury."
MENTION = "Cities that ban cars from their centres were also discussed at the conference."


@pytest.mark.parametrize("ratio", [None, 0.7])
def test_the_quote_gate_keeps_a_page_of_another_subject_out(
    plan: QueryPlan,
    embedder,  # type: ignore[no-untyped-def]
    ratio: float | None,
) -> None:
    # another subject's page passes the document gate by one sentence naming the
    # question's words (neutral), and its arguing paragraph is about something else: with
    # the quote gate (an experiment, off by default) it is off-topic, without it quoted
    stance = ScriptedStance({PRO: (0.9, 0.05, 0.05), OFF_TOPIC_ARG: (0.85, 0.1, 0.05)})
    page = _doc("cars-page", 1, [PRO], 10)
    other = _doc("other-page", 2, [OFF_TOPIC_ARG, MENTION], 20)
    opts = SummaryOptions(groups=1, relevance_ratio=0.4, quote_relevance_ratio=ratio)
    draft = summarize(plan, [page, other], embedder, opts, stance=stance)
    quotes = _by_side(draft.summary, "quote")
    if ratio is None:
        assert OFF_TOPIC_ARG in quotes["pro"] and PRO in quotes["pro"]
    else:
        assert quotes["pro"] == [PRO]
        assert MENTION not in quotes["pro"] + quotes["con"]
        assert "other-page" in draft.off_topic
