"""Counts in words that agree with their number: "1 document", "2 documents".

Every count a person reads (the CLI, the app, the export) goes through :func:`count`,
so none says "1 documents" (issue 36).
"""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the singular for one, else in the plural (``noun + "s"``, or
    ``plural`` for a noun that does not take an -s: "index", "indexes")."""
    return f"{n} {noun_for(n, noun, plural)}"


def noun_for(n: int, noun: str, plural: str | None = None) -> str:
    """The noun alone, as :func:`count` would write it after ``n``."""
    return noun if n == 1 else (plural or noun + "s")
