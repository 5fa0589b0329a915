"""The stance model's fast path (length-sorted batches, each padded to its own
longest, deduplicated pairs) gives the probabilities of the straightforward
path (one pair at a time, no padding) to float tolerance, on real pairs with
the shipped weights."""

from __future__ import annotations

import itertools
import json
import random
import threading
from importlib import resources

import numpy as np
import pytest
import torch

from assistant.stance.data import frame
from assistant.stance.model import DOCUMENT_MAX_LEN, SENTENCE_MAX_LEN, shared_model
from assistant.stance.net import Workers, length_batches, predict, predict_each
from assistant.summarize.evidence import sentence_spans

TOLERANCE = 1e-5
TOPICS = {
    "uniforms": (
        "Should school uniforms be mandatory?",
        ("School uniforms should be mandatory.", "School uniforms should not be mandatory."),
    ),
    "workweek": (
        "Is a four-day work week good for business?",
        (
            "A four-day work week is good for business.",
            "A four-day work week is bad for business.",
        ),
    ),
}


def _demo_docs(per_topic: int = 3) -> list[tuple[str, str]]:
    """(topic, text) of the first documents of two demo topics."""
    path = resources.files("assistant.demo") / "corpus.jsonl"
    docs: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        topic = next((t for t in TOPICS if row["id"].startswith(t)), None)
        if topic and sum(d[0] == topic for d in docs) < per_topic:
            docs.append((topic, row["text"]))
    assert len(docs) == 2 * per_topic
    return docs


def _pairs(whole: bool) -> tuple[list[str], list[str]]:
    """Both framed claims against every sentence (or every whole document)."""
    claims: list[str] = []
    texts: list[str] = []
    for topic, text in _demo_docs():
        question, pair = TOPICS[topic]
        units = [text] if whole else [text[s:e] for s, e in sentence_spans(text)]
        for claim, unit in itertools.product(pair, units):
            claims.append(frame(question, claim))
            texts.append(unit)
    return claims, texts


@pytest.mark.parametrize(
    ("whole", "max_len"), [(False, SENTENCE_MAX_LEN), (True, DOCUMENT_MAX_LEN)]
)
def test_fast_path_matches_one_pair_at_a_time(whole: bool, max_len: int) -> None:
    model = shared_model()
    claims, texts = _pairs(whole)
    ref = np.exp(predict_each(model.net, model.tokenizer, claims, texts, max_len=max_len).numpy())
    # small batches: several widths, and the batch a pair lands in differs from run to run
    for batch_size in (4, 64):
        lp = predict(
            model.net, model.tokenizer, claims, texts, max_len=max_len, batch_size=batch_size
        )
        np.testing.assert_allclose(np.exp(lp.numpy()), ref, rtol=0, atol=TOLERANCE)
    model.clear_cache()
    got = model.claim_probs(claims, texts, max_len=max_len)
    np.testing.assert_allclose(got, ref, rtol=0, atol=TOLERANCE)


def test_repeated_pairs_are_judged_once_and_get_the_same_probabilities() -> None:
    model = shared_model()
    claims, texts = _pairs(False)
    claims, texts = claims[:6], texts[:6]
    model.clear_cache()
    judged = model.judged
    got = model.claim_probs([*claims, *claims[::-1]], [*texts, *texts[::-1]])
    assert model.judged - judged == len(set(zip(claims, texts, strict=True)))
    np.testing.assert_array_equal(got[:6], got[6:][::-1])


def test_workers_leave_the_thread_count_of_other_threads_alone() -> None:
    before = torch.get_num_threads()
    workers = Workers(2)
    try:
        assert workers.map(lambda _: torch.tensor(torch.get_num_threads()), [0, 1, 2]) == [1, 1, 1]
        assert torch.get_num_threads() == before
        seen: list[int] = []
        t = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
        t.start()
        t.join()
        assert seen == [before]
    finally:
        workers.close()


def _padded(lengths: list[int], runs: list[tuple[int, int]], overhead: int) -> int:
    return sum(lengths[e - 1] * (e - s) + overhead for s, e in runs)


def test_length_batches_cover_in_order_and_are_optimal() -> None:
    rng = random.Random(7)
    assert length_batches([], 4, 8) == []
    for _ in range(30):
        n = rng.randint(1, 9)
        lengths = sorted(rng.randint(3, 60) for _ in range(n))
        max_size, overhead = rng.randint(1, 5), rng.choice([0, 8, 40])
        runs = length_batches(lengths, max_size, overhead)
        assert [s for s, _ in runs] == [0, *[e for _, e in runs[:-1]]] and runs[-1][1] == n
        assert all(0 < e - s <= max_size for s, e in runs)
        best = min(
            _padded(lengths, list(zip((0, *cuts), (*cuts, n), strict=True)), overhead)
            for k in range(n)
            for cuts in itertools.combinations(range(1, n), k)
            if all(0 < e - s <= max_size for s, e in zip((0, *cuts), (*cuts, n), strict=True))
        )
        assert _padded(lengths, runs, overhead) == best


def test_the_model_uses_every_core_after_faiss_took_torch_to_one_thread() -> None:
    """torch and FAISS share one OpenMP runtime: an opened index sets FAISS, and so
    torch, to one thread; the stance model still judges batches on every core."""
    import faiss

    from assistant.stance.model import StanceModel
    from assistant.workers import MAX_WORKERS, usable_cpus

    if usable_cpus() < 2:
        pytest.skip("one core: there is nothing to spread over")
    before = torch.get_num_threads()
    faiss.omp_set_num_threads(1)  # what Index does for its queries
    try:
        assert torch.get_num_threads() == 1
        shared = shared_model()
        fresh = StanceModel(shared.net, shared.tokenizer, shared.card, shared.path)
        workers = fresh._batch_workers()
        assert workers is not None and workers.n == min(usable_cpus(), MAX_WORKERS)
        claims, texts = _pairs(whole=False)
        fast = fresh.claim_probs(claims, texts)
        one = np.exp(
            predict_each(
                shared.net, shared.tokenizer, claims, texts, max_len=SENTENCE_MAX_LEN
            ).numpy()
        )
        assert np.abs(fast - one).max() < TOLERANCE
        workers.close()
    finally:
        torch.set_num_threads(before)
