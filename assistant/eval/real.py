"""``sphere eval real``: answers on real saved web pages (issue 34, "How it is measured").

The data is a folder like ``../shared/data/idebate-html``: ``pages/`` (saved
debate pages, navigation, sidebars and comments included) and ``gold.jsonl``
(per page its motion, neutral intro and arguments, each with the side of the
motion it argues). The questions are ``tests/data/real_questions.jsonl``: one
per page, written by hand from the motion alone, so that "yes" agrees with the
motion (claim A). They are evaluation data and tune nothing.

The pages are indexed as they are, the way ``sphere index build`` does it
(:func:`assistant.index.build.build_index` with the settings' chunking), into
an index folder of the harness (``--index-dir``; by default under the cache
folder). The index is reused when the pages and the indexing code are
unchanged: the incremental build skips unchanged files, and a fingerprint of
``assistant/ingest`` and ``assistant/index``, the chunking and the embedder
rebuilds it from nothing when the code that made it changed. Each question is
then asked through :meth:`assistant.pipeline.Pipeline.run` with the settings
as configured and the stance model on (``stance.model: off`` is read as
``bundled``), the index opened once. Scoring (:mod:`assistant.eval.real_score`):

* ``furniture_rate`` — quotes and perspective texts not found in the
  question's page's gold texts (a quote from another page counts too;
  ``references_other_page`` says how many references cite another page,
  ``references_same_motion_page`` how many of those a copy of the page with
  the same motion; ``motion_precision``: references citing a page of the
  question's motion, its own or another, and ``motion_recall``: the share of
  those pages cited, where a question has several; ``not_in_any_gold_rate``:
  texts in no gold text of the question's page or of the pages they cite, the
  page furniture proper).
  Target ≤ 2 %.
* ``whole_sentences`` — share of them that are whole gold sentences
  (``whole_of_found``: the same over those found in a gold text). Target 100 %.
* ``side_accuracy`` — quotes taken from a gold argument, cited under the claim
  that argument argues; ``both_claims`` — questions whose page is cited under
  both claims. Targets ≥ 80 % and ≥ 70 %.
* ``claims_ok`` — answers whose two claims are declarative, free of template
  words and not the question repeated, by the claims checker of ``sphere eval
  claims`` (:mod:`assistant.understand.claim_check`). Target 100 %.
* ``seconds_median``/``seconds_p90`` — the pass per answer (nearest rank), with
  the load average before and after; one untimed warm-up answer first (a
  question of none of the pages).

``--rescore RUN.json`` scores the answers of a saved ``--json`` run again with
today's scorer (:func:`rescore`): no index is opened and no question asked, so a
change of the scoring rules is measured on the same answers.

``--json`` prints ``{"benchmark": "real", "methods": {"sphere": FIGURES},
"tasks": {THEME: FIGURES}, "rows": [one per question], "index": …, "code": …,
"config": …, "machine": …}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.config import Settings
from assistant.errors import DataError, SphereError
from assistant.eval.real_score import (
    CLAIM_CHECKS,
    EVIDENCE_KEYS,
    REFERENCE_KEYS,
    SIDE_KEYS,
    TARGETS,
    GoldPage,
    RealQuestion,
    aggregate,
    answer_items,
    cited_pages,
    claim_sides,
    claims_check,
    evidence_counts,
    load_gold,
    load_questions,
    match_key,
    reference_counts,
    reference_page,
    side_counts,
)

REPO = Path(__file__).resolve().parents[2]
DEFAULT_QUESTIONS = REPO / "tests" / "data" / "real_questions.jsonl"
#: the code whose change makes a rebuilt index (what turns files into passages)
INDEXING_CODE = ("assistant/ingest", "assistant/index")
#: the untimed first answer (models and caches warm): a question of none of the pages,
#: so no timed answer is a repeat
WARM_UP_QUESTION = "Should the voting age be lowered to sixteen?"
Say = Callable[[str], None]


# --------------------------------------------------------------------------- the index
def indexing_fingerprint(settings: Settings) -> str:
    """sha256 over the indexing code, the chunking and the embedder setting."""
    h = hashlib.sha256()
    for folder in INDEXING_CODE:
        for path in sorted((REPO / folder).rglob("*.py")):
            h.update(str(path.relative_to(REPO)).encode("utf-8") + b"\x00")
            h.update(path.read_bytes() + b"\x00")
    h.update(json.dumps(settings.chunking.model_dump(mode="json"), sort_keys=True).encode())
    h.update(json.dumps(settings.embedder.model_dump(mode="json"), sort_keys=True).encode())
    return h.hexdigest()


def index_name_for(pages: Path) -> str:
    """One index per pages folder, so two data folders never share one."""
    return "pages-" + hashlib.sha256(str(pages.resolve()).encode("utf-8")).hexdigest()[:12]


def build_pages_index(pages: Path, settings: Settings, index_dir: Path, say: Say) -> dict[str, Any]:
    """Index ``pages`` into ``index_dir`` as ``sphere index build`` does; reused if unchanged."""
    from assistant.embed import lazy_embedder_from_settings
    from assistant.index.build import build_index, options_from_settings

    name = index_name_for(pages)
    stamp = index_dir / f"{name}.eval-real.json"
    fingerprint = indexing_fingerprint(settings)
    try:
        stale = json.loads(stamp.read_text(encoding="utf-8")).get("fingerprint") != fingerprint
    except (OSError, ValueError):
        stale = True
    say(f"indexing {pages} into {index_dir / name}" + (" (from nothing)" if stale else ""))
    report = build_index(
        index_dir,
        name,
        [pages],
        lazy_embedder_from_settings(settings),
        options_from_settings(settings, rebuild=stale),
    )
    index_dir.mkdir(parents=True, exist_ok=True)
    stamp.write_text(json.dumps({"fingerprint": fingerprint}) + "\n", encoding="utf-8")
    return {
        "name": name,
        "folder": str(index_dir / name),
        "fingerprint": fingerprint[:16],
        "reused": not stale and report.files_indexed == 0 and report.files_removed == 0,
        "rebuilt": stale,
        "documents": report.documents,
        "passages": report.passages,
        "files_indexed": report.files_indexed,
        "files_unchanged": report.files_unchanged,
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "build_seconds": round(report.seconds, 2),
    }


def code_version() -> dict[str, Any]:
    """The checkout the code runs from: commit and whether its code has local changes."""

    def git(*args: str) -> str:
        try:
            done = subprocess.run(
                ["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=20
            )
        except (OSError, subprocess.SubprocessError):
            return ""
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain", "--", "assistant", "prompts") if commit else ""
    return {
        "commit": commit,
        "branch": git("rev-parse", "--abbrev-ref", "HEAD"),
        "dirty": bool(changed),
    }


# --------------------------------------------------------------------------- one answer
def answer_view(summary: Any) -> list[dict[str, Any]]:
    """The answer as a reader sees it: claims, perspectives, quotes and cited pages."""
    return [
        {
            "side": side,
            "claim": str(getattr(claim, "claim", "")),
            "note": str(getattr(claim, "note", "") or ""),
            "perspectives": [
                {
                    "text": str(getattr(p, "text", "")),
                    "references": [
                        {
                            "page": reference_page(r),
                            "quote": str(getattr(r, "quote", "") or ""),
                            "stance": getattr(r, "stance", None),
                        }
                        for r in getattr(p, "references", []) or []
                    ],
                }
                for p in getattr(claim, "perspectives", []) or []
            ],
        }
        for side, claim in claim_sides(summary)
    ]


def furniture_texts(items: Sequence[Any], home: GoldPage) -> list[str]:
    """The quoted texts not found in the question's page's gold texts."""
    return [it.text for it in items if match_key(it.text) and not home.found(match_key(it.text))]


def score_answer(
    q: RealQuestion,
    summary: Any,
    gold: dict[str, GoldPage],
) -> dict[str, Any]:
    """The row of one question: its counts, claim checks, cited sides and the answer."""
    items = answer_items(summary)
    home = gold[q.name]
    claims = [str(getattr(c, "claim", "")) for _side, c in claim_sides(summary)]
    cited = cited_pages(summary)
    furniture = furniture_texts(items, home)
    return {
        "page": q.name,
        "theme": home.theme,
        "question": q.question,
        "claims": claims,
        "claims_check": claims_check(claims, q.question),
        "evidence": evidence_counts(items, q.name, gold),
        "references": reference_counts(items, q.name, gold),
        "sides": side_counts(items, q.name, gold),
        "page_cited": {s: q.name in cited.get(s, set()) for s in ("pro", "con")},
        "furniture": furniture,
        "answer": answer_view(summary),
    }


@dataclass(frozen=True)
class _Ref:
    path: str
    quote: str


@dataclass(frozen=True)
class _Perspective:
    text: str
    references: list[_Ref]


@dataclass(frozen=True)
class _Claim:
    side: str
    claim: str
    perspectives: list[_Perspective]


@dataclass(frozen=True)
class _Answer:
    claims: list[_Claim]


def saved_answer(view: list[dict[str, Any]]) -> _Answer:
    """A summary as :func:`answer_view` saved it, read back by the scorer's attributes."""
    return _Answer(
        [
            _Claim(
                str(c.get("side", "")),
                str(c.get("claim", "")),
                [
                    _Perspective(
                        str(p.get("text", "")),
                        [
                            _Ref(str(r.get("page", "")), str(r.get("quote", "")))
                            for r in p.get("references", [])
                        ],
                    )
                    for p in c.get("perspectives", [])
                ],
            )
            for c in view
        ]
    )


def rescore(saved: str | Path, data: str | Path) -> dict[str, Any]:
    """A saved ``sphere eval real --json`` run scored again by this scorer, its answers
    as they were saved (a change of the scorer or of the gold texts needs no new answers).
    The rows keep their claims, time and intent; a failed row stays as it was."""
    try:
        out = json.loads(Path(saved).expanduser().read_text(encoding="utf-8"))
        rows_in = out["rows"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{saved}: not a saved `sphere eval real --json` run ({exc})") from None
    gold = load_gold(Path(data).expanduser())
    rows: list[dict[str, Any]] = []
    for r in rows_in:
        if r.get("page") not in gold:
            raise DataError(f"{saved}: page {r.get('page')!r} is not in {data}/gold.jsonl")
        row = dict(r)
        for group, keys in (
            ("evidence", EVIDENCE_KEYS),
            ("references", REFERENCE_KEYS),
            ("sides", SIDE_KEYS),
        ):  # a row saved before a count was added has none of it
            row[group] = {**dict.fromkeys(keys, 0), **dict(r.get(group) or {})}
        if "answer" in r and not r.get("error"):
            items = answer_items(saved_answer(r["answer"]))
            row["evidence"] = evidence_counts(items, r["page"], gold)
            row["references"] = reference_counts(items, r["page"], gold)
            row["sides"] = side_counts(items, r["page"], gold)
            row["furniture"] = furniture_texts(items, gold[r["page"]])
        rows.append(row)
    themes = sorted({r["theme"] for r in rows})
    return {
        **out,
        "methods": {"sphere": aggregate(rows)},
        "tasks": {t: aggregate([r for r in rows if r["theme"] == t]) for t in themes},
        "rescored": {"from": str(saved), "code": code_version()},
        "rows": rows,
    }


def failed_row(q: RealQuestion, gold: dict[str, GoldPage], error: SphereError) -> dict[str, Any]:
    """The row of a question the pass refused: nothing quoted, nothing cited, claims failed."""
    return {
        "page": q.name,
        "theme": gold[q.name].theme,
        "question": q.question,
        "error": f"{error.title}: {error.message}",
        "claims": [],
        "claims_check": {
            **dict.fromkeys((*CLAIM_CHECKS, "ok", "labelled"), False),
            "why": ["no answer"],
        },
        "evidence": dict.fromkeys(EVIDENCE_KEYS, 0),
        "references": dict.fromkeys(REFERENCE_KEYS, 0),
        "sides": dict.fromkeys(SIDE_KEYS, 0),
        "page_cited": {"pro": False, "con": False},
        "furniture": [],
        "answer": [],
    }


# --------------------------------------------------------------------------- the run
def eval_settings(settings: Settings, index_dir: Path) -> tuple[Settings, str]:
    """The settings of the run: the harness's index folder, the stance model on."""
    s = settings.resolved()
    stance = s.stance.model if s.stance.model.strip().lower() != "off" else "bundled"
    return (
        s.model_copy(
            update={
                "index_dir": index_dir,
                "stance": s.stance.model_copy(update={"model": stance}),
            }
        ),
        stance,
    )


def ask_all(
    pipe: Any,
    questions: Sequence[RealQuestion],
    gold: dict[str, GoldPage],
    say: Say,
) -> tuple[list[dict[str, Any]], float]:
    """Every question through ``pipe.run`` (timed), after one untimed warm-up answer."""
    t = time.perf_counter()
    pipe.run(WARM_UP_QUESTION)
    warm_up = time.perf_counter() - t
    rows: list[dict[str, Any]] = []
    for n, q in enumerate(questions, start=1):
        say(f"[{n}/{len(questions)}] {q.question}")
        t = time.perf_counter()
        try:
            result = pipe.run(q.question)
        except SphereError as exc:
            seconds = time.perf_counter() - t
            row = failed_row(q, gold, exc)
        else:
            seconds = time.perf_counter() - t
            row = score_answer(q, result.summary, gold)
            row["intent"] = getattr(getattr(result, "plan", None), "intent", "")
        row["seconds"] = round(seconds, 3)
        rows.append(row)
    return rows, warm_up


def run_real_eval(
    data: str | Path,
    settings: Settings,
    *,
    questions_path: str | Path | None = None,
    index_dir: str | Path | None = None,
    limit: int | None = None,
    progress: Say | None = None,
) -> dict[str, Any]:
    """Index the pages, answer the questions, score every answer (module docstring)."""
    from assistant.pipeline import Pipeline

    say = progress or (lambda _m: None)
    root = Path(data).expanduser()
    gold = load_gold(root)
    qpath = Path(questions_path).expanduser() if questions_path else DEFAULT_QUESTIONS
    questions = load_questions(qpath, gold)[:limit] if limit else load_questions(qpath, gold)
    folder = (
        Path(index_dir).expanduser()
        if index_dir
        else Path(settings.resolved().cache_dir) / "eval-real" / "indexes"
    )
    s, stance = eval_settings(settings, folder)
    index = build_pages_index(root / "pages", s, folder, say)
    if index["documents"] == 0:
        raise DataError(f"no page of {root / 'pages'} could be indexed", hint="see index.skipped")
    load_start = os.getloadavg()
    say("opening the index and the models")
    with Pipeline.from_settings(s, index["name"]) as pipe:
        rows, warm_up = ask_all(pipe, questions, gold, say)
        model = pipe.model_info()
    load_end = os.getloadavg()
    themes = sorted({r["theme"] for r in rows})
    return {
        "benchmark": "real",
        "data": str(root),
        "questions_file": str(qpath),
        "methods": {"sphere": aggregate(rows)},
        "tasks": {t: aggregate([r for r in rows if r["theme"] == t]) for t in themes},
        "targets": {k: f"{op} {v}" for k, (op, v) in TARGETS.items()},
        "index": index,
        "code": code_version(),
        "config": {
            "stance_model": stance,
            "model": model,
            "retrieval_mode": s.retrieval.mode,
            "summary": s.summary.model_dump(mode="json"),
            "chunking": s.chunking.model_dump(mode="json"),
        },
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_start": [round(x, 2) for x in load_start],
            "load_average_end": [round(x, 2) for x in load_end],
            "warm_up_seconds": round(warm_up, 3),
        },
        "rows": rows,
    }


# --------------------------------------------------------------------------- the report
def format_report(out: dict[str, Any]) -> str:
    m = out["methods"]["sphere"]
    pct = lambda v: f"{100 * v:.1f} %"  # noqa: E731
    ok = lambda k: "meets" if m["meets"][k] else "misses"  # noqa: E731
    lines = [
        f"sphere eval real: {m['questions']} questions on {out['data']} "
        f"(index {out['index']['name']}: {out['index']['documents']} pages, "
        f"{out['index']['passages']} passages, {'reused' if out['index']['reused'] else 'built'})",
        "",
        f"furniture rate     {pct(m['furniture_rate']):>9}  of {m['items']} quoted texts "
        f"(target ≤ 2 %: {ok('furniture_rate')}); references citing another page "
        f"{m['references_other_page']} of {m['references']} "
        f"({m['references_same_motion_page']} a copy with the same motion)",
        f"question's motion  {pct(m['motion_precision']):>9}  of references cite a page of it; "
        f"{pct(m['motion_recall'])} of its pages are cited",
        f"whole sentences    {pct(m['whole_sentences']):>9}  ({pct(m['whole_of_found'])} of those "
        f"found in a gold text; target 100 %: {ok('whole_sentences')})",
        f"side accuracy      {pct(m['side_accuracy']):>9}  of {m['side_quotes_scored']} quotes "
        f"from a gold argument (target ≥ 80 %: {ok('side_accuracy')}); "
        f"{m['side_quotes_ambiguous']} ambiguous, {m['intro_quotes']} from the intro",
        f"page under both    {pct(m['both_claims']):>9}  of questions (target ≥ 70 %: "
        f"{ok('both_claims')}); page cited at all {pct(m['page_cited'])}",
        f"claims read well   {pct(m['claims_ok']):>9}  (declarative "
        f"{pct(m['claims_declarative'])}, no template {pct(m['claims_no_template'])}, "
        f"not the question {pct(m['claims_not_repeated'])}; target 100 %: {ok('claims_ok')})",
        f"seconds an answer  median {m['seconds_median']:.2f}, p90 {m['seconds_p90']:.2f} "
        f"(load average {out['machine']['load_average_start']} → "
        f"{out['machine']['load_average_end']} on {out['machine']['cpus']} CPUs)",
    ]
    return "\n".join(lines)
