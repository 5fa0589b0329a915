"""Round-12 slot files: the shapes the model gets wrong most, in pairs.

Each topic has six documents: a concession-first and a hedged report for each
claim (a minimal pair: same topic, opposite sides), an anecdote-first for one
claim and a rebuttal for the other (alternating by topic). Voice, length and
repetition are drawn as in make_slots.py."""

import json
import random
import sys
from pathlib import Path

from make_slots import dress


def slots(writer: str, n_topics: int, seed: int):
    rng = random.Random(seed)
    out = []
    for k in range(n_topics):
        story, rebut = ("a", "b") if k % 2 == 0 else ("b", "a")
        docs = [
            {"shape": "concession_first", "side": "a"},
            {"shape": "concession_first", "side": "b"},
            {"shape": "hedged_report", "side": "a"},
            {"shape": "hedged_report", "side": "b"},
            {"shape": "anecdote_first", "side": story},
            {"shape": "rebuttal", "side": rebut},
        ]
        out.append(dress(writer, k, docs, rng))
    return out


if __name__ == "__main__":
    writer, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    d = Path(writer)
    d.mkdir(exist_ok=True)
    with open(d / "slots.jsonl", "w") as f:
        for t in slots(writer, n, seed):
            f.write(json.dumps(t) + "\n")
