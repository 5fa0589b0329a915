"""``sphere train stance | turn-kind | turn-reader``: retrain the shipped models."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.errors import InputError


@click.group("train")
def train_group() -> None:
    """Train Sphere's models on this machine."""


def _resumable(f: Any) -> Any:
    """--max-steps and --checkpoint-seconds, for a training run that resumes."""
    f = click.option(
        "--checkpoint-seconds",
        type=click.FloatRange(0),
        default=120.0,
        show_default=True,
        help="seconds between checkpoints",
    )(f)
    return click.option(
        "--max-steps", type=click.IntRange(1), help="stop after this many steps (a trial)"
    )(f)


def _stance_data(f: Any) -> Any:
    """--data-dir, --perspectrum and --written: the data a stance model is trained and
    scored on (the dev splits choose the epoch and fit the temperature)."""
    f = click.option(
        "--written",
        type=click.Path(path_type=Path, file_okay=False),
        help="the written corpus folder (tests/data/stance_corpus: train.jsonl, dev.jsonl)",
    )(f)
    f = click.option(
        "--perspectrum",
        type=click.Path(path_type=Path),
        help="Perspectrum perspectrum_with_answers_v1.0.json (its train split trains, dev chooses)",
    )(f)
    return click.option(
        "--data-dir",
        required=True,
        type=click.Path(path_type=Path),
        help="folder of the shared stance JSONL files (../shared/data/stance)",
    )(f)


@train_group.command("stance")
@_stance_data
@click.option("--sources", help="comma-separated stance sources (default: all eleven)")
@click.option(
    "--caps",
    metavar="SOURCE=N,...",
    help="at most N training rows of a source each epoch (default ibm_argq30k=12000,…)",
)
@click.option("--max-len", type=click.IntRange(32, 512), help="tokens a pair is read to (128)")
@click.option("--epochs", type=click.IntRange(1, 50), help="passes over the training items")
@click.option("--seed", type=int, help="random seed (default 13)")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="where to write the artifact (.safetensors; its card .json beside it)",
)
@click.option(
    "--state-dir",
    type=click.Path(path_type=Path),
    help="checkpoints for resuming (default: <cache_dir>/stance-train)",
)
@_resumable
@click.option(
    "--init",
    "init",
    type=click.Path(path_type=Path),
    help="continue a trained artifact (.safetensors) for --epochs more epochs",
)
@click.option("--lr", type=click.FloatRange(min=0, min_open=True), help="encoder learning rate")
@click.option(
    "--negation-rate",
    type=click.FloatRange(0, 1),
    help="share of sided items whose clause is negated and label flipped (default 0)",
)
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@pass_ctx
def train_stance_command(
    ctx: Context,
    data_dir: Path,
    perspectrum: Path | None,
    written: Path | None,
    sources: str | None,
    caps: str | None,
    max_len: int | None,
    epochs: int | None,
    seed: int | None,
    out: Path | None,
    state_dir: Path | None,
    max_steps: int | None,
    checkpoint_seconds: float,
    init: Path | None,
    lr: float | None,
    negation_rate: float | None,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Train the stance cross-encoder (resumes a killed run; see docs/STANCE_MODEL.md)."""
    from dataclasses import replace

    from assistant.embed import bundled_model_path
    from assistant.stance.corpus import SOURCES
    from assistant.stance.train import TrainConfig, train

    cfg = TrainConfig()
    if sources:
        chosen = tuple(s.strip() for s in sources.split(",") if s.strip())
        unknown = [s for s in chosen if s not in SOURCES]
        if unknown:
            raise InputError(
                f"unknown stance source(s): {', '.join(unknown)}",
                hint=f"choose from {', '.join(SOURCES)}",
            )
        cfg = replace(cfg, sources=chosen)
    if caps:
        cfg = replace(cfg, caps=_caps(caps))
    if max_len:
        cfg = replace(cfg, max_len=max_len)
    if written is not None and not written.is_dir():
        raise InputError(f"--written: no folder at {written}")
    if perspectrum is None:
        cfg = replace(cfg, perspectrum=False)
    elif not perspectrum.is_file():
        raise InputError(f"Perspectrum file not found: {perspectrum}")
    if epochs:
        cfg = replace(cfg, epochs=epochs)
    if seed is not None:
        cfg = replace(cfg, seed=seed)
    if lr is not None:
        cfg = replace(cfg, lr=lr)
    if negation_rate is not None:
        cfg = replace(cfg, negation_rate=negation_rate)
    if init is not None:
        from assistant.stance.artifact import read_card
        from assistant.stance.data import file_sha256

        if not init.is_file():
            raise InputError(f"--init: no stance artifact at {init}")
        trained = read_card(init).get("config", {})
        done = trained.get("epochs", 0) + trained.get("epoch_offset", 0)
        # a continuation starts from trained weights: the head's learning rate is cut in
        # the same ratio as the encoder's (1e-3 was for a head starting from zero)
        cfg = replace(
            cfg,
            init_sha256=file_sha256(init),
            epoch_offset=int(done),
            head_lr=cfg.head_lr * cfg.lr / TrainConfig().lr,
        )
    settings = ctx.settings
    out = _artifact_target(
        out or Path(settings.cache_dir).expanduser() / "stance" / "stance-minilm.safetensors"
    )
    state = state_dir or Path(settings.cache_dir).expanduser() / "stance-train"
    result = train(
        cfg,
        stance_dir=data_dir,
        perspectrum=perspectrum,
        state_dir=state,
        out=out,
        base=bundled_model_path(),
        log=lambda msg: click.echo(msg, err=True),
        show_progress=not no_progress,
        max_steps=max_steps,
        checkpoint_seconds=checkpoint_seconds,
        init=init,
        written=written,
    )
    summary = {
        "run_id": result.run_id,
        "artifact": str(result.artifact) if result.artifact else None,
        "best_epoch": result.best_epoch,
        "dev": result.dev,
        "history": result.history,
        "minutes": round(result.seconds / 60, 1),
        "data": result.hashes,
    }
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        f"wrote {result.artifact} (epoch {result.best_epoch}, "
        f"dev score {result.dev['score']}, "
        f"temperature {result.dev['temperature']}, {summary['minutes']} min)"
    )


def _caps(spec: str) -> dict[str, int]:
    """``ibm_argq30k=3000,sick=300`` as a dict, or an InputError naming the bad part."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        name, sep, n = part.partition("=")
        if not sep or not n.strip().isdigit():
            raise InputError(f"--caps: {part!r} is not SOURCE=N")
        out[name.strip()] = int(n)
    return out


def _artifact_target(out: Path) -> Path:
    """``--out`` checked before minutes of training, not after: a .safetensors file in a
    folder that can be written."""
    if out.suffix != ".safetensors":
        raise InputError(f"--out must end in .safetensors: {out}")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        writable = os.access(out.parent, os.W_OK)
    except OSError:
        writable = False
    if not writable:
        raise InputError(f"--out: cannot write in {out.parent}")
    return out


def _dialogue_files(data: tuple[Path, ...], what: str) -> list[Path]:
    """The development dialogue sets to train on (default: every
    ``tests/data/conversation_dev*.jsonl`` of the source tree); never a test set."""
    files = [Path(p) for p in data] or sorted(
        (Path(__file__).resolve().parents[2] / "tests" / "data").glob("conversation_dev*.jsonl")
    )
    if not files:
        raise InputError(
            "no dialogue sets given", hint="pass --data tests/data/conversation_dev.jsonl"
        )
    if any("test" in f.name for f in files):
        raise InputError(
            f"a test set cannot train the {what}",
            hint="train on the development sets (conversation_dev*.jsonl) only",
        )
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise InputError(f"no such dialogue set: {missing[0]}")
    return files


_DIALOGUES = click.option(
    "--data",
    "data",
    multiple=True,
    type=click.Path(path_type=Path),
    help="a development dialogue set (repeat; default: tests/data/conversation_dev*.jsonl "
    "of the source tree). Never a test set.",
)


@train_group.command("stance-soup")
@click.option(
    "--ingredient",
    "ingredients",
    multiple=True,
    required=True,
    type=click.Path(path_type=Path),
    help="a trained stance artifact (.safetensors); give two or more",
)
@_stance_data
@click.option(
    "--out", required=True, type=click.Path(path_type=Path), help="the soup (.safetensors)"
)
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
def train_stance_soup_command(
    ingredients: tuple[Path, ...],
    data_dir: Path,
    perspectrum: Path | None,
    written: Path | None,
    out: Path,
    as_json: bool,
) -> None:
    """Average trained stance artifacts into one (a uniform model soup; docs/STANCE_MODEL.md)."""
    from assistant.embed import bundled_model_path
    from assistant.stance.soup import soup

    if written is not None and not written.is_dir():
        raise InputError(f"--written: no folder at {written}")
    if perspectrum is not None and not perspectrum.is_file():
        raise InputError(f"Perspectrum file not found: {perspectrum}")
    result = soup(
        list(ingredients),
        stance_dir=data_dir,
        perspectrum=perspectrum,
        written=written,
        base=bundled_model_path(),
        out=_artifact_target(out),
        log=lambda msg: click.echo(msg, err=True),
    )
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(
        f"wrote {result['artifact']} (dev score {result['score']}, "
        f"temperature {result['dev']['temperature']}, {result['minutes']} min)"
    )


@train_group.command("turn-kind")
@_DIALOGUES
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="where to write the weights (default: the bundled assistant/understand/weights/"
    "turn_kind.npz)",
)
@click.option(
    "--cross-check",
    is_flag=True,
    help="hold each set out in turn and report how the model trained on the others reads it",
)
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
def turn_kind_command(
    data: tuple[Path, ...], out: Path | None, cross_check: bool, as_json: bool
) -> None:
    """Train the follow-up turn-kind classifier (seconds; see assistant/understand/turn_kind.py)."""
    from assistant.embed import LazyEmbedder
    from assistant.understand import turn_kind, turn_kind_train

    files = _dialogue_files(data, "turn-kind model")
    embedder = LazyEmbedder()
    if cross_check:
        report = turn_kind_train.cross_check(files, embedder)
    else:
        model = turn_kind_train.train(files, embedder)
        target = out or turn_kind.WEIGHTS
        model.save(target)
        report = {"out": str(target), **model.meta}
    click.echo(json.dumps(report, indent=2) if as_json else json.dumps(report))


@train_group.command("turn-reader")
@_DIALOGUES
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    help="where to write the artifact (.safetensors, its card .json beside it; default: "
    "<cache_dir>/turn-reader/turn_reader.safetensors)",
)
@click.option(
    "--cross-check",
    "folds",
    type=click.IntRange(2, 50),
    default=None,
    help="instead of training one model: cut the sets into this many groups, train one "
    "model per group on the others and report how each reads its held-out group",
)
@click.option("--epochs", type=click.IntRange(1, 50), help="passes over the turns (default 4)")
@click.option("--seed", type=int, help="random seed (default 13)")
@click.option(
    "--state-dir",
    type=click.Path(path_type=Path),
    help="checkpoints for resuming, and the cross-check's fold models "
    "(default: <cache_dir>/turn-reader-train)",
)
@_resumable
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@pass_ctx
def turn_reader_command(
    ctx: Context,
    data: tuple[Path, ...],
    out: Path | None,
    folds: int | None,
    epochs: int | None,
    seed: int | None,
    state_dir: Path | None,
    max_steps: int | None,
    checkpoint_seconds: float,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Fine-tune the follow-up turn reader (resumes a killed run; about 7 minutes on 2
    cores; see assistant/understand/reader.py)."""
    from dataclasses import replace

    from assistant.embed import bundled_model_path
    from assistant.understand import reader_train

    files = _dialogue_files(data, "turn reader")
    cfg = reader_train.ReaderConfig()
    if epochs:
        cfg = replace(cfg, epochs=epochs)
    if seed is not None:
        cfg = replace(cfg, seed=seed)
    cache = Path(ctx.settings.cache_dir).expanduser()
    state = state_dir or cache / "turn-reader-train"
    log = lambda msg: click.echo(msg, err=True)  # noqa: E731
    if folds:
        report = reader_train.cross_check(
            cfg,
            files,
            folds=folds,
            state_dir=state,
            base=bundled_model_path(),
            log=log,
            show_progress=not no_progress,
        )
        click.echo(json.dumps(report, indent=2) if as_json else json.dumps(report))
        return
    target = _artifact_target(out or cache / "turn-reader" / "turn_reader.safetensors")
    run = reader_train.train(
        cfg,
        files,
        state_dir=state,
        out=target,
        base=bundled_model_path(),
        log=log,
        show_progress=not no_progress,
        max_steps=max_steps,
        checkpoint_seconds=checkpoint_seconds,
    )
    summary = {
        "run_id": run.run_id,
        "artifact": str(run.artifact) if run.artifact else None,
        "steps": run.steps,
        "history": run.history,
        "minutes": round(run.seconds / 60, 1),
    }
    click.echo(
        json.dumps(summary)
        if as_json
        else f"wrote {run.artifact} ({run.steps} steps, {summary['minutes']} min)"
        if run.artifact
        else f"stopped at step {run.steps} (run again to resume)"
    )
