"""Which kind of edit a turn asks for, learned from the development dialogues.

The follow-up rules (:mod:`assistant.understand.followup`) read a turn by its cue
words; a request for more results or for one side phrased with words no lexicon
lists ("any further stuff like that?", "I'd like only the optimistic take") falls
through to "a topic of its own". This model reads the turn as a whole, beside the
topic it would edit: a multinomial logistic regression,

    P(kind | turn, topic) = softmax(W · x + b),
    x = [e(turn), e(turn) ⊙ e(topic), cos(e(turn), e(topic)), h(turn)]

where e is the bundled MiniLM's unit sentence vector (of the turn with its polite
wrapper taken off and cue-word typos repaired, and of the thread's first question),
⊙ the elementwise product, and h(turn) the turn's character 2-4-grams (inside
word boundaries) and word uni- and bigrams, each hashed by CRC-32 into 2**BITS
buckets and each half scaled to unit length: the spelling of cue words ("moar",
"[3]", "solo en") that a sentence vector blurs. One class per edit kind
(:data:`assistant.understand.followup.EDITS`), trained on the development dialogue
sets (``tests/data/conversation_dev*.jsonl``; never a test set) with ``sphere train
turn-kind``. The resolver asks it only when the rules found no edit: rule 8 for
``more`` and ``one_side``, whose value the rules can then read from the words
alone, and rule 9 for the other kinds, whose value a lenient reader takes from the
turn (:func:`assistant.understand.followup._learned_kind`).

Chosen on the development sets only, each held out in turn and predicted by a
model trained on the others (``sphere train turn-kind --cross-check``). With the
turn's vector alone: four sets, C = 16 and ``min_p`` = 0.5 gave precision 0.98
(``more``) and 0.96 (``one_side``) at recall 0.81 / 0.82; six sets (1,293 turns),
accuracy 88.0 % over the ten kinds; nine (1,846 turns), accuracy 89.8 %. On the
same nine sets the topic pair and the hashed n-grams raise it to 92.5 % (C = 8,
BITS = 12; 2**11 to 2**14 buckets and C = 8 or 16 all gave 92.3-92.5 %). Trained on
dev1-9 only, it read the kinds of the three sets written next (dev10-12, 572 turns)
92.0 % right; with all twelve sets (2,418 turns) the cross-check gives 92.9 %,
``more`` precision 0.993 at recall 0.877, ``one_side`` 0.965 at 0.928, and no new
topic read as either; with fourteen (2,798 turns), 93.1 %, ``more`` 0.994 at 0.900,
``one_side`` 0.969 at 0.939.

With eighteen sets (3,558 turns, round 8), 94.1 %, ``more`` 0.989 at 0.920,
``one_side`` 0.972 at 0.934.

**The side reader** (round 8) is the same regression on the same features, with
three classes, pro / con / both, trained on the requests for one side or for more
whose side the turn itself decides (not "the other side", and not a turn after a
one-sided one, where "more" pages the side in force: :func:`_side_examples`). The
resolver asks it only when the rules name no side ("only the ban camp", "more from
the save-the-zoos lot") and takes pro or con at P >= ``side_reader_p``. Held out set by set
over dev1-18 (471 turns) it reads 87.7 % right; a pro or con reading at P >= 0.5 is
right 87.2 % of the time and covers 77.7 % of the turns, at 0.8 96.4 % and 53.1 %,
at 0.9 99.0 % and 41.0 % (``cross_check(...)["side"]``). ``side_reader_p`` = 0.5 was chosen
by the whole resolver, each development set held out in turn, because the reader
only speaks where the rules are silent.

The weights (10 × (2·384 + 1 + 2·2**BITS) floats, and 3 × as many for the side
reader) ship in ``weights/turn_kind.npz`` with the sha256 of each training file.
"""

from __future__ import annotations

import functools
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.understand.followup.normalise import _repair, unwrap

WEIGHTS = Path(__file__).with_name("weights") / "turn_kind.npz"
C = 8.0
# the side reader's C (how sure it must be of pro or con is the resolver's
# ``side_reader_p``, assistant.understand.followup.settings)
SIDE_C = 4.0
BITS = 12
DIM = 384
RESCUED = ("more", "one_side")


def turn_text(text: str) -> str:
    """The text the model reads: the turn without its wrapper, cue-word typos repaired."""
    return unwrap(_repair(text).replace("¿", "").replace("¡", ""))


_WORD = re.compile(r"[^\W_][\w'’\-]*|\[\d+\]|\d+")


def hashed(texts: Sequence[str], bits: int = BITS) -> np.ndarray:
    """h(turn) of the module docstring: character 2-4-grams of " word " and word uni- and
    bigrams of the lower-cased turn, counted in 2**bits CRC-32 buckets each, each half
    scaled to unit length (integer hashing: the same on every machine)."""
    n = 1 << bits
    out = np.zeros((len(texts), 2 * n))
    for i, t in enumerate(texts):
        words = _WORD.findall(t.lower())
        chars, grams = out[i, :n], out[i, n:]
        for w in words:
            s = f" {w} "
            for k in (2, 3, 4):
                for j in range(len(s) - k + 1):
                    chars[zlib.crc32(s[j : j + k].encode()) & (n - 1)] += 1
        for j, w in enumerate(words):
            grams[zlib.crc32(w.encode()) & (n - 1)] += 1
            if j:
                grams[zlib.crc32(f"{words[j - 1]} {w}".encode()) & (n - 1)] += 1
        for half in (chars, grams):
            norm = float(np.linalg.norm(half))
            if norm:
                half /= norm
    return out


def features(turns: Sequence[str], topic_vecs: np.ndarray, turn_vecs: np.ndarray) -> np.ndarray:
    """x of the module docstring for turns (their text as :func:`turn_text` gives it), their
    unit sentence vectors and the unit sentence vectors of the topics they would edit."""
    e = np.atleast_2d(turn_vecs).astype(np.float64)
    t = np.atleast_2d(topic_vecs).astype(np.float64)
    cos = (e * t).sum(axis=1, keepdims=True)
    return np.hstack([e, e * t, cos, hashed(turns)])


@dataclass
class TurnKind:
    """The trained classifier: weights ``w`` (classes × dim), bias ``b``, class names;
    ``side``, the side reader (the same features, classes pro / con / both), when trained."""

    w: np.ndarray
    b: np.ndarray
    classes: list[str]
    meta: dict[str, Any]
    side: TurnKind | None = None

    def proba(self, x: np.ndarray) -> np.ndarray:
        """P(kind | turn, topic) for feature rows (:func:`features`)."""
        z = np.atleast_2d(x).astype(np.float64) @ self.w.T + self.b
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True))

    def predict(self, x: np.ndarray) -> tuple[str, float]:
        p = self.proba(x)[0]
        i = int(np.argmax(p))
        return self.classes[i], float(p[i])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        arrays = {
            "w": self.w.astype(np.float32),
            "b": self.b.astype(np.float32),
            "classes": np.array(self.classes),
            "meta": np.array(json.dumps(self.meta, sort_keys=True)),
        }
        if self.side is not None:
            arrays |= {
                "side_w": self.side.w.astype(np.float32),
                "side_b": self.side.b.astype(np.float32),
                "side_classes": np.array(self.side.classes),
            }
        np.savez(tmp, **arrays)  # type: ignore[arg-type]
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> TurnKind:
        with np.load(path, allow_pickle=False) as z:
            side = None
            if "side_w" in z.files:
                side = cls(
                    w=z["side_w"].astype(np.float64),
                    b=z["side_b"].astype(np.float64),
                    classes=[str(c) for c in z["side_classes"]],
                    meta={},
                )
            return cls(
                w=z["w"].astype(np.float64),
                b=z["b"].astype(np.float64),
                classes=[str(c) for c in z["classes"]],
                meta=json.loads(str(z["meta"])),
                side=side,
            )


@functools.cache
def shipped() -> TurnKind | None:
    """The bundled model, or None when its file is missing (the rules then work alone)."""
    return TurnKind.load() if WEIGHTS.is_file() else None
