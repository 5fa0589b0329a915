"""The training and development sets of the stance model, built from the shared data.

What trains the model (:func:`load_corpus`):

* the ``train`` split of every chosen source in ``shared/data/stance`` and of
  Perspectrum (official claim split);
* the ``dev`` splits, for choosing the epoch and fitting the calibration
  temperature; sources without a dev split (VAST, IBM Claim Stance) give one
  tenth of their train groups (topic or post, by hash) to dev instead.

No ``test`` split is read for training or choice, and nothing of PerSphere.

Each training item is a text with a claim **and its opposite**
(:class:`Item`): the two claims Sphere's parser makes of the topic, or — for a
share ``abstract_rate`` of items — a short headline pair ("For." / "Against.",
"Yes." / "No.") framed with the topic, so the model learns to read a claim
in the light of its question, as PerSphere's headline claims must be read. A
share ``offtopic_rate`` of items pairs a text with another topic of its
source and is labelled "neither".
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from assistant.errors import DataError
from assistant.stance.data import (
    LABEL_ID,
    Row,
    claim_pair,
    file_sha256,
    frame,
    read_perspectrum,
    read_stance_jsonl,
)

NONE = LABEL_ID["none"]
SOURCES = (
    "ibm_argq30k",
    "ibm_claim_stance",
    "ibm_kpa2021",
    "ukp_sentential",
    "iam",
    "vast",
    "arct",
    "sick",
)
# headline claim pairs (pro first), read together with the topic (data.frame)
ABSTRACT_PAIRS = (
    ("For.", "Against."),
    ("Yes.", "No."),
    ("In favour.", "Opposed."),
    ("Pro.", "Con."),
    ("Agree.", "Disagree."),
    ("A good idea.", "A bad idea."),
)


@dataclass(frozen=True)
class Item:
    """A text judged against two opposing claims; ``label`` is the text's stance to ``a``."""

    question: str
    a: str
    b: str
    text: str
    label: int
    source: str

    @property
    def claims(self) -> tuple[str, str]:
        return frame(self.question, self.a), frame(self.question, self.b)


@dataclass
class Corpus:
    train: list[Row]
    dev: list[Row]
    hashes: dict[str, str] = field(default_factory=dict)  # file name -> sha256

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for name, rows in (("train", self.train), ("dev", self.dev)):
            for r in rows:
                out[r.source][name] += 1
        return {k: dict(v) for k, v in sorted(out.items())}


def _held_out(group: str, share: float = 0.1) -> bool:
    h = int(hashlib.sha1(group.encode()).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < share


def load_corpus(
    stance_dir: Path, perspectrum: Path | None, sources: Sequence[str] = SOURCES
) -> Corpus:
    """Train and dev rows of the chosen sources (see the module docstring)."""
    if not stance_dir.is_dir():
        raise DataError(
            f"stance data folder not found: {stance_dir}",
            hint="pass --data-dir ../shared/data/stance (the folder with the *.jsonl files)",
        )
    corpus = Corpus([], [])
    for name in sources:
        path = stance_dir / f"{name}.jsonl"
        if not path.exists():
            raise DataError(
                f"stance source {name!r} not found: {path}",
                hint=f"the folder should hold {name}.jsonl, or leave the source out with --sources",
            )
        rows = read_stance_jsonl(path)
        corpus.hashes[path.name] = file_sha256(path)
        has_dev = any(r.split == "dev" for r in rows)
        for r in rows:
            if r.split == "train":
                (corpus.dev if not has_dev and _held_out(r.group) else corpus.train).append(r)
            elif r.split == "dev":
                corpus.dev.append(r)
    if perspectrum is not None:
        rows = read_perspectrum(perspectrum)
        for p in (perspectrum, perspectrum.with_name("perspective_pool_v1.0.json"),
                  perspectrum.with_name("dataset_split_v1.0.json")):
            if p.exists():
                corpus.hashes[p.name] = file_sha256(p)
        corpus.train += [r for r in rows if r.split == "train"]
        corpus.dev += [r for r in rows if r.split == "dev"]
    if not corpus.train:
        raise DataError("no training rows in the chosen sources")
    return corpus


def make_items(
    rows: Sequence[Row],
    rng: random.Random,
    *,
    abstract_rate: float = 0.0,
    offtopic_rate: float = 0.0,
) -> list[Item]:
    """One :class:`Item` per row, in order (see the module docstring)."""
    topics: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        topics[r.source].append(r.topic)
    uniq = {s: sorted(set(t)) for s, t in topics.items()}
    out: list[Item] = []
    for r in rows:
        topic, label = r.topic, r.label
        if offtopic_rate and len(uniq[r.source]) > 20 and rng.random() < offtopic_rate:
            other = rng.choice(uniq[r.source])
            if other != topic:
                topic, label = other, NONE
        if abstract_rate and rng.random() < abstract_rate:
            a, b = rng.choice(ABSTRACT_PAIRS)
        else:
            a, b = claim_pair(topic)
        out.append(Item(topic, a, b, r.text, label, r.source))
    return out


def sample_rows(
    rows: Sequence[Row], caps: dict[str, int], rng: random.Random
) -> list[Row]:
    """At most ``caps[source]`` rows of each source (all when uncapped), shuffled."""
    by_source: dict[str, list[Row]] = defaultdict(list)
    for r in rows:
        by_source[r.source].append(r)
    out: list[Row] = []
    for source in sorted(by_source):
        rs = by_source[source]
        cap = caps.get(source)
        if cap is not None and cap < len(rs):
            rs = rng.sample(rs, cap)
        out.extend(rs)
    rng.shuffle(out)
    return out
