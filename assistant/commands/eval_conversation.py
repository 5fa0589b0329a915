"""The ``sphere eval conversation`` command over :mod:`assistant.eval.conversation`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.errors import InputError
from assistant.eval.conversation import PERTURBATIONS, fold_judge, run_conversation
from assistant.understand.facet_judge import FacetJudge
from assistant.understand.followup.settings import DEFAULTS


@click.command("conversation")
@click.option(
    "--data",
    "data",
    required=True,
    multiple=True,
    type=click.Path(dir_okay=False),
    help="a JSONL dialogue set (repeat for several: --data dev.jsonl --data dev2.jsonl)",
)
@click.option("--limit", type=int, default=None, help="first N dialogues")
@click.option("--misses", is_flag=True, help="list the turns read wrongly")
@click.option(
    "--perturb",
    "perturbation",
    type=click.Choice(PERTURBATIONS),
    default=None,
    help="score a robustness copy: one typing slip in every later turn (typo, seeded), or "
    "the turns lower-cased without punctuation (nopunct)",
)
@click.option(
    "--reader",
    "reader",
    default=None,
    help="the turn reader: bundled (default), off, or an artifact (.safetensors)",
)
@click.option(
    "--reader-folds",
    type=click.Path(dir_okay=False),
    default=None,
    help="cross-validation: read each set with the fold models that never saw it (the "
    "folds.json of `sphere train turn-reader --cross-check`)",
)
@click.option(
    "--use",
    "uses",
    multiple=True,
    metavar="NAME=VALUE",
    help="a setting of the follow-up resolver (assistant.understand.followup.settings."
    "ResolverSettings: min_p, second_opinion_p, lenient_add_aspect, weight, span_first, "
    "side_p, override_p …), for this run only: a changed copy of the settings",
)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def conversation_command(
    data: tuple[str, ...],
    limit: int | None,
    misses: bool,
    perturbation: str | None,
    reader: str | None,
    reader_folds: str | None,
    uses: tuple[str, ...],
    as_json: bool,
) -> None:
    """Follow-ups: topic kept or changed, the edit and its value, per edit kind.

    With one --data the report is that set's; with several, one report per set
    (JSON: {"benchmark": "conversation", "sets": [...]})."""
    # --use builds a changed copy of the resolver's settings for this run's judges
    settings = DEFAULTS.with_uses(uses) if uses else None
    judges: list[FacetJudge | None] = [None] * len(data)
    if reader_folds:
        judges = [fold_judge(d, reader_folds) for d in data]
    elif reader or settings is not None:
        from assistant.embed import LazyEmbedder

        judge = FacetJudge(LazyEmbedder())
        judge.reader_choice = reader or "bundled"
        if (
            reader
            and reader.strip().lower() not in ("off", "bundled")
            and not Path(reader).is_file()
        ):
            raise InputError(f"--reader: no turn reader at {reader}")
        judges = [judge] * len(data)
    for j in judges:
        if j is not None and settings is not None:
            j.settings = settings
    reports = [
        run_conversation(d, limit=limit, perturbation=perturbation, judge=j)
        for d, j in zip(data, judges, strict=True)
    ]
    if as_json:
        out = reports[0] if len(reports) == 1 else {"benchmark": "conversation", "sets": reports}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    for report in reports:
        if len(reports) > 1:
            click.echo(f"{report['data']}:")
        for method, r in report["methods"].items():
            click.echo(
                f"{method}: {report['dialogues']} dialogues, {r['turns']} follow-up turns: "
                f"resolved plan {r['resolved_plan_acc']} %, new topics read as follow-ups "
                f"{r['new_topic_as_followup']} %, follow-ups read as new topics "
                f"{r['followup_as_new_topic']} %"
            )
        r = report["methods"]["sphere"]
        for k, v in r["per_edit"].items():
            click.echo(f"  {k:<16} {v['acc']!s:>6} % of {v['n']}")
        if misses:
            for m in report["misses"]:
                click.echo(f"  {m['id']}: {m['text']!r} gold {m['gold']} got {m['got']}")
