"""The ``sphere eval stance`` command over :mod:`assistant.eval.stance`."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
import numpy as np

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError
from assistant.eval.stance import (
    Case,
    _method,
    claim_margin_probs,
    correction_cases,
    detect_kind,
    evaluate,
    perspectrum_cases,
    persphere_cases,
    stance_cases,
)


@click.command("stance")
@click.option(
    "--data",
    "data",
    type=click.Path(path_type=Path),
    help="PerSphere data.jsonl, Perspectrum claims JSON, a stance JSONL, or a session log",
)
@click.option(
    "--corrections",
    "corrections",
    type=click.Path(path_type=Path),
    help="a session log (sessions.db): score the user's corrections of sides",
)
@click.option("--corpus", type=click.Path(path_type=Path), help="PerSphere doc_new.jsonl")
@click.option("--pool", type=click.Path(path_type=Path), help="Perspectrum perspective pool")
@click.option(
    "--split",
    default="test",
    show_default=True,
    help="stance JSONL: which split to score (train, dev, test or all)",
)
@click.option(
    "--candidate",
    "candidates",
    multiple=True,
    metavar="NAME=PATH",
    help="also score another stance artifact (.safetensors) under NAME",
)
@click.option("--no-baseline", is_flag=True, help="skip the claim_margin method")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@pass_ctx
def stance_command(
    ctx: Context,
    data: Path | None,
    corrections: Path | None,
    corpus: Path | None,
    pool: Path | None,
    split: str,
    candidates: tuple[str, ...],
    no_baseline: bool,
    as_json: bool,
) -> None:
    """Side accuracy of the stance model (PerSphere, Perspectrum, a stance JSONL, or the
    corrections in a session log)."""
    from assistant.stance.model import StanceModel, shared_model

    if (data is None) == (corrections is None):
        raise InputError(
            "give one of --data FILE and --corrections sessions.db",
            hint="--data takes PerSphere, Perspectrum, stance JSONL or a session log",
        )
    if corrections is not None:
        data, kind = corrections, "corrections"
    else:
        assert data is not None
        kind = detect_kind(data)
    if kind == "corrections":  # read before loading models: a bad log fails fast
        fixed = correction_cases(data)
    models: dict[str, Any] = {"sphere": shared_model()}
    for spec in candidates:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--candidate {spec!r} is not NAME=PATH")
        models[name] = StanceModel.load(Path(path))
    methods: dict[str, Callable[[Sequence[Case]], np.ndarray]] = {}
    if not no_baseline:
        methods["claim_margin"] = claim_margin_probs
    for name, model in models.items():
        methods[name] = _method(model, whole=False)
        if name == "sphere":
            methods["sphere_document"] = _method(model, whole=True)
    if kind == "persphere":
        sets = {
            "gold_claims": persphere_cases(data, corpus, ours=False),
            "": persphere_cases(data, corpus, ours=True),
        }
        result = evaluate(sets, methods)
        main = None
    elif kind == "perspectrum":
        result = evaluate({"": perspectrum_cases(data, pool)}, methods, main_task="test")
        main = "test"
    elif kind == "corrections":
        result = evaluate({"": fixed}, methods)
        main = None
    else:
        sets = {"": stance_cases(data, split)}
        own = stance_cases(data, split, own_claims=True)
        if own:
            sets["own_claims"] = own
        result = evaluate(sets, methods)
        main = split
    out = {
        "benchmark": "stance",
        "kind": kind,
        "main": main,
        **result,
        "model": models["sphere"].info(),
    }
    if as_json:
        click.echo(json.dumps(out))
        return
    for name, m in out["methods"].items():
        shown = {
            k: v for k, v in m.items() if "side_accuracy" in k or k in ("accuracy", "macro_f1")
        }
        click.echo(f"{name:24s} " + "  ".join(f"{k} {v}" for k, v in shown.items()))
