"""``sphere search NAME "query"``."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx


@click.command("search")
@click.argument("name")
@click.argument("query")
@click.option("--k", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option(
    "--mode", type=click.Choice(["dense", "bm25", "hybrid"]), default="dense", show_default=True
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
    for h in hits:
        click.secho(f"{h.rank:>3}. [{h.score:.4f}] {h.title}", bold=True)
        click.echo(f"     id {h.doc_id} · {h.source}")
        bp = h.best_passage
        if bp:
            where = f"page {bp.page}, " if bp.page else ""
            snippet = " ".join(bp.text.split())
            snippet = snippet[:240] + ("…" if len(snippet) > 240 else "")
            click.echo(f"     {where}chars {bp.start}-{bp.end}: {snippet}")
