"""``sphere ask "QUESTION" [--index NAME] [--json | --markdown] [--no-llm] [--no-log]
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
export. Every answer is recorded in the session log, as the ``llm`` CLI logs
its prompts (``--no-log``, or ``logging.enabled: false``, skips it; ``--save``
is the old ``--log``), and the session and turn are printed on stderr.
``--lookup`` answers the question as a lookup, ``--two-sided`` as a debate,
whatever intent the question parser reads in it.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.locations import document_label, shown_location
from assistant.models import FactualAnswer, Lookup, TurnResult
from assistant.wording import count

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
        met = f"    {row.met}/{count(len(row.aspects), 'aspect')}" if row.aspects else ""
        head = cited_as(row.title, row.source, row.doc_id, row.path)
        head += f"    score {row.score:.3f}{met}"
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


def cited_as(title: str, source: str, doc_id: str, path: str, page: int | None = None) -> str:
    """``Title — Source (id, p. 3)``, each part once: a file's source, id and path are the
    same path; a demo record's path is "demo corpus, record 13"."""
    where = title or doc_id
    source = shown_location(source)
    src = f" — {source}" if source and source != where else ""
    inside = [document_label(doc_id, where, source, path), f"p. {page}" if page else ""]
    details = ", ".join(x for x in inside if x)
    return f"{where}{src}" + (f" ({details})" if details else "")


def render_answer(answer: FactualAnswer) -> list[str]:
    """A factual answer as text lines: it is not a debate; each passage with its quote."""
    lines = [_wrap(answer.ranking_text(), ""), ""]
    if not answer.rows:
        lines += ["No document in this index answers it.", ""]
    for row in answer.rows:
        ref = row.reference
        page = ref.page if ref is not None else None
        head = cited_as(row.title, row.source, row.doc_id, row.path, page)
        lines.append(_wrap(f"{head}    score {row.score:.3f}", "     ", first=f"{row.rank:>3}. "))
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
            where = d.title or d.doc_id
            label = document_label(d.doc_id, where)
            head = f"{said} — {where}" + (f" ({label})" if label else "")
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
                head = cited_as(r.title, r.source, r.doc_id, r.path, r.page)
                by = f" — {r.by_user} here by you" if r.by_user else ""
                lines.append(_wrap(f"[{n}] {head}{by}", "      "))
                lines.append(_wrap(f'"{r.quote}"', "        "))
                lines.append(f"        support {r.support:.2f} by {r.check}")
        lines.append("")
    b = s.balance
    lines.append(f"Balance (lopsidedness {b.lopsidedness:.2f}; 0 = even, 1 = one side only):")
    for sb in b.sides:
        lines.append(
            f"  {SIDE_LABEL.get(sb.side, sb.side):8s} {count(sb.documents_cited, 'document')}, "
            f"{count(sb.distinct_sources, 'source')}, {count(sb.perspectives, 'perspective')}, "
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


LOG_HELP = (
    "record the answer in the session log, or not (default: logging.enabled in the "
    "settings, true unless changed; as the llm CLI logs its prompts)"
)


@click.command("ask")
@click.argument("question")
@click.option("--index", "index_name", default=None, help="index to search (default: settings)")
@click.option("--json", "as_json", is_flag=True, help="print the structured turn as JSON")
@click.option("--markdown", "as_markdown", is_flag=True, help="print the Markdown export")
@click.option("--no-llm", is_flag=True, help="do not load the language model")
@click.option("--log/--no-log", "log", default=None, help=LOG_HELP)
@click.option(
    "--save",
    is_flag=True,
    help="the same as --log, kept for older scripts: answers are logged by default now",
)
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
    log: bool | None,
    save: bool,
    as_lookup: bool,
    two_sided: bool,
    session_id: int | None,
) -> None:
    """Answer QUESTION with a two-sided summary citing the index's documents
    (a lookup question: a ranked list, each document checked against the aspects;
    a factual question: the passages that answer it).

    The answer is recorded in the session log (a new session, or the one --session
    names) and the session and turn are printed on stderr; --no-log skips that."""
    if as_json and as_markdown:
        raise InputError("choose one of --json and --markdown")
    if save and log is False:
        raise InputError("--save records the answer and --no-log does not: choose one")
    if as_lookup and two_sided:
        raise InputError("choose one of --lookup and --two-sided")
    if session_id is not None and (as_lookup or two_sided):
        raise InputError(
            "--lookup and --two-sided answer a new question, not a follow-up (--session)"
        )
    from assistant.pipeline import Pipeline, as_lookup_plan, as_two_sided_plan

    q = _checked(question)  # fail fast, before loading models
    settings = ctx.settings
    if no_llm:
        settings = settings.model_copy(
            update={"llm": settings.llm.model_copy(update={"use": "never"})}
        )
    keep = save or (settings.logging.enabled if log is None else log)
    if session_id is not None:
        _continue_session(settings, session_id, q, index_name, as_json, as_markdown, keep)
        return
    from assistant.store import SessionStore

    # opened first: a log that cannot be written stops the command before the answer's work
    store = _open_log(SessionStore, settings.session_db) if keep else None
    try:
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
        if store is not None:
            sid = store.create_session(
                index=result.index,
                settings=settings.public_dict(),
                model=result.model,
                embedder=str(result.model.get("embedder", "")),
            )
            store.add_turn(sid, result)
            _say_logged(sid, 1)
    finally:
        if store is not None:
            store.close()


def _checked(question: str) -> str:
    """The question (:func:`check_question`), or an error that says it is empty and how
    to ask one with this command."""
    from assistant.pipeline import check_question

    if not question.strip():
        raise InputError(
            "the question is empty",
            hint='ask one in quotes, e.g. sphere ask "Should school uniforms be mandatory?"',
        )
    return check_question(question)


def _open_log(store_class: Any, path: Any) -> Any:
    from assistant.errors import StoreError

    try:
        return store_class(path)
    except StoreError as exc:
        hint = "; ".join(x for x in (exc.hint, "--no-log answers without recording") if x)
        raise StoreError(exc.message, hint=hint) from None


def _say_logged(session_id: int, number: int) -> None:
    """Where the answer was recorded, on stderr (stdout stays the answer or its JSON)."""
    click.echo(
        f"Logged as session {session_id}, turn {number} "
        f"(follow up with --session {session_id}; sphere sessions show {session_id})",
        err=True,
    )


def turn_json(result: TurnResult) -> dict[str, Any]:
    """The turn as ``--json`` prints it: ``TurnResult.to_dict()`` plus the documents the
    answer keeps apart, with their titles and probabilities."""
    from assistant.summarize.correct import documents_apart

    data = result.to_dict()
    data["documents_apart"] = [d.to_dict() for d in documents_apart(result)]
    return data


def _show(
    result: Any, as_json: bool, as_markdown: bool, shown: dict[int, int] | None = None
) -> None:
    if as_json:
        click.echo(json.dumps(turn_json(result), indent=2, ensure_ascii=False))
    elif as_markdown:
        from assistant.export import turn_to_markdown

        number = len(shown) + 1 if shown is not None else None
        click.echo(turn_to_markdown(result, number=number, shown=shown), nl=False)
    else:
        click.echo(render_text(result))


def _continue_session(
    settings: Any,
    session_id: int,
    question: str,
    index_name: str | None,
    as_json: bool,
    as_markdown: bool,
    keep: bool,
) -> None:
    """``sphere ask Q --session ID``: resolve Q against the session's last turn, answer
    (from the log for questions about the answer), and record the turn in the session
    (``keep``). Turns are named by their place in the session, as everywhere."""
    from assistant.pipeline import Pipeline
    from assistant.store import SessionStore, turn_numbers
    from assistant.thread import base_turn, describe_follow, next_step, reply_turn
    from assistant.understand.facet_judge import shared_judge

    shared_judge().configure(settings)
    with _open_log(SessionStore, settings.session_db) as store:
        stored = store.turns(session_id)
        numbers = turn_numbers(stored)
        turns = [t for t in stored if t.status == "done"]
        base = base_turn(turns)
        if base is None:
            raise InputError(f"session {session_id} has no answered turn to follow")
        step = next_step(question, turns)
        follows = numbers.get(step.follows) if step.follows is not None else None
        if step.reply:
            turn_id = (
                store.add_turn(session_id, reply_turn(question, step, base.result))
                if keep
                else None
            )
            if as_json:
                click.echo(
                    json.dumps(
                        {
                            "question": question,
                            "session": session_id,
                            "turn": turn_id,  # the log's id (None: not logged)
                            "turn_number": len(stored) + 1 if keep else None,
                            "follows": step.follows,  # the log's id of the turn it is about
                            "follows_number": follows,  # that turn's place in the session
                            "followup": describe_follow(step.follow),
                            "answer": step.reply,
                        },
                        indent=2,
                        ensure_ascii=False,
                    )
                )
            else:
                click.echo(step.reply)
            if keep:
                _say_logged(session_id, len(stored) + 1)
            return
        pipeline = Pipeline.from_settings(settings, index_name or base.result.index or None)
        try:
            result = pipeline.run(question, plan=step.plan, skip=step.skip)  # type: ignore[arg-type]
        finally:
            pipeline.close()
        if keep:
            store.add_turn(session_id, result)
    if not as_json and not as_markdown and step.plan is not None and follows is not None:
        click.echo(f"Follows turn {follows}: " + "; ".join(step.changes))
    _show(result, as_json, as_markdown, numbers)
    if keep:
        _say_logged(session_id, len(stored) + 1)
