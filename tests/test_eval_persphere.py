"""`sphere eval persphere` on a tiny PerSphere-shaped fixture, and `sphere bench search`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from assistant.config import Settings
from assistant.errors import DataError, InputError
from assistant.eval.persphere import (
    cross_validate,
    fold_of,
    hit_scores,
    merge_sides,
    report,
    run_persphere,
    score_rankings,
)
from assistant.eval.persphere_data import PerSphereQuery, load_queries
from assistant.models import DocumentHit

DOCS = {
    0: "Homework improves grades because practice at home helps students remember lessons.",
    1: "Daily homework builds discipline and study habits that last into adulthood.",
    2: "Homework causes stress and steals time children need for play and family.",
    3: "Too much homework harms sleep; schools should abolish homework for young pupils.",
    4: "Electric cars cut city air pollution because they have no exhaust pipe.",
    5: "Electric cars are cheaper to run since electricity costs less than petrol.",
    6: "Battery mining for electric cars damages the environment and local communities.",
    7: "Electric cars have a limited range and charging stations are still scarce.",
    8: "Sourdough bread rises slowly with wild yeast and a long fermentation.",
    9: "Rockets burn liquid fuel and oxidizer to reach orbit around the Earth.",
}
QUERIES = [
    {
        "id": "living_0",
        "title": "Should schools give homework?",
        "t1": "Homework is good for students.",
        "t2": "Homework should be banned.",
        "response1": ["It improves grades.", "It builds habits."],
        "response2": ["It causes stress.", "It harms sleep."],
        "favor_ids": [0, 1],
        "against_ids": [2, 3],
    },
    {
        "id": "politics_0",
        "title": "Are electric cars good for the environment?",
        "t1": "Electric cars are good.",
        "t2": "Electric cars are bad.",
        "response1": ["Clean air.", "Cheap to run."],
        "response2": ["Mining damage.", "Limited range."],
        "favor_ids": [4, 5],
        "against_ids": [6, 7],
    },
]


def _write(tmp: Path) -> tuple[Path, Path]:
    data = tmp / "data.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUERIES), encoding="utf-8")
    corpus = tmp / "docs.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": i, "content": t}) + "\n" for i, t in DOCS.items()),
        encoding="utf-8",
    )
    return data, corpus


def _q(favor: list[str], against: list[str], qid: str = "x_0") -> PerSphereQuery:
    return PerSphereQuery(qid, "t", ("a", "b"), ((), ()), tuple(favor), tuple(against))


def test_metrics_by_hand() -> None:
    qs = [_q(["1", "2"], ["3", "4"]), _q(["5"], ["6", "7", "8"], "y_1")]
    rankings = [["1", "9", "3", "2"], ["6", "9"]]
    out = score_rankings(qs, rankings, [2, 4])
    # recall@2: q1 {1} of 4 = 0.25; q2 {6} of 4 = 0.25 -> 25 %
    assert out["recall@2"] == pytest.approx(25.0)
    # recall@4: q1 {1,3,2} of 4 = 0.75; q2 {6} of 4 = 0.25 -> 50 %
    assert out["recall@4"] == pytest.approx(50.0)
    # cover (one document per perspective here) equals recall
    assert out["cover@4"] == pytest.approx(50.0)
    assert _q([], [], "politic s_3").topic == "politics"
    rep = report(qs, {"m": rankings}, [2])
    assert rep["benchmark"] == "persphere"
    assert set(rep["tasks"]) == {"x", "y"}
    assert rep["tasks"]["y"]["m"]["recall@2"] == pytest.approx(25.0)


def test_merge_sides() -> None:
    pro = [DocumentHit("a", 0.9), DocumentHit("b", 0.5)]
    con = [DocumentHit("c", 0.7), DocumentHit("d", 0.6), DocumentHit("e", 0.1)]
    hits = {"pro": pro, "con": con}
    assert merge_sides(hits, how="interleave") == ["a", "c", "b", "d", "e"]  # type: ignore[arg-type]
    assert merge_sides(hits, 3) == ["a", "c", "d"]  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        merge_sides(hits, how="zip")  # type: ignore[arg-type]
    # a hit's folded copies stand in its place, by id, and share its score
    pro[0].copies = ["a2", "c"]
    assert merge_sides(hits, 4) == ["a", "a2", "c", "d"]  # type: ignore[arg-type]
    assert merge_sides(hits, how="interleave")[:4] == ["a", "a2", "c", "b"]  # type: ignore[arg-type]
    scores = hit_scores(hits)  # type: ignore[arg-type]
    assert scores["a2"] == 0.9 and set(scores) == {"a", "a2", "b", "c", "d", "e"}


def test_cross_validate_picks_on_other_fold() -> None:
    qs = [_q([str(i)], [], f"t_{i}") for i in range(8)]
    folds = [fold_of(q.qid) for q in qs]
    assert set(folds) == {0, 1}

    def run(param: int, which):  # type: ignore[no-untyped-def]
        # param 0 finds the gold of fold-0 queries, param 1 of fold-1 queries
        return [[str(i)] if folds[i] == param else ["none"] for i in range(len(qs))]

    held, chosen = cross_validate(qs, run, [0, 1])
    # each fold is scored with the parameter chosen on the *other* fold: always wrong here
    assert all(r == ["none"] for r in held)
    assert chosen == [1, 0]


def test_load_queries_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a_0"}\n', encoding="utf-8")
    with pytest.raises(DataError):
        load_queries(bad)
    with pytest.raises(InputError):
        load_queries(tmp_path / "missing.jsonl")


def test_harness_end_to_end(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    data, corpus = _write(tmp_path)
    settings = Settings(cache_dir=tmp_path / "cache")  # type: ignore[call-arg]
    out = run_persphere(data, corpus, ks=(2, 4), settings=settings, embedder=embedder)
    assert {"bm25", "dense", "hybrid", "sphere", "sphere_gold_claims"} <= set(out["methods"])
    assert set(out["tasks"]) == {"living", "politics"}
    for vals in out["methods"].values():
        assert set(vals) == {"recall@2", "recall@4", "cover@2", "cover@4"}
        assert 0.0 <= vals["recall@2"] <= vals["recall@4"] <= 100.0
    # four gold documents per query, a clear topic each: a good ranking finds all in the top 4
    assert out["methods"]["dense"]["recall@4"] == pytest.approx(100.0)
    assert out["methods"]["sphere_gold_claims"]["recall@4"] == pytest.approx(100.0)
    # the index is cached: a second run opens it instead of building
    built = list((tmp_path / "cache" / "persphere").iterdir())
    assert len(built) == 1
    again = run_persphere(
        data, corpus, ks=(2,), settings=settings, embedder=embedder, methods=["dense"]
    )
    assert again["methods"]["dense"]["recall@2"] == out["methods"]["dense"]["recall@2"]
    assert list((tmp_path / "cache" / "persphere").iterdir()) == built


def test_cli_json(tmp_path: Path, embedder, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from assistant.cli import cli

    data, corpus = _write(tmp_path)
    monkeypatch.setenv("SPHERE_CACHE_DIR", str(tmp_path / "cache"))
    res = CliRunner().invoke(
        cli,
        ["eval", "persphere", "--data", str(data), "--corpus", str(corpus), "--k", "2", "--json"],
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["benchmark"] == "persphere" and "recall@2" in out["methods"]["sphere"]
    res = CliRunner().invoke(
        cli, ["eval", "persphere", "--data", str(tmp_path / "no.jsonl"), "--corpus", str(corpus)]
    )
    assert res.exit_code != 0 and isinstance(res.exception, InputError)


def test_bench_search_shape(tmp_path: Path) -> None:
    from assistant.bench.search import run_bench

    out = run_bench([400], queries=4, candidates=50)
    res = out["sizes"]["400"]
    assert set(res["methods"]) == {"plain", "pap", "pap_plus", "aspect_fusion", "sphere"}
    assert res["methods"]["plain"]["ratio_p95"] == pytest.approx(1.0)
    for m in res["methods"].values():
        assert m["p50_ms"] > 0 and m["p95_ms"] >= m["p50_ms"]
    assert 0 <= res["pap_plus_rescored_differs_from_exact"] <= 4
    assert res["pap_plus_rescored_identical_pct"] == pytest.approx(
        100 * (4 - res["pap_plus_rescored_differs_from_exact"]) / 4
    )


def test_summary_citations_by_hand_and_with_copies() -> None:
    from assistant.eval.summary import score_summary
    from assistant.models import ClaimSummary, Reference, Summary, SummaryPerspective

    q = PerSphereQuery("t_1", "Title", ("for", "against"), (("p1",), ("p2",)), ("a", "b"), ("c",))
    summary = Summary(
        "Title",
        [
            ClaimSummary("for", "pro", [SummaryPerspective("p1", [Reference("a", quote="x")])]),
            ClaimSummary("against", "con", [SummaryPerspective("p2", [Reference("z", quote="y")])]),
        ],
    )
    corpus = {"a": "x here", "z": "y here", "c": "y here"}

    def embed(texts: list[str]) -> np.ndarray:
        return np.eye(8, dtype=np.float32)[[len(t) % 8 for t in texts]]

    mapping = {"pro": 0, "con": 1}
    plain = score_summary(q, summary, mapping, {"a", "z"}, corpus, embed)
    # cited pairs (a, 0) gold, (z, 1) not: recall 1 of 3 gold pairs, precision 1 of 2
    assert (plain.gold_pairs, plain.gold_pairs_cited, plain.cited_pairs) == (3, 1, 2)
    assert (plain.cited_gold_pairs, plain.gold_cited, plain.gold_cited_right) == (1, 1, 1)
    # z's hit carries c (the same passage under the gold id): citing z cites c too
    folded = score_summary(q, summary, mapping, {"a", "z"}, corpus, embed, {"z": ["c"]})
    assert (folded.gold_pairs_cited, folded.cited_pairs, folded.cited_gold_pairs) == (2, 3, 2)
    assert (folded.gold_cited, folded.gold_cited_right) == (2, 2)
    assert folded.references == plain.references == 2
