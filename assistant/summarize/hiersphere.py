"""HierSphere: local summaries over groups of documents, then an editorial merge.

Paper 004 (PerSphere) eq. 1 fixes the output: q → c0: {p0j, [D0j]}; c1: {p1j,
[D1j]} — two claims, each with one-sentence perspectives citing the documents
that support them. §5 (HierSphere, Fig. 8) produces it hierarchically: several
local summarizers each see a set of the retrieved documents (four agents over
20 documents in the paper), then an editorial agent merges perspectives with
equal meaning (with the union of their references) and refines them (App. C).
§4.4 found that document order matters, so documents are ordered by retrieval
score inside every group.

Two paths behind :func:`summarize`:

* ``deterministic`` (no model): per document, an evidence sentence chosen by
  relevance to the question and claims plus centrality in the document; the
  side from a stance signal (embedding similarity to claim 1 vs claim 2,
  centred over the pool) plus the retrieval side; perspectives merged by
  embedding similarity (greedy clustering); each perspective is the evidence
  sentence, whole (only a list marker before it removed).
* ``model``: the paper's prompts (``prompts/local_summary.yaml``, Fig. 5;
  ``prompts/editorial_merge.yaml``, App. C) under JSON-schema constrained
  decoding whose reference ids are an enum of the documents shown, so the
  model cannot cite a document it was not given. A failed model call falls back
  to the deterministic answer for that step.

The editorial step always works on structured data (lists of perspectives with
document ids), never on re-parsed text. The result is a draft: references are
checked by :mod:`assistant.summarize.verify` before anyone sees them.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from assistant.config import STANCE_MIN_CONFIDENCE, SUMMARY_RELEVANCE_RATIO
from assistant.errors import CancelledError, SphereError
from assistant.models import (
    ClaimSummary,
    Progress,
    QueryPlan,
    Reference,
    Side,
    Summary,
    SummaryPerspective,
)
from assistant.stance.units import StanceUnit
from assistant.summarize.evidence import (
    Sentence,
    SourceDoc,
    judgement_at,
    shape_penalty,
    unit_rows,
)
from assistant.summarize.sides import judged_passages_only, place_by_stance, stance_sides

SIDES: tuple[Side, Side] = ("pro", "con")
SummaryPath = Literal["deterministic", "model"]
ProgressFn = Callable[[Progress], None]


@dataclass
class SummaryOptions:
    """How to summarize. Defaults are the measured choices (``sphere eval summary``)."""

    groups: int = 4  # local summarizers (paper 004 §5: four agents)
    documents: int = 20  # documents summarized (paper 004 §5: 20)
    max_perspectives: int = 4  # per claim, after the editorial merge
    # per claim and group, model path only (the schema's maxItems); a deterministic local
    # summary keeps max_perspectives, because a local cap only drops documents the
    # editorial merge could still cite (measured: HierSphere fell below vanilla with 2)
    local_max: int = 2
    path: SummaryPath = "deterministic"
    # greedy clustering: two perspectives on one side with cosine >= this are one
    merge_threshold: float = 0.8
    # a summarized document not cited yet is added as a reference of the kept
    # perspective on its side that one of its sentences supports with cosine >= this
    # (the verifier's similarity threshold); None = off
    attach_threshold: float | None = 0.6
    # evidence sentence score = w * relevance + (1 - w) * centrality
    relevance_weight: float = 0.5
    # side score = z(stance) + w * retrieval side (+1 pro / -1 con)
    retrieval_side_weight: float = 1.0
    # words of each document shown to the model
    model_doc_words: int = 120
    # the answer schema is tightened per call: perspectives per claim, characters per
    # perspective (a one-sentence perspective needs no more; a 135M model otherwise
    # fills the prompt file's looser limits and takes minutes on 2 cores)
    model_perspective_chars: int = 160
    model_max_tokens: int | None = None  # None = the prompt file's max_tokens
    # a document is off-topic (not summarized) when its best sentence's cosine with
    # the question is below max(floor, ratio × the best document's)
    relevance_floor: float = 0.2
    relevance_ratio: float = SUMMARY_RELEVANCE_RATIO
    # experiment, off: a quoted sentence must itself reach max(floor, this × the best
    # document's relevance) (summarize.sides.quote_relevance_gate)
    quote_relevance_ratio: float | None = None
    # with a stance model: a document goes under a claim only when the model's
    # probability for it reaches this; below, it takes no side and is not cited
    stance_min_confidence: float = STANCE_MIN_CONFIDENCE
    # sentences of a document the stance model reads (the most relevant ones; a sentence
    # model only: a passage model reads the document's retrieved passages whole)
    stance_sentences: int = 12
    # a document's evidence sentence for a side: relevance/centrality + this weight ×
    # (cos to that side's claim − cos to the other claim); not tuned
    claim_lean_weight: float = 0.5
    # passages the stance model reads for one answer: every document's best passage,
    # then further passages of the best-ranked documents while this many allow (the
    # cost of an answer follows what was retrieved, not how long the documents are)
    stance_passages: int = 30
    # what the stance model judges within a read passage: "paragraph" (each paragraph
    # apart, so a passage holding a point and its counter takes both sides) or
    # "passage" (whole, as before; kept so the evaluation can rerun it)
    stance_unit: StanceUnit = "paragraph"
    # a side's quote that, read alone, argues the other claim is replaced by the first of
    # its next this many sentences (best first) that leans to its own; a bound on the
    # sentences read again, not tuned
    quote_retries: int = 4


@dataclass
class Candidate:
    """A perspective before verification: text, side, cited documents, evidence."""

    text: str
    side: Side
    doc_ids: list[str]
    score: float
    evidence: dict[str, Sentence] = field(default_factory=dict)  # doc id -> sentence
    vec: np.ndarray | None = None
    group: int = 0


@dataclass
class LocalSummary:
    """What one local summarizer produced for its group of documents."""

    group: int
    doc_ids: list[str]
    perspectives: list[Candidate]
    method: str = "deterministic"
    # deterministic path: the one-document candidates the perspectives were merged from
    candidates: list[Candidate] = field(default_factory=list)

    def to_data(self, labels: dict[str, str] | None = None) -> dict[str, Any]:
        """Plain data (the editorial agent's input), claims in paper order (pro, con)."""
        lab = labels or {}
        return {
            "claims": [
                {
                    "side": side,
                    "perspectives": [
                        {"text": c.text, "references": [lab.get(d, d) for d in c.doc_ids]}
                        for c in self.perspectives
                        if c.side == side
                    ],
                }
                for side in SIDES
            ]
        }


@dataclass
class Draft:
    """The merged, unverified summary plus what produced it."""

    summary: Summary
    locals: list[LocalSummary]
    candidates: list[Candidate]
    doc_sides: dict[str, Side]
    notes: list[str] = field(default_factory=list)
    sentence_vecs: dict[str, np.ndarray] = field(default_factory=dict)
    off_topic: list[str] = field(default_factory=list)
    stance: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    no_side: list[str] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)
    passage_stance: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    # the documents as summarized (with a stance model: only the passages it judged,
    # judged_passages_only); ``sentence_vecs`` are their sentences' vectors, in order
    docs: list[SourceDoc] = field(default_factory=list)
    # (passage id, sentence start) -> its paragraph's judgement, for passages judged
    # paragraph by paragraph (evidence.judgement_at reads both)
    unit_stance: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)


# --------------------------------------------------------------------------- grouping


def make_groups(docs: Sequence[SourceDoc], n_groups: int) -> list[list[SourceDoc]]:
    """Split the pool into ``n_groups`` sets, each ordered by retrieval rank.

    Documents are dealt round-robin by pool rank (rank 1 to group 1, rank 2 to
    group 2, …) so every local summarizer sees a slice of the whole ranking —
    both sides and both high- and lower-ranked documents — rather than the
    first summarizer getting all the best ones. Inside a group the order is by
    rank (paper 004 §4.4: order matters, the best first). Empty groups are dropped.
    """
    n = max(1, int(n_groups))
    ordered = sorted(docs, key=lambda d: d.rank)
    groups: list[list[SourceDoc]] = [[] for _ in range(n)]
    for i, d in enumerate(ordered):
        groups[i % n].append(d)
    return [g for g in groups if g]


# --------------------------------------------------------------------------- text helpers

# a list marker before a sentence ("2. ", "- ", "Q: "): not a word of it
_LIST_MARKER = re.compile(r"^(?:\d{1,3}[.)]|[-*•–]|Q:|A:|Q\.|A\.)\s+")


def condense(sentence: str) -> str:
    """A sentence as a perspective: the whole sentence, its list marker removed.

    A perspective's text is a whole sentence of its document (issue 34), so it
    keeps its opening words ("However, …", "For example …"): with them cut, 128
    of the 2,145 texts of the saved-debate-pages answers started inside a
    sentence. Only the first letter may be capitalised, so the perspective can
    be found in its source text.
    """
    s = " ".join(sentence.split())
    m = _LIST_MARKER.match(s)
    rest = s[m.end() :] if m and len(s[m.end() :].split()) >= 3 else s
    return rest[:1].upper() + rest[1:]


def first_sentence(text: str, max_chars: int = 300) -> str:
    """The first sentence of a model's perspective (paper 004: one sentence each)."""
    t = " ".join(str(text).split())
    m = re.search(r"[.!?](?=\s+[A-Z\"“])", t)
    if m:
        t = t[: m.end()]
    return t[:max_chars].strip()


# --------------------------------------------------------------------------- stance


def stance_scores(diffs: np.ndarray, retrieval_sides: np.ndarray, weight: float) -> np.ndarray:
    """Side score per document: > 0 means the first claim (pro).

    ``diffs[i] = cos(e_i, c_pro) − cos(e_i, c_con)`` for document i's most
    claim-leaning sentence e_i; ``retrieval_sides[i]`` is +1 when the pro
    retrieval ranked it higher, −1 for con, 0 for a tie. MiniLM embeds "X" and
    "not X" close together, so the raw difference carries a bias common to
    every document of a question; centring on the pool median removes it
    (measured on Theperspective: 57.0 → 58.7 % of gold documents on the right
    side), and dividing by the spread puts it on the scale of the retrieval
    term. score_i = (diffs_i − median) / (std + ε) + weight · retrieval_sides_i.
    """
    d = np.asarray(diffs, dtype=np.float64)
    if d.size == 0:
        return d
    z = (d - np.median(d)) / (d.std() + 1e-6)
    return z + float(weight) * np.asarray(retrieval_sides, dtype=np.float64)


def retrieval_side(doc: SourceDoc) -> float:
    """+1 when the pro retrieval ranked ``doc`` higher, −1 for con, 0 when tied/unknown."""
    rp, rc = doc.side_ranks.get("pro"), doc.side_ranks.get("con")
    if rp is None and rc is None:
        return 0.0
    if rc is None:
        return 1.0
    if rp is None:
        return -1.0
    return float(np.sign(rc - rp))


# --------------------------------------------------------------------------- deterministic


@dataclass
class Prepared:
    """Embeddings of the question, claims and every sentence of the pool."""

    docs: list[SourceDoc]
    claims: tuple[str, str]
    claim_vecs: np.ndarray  # (2, dim)
    query_vec: np.ndarray  # (dim,)
    sent_vecs: dict[str, np.ndarray]  # doc id -> (n_sentences, dim)
    evidence: dict[str, int] = field(default_factory=dict)  # doc id -> sentence index
    sides: dict[str, Side] = field(default_factory=dict)
    side_score: dict[str, float] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)  # doc id -> best sentence cos
    off_topic: list[str] = field(default_factory=list)
    # stance model: doc id -> (P(pro), P(con), P(neither)); documents it places under
    # neither claim are in no_side ("takes no side"), documents it leans on without
    # reaching the confidence it needs are in unclear ("side unclear"); neither is cited
    stance: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    no_side: list[str] = field(default_factory=list)
    unclear: list[str] = field(default_factory=list)
    # passage id -> the passage's own (P(pro), P(con), P(neither))
    passage_stance: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    # (passage id, sentence start) -> the judgement of the paragraph holding that
    # sentence, where a passage was judged paragraph by paragraph
    unit_stance: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)
    # doc id -> the sides it is cited under, its main side first (a page that argues
    # both claims, passage by passage, has both); (doc id, side) -> its evidence sentence
    # and the sentences that side may quote (those of the passages arguing it)
    side_sets: dict[str, list[Side]] = field(default_factory=dict)
    evidence_at: dict[tuple[str, Side], int] = field(default_factory=dict)
    side_sentences: dict[tuple[str, Side], np.ndarray] = field(default_factory=dict)

    def sides_of(self, doc_id: str) -> list[Side]:
        """The sides ``doc_id`` is cited under (its one side without a stance model)."""
        if doc_id in self.side_sets:
            return self.side_sets[doc_id]
        side = self.sides.get(doc_id)
        return [side] if side is not None else []

    def judged_at(self, ev: Sentence | None) -> tuple[float, float, float] | None:
        """The stance model's own reading of the passage part holding ``ev`` (None: unread)."""
        if ev is None:
            return None
        return judgement_at(self.passage_stance, self.unit_stance, ev.passage_id, ev.start)

    def evidence_of(self, doc_id: str, side: Side) -> int:
        return self.evidence_at.get((doc_id, side), self.evidence[doc_id])


def sentence_vectors(
    docs: Sequence[SourceDoc], embedder: Any, cache: dict[str, np.ndarray] | None = None
) -> dict[str, np.ndarray]:
    """Unit vectors of each document's sentences: stored with the index at build time
    (``SourceDoc.stored_vectors``, :mod:`assistant.index.sentences`), or embedded one
    document per batch.

    A batch pads its texts to the longest and sums in other blocks, which moves
    a vector's last bits: embedded together with other documents' sentences, a
    document's vectors would depend on which documents came along, and through
    ``cache`` on what was asked before. One batch per document makes them depend
    on the document alone (issue 17). ``cache`` is read and filled, keyed by the
    document and its sentences' texts: an answer summarizes the passages retrieval
    found, so one document brings other sentences to another question, and a key of
    the document alone would hand that question the vectors of the first's.
    """
    cache = cache if cache is not None else {}
    out: dict[str, np.ndarray] = {}
    for d in docs:
        got = _stored(d)
        if got is not None:
            out[d.doc_id] = got
    docs = [d for d in docs if d.doc_id not in out]
    keys = {d.doc_id: _sentences_key(d) for d in docs}
    todo: dict[str, list[str]] = {}
    for d in docs:
        if keys[d.doc_id] not in cache:
            todo[keys[d.doc_id]] = [s.text for s in d.sentences]
    groups = list(todo.values())
    if hasattr(embedder, "encode_groups"):  # the documents' batches spread over the cores
        vecs = embedder.encode_groups(groups)
    else:
        vecs = [embedder.encode(g) for g in groups]
    for key, v in zip(todo, vecs, strict=True):
        cache[key] = unit_rows(np.asarray(v, dtype=np.float32))
    out.update({d.doc_id: cache[keys[d.doc_id]] for d in docs})
    return out


def _stored(d: SourceDoc) -> np.ndarray | None:
    """``d``'s sentence vectors from those its index stored, passage by passage (None:
    a passage of it has none, or a sentence's span is not one its passage stored)."""
    if not d.stored_vectors or not d.sentences:
        return None
    rows: list[np.ndarray] = []
    where: dict[int, dict[tuple[int, int], int]] = {}
    for s in d.sentences:
        got = d.stored_vectors.get(s.passage_id)
        if got is None:
            return None
        at = where.get(s.passage_id)
        if at is None:
            at = where[s.passage_id] = {(int(a), int(b)): i for i, (a, b) in enumerate(got[0])}
        i = at.get((s.start, s.end))
        if i is None:
            return None
        rows.append(got[1][i])
    return unit_rows(np.stack(rows).astype(np.float32))


def _sentences_key(d: SourceDoc) -> str:
    """The cache key of a document's sentence vectors: its id and its sentences."""
    h = hashlib.blake2b(digest_size=16)
    for s in d.sentences:
        h.update(s.text.encode("utf-8") + b"\x00")
    return f"{d.doc_id}\x00{h.hexdigest()}"


def claims_of(plan: QueryPlan) -> tuple[str, str]:
    """The plan's two claims; an empty one falls back to the root query."""
    root = plan.root_query or plan.question
    a, b = plan.claims
    return (a.strip() or root, b.strip() or f"Not: {root}")


def prepare(
    plan: QueryPlan,
    docs: Sequence[SourceDoc],
    embedder: Any,
    options: SummaryOptions,
    sentence_cache: dict[str, np.ndarray] | None = None,
    stance: Any = None,
) -> Prepared:
    """Embed sentences, pick each document's evidence sentence and side.

    ``sentence_cache`` (doc id -> unit sentence vectors) is read and filled, so a
    caller answering many questions over one index embeds each document once.
    With a ``stance`` model the sides and evidence sentences come from it
    (:func:`stance_sides`); without one, from the claim margin below.
    """
    claims = claims_of(plan)
    vecs = unit_rows(
        np.asarray(embedder.encode([plan.root_query or plan.question, *claims]), np.float32)
    )
    prep = Prepared(
        docs=list(docs),
        claims=claims,
        claim_vecs=vecs[1:3],
        query_vec=vecs[0],
        sent_vecs=sentence_vectors(docs, embedder, sentence_cache),
    )
    diffs, rsides, with_text = [], [], []
    w = options.relevance_weight
    for d in docs:
        sv = prep.sent_vecs[d.doc_id]
        if len(sv) == 0:
            continue
        to_query = sv @ prep.query_vec
        prep.relevance[d.doc_id] = float(to_query.max())
        rel = np.max(np.stack([to_query, sv @ prep.claim_vecs[0], sv @ prep.claim_vecs[1]]), axis=0)
        cent = sv @ unit_rows(sv.mean(axis=0))
        shape = np.array([shape_penalty(s.text) for s in d.sentences])
        prep.evidence[d.doc_id] = int(np.argmax(w * rel + (1 - w) * cent - shape))
        diff = sv @ prep.claim_vecs[0] - sv @ prep.claim_vecs[1]
        diffs.append(float(diff[np.argmax(np.abs(diff))]))
        rsides.append(retrieval_side(d))
        with_text.append(d.doc_id)
    if stance is not None:
        stance_sides(prep, plan, stance, options)
    else:
        scores = stance_scores(np.array(diffs), np.array(rsides), options.retrieval_side_weight)
        for doc_id, sc in zip(with_text, scores, strict=True):
            prep.side_score[doc_id] = float(sc)
            prep.sides[doc_id] = "pro" if sc >= 0 else "con"
    if prep.relevance:
        gate = max(options.relevance_floor, options.relevance_ratio * max(prep.relevance.values()))
        # below the gate, and (the quote gate's experiment) those with no sentence near
        # the question to quote
        quoteless = [k for k in prep.off_topic if prep.relevance.get(k, 0.0) >= gate]
        prep.off_topic = [k for k, v in prep.relevance.items() if v < gate] + quoteless
    return prep


def _cluster(cands: list[Candidate], threshold: float) -> list[Candidate]:
    """Greedy merge, best first: a candidate joins the first kept perspective on its
    side whose representative has cosine ≥ ``threshold``; references are united
    and scores added (support from several documents ranks a perspective higher)."""
    kept: list[Candidate] = []
    for c in sorted(cands, key=lambda x: -x.score):
        target = None
        if c.vec is not None:
            for k in kept:
                if k.side == c.side and k.vec is not None and float(k.vec @ c.vec) >= threshold:
                    target = k
                    break
        if target is None:
            kept.append(
                Candidate(
                    c.text, c.side, list(c.doc_ids), c.score, dict(c.evidence), c.vec, c.group
                )
            )
            continue
        for doc_id in c.doc_ids:
            if doc_id not in target.doc_ids:
                target.doc_ids.append(doc_id)
                if doc_id in c.evidence:
                    target.evidence[doc_id] = c.evidence[doc_id]
        target.score += c.score
    return kept


def _cap(cands: list[Candidate], per_side: int) -> list[Candidate]:
    out: list[Candidate] = []
    for side in SIDES:
        side_c = sorted((c for c in cands if c.side == side), key=lambda x: -x.score)
        out.extend(side_c[:per_side])
    return out


def local_deterministic(
    group: int, docs: Sequence[SourceDoc], prep: Prepared, options: SummaryOptions, cap: int
) -> LocalSummary:
    """One local summarizer without a model: one candidate per document, merged."""
    cands = []
    for d in docs:
        if d.doc_id in prep.off_topic:
            continue
        for side in prep.sides_of(d.doc_id):
            i = prep.evidence_of(d.doc_id, side)
            sent = d.sentences[i]
            cands.append(
                Candidate(
                    text=condense(sent.text),
                    side=side,
                    doc_ids=[d.doc_id],
                    # reciprocal pool rank: retrieval is the better judge of relevance
                    score=1.0 / max(d.rank, 1),
                    evidence={d.doc_id: sent},
                    vec=prep.sent_vecs[d.doc_id][i],
                    group=group,
                )
            )
    merged = _cap(_cluster(cands, options.merge_threshold), cap)
    return LocalSummary(group, [d.doc_id for d in docs], merged, "deterministic", cands)


def attach_support(
    final: list[Candidate], prep: Prepared, docs: Sequence[SourceDoc], threshold: float
) -> None:
    """Cite every summarized document that supports a kept perspective on its side.

    Paper 004 eq. 1 gives each perspective p_ij the set D_ij of documents that
    support it, not one document. After the cap, a document d on side s that no
    kept perspective cites yet is added to the perspective p on side s with the
    highest max over d's sentences e of cos(e, p), when that reaches
    ``threshold``; its evidence is that sentence. Only the document's own side
    is searched, and only the sentences that side may quote (a page that argues
    both claims is cited under each from its own passages). In place.
    """
    cited = {(doc_id, c.side) for c in final for doc_id in c.doc_ids}
    for d in sorted(docs, key=lambda x: x.rank):
        sv = prep.sent_vecs.get(d.doc_id)
        if sv is None or not len(sv):
            continue
        for side in prep.sides_of(d.doc_id):
            if (d.doc_id, side) in cited:
                continue
            allowed = prep.side_sentences.get((d.doc_id, side), np.arange(len(sv)))
            best: tuple[float, Candidate, int] | None = None
            for c in final:
                if c.side != side or c.vec is None:
                    continue
                sims = sv[allowed] @ c.vec
                j = int(np.argmax(sims))
                if float(sims[j]) >= threshold and (best is None or float(sims[j]) > best[0]):
                    best = (float(sims[j]), c, int(allowed[j]))
            if best is not None:
                _sim, c, i = best
                c.doc_ids.append(d.doc_id)
                c.evidence[d.doc_id] = d.sentences[i]
                cited.add((d.doc_id, side))


def editorial_deterministic(
    locals_: Sequence[LocalSummary], options: SummaryOptions
) -> list[Candidate]:
    """The editorial merge on structured data: equal perspectives merged, capped per claim.

    A deterministic local summary hands over its one-document candidates, not
    only its merged representatives: re-clustering representatives chains merges
    differently from one pass over the same candidates, and on Theperspective
    that left HierSphere a hair below vanilla (148 queries: citation recall
    52.33 vs 52.44, recall@0.6 45.97 vs 46.08). Over the candidates the
    editorial result is the single pass's whatever the grouping.
    """
    pool = [c for loc in locals_ for c in (loc.candidates or loc.perspectives)]
    return _cap(_cluster(pool, options.merge_threshold), options.max_perspectives)


# --------------------------------------------------------------------------- model path


def _doc_block(label: str, d: SourceDoc, words: int) -> str:
    body = " ".join(d.text.split()[:words])
    title = " ".join(d.title.split())
    # documents are data: newlines flattened, so a document cannot fake a new section
    return f"[{label}] {title}: {body}" if title else f"[{label}] {body}"


def tighten_schema(schema: dict[str, Any], perspectives: int, chars: int) -> dict[str, Any]:
    """A copy of a summary schema with at most ``perspectives`` per claim and
    ``chars`` characters per perspective text (never looser than the file's)."""

    def walk(node: Any, key: str = "") -> Any:
        if isinstance(node, dict):
            out = {k: walk(v, k) for k, v in node.items()}
            if key == "perspectives" and out.get("type") == "array":
                out["maxItems"] = min(int(out.get("maxItems", perspectives)), perspectives)
            if key == "text" and out.get("type") == "string":
                out["maxLength"] = min(int(out.get("maxLength", chars)), chars)
            return out
        if isinstance(node, list):
            return [walk(v, key) for v in node]
        return node

    result: dict[str, Any] = walk(schema)
    return result


def _model_candidates(
    data: dict[str, Any],
    labels: dict[str, str],
    group: int,
    prep: Prepared,
    embedder: Any,
) -> list[Candidate]:
    """Candidates from a schema-valid model answer (claims[0] = pro, claims[1] = con)."""
    out: list[Candidate] = []
    texts: list[str] = []
    for side, claim in zip(SIDES, data.get("claims", [])[:2], strict=False):
        for p in claim.get("perspectives", []):
            text = first_sentence(p.get("text", ""))
            ids = [labels[r] for r in dict.fromkeys(p.get("references", [])) if r in labels]
            if len(text.split()) < 3 or not ids:
                continue
            out.append(Candidate(text, side, ids, float(len(ids)), group=group))
            texts.append(text)
    if texts:
        vecs = unit_rows(np.asarray(embedder.encode(texts), dtype=np.float32))
        for c, v in zip(out, vecs, strict=True):
            c.vec = v
            # rank model perspectives like deterministic ones: best cited document first
            c.score += sum(1.0 / max(_rank(prep, d), 1) for d in c.doc_ids)
    return out


def _rank(prep: Prepared, doc_id: str) -> int:
    for d in prep.docs:
        if d.doc_id == doc_id:
            return d.rank
    return 10**6


def local_model(
    group: int,
    docs: Sequence[SourceDoc],
    plan: QueryPlan,
    prep: Prepared,
    labels: dict[str, str],
    backend: Any,
    prompts: Any,
    embedder: Any,
    options: SummaryOptions,
    cancel: threading.Event | None,
) -> LocalSummary:
    """One local summarizer with the model (paper 004 Fig. 5), ids restricted by enum."""
    prompt = prompts.get("local_summary")
    inv = {doc_id: lab for lab, doc_id in labels.items()}
    ids = [inv[d.doc_id] for d in docs]
    words = max(30, min(options.model_doc_words, 1800 // max(len(docs), 1)))
    values = {
        "query": plan.root_query or plan.question,
        "claim_pro": prep.claims[0],
        "claim_con": prep.claims[1],
        "documents": "\n".join(_doc_block(inv[d.doc_id], d, words) for d in docs),
        "reference_ids_text": ", ".join(ids),
        "reference_ids": ids,
    }
    cap = options.local_max if options.groups > 1 else options.max_perspectives
    data = backend.json(
        prompt.messages(**values),
        tighten_schema(prompt.schema_for(**values), cap, options.model_perspective_chars),
        max_tokens=options.model_max_tokens or prompt.max_tokens,
        cancel=cancel,
    )
    cands = _model_candidates(data, {i: labels[i] for i in ids}, group, prep, embedder)
    merged = _cap(_cluster(cands, options.merge_threshold), cap)
    return LocalSummary(group, [d.doc_id for d in docs], merged, "model")


def editorial_model(
    locals_: Sequence[LocalSummary],
    plan: QueryPlan,
    prep: Prepared,
    labels: dict[str, str],
    backend: Any,
    prompts: Any,
    embedder: Any,
    options: SummaryOptions,
    cancel: threading.Event | None,
) -> list[Candidate]:
    """The editorial agent (paper 004 App. C) on the local summaries as JSON data."""
    prompt = prompts.get("editorial_merge")
    inv = {doc_id: lab for lab, doc_id in labels.items()}
    cited = list(
        dict.fromkeys(inv[d] for loc in locals_ for c in loc.perspectives for d in c.doc_ids)
    )
    if not cited:
        return []
    summaries = json.dumps([loc.to_data(inv) for loc in locals_], ensure_ascii=False)
    values = {
        "query": plan.root_query or plan.question,
        "summaries": summaries,
        "reference_ids_text": ", ".join(cited),
        "reference_ids": cited,
    }
    data = backend.json(
        prompt.messages(**values),
        tighten_schema(
            prompt.schema_for(**values), options.max_perspectives, options.model_perspective_chars
        ),
        max_tokens=options.model_max_tokens or prompt.max_tokens,
        cancel=cancel,
    )
    cands = _model_candidates(data, {i: labels[i] for i in cited}, -1, prep, embedder)
    return _cap(_cluster(cands, options.merge_threshold), options.max_perspectives)


# --------------------------------------------------------------------------- driver


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise CancelledError("the answer was cancelled")


def summarize(
    plan: QueryPlan,
    docs: Sequence[SourceDoc],
    embedder: Any,
    options: SummaryOptions | None = None,
    *,
    backend: Any = None,
    prompts: Any = None,
    progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
    sentence_cache: dict[str, np.ndarray] | None = None,
    stance: Any = None,
) -> Draft:
    """Documents → unverified two-claim summary (paper 004 eq. 1, §5).

    ``options.groups == 1`` is the vanilla single pass (every document in one
    local summary, no editorial merge); more groups is HierSphere. The model
    path needs ``backend`` and ``prompts``; a model step that fails falls back
    to the deterministic answer for that step (recorded in ``Draft.notes``).
    With a ``stance`` model, documents are placed under claims by it on both
    paths (:func:`~assistant.summarize.sides.stance_sides`; on the model path
    :func:`~assistant.summarize.sides.place_by_stance`
    moves a perspective whose documents the stance model puts under the
    other claim).
    """
    opts = options or SummaryOptions()
    docs = sorted(docs, key=lambda d: d.rank)[: opts.documents]
    if stance is not None:
        docs = judged_passages_only(docs, opts.stance_passages)
    prep = prepare(plan, docs, embedder, opts, sentence_cache, stance=stance)
    off = set(prep.off_topic)
    groups = make_groups([d for d in docs if d.doc_id not in off], opts.groups)
    hier = len(groups) > 1
    cap = opts.max_perspectives
    use_model = opts.path == "model" and backend is not None and prompts is not None
    labels = {f"doc_{i}": d.doc_id for i, d in enumerate(docs, 1)}
    notes: list[str] = []
    if opts.path == "model" and not use_model:
        notes.append("model path requested but no model is loaded; used the deterministic path")
    locals_: list[LocalSummary] = []
    for gi, group in enumerate(groups):
        _check(cancel)
        if progress:
            progress(Progress("summarizing", gi + 1, len(groups), f"local summary {gi + 1}"))
        loc = None
        if use_model:
            try:
                loc = local_model(
                    gi, group, plan, prep, labels, backend, prompts, embedder, opts, cancel
                )
            except CancelledError:
                raise
            except SphereError as exc:
                notes.append(f"local summary {gi + 1}: model failed ({exc.title}); deterministic")
        if loc is None:
            loc = local_deterministic(gi, group, prep, opts, cap)
        locals_.append(loc)
    _check(cancel)
    if progress:
        progress(Progress("merging", 1, 1, "editorial merge"))
    final: list[Candidate] | None = None
    if not hier:
        final = _cap(locals_[0].perspectives, opts.max_perspectives) if locals_ else []
    elif use_model:
        try:
            final = editorial_model(
                locals_, plan, prep, labels, backend, prompts, embedder, opts, cancel
            )
        except CancelledError:
            raise
        except SphereError as exc:
            notes.append(f"editorial merge: model failed ({exc.title}); deterministic")
    if final is None:
        final = editorial_deterministic(locals_, opts)
    elif prep.stance:
        place_by_stance(final, prep, opts)
    if opts.attach_threshold is not None:
        attach_support(final, prep, [d for d in docs if d.doc_id not in off], opts.attach_threshold)
    summary = to_summary(plan, prep, final, method="model" if use_model else "deterministic")
    summary.notes.extend(notes)
    return Draft(
        summary,
        locals_,
        final,
        dict(prep.sides),
        notes,
        dict(prep.sent_vecs),
        list(prep.off_topic),
        dict(prep.stance),
        list(prep.no_side),
        list(prep.unclear),
        dict(prep.passage_stance),
        list(prep.docs),
        dict(prep.unit_stance),
    )


def _reference_stance(prep: Prepared, doc_id: str, ev: Sentence | None, side: Side) -> float | None:
    """P(the claim it is cited under) of a reference: its quote's passage's own when that
    passage was judged, else the document's."""
    k = SIDES.index(side)
    own = prep.judged_at(ev)
    if own is not None:
        return round(own[k], 4)
    if doc_id in prep.stance:
        return round(prep.stance[doc_id][k], 4)
    return None


def to_summary(plan: QueryPlan, prep: Prepared, final: Sequence[Candidate], method: str) -> Summary:
    """Candidates → :class:`Summary` with two claims; references carry evidence hints."""
    by_doc = {d.doc_id: d for d in prep.docs}
    claims = []
    for side, claim in zip(SIDES, prep.claims, strict=True):
        persp = []
        for c in sorted((c for c in final if c.side == side), key=lambda x: -x.score):
            refs = []
            for doc_id in c.doc_ids:
                d = by_doc.get(doc_id)
                ev = c.evidence.get(doc_id)
                refs.append(
                    Reference(
                        doc_id=doc_id,
                        title=d.title if d else "",
                        source=d.source if d else "",
                        path=d.path if d else "",
                        page=ev.page if ev else None,
                        passage_id=ev.passage_id if ev else -1,
                        quote=ev.text if ev else "",
                        quote_start=ev.start if ev else -1,
                        quote_end=ev.end if ev else -1,
                        retrieval_score=d.score if d else 0.0,
                        stance=_reference_stance(prep, doc_id, ev, side),
                    )
                )
            persp.append(SummaryPerspective(c.text, refs))
        claims.append(ClaimSummary(claim=claim, side=side, perspectives=persp))
    return Summary(question=plan.question, claims=claims, method=method)
