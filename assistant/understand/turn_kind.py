"""Which kind of edit a turn asks for, learned from the development dialogues.

The follow-up rules (:mod:`assistant.understand.followup`) read a turn by its cue
words; a request for more results or for one side phrased with words no lexicon
lists ("any further stuff like that?", "I'd like only the optimistic take") falls
through to "a topic of its own". This model reads the turn as a whole: a
multinomial logistic regression over the bundled MiniLM's unit sentence vector of
the turn (its polite wrapper taken off, cue-word typos repaired), one class per
edit kind (:data:`assistant.understand.followup.EDITS`),

    P(kind | turn) = softmax(W · e(turn) + b)

trained on the development dialogue sets (``tests/data/conversation_dev*.jsonl``;
never a test set) with ``sphere train turn-kind``. The resolver asks it only when
the rules found no edit, and only for the two kinds whose value the rules can then
read from the words alone (``more`` and ``one_side``), at ``P >= MIN_P``.

Chosen on the development sets only, each held out in turn and predicted by a
model trained on the others (``sphere train turn-kind --cross-check``): with four
sets, C = 16 and ``MIN_P`` = 0.5 gave precision 0.98 (``more``) and 0.96
(``one_side``) at recall 0.81 / 0.82; with the six of round 5 (1,293 turns),
precision 1.00 / 0.955 at recall 0.81 / 0.85 and accuracy 88.0 % over the ten
kinds; with the nine of round 6 (1,846 turns), precision 0.971 / 0.940 at recall
0.833 / 0.863, accuracy 89.8 %. No gold new topic was read as either kind.

The weights (10 × 384 floats) ship in ``weights/turn_kind.npz`` with the sha256 of
each training file.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

WEIGHTS = Path(__file__).with_name("weights") / "turn_kind.npz"
MIN_P = 0.5
C = 16.0
RESCUED = ("more", "one_side")


def turn_text(text: str) -> str:
    """The text the model reads: the turn without its wrapper, cue-word typos repaired."""
    from assistant.understand.followup import _repair, unwrap

    return unwrap(_repair(text).replace("¿", "").replace("¡", ""))


@dataclass
class TurnKind:
    """The trained classifier: weights ``w`` (classes × dim), bias ``b``, class names."""

    w: np.ndarray
    b: np.ndarray
    classes: list[str]
    meta: dict[str, Any]

    def proba(self, vecs: np.ndarray) -> np.ndarray:
        """P(kind | turn) for unit sentence vectors (rows)."""
        z = np.atleast_2d(vecs).astype(np.float64) @ self.w.T + self.b
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True))

    def predict(self, vec: np.ndarray) -> tuple[str, float]:
        p = self.proba(vec)[0]
        i = int(np.argmax(p))
        return self.classes[i], float(p[i])

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(
            tmp,
            w=self.w.astype(np.float32),
            b=self.b.astype(np.float32),
            classes=np.array(self.classes),
            meta=np.array(json.dumps(self.meta, sort_keys=True)),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> TurnKind:
        with np.load(path, allow_pickle=False) as z:
            return cls(
                w=z["w"].astype(np.float64),
                b=z["b"].astype(np.float64),
                classes=[str(c) for c in z["classes"]],
                meta=json.loads(str(z["meta"])),
            )


@functools.cache
def shipped() -> TurnKind | None:
    """The bundled model, or None when its file is missing (the rules then work alone)."""
    return TurnKind.load() if WEIGHTS.is_file() else None


def _examples(files: Sequence[Path]) -> list[tuple[str, str, str]]:
    """(set name, turn text, gold edit) for every scored turn of the dialogue files."""
    from assistant.eval.conversation import load_dialogues

    out = []
    for f in files:
        for d in load_dialogues(f):
            for t in d["turns"][1:]:
                out.append((f.name, turn_text(t["text"]), t["expect"]["edit"]))
    return out


def _fit(vecs: np.ndarray, labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    from sklearn.linear_model import LogisticRegression

    clf = LogisticRegression(C=C, max_iter=5000)
    clf.fit(vecs.astype(np.float64), list(labels))
    return clf.coef_, clf.intercept_, [str(c) for c in clf.classes_]


def train(files: Sequence[Path], embedder: Any) -> TurnKind:
    """Fit the classifier on every scored turn of ``files`` (development sets only)."""
    rows = _examples(files)
    vecs = np.asarray(embedder.encode([r[1] for r in rows]), dtype=np.float64)
    w, b, classes = _fit(vecs, [r[2] for r in rows])
    meta = {
        "C": C,
        "turns": len(rows),
        "files": {
            f.name: hashlib.sha256(f.read_bytes()).hexdigest()[:16] for f in sorted(set(files))
        },
        "embedder": "sentence-transformers/all-MiniLM-L6-v2",
    }
    return TurnKind(w, b, classes, meta)


def cross_check(files: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """Each file held out in turn, predicted by a model trained on the others: accuracy,
    and for the rescued kinds the precision and recall at ``MIN_P`` and the gold new
    topics that would be read as one of them."""
    rows = _examples(files)
    vecs = np.asarray(embedder.encode([r[1] for r in rows]), dtype=np.float64)
    names = sorted({r[0] for r in rows})
    gold: list[str] = []
    pred: list[str] = []
    conf: list[float] = []
    for held in names:
        train_i = [i for i, r in enumerate(rows) if r[0] != held]
        test_i = [i for i, r in enumerate(rows) if r[0] == held]
        w, b, classes = _fit(vecs[train_i], [rows[i][2] for i in train_i])
        model = TurnKind(w, b, classes, {})
        for p in model.proba(vecs[test_i]):
            k = int(np.argmax(p))
            pred.append(classes[k])
            conf.append(float(p[k]))
        gold += [rows[i][2] for i in test_i]
    g, pr, cf = np.array(gold), np.array(pred), np.array(conf)
    out: dict[str, Any] = {"turns": len(g), "accuracy": round(100 * float((g == pr).mean()), 2)}
    for kind in RESCUED:
        sel = (pr == kind) & (cf >= MIN_P)
        out[kind] = {
            "predicted": int(sel.sum()),
            "precision": round(100 * float((g[sel] == kind).mean()), 2) if sel.any() else None,
            "recall": round(100 * float(((g == kind) & sel).sum() / max((g == kind).sum(), 1)), 2),
            "new_topics_read_as_it": int(((g == "new_topic") & sel).sum()),
        }
    return out
