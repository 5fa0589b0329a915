"""Round-15 slot files: new voices; the shapes unseen writers are read worst in pairs.

Per topic six documents: an anecdote-first and a rebuttal for each claim (minimal
pairs), a concession-first for one claim, and an op-ed for the other claim or a
neutral explainer (alternating by topic). Dev writers get make_slots.py's balanced six
shapes with these voices. Voice, length and repetition are drawn per document."""

import json
import random
import sys
from pathlib import Path

import make_slots

VOICES = [
    "remarks made aloud at a public meeting (transcribed)",
    "reply deep in an online comment thread",
    "advice-column answer to a reader's letter",
    "discussion section of an academic paper",
    "press release",
    "podcast transcript",
    "product or book review",
    "internal memo",
    "personal newsletter",
    "reflection or sermon",
    "practitioner's column (someone writing about their own work)",
    "interview answer",
    "petition or open letter",
    "wiki talk-page comment",
    "trade-magazine column",
]
REPETITION = ["high", "medium", "low", "none", "none"]
SIX = ["anecdote_first", "concession_first", "rebuttal", "hedged_report", "op_ed"]


LENGTHS = [120, 150, 180, 210, 240, 270, 300, 340, 380]


def dress(writer: str, k: int, docs: list, rng: random.Random) -> dict:
    return make_slots.dress(writer, k, docs, rng, VOICES, LENGTHS, REPETITION)


def train_slots(writer: str, n: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        one, other = ("a", "b") if k % 2 == 0 else ("b", "a")
        last = (
            {"shape": "op_ed", "side": other}
            if k % 4 < 2
            else {"shape": "neutral_explainer", "side": "none"}
        )
        docs = [
            {"shape": "anecdote_first", "side": "a"},
            {"shape": "anecdote_first", "side": "b"},
            {"shape": "rebuttal", "side": "a"},
            {"shape": "rebuttal", "side": "b"},
            {"shape": "concession_first", "side": one},
            last,
        ]
        out.append(dress(writer, k, docs, rng))
    return out


def dev_slots(writer: str, n: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        sides = ["a", "a", "a", "b", "b"] if k % 2 == 0 else ["a", "a", "b", "b", "b"]
        rng.shuffle(sides)
        docs = [{"shape": s, "side": x} for s, x in zip(SIX, sides, strict=True)]
        docs.append({"shape": "neutral_explainer", "side": "none"})
        out.append(dress(writer, k, docs, rng))
    return out


if __name__ == "__main__":
    kind, writer, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    d = Path(writer)
    d.mkdir(exist_ok=True)
    make = train_slots if kind == "train" else dev_slots
    with open(d / "slots.jsonl", "w") as f:
        for t in make(writer, n, seed):
            f.write(json.dumps(t) + "\n")
