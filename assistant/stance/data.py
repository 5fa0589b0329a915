"""Stance training and evaluation data: the shared JSONL format and Perspectrum.

Two readers, both strict (a malformed row is a :class:`~assistant.errors.DataError`
naming the file and line, never a traceback):

* :func:`read_stance_jsonl` — ``../shared/data/stance/*.jsonl`` rows
  ``{"topic", "text", "label": pro|con|none, "source", "split"}``, and the
  written corpus (``tests/data/stance_corpus/``), whose rows add the document's
  own two claims (``claim_a``, ``claim_b``; the label is its stance to
  ``claim_a``) and its writing ``shape``;
* :func:`read_perspectrum` — Perspectrum claims with their gold perspective
  clusters (SUPPORT / UNDERMINE) and the official claim split.

Every row becomes a :class:`Row` (topic, text, label, source, split, group).
Training and side evaluation work on **claim pairs**: the topic is turned into
the two opposing claims Sphere's own question parser makes of it
(:func:`assistant.understand.make_claims`), so the model learns to judge a text
against a claim *and its opposite* — what the product asks of it, where a
document is placed under one of the plan's two claims (:func:`claim_pair`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.errors import DataError

LABELS: tuple[str, str, str] = ("pro", "con", "none")
LABEL_ID = {name: i for i, name in enumerate(LABELS)}
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Row:
    """One labelled (topic, text) pair; ``label`` is an index into :data:`LABELS`."""

    topic: str
    text: str
    label: int
    source: str
    split: str
    group: str  # what must not cross a train/dev boundary (topic, claim or post)
    # a written document's own two claims (``claim_a``, ``claim_b``; the label is its
    # stance to ``claim_a``), its writing shape ("rebuttal", "anecdote_first", …)
    claims: tuple[str, str] | None = None
    shape: str = ""


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _open_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(
            f"data file not found: {path}",
            hint="point --data at a file that exists (the stance data is in ../shared/data/stance)",
        ) from None
    except IsADirectoryError:
        raise DataError(f"{path} is a folder, not a data file") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror}") from None


def read_stance_jsonl(path: Path) -> list[Row]:
    """Rows of one shared-format stance file (README of ``shared/data/stance``)."""
    rows: list[Row] = []
    for n, line in enumerate(_open_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise DataError(f"{path}:{n}: expected a JSON object")
        missing = [k for k in ("topic", "text", "label") if not isinstance(obj.get(k), str)]
        if missing:
            raise DataError(
                f"{path}:{n}: missing or non-text field(s) {', '.join(missing)}",
                hint='each line needs "topic", "text" and "label" (pro, con or none)',
            )
        label = obj["label"].strip().lower()
        if label not in LABEL_ID:
            raise DataError(f"{path}:{n}: label {obj['label']!r} is not pro, con or none")
        topic, text = " ".join(obj["topic"].split()), " ".join(obj["text"].split())
        if not topic or not text:
            raise DataError(f"{path}:{n}: empty topic or text")
        split = str(obj.get("split") or "train").lower()
        source = str(obj.get("source") or path.stem)
        group = _group_of(source, topic, text)
        a, b = obj.get("claim_a"), obj.get("claim_b")
        claims = None
        if isinstance(a, str) and isinstance(b, str) and a.strip() and b.strip():
            claims = (" ".join(a.split()), " ".join(b.split()))
        shape = str(obj.get("shape") or "")
        rows.append(Row(topic, text, LABEL_ID[label], source, split, group, claims, shape))
    if not rows:
        raise DataError(f"{path} holds no rows")
    return rows


def _group_of(source: str, topic: str, text: str) -> str:
    # VAST posts recur under several topics: a post must sit on one side of a split
    key = text if source == "vast" else topic
    return f"{source}:{hashlib.sha1(key.lower().encode()).hexdigest()[:12]}"


def read_perspectrum(path: Path, pool: Path | None = None, split: Path | None = None) -> list[Row]:
    """Claim–perspective pairs of Perspectrum, every pid of a gold cluster as one row.

    ``pool`` (default: ``perspective_pool_v1.0.json`` beside ``path``) gives the
    perspective texts; ``split`` (default: ``dataset_split_v1.0.json`` beside it)
    the official claim split. SUPPORT → pro, UNDERMINE → con.
    """
    pool = pool or path.with_name("perspective_pool_v1.0.json")
    split = split or path.with_name("dataset_split_v1.0.json")
    claims = _load_json(path, list, "a list of claims")
    pool_rows = _load_json(pool, list, "a list of perspectives")
    splits = _load_json(split, dict, "a claim-id → split map") if split.exists() else {}
    try:
        texts = {int(p["pId"]): " ".join(str(p["text"]).split()) for p in pool_rows}
    except (KeyError, TypeError, ValueError):
        raise DataError(f"{pool}: every perspective needs pId and text") from None
    rows: list[Row] = []
    for c in claims:
        try:
            cid, claim = int(c["cId"]), " ".join(str(c["text"]).split())
            clusters = c["perspectives"]
        except (KeyError, TypeError, ValueError):
            raise DataError(f"{path}: every claim needs cId, text and perspectives") from None
        sp = str(splits.get(str(cid), "train"))
        for cl in clusters:
            stance = str(cl.get("stance_label_3", "")).upper()
            if stance not in ("SUPPORT", "UNDERMINE"):
                continue
            for pid in cl.get("pids", []):
                text = texts.get(int(pid))
                if text:
                    label = LABEL_ID["pro" if stance == "SUPPORT" else "con"]
                    rows.append(Row(claim, text, label, "perspectrum", sp, f"perspectrum:{cid}"))
    if not rows:
        raise DataError(f"{path} holds no claim–perspective pairs")
    return rows


def _load_json(path: Path, kind: type, what: str) -> Any:
    try:
        obj = json.loads(_open_text(path))
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(obj, kind):
        raise DataError(f"{path}: expected {what}")
    return obj


# --------------------------------------------------------------------------- claim pairs

_CLAIM_CACHE: dict[str, tuple[str, str]] = {}


def claim_pair(topic: str) -> tuple[str, str]:
    """The two opposing claims Sphere's parser makes of ``topic`` (pro first).

    A topic that the parser cannot turn into two distinct claims (rare) gets
    PerSphere's fallback template (paper 004, App. H).
    """
    hit = _CLAIM_CACHE.get(topic)
    if hit is not None:
        return hit
    from assistant.understand import make_claims, persphere_claims

    a, b = make_claims(topic, "two_sided")
    if not a or not b or a == b:
        a, b = persphere_claims(topic)
    _CLAIM_CACHE[topic] = (a, b)
    return a, b


def flip(label: int) -> int:
    """The label of a text against the opposite claim (none stays none)."""
    return {0: 1, 1: 0}.get(label, label)


_WORD = re.compile(r"[a-z0-9]+")
_STOP_WORDS = (
    "a an the of to in on for and or is are be should we it this that with by as at "
    "from not no yes do does can will would"
)
_STOP = frozenset(_STOP_WORDS.split())


def content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def frame(question: str, claim: str) -> str:
    """The claim as the model reads it: with the question when the claim leaves it out.

    A headline claim ("Team Sony", "Less is More") says nothing without the
    question it answers; a full claim ("School uniforms should be mandatory.")
    carries it already. The question is prepended when fewer than half of its
    content words occur in the claim.
    """
    q, c = " ".join(question.split()), " ".join(claim.split())
    if not q or q == c:
        return c
    qw = content_words(q)
    if not qw or len(qw & content_words(c)) * 2 >= len(qw):
        return c
    return f"{q} — {c}"


def select(rows: Iterable[Row], splits: Iterable[str]) -> Iterator[Row]:
    wanted = set(splits)
    return (r for r in rows if r.split in wanted)


# Negation augmentation (``TrainConfig.negation_rate``). Only a sentence with exactly one
# finite copula or modal is rewritten, so the negation lands on the clause that carries
# the argument: "Uniforms should be mandatory." <-> "Uniforms should not be mandatory.".
# Main-verb "has"/"does" and sentences with several clauses are left alone (no parser).
_NEG_AUX = "is are was were can could should would will must may might"
_AUX_RE = re.compile(rf"\b({'|'.join(_NEG_AUX.split())})\b", re.IGNORECASE)
_NEGATED_RE = re.compile(
    r"\b(?:(is|are|was|were|can|could|should|would|will|must|may|might|does|do|did|has|have)"
    r"\s+not|(is|are|was|were|could|should|would|does|do|did|has|have)n't|(can)not|(can)'t"
    r"|(wo)n't)\b",
    re.IGNORECASE,
)
_NEG_ANY = re.compile(r"\b(not|no|never|nor|cannot|none|nothing|neither)\b|n't\b", re.IGNORECASE)


def negate(text: str, max_words: int = 25) -> str | None:
    """``text`` with its one clause negated (or its one negation removed), or None.

    The flipped text argues the opposite of ``text`` about the same topic, so its
    label is :func:`flip` of the original's. Returns None when the sentence is long,
    a question, holds more than one sentence, or has no single place for the
    negation that a regular expression can find reliably.
    """
    t = " ".join(text.split())
    if not t or len(t.split()) > max_words or "?" in t or re.search(r"[.!;]\s+\S", t):
        return None
    negs = list(_NEG_ANY.finditer(t))
    if negs:
        done = list(_NEGATED_RE.finditer(t))
        if len(negs) != 1 or len(done) != 1:
            return None
        m = done[0]
        aux = next(g for g in m.groups() if g)
        if aux.lower() == "wo":
            aux = aux[0] + "ill" if aux[0].isupper() else "will"
        return t[: m.start()] + aux + t[m.end() :]
    auxes = list(_AUX_RE.finditer(t))
    if len(auxes) != 1:
        return None
    m = auxes[0]
    return t[: m.end()] + " not" + t[m.end() :]
