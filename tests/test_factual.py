"""Factual questions get answers, not debates (issue 34, item 4).

Everything after the question is the real pipeline on a small real index (the
bundled MiniLM, FAISS, BM25); the app's side is in ``test_ui_factual.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.export import turn_to_markdown
from assistant.index import BuildOptions, Index, build_index
from assistant.ingest.loaders import FieldMapping
from assistant.models import NOT_A_DEBATE, QueryPlan, TurnResult
from assistant.pipeline import Pipeline, as_two_sided_plan, with_claims
from assistant.store import SessionStore
from assistant.understand import parse_rules
from tests.ui_fakes import sample_factual_result

DOCS = [
    (
        "mime",
        "Shared MIME-info Database",
        "freedesktop.org",
        "Desktops need to agree on what kind of file they are looking at. The shared "
        "MIME-info database specification defines how applications agree on the types of "
        "files. Each type lists its glob patterns and its magic numbers.",
    ),
    (
        "install",
        "Installing MIME types",
        "Packaging Guide",
        "Packages install their type definitions as XML files. The update-mime-database "
        "tool compiles them into a cache that applications read at start-up.",
    ),
    (
        "icons",
        "Icon themes",
        "freedesktop.org",
        "An icon theme is a folder of images with an index file. Themes can inherit the "
        "icons of another theme.",
    ),
    (
        "bread",
        "Baking sourdough at home",
        "Kitchen Diary",
        "Feed the starter twice a day and keep it somewhere warm before baking the loaf.",
    ),
]
QUESTION = "What does the shared MIME-info database specification define?"
ANSWER = (
    "The shared MIME-info database specification defines how applications agree on the "
    "types of files."
)


@pytest.fixture(scope="module")
def spec_index(tmp_path_factory: pytest.TempPathFactory, embedder) -> Path:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("specs")
    src = folder / "specs.jsonl"
    with src.open("w", encoding="utf-8") as fh:
        for doc_id, title, source, text in DOCS:
            record = {"id": doc_id, "title": title, "source": source, "text": text}
            fh.write(json.dumps(record) + "\n")
    mapping = FieldMapping(
        id_field="id", text_field="text", title_field="title", source_field="source"
    )
    build_index(folder / "idx", "specs", [src], embedder, BuildOptions(mapping=mapping))
    return folder / "idx"


def _settings(index_dir: Path) -> Settings:
    settings = Settings(index_dir=index_dir, default_index="specs")  # type: ignore[call-arg]
    settings.llm.use = "never"
    settings.stance.model = "off"
    return settings


@pytest.fixture(scope="module")
def answered(spec_index: Path, embedder) -> TurnResult:  # type: ignore[no-untyped-def]
    with Pipeline(_settings(spec_index), Index.open(spec_index, "specs"), embedder) as p:
        return p.run(QUESTION)


def test_a_factual_question_gets_the_passages_that_answer_it(
    answered: TurnResult, spec_index: Path
) -> None:
    assert answered.plan.intent == "factual"
    answer = answered.answer
    assert answer is not None and answered.lookup is None
    assert answered.summary.claims == []  # no FOR / AGAINST
    assert [r.rank for r in answer.rows] == list(range(1, len(answer.rows) + 1))
    scores = [r.score for r in answer.rows]
    assert scores == sorted(scores, reverse=True)  # ranked as the retriever ranks them
    top = answer.rows[0]
    assert top.doc_id == "mime" and top.reference is not None
    assert top.reference.quote == ANSWER
    assert top.reference.check == "question" and 0.0 < top.reference.support <= 1.0
    index = Index.open(spec_index, "specs")
    try:
        for row in answer.rows:
            ref = row.reference
            assert ref is not None and ref.doc_id == row.doc_id
            # a whole sentence of the document, at its offsets in the passage
            assert index.passage_text(ref.passage_id)[ref.quote_start : ref.quote_end] == ref.quote
    finally:
        index.close()
    data = answered.to_dict()
    assert data["answer"]["debate"] is False and data["answer"]["note"] == NOT_A_DEBATE
    assert "Not:" not in json.dumps(data)
    assert answered.retrieval["answer"]["rows"] == len(answer.rows)
    assert "summary" not in answered.retrieval


def test_both_sides_on_request(spec_index: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    plan = as_two_sided_plan(parse_rules(QUESTION))
    assert (plan.intent, plan.target_side, plan.claims) == ("two_sided", None, ("", ""))
    with Pipeline(_settings(spec_index), Index.open(spec_index, "specs"), embedder) as p:
        result = p.run(QUESTION, plan=plan)
    assert result.answer is None
    claims = [c.claim for c in result.summary.claims]
    assert claims == [
        "The shared MIME-info database specification is beneficial overall.",
        "The shared MIME-info database specification is harmful overall.",
    ]
    assert result.plan.claims == tuple(claims)


def test_with_claims_fills_a_debate_plan_without_claims() -> None:
    edited = QueryPlan(question="Should zoos exist?", root_query="Should zoos exist?")
    assert with_claims(edited).claims == ("Zoos should exist.", "Zoos should not exist.")
    factual = QueryPlan(question=QUESTION, root_query=QUESTION, intent="factual")
    assert with_claims(factual) is factual
    own = QueryPlan(question="q", root_query="q", claims=("Mine.", "Not mine."))
    assert with_claims(own) is own


def test_session_log_round_trip_and_search(answered: TurnResult, tmp_path: Path) -> None:
    with SessionStore(tmp_path / "sessions.db") as store:
        sid = store.create_session(index="specs")
        tid = store.add_turn(sid, answered)
    with SessionStore(tmp_path / "sessions.db") as store:
        assert store.get_turn(tid).result == answered
        assert [h.turn_id for h in store.search("applications agree")] == [tid]
        row = store.db.execute("SELECT verification_json FROM turns WHERE id = ?", [tid]).fetchone()
    assert json.loads(row[0])["references"] == len(answered.answer.rows)  # type: ignore[union-attr]


def test_export_says_it_is_not_a_debate() -> None:
    md = turn_to_markdown(sample_factual_result())
    assert "### Answer (not a debate)" in md
    assert NOT_A_DEBATE in md
    assert "### For" not in md and "### Balance" not in md
    assert (
        "1. Measles coverage after school mandates (`d1`), health.gov, page 3: “School mandates"
        in md
    )
    assert "(the sentence nearest the question, cosine 0.60)" in md
    assert "- Answer: the passages that answer a factual question (not a debate)" in md


def test_sphere_ask_on_a_factual_question(
    spec_index: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.cli import main

    monkeypatch.setenv("SPHERE_INDEX_DIR", str(spec_index))
    monkeypatch.setenv("SPHERE_STANCE__MODEL", "off")
    main(["ask", QUESTION, "--index", "specs", "--no-llm", "--json", "--save"])
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["intent"] == "factual" and data["summary"]["claims"] == []
    assert data["answer"]["debate"] is False
    assert data["answer"]["rows"][0]["reference"]["quote"] == ANSWER
    main(["ask", QUESTION, "--index", "specs", "--no-llm"])
    text = capsys.readouterr().out
    assert "not a debate" in text and "FOR:" not in text and "AGAINST:" not in text
    assert "1. Shared MIME-info Database — freedesktop.org (mime)" in text
    assert f'"{ANSWER}"' in " ".join(text.split())
    main(["ask", QUESTION, "--index", "specs", "--no-llm", "--markdown"])
    assert "### Answer (not a debate)" in capsys.readouterr().out
    main(["ask", QUESTION, "--index", "specs", "--no-llm", "--two-sided"])
    text = capsys.readouterr().out
    assert "FOR: The shared MIME-info database specification is beneficial overall." in text
    assert "not a debate" not in text
    main(["sessions", "show", "1"])
    shown = capsys.readouterr().out
    assert "not a debate" in shown and " 1. Shared MIME-info Database [mime]" in shown


def test_sphere_ask_refuses_contradictory_flags(capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["ask", QUESTION, "--lookup", "--two-sided"])
    assert exc.value.code == 2
    assert "choose one of --lookup and --two-sided" in capsys.readouterr().err
