"""Per-document batches on worker threads (``encode_groups``), with the real embedder.

A group's vectors must depend on that group alone (issue 17: the same
document gets the same sentence vectors whatever came along or was asked
before), and equal what ``encode`` gives the group on its own.
"""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from assistant.embed import load_embedder
from assistant.summarize.evidence import sentence_spans


@pytest.fixture(scope="module")
def groups() -> list[list[str]]:
    path = resources.files("assistant.demo") / "corpus.jsonl"
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [[r["text"][a:b] for a, b in sentence_spans(r["text"])] for r in rows[:12]]


@pytest.fixture(scope="module")
def embedder():  # type: ignore[no-untyped-def]
    return load_embedder("bundled")


def test_groups_equal_their_own_encode(embedder, groups) -> None:  # type: ignore[no-untyped-def]
    together = embedder.encode_groups(groups)
    assert [v.shape for v in together] == [(len(g), embedder.dim) for g in groups]
    for g, v in zip(groups, together, strict=True):
        assert np.abs(v - embedder.encode(g)).max() < 1e-5
        assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


def test_a_groups_vectors_depend_on_it_alone(embedder, groups) -> None:  # type: ignore[no-untyped-def]
    together = embedder.encode_groups(groups)
    for k in (0, 5, 11):
        others = [groups[(k + 3) % len(groups)], groups[k], groups[(k + 7) % len(groups)]]
        assert np.array_equal(embedder.encode_groups(others)[1], together[k])
    assert np.array_equal(embedder.encode_groups([groups[2]])[0], together[2])


def test_empty_and_large_groups_go_through_encode(embedder, groups) -> None:  # type: ignore[no-untyped-def]
    big = [s for g in groups for s in g][: embedder.batch_size + 5]
    out = embedder.encode_groups([[], big, groups[0]])
    assert out[0].shape == (0, embedder.dim)
    assert out[1].shape == (len(big), embedder.dim)
    assert np.abs(out[2] - embedder.encode(groups[0])).max() < 1e-5


def test_a_group_is_cut_into_runs_of_similar_lengths(embedder) -> None:  # type: ignore[no-untyped-def]
    from assistant.embed import length_runs

    short = "Art challenges society."
    long_ = " ".join(["Art challenges society, and that is exactly what it is for."] * 6)
    group = [short, long_, short, short, long_, short]
    feats = embedder.model.preprocess(group)
    runs = length_runs(feats)
    rows = sorted(int(r) for run, _ in runs for r in run)
    assert rows == list(range(len(group)))  # every text once
    assert len(runs) == 2  # the short ones are not padded to the long ones
    for run, sub in runs:
        width = sub["input_ids"].shape[1]
        assert width == int(feats["attention_mask"][run].sum(dim=1).max())
        assert width < feats["input_ids"].shape[1] or len(run) == 2
    # and the vectors are those of each text alone, in the group's order
    alone = np.stack([embedder.encode([t])[0] for t in group])
    assert np.abs(embedder.encode_groups([group])[0] - alone).max() < 1e-5
