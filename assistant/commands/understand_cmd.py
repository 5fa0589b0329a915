"""``sphere understand "QUESTION" [--json] [--no-llm]``: print the query plan."""

from __future__ import annotations

import json

import click

from assistant.commands.context import Context, pass_ctx


@click.command("understand")
@click.argument("question")
@click.option("--json", "as_json", is_flag=True, help="print QueryPlan.to_dict() as JSON")
@click.option("--no-llm", is_flag=True, help="rules only: do not load the model")
@pass_ctx
def understand_command(ctx: Context, question: str, as_json: bool, no_llm: bool) -> None:
    """Show what Sphere makes of QUESTION: perspectives, aspects, claims, constraints."""
    from assistant.understand import parse_rules, understand

    plan = parse_rules(question)  # fails fast on a bad question, before loading a model
    use = "never" if no_llm else ctx.settings.llm.use
    if use != "never":
        from assistant.llm.capable import llm_plan

        # the model is loaded only if the parser gets it (llm.use: always, or auto with a
        # capable model); with auto and the bundled 135M model the rules answer alone
        if "understand" in llm_plan(ctx.settings).stages:
            from assistant.llm import load_backend

            plan = understand(question, backend=load_backend(ctx.settings.llm), use_llm=use)
    if as_json:
        click.echo(json.dumps(plan.to_dict(), indent=2, ensure_ascii=False))
        return
    click.echo(f"question:    {plan.question}")
    click.echo(f"root query:  {plan.root_query}")
    side = f" (wants the {plan.target_side} side)" if plan.target_side else ""
    click.echo(f"intent:      {plan.intent}{side}")
    click.echo("perspectives:")
    for p in plan.perspectives or []:
        extra = f", side {p.side}" if p.side else ""
        click.echo(f"  - {p.text!r}  [{p.role}{extra}]")
    if not plan.perspectives:
        click.echo("  (none)")
    click.echo("aspects:     " + (" | ".join(a.text for a in plan.aspects) or "(none)"))
    click.echo("claims:")
    click.echo(f"  pro: {plan.claims[0] or '(none: factual question)'}")
    click.echo(f"  con: {plan.claims[1] or '(none: factual question)'}")
    click.echo("constraints:")
    for c in plan.constraints:
        neg = "NOT " if c.negated else ""
        kind = "hard" if c.hard else "soft"
        click.echo(f"  - {c.dimension}: {neg}{c.value}  [{kind}; from {c.text!r}]")
    if not plan.constraints:
        click.echo("  (none)")
    click.echo(f"source:      {plan.source}")
