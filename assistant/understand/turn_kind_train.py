"""Training and cross-checking the turn-kind model and the side reader
(:mod:`assistant.understand.turn_kind`) on the development dialogue sets: what ``sphere
train turn-kind`` and ``sphere eval conversation --reader-folds`` run, never the app."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.understand.dialogues import load_dialogues
from assistant.understand.followup.settings import DEFAULTS
from assistant.understand.followup.sides import _OTHER_SIDE
from assistant.understand.turn_kind import BITS, RESCUED, SIDE_C, C, TurnKind, features, turn_text


def _examples(files: Sequence[Path]) -> list[tuple[str, str, str, str]]:
    """(set name, turn text, the thread's first question, gold edit) for every scored turn
    of the dialogue files."""
    out = []
    for f in files:
        for d in load_dialogues(f):
            topic = d["turns"][0]["text"]
            for t in d["turns"][1:]:
                out.append((f.name, turn_text(t["text"]), topic, t["expect"]["edit"]))
                if not t["expect"]["follows"]:
                    topic = t["text"]
    return out


def _side_examples(files: Sequence[Path]) -> list[tuple[str, str, str, str]]:
    """(set name, turn text, the thread's first question, gold side) for every request
    for one side or for more whose side the turn itself decides: not "the other side"
    (relative to the previous turn, which the rules read) and not a turn after a
    one-sided one (where "more" with no side named pages the side in force)."""

    out = []
    for f in files:
        for d in load_dialogues(f):
            topic, one_sided = d["turns"][0]["text"], False
            for t in d["turns"][1:]:
                e = t["expect"]
                if e["edit"] in RESCUED and not one_sided and not _OTHER_SIDE.search(t["text"]):
                    out.append((f.name, turn_text(t["text"]), topic, str(e["value"])))
                if not e["follows"]:
                    topic, one_sided = t["text"], False
                elif e["edit"] == "one_side":
                    one_sided = True
                elif e["edit"] == "more" and e["value"] == "both":
                    one_sided = False
    return out


def _matrix(rows: Sequence[tuple[str, str, str, str]], embedder: Any) -> np.ndarray:
    turns = [r[1] for r in rows]
    e = np.asarray(embedder.encode(turns), dtype=np.float64)
    t = np.asarray(embedder.encode([r[2] for r in rows]), dtype=np.float64)
    return features(turns, t, e)


def _fit(
    vecs: np.ndarray, labels: Sequence[str], c: float = C
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    from sklearn.linear_model import LogisticRegression  # training only: not an app dependency

    clf = LogisticRegression(C=c, max_iter=5000)
    clf.fit(vecs.astype(np.float64), list(labels))
    return clf.coef_, clf.intercept_, [str(c) for c in clf.classes_]


def train(files: Sequence[Path], embedder: Any) -> TurnKind:
    """Fit the classifier on every scored turn of ``files`` (development sets only)."""
    rows = _examples(files)
    w, b, classes = _fit(_matrix(rows, embedder), [r[3] for r in rows])
    sides = _side_examples(files)
    sw, sb, sclasses = _fit(_matrix(sides, embedder), [r[3] for r in sides], SIDE_C)
    meta = {
        "C": C,
        "side_C": SIDE_C,
        "bits": BITS,
        "turns": len(rows),
        "side_turns": len(sides),
        "files": {
            f.name: hashlib.sha256(f.read_bytes()).hexdigest()[:16] for f in sorted(set(files))
        },
        "embedder": "sentence-transformers/all-MiniLM-L6-v2",
    }
    return TurnKind(w, b, classes, meta, side=TurnKind(sw, sb, sclasses, {}))


def cross_check(files: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """Each file held out in turn, predicted by a model trained on the others: accuracy,
    and for the rescued kinds the precision and recall at ``min_p`` and the gold new
    topics that would be read as one of them."""
    rows = _examples(files)
    vecs = _matrix(rows, embedder)
    names = sorted({r[0] for r in rows})
    gold: list[str] = []
    pred: list[str] = []
    conf: list[float] = []
    for held in names:
        train_i = [i for i, r in enumerate(rows) if r[0] != held]
        test_i = [i for i, r in enumerate(rows) if r[0] == held]
        w, b, classes = _fit(vecs[train_i], [rows[i][3] for i in train_i])
        model = TurnKind(w, b, classes, {})
        for p in model.proba(vecs[test_i]):
            k = int(np.argmax(p))
            pred.append(classes[k])
            conf.append(float(p[k]))
        gold += [rows[i][3] for i in test_i]
    g, pr, cf = np.array(gold), np.array(pred), np.array(conf)
    out: dict[str, Any] = {"turns": len(g), "accuracy": round(100 * float((g == pr).mean()), 2)}
    for kind in RESCUED:
        sel = (pr == kind) & (cf >= DEFAULTS.min_p)
        out[kind] = {
            "predicted": int(sel.sum()),
            "precision": round(100 * float((g[sel] == kind).mean()), 2) if sel.any() else None,
            "recall": round(100 * float(((g == kind) & sel).sum() / max((g == kind).sum(), 1)), 2),
            "new_topics_read_as_it": int(((g == "new_topic") & sel).sum()),
        }
    out["side"] = _side_cross_check(files, embedder)
    return out


def _side_cross_check(files: Sequence[Path], embedder: Any) -> dict[str, Any]:
    """The side reader, each set held out in turn: accuracy, and the precision and
    coverage of a pro or con reading at ``side_reader_p`` (what the resolver uses)."""
    rows = _side_examples(files)
    vecs = _matrix(rows, embedder)
    gold: list[str] = []
    pred: list[str] = []
    conf: list[float] = []
    for held in sorted({r[0] for r in rows}):
        train_i = [i for i, r in enumerate(rows) if r[0] != held]
        test_i = [i for i, r in enumerate(rows) if r[0] == held]
        w, b, classes = _fit(vecs[train_i], [rows[i][3] for i in train_i], SIDE_C)
        for p in TurnKind(w, b, classes, {}).proba(vecs[test_i]):
            k = int(np.argmax(p))
            pred.append(classes[k])
            conf.append(float(p[k]))
        gold += [rows[i][3] for i in test_i]
    g, pr, cf = np.array(gold), np.array(pred), np.array(conf)

    def at(p: float) -> dict[str, Any]:
        sel = (pr != "both") & (cf >= p)
        return {
            "read": int(sel.sum()),
            "precision": round(100 * float((g[sel] == pr[sel]).mean()), 2) if sel.any() else None,
            "coverage": round(100 * float(sel.mean()), 2) if len(g) else None,
        }

    return {
        "turns": len(g),
        "accuracy": round(100 * float((g == pr).mean()), 2) if len(g) else None,
        "pro_or_con_at_side_p": at(DEFAULTS.side_reader_p),
        "precision_against_coverage": {f"{p:.1f}": at(p) for p in (0.5, 0.6, 0.7, 0.8, 0.9)},
    }
