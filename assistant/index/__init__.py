"""Indexes: FAISS + BM25 + SQLite metadata under ``indexes/NAME/``."""

from assistant.index.build import BuildOptions, BuildReport, build_index
from assistant.index.store import Index, list_indexes, remove_index

__all__ = ["BuildOptions", "BuildReport", "Index", "build_index", "list_indexes", "remove_index"]
