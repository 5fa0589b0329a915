"""``sphere ask "QUESTION" [--index NAME] [--json | --markdown] [--no-llm] [--save]
[--lookup | --two-sided]``.

Runs the whole pass (:class:`assistant.pipeline.Pipeline`) and prints the
two-sided summary: both claims, their perspectives, and for every reference
the document's title and source and the passage quote that supports it, then
the balance report and the documents it does not cite by why (takes no side,
side unclear, taken out by you, each with the stance model's probabilities);
for a lookup question, the ranked list, each document with its aspects met
(✓, with the verified sentence) or not (✗, with the nearest sentence); for a
factual question, the passages that answer it, each with its sentence, source
and page, and a line saying it is not a debate. ``--json`` prints the
structured turn (``TurnResult.to_dict()``, plus ``documents_apart``: those
documents with their titles and probabilities), ``--markdown`` the Markdown
export. ``--save`` also records the turn in the session log. ``--lookup``
answers the question as a lookup, ``--two-sided`` as a debate, whatever intent
the question parser reads in it.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.models import FactualAnswer, Lookup, TurnResult

SIDE_LABEL = {"pro": "FOR", "con": "AGAINST"}


def _wrap(text: str, indent: str, width: int = 100, first: str | None = None) -> str:
    return textwrap.fill(
        " ".join(text.split()),
        width=width,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
    )


def render_lookup(lookup: Lookup) -> list[str]:
    """A lookup's ranked list as text lines."""
    lines = [lookup.ranking_text(), ""]
    if not lookup.rows:
        lines += ["No document in this index matches.", ""]
    for row in lookup.rows:
        src = f" — {row.source}" if row.source else ""
        met = f"    {row.met}/{len(row.aspects)} aspects" if row.aspects else ""
        head = f"{row.title or row.doc_id}{src} ({row.doc_id})    score {row.score:.3f}{met}"
        lines.append(_wrap(head, "     ", first=f"{row.rank:>3}. "))
        for m in row.aspects:
            ref = m.reference
            if ref is None:
                lines.append(_wrap(f"✗ {m.aspect}: the document has no text", "        "))
                continue
            how = f"by {ref.check}, support {ref.support:.2f}"
            said = (
                f'✓ {m.aspect}: "{ref.quote}" ({how})'
                if m.met
                else (f'✗ {m.aspect}: nearest "{ref.quote}" ({ref.check} {ref.support:.2f})')
            )
            lines.append(_wrap(said, "        ", first="      "))
        lines.append("")
    return lines


def render_answer(answer: FactualAnswer) -> list[str]:
    """A factual answer as text lines: it is not a debate; each passage with its quote."""
    lines = [_wrap(answer.ranking_text(), ""), ""]
    if not answer.rows:
        lines += ["No document in this index answers it.", ""]
    for row in answer.rows:
        ref = row.reference
        src = f" — {row.source}" if row.source else ""
        page = f", p. {ref.page}" if ref is not None and ref.page else ""
        head = f"{row.title or row.doc_id}{src} ({row.doc_id}{page})    score {row.score:.3f}"
        lines.append(_wrap(head, "     ", first=f"{row.rank:>3}. "))
        if ref is None:
            lines.append("      (the document has no text)")
        else:
            lines.append(_wrap(f'"{ref.quote}"', "      "))
        lines.append("")
    return lines


def _list_text(result: TurnResult, body: list[str]) -> str:
    """A ranked list's turn (a lookup, a factual answer): no summary, no balance."""
    lines = [f"Question: {result.question}", f"Index: {result.index}", "", *body]
    lines += [_wrap(f"Note: {note}", "") for note in result.summary.notes]
    t = result.timings
    lines.append(
        f"Time: {t.get('total', 0.0):.1f} s (understand {t.get('understand', 0.0):.1f}, "
        f"retrieve {t.get('retrieve', 0.0):.1f}, verify {t.get('verify', 0.0):.1f})"
    )
    return "\n".join(lines)


def render_apart(result: TurnResult, indent: str = "  ") -> list[str]:
    """The summarized documents the answer does not cite, by group, each with its title
    and the stance model's probabilities (``sphere ask``, ``sphere sessions show``)."""
    from assistant.summarize.balance import probabilities_text
    from assistant.summarize.correct import GROUP_TITLES, GROUP_WHY, GROUPS, documents_apart

    apart = documents_apart(result)
    lines: list[str] = []
    for group in GROUPS:
        docs = [d for d in apart if d.group == group]
        if not docs:
            continue
        lines.append(f"{indent}{GROUP_TITLES[group]} ({len(docs)}): {GROUP_WHY[group]}")
        for d in docs:
            # the probabilities first: a column that a long title cannot wrap
            said = probabilities_text(d.p) or "(no probabilities recorded)"
            head = f"{said} — {d.title or d.doc_id} ({d.doc_id})"
            lines.append(_wrap(head, indent + " " * (len(said) + 7), first=indent + "    "))
    return lines


def render_text(result: TurnResult) -> str:
    """The turn as plain, readable text (claims, perspectives, cited quotes, balance)."""
    s = result.summary
    if result.lookup is not None:
        return _list_text(result, render_lookup(result.lookup))
    if result.answer is not None:
        return _list_text(result, render_answer(result.answer))
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
                by = f" — {r.by_user} here by you" if r.by_user else ""
                lines.append(_wrap(f"[{n}] {where}{src} ({r.doc_id}{page}){by}", "      "))
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
    lines += render_apart(result)
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
@click.option(
    "--session",
    "session_id",
    type=int,
    default=None,
    help="continue a recorded session: a follow-up edits its last turn's plan (recorded there)",
)
@click.option(
    "--lookup",
    "as_lookup",
    is_flag=True,
    help="answer as a lookup (a ranked list checked against the question's aspects)",
)
@click.option(
    "--two-sided",
    "two_sided",
    is_flag=True,
    help="answer as a debate with two claims, even a factual question",
)
@pass_ctx
def ask_command(
    ctx: Context,
    question: str,
    index_name: str | None,
    as_json: bool,
    as_markdown: bool,
    no_llm: bool,
    save: bool,
    as_lookup: bool,
    two_sided: bool,
    session_id: int | None,
) -> None:
    """Answer QUESTION with a two-sided summary citing the index's documents
    (a lookup question: a ranked list, each document checked against the aspects;
    a factual question: the passages that answer it)."""
    if as_json and as_markdown:
        raise InputError("choose one of --json and --markdown")
    if as_lookup and two_sided:
        raise InputError("choose one of --lookup and --two-sided")
    if session_id is not None and (as_lookup or two_sided):
        raise InputError(
            "--lookup and --two-sided answer a new question, not a follow-up (--session)"
        )
    from assistant.pipeline import Pipeline, as_lookup_plan, as_two_sided_plan, check_question

    q = check_question(question)  # fail fast, before loading models
    settings = ctx.settings
    if no_llm:
        settings = settings.model_copy(
            update={"llm": settings.llm.model_copy(update={"use": "never"})}
        )
    if session_id is not None:
        _continue_session(settings, session_id, q, index_name, as_json, as_markdown)
        return
    pipeline = Pipeline.from_settings(settings, index_name)
    try:
        plan = None
        if as_lookup:
            plan = as_lookup_plan(pipeline.understand(q))
        elif two_sided:
            plan = as_two_sided_plan(pipeline.understand(q))
        result = pipeline.run(question, plan=plan)
    finally:
        pipeline.close()
    _show(result, as_json, as_markdown)
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


def turn_json(result: TurnResult) -> dict[str, Any]:
    """The turn as ``--json`` prints it: ``TurnResult.to_dict()`` plus the documents the
    answer keeps apart, with their titles and probabilities."""
    from assistant.summarize.correct import documents_apart

    data = result.to_dict()
    data["documents_apart"] = [d.to_dict() for d in documents_apart(result)]
    return data


def _show(result: Any, as_json: bool, as_markdown: bool) -> None:
    if as_json:
        click.echo(json.dumps(turn_json(result), indent=2, ensure_ascii=False))
    elif as_markdown:
        from assistant.export import turn_to_markdown

        click.echo(turn_to_markdown(result), nl=False)
    else:
        click.echo(render_text(result))


def _continue_session(
    settings: Any,
    session_id: int,
    question: str,
    index_name: str | None,
    as_json: bool,
    as_markdown: bool,
) -> None:
    """``sphere ask Q --session ID``: resolve Q against the session's last turn, answer
    (from the log for questions about the answer), and record the turn in the session."""
    from assistant.pipeline import Pipeline
    from assistant.store import SessionStore
    from assistant.thread import base_turn, describe_follow, next_step, reply_turn
    from assistant.understand.facet_judge import shared_judge

    shared_judge().configure(settings)
    with SessionStore(settings.session_db) as store:
        turns = [t for t in store.turns(session_id) if t.status == "done"]
        base = base_turn(turns)
        if base is None:
            raise InputError(f"session {session_id} has no answered turn to follow")
        step = next_step(question, turns)
        if step.reply:
            turn_id = store.add_turn(session_id, reply_turn(question, step, base.result))
            if as_json:
                click.echo(
                    json.dumps(
                        {
                            "question": question,
                            "turn": turn_id,
                            "follows": step.follows,
                            "followup": describe_follow(step.follow),
                            "answer": step.reply,
                        },
                        indent=2,
                        ensure_ascii=False,
                    )
                )
            else:
                click.echo(step.reply)
            return
        pipeline = Pipeline.from_settings(settings, index_name or base.result.index or None)
        try:
            result = pipeline.run(question, plan=step.plan, skip=step.skip)  # type: ignore[arg-type]
        finally:
            pipeline.close()
        store.add_turn(session_id, result)
    if not as_json and not as_markdown and step.plan is not None:
        click.echo(f"Follows turn {step.follows}: " + "; ".join(step.changes))
    _show(result, as_json, as_markdown)
