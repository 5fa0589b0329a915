"""The perspective-aware retriever on a tiny real index (bundled MiniLM)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from assistant.config import RetrievalSettings
from assistant.errors import InputError
from assistant.index import BuildOptions, Index, build_index
from assistant.ingest.loaders import FieldMapping
from assistant.models import Aspect, Constraint, Progress, QueryPerspective, QueryPlan
from assistant.retrieval import retriever as rmod
from assistant.retrieval.constraints import ConstraintCheck
from assistant.retrieval.retriever import Retriever, SphereParams, plan_queries, query_texts

DOCS = {
    "pro-grades": "Homework helps students practise and remember what they learned; "
    "daily homework improves grades and builds discipline.",
    "pro-habits": "Teachers report that regular homework assignments strengthen study "
    "habits and independent learning.",
    "con-stress": "Homework should be banned: it causes stress, steals family time and "
    "does not improve learning in primary school.",
    "con-sleep": "Too much homework harms children's sleep and health; schools should "
    "abolish homework.",
    "bread": "Sourdough bread rises slowly with wild yeast and a long fermentation.",
    "rockets": "Rockets burn liquid fuel and oxidizer to reach orbit around the Earth.",
    "cats": "Cats are small domestic felines that purr and hunt mice at night.",
}
QUESTION = "Should schools give homework?"
PLAN = QueryPlan(
    question=QUESTION,
    root_query=QUESTION,
    claims=("Homework is good for students.", "Homework should be banned."),
)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, embedder):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("retr")
    src = tmp / "docs.jsonl"
    src.write_text(
        "".join(json.dumps({"id": k, "content": v}) + "\n" for k, v in DOCS.items()),
        encoding="utf-8",
    )
    opts = BuildOptions(mapping=FieldMapping(id_field="id", text_field="content"))
    build_index(tmp / "idx", "t", [src], embedder, opts)
    idx = Index.open(tmp / "idx", "t")
    yield idx
    idx.close()


def _ids(hits):  # type: ignore[no-untyped-def]
    return {s: [h.doc_id for h in hs] for s, hs in hits.items()}


def test_both_sides_disjoint_and_k(index, embedder) -> None:  # type: ignore[no-untyped-def]
    r = Retriever(index, embedder, RetrievalSettings(k=2))  # type: ignore[call-arg]
    hits = r.retrieve(PLAN)
    assert set(hits) == {"pro", "con"}
    assert 0 < len(hits["pro"]) <= 2 and 0 < len(hits["con"]) <= 2
    ids = _ids(hits)
    assert not set(ids["pro"]) & set(ids["con"])
    assert all(h.side == s for s, hs in hits.items() for h in hs)
    assert [h.rank for h in hits["pro"]] == list(range(1, len(hits["pro"]) + 1))
    assert len(r.retrieve(PLAN, k=1)["con"]) == 1


def test_depth_reads_further_down_without_moving_sides(index, embedder) -> None:  # type: ignore[no-untyped-def]
    # k decides the sides (the margin is centred over the 2k most relevant documents);
    # depth only reads each side's ranking further down
    r = Retriever(index, embedder)
    short, deep = _ids(r.retrieve(PLAN, k=1)), _ids(r.retrieve(PLAN, k=1, depth=4))
    assert all(deep[s][: len(short[s])] == short[s] for s in short)
    assert sum(map(len, deep.values())) > sum(map(len, short.values()))


def test_pro_document_on_pro_side(index, embedder) -> None:  # type: ignore[no-untyped-def]
    hits = _ids(Retriever(index, embedder).retrieve(PLAN, k=3))
    assert hits["pro"][:2] and set(hits["pro"][:2]) == {"pro-grades", "pro-habits"}
    assert set(hits["con"][:2]) == {"con-stress", "con-sleep"}


def test_evidence_and_scores(index, embedder) -> None:  # type: ignore[no-untyped-def]
    hits = Retriever(index, embedder).retrieve(PLAN, k=3)
    for hs in hits.values():
        for h in hs:
            assert h.passages and h.passages[0].doc_id == h.doc_id
            assert h.passages[0].text and h.passages[0].text in DOCS[h.doc_id]
            for key in ("dense", "bm25", "topic", "side:pro", "side:con", "fused"):
                assert key in h.scores
            assert h.scores["fused"] == pytest.approx(h.score)
        scores = [h.score for h in hs]
        assert scores == sorted(scores, reverse=True)
    # the side a document is on is the one its claim channel prefers
    top = hits["pro"][0]
    assert top.scores["side:pro"] > top.scores["side:con"]


def test_aspects_fused(index, embedder) -> None:  # type: ignore[no-untyped-def]
    plan = QueryPlan(
        question=QUESTION,
        root_query=QUESTION,
        claims=PLAN.claims,
        aspects=[Aspect("stress"), Aspect("sleep and health")],
    )
    r = Retriever(index, embedder, params=SphereParams(aspect_weight=0.5))
    hits = r.retrieve(plan, k=3)
    con = hits["con"][0]
    assert "aspect:stress" in con.scores and "aspects" in con.scores
    assert len(query_texts(plan)) == 5
    assert con.doc_id in ("con-stress", "con-sleep")


def test_degenerate_perspective_does_not_collapse(index, embedder) -> None:  # type: ignore[no-untyped-def]
    # the "claim" and the sided perspective are the whole question: q_p ≈ 0 under PAP
    plan = QueryPlan(
        question=QUESTION,
        root_query=QUESTION,
        perspectives=[QueryPerspective(QUESTION, side="con")],
        claims=(QUESTION, "Homework should be banned."),
    )
    hits = Retriever(index, embedder).retrieve(plan, k=4)
    both = [h for hs in hits.values() for h in hs]
    assert all(np.isfinite(h.score) for h in both)
    top4 = {h.doc_id for h in sorted(both, key=lambda h: -h.scores["topic"])[:4]}
    assert top4 == {"pro-grades", "pro-habits", "con-stress", "con-sleep"}


def test_plain_modes_and_bad_mode(index, embedder) -> None:  # type: ignore[no-untyped-def]
    for mode in ("dense", "bm25", "hybrid", "sphere"):
        r = Retriever(index, embedder, RetrievalSettings(mode=mode, k=3))  # type: ignore[call-arg]
        hits = _ids(r.retrieve(PLAN))
        top = set(hits["pro"][:2] + hits["con"][:2])
        assert top <= {"pro-grades", "pro-habits", "con-stress", "con-sleep"}, mode
    assert Retriever(index, None, RetrievalSettings(mode="bm25")).retrieve(PLAN)["con"]  # type: ignore[call-arg]
    with pytest.raises(InputError):
        Retriever(index, None).retrieve(PLAN)
    with pytest.raises(InputError):
        Retriever(index, embedder).retrieve(PLAN, mode="nope")
    with pytest.raises(InputError):
        Retriever(index, embedder).retrieve(QueryPlan(question=" ", root_query=""))


def test_no_claims_one_list(index, embedder) -> None:  # type: ignore[no-untyped-def]
    plan = QueryPlan(question="rocket fuel", root_query="rocket fuel", intent="factual")
    hits = Retriever(index, embedder).retrieve(plan, k=2)
    assert hits["con"] == [] and hits["pro"][0].doc_id == "rockets"


def test_one_claim_goes_to_its_side(index, embedder) -> None:  # type: ignore[no-untyped-def]
    plan = QueryPlan(question=QUESTION, root_query=QUESTION, claims=("", "Homework is bad."))
    hits = Retriever(index, embedder).retrieve(plan, k=3)
    assert hits["pro"] == [] and len(hits["con"]) == 3


def test_constraint_hook_and_progress(index, embedder, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seen: list[Progress] = []

    def drop_first(index, rows, constraints, scores=None):  # type: ignore[no-untyped-def]
        assert constraints and constraints[0].value == "x"
        return ConstraintCheck(rows[1:], None, len(rows))

    full = Retriever(index, embedder).retrieve(PLAN, k=10)
    monkeypatch.setattr(rmod, "check_constraints", drop_first)
    plan = QueryPlan(
        question=QUESTION,
        root_query=QUESTION,
        claims=PLAN.claims,
        constraints=[Constraint("keyword", "x")],
    )
    cut = Retriever(index, embedder).retrieve(plan, k=10, progress=seen.append)
    n_full = sum(len(v) for v in full.values())
    assert sum(len(v) for v in cut.values()) == n_full - 1
    assert seen and seen[-1].step == seen[-1].total


def test_plan_queries_roles() -> None:
    plan = QueryPlan(
        question="find evidence against a four-day week",
        root_query="a four-day week",
        perspectives=[QueryPerspective("evidence against", side="con")],
        claims=("A four-day week is good.", "A four-day week is bad."),
        aspects=[Aspect("productivity")],
    )
    pq = plan_queries(plan)
    assert pq.topic == ("find evidence against a four-day week", "a four-day week")
    assert pq.sides["con"] == ("A four-day week is bad.", "evidence against")
    assert pq.aspects == ()  # one aspect is not fused
    assert pq.two_sided


def test_hnsw_index_same_results(tmp_path: Path, embedder, index) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "docs.jsonl"
    src.write_text(
        "".join(json.dumps({"id": k, "content": v}) + "\n" for k, v in DOCS.items()),
        encoding="utf-8",
    )
    opts = BuildOptions(
        flat_threshold=0,
        approximate="hnsw",
        mapping=FieldMapping(id_field="id", text_field="content"),
    )
    build_index(tmp_path / "idx", "h", [src], embedder, opts)
    h = Index.open(tmp_path / "idx", "h")
    try:
        assert h.manifest["faiss"]["kind"] == "hnsw"
        a = Retriever(h, embedder).retrieve(PLAN, k=3)
        b = Retriever(index, embedder).retrieve(PLAN, k=3)
        assert _ids(a) == _ids(b)
        assert [x.score for x in a["pro"]] == pytest.approx([x.score for x in b["pro"]], abs=1e-5)
    finally:
        h.close()


def test_pool_feedback_rm3_and_graph(index, embedder) -> None:  # type: ignore[no-untyped-def]
    params = SphereParams(rm3_weight=0.5, rm3_terms=5, graph_weight=0.8, graph_docs=3)
    hits = Retriever(index, embedder, params=params).retrieve(PLAN, k=3)
    ids = _ids(hits)
    assert not set(ids["pro"]) & set(ids["con"])
    top = {hits[s][0].doc_id for s in ("pro", "con")}
    assert top <= {"pro-grades", "pro-habits", "con-stress", "con-sleep"}
    assert all("graph" in h.scores for hs in hits.values() for h in hs)


def test_knn_regularization_reaches_the_ranking(index, embedder) -> None:  # type: ignore[no-untyped-def]
    off = Retriever(index, embedder, params=SphereParams(knn_weight=0.0)).retrieve(PLAN, k=3)
    assert not any("knn" in h.scores for hs in off.values() for h in hs)
    on = Retriever(index, embedder, params=SphereParams(knn_weight=0.5, knn_docs=1)).retrieve(
        PLAN, k=3
    )
    assert all("knn" in h.scores for hs in on.values() for h in hs)
    # the ranking score is the regularized one: (1 - δ)·topic + δ·(nearest neighbour's topic)
    before = {h.doc_id: h.scores["topic"] for hs in off.values() for h in hs}
    moved = [h for hs in on.values() for h in hs if h.doc_id in before]
    assert moved and any(abs(h.scores["knn"] - before[h.doc_id]) > 1e-6 for h in moved)


def test_margin_weight_adds_the_side_margin_to_the_ranking(index, embedder) -> None:  # type: ignore[no-untyped-def]
    w = 2.0
    on = Retriever(index, embedder, params=SphereParams(margin_weight=w)).retrieve(PLAN, k=5)
    hits = [h for hs in on.values() for h in hs]
    assert hits
    for h in hits:
        # fused = topic + w · (own side − other side), the margin centred as for assignment
        sign = 1.0 if h.side == "con" else -1.0
        assert sign * h.scores["side_margin"] >= 0  # the margin put it on this side
        want = h.scores["topic"] + w * sign * h.scores["side_margin"]
        assert h.scores["fused"] == pytest.approx(want, abs=1e-5)


def test_rm3_channel_prefers_feedback_terms(index, embedder) -> None:  # type: ignore[no-untyped-def]
    r = Retriever(index, embedder, params=SphereParams(rm3_terms=5))
    pq = plan_queries(PLAN)
    pool = r._pool(pq, embedder.encode(pq.texts), "sphere")
    by_row = index.documents_by_row([int(x) for x in pool.doc_rows])
    at = {by_row[int(d)].doc_id: i for i, d in enumerate(pool.doc_rows)}  # one passage a doc
    fb = np.array([at["con-sleep"]])  # feedback: the "abolish homework … sleep" passage
    rm3 = r._rm3(pool, fb, np.array([1.0]))
    assert rm3.max() == pytest.approx(1.0)
    assert rm3[at["con-sleep"]] == pytest.approx(1.0)  # its own terms score it highest
    assert rm3[at["con-sleep"]] > rm3[at["pro-habits"]]


def test_best_passage_each() -> None:
    docs = np.array([7, 3, 7, 3, 9])
    scores = np.array([0.1, 0.5, 0.9, 0.2, 0.3])
    # sorted documents 3, 7, 9 -> best passages 1 (0.5), 2 (0.9), 4 (0.3)
    assert rmod._best_passage_each(docs, scores).tolist() == [1, 2, 4]


@pytest.mark.parametrize("k_r", [1, 2, 3])
def test_pool_late_fusion_matches_a_per_document_loop(k_r: int) -> None:
    rng = np.random.default_rng(k_r)
    docs = rng.integers(0, 12, size=60)
    chans = {"a": rng.normal(size=60).astype(np.float32), "b": rng.normal(size=60)}
    rows, first, out = rmod._late_fusion(docs, chans, k_r)
    assert rows.tolist() == sorted(set(docs.tolist()))
    for i, d in enumerate(rows):
        mine = np.flatnonzero(docs == d)
        assert first[i] == mine[0]
        for name, s in chans.items():
            want = np.sort(s[mine])[::-1][:k_r].mean()
            assert out[name][i] == pytest.approx(want, abs=1e-6)
    empty = rmod._late_fusion(np.zeros(0, np.int64), {"a": np.zeros(0)}, k_r)
    assert len(empty[0]) == 0 and len(empty[2]["a"]) == 0


def test_copies_fold_into_one_hit(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    docs = {**DOCS, "con-stress-copy": DOCS["con-stress"], "pro-grades-copy": DOCS["pro-grades"]}
    # near the copy but not the same text: stays a hit of its own
    docs["con-stress-edited"] = DOCS["con-stress"].replace("primary school", "the first years")
    src = tmp_path / "docs.jsonl"
    src.write_text("".join(json.dumps({"id": k, "content": v}) + "\n" for k, v in docs.items()))
    opts = BuildOptions(mapping=FieldMapping(id_field="id", text_field="content"))
    build_index(tmp_path / "idx", "t", [src], embedder, opts)
    idx = Index.open(tmp_path / "idx", "t")
    try:
        hits = Retriever(idx, embedder).retrieve(PLAN, k=4)
        listed = [h.doc_id for hs in hits.values() for h in hs]
        folded = {h.doc_id: h.copies for hs in hits.values() for h in hs if h.copies}
        # each pair is listed once, the other id under copies; the edited text is its own hit
        assert {frozenset([d, *c]) for d, c in folded.items()} == {
            frozenset({"con-stress", "con-stress-copy"}),
            frozenset({"pro-grades", "pro-grades-copy"}),
        }
        assert not {c for cs in folded.values() for c in cs} & set(listed)
        assert "con-stress-edited" in listed
        for hs in hits.values():
            assert [h.rank for h in hs] == list(range(1, len(hs) + 1))
        # off: the copies take places of their own again
        plain = Retriever(idx, embedder, params=SphereParams(collapse_copies=False))
        again = plain.retrieve(PLAN, k=4)
        assert {"con-stress-copy", "pro-grades-copy"} <= {
            h.doc_id for hs in again.values() for h in hs
        }
        assert not any(h.copies for hs in again.values() for h in hs)
        # with k = 1 a side's one hit still carries its copy
        top = Retriever(idx, embedder).retrieve(PLAN, k=1)
        assert sum(len(h.copies) for hs in top.values() for h in hs) >= 1
    finally:
        idx.close()


def test_collapse_copies_by_hand() -> None:
    sig = np.array([[1, 0], [1, 0], [0.6, 0.8], [1, 0], [0, 1]], dtype=np.float32)
    score = {0: 0.9, 1: 0.9, 2: 0.8, 3: 0.7, 4: 0.6}
    kept, folded = rmod._collapse_copies(np.arange(5), score, sig, limit=3)
    # 1 is a copy of 0 (same vector, same score); 3 has 0's vector but another score
    assert kept.tolist() == [0, 2, 3] and folded == {0: [1]}
    kept, folded = rmod._collapse_copies(np.arange(5), score, sig, limit=1)
    assert kept.tolist() == [0] and folded == {0: [1]}
