"""The balance report attached to every summary (issue 5, item 3).

Per side: documents cited, distinct sources, mean retrieval score of the cited
documents, perspectives. Plus the documents retrieved but not cited, and one
number for how one-sided the answer is:

    lopsidedness = |n_pro − n_con| / (n_pro + n_con)

where n_side is the number of distinct documents cited under that side. It is
0 when both sides cite as many documents (or neither cites any: nothing to be
lopsided about) and 1 when only one side has support. Documents, not
perspectives, are counted, because a side can look balanced with many
perspectives resting on one source.

The documents the answer does not cite are kept apart by why: "takes no side"
(the stance model says neither claim), "side unclear" (it cannot tell: it leans
to a claim without the confidence it needs, or the quote it would stand on, read
alone, argues the other claim), "taken out by you" (a correction,
:mod:`assistant.summarize.correct`) and retrieved but not cited (the rest).
"""

from __future__ import annotations

from collections.abc import Iterable

from assistant.models import SIDES, BalanceReport, SideBalance, Summary


def lopsidedness(n_pro: int, n_con: int) -> float:
    """|n_pro − n_con| / (n_pro + n_con), 0 when both are 0."""
    total = n_pro + n_con
    return abs(n_pro - n_con) / total if total else 0.0


def balance_report(
    summary: Summary,
    retrieved_doc_ids: Iterable[str],
    no_side: Iterable[str] = (),
    unclear: Iterable[str] = (),
    stance: dict[str, tuple[float, float, float]] | dict[str, list[float]] | None = None,
    taken_out: Iterable[str] = (),
) -> BalanceReport:
    """Count what each side of ``summary`` rests on; list retrieved documents not used.

    ``no_side`` are the summarized documents the stance model says take neither
    claim's side, ``unclear`` those whose side it cannot tell with the confidence
    it needs, ``taken_out`` those the user took out of the answer; all are counted
    apart, not as unused. ``stance`` (doc id -> (P(pro), P(con), P(neither))) is
    kept for every judged document, cited or not, so that a correction can record
    the model's own judgment of the document it corrects.
    """
    sides = []
    cited_all: set[str] = set()
    for side in SIDES:
        claims = [c for c in summary.claims if c.side == side]
        refs = [r for c in claims for p in c.perspectives for r in p.references]
        docs: dict[str, float] = {}
        sources: set[str] = set()
        for r in refs:
            docs.setdefault(r.doc_id, r.retrieval_score)
            # a document without a source name counts as its own source
            sources.add(r.source.strip().lower() or f"doc:{r.doc_id}")
        cited_all.update(docs)
        sides.append(
            SideBalance(
                side=side,
                documents_cited=len(docs),
                distinct_sources=len(sources),
                mean_retrieval_score=round(sum(docs.values()) / len(docs), 6) if docs else 0.0,
                perspectives=sum(len(c.perspectives) for c in claims),
            )
        )
    removed = [d for d in dict.fromkeys(taken_out) if d not in cited_all]
    neither = [d for d in dict.fromkeys(no_side) if d not in cited_all and d not in removed]
    unsure = [
        d
        for d in dict.fromkeys(unclear)
        if d not in cited_all and d not in neither and d not in removed
    ]
    apart = {*neither, *unsure, *removed}
    unused = [d for d in dict.fromkeys(retrieved_doc_ids) if d not in cited_all and d not in apart]
    judged = stance or {}
    return BalanceReport(
        sides=sides,
        lopsidedness=round(lopsidedness(sides[0].documents_cited, sides[1].documents_cited), 6),
        unused_doc_ids=unused,
        no_side_doc_ids=neither,
        unclear_doc_ids=unsure,
        stance_p={d: [round(float(x), 4) for x in p] for d, p in judged.items()},
        removed_doc_ids=removed,
    )


def probabilities_text(p: list[float] | tuple[float, ...] | None) -> str:
    """The stance model's three probabilities as shown everywhere:
    ``"pro 0.41 · con 0.33 · neither 0.26"`` ("" when they were not recorded)."""
    if not p or len(p) != 3:
        return ""
    return f"pro {p[0]:.2f} · con {p[1]:.2f} · neither {p[2]:.2f}"
