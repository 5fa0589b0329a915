"""Claims of ArguAna's train and dev motions (never its test split), checked as `sphere
eval real` checks an answer's claims: the share whose two claims are declarative, free of
template words and not the question repeated (``real_score.claims_check``).

    python tests/data/real_dev/motion_claims.py ../shared/data/stance/arguana.jsonl [--misses]

Reads the data by path; nothing is copied into the repository.
"""

from __future__ import annotations

import collections
import json
import sys

from assistant.eval.real_score import claims_check
from assistant.understand import understand


def main(path: str, misses: bool = False) -> dict[str, object]:
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    topics = sorted({r["topic"] for r in rows if r.get("split") in ("train", "dev")})
    ok = 0
    intents: collections.Counter[str] = collections.Counter()
    for t in topics:
        plan = understand(t, use_llm="never")
        intents[plan.intent] += 1
        check = claims_check(list(plan.claims), t)
        ok += bool(check["ok"])
        if misses and not check["ok"]:
            print(t, plan.claims, check["why"], file=sys.stderr)
    return {
        "motions": len(topics),
        "claims_ok": ok,
        "share": round(ok / max(len(topics), 1), 4),
        "intents": dict(intents),
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], "--misses" in sys.argv[2:])))
