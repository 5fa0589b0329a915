"""Assemble the written stance corpus from the writers' folders (standard library only).

    python tests/data/stance_corpus/build.py --raw /work/corpus --shared ../shared/data \
        --train w1,w2,w3,w4,w5,w6 --dev d1,d2 [--test x1,x2] \
        [--late-train w7,w8,w9,w10,w11,w12] [--late-dev d3,d4]

Each writer's folder holds ``slots.jsonl`` (the shapes, sides, voices, lengths and
repetition levels asked for), ``topics.jsonl`` (the topics the writer invented, with
their two claims) and ``docs.jsonl`` (the documents). This script:

1. joins them into rows of the shared stance format (``topic`` = the question,
   ``label`` = the document's stance to ``claim_a``: pro, con or none) with the
   document's ``claim_a``, ``claim_b``, ``shape``, ``voice``, ``repetition``,
   ``writer`` and ``topic_id``;
2. drops every topic near an evaluation claim by the shared data's guard measure
   (content-word Jaccard >= 0.6 of the question or either claim against a
   PerSphere or Perspectrum claim or PerSphere title, an idebate page's motion or an
   ArguAna test motion; ``shared/data/stance/README.md``, "Topic overlap") and every
   document that shares word 8-grams with an evaluation text (half of its 8-grams,
   or one whole evaluation text of 8+ words);
3. drops every dev (and test) topic near a train topic by the same measure, so
   the splits share no topic;
4. writes ``train.jsonl``, ``dev.jsonl`` (and ``test.jsonl``) beside this script and
   ``stats.json`` with the counts and everything dropped.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
JACCARD = 0.6
NGRAM = 8

# A general English stop list (function words only), so that the Jaccard is over the
# words that carry a topic.
STOP = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "now",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "should",
        "shall",
        "may",
        "might",
        "must",
        "let",
        "lets",
        "this",
        "house",
        "thbt",
        "thw",
        "believes",
        "would",
        "better",
        "worth",
    ]
)
WORD = re.compile(r"[a-z0-9]+")


def content(text: str) -> frozenset[str]:
    words = (w for w in WORD.findall(text.lower()) if w not in STOP and len(w) > 1)
    return frozenset(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def ngrams(text: str, n: int = NGRAM) -> set[tuple[str, ...]]:
    w = WORD.findall(text.lower())
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def read_jsonl(path: Path) -> list[dict]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def evaluation_claims(shared: Path) -> list[str]:
    out: list[str] = []
    for q in read_jsonl(shared / "persphere/theperspective/data.jsonl"):
        out += [q["title"], q["t1"], q["t2"]]
    for c in json.loads((shared / "perspectrum/perspectrum_with_answers_v1.0.json").read_text()):
        out.append(c["text"])
    for c in read_jsonl(shared / "persphere/perspectrumx/perspectrumx.json"):
        out.append(c["text"])
    for p in read_jsonl(shared / "idebate-html/gold.jsonl"):
        out.append(p["motion"])
    for r in read_jsonl(shared / "stance/arguana.jsonl"):
        if r["split"] == "test":
            out.append(r["topic"])
    return sorted(set(out))


def evaluation_texts(shared: Path) -> list[str]:
    out = [d["content"] for d in read_jsonl(shared / "persphere/theperspective/doc_new.jsonl")]
    out += [
        p["text"]
        for p in json.loads((shared / "perspectrum/perspective_pool_v1.0.json").read_text())
    ]
    for p in read_jsonl(shared / "idebate-html/gold.jsonl"):
        out += [p["intro"]] + [a["text"] for a in p["arguments"]]
    return out


def writer_rows(folder: Path, split: str) -> tuple[list[dict], list[str]]:
    """Rows of one writer's folder, and what could not be used."""
    problems: list[str] = []
    slots = {
        s["slot"]: (t["topic_id"], s) for t in read_jsonl(folder / "slots.jsonl") for s in t["docs"]
    }
    topics = {t["topic_id"]: t for t in read_jsonl(folder / "topics.jsonl")}
    rows = []
    for d in read_jsonl(folder / "docs.jsonl"):
        got = slots.get(d.get("slot"))
        if got is None:
            problems.append(f"{folder.name}: unknown slot {d.get('slot')}")
            continue
        tid, spec = got
        t = topics.get(tid)
        if t is None or d.get("side") != spec["side"] or d.get("shape") != spec["shape"]:
            problems.append(f"{folder.name}: {d['slot']} does not match its slot or topic")
            continue
        text = " ".join(str(d["text"]).split())
        if not 90 <= len(text.split()) <= 420:
            problems.append(f"{folder.name}: {d['slot']} has {len(text.split())} words")
            continue
        rows.append(
            {
                "topic": " ".join(t["question"].split()),
                "claim_a": " ".join(t["claim_a"].split()),
                "claim_b": " ".join(t["claim_b"].split()),
                "text": text,
                "label": {"a": "pro", "b": "con", "none": "none"}[spec["side"]],
                "shape": spec["shape"],
                "voice": spec["voice"],
                "repetition": spec["repetition"],
                "domain": t.get("domain", ""),
                "writer": folder.name,
                "topic_id": tid,
                "id": d["slot"],
                "source": "written",
                "split": split,
            }
        )
    return rows, problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", type=Path, required=True, help="folder of the writers' folders")
    ap.add_argument("--shared", type=Path, required=True, help="../shared/data")
    ap.add_argument("--train", required=True, help="writers of the train split (comma-separated)")
    ap.add_argument("--dev", required=True, help="writers of the dev split")
    ap.add_argument("--test", default="", help="writers of the sealed test split")
    ap.add_argument(
        "--late-train",
        default="",
        help="writers added to the train split after dev and test were written (round 12):"
        " their topics near a dev or test topic are dropped, so dev and test stay as they were",
    )
    ap.add_argument(
        "--late-dev",
        default="",
        help="writers of a second dev split written after the others (round 15's second"
        " brief): written to dev_brief2.jsonl; its topics near any other split's are dropped",
    )
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)

    claims = [(c, content(c)) for c in evaluation_claims(args.shared)]
    eval_grams: set[tuple[str, ...]] = set()
    whole: list[tuple[str, ...]] = []
    for t in evaluation_texts(args.shared):
        g = ngrams(t)
        eval_grams |= g
        if len(t.split()) >= NGRAM:
            whole.append(tuple(WORD.findall(t.lower())))

    stats: dict = {"dropped_topics": [], "dropped_docs": [], "problems": [], "splits": {}}
    kept_topics: dict[str, list[frozenset[str]]] = {}
    outputs: dict[str, list[dict]] = {}
    passes = (
        ("train", args.train),
        ("dev", args.dev),
        ("test", args.test),
        ("late", args.late_train),
        ("dev_brief2", args.late_dev),
    )
    for split, names in passes:
        if split == "dev_brief2" and not names.strip():
            continue
        rows: list[dict] = []
        for name in (n.strip() for n in names.split(",") if n.strip()):
            split_name = {"late": "train", "dev_brief2": "dev"}.get(split, split)
            got, problems = writer_rows(args.raw / name, split_name)
            rows += got
            stats["problems"] += problems
        by_topic: dict[str, list[dict]] = {}
        for r in rows:
            by_topic.setdefault(r["topic_id"], []).append(r)
        kept: list[dict] = []
        split_sets: list[frozenset[str]] = []
        for tid, rs in by_topic.items():
            r0 = rs[0]
            keys = [content(r0["topic"]), content(r0["claim_a"]), content(r0["claim_b"])]
            near = next(
                (
                    (c, round(jaccard(k, cs), 3))
                    for k in keys
                    for c, cs in claims
                    if jaccard(k, cs) >= JACCARD
                ),
                None,
            )
            if near is not None:
                stats["dropped_topics"].append(
                    {
                        "topic_id": tid,
                        "question": r0["topic"],
                        "near_evaluation_claim": near[0],
                        "jaccard": near[1],
                    }
                )
                continue
            if split != "train":
                # dev and test against train; late train writers against dev and test; the
                # second dev split against every other
                others = {
                    "late": ("dev", "test"),
                    "dev_brief2": ("train", "late", "dev", "test"),
                }.get(split, ("train",))
                near_train = next(
                    (
                        round(jaccard(k, t), 3)
                        for k in keys[:1]
                        for o in others
                        for t in kept_topics.get(o, [])
                        if jaccard(k, t) >= JACCARD
                    ),
                    None,
                )
                if near_train is not None:
                    stats["dropped_topics"].append(
                        {
                            "topic_id": tid,
                            "question": r0["topic"],
                            "near": {
                                "late": "dev or test topic",
                                "dev_brief2": "another split's topic",
                            }.get(split, "train topic"),
                            "jaccard": near_train,
                        }
                    )
                    continue
            for r in rs:
                g = ngrams(r["text"])
                shared_grams = len(g & eval_grams)
                if g and shared_grams * 2 >= len(g):
                    stats["dropped_docs"].append(
                        {"id": r["id"], "why": "half its 8-grams in evaluation texts"}
                    )
                    continue
                kept.append(r)
            split_sets.append(keys[0])
        kept_topics[split] = split_sets
        outputs[split] = kept
        if split == "late":
            if not kept:
                continue
            outputs["train"] = outputs["train"] + kept
            stats["splits"]["late_train"] = {
                "documents": len(kept),
                "topics": len({r["topic_id"] for r in kept}),
                "writers": sorted({r["writer"] for r in kept}),
                "by_shape_label": dict(
                    sorted(Counter(f"{r['shape']}/{r['label']}" for r in kept).items())
                ),
            }
            kept = outputs["train"]
            split = "train"
            outputs.pop("late")
        stats["splits"][split] = {
            "documents": len(kept),
            "topics": len({r["topic_id"] for r in kept}),
            "writers": sorted({r["writer"] for r in kept}),
            "by_shape": dict(sorted(Counter(r["shape"] for r in kept).items())),
            "by_label": dict(sorted(Counter(r["label"] for r in kept).items())),
            "by_shape_label": dict(
                sorted(Counter(f"{r['shape']}/{r['label']}" for r in kept).items())
            ),
            "by_voice": dict(sorted(Counter(r["voice"] for r in kept).items())),
            "by_repetition": dict(sorted(Counter(r["repetition"] for r in kept).items())),
            "by_domain": dict(sorted(Counter(r["domain"] for r in kept).items())),
            "words_mean": round(sum(len(r["text"].split()) for r in kept) / max(1, len(kept)), 1),
        }
    args.out.mkdir(parents=True, exist_ok=True)
    for split, rows in outputs.items():
        if not rows:
            continue
        with (args.out / f"{split}.jsonl").open("w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    (args.out / "stats.json").write_text(
        json.dumps(stats, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    for split, s in stats["splits"].items():
        print(f"{split}: {s['documents']} documents, {s['topics']} topics", file=sys.stderr)
    print(
        f"dropped {len(stats['dropped_topics'])} topics, {len(stats['dropped_docs'])} documents;"
        f" {len(stats['problems'])} problems",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
