"""How an answer numbers its references: footnote numbers by first appearance, the numbers
the app, the Markdown export and ``sphere ask --session`` ("why is [3] there?") share."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.models import Reference, Summary, TurnResult


def reference_key(ref: Reference) -> tuple[str, int]:
    return (ref.doc_id, ref.passage_id)


def number_references(summary: Summary) -> dict[tuple[str, int], int]:
    """Footnote numbers 1, 2, … by first appearance across both claims.

    The same passage cited twice keeps one number, like a footnote.
    """
    numbers: dict[tuple[str, int], int] = {}
    for claim in summary.claims:
        for perspective in claim.perspectives:
            for ref in perspective.references:
                numbers.setdefault(reference_key(ref), len(numbers) + 1)
    return numbers


@dataclass
class Cited:
    """One numbered reference of an answer, with where it sits."""

    number: int
    claim: str
    side: str
    perspective: str
    ref: Reference


def cited(result: TurnResult) -> dict[int, Cited]:
    """The answer's references by footnote number (the numbers the app and export show)."""
    numbers = number_references(result.summary)
    out: dict[int, Cited] = {}
    for claim in result.summary.claims:
        for p in claim.perspectives:
            for ref in p.references:
                n = numbers[reference_key(ref)]
                out.setdefault(n, Cited(n, claim.claim, claim.side, p.text, ref))
    return out
