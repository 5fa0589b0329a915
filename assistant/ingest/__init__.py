"""Ingestion: loaders per format and chunking with provenance."""

from assistant.ingest.chunk import chunk_document
from assistant.ingest.loaders import FieldMapping, LoadResult, Skipped, load_file, walk_paths

__all__ = ["FieldMapping", "LoadResult", "Skipped", "chunk_document", "load_file", "walk_paths"]
