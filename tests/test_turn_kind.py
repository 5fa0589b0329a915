"""The turn-kind classifier of follow-ups: shipped weights, what it reads, how the
resolver uses it (rule 8), and its training command (never on a test set)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from assistant.understand import parse_rules, turn_kind, turn_kind_train
from assistant.understand.facet_judge import shared_judge
from assistant.understand.followup import EDITS, FollowUp, resolve
from assistant.understand.followup.learned import _learned_kind

DATA = Path(__file__).parent / "data"


def test_the_shipped_model_has_every_edit_kind() -> None:
    model = turn_kind.shipped()
    assert model is not None
    assert sorted(model.classes) == sorted(EDITS)
    dim = 2 * turn_kind.DIM + 1 + 2 * 2**turn_kind.BITS
    assert model.w.shape == (len(EDITS), dim)
    assert all("test" not in name for name in model.meta["files"])  # dev sets only
    unit = np.ones((2, turn_kind.DIM)) / np.sqrt(turn_kind.DIM)
    p = model.proba(turn_kind.features(["more", "why is [2] there"], unit, unit))
    assert np.allclose(p.sum(axis=1), 1.0)
    # the side reader ships in the same file, on the same features
    assert model.side is not None and sorted(model.side.classes) == ["both", "con", "pro"]
    assert model.side.w.shape == (3, dim)
    assert model.meta["side_turns"] > 0


def test_the_hashed_ngrams_are_integer_hashing_of_the_spelling() -> None:
    h = turn_kind.hashed(["moar pls", "Moar  pls", "more please"])
    n = 2**turn_kind.BITS
    assert h.shape == (3, 2 * n)
    assert np.array_equal(h[0], h[1])  # case and spacing do not matter
    assert not np.array_equal(h[0], h[2])
    assert np.isclose(np.linalg.norm(h[0, :n]), 1.0) and np.isclose(np.linalg.norm(h[0, n:]), 1.0)
    # CRC-32 of the bigram "moar pls" decides its bucket, on every machine
    assert h[0, n + (zlib.crc32(b"moar pls") & (n - 1))] > 0


@pytest.mark.parametrize(
    ("turn", "kind"),
    [
        ("show me more of those", "more"),
        ("only the arguments against, please", "one_side"),
        ("Should circuses be allowed to use wild animals?", "new_topic"),
        ("why is [3] there?", "explain_ref"),
    ],
)
def test_it_reads_the_kind_of_a_turn(turn: str, kind: str) -> None:
    read = shared_judge().kind(turn, "Should zoos be abolished?")
    assert read is not None
    assert read[0] == kind


class _Judge:
    """A judge whose turn-kind reading is given (control flow only)."""

    def __init__(self, kind: str, p: float) -> None:
        self.given = (kind, p)

    def kind(self, turn: str, topic: str) -> tuple[str, float]:
        return self.given


def test_rule_8_takes_the_side_from_the_words_and_needs_the_model_sure() -> None:
    prev = parse_rules("Should zoos be abolished?")
    text = "the doubters' material exclusively, if you would"
    found = _learned_kind(text, prev, _Judge("one_side", 0.7))  # type: ignore[arg-type]
    assert found is None  # no side word: the model alone does not pick a side
    text = "nothing but the critics' material, if you would"
    found = _learned_kind(text, prev, _Judge("one_side", 0.7))  # type: ignore[arg-type]
    assert isinstance(found, FollowUp) and (found.edit, found.value) == ("one_side", "con")
    assert found.rule.startswith("8 turn-kind model")
    assert _learned_kind(text, prev, _Judge("one_side", 0.3)) is None  # type: ignore[arg-type]
    assert _learned_kind(text, prev, _Judge("explain_ref", 0.9)) is None  # type: ignore[arg-type]
    more = _learned_kind("load a few extra", prev, _Judge("more", 0.6))  # type: ignore[arg-type]
    assert more is not None and (more.edit, more.value) == ("more", "both")


def test_a_new_question_stays_a_new_topic_with_the_model() -> None:
    prev = parse_rules("Should zoos be abolished?")
    for text in ("Should circuses use animals?", "is nuclear power safe?", "what about aquariums?"):
        assert not resolve(text, prev, shared_judge()).follows


def test_training_is_reproducible_and_refuses_test_sets(tmp_path: Path) -> None:
    out = tmp_path / "tk.npz"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "assistant.cli", "train", "turn-kind", "--json"]
    dev = [
        "--data",
        str(DATA / "conversation_dev.jsonl"),
        "--data",
        str(DATA / "conversation_dev2.jsonl"),
    ]
    r = subprocess.run(
        [*cmd, *dev, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["turns"] == 238 + 265
    a = turn_kind.TurnKind.load(out)
    b = turn_kind_train.train(
        [DATA / "conversation_dev.jsonl", DATA / "conversation_dev2.jsonl"], shared_judge().embedder
    )
    assert a.classes == b.classes
    assert np.allclose(a.w, b.w, atol=1e-3)
    assert a.side is not None and b.side is not None
    assert np.allclose(a.side.w, b.side.w, atol=1e-3)
    r = subprocess.run(
        [*cmd, "--data", str(DATA / "conversation_test.jsonl"), "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert r.returncode == 2
    assert "test set" in r.stderr
    assert "Traceback" not in r.stderr
