"""``sphere eval mpr``: multi-aspect reviewed-item retrieval on Recipe-MPR (paper 003).

Paper 003 ranks Recipe-MPR items by LLM-generated *reviews* (passages); those
reviews were never released (data README §5). This harness builds a review
corpus deterministically from ``500QA.dev.json`` and then runs the paper's
stage-1 retrieval: monolithic late fusion (``mono_lf``) against aspect fusion
with each aggregator (``amean``, ``gmean``, ``hmean``, ``min``, ``borda``,
``round_robin``), reporting MAP@10 and Recall@10 (paper 003 Tables 2–4).

Construction (exact; no randomness beyond a hash of the item id)
-----------------------------------------------------------------
**Items** are all unique option ids of all records (1,546 in the dev file),
each with its option text.

**Item aspects** (paper 003 §5.1 prompts GPT-4 with "the GT aspects for each
correct item"):

* an item that is the ``answer`` of one or more queries gets the gold answer
  spans: the values of those queries' ``correctness_explanation`` (a list
  value gives several spans), in file order, ``<INFERRED>`` dropped, duplicates
  removed case-insensitively;
* any other item (and a gold item whose spans are all ``<INFERRED>``) gets the
  phrases of its option text split at ``,`` and at the connectives
  ``and / with / containing / made with / made from / topped with /
  served with / in / without`` (:func:`split_phrases`), duplicates removed.

**Reviews** mention aspects through fixed templates ("I loved the {a}.",
"The {a} was the best part.", … :data:`ONE_ASPECT_TEMPLATES`):

* ``overlapping`` — 20 reviews per item; review r fills template r of
  :data:`ALL_ASPECTS_TEMPLATES` with *all* the item's aspects ("a1, a2 and a3").
* ``disjoint`` — 10 reviews per aspect; review r of aspect a fills template r
  of :data:`ONE_ASPECT_TEMPLATES` with a alone.
* ``one_rare`` — ``disjoint``, but one aspect per item keeps only its first
  review.
* ``one_popular`` — ``disjoint``, but only one aspect per item keeps its ten
  reviews; every other aspect keeps only its first review.

The "randomly-selected aspect" of ``one_rare`` / ``one_popular`` is aspect
number ``int(sha256(item_id)[:8], 16) % n_aspects``, so every run and machine
builds the same corpus.

**Queries**: as paper 003 §5.1, only queries whose gold item has at least two
aspects. The relevant item of a query is its ``answer``; every item of the
pooled corpus is a candidate (not just the query's five options).

**Query aspects**: ``gold`` = the keys of ``correctness_explanation``;
``extracted`` = :func:`extract_aspects` — the hook for the real extractor
(``assistant.understand.extract_aspects(query) -> list[str]`` when that
exists), else a deterministic splitter (:func:`split_query_aspects`).

**Scoring**: cosine between the embeddings (one embedder for queries, aspects
and reviews). S(q or a, item) = mean of the item's top-K_R review scores
(paper 003 eq. 1; an item with fewer reviews averages those it has). For GMean
and HMean the scores are mapped to (1 + cos)/2 ∈ [0, 1] first (they need
positive inputs; the map is monotone, so AMean and Min rankings are
unchanged). Score aggregators combine every item's aspect scores; rank
aggregators combine each aspect's top-K_I = 10 list (paper 003 §4.3.3).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from assistant.errors import DataError
from assistant.eval.data import read_json
from assistant.eval.metrics import average_precision_at_k, recall_at_k
from assistant.retrieval.fusion import (
    AGGREGATORS,
    PassageLayout,
    aspect_fusion,
    late_fusion_matrix,
    top_k_indices,
)

Distribution = Literal["overlapping", "disjoint", "one_rare", "one_popular"]
DISTRIBUTIONS: tuple[str, ...] = ("overlapping", "disjoint", "one_rare", "one_popular")
METHODS: tuple[str, ...] = ("mono_lf", *AGGREGATORS)
K_I = 10
TABLE_K_R = (1, 2, 5, 10)
INFERRED = "<INFERRED>"

ONE_ASPECT_TEMPLATES: tuple[str, ...] = (
    "I loved the {a}.",
    "The {a} was the best part.",
    "Really happy with the {a}.",
    "Great {a}, would make it again.",
    "My family enjoyed the {a}.",
    "The {a} turned out perfectly.",
    "You can really taste the {a}.",
    "Five stars for the {a}.",
    "The {a} is what makes this recipe.",
    "Came for the {a} and was not disappointed.",
)
ALL_ASPECTS_TEMPLATES: tuple[str, ...] = (
    *ONE_ASPECT_TEMPLATES,
    "What a dish: {a}.",
    "Made this last night, the {a} were spot on.",
    "Easy to follow, and the {a} came out great.",
    "Would recommend for the {a}.",
    "Everyone at the table liked the {a}.",
    "Solid recipe with {a}.",
    "I keep coming back to this one for the {a}.",
    "The {a} all worked together nicely.",
    "Perfect weeknight meal: {a}.",
    "Better than the restaurant, {a} included.",
)

_SPLIT = re.compile(
    r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|with|containing|made with|made from|topped with|"
    r"served with|in|without)\s+",
    re.IGNORECASE,
)
_QUERY_LEAD = re.compile(
    r"^\s*(?:(?:i(?:'d| would)? (?:like|want|need)(?: to (?:make|cook|eat|have|try))?)|"
    r"(?:can|could|may) (?:i|you) (?:have|get|make|give me|suggest|recommend)|"
    r"what (?:are|is|can i make)|give me|(?:please )?(?:suggest|recommend|find)(?: me)?|"
    r"i'm (?:looking for|craving|in the mood for)|looking for)\s*",
    re.IGNORECASE,
)
_QUERY_SPLIT = re.compile(
    r"\s*[,;?.]\s*(?:and |but |or |so )?|\s+(?:and|but|with|that|that's|which|without|for|"
    r"using|containing|contains|suitable for)\s+",
    re.IGNORECASE,
)


def split_phrases(text: str) -> list[str]:
    """Phrases of an option text, split at commas and connectives (see module doc)."""
    parts = [p.strip(" .;:") for p in _SPLIT.split(text)]
    return _dedupe([p for p in parts if p])


def split_query_aspects(query: str) -> list[str]:
    """Deterministic stand-in aspect extractor: strip the request lead, split at connectives.

    Falls back to the whole query when nothing is left.
    """
    body = _QUERY_LEAD.sub("", query.strip())
    body = re.sub(
        r"^(?:a |an |some |the )?(?:recipes?|dish(?:es)?|meals?)\s+(?:for|of|with)?\s*",
        "",
        body,
        flags=re.IGNORECASE,
    )
    parts = [p.strip(" .?!,") for p in _QUERY_SPLIT.split(body)]
    parts = [p for p in parts if len(p) > 1 and p.lower() not in {"a", "an", "the", "i", "me"}]
    return _dedupe(parts) or [query.strip()]


def extract_aspects(query: str) -> list[str]:
    """Hook: query → aspects for ``--aspects extracted``.

    Uses ``assistant.understand.extract_aspects`` when the query-understanding
    module provides it, else :func:`split_query_aspects`.
    """
    return _extractor()(query)


def _extractor() -> Callable[[str], list[str]]:
    try:
        from assistant import understand

        fn = getattr(understand, "extract_aspects", None)
        if callable(fn):
            return lambda q: [str(a) for a in fn(q)] or [q]
    except ImportError:
        pass
    return split_query_aspects


def extractor_name() -> str:
    return "split_query_aspects" if _extractor() is split_query_aspects else "understand"


def _dedupe(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for x in items:
        key = x.lower()
        if key and key not in seen:
            seen.add(key)
            out.append(x)
    return out


# --- data -------------------------------------------------------------------------


@dataclass(frozen=True)
class MPRQuery:
    text: str
    answer: str
    gold_aspects: list[str]  # keys of correctness_explanation
    types: tuple[str, ...] = ()  # query_type keys set to 1 (Specific, Commonsense, Negated, …)


@dataclass(frozen=True)
class MPRData:
    item_ids: list[str]
    item_texts: list[str]
    item_aspects: list[list[str]]
    queries: list[MPRQuery]  # all records
    n_dropped: int = 0  # queries whose gold item has < 2 aspects (kept out of scoring)


def load_mpr(path: str | Path) -> MPRData:
    """Read ``500QA.dev.json``, build items and their aspects; :class:`DataError` if malformed."""
    path = Path(path).expanduser()
    raw = read_json(
        path, what="Recipe-MPR data", hint="pass --data ../shared/data/recipe-mpr/500QA.dev.json"
    )
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{path}: expected a JSON list of Recipe-MPR records")
    texts: dict[str, str] = {}
    spans: dict[str, list[str]] = {}
    queries: list[MPRQuery] = []
    for n, rec in enumerate(raw):
        if not isinstance(rec, dict) or not all(
            k in rec for k in ("query", "options", "answer", "correctness_explanation")
        ):
            raise DataError(
                f"{path}: record {n} lacks one of query/options/answer/correctness_explanation"
            )
        opts, expl = rec["options"], rec["correctness_explanation"]
        if not isinstance(opts, dict) or rec["answer"] not in opts or not isinstance(expl, dict):
            raise DataError(f"{path}: record {n}: 'answer' must be one of its 'options'")
        for oid, text in opts.items():
            texts.setdefault(str(oid), str(text))
        gold = spans.setdefault(str(rec["answer"]), [])
        for value in expl.values():
            for span in value if isinstance(value, list) else [value]:
                if isinstance(span, str) and span.strip() and span.strip() != INFERRED:
                    gold.append(span.strip())
        qtype = rec.get("query_type")
        types = tuple(k for k, v in qtype.items() if v) if isinstance(qtype, dict) else ()
        queries.append(MPRQuery(str(rec["query"]).strip(), str(rec["answer"]), list(expl), types))
    ids = list(texts)
    aspects = [_dedupe(spans.get(i, [])) or split_phrases(texts[i]) or [texts[i]] for i in ids]
    return MPRData(ids, [texts[i] for i in ids], aspects, queries)


def _chosen_aspect(item_id: str, n_aspects: int) -> int:
    return int(hashlib.sha256(item_id.encode()).hexdigest()[:8], 16) % n_aspects


def build_reviews(data: MPRData, distribution: str) -> tuple[list[str], np.ndarray]:
    """Review texts and their item index, for one distribution (see module doc)."""
    if distribution not in DISTRIBUTIONS:
        raise ValueError(f"unknown distribution {distribution!r}")
    reviews: list[str] = []
    owner: list[int] = []
    for i, (iid, aspects) in enumerate(zip(data.item_ids, data.item_aspects, strict=True)):
        if distribution == "overlapping":
            joined = (
                aspects[0] if len(aspects) == 1 else ", ".join(aspects[:-1]) + " and " + aspects[-1]
            )
            for t in ALL_ASPECTS_TEMPLATES:
                reviews.append(t.format(a=joined))
                owner.append(i)
            continue
        pick = _chosen_aspect(iid, len(aspects))
        for j, a in enumerate(aspects):
            rare = (distribution == "one_rare" and j == pick) or (
                distribution == "one_popular" and j != pick
            )
            n = 1 if rare else len(ONE_ASPECT_TEMPLATES)
            for t in ONE_ASPECT_TEMPLATES[:n]:
                reviews.append(t.format(a=a))
                owner.append(i)
    return reviews, np.asarray(owner, dtype=np.int64)


# --- evaluation ---------------------------------------------------------------------


def eval_queries(data: MPRData) -> list[MPRQuery]:
    """Queries whose gold item has at least two aspects (paper 003 §5.1)."""
    index = {iid: n for n, iid in enumerate(data.item_ids)}
    return [q for q in data.queries if len(data.item_aspects[index[q.answer]]) >= 2]


def rank_items(
    query_scores: np.ndarray,
    aspect_scores: list[np.ndarray],
    k_i: int = K_I,
) -> dict[str, list[list[int]]]:
    """Top-``k_i`` item rankings per method.

    ``query_scores``: (Q, D) monolithic LF scores; ``aspect_scores[n]``: (A_n, D)
    LF scores of query n's aspects (cosine scale).
    """
    out: dict[str, list[list[int]]] = {"mono_lf": []}
    out.update({m: [] for m in AGGREGATORS})
    for n in range(len(query_scores)):
        out["mono_lf"].append(top_k_indices(query_scores[n], k_i).tolist())
        S = aspect_scores[n]
        for m in AGGREGATORS:
            S_m = (1.0 + S) / 2.0 if m in ("gmean", "hmean") else S
            out[m].append(aspect_fusion(S_m, m, k_i).tolist())  # type: ignore[arg-type]
    return out


def score_metrics(
    rankings: dict[str, list[list[int]]], gold: list[int], k: int = K_I
) -> dict[str, dict[str, float]]:
    """MAP@k and Recall@k (fractions) per method."""
    res = {}
    for m, ranks in rankings.items():
        ap = [average_precision_at_k(r, [g], k) for r, g in zip(ranks, gold, strict=True)]
        rc = [recall_at_k(r, [g], k) for r, g in zip(ranks, gold, strict=True)]
        res[m] = {f"map@{k}": float(np.mean(ap)), f"recall@{k}": float(np.mean(rc))}
    return res


class MPRRun:
    """Embeddings for one corpus distribution, reusable across K_R values."""

    def __init__(
        self,
        data: MPRData,
        distribution: str,
        aspects_mode: str,
        embed: Callable[[list[str]], np.ndarray],
    ) -> None:
        self.data = data
        self.queries = eval_queries(data)
        index = {iid: n for n, iid in enumerate(data.item_ids)}
        self.gold = [index[q.answer] for q in self.queries]
        reviews, owner = build_reviews(data, distribution)
        self.n_reviews = len(reviews)
        self.layout = PassageLayout(owner, len(data.item_ids))
        if distribution in ("one_rare", "one_popular"):
            # their reviews are a subset of the disjoint corpus: embed (and cache) that once
            full, _ = build_reviews(data, "disjoint")
            vecs = embed(full)
            row = {t: n for n, t in enumerate(full)}
            self.R = vecs[[row[t] for t in reviews]]
        else:
            self.R = embed(reviews)
        self.Q = embed([q.text for q in self.queries])
        if aspects_mode == "gold":
            self.aspects = [q.gold_aspects for q in self.queries]
        elif aspects_mode == "extracted":
            self.aspects = [extract_aspects(q.text) for q in self.queries]
        else:
            raise ValueError(f"unknown aspects mode {aspects_mode!r}")
        flat = [a for asp in self.aspects for a in asp]
        self.A = embed(flat)
        self.offsets = np.r_[0, np.cumsum([len(a) for a in self.aspects])]

    def evaluate(self, k_r: int) -> dict[str, dict[str, float]]:
        q_lf = late_fusion_matrix(self.Q @ self.R.T, self.layout, k_r)
        a_lf = late_fusion_matrix(self.A @ self.R.T, self.layout, k_r)
        per_query = [a_lf[self.offsets[n] : self.offsets[n + 1]] for n in range(len(self.queries))]
        return score_metrics(rank_items(q_lf, per_query), self.gold)


def _percentless(res: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {m: {k: round(v, 4) for k, v in d.items()} for m, d in res.items()}


def format_table(rows: dict[tuple[str, int], dict[str, dict[str, float]]]) -> str:
    """Paper-style table: rows = distribution × method, columns = K_R (MAP@10 / Re@10)."""
    dists = list(dict.fromkeys(d for d, _ in rows))
    krs = sorted({k for _, k in rows})
    head = f"{'distribution':<13}{'method':<12}" + "".join(f"{'K_R=' + str(k):>16}" for k in krs)
    sub = " " * 25 + "".join(f"{'MAP@10  Re@10':>16}" for _ in krs)
    lines = [head, sub, "-" * len(head)]
    for d in dists:
        for m in METHODS:
            cells = "".join(
                f"{rows[(d, k)][m]['map@10']:>9.2f}{rows[(d, k)][m]['recall@10']:>7.2f}"
                for k in krs
            )
            lines.append(f"{d:<13}{m:<12}{cells}")
        lines.append("")
    return "\n".join(lines).rstrip()
