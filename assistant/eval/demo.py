"""``sphere eval demo``: the demo corpus's four questions, each cited document's side
against the side its record was written for.

Every record of the bundled demo corpus (``assistant/demo/corpus.jsonl``) was
written for one side of its topic's question (``stance``: ``for``, ``against``
or ``neutral``). The command answers the four demo questions on the demo index
with the configured set-up and, for every document an answer cites, compares
the claim it stands under (Claim A, the "for" claim, or Claim B) with its
record's side. It runs once with the stance model (``sphere``) and once with it
off (``claim_margin``, the embedder's claim margin that decided sides before),
in one process.

Metrics per method: ``cited`` (document–claim citations, one per document and
claim), ``agree`` (cited under the claim its record argues for, %),
``neutral_cited`` (records written to take no side that were cited under a
claim), ``wrong`` (cited under the opposite claim).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

QUESTIONS = (
    ("uniforms", "Should school uniforms be mandatory?"),
    ("four-day-week", "Is a four-day work week good for business?"),
    ("nuclear", "Should nuclear power be expanded to fight climate change?"),
    ("social-media", "Should social media be banned for under-16s?"),
)
RECORD_SIDE = {"pro": "for", "con": "against"}


def demo_records() -> dict[str, dict[str, Any]]:
    """The bundled demo corpus by document id."""
    from importlib import resources

    path = Path(str(resources.files("assistant.demo") / "corpus.jsonl"))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["id"]: r for r in rows}


def judge_answer(result: Any, records: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (claim, cited document): where it is cited and what its record says."""
    rows: list[dict[str, Any]] = []
    for claim in result.summary.claims:
        seen: set[str] = set()
        for p in claim.perspectives:
            for ref in p.references:
                if ref.doc_id in seen:
                    continue
                seen.add(ref.doc_id)
                rec = records.get(ref.doc_id, {})
                rows.append(
                    {
                        "doc_id": ref.doc_id,
                        "title": rec.get("title", ref.title),
                        "cited_under": RECORD_SIDE[claim.side],
                        "record": rec.get("stance", "?"),
                        "stance": ref.stance,
                        "perspective": p.text,
                    }
                )
    return rows


def score(rows: list[dict[str, Any]]) -> dict[str, float]:
    cited = len(rows)
    agree = sum(r["cited_under"] == r["record"] for r in rows)
    neutral = sum(r["record"] == "neutral" for r in rows)
    return {
        "cited": cited,
        "agree": round(100.0 * agree / cited, 2) if cited else 0.0,
        "neutral_cited": neutral,
        "wrong": cited - agree - neutral,
    }


def run_demo_eval(
    settings: Any, index_name: str, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    from assistant.pipeline import Pipeline, load_stance

    say = progress or (lambda _m: None)
    records = demo_records()
    pipe = Pipeline.from_settings(settings, index_name)
    methods: dict[str, Any] = {}
    tasks: dict[str, dict[str, Any]] = {}
    answers: dict[str, dict[str, Any]] = {}
    try:
        stance = pipe.stance if pipe.stance is not None else load_stance(settings)
        runs = {"sphere": stance, "claim_margin": None}
        for method, model in runs.items():
            if method == "sphere" and model is None:
                continue  # stance.model: off
            pipe.set_stance(model)
            every: list[dict[str, Any]] = []
            for topic, question in QUESTIONS:
                say(f"{method}: {question}")
                rows = judge_answer(pipe.run(question), records)
                every += rows
                tasks.setdefault(topic, {})[method] = score(rows)
                answers.setdefault(topic, {})[method] = rows
            methods[method] = score(every)
    finally:
        pipe.close()
    return {
        "benchmark": "demo_sides",
        "index": index_name,
        "methods": methods,
        "tasks": tasks,
        "answers": answers,
    }
