"""``sphere eval stance``: how often a text is placed under the claim it supports.

``--data FILE`` is one of four kinds, told apart by content:

* a **PerSphere** ``data.jsonl`` (with ``--corpus doc_new.jsonl``): every gold
  document of a question (``favor_ids`` under ``t1``, ``against_ids`` under
  ``t2``) is judged against two claims. ``side_accuracy_gold_claims`` uses
  ``t1``/``t2``; ``side_accuracy`` uses Sphere's own two claims for the title
  (:func:`assistant.understand.parse_rules`), aligned to ``t1``/``t2`` by
  claim text only (:func:`assistant.eval.summary.align_claims`). **Evaluation
  only**: nothing here trains or tunes the model;
* a **Perspectrum** ``perspectrum_with_answers_v1.0.json`` (``--pool``, by
  default ``perspective_pool_v1.0.json`` beside it): every gold
  claim–perspective pair, SUPPORT or UNDERMINE, judged against the claim and
  its opposite; ``tasks`` per official split, ``methods`` on the test split
  (the model trained on the train split and was chosen on dev);
* a **stance JSONL** in the shared format (``topic``, ``text``, ``label``):
  rows of ``--split`` (default ``test``), per source in ``tasks``; ``dev`` is
  the dev split training chose on (a source without one: the tenth of its
  train groups training held out, :func:`~assistant.stance.corpus.split_rows`);
* a **session log** (``sessions.db``, a SQLite file; or ``--corrections
  PATH``): the user's corrections of sides (issue 33) as a labelled set. Each
  corrected document is a case: the question and two claims the model read it
  against, the passages it judged, and gold = the side the user chose ("out of
  the answer" = neither); a document corrected twice in one turn counts once,
  with the last correction. ``tasks`` are per where the answer had the document
  (``from:pro``, ``from:unclear``, …).

Methods:

* ``claim_margin`` — today's signal without the model: the MiniLM cosine of
  the text's most claim-leaning sentence to claim A minus claim B, centred on
  its median over the question's (claim's, topic's) texts, as the
  deterministic summarizer did (:func:`assistant.summarize.hiersphere.stance_scores`);
* ``sphere`` — the shipped model, a document judged from its sentences
  (:meth:`StanceModel.document_sides`);
* ``sphere_document`` — the shipped model on the whole text at once (up to
  256 tokens);
* one row per ``--candidate NAME=PATH`` artifact (earlier training runs).

Figures (percent): ``side_accuracy`` — the forced choice between the two
claims (coverage 100 %); ``precision@c`` — accuracy over the fraction c of
texts the model is most confident about; ``no_side`` — texts the model
says take neither side (its own abstention); ``side_precision_decided`` —
accuracy on the texts it does place; ``accuracy`` / ``macro_f1`` — three-way
(supports / opposes / neither) where the data has "none" rows, else the two
sides; ``accuracy_pro|con|none`` — the same per gold label (its recall).
``ece`` — expected calibration error of the side probability (0–1).

Output (``--json``)::

    {"benchmark": "stance", "kind": K, "methods": {M: {metric: v}},
     "tasks": {T: {M: {metric: v}}}, "n": N,
     "confidence": {M: [{"t", "placed", "precision", "net"}]}}
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import DataError, InputError
from assistant.stance.data import LABEL_ID, claim_pair, read_perspectrum, read_stance_jsonl
from assistant.stance.side import (
    expected_calibration_error,
    precision_coverage,
)

NONE = LABEL_ID["none"]


@dataclass
class Case:
    """One text to place: ``gold`` 0 = claim A, 1 = claim B, 2 = neither."""

    question: str
    claims: tuple[str, str]
    text: str
    gold: int
    task: str
    group: str  # texts judged together (a question's documents, a claim's perspectives)
    # the passages to judge the text as (a corrected document: the ones the model judged);
    # empty: the text is cut as the index would chunk it
    passages: tuple[str, ...] = ()


# --------------------------------------------------------------------------- data kinds


def detect_kind(path: Path) -> str:
    from assistant.store import SQLITE_MAGIC

    try:
        with path.open("rb") as raw:
            if raw.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:
                return "corrections"
        with path.open(encoding="utf-8") as fh:
            head = fh.read(4096)
    except FileNotFoundError:
        raise InputError(f"data file not found: {path}", hint="pass --data FILE") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read {path}: {exc}") from None
    stripped = head.lstrip()
    if stripped.startswith("["):
        return "perspectrum"
    first = stripped.split("\n", 1)[0]
    try:
        obj = json.loads(first)
    except ValueError:
        raise DataError(
            f"{path} is neither a PerSphere data.jsonl, a Perspectrum claims file "
            "nor a stance JSONL file"
        ) from None
    if isinstance(obj, dict) and "favor_ids" in obj:
        return "persphere"
    if isinstance(obj, dict) and {"topic", "text", "label"} <= set(obj):
        return "stance"
    raise DataError(
        f"{path}: unknown record shape (keys {sorted(obj)[:6] if isinstance(obj, dict) else '?'})",
        hint="pass a PerSphere data.jsonl, a Perspectrum claims file or a stance JSONL",
    )


def persphere_cases(data: Path, corpus: Path | None, ours: bool) -> list[Case]:
    """Gold documents of every question, under the gold claims or under Sphere's own."""
    from assistant.eval.instruct import load_corpus
    from assistant.eval.persphere_data import load_queries
    from assistant.understand import parse_rules

    if corpus is None:
        raise InputError("a PerSphere data file needs --corpus doc_new.jsonl")
    texts = load_corpus(corpus)
    cases: list[Case] = []
    for q in load_queries(data):
        claims = q.claims
        swap = False
        if ours:
            plan = parse_rules(q.title)
            claims = (plan.claims[0] or q.title, plan.claims[1] or f"Not: {q.title}")
            swap = _aligned_swap(claims, q.claims)
        for g, ids in enumerate((q.favor_ids, q.against_ids)):
            for d in ids:
                if d not in texts:
                    raise DataError(f"document {d} of {q.qid} is not in {corpus}")
                gold = (1 - g) if swap else g
                cases.append(Case(q.title, claims, texts[d], gold, q.topic, q.qid))
    return cases


_ALIGN: dict[tuple[tuple[str, str], tuple[str, str]], bool] = {}


def _aligned_swap(ours: tuple[str, str], gold: tuple[str, str]) -> bool:
    """True when our first claim stands for t2 (claim text only, as eval summary)."""
    from assistant.eval.summary import align_claims

    embed = _embed_fn()
    return align_claims(ours, gold, embed)["pro"] == 1


_EMBED: list[Callable[[list[str]], np.ndarray]] = []


def _embed_fn() -> Callable[[list[str]], np.ndarray]:
    if not _EMBED:
        from assistant.embed import SentenceTransformerEmbedder

        emb = SentenceTransformerEmbedder()
        _EMBED.append(lambda texts: np.asarray(emb.encode(texts), np.float32))
    return _EMBED[0]


def perspectrum_cases(data: Path, pool: Path | None) -> list[Case]:
    cases = []
    for r in read_perspectrum(data, pool):
        a, b = claim_pair(r.topic)
        cases.append(Case(r.topic, (a, b), r.text, r.label, r.split, r.group))
    return cases


def stance_cases(data: Path, split: str, *, own_claims: bool = False) -> list[Case]:
    """Rows of ``split`` judged against Sphere's own two claims for the topic, or, with
    ``own_claims``, against the row's own (the written corpus's ``claim_a``/``claim_b``;
    rows without them are left out). A row with a writing ``shape`` is scored in the
    task ``<source>:<shape>``, so figures come per shape as well as per source."""
    from assistant.stance.corpus import split_rows

    rows = split_rows(read_stance_jsonl(data), split)
    if not rows:
        raise DataError(
            f"{data} has no rows in split {split!r}", hint="use --split train|dev|test|all"
        )
    cases = []
    for r in rows:
        if own_claims and r.claims is None:
            continue
        claims = r.claims if own_claims and r.claims is not None else claim_pair(r.topic)
        task = f"{r.source}:{r.shape}" if r.shape else r.source
        cases.append(Case(r.topic, claims, r.text, r.label, task, r.group))
    return cases


def correction_cases(path: Path) -> list[Case]:
    """The corrections in a session log as cases (see the module docstring)."""
    from assistant.store import SessionStore

    if not path.is_file():
        raise InputError(
            f"session log not found: {path}",
            hint="pass the sessions.db the app writes (`sphere config show` names it)",
        )
    with SessionStore(path) as store:
        found = store.all_corrections()
    last = {(turn_id, c.doc_id): (turn_id, c) for turn_id, c in found}
    cases = []
    for turn_id, c in last.values():
        passages = tuple(t for t in c.passages if t.strip()) or tuple(c.quotes)
        if not passages:  # nothing recorded that the model could read
            continue
        cases.append(
            Case(
                c.question,
                c.claims,
                "\n\n".join(passages),
                c.label,
                f"from:{c.was or 'unknown'}",
                f"turn:{turn_id}",
                passages,
            )
        )
    if not cases:
        raise DataError(
            f"{path} holds no corrections with text to judge",
            hint="correct a side in the app (m, x, a, b in the evidence pane) or with "
            "`sphere sessions correct SESSION TURN DOC --to pro|con|out`",
        )
    return cases


# --------------------------------------------------------------------------- methods


def claim_margin_probs(cases: Sequence[Case]) -> np.ndarray:
    """(n, 3) pseudo-probabilities from the centred MiniLM claim margin (no model)."""
    from assistant.summarize.evidence import sentence_spans

    embed = _embed_fn()
    diffs = np.zeros(len(cases))
    claim_vecs: dict[tuple[str, str], np.ndarray] = {}
    for i, c in enumerate(cases):
        if c.claims not in claim_vecs:
            claim_vecs[c.claims] = embed(list(c.claims))
        cv = claim_vecs[c.claims]
        sents = [c.text[s:e] for s, e in sentence_spans(c.text)] or [c.text]
        sv = embed(sents)
        d = sv @ cv[0] - sv @ cv[1]
        diffs[i] = float(d[np.argmax(np.abs(d))])
    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cases):
        groups.setdefault(c.group, []).append(i)
    out = np.zeros((len(cases), 3))
    for idx in groups.values():
        d = diffs[idx]
        z = (d - np.median(d)) / (d.std() + 1e-6)
        p_a = 1.0 / (1.0 + np.exp(-z))
        out[idx, 0], out[idx, 1] = p_a, 1.0 - p_a
    return out


def model_probs(model: Any, cases: Sequence[Case], *, whole: bool) -> np.ndarray:
    """(n, 3) side probabilities (A, B, neither) of the stance model for every case.

    A case's text is cut into the passages an index would hold (the product's
    chunker at its default size), or taken as the passages it records (a
    correction: those the model judged), and judged as the product judges a
    document (:meth:`StanceModel.judge_documents`); with ``whole``, the text is
    one passage (up to the model's ``max_len`` tokens, its middle cut when longer).
    """
    from assistant.ingest.chunk import chunk_text

    out = np.zeros((len(cases), 3))
    by: dict[tuple[str, tuple[str, str]], list[int]] = {}
    for i, c in enumerate(cases):
        by.setdefault((c.question, c.claims), []).append(i)
    for (question, claims), idx in by.items():
        docs = []
        for i in idx:
            text = cases[i].text
            if whole:
                docs.append([text])
            elif cases[i].passages:
                docs.append(list(cases[i].passages))
            else:
                docs.append([text[s:e] for s, e in chunk_text(text)] or [text])
        judged = model.judge_documents(question, claims, docs)
        for i, j in zip(idx, judged, strict=True):
            out[i] = j.side.p
    return out


def _method(model: Any, *, whole: bool) -> Callable[[Sequence[Case]], np.ndarray]:
    return lambda cases: model_probs(model, cases, whole=whole)


def metrics(probs: np.ndarray, cases: Sequence[Case]) -> dict[str, float]:
    gold = np.array([c.gold for c in cases])
    out: dict[str, float] = {"n": float(len(cases))}
    if not len(cases):
        return out
    sided = gold != NONE
    pred_side = np.argmax(probs[:, :2], axis=1)
    if sided.any():
        right = pred_side[sided] == gold[sided]
        out["side_accuracy"] = round(100.0 * float(right.mean()), 2)
        p_side = probs[sided][np.arange(int(sided.sum())), pred_side[sided]]
        out.update(precision_coverage(p_side, right))
        decided = np.argmax(probs[sided], axis=1) != NONE
        out["no_side"] = round(100.0 * float((~decided).mean()), 2)
        if decided.any():
            out["side_precision_decided"] = round(100.0 * float(right[decided].mean()), 2)
        two = probs[sided][:, :2]
        two = two / np.clip(two.sum(axis=1, keepdims=True), 1e-9, None)
        out["ece"] = round(expected_calibration_error(two, gold[sided]), 4)
    has_none = bool((gold == NONE).any())
    pred = np.argmax(probs, axis=1) if has_none else pred_side
    labels = (0, 1, NONE) if has_none else (0, 1)
    out["accuracy"] = round(100.0 * float((pred == gold).mean()), 2)
    for lab in labels:  # accuracy per gold label (its recall), as the issue reports it
        m = gold == lab
        if m.any():
            out[f"accuracy_{('pro', 'con', 'none')[lab]}"] = round(
                100.0 * float((pred[m] == lab).mean()), 2
            )
    f1s = []
    for lab in labels:
        tp = float(((pred == lab) & (gold == lab)).sum())
        prec = tp / max(float((pred == lab).sum()), 1.0)
        rec = tp / max(float((gold == lab).sum()), 1.0)
        f1s.append(2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    out["macro_f1"] = round(100.0 * float(np.mean(f1s)), 2)
    return out


#: the ``stance.min_confidence`` values :func:`confidence_table` scores
CONFIDENCE_GRID = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def confidence_table(probs: np.ndarray, cases: Sequence[Case]) -> list[dict[str, float]]:
    """What each ``stance.min_confidence`` would do, as the product applies it
    (:meth:`SideJudgement.confidence`): a text is *placed* under a claim when the
    model's three-way choice is a side and its probability reaches ``t``; the
    rest are "side unclear" or "takes no side".

    Per ``t``: ``placed`` (percent of all texts), ``precision`` (placed under
    the gold side, percent of placed; a gold "none" text placed anywhere is
    wrong) and ``net`` (right minus wrong placements per 100 texts: a wrong
    citation costs what a right one gains). The setting is chosen on a
    development split by ``net`` (docs/STANCE_MODEL.md), never on PerSphere.
    """
    gold = np.array([c.gold for c in cases])
    rows: list[dict[str, float]] = []
    if not len(cases):
        return rows
    choice = np.argmax(probs, axis=1)
    conf = probs[np.arange(len(cases)), choice]
    for t in CONFIDENCE_GRID:
        placed = (choice != NONE) & (conf >= t)
        right = placed & (choice == gold)
        n_placed = int(placed.sum())
        rows.append(
            {
                "t": t,
                "placed": round(100.0 * n_placed / len(cases), 2),
                "precision": round(100.0 * int(right.sum()) / max(n_placed, 1), 2),
                "net": round(100.0 * (2 * int(right.sum()) - n_placed) / len(cases), 2),
            }
        )
    return rows


def evaluate(
    cases_by_key: dict[str, list[Case]],
    methods: dict[str, Callable[[Sequence[Case]], np.ndarray]],
    main_task: str | None = None,
) -> dict[str, Any]:
    """Run every method on every case set; ``tasks`` per task, ``methods`` per key."""
    result: dict[str, Any] = {"methods": {}, "tasks": {}, "seconds": {}, "confidence": {}}
    for key, cases in cases_by_key.items():
        for name, fn in methods.items():
            t0 = time.time()
            probs = fn(cases)
            result["seconds"][f"{name}:{key}"] = round(time.time() - t0, 2)
            label = name if key == "" else f"{name}:{key}" if key else name
            for task in sorted({c.task for c in cases}):
                idx = [i for i, c in enumerate(cases) if c.task == task]
                m = metrics(probs[idx], [cases[i] for i in idx])
                result["tasks"].setdefault(task, {})[label] = m
            chosen = [i for i, c in enumerate(cases) if main_task is None or c.task == main_task]
            result["methods"].setdefault(name, {}).update(
                _prefixed(key, metrics(probs[chosen], [cases[i] for i in chosen]))
            )
            result["confidence"][label] = confidence_table(
                probs[chosen], [cases[i] for i in chosen]
            )
    return result


def _prefixed(key: str, m: dict[str, float]) -> dict[str, float]:
    if not key:
        return m
    return {(f"{k}_{key}" if k != "n" else f"n_{key}"): v for k, v in m.items()}
