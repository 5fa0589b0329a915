"""``sphere bench index``: indexing throughput against the raw encoder.

The reference is ``SentenceTransformer.encode`` alone on exactly the passage
texts the index build embeds, in the same process, with the same batch size.
Runs alternate (encode, build, encode, build, …) so drift in machine load hits
both; the ratio of medians is reported. Target (DESIGN §7): ≥ 0.9.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from assistant.errors import InputError


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_index_bench(
    settings: Any,
    paths: list[Path],
    *,
    text_field: str | None = None,
    id_field: str | None = None,
    rounds: int = 2,
) -> dict[str, Any]:
    from assistant.embed import embedder_from_settings
    from assistant.index.build import BuildOptions, build_index
    from assistant.ingest.chunk import chunk_document
    from assistant.ingest.loaders import FieldMapping, load_file, walk_paths

    embedder = embedder_from_settings(settings)
    mapping = FieldMapping(id_field=id_field, text_field=text_field)
    files, _ = walk_paths(paths)
    texts: list[str] = []
    n_docs = 0
    for f in files:
        res = load_file(f, mapping=mapping)
        for doc in res.documents:
            n_docs += 1
            texts.extend(
                p.text
                for p in chunk_document(
                    doc.doc_id,
                    doc.text,
                    max_words=settings.chunking.max_words,
                    overlap_words=settings.chunking.overlap_words,
                    pages=res.pages.get(doc.doc_id),
                )
            )
    if not texts:
        raise InputError("no documents to index in the given paths")
    model = embedder.model
    # warm-up: first call pays for lazy initialisation
    model.encode(texts[:64], batch_size=settings.embedder.batch_size, show_progress_bar=False)
    encode_s: list[float] = []
    build_s: list[float] = []
    options = BuildOptions(
        max_words=settings.chunking.max_words,
        overlap_words=settings.chunking.overlap_words,
        mapping=mapping,
        rebuild=True,
    )
    with tempfile.TemporaryDirectory(prefix="sphere-bench-") as tmp:
        for _ in range(rounds):
            t = time.perf_counter()
            model.encode(
                texts,
                batch_size=settings.embedder.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            encode_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            report = build_index(Path(tmp), "bench", paths, embedder, options)
            build_s.append(time.perf_counter() - t)
    enc = statistics.median(encode_s)
    bld = statistics.median(build_s)
    return {
        "documents": n_docs,
        "passages": len(texts),
        "encoder_seconds": enc,
        "build_seconds": bld,
        "encoder_passages_per_s": len(texts) / enc,
        "index_passages_per_s": len(texts) / bld,
        "index_docs_per_s": n_docs / bld,
        "ratio": enc / bld,
        "rounds": rounds,
        "runs": {"encode": encode_s, "build": build_s},
        "indexed_documents": report.documents,
        "peak_rss_mb": peak_rss_mb(),
    }
