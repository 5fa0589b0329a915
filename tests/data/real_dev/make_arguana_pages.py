"""A development analogue of ``sphere eval real``'s debate pages, from ArguAna's train
and dev debates (stdlib only; written outside the repository, never copied into it).

    python tests/data/real_dev/make_arguana_pages.py ../shared/data/stance/arguana.jsonl OUT
    python tests/data/real_dev/make_arguana_pages.py --one-per-argument ARGUANA OUT

Each ArguAna debate (its motion; its neutral introduction, the rows labelled "none";
its points and counters, each with the side of the motion it argues) becomes one
plain HTML page ``OUT/pages/<n>.html`` and one ``gold.jsonl`` line in the idebate-html
format; ``OUT/questions.jsonl`` asks the motion of every *dev* debate as it is written
("This House would …"), so no question is written with the answers in view. The
train debates are there as the other pages of the index, as the other motions of
idebate.org are on the saved pages. ArguAna's test debates are not used: they are
evaluation data.

With ``--one-per-argument`` a debate is many documents instead of one, as a
question in PerSphere has several relevant documents: its introduction is one page
(the motion as its heading; the page a question names) and every point and counter
is a page of its own, its paragraph alone, without the motion, as an essay in a
user's folder would not repeat the question. Every page of a debate has the
debate's motion in ``gold.jsonl``, so ``sphere eval real`` counts references to them
as the question's own (``motion_precision``, ``motion_recall``).

    sphere eval real --data OUT --questions OUT/questions.jsonl --index-dir … --json
"""

from __future__ import annotations

import hashlib
import html
import json
import sys
from collections import defaultdict
from pathlib import Path


def _page(title: str, paragraphs: list[str]) -> str:
    body = [f"<h1>{html.escape(title)}</h1>"] if title else []
    body += [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>"
        + html.escape(title)
        + "</title></head><body><article>"
        + "\n".join(body)
        + "</article></body></html>\n"
    )


def _argument(i: int, r: dict) -> dict:
    return {
        "id": f"a{i:02d}",
        "kind": "point",
        "under": r["label"],
        "argues": r["label"],
        "title": "",
        "text": r["text"],
    }


def main(src: Path, out: Path, one_per_argument: bool = False) -> int:
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
        stem = "arguana-" + hashlib.sha256(motion.encode()).hexdigest()[:12]
        name = stem + ".html"
        intro_texts = [r["text"] for r in d["intro"]]
        common = {"theme": d["split"], "url": "", "motion": motion}
        if one_per_argument:
            pages = [(name, motion, intro_texts, " ".join(intro_texts), [])]
            for i, r in enumerate(d["args"], 1):
                pages.append((f"{stem}-a{i:02d}.html", "", [r["text"]], "", [_argument(1, r)]))
        else:
            args = [_argument(i, r) for i, r in enumerate(d["args"], 1)]
            texts = intro_texts + [r["text"] for r in d["args"]]
            pages = [(name, motion, texts, " ".join(intro_texts), args)]
        for fname, title, paragraphs, intro, args in pages:
            (out / "pages" / fname).write_text(_page(title, paragraphs), encoding="utf-8")
            gold.append({"page": f"pages/{fname}", **common, "intro": intro, "arguments": args})
        if d["split"] == "dev":
            questions.append({"page": f"pages/{name}", "motion": motion, "question": motion})
    for fname, rows in (("gold.jsonl", gold), ("questions.jsonl", questions)):
        (out / fname).write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    print(f"{len(gold)} pages, {len(questions)} questions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    flag = "--one-per-argument" in args
    args = [a for a in args if a != "--one-per-argument"]
    sys.exit(main(Path(args[0]), Path(args[1]), flag))
