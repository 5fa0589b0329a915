"""Check a writer's output: python3 validate.py WRITER_FOLDER  (stdlib only)."""

import json
import re
import sys
from pathlib import Path

d = Path(sys.argv[1])
slots = [json.loads(line) for line in (d / "slots.jsonl").read_text().splitlines() if line.strip()]
want = {s["slot"]: (t["topic_id"], s) for t in slots for s in t["docs"]}
topics, docs, problems = {}, {}, []
if (d / "topics.jsonl").exists():
    for n, line in enumerate((d / "topics.jsonl").read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            t = json.loads(line)
        except Exception as e:
            problems.append(f"topics.jsonl line {n}: not JSON ({e})")
            continue
        for k in ("topic_id", "domain", "question", "claim_a", "claim_b"):
            if not isinstance(t.get(k), str) or not t[k].strip():
                problems.append(f"topics.jsonl line {n}: missing {k}")
        topics[t.get("topic_id")] = t
if (d / "docs.jsonl").exists():
    for n, line in enumerate((d / "docs.jsonl").read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            x = json.loads(line)
        except Exception as e:
            problems.append(f"docs.jsonl line {n}: not JSON ({e})")
            continue
        s = x.get("slot")
        if s not in want:
            problems.append(f"docs.jsonl line {n}: unknown slot {s!r}")
            continue
        if s in docs:
            problems.append(f"docs.jsonl line {n}: slot {s} written twice")
        tid, spec = want[s]
        for k in ("shape", "side"):
            if x.get(k) != spec[k]:
                problems.append(f"{s}: {k} is {x.get(k)!r}, the slot says {spec[k]!r}")
        text = x.get("text") or ""
        w = len(text.split())
        if not 90 <= w <= 420:
            problems.append(f"{s}: {w} words (keep 100-400)")
        if re.search(r"\bclaim [ab]\b|\bside [ab]\b|\bposition [ab]\b", text, re.I):
            problems.append(f"{s}: mentions 'claim A/B' or 'side A/B' in the text")
        if tid not in topics:
            problems.append(f"{s}: topic {tid} not in topics.jsonl")
        docs[s] = x
done_topics = {want[s][0] for s in docs}
print(
    f"{len(topics)} topics, {len(docs)} of {len(want)} documents written,"
    f" {len(done_topics)} topics with documents"
)
for p in problems[:60]:
    print("PROBLEM:", p)
print("OK" if not problems else f"{len(problems)} problems")
