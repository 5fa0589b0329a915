"""``sphere eval instruct``: test-set construction and scoring (paper 002 eqs. 1–6)."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from assistant.eval import instruct as I
from assistant.eval.persphere_data import PerSphereQuery, load_queries

FILL = "the city council debated the new budget plan and the vote comes next week"
CORPUS = {
    "0": f"{FILL} and rail transit matters; rail transit is cheap",  # rail: only here
    "1": f"{FILL} while housing costs keep rising " + "extra words here " * 10,
    "2": f"{FILL} while taxes keep rising for everyone " + "more words here " * 10,
    "3": "rail transit appears in a distractor too " + FILL,
    "4": "an unrelated distractor about housing and gardens " + FILL,
}
QUERY = PerSphereQuery(
    qid="politics_0",
    title="Should the council pass the budget?",
    claims=("Yes.", "No."),
    perspectives=(("a",), ("b", "c")),
    favor_ids=("0",),
    against_ids=("1", "2"),
)


def _df() -> Counter[str]:
    df: Counter[str] = Counter()
    for text in CORPUS.values():
        df.update({s for s, _ in I._stems(text)})
    return df


def test_keyword_item_singles_out_one_positive() -> None:
    it = I.keyword_item(0, QUERY, CORPUS, _df(), len(CORPUS))
    assert it is not None and it.dimension == "keyword"
    # "transit" (tf 2, df 2) outweighs "rising" (in two positives) and "housing" (tf 1)
    assert (it.target, it.detail) == ("0", "transit")
    assert it.instructed == f"{QUERY.title} Only documents that mention transit."
    assert it.reversed == f"{QUERY.title} Only documents that do not mention transit."
    assert it.positives_of("instructed") == {"0"}
    assert it.positives_of("reversed") == {"1", "2"}
    assert it.positives_of("original") == {"0", "1", "2"}


def test_length_item_and_bound() -> None:
    it = I.length_item(0, QUERY, CORPUS)
    n = {k: len(v.split()) for k, v in CORPUS.items()}
    assert it is not None and it.target == "0"
    t = int(it.detail.split("<")[1])
    assert n["0"] < t < min(n["1"], n["2"])
    assert it.instructed.endswith(f"Only documents of fewer than {t} words.")
    assert it.reversed.endswith(f"Only documents of at least {t} words.")
    # geometric mean of 60 and 100 = 77.5 → 80; of 100 and 104 → 102 (rounding leaves the gap)
    assert I.length_bound(60, 100) == 80 and I.length_bound(104, 100) == 102
    even = {"0": "w " * 10, "1": "w " * 11, "2": "w " * 12}
    assert I.length_item(0, QUERY, even) is None  # no positive 25 % apart from the rest


def test_sicr_reference_differs_only_at_rank_one() -> None:
    assert I.sicr_reference(3, 1, 9, 0.5, 0.6, 0.1) == 1
    assert I.sicr_reference(1, 1, 9, 0.5, 0.6, 0.1) == 1  # eq. 1 would give 0
    assert I.sicr_reference(1, 1, 9, 0.5, 0.4, 0.1) == 0
    assert I.sicr_reference(1, 2, 9, 0.5, 0.6, 0.1) == 0


def test_score_items_by_hand() -> None:
    it = I.InstructItem("q", "keyword", ("a", "b"), "a", "o", "i", "r", "w")
    run = {
        "o": (["b", "x", "a"], {"b": 0.9, "x": 0.8, "a": 0.7}),  # R_ori = 3
        "i": (["a", "b"], {"a": 0.95, "b": 0.5}),  # R_ins = 1
        "r": (["b", "x"], {"b": 0.9, "x": 0.8}),  # P_i gone: R_rev = 101, S = −∞
    }
    got = I.score_items([it], run)
    assert got["sicr"] == 100.0 and got["sicr_ref"] == 100.0 and got["r_ori_1"] == 0.0
    # reward, R_ori = 3 > N = 2: (1 − √(3 − 1)/20)/√1
    assert got["wise"] == pytest.approx(round(100 * (1 - math.sqrt(2) / 20), 2))
    # original: gains a, b at ranks 3 and 1 → (1 + 1/2) / (1 + 1/log2 3)
    assert got["ndcg@10_original"] == pytest.approx(round(100 * 1.5 / (1 + 1 / math.log2(3)), 2))
    assert got["ndcg@10_instructed"] == 100.0 and got["ndcg@10_reversed"] == 100.0
    assert I.rank_and_score(run["r"], "a") == (I.DEPTH + 1, float("-inf"))


def test_build_items_on_the_real_data(shared_data: Path) -> None:
    d = shared_data / "persphere" / "theperspective"
    queries = load_queries(d / "data.jsonl")
    items = I.build_items(queries, I.load_corpus(d / "doc_new.jsonl"))
    again = I.build_items(queries, I.load_corpus(d / "doc_new.jsonl"))
    assert items == again  # deterministic
    assert len(items["keyword"]) > 0.9 * len(queries) and len(items["length"]) >= 30
    from assistant.understand import parse_rules

    for dim, its in items.items():
        for it in its[:20]:
            ins, rev = parse_rules(it.instructed), parse_rules(it.reversed)
            assert any(c.dimension == dim and not c.negated for c in ins.constraints)
            assert any(c.dimension == dim for c in rev.constraints)


@pytest.mark.slow
def test_run_instruct_end_to_end(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    from assistant.config import Settings

    data = tmp_path / "data.jsonl"
    corpus = tmp_path / "docs.jsonl"
    rec = {
        "id": QUERY.qid,
        "title": QUERY.title,
        "t1": "Yes.",
        "t2": "No.",
        "response1": ["a"],
        "response2": ["b", "c"],
        "favor_ids": [0],
        "against_ids": [1, 2],
    }
    data.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    corpus.write_text(
        "".join(json.dumps({"id": int(k), "content": v}) + "\n" for k, v in CORPUS.items()),
        encoding="utf-8",
    )
    settings = Settings(cache_dir=tmp_path / "cache")  # type: ignore[call-arg]
    out = I.run_instruct(data, corpus, settings=settings, embedder=embedder)
    assert out["benchmark"] == "instruct" and set(out["tasks"]) == {"keyword", "length"}
    assert set(out["methods"]) == {"plain", "plain_dense", "sphere"}
    for per in out["tasks"].values():
        for vals in per.values():
            assert {"sicr", "wise", "ndcg@10_original"} <= set(vals)
    assert out["checks"]["original_identical"] is True
    # the filter puts the single instructed positive first
    assert out["tasks"]["keyword"]["sphere"]["ndcg@10_instructed"] == 100.0
