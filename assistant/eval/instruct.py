"""``sphere eval instruct``: instruction following (paper 002, SICR and WISE) on PerSphere.

InfoSearch itself is not available offline (data README), so the test set is
built deterministically from PerSphere Theperspective (``data.jsonl`` +
``doc_new.jsonl``, data README §1a), following paper 002 §2's three modes.

**Construction.** For each query, the positives P are its gold documents,
``favor_ids`` then ``against_ids`` (duplicates dropped); ``title`` is the core
query q. For each dimension we look for one positive P_i that a natural
instruction singles out among P, and write three queries:

* original — ``title`` (every positive is relevant);
* instructed — ``title`` + instruction (P_i is the only positive);
* reversed — ``title`` + the opposite instruction (P_i becomes a negative,
  the other positives stay positive).

``keyword``: words are the ``\\w+`` tokens of a document, folded by
:func:`assistant.retrieval.constraints.stem` (case, plurals, possessives). A
candidate for P_i is a stem that occurs in P_i, in no other positive and not in
the title, is alphabetic, at least 5 letters long, not a stopword
(the aspect stop words, ``assistant/understand/words/grammar.yaml``), and occurs in at
least 2 documents of the corpus (no typos). Its weight is tf(P_i) · ln(N / df), N = corpus size; the
(P_i, stem) pair of highest weight wins (ties: lower document id, then the
stem), and the keyword is the stem's most frequent surface form in P_i (ties:
first occurrence). Instructions cycle over three phrasings by query position
(mod 3): "Only documents that mention K." / "… that do not mention K.",
"It must mention K." / "It must not mention K.", 'Find articles containing the
word "K".' / 'Find articles without the word "K".'.

``length``: length is the number of whitespace-separated words. P_i is
*clearly shorter* than the rest if n(P_i) · 1.25 ≤ min over the other
positives, *clearly longer* if n(P_i) ≥ 1.25 · max over them (the documents
are 117 words on average and rather even: a ratio of 1.5 leaves 5 queries,
1.25 leaves 54); among such (P_i, direction)
pairs the largest ratio wins (ties: lower id, shorter first). The bound T is
the geometric mean of n(P_i) and the nearest other length rounded to a
multiple of 10, moved to the midpoint if that rounding leaves the open interval
between them. Short: instructed "Only documents of fewer than T words." /
reversed "Only documents of at least T words."; long the other way round
(the second phrasing, by query position mod 2: "Documents with fewer than T
words." / "Documents with at least T words.").

``language``: skipped — the corpus is English only (py3langid finds English in
all but a few too-short documents). ``source``: skipped — the records carry
only ``id`` and ``content``, no url, site or path. Both are listed under
``skipped`` in the output.

A query without a qualifying P_i for a dimension is left out of that
dimension (counts under ``queries``).

**Methods.** ``plain`` — the instructed text is simply the query:
:func:`assistant.index.search.search` in hybrid mode (RRF of dense and BM25),
and ``plain_dense`` the same with cosine only. ``sphere`` — the plan the rules
make of the text (:func:`assistant.understand.parse_rules`, i.e.
``understand(…, use_llm="never")``), ranked by the retriever in its default
mode with its constraint support (:mod:`assistant.retrieval.constraints`); the
two side lists are merged by interleaving
(:func:`assistant.eval.persphere.merge_sides`). With ``--ablation``,
``sphere_no_compliance`` is ``sphere`` with the compliance term of the score
switched off (``COMPLIANCE_WEIGHT = 0``: filters only), to show how much of
SICR's score condition that term carries. Every method returns its top
``DEPTH`` = 100 documents.

**Metrics** (paper 002 §2.3, K = 20): R and S are P_i's 1-based rank and
score in each mode; a document absent from the top ``DEPTH`` has rank
``DEPTH + 1`` and score −∞. SICR is eq. 1–2, WISE eq. 3–6 with N = |P|;
nDCG@10 per mode with binary gains on that mode's positives. ``sicr_ref`` is
SICR as the authors' released code counts it (a P_i already first in the
original mode counts if it stays first; eq. 1 can never count it), and
``r_ori_1`` the share of such queries. Values are in percent.
``checks.original_identical`` says whether ``sphere`` ranks every original
query exactly as the retriever with the plan's constraints removed.

Output (``--json``)::

    {"benchmark": "instruct", "methods": {M: {sicr, wise, ndcg@10_original, …}},
     "tasks": {"keyword": {M: {…}}, "length": {M: {…}}}, "queries": {…},
     "skipped": {…}, "checks": {…}}
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import DataError, InputError
from assistant.eval.metrics import ndcg_at_k, sicr, wise
from assistant.eval.persphere_data import PerSphereQuery, corpus_index_for, load_queries

DEPTH = 100
K_WISE = 20
MIN_RATIO = 1.25
MODES = ("original", "instructed", "reversed")

KEYWORD_PHRASES = (
    ("Only documents that mention {k}.", "Only documents that do not mention {k}."),
    ("It must mention {k}.", "It must not mention {k}."),
    ('Find articles containing the word "{k}".', 'Find articles without the word "{k}".'),
)
LENGTH_PHRASES = (
    ("Only documents of fewer than {t} words.", "Only documents of at least {t} words."),
    ("Documents with fewer than {t} words.", "Documents with at least {t} words."),
)
_ALPHA = re.compile(r"^[^\W\d_]+$")


@dataclass(frozen=True)
class InstructItem:
    """One test query of one dimension: P_i and the three query texts."""

    qid: str
    dimension: str
    positives: tuple[str, ...]
    target: str  # P_i
    original: str
    instructed: str
    reversed: str
    detail: str = ""  # the keyword, or "short<T" / "long>T"

    def positives_of(self, mode: str) -> set[str]:
        if mode == "instructed":
            return {self.target}
        if mode == "reversed":
            return set(self.positives) - {self.target}
        return set(self.positives)


# --------------------------------------------------------------------------- construction


def load_corpus(path: Path) -> dict[str, str]:
    """``doc_new.jsonl`` → {id: content}."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"corpus file not found: {path}", hint="pass --corpus …/doc_new.jsonl")
    out: dict[str, str] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                out[str(r["id"])] = str(r["content"])
            except (ValueError, KeyError, TypeError) as exc:
                raise DataError(f"{path}:{n}: not a {{id, content}} record ({exc})") from None
    return out


def _positives(q: PerSphereQuery) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*q.favor_ids, *q.against_ids)))


def _stems(text: str) -> list[tuple[str, str]]:
    from assistant.retrieval.constraints import _TOKEN, stem

    return [(stem(t), t) for t in _TOKEN.findall(text.replace("’", "'"))]


def keyword_item(
    i: int, q: PerSphereQuery, corpus: dict[str, str], df: Counter[str], n_docs: int
) -> InstructItem | None:
    """The keyword test query of ``q`` (module docstring), or None."""
    from assistant.understand.vocab import VOCAB

    pos = [p for p in _positives(q) if p in corpus]
    if len(pos) < 2:
        return None
    toks = {p: _stems(corpus[p]) for p in pos}
    sets = {p: {s for s, _ in t} for p, t in toks.items()}
    title = {s for s, _ in _stems(q.title)}
    best: tuple[float, int, str, str, str] | None = None  # (-weight, id, stem, doc, surface)
    for p in pos:
        others = set().union(*(sets[o] for o in pos if o != p))
        tf = Counter(s for s, _ in toks[p])
        for s, n in tf.items():
            if (
                len(s) < 5
                or not _ALPHA.match(s)
                or s in VOCAB.grammar.aspect_stopwords
                or s in others
                or s in title
                or df[s] < 2
            ):
                continue
            weight = n * math.log(n_docs / df[s])
            key = (-weight, int(p) if p.isdigit() else 0, s)
            if best is None or key < best[:3]:
                forms = Counter(t for st, t in toks[p] if st == s)
                top = max(forms.values())
                surface = next(t for st, t in toks[p] if st == s and forms[t] == top)
                best = (*key, p, surface)
    if best is None:
        return None
    p, word = best[3], best[4]
    ins, rev = KEYWORD_PHRASES[i % len(KEYWORD_PHRASES)]
    return InstructItem(
        q.qid,
        "keyword",
        tuple(pos),
        p,
        q.title,
        f"{q.title} {ins.format(k=word)}",
        f"{q.title} {rev.format(k=word)}",
        word,
    )


def length_bound(n_target: int, n_near: int) -> int:
    """T between the two lengths (geometric mean rounded to 10, else the midpoint)."""
    lo, hi = sorted((n_target, n_near))
    t = int(round(math.sqrt(lo * hi) / 10.0) * 10)
    if not lo < t < hi:
        t = (lo + hi) // 2
    return t


def length_item(i: int, q: PerSphereQuery, corpus: dict[str, str]) -> InstructItem | None:
    """The length test query of ``q`` (module docstring), or None."""
    pos = [p for p in _positives(q) if p in corpus]
    if len(pos) < 2:
        return None
    n = {p: len(corpus[p].split()) for p in pos}
    best: tuple[float, int, int, str, int] | None = None  # (-ratio, id, dir, doc, near)
    for p in pos:
        rest = [n[o] for o in pos if o != p]
        pid = int(p) if p.isdigit() else 0
        if n[p] > 0 and n[p] * MIN_RATIO <= min(rest):
            cand = (-min(rest) / n[p], pid, 0, p, min(rest))
            best = cand if best is None or cand < best else best
        if n[p] >= MIN_RATIO * max(rest):
            cand = (-n[p] / max(rest), pid, 1, p, max(rest))
            best = cand if best is None or cand < best else best
    if best is None:
        return None
    _r, _id, direction, p, near = best
    t = length_bound(n[p], near)
    if not min(n[p], near) < t < max(n[p], near):
        return None  # adjacent lengths: no bound strictly between them
    fewer, least = LENGTH_PHRASES[i % len(LENGTH_PHRASES)]
    ins, rev = (fewer, least) if direction == 0 else (least, fewer)
    return InstructItem(
        q.qid,
        "length",
        tuple(pos),
        p,
        q.title,
        f"{q.title} {ins.format(t=t)}",
        f"{q.title} {rev.format(t=t)}",
        f"short<{t}" if direction == 0 else f"long>{t}",
    )


def build_items(
    queries: Sequence[PerSphereQuery], corpus: dict[str, str]
) -> dict[str, list[InstructItem]]:
    """The test set: dimension → items, in query order (deterministic)."""
    df: Counter[str] = Counter()
    for text in corpus.values():
        df.update({s for s, _ in _stems(text)})
    out: dict[str, list[InstructItem]] = {"keyword": [], "length": []}
    for i, q in enumerate(queries):
        kw = keyword_item(i, q, corpus, df, len(corpus))
        if kw:
            out["keyword"].append(kw)
        ln = length_item(i, q, corpus)
        if ln:
            out["length"].append(ln)
    return out


# --------------------------------------------------------------------------- scoring

Run = dict[str, tuple[list[str], dict[str, float]]]  # text -> (ranking, doc -> score)


def rank_and_score(run: tuple[list[str], dict[str, float]], doc: str) -> tuple[int, float]:
    """1-based rank and score of ``doc``; (DEPTH + 1, −∞) when absent."""
    ranking, scores = run
    try:
        return ranking.index(doc) + 1, scores[doc]
    except ValueError:
        return DEPTH + 1, float("-inf")


def sicr_reference(
    r_ori: int, r_ins: int, r_rev: int, s_ori: float, s_ins: float, s_rev: float
) -> int:
    """I(q) as the authors' released code computes it (EIT-NLP/InfoSearch ``SICR_score``).

    Eq. 1 of paper 002 when R_ori > 1; when P_i is already first in the
    original mode (where eq. 1's R_ins < R_ori cannot hold) the query counts if
    P_i stays first with S_ins ≥ S_ori and falls with S_rev < S_ori.
    """
    if r_ori > 1:
        return int(r_ins < r_ori and s_ins > s_ori and r_ori < r_rev and s_ori > s_rev)
    return int(r_ins == 1 and s_ins >= s_ori and r_rev > r_ori and s_ori > s_rev)


def score_items(items: Sequence[InstructItem], run: Run) -> dict[str, float]:
    """SICR, WISE (paper 002 eqs. 1–6, K = 20) and nDCG@10 per mode, in percent.

    Also ``sicr_ref`` (:func:`sicr_reference`) and ``r_ori_1``, the share of
    queries whose P_i is already first in the original mode — eq. 1 cannot
    count those, so it bounds the strict SICR at 100 − ``r_ori_1``.
    """
    ranks: list[tuple[int, int, int]] = []
    scores: list[tuple[float, float, float]] = []
    ndcg = {m: 0.0 for m in MODES}
    for it in items:
        got = [rank_and_score(run[getattr(it, m)], it.target) for m in MODES]
        ranks.append((got[0][0], got[1][0], got[2][0]))
        scores.append((got[0][1], got[1][1], got[2][1]))
        for m in MODES:
            gains = dict.fromkeys(it.positives_of(m), 1.0)
            ndcg[m] += ndcg_at_k(run[getattr(it, m)][0], gains, 10)
    n = max(len(items), 1)
    ref = sum(sicr_reference(*r, *s) for r, s in zip(ranks, scores, strict=True))
    out = {
        "sicr": round(100 * sicr(ranks, scores), 2),
        "sicr_ref": round(100 * ref / n, 2),
        "r_ori_1": round(100 * sum(r[0] == 1 for r in ranks) / n, 2),
        "wise": round(100 * wise(ranks, [len(it.positives) for it in items], K_WISE), 2),
    }
    for m in MODES:
        out[f"ndcg@10_{m}"] = round(100 * ndcg[m] / n, 2)
    return out


# --------------------------------------------------------------------------- running


class _Lookup:
    """An embedder answering from precomputed vectors (falls back to the real one)."""

    def __init__(self, embedder: Any, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.inner = embedder
        self.name, self.dim = embedder.name, embedder.dim
        self.row = {t: i for i, t in enumerate(texts)}
        self.vectors = vectors

    def encode(self, texts: Sequence[str], **kw: Any) -> np.ndarray:
        if all(t in self.row for t in texts):
            return self.vectors[[self.row[t] for t in texts]]
        return np.asarray(self.inner.encode(texts, **kw), dtype=np.float32)


def run_instruct(
    data: Path,
    corpus: Path,
    *,
    settings: Any = None,
    embedder: Any = None,
    methods: Sequence[str] = ("plain", "plain_dense", "sphere"),
    progress: Callable[[str], None] | None = None,
    details: bool = False,
) -> dict[str, Any]:
    """Build the test set, run every method on every text, return the report.

    ``details`` adds ``items``: per test query, each method's (rank, score) of
    P_i in the original, instructed and reversed modes.
    """
    from assistant.config import Settings
    from assistant.embed import embedder_from_settings
    from assistant.eval.cache import embed_cached
    from assistant.eval.persphere import hit_scores, merge_sides
    from assistant.index.search import search
    from assistant.retrieval.retriever import Retriever, query_texts
    from assistant.understand import parse_rules

    settings = settings or Settings()  # type: ignore[call-arg]
    say = progress or (lambda _m: None)
    queries = load_queries(Path(data))
    docs = load_corpus(Path(corpus))
    items = build_items(queries, docs)
    texts = sorted({getattr(it, m) for its in items.values() for it in its for m in MODES})
    if embedder is None:
        embedder = embedder_from_settings(settings)
    say("opening the corpus index (built once, then cached)")
    index = corpus_index_for(settings, corpus, embedder)
    plans = {t: parse_rules(t) for t in texts}
    all_texts = sorted(set(texts) | {x for p in plans.values() for x in query_texts(p)})
    say(f"encoding {len(all_texts)} query texts")
    lookup = _Lookup(embedder, all_texts, embed_cached(embedder, all_texts, settings.cache_dir))
    rs = settings.retrieval
    runs: dict[str, Run] = {}
    checks: dict[str, Any] = {}
    try:
        for m, mode in (("plain", "hybrid"), ("plain_dense", "dense")):
            if m not in methods:
                continue
            say(f"running {m}")
            runs[m] = {}
            for t in texts:
                hits = search(
                    index,
                    lookup,
                    t,
                    k=DEPTH,
                    mode=mode,  # type: ignore[arg-type]
                    candidates=max(rs.candidates, DEPTH * 2),
                    k_r=rs.k_r,
                    rrf_k=rs.rrf_k,
                )
                runs[m][t] = ([h.doc_id for h in hits], {h.doc_id: h.score for h in hits})
        if "sphere_no_compliance" in methods:
            say("running sphere_no_compliance")
            from assistant.retrieval import constraints as cmod

            weight, cmod.COMPLIANCE_WEIGHT = cmod.COMPLIANCE_WEIGHT, 0.0
            try:
                r0 = Retriever(index, lookup, rs.model_copy(update={"mode": "sphere"}))
                runs["sphere_no_compliance"] = {}
                for t in texts:
                    sides = r0.retrieve(plans[t], k=DEPTH)
                    sc = hit_scores(sides)
                    runs["sphere_no_compliance"][t] = (merge_sides(sides, DEPTH), sc)
            finally:
                cmod.COMPLIANCE_WEIGHT = weight
        if "sphere" in methods:
            say("running sphere")
            retriever = Retriever(index, lookup, rs.model_copy(update={"mode": "sphere"}))
            runs["sphere"] = {}
            for t in texts:
                sides = retriever.retrieve(plans[t], k=DEPTH)
                ranking = merge_sides(sides, DEPTH)
                sc = hit_scores(sides)
                runs["sphere"][t] = (ranking, sc)
            originals = sorted({it.original for its in items.values() for it in its})
            with_cons = [t for t in originals if plans[t].constraints]
            same = all(
                merge_sides(retriever.retrieve(replace(plans[t], constraints=[]), k=DEPTH), DEPTH)
                == runs["sphere"][t][0]
                for t in originals
            )
            checks = {"original_identical": same, "originals_with_constraints": len(with_cons)}
            parsed = {
                dim: sum(
                    1
                    for it in its
                    if plans[it.instructed].constraints and plans[it.reversed].constraints
                )
                for dim, its in items.items()
            }
            checks["instructions_parsed"] = parsed
    finally:
        index.close()
    out: dict[str, Any] = {"benchmark": "instruct", "methods": {}, "tasks": {}}
    for dim, its in items.items():
        out["tasks"][dim] = {m: score_items(its, run) for m, run in runs.items()}
    for m in runs:
        per = [out["tasks"][d][m] for d in items if items[d]]
        keys = per[0].keys() if per else []
        out["methods"][m] = {k: round(sum(p[k] for p in per) / len(per), 2) for k in keys}
    out["queries"] = {dim: len(its) for dim, its in items.items()}
    out["skipped"] = {
        "language": "the corpus is English only (py3langid)",
        "source": "the corpus records have no url, site or path",
    }
    out["checks"] = checks
    if details:
        out["items"] = {
            dim: [
                {
                    "qid": it.qid,
                    "target": it.target,
                    "detail": it.detail,
                    **{
                        m: [rank_and_score(run[getattr(it, mode)], it.target) for mode in MODES]
                        for m, run in runs.items()
                    },
                }
                for it in its
            ]
            for dim, its in items.items()
        }
    return out
