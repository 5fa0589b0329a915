"""The ``sphere eval understand`` command over :mod:`assistant.eval.understand`."""

from __future__ import annotations

import json
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import DataError
from assistant.eval.understand import load_items, run_understand


@click.command("understand")
@click.option(
    "--data",
    required=True,
    type=click.Path(dir_okay=False),
    help="a JSONL set (tests/data/understand_dev.jsonl)",
)
@click.option(
    "--method",
    "methods",
    multiple=True,
    type=click.Choice(["rules", "llm", "sphere"]),
    help="methods to run (default: rules and sphere, plus llm unless --no-llm)",
)
@click.option("--no-llm", is_flag=True, help="do not load the model (no llm method)")
@click.option("--limit", type=int, default=None, help="first N questions")
@click.option("--misses", is_flag=True, help="list the questions whose intent or side is wrong")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@pass_ctx
def understand_command(
    ctx: Context,
    data: str,
    methods: tuple[str, ...],
    no_llm: bool,
    limit: int | None,
    misses: bool,
    as_json: bool,
) -> None:
    """Intent, side, constraints and aspects on natural questions, per method and family."""
    items = load_items(data)  # check the file before loading any model
    wanted = list(methods) or (["rules", "sphere"] if no_llm else ["rules", "llm", "sphere"])
    backend = None
    if "llm" in wanted or ctx.settings.llm.use == "always":
        if no_llm and "llm" in wanted:
            raise DataError("--no-llm and --method llm contradict each other")
        if not no_llm:
            from assistant.llm import load_backend

            backend = load_backend(ctx.settings.llm)
    report = run_understand(
        data,
        items=items,
        methods=wanted,
        backend=backend,
        use_llm=ctx.settings.llm.use,
        limit=limit,
    )
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    cols = (
        ("intent", "intent_acc"),
        ("side", "side_acc"),
        ("cons P", "constraint_precision"),
        ("cons R", "constraint_recall"),
        ("cons F1", "constraint_f1"),
        ("asp F1", "aspect_f1"),
    )

    def fmt(v: Any) -> str:
        return f"{v:>8.1f}" if isinstance(v, float) else f"{'–':>8}"

    click.echo(f"{report['questions']} questions from {data}")
    for name, res in report["methods"].items():
        click.echo(f"\n{name}  ({res['seconds_per_question'] * 1000:.0f} ms/question)")
        click.echo(f"{'family':<16}{'n':>5}" + "".join(f"{c:>8}" for c, _ in cols))
        rows = [*res["families"].items(), ("all", res)]
        for fam, r in rows:
            click.echo(f"{fam:<16}{r['n']:>5}" + "".join(fmt(r[k]) for _, k in cols))
        if misses:
            for m in report["misses"][name]:
                click.echo(f"  {m['id']}: {m['question']!r} gold {m['gold']} got {m['got']}")
