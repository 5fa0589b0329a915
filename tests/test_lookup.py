"""Lookup questions: ranked by aspect fusion, each row checked against the aspects.

A lookup plan (intent ``lookup``) is built by hand here, because the question
parser decides intents (its own tests cover that); everything after the plan
is the real pipeline on a small real index (the bundled MiniLM, FAISS, BM25).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from assistant.config import Settings
from assistant.errors import DataError
from assistant.export import turn_to_markdown
from assistant.index import BuildOptions, Index, build_index
from assistant.ingest.loaders import FieldMapping
from assistant.models import Aspect, DocumentHit, Progress, QueryPerspective, QueryPlan, TurnResult
from assistant.pipeline import Pipeline, as_lookup_plan
from assistant.retrieval.retriever import Retriever, plan_queries
from assistant.store import SessionStore
from assistant.summarize.evidence import Sentence, SourceDoc
from assistant.summarize.lookup import answer_lookup
from assistant.summarize.verify import same_polarity, terms_match
from tests.test_export import check_golden, parser
from tests.ui_fakes import sample_lookup_result

HOTELS = [
    (
        "harbour",
        "Harbour View Hotel",
        "Travel Notes",
        "The Harbour View Hotel has quiet rooms facing the bay. Breakfast is included in every "
        "rate. The hotel is ten minutes on foot from the train station.",
    ),
    (
        "loft",
        "City Loft Inn",
        "Nightlife Guide",
        "City Loft Inn sits above a busy nightclub, so the rooms are loud until late. Breakfast "
        "costs extra at the cafe downstairs. The rooftop pool is open all summer.",
    ),
    (
        "garden",
        "Garden Rest Guesthouse",
        "Travel Notes",
        "A small guesthouse whose quiet rooms open onto a walled garden. Pets are welcome in every "
        "room. Guests make their own meals in the shared kitchen.",
    ),
    (
        "airport",
        "Airport Express Hotel",
        "Business Travel",
        "The Airport Express Hotel is built for one-night stays before early flights. A free "
        "breakfast box is included with every booking. Planes pass overhead all night.",
    ),
    (
        "bread",
        "Baking sourdough at home",
        "Kitchen Diary",
        "Feed the starter twice a day and keep it somewhere warm before baking the loaf. A long "
        "cold proof gives the crumb its tang.",
    ),
]
QUESTION = "A hotel with quiet rooms and breakfast included"
ASPECTS = ("quiet rooms", "breakfast included")


def lookup_plan(aspects: tuple[str, ...] = ASPECTS, **changes: object) -> QueryPlan:
    plan = QueryPlan(
        question=QUESTION,
        root_query=QUESTION,
        aspects=[Aspect(a) for a in aspects],
        intent="lookup",
        source="user",
    )
    return replace(plan, **changes)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def hotel_index(tmp_path_factory: pytest.TempPathFactory, embedder) -> Path:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("hotels")
    src = folder / "hotels.jsonl"
    with src.open("w", encoding="utf-8") as fh:
        for doc_id, title, source, text in HOTELS:
            record = {"id": doc_id, "title": title, "source": source, "text": text}
            fh.write(json.dumps(record) + "\n")
    mapping = FieldMapping(
        id_field="id", text_field="text", title_field="title", source_field="source"
    )
    build_index(folder / "idx", "hotels", [src], embedder, BuildOptions(mapping=mapping))
    return folder / "idx"


def _settings(index_dir: Path) -> Settings:
    settings = Settings(index_dir=index_dir, default_index="hotels")  # type: ignore[call-arg]
    settings.llm.use = "never"
    return settings


@pytest.fixture()
def pipeline(hotel_index: Path, embedder):  # type: ignore[no-untyped-def]
    p = Pipeline(_settings(hotel_index), Index.open(hotel_index, "hotels"), embedder)
    yield p
    p.close()


@pytest.fixture(scope="module")
def answered(hotel_index: Path, embedder) -> tuple[TurnResult, list[Progress]]:  # type: ignore[no-untyped-def]
    """The lookup answered once by the real pipeline (several tests read it)."""
    seen: list[Progress] = []
    with Pipeline(_settings(hotel_index), Index.open(hotel_index, "hotels"), embedder) as p:
        result = p.run(QUESTION, plan=lookup_plan(), progress=seen.append)
    return result, seen


# --------------------------------------------------------------------------- the pass


def test_a_lookup_is_a_ranked_list_with_verified_marks(
    answered: tuple[TurnResult, list[Progress]], hotel_index: Path
) -> None:
    result, seen = answered
    lookup = result.lookup
    assert lookup is not None
    assert result.summary.claims == []  # no two-sided summary
    assert lookup.aspects == list(ASPECTS) and lookup.aggregator == "amean"
    assert [row.rank for row in lookup.rows] == list(range(1, len(lookup.rows) + 1))
    marks = {row.doc_id: [m.met for m in row.aspects] for row in lookup.rows}
    assert lookup.rows[0].doc_id == "harbour" and marks["harbour"] == [True, True]
    assert marks["garden"] == [True, False]
    assert marks["airport"] == [False, True]
    assert "bread" not in marks  # off topic: below the relevance floor
    index = Index.open(hotel_index, "hotels")
    try:
        for row in lookup.rows:
            assert [m.aspect for m in row.aspects] == list(ASPECTS)
            for m in row.aspects:
                ref = m.reference
                assert ref is not None and ref.doc_id == row.doc_id
                # the quote is a sentence of the document, at its offsets in the passage
                passage = index.passage_text(ref.passage_id)
                assert passage[ref.quote_start : ref.quote_end] == ref.quote
                assert ref.verified is m.met
                if m.met:
                    assert ref.check in ("terms", "similarity")
                    assert ref.check == "similarity" or ref.support == 1.0
                else:
                    assert ref.check == "similarity" and ref.support < 0.6
    finally:
        index.close()
    harbour = lookup.rows[0].aspects
    assert harbour[0].reference and harbour[0].reference.quote == (
        "The Harbour View Hotel has quiet rooms facing the bay."
    )
    assert harbour[1].reference and harbour[1].reference.quote == (
        "Breakfast is included in every rate."
    )
    stages = [p.stage for p in seen]
    assert "summarizing" not in stages and "verifying" in stages and stages[-1] == "done"
    assert result.retrieval["lookup"]["aggregator"] == "amean"
    assert result.retrieval["lookup"]["checked"] == 2 * len(lookup.rows)
    assert "summary" not in result.retrieval and "verification" not in result.retrieval


def test_the_ranking_is_aspect_fusion(answered: tuple[TurnResult, list[Progress]]) -> None:
    """AMean of the aspects' late-fused scores mapped to (0, 1] (paper 003 §4.3.3, eq. 1)."""
    result, _ = answered
    for hit in result.hits["pro"]:
        per = [hit.scores[f"aspect:{a}"] for a in ASPECTS]
        assert hit.scores["aspects"] == pytest.approx(np.mean([(1 + s) / 2 for s in per]), abs=1e-5)
        # the relevance floor reads the aspects' own scale, not the aggregator's
        assert hit.scores["relevance"] == pytest.approx(np.mean(per), abs=1e-5)
    assert result.hits["con"] == []


def test_with_fusion_off_a_lookup_is_ranked_by_the_question(
    hotel_index: Path,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    settings = _settings(hotel_index)
    index = Index.open(hotel_index, "hotels")
    base = Retriever(index, embedder, settings.retrieval).params
    retriever = Retriever(
        index, embedder, settings.retrieval, params=replace(base, lookup_aspect_weight=0.0)
    )
    with Pipeline(settings, index, embedder, retriever=retriever) as p:
        result = p.run(QUESTION, plan=lookup_plan())
    assert result.lookup is not None and result.lookup.aggregator == ""
    assert result.lookup.rows[0].doc_id == "harbour"
    assert all(len(row.aspects) == 2 for row in result.lookup.rows)  # still checked
    assert all("aspects" not in h.scores for h in result.hits["pro"])
    assert result.lookup.ranking_text() == "Ranked by the whole question; 2 aspects checked."


def test_fewer_than_two_aspects_is_a_plain_ranked_list(pipeline: Pipeline) -> None:
    for aspects in ((), ("quiet rooms",)):
        result = pipeline.run(QUESTION, plan=lookup_plan(aspects))
        assert result.lookup is not None
        assert result.lookup.aspects == [] and result.lookup.aggregator == ""
        assert result.lookup.rows and all(row.aspects == [] for row in result.lookup.rows)
        assert result.summary.claims == []


def test_a_lookup_has_no_sides_even_with_claims_in_its_plan(pipeline: Pipeline) -> None:
    plan = lookup_plan(
        claims=("Hotels should be quiet.", "Hotels need not be quiet."),
        perspectives=[QueryPerspective("quiet", role="stance", side="con")],
    )
    pq = plan_queries(plan)
    assert pq.sides == {"pro": (), "con": ()}
    result = pipeline.run(QUESTION, plan=plan)
    assert result.hits["con"] == [] and result.lookup is not None


def test_other_intents_keep_the_two_sided_answer(pipeline: Pipeline) -> None:
    plan = lookup_plan(
        intent="two_sided",
        claims=("A quiet hotel is worth the price.", "A quiet hotel is not worth the price."),
    )
    result = pipeline.run(QUESTION, plan=plan)
    assert result.lookup is None
    assert [c.side for c in result.summary.claims] == ["pro", "con"]
    assert "lookup" not in result.to_dict() and "verification" in result.retrieval


def test_as_lookup_plan_drops_claims_and_target_side() -> None:
    plan = lookup_plan(intent="one_sided", claims=("a", "b"), target_side="con")
    lk = as_lookup_plan(plan)
    assert (lk.intent, lk.claims, lk.target_side) == ("lookup", ("", ""), None)
    assert lk.aspects == plan.aspects and plan.intent == "one_sided"


@pytest.mark.parametrize(
    ("aspect", "sentence", "expected"),
    [
        ("oysters", "Simple creamy oyster soup.", True),
        ("quiet rooms", "The rooms at the back are very quiet.", True),
        ("breakfast included", "Breakfast costs extra.", False),
        ("without meat", "Pasta with meat sauce.", False),
        ("without meat", "A lasagna without meat.", True),
        ("not baked in the oven", "Fish fried in a pan, not baked in the oven.", True),
        ("meat", "A stew without meat.", False),  # the sentence negates it
        ("the", "The soup.", False),  # no content word
    ],
)
def test_terms_match(aspect: str, sentence: str, expected: bool) -> None:
    assert terms_match(aspect, sentence) is expected


@pytest.mark.parametrize(
    ("aspect", "sentence", "expected"),
    [
        ("without nuts", "Brownies with nuts.", False),
        ("nuts", "A cake without nuts.", False),
        ("without nuts", "Brownies made without nuts.", True),
        ("walnuts", "Brownies with walnuts.", True),
    ],
)
def test_same_polarity(aspect: str, sentence: str, expected: bool) -> None:
    assert same_polarity(aspect, sentence) is expected


def test_similarity_never_meets_an_aspect_of_the_opposite_polarity(embedder) -> None:  # type: ignore[no-untyped-def]
    """MiniLM puts "without nuts" at 0.63 from "Brownies with nuts." (over the 0.6 threshold)."""
    text = "Brownies with nuts."
    doc = SourceDoc("b", title="Brownies", sentences=[Sentence("b", 1, 0, len(text), text)])
    plan = lookup_plan(("without nuts", "brownies"))
    (row,) = answer_lookup(plan, [DocumentHit("b", 0.5, 1, "Brownies")], [doc], embedder).rows
    without, brownies = row.aspects
    assert not without.met and without.reference is not None
    assert without.reference.support >= 0.6  # similar, but of the opposite polarity
    assert brownies.met and brownies.reference is not None
    assert brownies.reference.check == "terms"


# --------------------------------------------------------------------------- record, export


def test_session_log_round_trip_and_search(
    answered: tuple[TurnResult, list[Progress]], tmp_path: Path
) -> None:
    result, _ = answered
    with SessionStore(tmp_path / "sessions.db") as store:
        sid = store.create_session(index="hotels")
        tid = store.add_turn(sid, result)
    with SessionStore(tmp_path / "sessions.db") as store:  # reopened
        assert store.get_turn(tid).result == result
        (stored,) = store.turns(sid)
        assert stored.result.lookup == result.lookup
        assert [h.turn_id for h in store.search("Harbour View")] == [tid]
        assert [h.turn_id for h in store.search("every rate")] == [tid]  # a verified quote
        row = store.db.execute("SELECT verification_json FROM turns WHERE id = ?", [tid]).fetchone()
    counts = json.loads(row[0])
    lookup = result.lookup
    assert lookup is not None
    assert counts["references"] == 2 * len(lookup.rows)
    assert counts["verified"] == sum(row.met for row in lookup.rows)


def test_export_is_a_table_with_quoted_footnotes(
    answered: tuple[TurnResult, list[Progress]],
) -> None:
    result, _ = answered
    md = turn_to_markdown(result)
    assert "| # | Document | Source | Score | quiet rooms | breakfast included |" in md
    assert "| 1 | Harbour View Hotel (`harbour`) | Travel Notes |" in md
    assert "“Breakfast is included in every rate.” (verified by terms, support 1.00)" in md
    assert "### For" not in md and "### Balance" not in md
    assert "- Answer: ranked list. Ranked by aspect fusion (amean) over 2 aspects." in md


def test_lookup_export_golden() -> None:
    md = turn_to_markdown(sample_lookup_result(), created="2025-06-02T09:15:00+00:00")
    check_golden("lookup.md", md)
    tokens = parser().enable("table").parse(md)
    assert sum(t.type == "tr_open" for t in tokens) == 4  # header + 3 rows


# --------------------------------------------------------------------------- the command line


def test_sphere_ask_lookup(
    hotel_index: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.cli import main

    monkeypatch.setenv("SPHERE_INDEX_DIR", str(hotel_index))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    main(["ask", QUESTION, "--index", "hotels", "--no-llm", "--lookup", "--json", "--save"])
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["intent"] == "lookup" and data["summary"]["claims"] == []
    rows = data["lookup"]["rows"]
    assert rows[0]["doc_id"] == "harbour"
    assert all("met" in m and "reference" in m for r in rows for m in r["aspects"])
    main(["ask", QUESTION, "--index", "hotels", "--no-llm", "--lookup"])
    text = capsys.readouterr().out
    assert "Harbour View Hotel — Travel Notes (harbour)" in text
    assert '✓ breakfast included: "Breakfast is included in every rate."' in text
    main(["sessions", "show", "1"])
    shown = capsys.readouterr().out
    assert " 1. Harbour View Hotel [harbour]" in shown and "✓ breakfast included" in shown


def test_sphere_eval_lookup_bad_data_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}', encoding="utf-8")
    for path in (bad, tmp_path / "missing.json"):
        with pytest.raises(SystemExit) as exc:
            main(["eval", "lookup", "--data", str(path), "--json"])
        assert exc.value.code not in (0, None)
        err = capsys.readouterr().err
        assert "Traceback" not in err and str(path.name) in err
    assert DataError.exit_code != 0
