"""Per-writer slot files: for each topic, six documents with a shape, side, voice,
length and repetition level."""

import json
import random
import sys
from pathlib import Path

SHAPES = [
    "anecdote_first",
    "concession_first",
    "rebuttal",
    "hedged_report",
    "op_ed",
    "neutral_explainer",
]
VOICES = [
    "newspaper editorial",
    "personal blog post",
    "letter to the editor",
    "research or policy report",
    "forum post",
    "newsletter column",
    "speech or talk transcript",
    "student essay",
    "magazine feature",
    "professional association statement",
    "review article",
    "community newsletter",
]
REPETITION = ["high", "medium", "low", "none"]


def slots(writer: str, n_topics: int, seed: int):
    rng = random.Random(seed)
    out = []
    for k in range(n_topics):
        sided = SHAPES[:5]
        # 5 sided docs: alternate 3A/2B and 2A/3B across topics, shuffled over shapes
        sides = ["a", "a", "a", "b", "b"] if k % 2 == 0 else ["a", "a", "b", "b", "b"]
        rng.shuffle(sides)
        docs = []
        for shape, side in zip(sided, sides, strict=True):
            docs.append({"shape": shape, "side": side})
        docs.append({"shape": "neutral_explainer", "side": "none"})
        out.append(dress(writer, k, docs, rng))
    return out


LENGTHS = [110, 140, 170, 200, 230, 260, 300, 340, 380]


def dress(
    writer: str,
    k: int,
    docs: list,
    rng: random.Random,
    voices: list = VOICES,
    lengths: list = LENGTHS,
    repetition: list = REPETITION,
) -> dict:
    """Topic ``k``'s slots: ``docs`` shuffled, each with its id, voice, length and
    repetition level drawn (from this round's lists unless a later round passes its own)."""
    rng.shuffle(docs)
    for i, d in enumerate(docs):
        d["slot"] = f"{writer}-t{k + 1:03d}-d{i + 1}"
        d["voice"] = rng.choice(voices)
        d["words"] = rng.choice(lengths)
        d["repetition"] = rng.choice(repetition)
    return {"topic_id": f"{writer}-t{k + 1:03d}", "docs": docs}


if __name__ == "__main__":
    writer, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    d = Path(writer)
    d.mkdir(exist_ok=True)
    with open(d / "slots.jsonl", "w") as f:
        for t in slots(writer, n, seed):
            f.write(json.dumps(t) + "\n")
