"""PIR / Recipe-MPR harnesses on small fixtures, the embedding cache, DataError paths."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from assistant.commands.context import Context
from assistant.commands.eval_cmd import eval_group
from assistant.errors import DataError
from assistant.eval import mpr, pir
from assistant.eval.cache import cache_path, embed_cached
from assistant.retrieval import pap as P


class BagOfWordsEmbedder:
    """Deterministic stand-in: hashed bag of words, unit length. Counts encoded texts."""

    name = "test-bow"
    dim = 512

    def __init__(self) -> None:
        self.encoded = 0

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        self.encoded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"[a-z]+", t.lower()):
                out[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1.0
            out[i] /= max(float(np.linalg.norm(out[i])), 1e-9)
        return out


def test_embed_cache_hits_disk_on_second_call(tmp_path: Path) -> None:
    emb = BagOfWordsEmbedder()
    texts = ["red apple", "green pear", "red apple"]
    first = embed_cached(emb, texts, tmp_path)
    assert emb.encoded == 2  # duplicates embedded once
    assert cache_path(tmp_path, emb.name, texts).is_file()
    second = embed_cached(emb, texts, tmp_path)
    assert emb.encoded == 2  # nothing re-embedded
    np.testing.assert_array_equal(first, second)
    assert first.shape == (3, 512)
    np.testing.assert_array_equal(first[0], first[2])
    # a different list is a different key
    assert cache_path(tmp_path, emb.name, texts) != cache_path(tmp_path, emb.name, texts[:2])
    assert cache_path(tmp_path, "other", texts) != cache_path(tmp_path, emb.name, texts)


PIR_FIXTURE: dict[str, Any] = {
    "toy": {
        "corpus": [
            "apples are healthy fruit",
            "apples cause harm",
            "bananas are yellow",
            "bananas are bad",
        ],
        "queries": ["support apples healthy", "oppose apples harm", "bananas yellow"],
        "source_queries": ["apples", "apples", "bananas"],
        "perspectives": ["support", "oppose", "bananas yellow"],
        "query_labels": ["support", "undermine", "general"],
        "key_ref": {"0": [0], "1": [1], "2": [2]},
    }
}


def test_pir_report_shape_and_values(tmp_path: Path) -> None:
    path = tmp_path / "pir.json"
    path.write_text(json.dumps(PIR_FIXTURE))
    tasks = pir.load_pir(path)
    assert tasks[0].roots == ["apples", "apples", "bananas"]
    report = pir.run_pir(tasks, BagOfWordsEmbedder(), tmp_path, k=1, methods=["cosine", "sphere"])
    assert report["benchmark"] == "pir"
    assert set(report["methods"]) == {"cosine", "sphere"}
    assert set(report["tasks"]["toy"]["cosine"]) == {"p_recall@1"}
    # every gold shares the most words with its query → p-Recall@1 = 100
    assert report["tasks"]["toy"]["cosine"]["p_recall@1"] == 100.0
    assert report["methods"]["cosine"]["p_recall@1"] == 100.0


def test_pir_lexical_row_mixes_bm25_at_the_retrievers_weight(tmp_path: Path) -> None:
    # an embedder that sees no words: every dense score ties, so only BM25 can rank
    class Blind(BagOfWordsEmbedder):
        def encode(self, texts: Any, **kw: Any) -> np.ndarray:
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            out[:, 0] = 1.0
            return out

    fixture = {"toy": {**PIR_FIXTURE["toy"], "key_ref": {"0": [0], "1": [1], "2": [2]}}}
    (tmp_path / "pir.json").write_text(json.dumps(fixture))
    tasks = pir.load_pir(tmp_path / "pir.json")
    report = pir.run_pir(tasks, Blind(), tmp_path, k=1, methods=["sphere", "sphere_lexical"])
    toy = report["tasks"]["toy"]
    assert toy["sphere_lexical"]["p_recall@1"] == 100.0  # BM25 finds each gold
    assert toy["sphere"]["p_recall@1"] < 100.0  # ties broken by corpus order
    lex = pir._lexical_scores(tasks[0])
    assert lex.shape == (3, 4) and lex.max(axis=1).tolist() == [1.0, 1.0, 1.0]
    assert lex[2].argmax() == 2 and lex[2][0] == 0.0  # "bananas yellow" shares nothing with 0
    assert 0 < pir.LEXICAL_WEIGHT < 1
    table = pir.format_table(report)
    assert "sphere_lexical" in table and all(
        len(r) == len(table.splitlines()[1]) for r in table.splitlines()[1:]
    )


def test_pir_sphere_ranks_by_the_margin_over_the_roots_other_perspectives(tmp_path: Path) -> None:
    # "apples health taste" fits each query best on its own; the margin over the other
    # perspective sends each query to the document that fits it and not the other
    fixture = {
        "toy": {
            "corpus": [
                "apples health taste",
                "apples health fibre vitamins",
                "apples taste sweet crisp",
                "pears",
            ],
            "queries": ["apples health", "apples taste"],
            "source_queries": ["apples", "apples"],
            "perspectives": ["health", "taste"],
            "query_labels": ["a", "b"],
            "key_ref": {"0": [1], "1": [2]},
        }
    }
    (tmp_path / "pir.json").write_text(json.dumps(fixture))
    tasks = pir.load_pir(tmp_path / "pir.json")
    methods = ["cosine", "sphere_single", "sphere"]
    toy = pir.run_pir(tasks, BagOfWordsEmbedder(), tmp_path, k=1, methods=methods)["tasks"]["toy"]
    assert toy["cosine"]["p_recall@1"] == 0.0
    assert toy["sphere_single"]["p_recall@1"] == 0.0
    assert toy["sphere"]["p_recall@1"] == 100.0
    # a root asked from one perspective only: sphere is the single policy
    fixture["toy"]["source_queries"] = ["apples", "apples?"]
    (tmp_path / "pir.json").write_text(json.dumps(fixture))
    tasks = pir.load_pir(tmp_path / "pir.json")
    alone = pir.run_pir(tasks, BagOfWordsEmbedder(), tmp_path, k=1, methods=methods)
    assert alone["tasks"]["toy"]["sphere"] == alone["tasks"]["toy"]["sphere_single"]


def test_pir_sphere_adds_the_margin_to_each_policy() -> None:
    rng = np.random.default_rng(3)
    C = rng.normal(size=(40, 16)).astype(np.float32)
    C /= np.linalg.norm(C, axis=1, keepdims=True)
    r = rng.normal(size=16).astype(np.float32)
    r /= np.linalg.norm(r)
    Q = np.stack([r + rng.normal(size=16).astype(np.float32) for _ in range(4)])
    Q /= np.linalg.norm(Q, axis=1, keepdims=True)
    Pv = Q - r
    # queries 0-2 share a root; query 3 is asked from one perspective only
    task = pir.PIRTask(
        "t", ["x"] * 40, ["q"] * 4, ["a", "a", "a", "b"], ["p"] * 4, [""] * 4, [[0]] * 4
    )
    vectors = {"corpus": C, "queries": Q, "roots": np.stack([r] * 4), "perspectives": Pv}
    margins = pir.plan_margins_of(task, vectors)
    # other array shapes through BLAS: equal up to float32 rounding, not bit for bit
    np.testing.assert_allclose(margins[:3], P.plan_margins(Q[:3], r, C), atol=1e-6)
    single = np.stack([P.sphere_pap_scores(q, p, C, root=r) for q, p in zip(Q, Pv, strict=True)])
    none = np.zeros(0)
    for i in range(4):
        args = (Q[i], r, Pv[i], C, none, margins[i])
        np.testing.assert_allclose(pir._sphere_at(0.0)(*args), single[i], atol=1e-6)
        np.testing.assert_allclose(pir.METHODS["sphere"](*args), single[i] + margins[i], atol=1e-6)
    assert not np.allclose(margins[:3], 0.0)
    # one query has nothing to be told apart from: the policy alone
    np.testing.assert_allclose(
        pir.METHODS["sphere"](Q[3], r, Pv[3], C, none, margins[3]), single[3], atol=1e-6
    )


def test_leave_one_task_out_by_hand() -> None:
    # three tasks, grid points 0..2; each task is scored with the point best on the others
    scores = {"a": [0.1, 0.9, 0.5], "b": [0.2, 0.3, 0.8], "c": [0.9, 0.1, 0.1]}
    held, chosen = pir.leave_one_task_out(scores)
    # a: b + c means are 0.55, 0.2, 0.45 → point 0; b: a + c → 0.5, 0.5, 0.3 → tie, first (0)
    # c: a + b → 0.15, 0.6, 0.65 → point 2
    assert chosen == {"a": 0, "b": 0, "c": 2}
    assert held == {"a": 0.1, "b": 0.2, "c": 0.1}


def test_pir_loto_row_and_choices(tmp_path: Path) -> None:
    fixture = {"one": PIR_FIXTURE["toy"], "two": PIR_FIXTURE["toy"]}
    (tmp_path / "pir.json").write_text(json.dumps(fixture))
    tasks = pir.load_pir(tmp_path / "pir.json")
    report = pir.run_pir(tasks, BagOfWordsEmbedder(), tmp_path, k=1, methods=["sphere"], loto=True)
    assert set(report["methods"]) == {"sphere", "sphere_loto"}
    assert report["loto"]["grid"] == list(pir.MARGIN_GRID)
    assert set(report["loto"]["chosen"]) == {"one", "two"}
    assert all(w in pir.MARGIN_GRID for w in report["loto"]["chosen"].values())
    assert set(report["tasks"]["one"]) == {"sphere", "sphere_loto"}
    assert "sphere_loto" in pir.format_table(report)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "not found"),
        ("{not json", "not a readable JSON"),
        (json.dumps([1, 2]), "expected a JSON object"),
        (json.dumps({"toy": {"corpus": ["x"]}}), "lacks field"),
        (
            json.dumps({"toy": {**PIR_FIXTURE["toy"], "key_ref": {"0": [9], "1": [1], "2": [2]}}}),
            "must index the corpus",
        ),
    ],
)
def test_pir_bad_data_raises_data_error(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "pir.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(DataError, match=message):
        pir.load_pir(path)


MPR_FIXTURE = [
    {
        "query": "I want a warm dish containing oysters",
        "options": {"a1": "Simple creamy oyster soup", "b2": "Salted crackers, butter and salt"},
        "answer": "a1",
        "correctness_explanation": {"warm dish": "soup", "oysters": ["oyster", "<INFERRED>"]},
    },
    {
        "query": "Crackers with salt",
        "options": {"b2": "Salted crackers, butter and salt", "c3": "Chicken stew with beans"},
        "answer": "b2",
        "correctness_explanation": {"crackers": "crackers", "salt": "<INFERRED>"},
    },
]


def test_mpr_items_aspects_and_review_distributions(tmp_path: Path) -> None:
    path = tmp_path / "mpr.json"
    path.write_text(json.dumps(MPR_FIXTURE))
    data = mpr.load_mpr(path)
    assert data.item_ids == ["a1", "b2", "c3"]
    # gold spans (INFERRED dropped) for gold items; split phrases otherwise
    assert data.item_aspects == [["soup", "oyster"], ["crackers"], ["Chicken stew", "beans"]]
    # only queries whose gold item has ≥ 2 aspects are scored
    assert [q.answer for q in mpr.eval_queries(data)] == ["a1"]
    n = len(mpr.ONE_ASPECT_TEMPLATES)
    counts = {}
    for dist in mpr.DISTRIBUTIONS:
        reviews, owner = mpr.build_reviews(data, dist)
        counts[dist] = np.bincount(owner, minlength=3).tolist()
        assert len(reviews) == len(owner)
    assert counts["overlapping"] == [20, 20, 20]
    assert counts["disjoint"] == [2 * n, n, 2 * n]
    assert counts["one_rare"] == [n + 1, 1, n + 1]
    assert counts["one_popular"] == [n + 1, n, n + 1]
    reviews, _ = mpr.build_reviews(data, "overlapping")
    assert reviews[0] == "I loved the soup and oyster."
    # deterministic: the same corpus every time
    assert mpr.build_reviews(data, "one_rare")[0] == mpr.build_reviews(data, "one_rare")[0]


def test_mpr_run_scores_every_method(tmp_path: Path) -> None:
    path = tmp_path / "mpr.json"
    path.write_text(json.dumps(MPR_FIXTURE))
    data = mpr.load_mpr(path)
    emb = BagOfWordsEmbedder()
    run = mpr.MPRRun(data, "disjoint", "gold", emb.encode)
    res = run.evaluate(k_r=1)
    assert set(res) == set(mpr.METHODS)
    for m in mpr.METHODS:
        assert set(res[m]) == {"map@10", "recall@10"}
        assert 0.0 <= res[m]["map@10"] <= res[m]["recall@10"] <= 1.0
    # "soup"/"oyster" reviews match the aspects "warm dish"? no; "oysters" ≠ "oyster" in a
    # bag of words — but the gold item is one of three, so it is in the top 10
    assert res["amean"]["recall@10"] == 1.0


def test_split_query_aspects_is_a_deterministic_fallback() -> None:
    assert mpr.split_query_aspects("Can I have a recipe for fish that's roasted?") == [
        "fish",
        "roasted",
    ]
    assert mpr.split_query_aspects("soup") == ["soup"]


def test_mpr_bad_data_raises_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        mpr.load_mpr(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"query": "x"}]))
    with pytest.raises(DataError, match="lacks one of"):
        mpr.load_mpr(bad)
    bad.write_text(json.dumps([{**MPR_FIXTURE[0], "answer": "zz"}]))
    with pytest.raises(DataError, match="must be one of its 'options'"):
        mpr.load_mpr(bad)


@pytest.mark.parametrize("sub", ["pir", "mpr"])
def test_cli_reports_missing_data_as_data_error(tmp_path: Path, sub: str) -> None:
    result = CliRunner().invoke(
        eval_group, [sub, "--data", str(tmp_path / "nope.json"), "--json"], obj=Context(None)
    )
    assert isinstance(result.exception, DataError)
    assert "not found" in str(result.exception)


def test_pir_loto_needs_two_tasks(tmp_path: Path) -> None:
    (tmp_path / "pir.json").write_text(json.dumps(PIR_FIXTURE))
    result = CliRunner().invoke(
        eval_group,
        ["pir", "--data", str(tmp_path / "pir.json"), "--loto", "--json"],
        obj=Context(None),
    )
    assert result.exit_code == 2
    assert "needs two or more" in result.output
