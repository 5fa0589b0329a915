"""``sphere search NAME "query" [--mode dense|bm25|hybrid|sphere]``.

The plain modes print one ranked list. ``sphere`` reads the query with the
rules (no model: the claims, perspectives, aspects and constraints of
:func:`assistant.understand.parse_rules`), runs the perspective-aware
:class:`~assistant.retrieval.retriever.Retriever` and prints one list per
claim, with any note a constraint left (e.g. too few documents meet it).
"""

from __future__ import annotations

import json
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx


@click.command("search")
@click.argument("name")
@click.argument("query")
@click.option("--k", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option(
    "--mode",
    type=click.Choice(["dense", "bm25", "hybrid", "sphere"]),
    default="dense",
    show_default=True,
    help="sphere: two ranked lists, one per claim (the query read by the rules)",
)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def search_command(ctx: Context, name: str, query: str, k: int, mode: str, as_json: bool) -> None:
    """Rank the documents of index NAME for QUERY (late fusion of passages)."""
    from assistant.errors import InputError
    from assistant.index.search import search
    from assistant.index.store import Index

    if not query.strip():
        raise InputError("the query is empty", hint='sphere search NAME "some words"')
    s = ctx.settings
    index = Index.open(s.index_dir, name)
    try:
        embedder = None
        if mode != "bm25":
            from assistant.embed import embedder_from_settings

            embedder = embedder_from_settings(s)
            if embedder.name != index.embedder_name:
                from assistant.errors import IndexMismatchError

                raise IndexMismatchError(
                    f"index '{name}' was built with '{index.embedder_name}', "
                    f"the configured embedder is '{embedder.name}'",
                    hint="use --mode bm25, or rebuild the index with this embedder",
                )
        if mode == "sphere":
            assert embedder is not None
            _sphere(index, embedder, query, k, as_json, s, name)
            return
        hits = search(
            index,
            embedder,
            query,
            k=k,
            mode=mode,  # type: ignore[arg-type]
            candidates=max(s.retrieval.candidates, k * 5),
            k_r=s.retrieval.k_r,
            rrf_k=s.retrieval.rrf_k,
        )
    finally:
        index.close()
    if as_json:
        click.echo(
            json.dumps(
                {"index": name, "query": query, "mode": mode, "hits": [h.to_dict() for h in hits]},
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    if not hits:
        click.echo("No results.")
    _print_hits(hits)


def _sphere(
    index: Any, embedder: Any, query: str, k: int, as_json: bool, s: Any, name: str
) -> None:
    from assistant.models import SIDES
    from assistant.retrieval.retriever import Retriever
    from assistant.understand import parse_rules

    plan = parse_rules(query)
    retriever = Retriever(index, embedder, s.retrieval.model_copy(update={"mode": "sphere"}))
    sides = retriever.retrieve(plan, k=k)
    if as_json:
        out = {
            "index": name,
            "query": query,
            "mode": "sphere",
            "plan": plan.to_dict(),
            "sides": {side: [h.to_dict() for h in hits] for side, hits in sides.items()},
            "notes": retriever.last_notes,
        }
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for side, claim in zip(SIDES, plan.claims, strict=False):
        label = "FOR" if side == "pro" else "AGAINST"
        click.secho(f"{label}: {claim or '(no claim)'}", bold=True, underline=True)
        if not sides[side]:
            click.echo("  No results.")
        _print_hits(sides[side])
        click.echo()
    for note in retriever.last_notes:
        click.echo(f"Note: {note}")


def _print_hits(hits: list[Any]) -> None:
    for h in hits:
        click.secho(f"{h.rank:>3}. [{h.score:.4f}] {h.title}", bold=True)
        click.echo(f"     id {h.doc_id} · {h.source}")
        if getattr(h, "copies", None):
            click.echo(f"     same passage also in: {', '.join(h.copies)}")
        bp = h.best_passage
        if bp:
            where = f"page {bp.page}, " if bp.page else ""
            snippet = " ".join(bp.text.split())
            snippet = snippet[:240] + ("…" if len(snippet) > 240 else "")
            click.echo(f"     {where}chars {bp.start}-{bp.end}: {snippet}")
