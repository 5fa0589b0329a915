"""``sphere sessions list|show|delete|search``: the session log from the command line."""

from __future__ import annotations

import json
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.store import SNIPPET_MARKS, SessionStore


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
    from assistant.export import follow_changes

    with open_store(ctx) as store:
        info = store.get_session(session_id)
        turns = store.turns(session_id)
    if as_json:
        data = info.to_dict()
        data["turns"] = [
            {
                "id": t.id,
                "created": t.created,
                "status": t.status,
                "follows": t.result.plan.follows,  # the turn id it edits (None: a new topic)
                "result": t.result.to_dict(),
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
    click.echo(f"  created {info.created} · updated {info.updated} · {info.turns} turns")
    place = {t.id: n for n, t in enumerate(turns, 1)}
    for n, t in enumerate(turns, 1):
        click.echo("")
        click.echo(f"[{n}] turn {t.id} · {t.created} · {t.status}")
        follows = t.result.plan.follows
        if follows is not None:
            changes = follow_changes(t.result.plan)
            # by its place in the session, as the app and the export name it, and its id
            which = (
                f"[{place[follows]}] (turn {follows})"
                if follows in place
                else f"turn {follows} (not in this session)"
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
        for claim in t.result.summary.claims:
            label = "For" if claim.side == "pro" else "Against"
            click.echo(f"  {label}: {_one_line(claim.claim, 90)}")
            for p in claim.perspectives:
                refs = ", ".join(r.doc_id for r in p.references)
                click.echo(f"    - {_one_line(p.text, 90)}" + (f" [{refs}]" if refs else ""))
            if claim.note:
                click.echo(f"    ({claim.note})")


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
                f"Delete session {info.id} '{info.title}' and its {info.turns} turns?",
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
        click.echo(f"session {h.session_id} · turn {h.turn_id} · {_one_line(h.question, 80)}")
        click.echo(f"    {_one_line(snippet, 100)}")
