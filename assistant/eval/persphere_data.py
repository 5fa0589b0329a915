"""PerSphere data and the harness's cached corpus index (paper 004; data README §1a).

``data.jsonl`` holds one query per line: ``title`` (the question), ``t1``/``t2``
(the two opposing claims), ``response1``/``response2`` (the perspectives of each
claim) and ``favor_ids``/``against_ids`` (the single supporting document of
each perspective, by position). ``doc_new.jsonl`` holds ``{"id", "content"}``
records.

The corpus is indexed with the same builder as ``sphere index build`` (same
chunking, same FAISS/BM25 stores), once, under
``cache_dir / "persphere" / <key>`` where the key hashes the embedder name, the
corpus bytes and the chunking settings; later runs open the finished index.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.embed import Embedder
from assistant.errors import DataError, InputError
from assistant.index.build import BuildOptions, build_index
from assistant.index.store import Index
from assistant.ingest.chunk import DEFAULT_MAX_WORDS, DEFAULT_OVERLAP_WORDS
from assistant.ingest.loaders import FieldMapping

INDEX_NAME = "corpus"
#: bump when the way the harness builds its index changes
INDEX_VERSION = "1"


@dataclass(frozen=True)
class PerSphereQuery:
    """One PerSphere instance: question, two claims, per-side gold documents."""

    qid: str
    title: str
    claims: tuple[str, str]
    perspectives: tuple[tuple[str, ...], tuple[str, ...]]
    favor_ids: tuple[str, ...]
    against_ids: tuple[str, ...]

    @property
    def topic(self) -> str:
        """The task: the prefix of ``id`` before the last underscore (``living``, …).

        Whitespace is dropped: one id in the shared file reads ``politic s_…``.
        """
        return "".join(self.qid.rsplit("_", 1)[0].split())

    @property
    def gold(self) -> set[str]:
        return set(self.favor_ids) | set(self.against_ids)

    @property
    def perspective_docs(self) -> list[set[str]]:
        """D_j for every perspective p_j (paper 004 eq. 3): one document each here."""
        return [{d} for d in self.favor_ids] + [{d} for d in self.against_ids]


def load_queries(path: Path) -> list[PerSphereQuery]:
    """Read ``data.jsonl``; a bad line is a :class:`DataError` naming it."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"data file not found: {path}", hint="pass --data …/data.jsonl")
    out: list[PerSphereQuery] = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                out.append(
                    PerSphereQuery(
                        qid=str(r["id"]),
                        title=str(r["title"]),
                        claims=(str(r.get("t1", "")), str(r.get("t2", ""))),
                        perspectives=(
                            tuple(map(str, r.get("response1", []))),
                            tuple(map(str, r.get("response2", []))),
                        ),
                        favor_ids=tuple(str(x) for x in r["favor_ids"]),
                        against_ids=tuple(str(x) for x in r["against_ids"]),
                    )
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise DataError(
                    f"{path}:{n} is not a PerSphere record ({type(exc).__name__}: {exc})",
                    hint="expected the fields id, title, t1, t2, favor_ids, against_ids",
                ) from None
    if not out:
        raise DataError(f"{path} holds no queries")
    return out


def corpus_index_key(corpus: Path, embedder_name: str, options: BuildOptions) -> str:
    h = hashlib.sha256()
    for part in (INDEX_VERSION, embedder_name, str(options.max_words), str(options.overlap_words)):
        h.update(part.encode("utf-8") + b"\x00")
    with open(corpus, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:20]


def corpus_index_for(settings: Any, corpus: Path | str, embedder: Embedder) -> Index:
    """:func:`open_corpus_index` with the cache folder and chunking from ``settings``."""
    return open_corpus_index(
        Path(corpus),
        embedder,
        settings.cache_dir,
        max_words=settings.chunking.max_words,
        overlap_words=settings.chunking.overlap_words,
    )


def open_corpus_index(
    corpus: Path,
    embedder: Embedder,
    cache_dir: Path,
    *,
    max_words: int = DEFAULT_MAX_WORDS,
    overlap_words: int = DEFAULT_OVERLAP_WORDS,
    kind: str = "persphere",
    mapping: FieldMapping | None = None,
) -> Index:
    """The harness's index of ``corpus``: built once, then reopened from the cache.

    ``kind`` names the cache folder (``cache_dir / kind / <key>``; one mapping per
    kind, so the key need not cover it); ``mapping`` defaults to PerSphere's
    ``{"id", "content"}`` records.
    """
    corpus = Path(corpus)
    if not corpus.is_file():
        raise InputError(f"corpus file not found: {corpus}", hint="pass --corpus …/doc_new.jsonl")
    options = BuildOptions(
        max_words=max_words,
        overlap_words=overlap_words,
        mapping=mapping or FieldMapping(id_field="id", text_field="content"),
    )
    folder = Path(cache_dir).expanduser() / kind / corpus_index_key(corpus, embedder.name, options)
    try:
        return Index.open(folder, INDEX_NAME, embedder_name=embedder.name)
    except Exception:  # absent or unfinished: (re)build, which resumes an interrupted build
        pass
    build_index(folder, INDEX_NAME, [corpus], embedder, options)
    return Index.open(folder, INDEX_NAME, embedder_name=embedder.name)
