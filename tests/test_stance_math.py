"""The stance package's pure parts: side math, data readers, training items, quantisation."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.errors import DataError
from assistant.stance.artifact import quantize_rows
from assistant.stance.corpus import ABSTRACT_PAIRS, make_items, sample_rows
from assistant.stance.data import (
    Row,
    claim_pair,
    flip,
    frame,
    read_perspectrum,
    read_stance_jsonl,
)
from assistant.stance.side import (
    document_sides,
    expected_calibration_error,
    fit_temperature,
    precision_coverage,
    side_logits,
    side_probs,
    softmax,
)

# --------------------------------------------------------------------------- side math


def test_side_logits_product_of_experts_by_hand() -> None:
    pa = np.array([[0.7, 0.2, 0.1]])
    pb = np.array([[0.1, 0.6, 0.3]])
    z = side_logits(pa, pb)
    assert z[0, 0] == pytest.approx(np.log(0.7) + np.log(0.6))  # A: pro(A) + con(B)
    assert z[0, 1] == pytest.approx(np.log(0.1) + np.log(0.2))  # B: pro(B) + con(A)
    assert z[0, 2] == pytest.approx(np.log(0.1) + np.log(0.3))  # neither
    p = side_probs(pa, pb)
    raw = np.array([0.7 * 0.6, 0.1 * 0.2, 0.1 * 0.3])
    assert p[0] == pytest.approx(raw / raw.sum())


def test_side_probs_swap_symmetry() -> None:
    rng = np.random.default_rng(0)
    pa = rng.dirichlet(np.ones(3), size=20)
    pb = rng.dirichlet(np.ones(3), size=20)
    p, q = side_probs(pa, pb, 1.7), side_probs(pb, pa, 1.7)
    assert np.allclose(p[:, 0], q[:, 1]) and np.allclose(p[:, 2], q[:, 2])


def test_document_sides_by_hand() -> None:
    # doc 0: one sentence for A (weight 1 - q_N), one neutral; doc 1: no sentences
    z = np.log(np.array([[0.8, 0.1, 0.1], [0.1, 0.1, 0.8]]))
    out = document_sides(z, np.array([0, 0]), 2)
    q = softmax(z)
    odds = (1 - q[0, 2]) * (z[0, 0] - z[0, 1]) + (1 - q[1, 2]) * (z[1, 0] - z[1, 1])
    p_none = q[0, 2] * q[1, 2]
    p_a = (1 - p_none) / (1 + np.exp(-odds))
    assert out[0] == pytest.approx([p_a, 1 - p_none - p_a, p_none])
    assert out[1] == pytest.approx([0.0, 0.0, 1.0])
    assert np.allclose(out.sum(axis=1), 1.0)


def test_document_side_not_diluted_by_background_sentences() -> None:
    arguing = np.log(np.array([[0.9, 0.05, 0.05]]))
    background = np.log(np.array([[0.02, 0.02, 0.96]] * 6))
    alone = document_sides(arguing, np.array([0]), 1)
    mixed = document_sides(np.vstack([arguing, background]), np.zeros(7, np.int64), 1)
    assert np.argmax(alone[0]) == np.argmax(mixed[0]) == 0
    assert mixed[0, 0] / (mixed[0, 0] + mixed[0, 1]) > 0.9


def test_fit_temperature_recovers_the_generating_temperature() -> None:
    rng = np.random.default_rng(1)
    z = rng.normal(0, 3, size=(4000, 3))
    p = softmax(z, 2.5)
    y = np.array([rng.choice(3, p=row) for row in p])
    assert fit_temperature(z, y) == pytest.approx(2.5, rel=0.1)


def test_precision_coverage_by_hand() -> None:
    p = np.array([0.9, 0.8, 0.7, 0.6, 0.55])
    ok = np.array([True, True, False, True, False])
    out = precision_coverage(p, ok, levels=(1.0, 0.4))
    assert out == {"precision@100%": 60.0, "precision@40%": 100.0}


def test_ece_by_hand() -> None:
    probs = np.array([[0.9, 0.1], [0.9, 0.1], [0.6, 0.4], [0.6, 0.4]])
    y = np.array([0, 1, 0, 0])
    # bin (0.8, 0.9]: conf 0.9, acc 0.5; bin (0.5, 0.6]: conf 0.6, acc 1.0
    assert expected_calibration_error(probs, y) == pytest.approx(0.5 * 0.4 + 0.5 * 0.4)


# --------------------------------------------------------------------------- data


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_read_stance_jsonl_rows_and_groups(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "x.jsonl",
        [
            {
                "topic": "We should ban X",
                "text": "X hurts  people",
                "label": "pro",
                "source": "s",
                "split": "train",
            },
            {
                "topic": "We should ban X",
                "text": "X helps",
                "label": "CON",
                "source": "s",
                "split": "dev",
            },
        ],
    )
    rows = read_stance_jsonl(f)
    assert [r.label for r in rows] == [0, 1]
    assert rows[0].text == "X hurts people"  # whitespace folded
    assert rows[0].group == rows[1].group  # one topic, one group
    assert [r.split for r in rows] == ["train", "dev"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "x.jsonl:2: not JSON"),
        ('{"topic": "t", "text": "x"}', "missing or non-text field"),
        ('{"topic": "t", "text": "x", "label": "maybe"}', "is not pro, con or none"),
        ('{"topic": " ", "text": "x", "label": "pro"}', "empty topic or text"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_read_stance_jsonl_names_the_bad_line(tmp_path: Path, line: str, message: str) -> None:
    f = tmp_path / "x.jsonl"
    f.write_text('{"topic": "t", "text": "x", "label": "pro"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=message):
        read_stance_jsonl(f)


def test_read_stance_jsonl_missing_and_binary(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        read_stance_jsonl(tmp_path / "nope.jsonl")
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(DataError, match="not UTF-8"):
        read_stance_jsonl(bad)


def test_read_perspectrum_split_and_labels(tmp_path: Path) -> None:
    claims = [
        {
            "cId": 1,
            "text": "Uniforms should be worn",
            "perspectives": [
                {"pids": [10, 11], "stance_label_3": "SUPPORT"},
                {"pids": [12], "stance_label_3": "UNDERMINE"},
            ],
        },
        {
            "cId": 2,
            "text": "Tax sugar",
            "perspectives": [
                {"pids": [13], "stance_label_3": "UNDERMINE"},
            ],
        },
    ]
    (tmp_path / "claims.json").write_text(json.dumps(claims))
    (tmp_path / "perspective_pool_v1.0.json").write_text(
        json.dumps([{"pId": i, "text": f"perspective {i}"} for i in range(10, 14)])
    )
    (tmp_path / "dataset_split_v1.0.json").write_text(json.dumps({"1": "train", "2": "test"}))
    rows = read_perspectrum(tmp_path / "claims.json")
    assert [(r.topic, r.text, r.label, r.split) for r in rows] == [
        ("Uniforms should be worn", "perspective 10", 0, "train"),
        ("Uniforms should be worn", "perspective 11", 0, "train"),
        ("Uniforms should be worn", "perspective 12", 1, "train"),
        ("Tax sugar", "perspective 13", 1, "test"),
    ]
    (tmp_path / "claims.json").write_text(json.dumps({"not": "a list"}))
    with pytest.raises(DataError, match="expected a list of claims"):
        read_perspectrum(tmp_path / "claims.json")


def test_frame_adds_the_question_only_to_headline_claims() -> None:
    q = "Should school uniforms be mandatory?"
    full = "School uniforms should be mandatory."
    assert frame(q, full) == full
    assert frame(q, "Less is more") == f"{q} — Less is more"
    assert frame("", "Less is more") == "Less is more"


def test_claim_pair_is_the_parsers_claims() -> None:
    a, b = claim_pair("We should ban naturopathy")
    assert a == "We should ban naturopathy."
    assert b == "We should not ban naturopathy."
    assert flip(0) == 1 and flip(1) == 0 and flip(2) == 2


def _rows(n_topics: int = 30) -> list[Row]:
    return [
        Row(f"We should ban thing {t}", f"text {t} {i}", i % 3, "src", "train", f"g{t}")
        for t in range(n_topics)
        for i in range(3)
    ]


def test_make_items_claims_and_labels() -> None:
    rows = _rows()
    items = make_items(rows, random.Random(0))
    for r, it in zip(rows, items, strict=True):
        assert (it.a, it.b) == claim_pair(r.topic)
        assert it.label == r.label and it.text == r.text
    abstract = make_items(rows, random.Random(0), abstract_rate=1.0)
    assert all((it.a, it.b) in ABSTRACT_PAIRS for it in abstract)
    # headline claims are read with their topic
    assert abstract[0].claims[0].startswith(rows[0].topic + " — ")


def test_make_items_offtopic_rows_are_none() -> None:
    rows = _rows()
    items = make_items(rows, random.Random(3), offtopic_rate=1.0)
    moved = [(r, it) for r, it in zip(rows, items, strict=True) if it.question != r.topic]
    assert moved, "some rows should be paired with another topic"
    assert all(it.label == 2 for _r, it in moved)


def test_sample_rows_caps_per_source() -> None:
    rows = _rows() + [Row("t", f"x{i}", 0, "other", "train", "g") for i in range(50)]
    out = sample_rows(rows, {"other": 10}, random.Random(0))
    assert sum(r.source == "other" for r in out) == 10
    assert sum(r.source == "src" for r in out) == 90


def test_quantize_rows_error_bound() -> None:
    rng = np.random.default_rng(0)
    d = rng.normal(0, 0.01, size=(64, 48)).astype(np.float32)
    d[3] = 0.0  # an unchanged row
    q, s = quantize_rows(d)
    assert q.dtype == np.int8 and s.dtype == np.float32
    err = np.abs(d - q.astype(np.float32) * s[:, None])
    assert np.all(err <= s[:, None] / 2 + 1e-9)
    assert np.all(q[3] == 0)


# --------------------------------------------------------------------------- commands


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assistant.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_train_stance_missing_data_is_a_clear_error(tmp_path: Path) -> None:
    res = _cli("train", "stance", "--data-dir", str(tmp_path / "nope"), cwd=tmp_path)
    assert res.returncode == 2
    assert "stance data folder not found" in res.stderr
    assert "Traceback" not in res.stderr


def test_train_stance_malformed_data_is_a_clear_error(tmp_path: Path) -> None:
    data = tmp_path / "stance"
    data.mkdir()
    (data / "arct.jsonl").write_text('{"topic": "t", "text": "x", "label": "pro"}\n{oops\n')
    res = _cli("train", "stance", "--data-dir", str(data), "--sources", "arct", cwd=tmp_path)
    assert res.returncode == 2
    assert "arct.jsonl:2: not JSON" in res.stderr
    assert "Traceback" not in res.stderr
    res = _cli("train", "stance", "--data-dir", str(data), "--sources", "nosuch", cwd=tmp_path)
    assert res.returncode == 2 and "unknown stance source" in res.stderr


def test_eval_stance_bad_data_is_a_clear_error(tmp_path: Path) -> None:
    f = tmp_path / "weird.jsonl"
    f.write_text('{"a": 1}\n')
    res = _cli("eval", "stance", "--data", str(f), "--json", cwd=tmp_path)
    assert res.returncode == 2
    assert "unknown record shape" in res.stderr
    assert "Traceback" not in res.stderr
    res = _cli("eval", "stance", "--data", str(tmp_path / "nope.jsonl"), cwd=tmp_path)
    assert res.returncode == 2 and "not found" in res.stderr


def test_confidence_table_by_hand() -> None:
    """What each stance.min_confidence would place, as the product applies it."""
    from assistant.eval.stance import Case, confidence_table

    def case(gold: int) -> Case:
        return Case("q", ("a", "b"), "text", gold, "t", "g")

    probs = np.array(
        [
            [0.9, 0.05, 0.05],  # A at 0.9, gold A: right at every t up to 0.9
            [0.6, 0.3, 0.1],  # A at 0.6, gold B: wrong while t <= 0.6
            [0.2, 0.7, 0.1],  # B at 0.7, gold B: right while t <= 0.7
            [0.1, 0.2, 0.7],  # neither: never placed
            [0.55, 0.1, 0.35],  # A at 0.55, gold none: a wrong placement while t <= 0.55
        ]
    )
    cases = [case(0), case(1), case(1), case(2), case(2)]
    rows = {r["t"]: r for r in confidence_table(probs, cases)}
    assert rows[0.5] == {"t": 0.5, "placed": 80.0, "precision": 50.0, "net": 0.0}
    assert rows[0.6] == {"t": 0.6, "placed": 60.0, "precision": 66.67, "net": 20.0}
    assert rows[0.7] == {"t": 0.7, "placed": 40.0, "precision": 100.0, "net": 40.0}
    assert rows[0.9] == {"t": 0.9, "placed": 20.0, "precision": 100.0, "net": 20.0}
