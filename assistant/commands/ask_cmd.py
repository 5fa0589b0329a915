"""``sphere ask "QUESTION" [--index NAME] [--json | --markdown] [--no-llm] [--save]``.

Runs the whole pass (:class:`assistant.pipeline.Pipeline`) and prints the
two-sided summary: both claims, their perspectives, and for every reference
the document's title and source and the passage quote that supports it, then
the balance report. ``--json`` prints the structured turn
(``TurnResult.to_dict()``), ``--markdown`` the Markdown export. ``--save``
also records the turn in the session log.
"""

from __future__ import annotations

import json
import textwrap

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.models import TurnResult

SIDE_LABEL = {"pro": "FOR", "con": "AGAINST"}


def _wrap(text: str, indent: str, width: int = 100, first: str | None = None) -> str:
    return textwrap.fill(
        " ".join(text.split()),
        width=width,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
    )


def render_text(result: TurnResult) -> str:
    """The turn as plain, readable text (claims, perspectives, cited quotes, balance)."""
    s = result.summary
    lines = [f"Question: {result.question}", f"Index: {result.index}    Summary: {s.method}", ""]
    n = 0
    for claim in s.claims:
        lines.append(f"{SIDE_LABEL.get(claim.side, claim.side)}: {claim.claim}")
        if claim.note and not claim.perspectives:
            lines.append(_wrap(claim.note, "  "))
        for p in claim.perspectives:
            lines.append(_wrap(p.text, "    ", 100, first="  * "))
            for r in p.references:
                n += 1
                where = r.title or r.doc_id
                src = f" — {r.source}" if r.source else ""
                page = f", p. {r.page}" if r.page else ""
                lines.append(_wrap(f"[{n}] {where}{src} ({r.doc_id}{page})", "      "))
                lines.append(_wrap(f'"{r.quote}"', "        "))
                lines.append(f"        support {r.support:.2f} by {r.check}")
        lines.append("")
    b = s.balance
    lines.append(f"Balance (lopsidedness {b.lopsidedness:.2f}; 0 = even, 1 = one side only):")
    for sb in b.sides:
        lines.append(
            f"  {SIDE_LABEL.get(sb.side, sb.side):8s} {sb.documents_cited} documents, "
            f"{sb.distinct_sources} sources, {sb.perspectives} perspectives, "
            f"mean retrieval score {sb.mean_retrieval_score:.3f}"
        )
    if b.unused_doc_ids:
        lines.append(_wrap("Retrieved but not cited: " + ", ".join(b.unused_doc_ids), "  "))
    for note in s.notes:
        lines.append(_wrap(f"Note: {note}", ""))
    t = result.timings
    lines.append(
        f"Time: {t.get('total', 0.0):.1f} s (understand {t.get('understand', 0.0):.1f}, "
        f"retrieve {t.get('retrieve', 0.0):.1f}, summarize {t.get('summarize', 0.0):.1f}, "
        f"verify {t.get('verify', 0.0):.1f})"
    )
    return "\n".join(lines)


@click.command("ask")
@click.argument("question")
@click.option("--index", "index_name", default=None, help="index to search (default: settings)")
@click.option("--json", "as_json", is_flag=True, help="print the structured turn as JSON")
@click.option("--markdown", "as_markdown", is_flag=True, help="print the Markdown export")
@click.option("--no-llm", is_flag=True, help="do not load the language model")
@click.option("--save", is_flag=True, help="also record the turn in the session log")
@pass_ctx
def ask_command(
    ctx: Context,
    question: str,
    index_name: str | None,
    as_json: bool,
    as_markdown: bool,
    no_llm: bool,
    save: bool,
) -> None:
    """Answer QUESTION with a two-sided summary citing the index's documents."""
    if as_json and as_markdown:
        raise InputError("choose one of --json and --markdown")
    from assistant.pipeline import Pipeline, check_question

    check_question(question)  # fail fast, before loading models
    settings = ctx.settings
    if no_llm:
        settings = settings.model_copy(
            update={"llm": settings.llm.model_copy(update={"use": "never"})}
        )
    pipeline = Pipeline.from_settings(settings, index_name)
    try:
        result = pipeline.run(question)
    finally:
        pipeline.close()
    if save:
        from assistant.store import SessionStore

        with SessionStore(settings.session_db) as store:
            sid = store.create_session(
                index=result.index,
                settings=settings.public_dict(),
                model=result.model,
                embedder=str(result.model.get("embedder", "")),
            )
            store.add_turn(sid, result)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    elif as_markdown:
        from assistant.export import turn_to_markdown

        click.echo(turn_to_markdown(result), nl=False)
    else:
        click.echo(render_text(result))
