"""``sphere eval conversation``: follow-ups resolved against the previous turn.

The sets are JSONL dialogues written for Sphere (``tests/data/conversation_dev.jsonl``
and ``tests/data/conversation_dev2.jsonl`` for development; format and scoring in
``tests/data/CONVERSATION.md``); ``--data`` may be given once per set. Each dialogue's
first turn is parsed by the rules; every later turn is read by
:func:`assistant.understand.followup.resolve` against the plan in force (the previous
turn's, or a new topic's own). A turn is correct when "follows" matches and, for a
follow-up, the edit kind and its value match. Reported: resolved-plan accuracy, the
new-topic error rate (gold new topics read as follow-ups), the follow-up miss rate,
and accuracy per edit kind.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

from assistant.errors import DataError, InputError
from assistant.eval.understand import iou, value_match
from assistant.understand.dialogues import load_dialogues
from assistant.understand.facet_judge import FacetJudge
from assistant.understand.followup import FollowUp, Rule, asked_about

IOU = 0.5


def _same_value(edit: str, gold: Any, got: Any) -> bool:
    if edit == "new_topic":
        return True
    if edit in ("add_aspect", "drop_aspect", "add_perspective"):
        return isinstance(got, str) and iou(str(gold), got) >= IOU
    if edit == "add_constraint":
        gl = gold if isinstance(gold, list) else [gold]
        pl = got if isinstance(got, list) else [got]
        return len(gl) == len(pl) and all(
            any(
                g["dimension"] == p["dimension"]
                and bool(g.get("negated")) == bool(p.get("negated"))
                and value_match(g["dimension"], str(g["value"]), str(p["value"]))
                for p in pl
            )
            for g in gl
        )
    if edit == "compare_refs":
        return sorted(gold) == sorted(got or [])
    return bool(gold == got)


def score_turn(expect: dict[str, Any], got: FollowUp) -> bool:
    if bool(expect["follows"]) != got.follows:
        return False
    if not got.follows:
        return True
    return expect["edit"] == got.edit and _same_value(
        expect["edit"], expect.get("value"), got.value
    )


def _score(
    dialogues: list[dict[str, Any]], judge: FacetJudge | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from assistant.understand import parse_rules
    from assistant.understand.followup import resolve

    turns = correct = new_gold = new_missed = follow_gold = follow_missed = 0
    per_edit: dict[str, list[int]] = {}
    misses: list[dict[str, Any]] = []
    for d in dialogues:
        plan = parse_rules(d["turns"][0]["text"])
        asked: tuple[str, list[int]] | None = None
        for t in d["turns"][1:]:
            e = t["expect"]
            try:
                got = resolve(t["text"], plan, judge, asked)
            except InputError:
                got = FollowUp(False, "new_topic", by=Rule.BAD_INPUT)
            asked = asked_about(got)
            ok = score_turn(e, got)
            turns += 1
            correct += ok
            row = per_edit.setdefault(e["edit"], [0, 0])
            row[0] += ok
            row[1] += 1
            if e["edit"] == "new_topic":
                new_gold += 1
                new_missed += got.follows
            else:
                follow_gold += 1
                follow_missed += not got.follows
            if not ok:
                misses.append(
                    {
                        "id": d.get("id"),
                        "text": t["text"],
                        "gold": [e["follows"], e["edit"], e.get("value")],
                        "got": [got.follows, got.edit, got.value],
                    }
                )
            if not got.follows:
                plan = parse_rules(t["text"])
            elif got.plan is not None:
                plan = got.plan

    def pct(a: int, b: int) -> float | None:
        return round(100.0 * a / b, 2) if b else None

    return {
        "turns": turns,
        "resolved_plan_acc": pct(correct, turns),
        "new_topic_as_followup": pct(new_missed, new_gold),
        "followup_as_new_topic": pct(follow_missed, follow_gold),
        "per_edit": {k: {"acc": pct(v[0], v[1]), "n": v[1]} for k, v in sorted(per_edit.items())},
    }, misses


PERTURBATIONS = ("typo", "nopunct")


def _typo(text: str, expect: dict[str, Any], rng: random.Random) -> str:
    """One typing slip (two letters swapped, one dropped or one doubled, inside the word)
    in a random word of five letters or more; the gold value gets the same slip where it
    copies that word, as an author copying the typed turn would write it."""
    words = text.split()
    idx = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not idx:
        return text
    i = rng.choice(idx)
    w = words[i]
    k = rng.randrange(1, len(w) - 1)
    op = rng.choice(["swap", "drop", "double"])
    if op == "swap":
        slipped = w[:k] + w[k + 1] + w[k] + w[k + 2 :]
    elif op == "drop":
        slipped = w[:k] + w[k + 1 :]
    else:
        slipped = w[:k] + w[k] + w[k:]
    words[i] = slipped
    pattern = re.compile(rf"\b{re.escape(w)}\b")
    value = expect.get("value")
    if isinstance(value, str):
        expect["value"] = pattern.sub(slipped, value)
    elif isinstance(value, dict) and isinstance(value.get("value"), str):
        value["value"] = pattern.sub(slipped, value["value"])
    return " ".join(words)


def perturb(dialogues: list[dict[str, Any]], kind: str, seed: int = 7) -> list[dict[str, Any]]:
    """A robustness copy of a dialogue set: every later turn with one typing slip
    (``typo``) or lower-cased without punctuation other than brackets (``nopunct``)."""
    if kind not in PERTURBATIONS:
        raise ValueError(f"unknown perturbation {kind!r}")
    rng = random.Random(seed)
    out = copy.deepcopy(dialogues)
    for d in out:
        for t in d["turns"][1:]:
            if kind == "typo":
                t["text"] = _typo(t["text"], t["expect"], rng)
            else:
                t["text"] = re.sub(r"[?!.,;:\"]", "", t["text"].lower())
    return out


def fold_judge(data: str | Path, folds: str | Path) -> FacetJudge:
    """The judge that reads the set ``data`` in a cross-check: the turn reader trained
    without it (``folds``: the ``folds.json`` that ``sphere train turn-reader
    --cross-check`` writes, mapping each set to the fold model that never saw it) and a
    turn-kind model trained on the same files as that fold model."""
    from assistant.embed import LazyEmbedder
    from assistant.understand.reader import TurnReader

    folds_path = Path(folds).expanduser()
    try:
        mapping = json.loads(folds_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{folds_path}: cannot read the fold map ({exc})") from None
    name = Path(data).name
    if not isinstance(mapping, dict) or name not in mapping:
        raise InputError(f"{name} is not a set of the cross-check {folds_path}")
    artifact = mapping[name]
    train_files = [Path(data).with_name(other) for other, a in mapping.items() if a != artifact]
    judge = FacetJudge(LazyEmbedder())
    judge.reader = TurnReader.load(Path(artifact))
    judge.turn_kind = _fold_turn_kind(tuple(sorted(str(f) for f in train_files)))
    return judge


_FOLD_MODELS: dict[tuple[str, ...], Any] = {}


def _fold_turn_kind(files: tuple[str, ...]) -> Any:
    from assistant.embed import LazyEmbedder
    from assistant.understand import turn_kind_train

    if files not in _FOLD_MODELS:
        _FOLD_MODELS[files] = turn_kind_train.train([Path(f) for f in files], LazyEmbedder())
    return _FOLD_MODELS[files]


def run_conversation(
    data: str | Path,
    *,
    limit: int | None = None,
    perturbation: str | None = None,
    judge: FacetJudge | None = None,
) -> dict[str, Any]:
    """Methods: ``rules`` (the lexicons alone) and ``sphere`` (the rules with the
    embedder's facet judgment, the turn-kind model and the turn reader,
    :func:`~assistant.understand.facet_judge.shared_judge`, as the app and ``sphere ask
    --session`` resolve follow-ups; or ``judge``). ``misses`` are ``sphere``'s.
    ``perturbation``: score a robustness copy (:func:`perturb`) instead."""
    from assistant.understand.facet_judge import shared_judge

    dialogues = load_dialogues(data)[:limit]
    if perturbation:
        dialogues = perturb(dialogues, perturbation)
    rules, _ = _score(dialogues, None)
    sphere, misses = _score(dialogues, judge or shared_judge())
    return {
        "benchmark": "conversation",
        "data": str(data),
        **({"perturbation": perturbation} if perturbation else {}),
        "dialogues": len(dialogues),
        "methods": {"rules": rules, "sphere": sphere},
        "misses": misses,
    }
