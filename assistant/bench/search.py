"""``sphere bench search``: retrieval latency on synthetic vectors, as ratios to plain search.

A real index folder is built in a temporary directory by the real builder
(:func:`assistant.index.build.build_index`) over synthetic documents, with a
synthetic embedder that maps each passage text to a unit vector near its
topic's centre (dimension 384, clustered like real embeddings, deterministic).
Documents have two passages each. Per query, round-robin (so machine load
hits every method alike):

* ``plain`` — one FAISS search with the question vector, top ``candidates``
  (the work ``sphere search --mode dense`` does in FAISS): the reference;
* ``pap`` — the PAP query q_p searched in FAISS, scores cos(q_p, c);
* ``pap_plus`` — the same search, candidates re-scored to PAP+ with one dot
  product each (DESIGN §4, :meth:`Projection.rescore_plus`);
* ``aspect_fusion`` — three aspect vectors in one batched FAISS search, late
  fusion passages → documents per aspect, AMean across aspects;
* ``sphere`` — the full :class:`Retriever` in ``sphere`` mode from precomputed
  query vectors (everything but the encoder: FAISS, BM25, re-scoring, fusion,
  side assignment, hydration from SQLite).

It also counts how often the candidate re-scored PAP+ top-10 differs from exact
PAP+ (brute force over every passage).
"""

from __future__ import annotations

import json
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.models import Aspect, QueryPlan

DIM = 384
_WORDS_PER_TOPIC = 12


class SyntheticEmbedder:
    """Texts → unit vectors near the centre of the topic named by their ``tNNN`` token.

    Deterministic: the noise is seeded by the text's CRC-32, so the same text
    always gets the same vector.
    """

    def __init__(self, n_topics: int, dim: int = DIM, noise: float = 0.9, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        c = rng.standard_normal((n_topics, dim)).astype(np.float32)
        self.centres = c / np.linalg.norm(c, axis=1, keepdims=True)
        self.stances = rng.standard_normal((2, dim)).astype(np.float32)
        self.stances /= np.linalg.norm(self.stances, axis=1, keepdims=True)
        self.noise = noise
        self.dim = dim
        self.name = f"synthetic-{dim}-{n_topics}-{seed}"

    def _vector(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(zlib.crc32(text.encode("utf-8")))
        v = rng.standard_normal(self.dim).astype(np.float32) * (self.noise / np.sqrt(self.dim))
        for tok in text.split():
            if tok[:1] == "t" and tok[1:].isdigit():
                v += self.centres[int(tok[1:]) % len(self.centres)]
            elif tok == "favour":
                v += 0.5 * self.stances[0]
            elif tok == "against":
                v += 0.5 * self.stances[1]
        return v / max(float(np.linalg.norm(v)), 1e-12)

    def encode(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        out = np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, self.dim))
        if progress:
            progress(len(texts))
        return out.astype(np.float32)


def _vocab(topic: int) -> list[str]:
    return [f"w{topic}x{j}" for j in range(_WORDS_PER_TOPIC)]


def write_corpus(path: Path, n_passages: int, n_topics: int, seed: int = 0) -> None:
    """A JSONL corpus of ``n_passages // 2`` documents of two 8-word passages each."""
    rng = np.random.default_rng(seed)
    stance = ("favour", "against", "neutral")
    with open(path, "w", encoding="utf-8") as fh:
        for d in range(max(1, n_passages // 2)):
            t = int(rng.integers(n_topics))
            words = _vocab(t)
            halves = []
            for _ in range(2):
                pick = rng.choice(words, 5, replace=False).tolist()
                halves.append(" ".join([f"t{t}", stance[int(rng.integers(3))], *pick, f"d{d}"]))
            fh.write(json.dumps({"id": str(d), "content": " ".join(halves)}) + "\n")


def build_synthetic(
    folder: Path, n_passages: int, *, n_topics: int | None = None, hnsw: bool = False
) -> tuple[Any, SyntheticEmbedder]:
    """Build (with the real builder) and open a synthetic index; return (Index, embedder)."""
    from assistant.index.build import BuildOptions, build_index
    from assistant.index.store import Index
    from assistant.ingest.loaders import FieldMapping

    n_topics = n_topics or max(10, n_passages // 200)
    folder.mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus.jsonl"
    write_corpus(corpus, n_passages, n_topics)
    emb = SyntheticEmbedder(n_topics)
    options = BuildOptions(
        max_words=8,
        overlap_words=0,
        batch_passages=20_000,
        flat_threshold=0 if hnsw else 10**9,
        mapping=FieldMapping(id_field="id", text_field="content"),
    )
    build_index(folder / "idx", "bench", [corpus], emb, options)
    return Index.open(folder / "idx", "bench"), emb


def make_plans(n: int, n_topics: int, seed: int = 1) -> list[QueryPlan]:
    """Questions with two claims and three aspects, all on one topic each."""
    rng = np.random.default_rng(seed)
    plans = []
    for i in range(n):
        t = int(rng.integers(n_topics))
        w = _vocab(t)
        question = f"t{t} {w[0]} {w[1]} {w[2]} q{i}"
        plans.append(
            QueryPlan(
                question=question,
                root_query=question,
                claims=(f"t{t} favour {w[0]} {w[3]}", f"t{t} against {w[0]} {w[4]}"),
                aspects=[Aspect(f"t{t} {w[j]}") for j in (5, 6, 7)],
            )
        )
    return plans


def _pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs) * 1000.0, q))


ExactTop = Callable[[np.ndarray, np.ndarray, int], np.ndarray]


def exact_pap_plus_in_memory(index: Any) -> ExactTop:
    """Exact PAP+ top-k by brute force over every live passage (fits in memory)."""
    from assistant.retrieval.fusion import top_k_indices
    from assistant.retrieval.pap import Projection

    all_pids = np.sort(index.meta.live_rows()[0])
    all_vecs = index.vectors(all_pids)

    def exact(q: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
        return all_pids[top_k_indices(Projection.of(q, p).pap_plus(all_vecs), k)]

    return exact


def time_methods(
    index: Any,
    emb: Any,
    plans: Sequence[QueryPlan],
    *,
    k: int = 10,
    candidates: int = 200,
    exact_top: ExactTop | None = None,
    exact_queries: int | None = None,
) -> dict[str, Any]:
    """Time plain, PAP, PAP+, aspect fusion and ``sphere`` per query on an open index.

    Returns ``methods`` (p50/p95 ms and ratios to plain) and, when ``exact_top``
    is given, how often candidate re-scored PAP+ differs from exact PAP+ (on
    the first ``exact_queries`` queries when given: at 10M passages each exact
    answer is a pass over the whole vector file).
    """
    from assistant.config import RetrievalSettings
    from assistant.index.search import late_fusion_rows
    from assistant.retrieval.fusion import aggregate_aspect_scores, top_k_indices
    from assistant.retrieval.pap import Projection
    from assistant.retrieval.retriever import Retriever, query_texts

    settings = RetrievalSettings(mode="sphere", k=k, candidates=candidates)  # type: ignore[call-arg]
    retriever = Retriever(index, emb, settings)
    times: dict[str, list[float]] = {
        m: [] for m in ("plain", "pap", "pap_plus", "aspect_fusion", "sphere")
    }
    differ = 0
    checked = 0
    n_exact = len(plans) if exact_queries is None else min(exact_queries, len(plans))

    def timed(name: str, fn: Callable[[], Any]) -> Any:
        a = time.perf_counter()
        out = fn()
        times[name].append(time.perf_counter() - a)
        return out

    # one warm-up query so first-call costs (imports, caches) are not measured
    texts0 = query_texts(plans[0])
    retriever.retrieve_encoded(plans[0], emb.encode(texts0), k=k)
    index.search_dense(emb.encode(texts0[:1]), candidates)
    for plan in plans:
        texts = query_texts(plan)
        qv = emb.encode(texts)
        q = qv[0]
        p = emb.encode([plan.claims[1].split(" ", 1)[1]])[0]  # the "against …" phrase
        aspects = emb.encode([a.text for a in plan.aspects])

        def plain(q: np.ndarray = q) -> Any:
            return index.search_dense(q[None, :], candidates)

        def pap(q: np.ndarray = q, p: np.ndarray = p) -> Any:
            proj = Projection.of(q, p)
            s, ids = index.search_dense(proj.q_p[None, :], candidates)
            return s[0] / max(proj.q_p_norm, 1e-12), ids[0]

        def pap_plus(q: np.ndarray = q, p: np.ndarray = p) -> np.ndarray:
            proj = Projection.of(q, p)
            s, ids = index.search_dense(proj.q_p[None, :], candidates)
            ok = ids[0] >= 0
            cand = ids[0][ok]
            c_dot_p = index.vectors(cand) @ proj.p
            sc = proj.rescore_plus(s[0][ok], c_dot_p)
            return cand[top_k_indices(sc, k)]

        def aspect_fusion(aspects: np.ndarray = aspects) -> np.ndarray:
            _s, ids = index.search_dense(aspects, candidates)
            pool = np.unique(ids[ids >= 0])
            sc = aspects @ index.vectors(pool).T
            rows = index.doc_index(pool)
            per = []
            for a in range(len(aspects)):
                docs, fused = late_fusion_rows(rows, sc[a], 1)
                per.append(dict(zip(docs.tolist(), fused.tolist(), strict=True)))
            keys = sorted(set().union(*per))
            mat = np.array([[d.get(x, np.nan) for x in keys] for d in per])
            agg = aggregate_aspect_scores(mat, "amean")
            return np.asarray(keys)[top_k_indices(agg, k)]

        def sphere(plan: QueryPlan = plan, qv: np.ndarray = qv) -> Any:
            return retriever.retrieve_encoded(plan, qv, k=k)

        timed("plain", plain)
        timed("pap", pap)
        cand_top = timed("pap_plus", pap_plus)
        timed("aspect_fusion", aspect_fusion)
        timed("sphere", sphere)
        if exact_top is not None and checked < n_exact:
            checked += 1
            if not np.array_equal(np.asarray(cand_top), exact_top(q, p, k)):
                differ += 1
    ref50, ref95 = _pct(times["plain"], 50), _pct(times["plain"], 95)
    methods = {}
    for name, ts in times.items():
        p50, p95 = _pct(ts, 50), _pct(ts, 95)
        methods[name] = {
            "p50_ms": round(p50, 3),
            "p95_ms": round(p95, 3),
            "ratio_p50": round(p50 / ref50, 3),
            "ratio_p95": round(p95 / ref95, 3),
        }
    out: dict[str, Any] = {"queries": len(plans), "candidates": candidates, "methods": methods}
    if exact_top is not None:
        out["pap_plus_exact_checked"] = checked
        out["pap_plus_rescored_differs_from_exact"] = differ
        out["pap_plus_rescored_identical_pct"] = round(
            100.0 * (checked - differ) / max(checked, 1), 2
        )
    return out


def bench_size(
    n_passages: int,
    *,
    queries: int = 50,
    k: int = 10,
    candidates: int = 200,
    hnsw: bool = False,
    workdir: Path | None = None,
) -> dict[str, Any]:
    """Latency per method (ms, p50/p95, ratio to plain) and PAP+ exactness at one size."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        t0 = time.perf_counter()
        index, emb = build_synthetic(Path(tmp), n_passages, hnsw=hnsw)
        build_s = time.perf_counter() - t0
        try:
            plans = make_plans(queries, len(emb.centres))
            timing = time_methods(
                index,
                emb,
                plans,
                k=k,
                candidates=candidates,
                exact_top=exact_pap_plus_in_memory(index),
            )
        finally:
            index.close()
    return {
        "passages": n_passages,
        "dim": DIM,
        "faiss": "hnsw" if hnsw else "flat",
        "build_seconds": round(build_s, 1),
        **timing,
    }


def run_bench(
    sizes: Sequence[int] = (10_000, 100_000),
    *,
    queries: int = 50,
    candidates: int = 200,
    hnsw: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    out: dict[str, Any] = {"benchmark": "search", "sizes": {}}
    for n in sizes:
        say(f"{n} passages: building the index and timing {queries} queries")
        out["sizes"][str(n)] = bench_size(n, queries=queries, candidates=candidates, hnsw=hnsw)
    return out
