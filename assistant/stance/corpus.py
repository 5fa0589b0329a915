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
in the light of its question, as PerSphere's headline claims must be read;
for a share ``viewpoint_rate``, two short texts of the same topic that take
opposite sides ("Uniforms hide differences in wealth." / "Uniforms stifle
self-expression."), so the model learns to place a text beside the one of two
opposing *viewpoints* it agrees with — two claims that are not each other's
negation, as an answer's claims often are. A share ``offtopic_rate`` of items
pairs a text with another topic of its source and is labelled "neither".
A share ``negation_rate`` of sided items has its one clause negated (or its
one negation removed, :func:`~assistant.stance.data.negate`) and its label
flipped, so the model must read the negation rather than the topic words.

**Paragraphs** (round 10): the paragraph-length sources (ArguAna's idebate.org
points, counters and introductions, debatewise, ProCon) and the written corpus
(``tests/data/stance_corpus/``: documents written for training in the shapes
where a sentence-trained model fails — a story first, a concession first, a
rebuttal that quotes the other side, a hedged report, an op-ed, a neutral
explainer). A written document brings its own two claims: for a share
``own_claims_rate`` of its items they are the pair (either order), as an
answer's two claims are often two positions rather than "X" and "not X".
Items of the shapes in ``weights`` (rebuttals and concessions: most of their
words argue the other side) count that many times in the loss.
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
    flip,
    frame,
    negate,
    read_perspectrum,
    read_stance_jsonl,
)

NONE = LABEL_ID["none"]
VIEWPOINT_MAX_WORDS = 25  # a viewpoint used as a claim is a short statement
SENTENCE_SOURCES = (
    "ibm_argq30k",
    "ibm_claim_stance",
    "ibm_kpa2021",
    "ukp_sentential",
    "iam",
    "vast",
    "arct",
    "sick",
)
PARAGRAPH_SOURCES = ("arguana", "debatewise", "procon")
SOURCES = SENTENCE_SOURCES + PARAGRAPH_SOURCES
WRITTEN = "written"  # the source name of the written corpus's rows
WRITTEN_SPLITS = ("train", "dev")  # its files; test.jsonl is sealed: never read here
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
    weight: float = 1.0
    shape: str = ""

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


def split_rows(rows: Sequence[Row], split: str) -> list[Row]:
    """The rows of ``split`` as training sees it: a source without a ``dev`` split
    gives one tenth of its ``train`` groups to ``dev`` (and keeps the rest in ``train``)."""
    has_dev = any(r.split == "dev" for r in rows)
    out = []
    for r in rows:
        s = r.split
        if s == "train" and not has_dev and _held_out(r.group):
            s = "dev"
        if split in ("all", s):
            out.append(r)
    return out


def load_corpus(
    stance_dir: Path,
    perspectrum: Path | None,
    sources: Sequence[str] = SOURCES,
    written: Path | None = None,
) -> Corpus:
    """Train and dev rows of the chosen sources (see the module docstring); with
    ``written``, the written corpus's ``train.jsonl`` and ``dev.jsonl`` in that folder."""
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
        corpus.train += split_rows(rows, "train")
        corpus.dev += split_rows(rows, "dev")
    if perspectrum is not None:
        rows = read_perspectrum(perspectrum)
        for p in (
            perspectrum,
            perspectrum.with_name("perspective_pool_v1.0.json"),
            perspectrum.with_name("dataset_split_v1.0.json"),
        ):
            if p.exists():
                corpus.hashes[p.name] = file_sha256(p)
        corpus.train += [r for r in rows if r.split == "train"]
        corpus.dev += [r for r in rows if r.split == "dev"]
    if written is not None:
        for split in WRITTEN_SPLITS:
            path = written / f"{split}.jsonl"
            if not path.exists():
                raise DataError(
                    f"written corpus file not found: {path}",
                    hint="pass --written tests/data/stance_corpus (train.jsonl and dev.jsonl)",
                )
            rows = [r for r in read_stance_jsonl(path) if r.split == split]
            corpus.hashes[f"{WRITTEN}/{path.name}"] = file_sha256(path)
            (corpus.train if split == "train" else corpus.dev).extend(rows)
    if not corpus.train:
        raise DataError("no training rows in the chosen sources")
    return corpus


def make_items(
    rows: Sequence[Row],
    rng: random.Random,
    *,
    abstract_rate: float = 0.0,
    offtopic_rate: float = 0.0,
    viewpoint_rate: float = 0.0,
    negation_rate: float = 0.0,
    own_claims_rate: float = 0.0,
    weights: dict[str, float] | None = None,
) -> list[Item]:
    """One :class:`Item` per row, in order (see the module docstring)."""
    topics: dict[str, list[str]] = defaultdict(list)
    sided: dict[tuple[str, str], tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for r in rows:
        topics[r.source].append(r.topic)
        if r.label != NONE and len(r.text.split()) <= VIEWPOINT_MAX_WORDS:
            sided[(r.source, r.topic)][r.label].append(r.text)
    uniq = {s: sorted(set(t)) for s, t in topics.items()}
    out: list[Item] = []
    for r in rows:
        topic, label = r.topic, r.label
        if offtopic_rate and len(uniq[r.source]) > 20 and rng.random() < offtopic_rate:
            other = rng.choice(uniq[r.source])
            if other != topic:
                topic, label = other, NONE
        views = viewpoints(sided.get((r.source, topic)), r.text, rng) if viewpoint_rate else None
        if r.claims is not None and topic == r.topic and rng.random() < own_claims_rate:
            a, b = r.claims
            if rng.random() < 0.5:
                a, b, label = b, a, flip(label)
        elif views is not None and rng.random() < viewpoint_rate:
            a, b = views
            if rng.random() < 0.5:  # either order: the pro viewpoint is not always first
                a, b, label = b, a, flip(label)
        elif abstract_rate and rng.random() < abstract_rate:
            a, b = rng.choice(ABSTRACT_PAIRS)
        else:
            a, b = claim_pair(topic)
        text = r.text
        if negation_rate and label != NONE and rng.random() < negation_rate:
            negated = negate(text)
            if negated is not None:
                text, label = negated, flip(label)
        weight = (weights or {}).get(r.shape, 1.0)
        out.append(Item(topic, a, b, text, label, r.source, weight, r.shape))
    return out


def viewpoints(
    sided: tuple[list[str], list[str]] | None, text: str, rng: random.Random
) -> tuple[str, str] | None:
    """A (pro, con) pair of other short texts of the topic, or None if it has none."""
    if sided is None:
        return None
    pro = [t for t in sided[0] if t != text]
    con = [t for t in sided[1] if t != text]
    if not pro or not con:
        return None
    return rng.choice(pro), rng.choice(con)


def sample_rows(rows: Sequence[Row], caps: dict[str, int], rng: random.Random) -> list[Row]:
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
