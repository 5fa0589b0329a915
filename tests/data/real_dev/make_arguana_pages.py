"""A development analogue of ``sphere eval real``'s debate pages, from ArguAna's train
and dev debates (stdlib only; written outside the repository, never copied into it).

    python tests/data/real_dev/make_arguana_pages.py ../shared/data/stance/arguana.jsonl OUT

Each ArguAna debate (its motion; its neutral introduction, the rows labelled "none";
its points and counters, each with the side of the motion it argues) becomes one
plain HTML page ``OUT/pages/<n>.html`` and one ``gold.jsonl`` line in the idebate-html
format; ``OUT/questions.jsonl`` asks the motion of every *dev* debate as it is written
("This House would …"), so no question is written with the answers in view. The
train debates are there as the other pages of the index, as the other motions of
idebate.org are on the saved pages. ArguAna's test debates are not used: they are
evaluation data.

    sphere eval real --data OUT --questions OUT/questions.jsonl --index-dir … --json
"""

from __future__ import annotations

import hashlib
import html
import json
import sys
from collections import defaultdict
from pathlib import Path


def main(src: Path, out: Path) -> int:
    debates: dict[str, dict] = defaultdict(lambda: {"intro": [], "args": [], "split": ""})
    for line in src.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r["split"] not in ("train", "dev"):
            continue
        d = debates[r["topic"]]
        d["split"] = r["split"]
        (d["intro"] if r["label"] == "none" else d["args"]).append(r)
    (out / "pages").mkdir(parents=True, exist_ok=True)
    gold, questions = [], []
    for motion in sorted(debates):
        d = debates[motion]
        if not d["args"]:
            continue
        name = "arguana-" + hashlib.sha256(motion.encode()).hexdigest()[:12] + ".html"
        intro = " ".join(r["text"] for r in d["intro"])
        body = [f"<h1>{html.escape(motion)}</h1>"]
        body += [f"<p>{html.escape(r['text'])}</p>" for r in d["intro"]]
        args = []
        for i, r in enumerate(d["args"], 1):
            body.append(f"<p>{html.escape(r['text'])}</p>")
            args.append(
                {
                    "id": f"a{i:02d}",
                    "kind": "point",
                    "under": r["label"],
                    "argues": r["label"],
                    "title": "",
                    "text": r["text"],
                }
            )
        page = (
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
            + html.escape(motion)
            + "</title></head><body><article>"
            + "\n".join(body)
            + "</article></body></html>\n"
        )
        (out / "pages" / name).write_text(page, encoding="utf-8")
        gold.append(
            {
                "page": f"pages/{name}",
                "theme": d["split"],
                "url": "",
                "motion": motion,
                "intro": intro,
                "arguments": args,
            }
        )
        if d["split"] == "dev":
            questions.append({"page": f"pages/{name}", "motion": motion, "question": motion})
    for fname, rows in (("gold.jsonl", gold), ("questions.jsonl", questions)):
        (out / fname).write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    print(f"{len(gold)} pages, {len(questions)} questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
