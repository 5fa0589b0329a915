"""Constraint evaluation on retrieval candidates (issue 7; paper 002 dimensions)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.index import BuildOptions, Index, build_index
from assistant.ingest.loaders import FieldMapping
from assistant.models import Constraint, QueryPlan
from assistant.retrieval import retriever as rmod
from assistant.retrieval.constraints import (
    FEW_DOCUMENTS,
    check_constraints,
    doc_attributes,
    keyword_pattern,
    stem,
    stemmed_text,
)
from assistant.retrieval.retriever import Retriever

FILLER = (
    "Researchers compared schools that assign homework every night with schools that "
    "assign none, and they followed the pupils for several years to see how grades, "
    "sleep, family time and motivation changed over the whole period of the study. "
)
DOCS = [
    {
        "id": "pro-grades",
        "url": "https://www.edutimes.com/homework",
        "text": "Homework helps students practise; daily homework improves grades and "
        "builds discipline. Parents' insurance policies are unaffected.",
    },
    {
        "id": "pro-habits",
        "url": "https://blog.example.org/habits",
        "text": "Teachers report that regular homework strengthens study habits and "
        "independent learning. " + FILLER * 3,
    },
    {
        "id": "con-stress",
        "url": "https://news.example.com/stress",
        "text": "Homework should be banned: it causes stress, steals family time and does "
        "not improve learning in primary school.",
    },
    {
        "id": "con-sleep",
        "url": "https://www.edutimes.com/sleep",
        "text": "Too much homework harms children's sleep and health; schools should "
        "abolish homework. " + FILLER * 2,
    },
    {
        "id": "es-deberes",
        "url": "https://elpais.es/deberes",
        "text": "Los deberes escolares provocan estrés en los niños y quitan tiempo a la "
        "familia; muchas escuelas deberían prohibir los deberes en primaria.",
    },
    {
        "id": "list-tips",
        "url": "https://tips.example.org/list",
        "text": "Homework tips for parents\n- Set a fixed time for homework.\n"
        "- Keep the phone away.\n- Check the homework together.\n- Praise the effort.",
    },
]
QUESTION = "Should schools give homework?"
CLAIMS = ("Homework is good for students.", "Homework should be banned.")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, embedder):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("cons")
    src = tmp / "docs.jsonl"
    src.write_text("".join(json.dumps(d) + "\n" for d in DOCS), encoding="utf-8")
    opts = BuildOptions(mapping=FieldMapping(id_field="id", text_field="text"))
    build_index(tmp / "idx", "t", [src], embedder, opts)
    idx = Index.open(tmp / "idx", "t")
    yield idx
    idx.close()


def _rows(index: Index) -> dict[str, int]:
    rows = index.meta.db.execute("SELECT doc_id, row FROM documents").fetchall()
    return {d: int(r) for d, r in rows}


def _kept(index: Index, *cons: Constraint) -> set[str]:
    rows = _rows(index)
    back = {r: d for d, r in rows.items()}
    got = check_constraints(index, np.array(sorted(rows.values())), list(cons))
    return {back[int(r)] for r in got.rows}


ALL = {d["id"] for d in DOCS}


def test_stem_folds_plurals_and_possessives_only() -> None:
    assert [stem(w) for w in ("Policies", "taxes", "cars", "car's", "glass", "status")] == [
        "policy",
        "tax",
        "car",
        "car",
        "glass",
        "status",
    ]
    assert stem("news") != stem("new")
    assert keyword_pattern("Insurance policy") in stemmed_text("cheap insurance policies!")
    assert keyword_pattern("sure") not in stemmed_text("insurance")  # word boundaries


def test_keyword_must_and_must_not(index) -> None:  # type: ignore[no-untyped-def]
    assert _kept(index, Constraint("keyword", "insurance policy")) == {"pro-grades"}
    # case-insensitive, plural folded
    assert _kept(index, Constraint("keyword", "TIPS")) == {"list-tips"}
    assert _kept(index, Constraint("keyword", "insurance", negated=True)) == ALL - {"pro-grades"}


def test_language_length_source(index) -> None:  # type: ignore[no-untyped-def]
    assert _kept(index, Constraint("language", "es")) == {"es-deberes"}
    assert "es-deberes" not in _kept(index, Constraint("language", "es", negated=True))
    n = {d["id"]: len(d["text"].split()) for d in DOCS}
    assert _kept(index, Constraint("length", "<40")) == {d for d, k in n.items() if k <= 40}
    assert _kept(index, Constraint("length", ">40")) == {d for d, k in n.items() if k >= 40}
    assert _kept(index, Constraint("length", "long")) <= {"pro-habits", "con-sleep"}
    assert _kept(index, Constraint("source", "edutimes.com")) == {"pro-grades", "con-sleep"}
    assert _kept(index, Constraint("source", "blogs")) == {"pro-habits"}  # blog.example.org
    assert _kept(index, Constraint("source", "example", negated=True)) == {
        "pro-grades",
        "con-sleep",
        "es-deberes",
    }


def test_soft_constraints_reweight_without_filtering(index) -> None:  # type: ignore[no-untyped-def]
    rows = np.array(sorted(_rows(index).values()))
    scores = np.linspace(1.0, 0.0, len(rows))
    got = check_constraints(index, rows, [Constraint("format", "list", hard=True)], scores)
    assert len(got.rows) == len(rows)  # format never filters
    attrs = doc_attributes(index)
    is_list = attrs.structure[rows] == "list"
    assert is_list.sum() == 1
    assert got.boost is not None
    assert np.all(got.boost[is_list] > 0) and np.all(got.boost[~is_list] == 0)
    soft_kw = check_constraints(index, rows, [Constraint("keyword", "tips", hard=False)])
    assert len(soft_kw.rows) == len(rows)


def test_report_counts_removed(index) -> None:  # type: ignore[no-untyped-def]
    rows = np.array(sorted(_rows(index).values()))
    got = check_constraints(
        index, rows, [Constraint("language", "en"), Constraint("keyword", "insurance")]
    )
    lang, kw = got.outcomes
    assert lang.removed == 1 and kw.removed == len(rows) - 2  # es doc, then all but one
    assert len(got.rows) == 1 and lang.index_total == len(rows) - 1


def test_too_few_documents_note(index) -> None:  # type: ignore[no-untyped-def]
    rows = np.array(sorted(_rows(index).values()))
    got = check_constraints(index, rows, [Constraint("language", "es")])
    notes = got.notes()
    assert len(notes) == 1 and notes[0].startswith("Only 1 document in this index is in Spanish")
    none = check_constraints(index, rows, [Constraint("language", "de")]).notes()
    assert none and none[0].startswith("No document in this index is in German")
    fine = check_constraints(index, rows, [Constraint("keyword", "homework")])
    assert len(fine.rows) >= FEW_DOCUMENTS and fine.notes() == []
    sides = fine.notes({"pro": 5, "con": 1})
    assert sides == ["Only 1 document on the con side mentions “homework”."]


def _plan(**kw) -> QueryPlan:  # type: ignore[no-untyped-def]
    return QueryPlan(question=QUESTION, root_query=QUESTION, claims=CLAIMS, **kw)


def _ids(hits) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    return {s: [h.doc_id for h in hs] for s, hs in hits.items()}


def test_no_constraints_is_identical_to_the_identity_hook(  # type: ignore[no-untyped-def]
    index, embedder, monkeypatch
) -> None:
    with_support = Retriever(index, embedder).retrieve(_plan(), k=10)

    def identity(index, rows, constraints, scores=None):  # type: ignore[no-untyped-def]
        from assistant.retrieval.constraints import ConstraintCheck

        return ConstraintCheck(np.asarray(rows), None, len(rows))

    monkeypatch.setattr(rmod, "check_constraints", identity)
    without = Retriever(index, embedder).retrieve(_plan(), k=10)
    for side in ("pro", "con"):
        a, b = with_support[side], without[side]
        assert [h.doc_id for h in a] == [h.doc_id for h in b]
        assert [h.score for h in a] == [h.score for h in b]
        assert [h.scores for h in a] == [h.scores for h in b]


def test_retriever_filters_and_notes(index, embedder) -> None:  # type: ignore[no-untyped-def]
    r = Retriever(index, embedder)
    hits = _ids(r.retrieve(_plan(constraints=[Constraint("language", "es")]), k=10))
    assert hits["pro"] + hits["con"] == ["es-deberes"]
    assert any("Only 1 document in this index is in Spanish" in n for n in r.last_notes)
    hits = _ids(
        r.retrieve(_plan(constraints=[Constraint("keyword", "insurance", negated=True)]), k=10)
    )
    assert "pro-grades" not in hits["pro"] + hits["con"]
    # every other English document stays; the Spanish one scores below the relevance
    # floor with an English question (MiniLM is monolingual), as it does unconstrained
    english = {d["id"] for d in DOCS} - {"pro-grades", "es-deberes"}
    assert set(hits["pro"] + hits["con"]) == english
    r.retrieve(_plan(), k=10)
    assert r.last_notes == []  # notes belong to one retrieval


def test_compliance_raises_the_score_of_kept_documents(index, embedder) -> None:  # type: ignore[no-untyped-def]
    r = Retriever(index, embedder)
    base = {h.doc_id: h.score for hs in r.retrieve(_plan(), k=10).values() for h in hs}
    got = r.retrieve(_plan(constraints=[Constraint("keyword", "homework")]), k=10)
    for hs in got.values():
        for h in hs:
            assert h.scores["constraints"] > 0 and h.score > base[h.doc_id]


def test_understood_instructions_reach_the_retriever(index, embedder) -> None:  # type: ignore[no-untyped-def]
    from assistant.understand import parse_rules

    r = Retriever(index, embedder)
    plan = parse_rules("Should schools give homework? Only documents in Spanish.")
    assert [h.doc_id for hs in r.retrieve(plan, k=10).values() for h in hs] == ["es-deberes"]
    plan = parse_rules("Should schools give homework? It must not mention homework.")
    got = [h.doc_id for hs in r.retrieve(plan, k=10).values() for h in hs]
    # only the Spanish document lacks the word, and it is below the relevance floor:
    # nothing is returned, and the answer says why instead of padding
    assert got == []
    assert any("homework" in n for n in r.last_notes)


def test_attribute_cache_is_per_index(index, tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    a = doc_attributes(index)
    assert doc_attributes(index) is a and a.n_documents == len(DOCS)


def test_a_kind_of_source_named_by_an_adjective_keeps_the_sources_of_that_kind(
    demo_index_dir: Path,
) -> None:
    # "only peer-reviewed journals" is the source kind "academic" (values.yaml: source_adjectives);
    # no demo source says "academic", four say "(journal)": they are what the user asked for
    demo = Index.open(demo_index_dir, "demo")
    try:
        rows = _rows(demo)
        back = {r: d for d, r in rows.items()}
        sources = dict(demo.meta.db.execute("SELECT doc_id, source FROM documents").fetchall())
        journals = {d for d, s in sources.items() if "(journal)" in (s or "")}
        assert journals and not any("academic" in (s or "").lower() for s in sources.values())
        every = np.array(sorted(rows.values()))
        kept = check_constraints(demo, every, [Constraint("source", "academic")])
        assert {back[int(r)] for r in kept.rows} == journals
        left = check_constraints(demo, every, [Constraint("source", "academic", negated=True)])
        assert {back[int(r)] for r in left.rows} == set(rows) - journals
    finally:
        demo.close()
