"""``sphere train turn-reader``: fine-tune the turn reader (:mod:`~assistant.understand.reader`)
on the development dialogue sets, on this machine's CPU.

**Examples.** Every scored turn of the dialogue files, read beside the context the
resolver would give it: the thread's question (the dialogue's first turn, or the
last turn whose gold edit is a new topic) and the side its answer shows (the
first question's own one-sidedness by the rules, then the gold one-side and
"more" edits applied as :func:`assistant.understand.followup._page` applies
them). Labels: the gold edit kind; for a request for one side or for more, the
gold side; for a facet, a dropped facet or a group's view, the gold value's first
occurrence in the turn (case-insensitive) as the answer span (a value the turn
does not contain verbatim trains the kind only); for a constraint, its dimension,
whether it is negated, and for a source or keyword its value as the span.

**Loss**: cross-entropy of the kind + ``side_weight`` × that of the side (where
labelled) + ``span_weight`` × the mean of the start and end cross-entropies
(where labelled) + ``constraint_weight`` × the cross-entropies of the constraint's
dimension and negation (a constraint turn: its first constraint's; its span is a
source's or keyword's value where the turn contains it). AdamW (layers ``lr``,
heads ``head_lr``), linear warm-up and decay, gradient norm clipped at 1, a fixed
seed.

**Reproducible and resumable** as ``sphere train stance`` is: the run id hashes the
configuration and the sha256 of every dialogue file; the state is saved
atomically every two minutes and after every epoch, and running the same
command again continues from there; a progress bar shows the ETA.

**Cross-check** (:func:`cross_check`): the files are cut into ``folds`` groups
(whole files, in name order, round robin); each group is read by a model
trained on the others, so every figure is for turns the model never saw; the
fold models are kept under the state folder so that the resolver's thresholds
can be chosen with them (``assistant.eval.conversation`` ``--reader-folds``).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import InputError, SphereError
from assistant.progress_bar import step_bar
from assistant.stance.artifact import write_artifact
from assistant.stance.data import file_sha256
from assistant.stance.train import (
    ThreadTuner,
    optimizer,
    optimizer_step,
    restore_training_state,
    save_training_state,
    seed_everything,
)
from assistant.understand.dialogues import load_dialogues
from assistant.understand.reader import (
    DIMENSIONS,
    FORMAT,
    KINDS,
    SIDES,
    SPAN_KINDS,
    TurnReader,
    context_text,
    encode,
    load_base,
)
from assistant.understand.rules import parse_rules
from assistant.workers import usable_cpus


@dataclass
class Example:
    set: str
    context: str
    turn: str
    kind: str
    side: str | None
    span: tuple[int, int] | None
    value: Any
    dimension: str | None = None
    negated: bool | None = None


def _next_showing(showing: str | None, edit: str, value: Any) -> str | None:
    if edit == "one_side" and value in ("pro", "con"):
        return str(value)
    if edit == "more" and showing is not None and value != showing:
        return str(value) if value in ("pro", "con") else None
    return showing


def examples(files: Sequence[Path]) -> list[Example]:
    """The training examples of the module docstring, in file order."""

    def start(text: str) -> tuple[str, str | None]:
        try:
            plan = parse_rules(text)
        except SphereError:
            return text, None
        one = plan.target_side if plan.intent == "one_sided" else None
        return plan.root_query or plan.question or text, one

    out: list[Example] = []
    for f in files:
        for d in load_dialogues(f):
            question, showing = start(d["turns"][0]["text"])
            for t in d["turns"][1:]:
                e = t["expect"]
                text, edit, value = t["text"], e["edit"], e.get("value")
                said = value if edit in SPAN_KINDS else None
                dimension, negated = None, None
                if edit == "add_constraint":
                    first = (value[0] if isinstance(value, list) and value else value) or {}
                    if first.get("dimension") in DIMENSIONS:
                        dimension, negated = first["dimension"], bool(first.get("negated"))
                        if dimension in ("source", "keyword"):
                            said = first.get("value")
                span = None
                if isinstance(said, str) and said.strip():
                    at = text.lower().find(said.lower())
                    if at >= 0:
                        span = (at, at + len(said))
                side = str(value) if edit in ("one_side", "more") and value in SIDES else None
                out.append(
                    Example(
                        f.name,
                        context_text(question, showing),
                        text,
                        edit,
                        side,
                        span,
                        value,
                        dimension,
                        negated,
                    )
                )
                if not e["follows"]:
                    question, showing = start(text)
                else:
                    showing = _next_showing(showing, edit, value)
    return out


@dataclass
class ReaderConfig:
    """Everything that decides the trained reader (hashed into the run id)."""

    seed: int = 13
    epochs: int = 4
    batch: int = 16
    lr: float = 5e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.06
    max_len: int = 128
    side_weight: float = 1.0
    span_weight: float = 0.5
    constraint_weight: float = 0.5

    def run_id(self, hashes: dict[str, str], tag: str = "") -> str:
        blob = json.dumps({"config": asdict(self), "data": hashes, "tag": tag}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _targets(tok: Any, batch: Sequence[Example], max_len: int) -> tuple[Any, ...]:
    """Token tensors and the kind, side, span-start and span-end targets (-100: none)."""
    import torch  # training only (start-up time of the app)

    tensors, offsets, turn_mask = encode(
        tok, [x.context for x in batch], [x.turn for x in batch], max_len
    )
    kind = torch.tensor([KINDS.index(x.kind) for x in batch])
    side = torch.tensor([SIDES.index(x.side) if x.side else -100 for x in batch])
    dim = torch.tensor([DIMENSIONS.index(x.dimension) if x.dimension else -100 for x in batch])
    neg = torch.tensor([int(x.negated) if x.negated is not None else -100 for x in batch])
    start = torch.full((len(batch),), -100)
    end = torch.full((len(batch),), -100)
    for i, x in enumerate(batch):
        if x.span is None:
            continue
        cs, ce = x.span
        toks = torch.nonzero(turn_mask[i]).flatten().tolist()
        first = [j for j in toks if int(offsets[i, j, 1]) > cs]
        last = [j for j in toks if int(offsets[i, j, 0]) < ce]
        if first and last and last[-1] >= first[0]:
            start[i], end[i] = first[0], last[-1]
    return tensors, turn_mask, kind, side, start, end, dim, neg


@dataclass
class ReaderRun:
    run_id: str
    seconds: float
    steps: int
    history: list[dict[str, Any]]
    artifact: Path | None


def train(
    cfg: ReaderConfig,
    files: Sequence[Path],
    *,
    state_dir: Path,
    out: Path | None,
    base: Path,
    log: Callable[[str], None] = print,
    show_progress: bool = True,
    max_steps: int | None = None,
    checkpoint_seconds: float = 120.0,
    tag: str = "",
    card_extra: dict[str, Any] | None = None,
) -> ReaderRun:
    """Train (or resume) on every example of ``files``; write the artifact to ``out``."""
    import torch  # training only: torch loads when a model is trained

    t_start = time.time()
    files = sorted(set(files))
    rows = examples(files)
    if not rows:
        raise InputError("no scored turns to train on")
    hashes = {f.name: file_sha256(f) for f in files}
    run_id = cfg.run_id(hashes, tag)
    run_dir = _run_dir(cfg, state_dir, run_id, hashes, tag)
    torch.set_num_threads(usable_cpus())
    seed_everything(cfg.seed)
    net, tok = load_base(base)
    net.freeze_embeddings()
    net.train()
    per_epoch = -(-len(rows) // cfg.batch)
    total = per_epoch * cfg.epochs
    opt, sched = optimizer(
        net,
        lr=cfg.lr,
        head_lr=cfg.head_lr,
        weight_decay=cfg.weight_decay,
        total=total,
        warmup=cfg.warmup,
    )
    ckpt = run_dir / "state.pt"
    step, history = 0, []
    st = restore_training_state(ckpt, net, opt, sched)
    if st is not None:
        step, history = int(st["step"]), list(st["history"])
        log(f"resuming at step {step} of {total}")
    else:
        log(f"run {run_id}: {len(rows)} turns of {len(files)} files, {total} steps")

    def save_state() -> None:
        save_training_state(ckpt, net, opt, sched, step=step, history=history)

    ce = torch.nn.CrossEntropyLoss(ignore_index=-100)
    bar = step_bar(
        total, initial=step, desc=f"turn reader{' ' + tag if tag else ''}", show=show_progress
    )
    tuner = ThreadTuner(usable_cpus())
    last_save = time.time()
    running: float | None = None
    while step < total and (max_steps is None or step < max_steps):
        epoch, pos = divmod(step, per_epoch)
        order = list(range(len(rows)))
        random.Random(cfg.seed * 1009 + epoch).shuffle(order)
        for s in range(pos * cfg.batch, len(order), cfg.batch):
            batch = [rows[i] for i in order[s : s + cfg.batch]]
            tuner.before_step()
            loss = _batch_loss(net, ce, _targets(tok, batch, cfg.max_len), cfg)
            optimizer_step(loss, net, opt, sched)
            tuner.after_step()
            step += 1
            lv = float(loss.detach())
            running = lv if running is None else 0.98 * running + 0.02 * lv
            bar.update(1)
            bar.set_postfix(loss=f"{running:.3f}", epoch=epoch + 1)
            if time.time() - last_save > checkpoint_seconds:
                save_state()
                last_save = time.time()
            if max_steps is not None and step >= max_steps:
                break
        if step % per_epoch == 0 and step > 0:
            minutes = round((time.time() - t_start) / 60, 1)
            history.append(
                {"epoch": step // per_epoch, "step": step, "loss": running, "minutes": minutes}
            )
        save_state()
        last_save = time.time()
    bar.close()
    artifact = None
    if out is not None and step >= total:
        card = {
            "run_id": run_id,
            "config": asdict(cfg),
            "data": hashes,
            "turns": len(rows),
            "history": history,
            "kinds": list(KINDS),
            "sides": list(SIDES),
            "train_minutes": round((time.time() - t_start) / 60, 1),
            **(card_extra or {}),
        }
        artifact = _write(net, base, out, card)
    return ReaderRun(run_id, time.time() - t_start, step, history, artifact)


def _run_dir(
    cfg: ReaderConfig, state_dir: Path, run_id: str, hashes: dict[str, str], tag: str
) -> Path:
    """The run's folder (its checkpoint and the config it was started with)."""
    run_dir = state_dir / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(
        json.dumps({"config": asdict(cfg), "data": hashes, "tag": tag}, indent=1), encoding="utf-8"
    )
    return run_dir


def _batch_loss(net: Any, ce: Any, targets: tuple[Any, ...], cfg: ReaderConfig) -> Any:
    """The kind loss plus, where the batch has targets for them, the side, span and
    constraint losses at their weights; span logits outside the turn are masked."""
    import torch  # training only (start-up time of the app)

    tensors, turn_mask, ky, sy, st_y, en_y, dy, ny = targets
    k, sd, st_l, en_l, dim_l, neg_l = net(**tensors)
    low = torch.finfo(st_l.dtype).min
    st_l = st_l.masked_fill(~turn_mask, low)
    en_l = en_l.masked_fill(~turn_mask, low)
    loss = ce(k, ky)
    if bool((sy >= 0).any()):
        loss = loss + cfg.side_weight * ce(sd, sy)
    if bool((st_y >= 0).any()):
        loss = loss + cfg.span_weight * 0.5 * (ce(st_l, st_y) + ce(en_l, en_y))
    if bool((dy >= 0).any()):
        loss = loss + cfg.constraint_weight * (ce(dim_l, dy) + ce(neg_l, ny))
    return loss


def _write(net: Any, base: Path, out: Path, card: dict[str, Any]) -> Any:
    """The artifact: int8 deltas on the base weights, with its card."""
    base_net, _ = load_base(base)
    return write_artifact(
        net,
        base,
        out,
        temperature=1.0,
        card=card,
        fmt=FORMAT,
        base_state=dict(base_net.state_dict()),
    )


def fold_groups(files: Sequence[Path], folds: int) -> list[list[Path]]:
    """Whole files in name order dealt round robin into ``folds`` groups."""
    ordered = sorted(set(files), key=lambda f: _natural(f.name))
    groups: list[list[Path]] = [[] for _ in range(min(folds, len(ordered)))]
    for i, f in enumerate(ordered):
        groups[i % len(groups)].append(f)
    return groups


def _natural(name: str) -> tuple[Any, ...]:
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name))


def cross_check(
    cfg: ReaderConfig,
    files: Sequence[Path],
    *,
    folds: int,
    state_dir: Path,
    base: Path,
    log: Callable[[str], None] = print,
    show_progress: bool = True,
) -> dict[str, Any]:
    """Each group of files read by a reader trained on the others (module docstring):
    kind accuracy, side accuracy with precision against coverage, span accuracy
    (content-word IoU >= 0.5 with the gold value, as ``sphere eval conversation``
    scores it). The fold models stay in ``state_dir/folds/``; ``folds.json`` maps each
    file to its fold's artifact."""
    groups = fold_groups(files, folds)
    fold_dir = state_dir / "folds"
    mapping: dict[str, str] = {}
    gold: list[Example] = []
    got: list[Any] = []
    for k, held in enumerate(groups):
        train_files = [f for g in groups if g is not held for f in g]
        out = fold_dir / f"fold{k}-{cfg.run_id({f.name: file_sha256(f) for f in train_files})}"
        artifact = out.with_suffix(".safetensors")
        if not artifact.exists():
            log(f"fold {k + 1}/{len(groups)}: held out {', '.join(f.name for f in held)}")
            train(
                cfg,
                train_files,
                state_dir=state_dir,
                out=artifact,
                base=base,
                log=log,
                show_progress=show_progress,
                tag=f"fold{k}",
            )
        reader = TurnReader.load(artifact, base)
        rows = examples(held)
        got += reader.read_pairs([r.context for r in rows], [r.turn for r in rows])
        gold += rows
        for f in held:
            mapping[f.name] = str(artifact)
    (state_dir / "folds.json").write_text(json.dumps(mapping, indent=1), encoding="utf-8")
    return _cross_check_report(got, gold, groups, mapping)


def _cross_check_report(
    got: list[Any], gold: list[Example], groups: list[list[Path]], mapping: dict[str, str]
) -> dict[str, Any]:
    """The figures of :func:`cross_check` from the held-out readings."""
    from assistant.eval.understand import iou  # training only: the eval's value match

    kind_ok = [r.kind == g.kind for r, g in zip(got, gold, strict=True)]
    sided = [(r, g) for r, g in zip(got, gold, strict=True) if g.side is not None]
    spans = [(r, g) for r, g in zip(got, gold, strict=True) if g.kind in SPAN_KINDS]
    constrained = [(r, g) for r, g in zip(got, gold, strict=True) if g.dimension is not None]

    def pct(x: Sequence[bool]) -> float | None:
        return round(100.0 * float(np.mean(x)), 2) if len(x) else None

    def side_at(p: float) -> dict[str, Any]:
        sel = [(r, g) for r, g in sided if r.side_p >= p]
        return {
            "precision": pct([r.side == g.side for r, g in sel]),
            "coverage": pct([r.side_p >= p for r, _ in sided]),
        }

    per_kind = {
        k: pct([r.kind == k for r, g in zip(got, gold, strict=True) if g.kind == k]) for k in KINDS
    }
    return {
        "turns": len(gold),
        "folds": [[f.name for f in g] for g in groups],
        "kind_accuracy": pct(kind_ok),
        "kind_recall": per_kind,
        "new_topics_read_as_follow_ups": pct(
            [r.kind != "new_topic" for r, g in zip(got, gold, strict=True) if g.kind == "new_topic"]
        ),
        "side_accuracy": pct([r.side == g.side for r, g in sided]),
        "side_precision_against_coverage": {f"{p:.1f}": side_at(p) for p in (0.5, 0.7, 0.9)},
        "span_accuracy": pct([iou(str(g.value), r.span or "") >= 0.5 for r, g in spans]),
        "constraint_dimension_accuracy": pct(
            [max(r.dimensions, key=r.dimensions.get) == g.dimension for r, g in constrained]
        ),
        "constraint_negation_accuracy": pct(
            [(r.negated_p >= 0.5) == g.negated for r, g in constrained]
        ),
        "fold_models": mapping,
    }
