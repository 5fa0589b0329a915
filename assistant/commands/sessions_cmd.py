"""``sphere sessions list|show|delete|search|correct``: the session log from the command line.

``correct SESSION TURN DOC --to pro|con|out`` is the app's side correction (the
evidence pane's m, x, a, b) for people who do not use the app: TURN is the turn's
place in the session as ``sessions show`` and the app number it.
"""

from __future__ import annotations

import json
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.store import SNIPPET_MARKS, SessionStore, turn_numbers
from assistant.wording import count

CLAIM_LABELS = {"pro": "the For claim", "con": "the Against claim"}  # as `sessions show`


def open_store(ctx: Context) -> SessionStore:
    """The configured session log (``session_db``), created with its folder if missing."""
    return SessionStore(ctx.settings.session_db)


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _one_line(text: str, width: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@click.group("sessions")
def sessions_group() -> None:
    """List, show, search and delete recorded sessions."""


@sessions_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="print a JSON list, newest first")
@pass_ctx
def list_command(ctx: Context, as_json: bool) -> None:
    """List sessions, newest first."""
    with open_store(ctx) as store:
        sessions = store.list_sessions()
    if as_json:
        _echo_json(
            [
                {
                    "id": s.id,
                    "title": s.title,
                    "created": s.created,
                    "updated": s.updated,
                    "turns": s.turns,
                    "index": s.index,
                }
                for s in sessions
            ]
        )
        return
    if not sessions:
        click.echo(f"No sessions yet in {ctx.settings.session_db}.")
        return
    click.echo(f"{'ID':>5}  {'CREATED':<25}  {'TURNS':>5}  {'INDEX':<12}  TITLE")
    for s in sessions:
        click.echo(
            f"{s.id:>5}  {s.created:<25}  {s.turns:>5}  {_one_line(s.index, 12):<12}  "
            f"{_one_line(s.title) or '(untitled)'}"
        )


@sessions_group.command("show")
@click.argument("session_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="print the session and its turns as JSON")
@pass_ctx
def show_command(ctx: Context, session_id: int, as_json: bool) -> None:
    """Show one session as a thread: each question with its two claims (or ranked list,
    or the answer from the log), a follow-up with the turn it follows and what it changed."""
    from assistant.commands.ask_cmd import turn_json
    from assistant.export import follow_changes

    with open_store(ctx) as store:
        info = store.get_session(session_id)
        turns = store.turns(session_id)
    place = turn_numbers(turns)
    if as_json:
        data = info.to_dict()
        data["turns"] = [
            {
                "id": t.id,
                "number": place[t.id],  # its place in the session, as turns are named
                "created": t.created,
                "status": t.status,
                "follows": t.result.plan.follows,  # the turn id it edits (None: a new topic)
                "follows_number": place.get(t.result.plan.follows or -1),
                "result": turn_json(t.result),
            }
            for t in turns
        ]
        _echo_json(data)
        return
    click.echo(f"Session {info.id}: {info.title or '(untitled)'}")
    click.echo(f"  index {info.index or '-'} · embedder {info.embedder or '-'}")
    if info.model.get("path"):
        click.echo(f"  model {info.model['path']} (sha256 {info.model.get('sha256') or '?'})")
    stance = info.model.get("stance")
    if isinstance(stance, dict) and stance.get("path"):
        click.echo(f"  stance model {stance['path']} (sha256 {stance.get('sha256') or '?'})")
    click.echo(f"  created {info.created} · updated {info.updated} · {count(info.turns, 'turn')}")
    for n, t in enumerate(turns, 1):
        click.echo("")
        # a turn is named by its place in the session, as the app and the export name it
        # ("Follows turn 2"); the log's id, shared by all sessions, comes last
        click.echo(f"Turn {n} · {t.created} · {t.status} · id {t.id}")
        follows = t.result.plan.follows
        if follows is not None:
            changes = follow_changes(t.result.plan)
            which = (
                f"turn {place[follows]}"
                if follows in place
                else f"the turn with id {follows} (not in this session)"
            )
            click.echo(f"  follows {which}" + (f": {changes}" if changes else ""))
        elif n > 1:
            click.echo("  new thread: a new topic, not a follow-up of an earlier turn")
        click.echo(f"  Q: {_one_line(t.result.question, 100)}")
        if t.result.reply:
            click.echo("  A (from the session log, no new search):")
            for line in t.result.reply.splitlines():
                click.echo(f"    {line}".rstrip())
        answer = t.result.answer
        if answer is not None:
            click.echo("  A factual question, not a debate: the passages that answer it")
        for a_row in answer.rows if answer is not None else []:
            quote = a_row.reference.quote if a_row.reference else "(no text)"
            click.echo(
                f"  {a_row.rank:>2}. {_one_line(a_row.title or a_row.doc_id, 60)} [{a_row.doc_id}]"
            )
            click.echo(f"      {_one_line(quote, 90)}")
        lookup = t.result.lookup
        for row in lookup.rows if lookup is not None else []:
            marks = " ".join(("✓ " if m.met else "✗ ") + m.aspect for m in row.aspects)
            click.echo(f"  {row.rank:>2}. {_one_line(row.title or row.doc_id, 60)} [{row.doc_id}]")
            if marks:
                click.echo(f"      {_one_line(marks, 90)}")
        _show_claims(t.result)


def _show_claims(result: Any) -> None:
    """A turn's claims with their perspectives and cited documents (those the user moved
    or placed marked so), the documents kept apart, and the corrections made."""
    from assistant.commands.ask_cmd import render_apart
    from assistant.summarize.correct import correction_text

    for claim in result.summary.claims:
        label = "For" if claim.side == "pro" else "Against"
        click.echo(f"  {label}: {_one_line(claim.claim, 90)}")
        for p in claim.perspectives:
            refs = ", ".join(
                r.doc_id + (f" ({r.by_user} by you)" if r.by_user else "") for r in p.references
            )
            click.echo(f"    - {_one_line(p.text, 90)}" + (f" [{refs}]" if refs else ""))
        if claim.note:
            click.echo(f"    ({claim.note})")
    if result.summary.claims:
        for line in render_apart(result):
            click.echo(line)
    for c in result.corrections:
        click.echo(f"  you {correction_text(c, CLAIM_LABELS)}")


@sessions_group.command("delete")
@click.argument("session_id", type=int)
@click.option("--yes", "-y", is_flag=True, help="do not ask for confirmation")
@pass_ctx
def delete_command(ctx: Context, session_id: int, yes: bool) -> None:
    """Delete a session and all its turns."""
    with open_store(ctx) as store:
        info = store.get_session(session_id)
        if not yes:
            click.confirm(
                f"Delete session {info.id} '{info.title}' and its {count(info.turns, 'turn')}?",
                abort=True,
            )
        store.delete_session(session_id)
    click.echo(f"Deleted session {session_id}.")


@sessions_group.command("search")
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="print the hits as JSON")
@click.option("--limit", type=int, default=20, show_default=True, help="at most this many")
@pass_ctx
def search_command(ctx: Context, query: str, as_json: bool, limit: int) -> None:
    """Full-text search over recorded questions and answers."""
    if limit < 1:
        raise InputError("--limit must be at least 1")
    with open_store(ctx) as store:
        hits = store.search(query, limit=limit)
    if as_json:
        _echo_json([h.to_dict() for h in hits])
        return
    if not hits:
        click.echo(f"No turns match {query!r}.")
        return
    for h in hits:
        snippet = h.snippet.replace(SNIPPET_MARKS[0], "*").replace(SNIPPET_MARKS[1], "*")
        click.echo(f"session {h.session_id} · turn {h.turn_number} · {_one_line(h.question, 80)}")
        click.echo(f"    {_one_line(snippet, 100)}")


@sessions_group.command("correct")
@click.argument("session_id", type=int)
@click.argument("turn", type=int)
@click.argument("doc_id")
@click.option(
    "--to",
    "to",
    required=True,
    type=click.Choice(["pro", "con", "out"]),
    help="pro: under the For claim (A); con: under the Against claim (B); out: out of the answer",
)
@pass_ctx
def correct_command(ctx: Context, session_id: int, turn: int, doc_id: str, to: str) -> None:
    """Correct a document's side in an answer: move DOC_ID of turn TURN (its place in
    session SESSION_ID, as `sphere sessions show` numbers turns) under a claim or out.

    The answer's balance is counted again and the session log keeps the correction,
    with the stance model's own probabilities, as a labelled example
    (`sphere eval stance --corrections`)."""
    from assistant.summarize.balance import probabilities_text
    from assistant.summarize.correct import correctable, correction_text, make_correction

    with open_store(ctx) as store:
        turns = store.turns(session_id)
        if not 1 <= turn <= len(turns):
            which = f"1–{len(turns)}" if turns else "it has none"
            raise InputError(
                f"session {session_id} has no turn {turn} ({which})",
                hint=f"TURN is a turn's place in the session, as `sphere sessions show "
                f"{session_id}` numbers them",
            )
        stored = turns[turn - 1]
        try:
            corr = make_correction(stored.result, doc_id, to, claims=CLAIM_LABELS)
        except InputError as exc:
            places = correctable(stored.result) if stored.result.summary.claims else {}
            hint = exc.hint
            if places and doc_id not in places:
                hint = "documents of this answer: " + ", ".join(
                    f"{d} ({p.replace('_', ' ')})" for d, p in places.items()
                )
            raise InputError(
                f"turn {turn} of session {session_id}: {exc.message}", hint=hint
            ) from None
        after = store.add_correction(stored.id, corr)
    said = probabilities_text(corr.p)
    click.echo(f"Turn {turn} of session {session_id}: you {correction_text(corr, CLAIM_LABELS)}.")
    click.echo(
        f"  the stance model had said: {said}"
        if said
        else "  (the stance model's judgment of it was not recorded)"
    )
    b = after.summary.balance
    counts = ", ".join(
        f"{'For' if sb.side == 'pro' else 'Against'} {count(sb.documents_cited, 'document')}"
        for sb in b.sides
    )
    click.echo(f"  balance now: {counts}; lopsidedness {b.lopsidedness:.2f}")
