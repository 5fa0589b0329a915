"""``sphere train stance``: train the stance cross-encoder on this machine's CPU.

Reproducible: a fixed seed orders the data and initialises the head; the
sha256 of every data file read goes into the artifact's card. Resumable: the
model, optimizer, schedule, position in the epoch and random state are saved
atomically every ``checkpoint_seconds`` (two minutes) under ``state_dir``; running the
same command again continues from there (a changed configuration or data
starts afresh and says so).

Each step takes ``batch`` items (:class:`~assistant.stance.corpus.Item`), each
a text with a claim and its opposite, so the network sees 2 × ``batch``
sequences. The loss is the per-claim cross-entropy (supports / opposes /
neither for each claim) plus ``pair_weight`` × the cross-entropy of the side
decision between the two claims (the product of experts of
:mod:`~assistant.stance.side`, trained end to end) — the decision Sphere
takes with the model.

After every epoch the model is scored on the dev items (side accuracy per
source, and how well "neither" is recognised); the epoch with the best mean
side accuracy over the sources is kept. The temperature that calibrates its
side probabilities is fitted on the same dev items, then the artifact is
written (:mod:`~assistant.stance.artifact`).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import InputError
from assistant.stance.corpus import (
    PARAGRAPH_SOURCES,
    SOURCES,
    WRITTEN,
    Corpus,
    Item,
    load_corpus,
    make_items,
    sample_rows,
)
from assistant.stance.data import LABELS, claim_pair, file_sha256, flip
from assistant.stance.side import (
    NONE,
    expected_calibration_error,
    fit_temperature,
    side_logits,
    softmax,
)
from assistant.workers import usable_cpus

DEFAULT_CAPS = {
    "ibm_argq30k": 12000,
    "ukp_sentential": 9000,
    "sick": 1000,
}


@dataclass
class TrainConfig:
    """Everything that decides the trained model (hashed into the run id)."""

    sources: tuple[str, ...] = SOURCES
    perspectrum: bool = True
    caps: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_CAPS))
    seed: int = 13
    epochs: int = 2
    batch: int = 16  # items per step (2 sequences each)
    lr: float = 6e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.06
    max_len: int = 128
    pair_weight: float = 1.0
    abstract_rate: float = 0.15
    offtopic_rate: float = 0.05
    viewpoint_rate: float = 0.3
    negation_rate: float = 0.0  # measured and not adopted (docs/STANCE_MODEL.md)
    # round 10, paragraphs: a written document's own claim pair for this share of its
    # items; shapes whose words mostly argue the other side count more in the loss; the
    # epoch is chosen by the paragraph sources' dev side accuracy
    own_claims_rate: float = 0.5
    weights: dict[str, float] = field(
        default_factory=lambda: {"rebuttal": 2.0, "concession_first": 2.0}
    )
    select_sources: tuple[str, ...] = (*PARAGRAPH_SOURCES, WRITTEN)
    attention: str = "eager"  # the faster kernel for bf16 training (net.load_encoder)
    # what one judgment reads in use (StanceModel.judge_documents): a passage whole
    unit: str = "passage"
    dev_per_source: int = 600
    precision: str = "bf16"  # bf16 autocast where the CPU has it natively, else fp32
    # continue a trained model (``sphere train stance --init``): the sha256 of the artifact
    # whose weights start the run, and how many epochs it was trained for, so that the
    # continuation's epochs draw fresh orders and augmentations (epoch index + offset)
    init_sha256: str = ""
    epoch_offset: int = 0

    def run_id(self, hashes: dict[str, str]) -> str:
        config = asdict(self)
        if not config["negation_rate"]:  # added later: runs without it keep their ids
            del config["negation_rate"]
        if config["attention"] == "eager":  # the same function: only the speed differs
            del config["attention"]
        blob = json.dumps({"config": config, "data": hashes}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


@dataclass
class DevScores:
    """Dev metrics of one model: side accuracy per source and the "neither" detection."""

    side_accuracy: dict[str, float]
    none_f1: dict[str, float]
    mean_side_accuracy: float
    logits: np.ndarray  # (n, 3) side logits of every dev item
    target: np.ndarray  # (n,) 0 = A, 1 = B, 2 = neither

    def summary(self) -> dict[str, Any]:
        return {
            "mean_side_accuracy": round(self.mean_side_accuracy, 2),
            "side_accuracy": {k: round(v, 2) for k, v in self.side_accuracy.items()},
            "none_f1": {k: round(v, 2) for k, v in self.none_f1.items()},
        }


def bf16_native() -> bool:
    try:
        import torch

        return bool(torch.backends.mkldnn.is_available()) and bool(
            getattr(torch.cpu, "_is_avx512_bf16_supported", lambda: False)()
        )
    except Exception:  # pragma: no cover - old torch
        return False


def dev_items(corpus: Corpus, per_source: int, seed: int) -> dict[str, list[Item]]:
    """The dev items, by claim form: ``claims`` (the two claims the parser makes of the
    topic) and ``viewpoints`` (two short dev texts of the topic taking opposite sides)."""
    rng = random.Random(seed + 7)
    by: dict[str, list[Any]] = defaultdict(list)
    for r in corpus.dev:
        by[r.source].append(r)
    rows = []
    views: list[Item] = []
    for s in sorted(by):
        rs = by[s]
        rows += rng.sample(rs, per_source) if len(rs) > per_source else rs
        vi = [
            it
            for it in make_items(rs, random.Random(seed + 11), viewpoint_rate=1.0)
            if (it.a, it.b) != claim_pair(it.question) and it.label != NONE
        ]
        views += rng.sample(vi, per_source) if len(vi) > per_source else vi
    forms = {"claims": make_items(rows, rng), "viewpoints": views}
    own = [r for r in corpus.dev if r.claims is not None]
    if own:  # the written dev documents under their writers' own two claims
        forms["own_claims"] = make_items(own, random.Random(seed + 13), own_claims_rate=1.0)
    return forms


def evaluate_dev(
    net: Any,
    tok: Any,
    dev: dict[str, list[Item]],
    *,
    max_len: int,
    bf16: bool,
    select: Sequence[str] = (),
) -> tuple[float, dict[str, DevScores]]:
    """(selection score, scores per claim form): the mean over claim forms of the mean
    side accuracy over the ``select`` sources (all sources when none of them is there)."""
    scores = {}
    for form, items in dev.items():
        lp_a, lp_b = score_items(net, tok, items, max_len=max_len, bf16=bf16)
        scores[form] = dev_scores(items, lp_a, lp_b)
    per_form = []
    for sc in scores.values():
        chosen = [v for k, v in sc.side_accuracy.items() if k in select]
        per_form.append(float(np.mean(chosen)) if chosen else sc.mean_side_accuracy)
    return float(np.mean(per_form)), scores


def score_items(
    net: Any, tokenizer: Any, items: Sequence[Item], *, max_len: int, bf16: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Per-claim log-probabilities (n, 3) for claim a and for claim b of each item."""
    from assistant.stance.net import predict

    claims = [c for it in items for c in it.claims]
    texts = [it.text for it in items for _ in (0, 1)]
    lp = predict(net, tokenizer, claims, texts, max_len=max_len, bf16=bf16).numpy()
    return lp[0::2], lp[1::2]


def dev_scores(items: Sequence[Item], lp_a: np.ndarray, lp_b: np.ndarray) -> DevScores:
    z = side_logits(np.exp(lp_a), np.exp(lp_b))
    target = np.array([it.label for it in items])
    src = np.array([it.source for it in items])
    acc: dict[str, float] = {}
    f1: dict[str, float] = {}
    for s in sorted(set(src.tolist())):
        m = src == s
        sided = m & (target != NONE)
        if sided.any():
            pred = np.argmax(z[sided][:, :2], axis=1)
            acc[s] = 100.0 * float((pred == target[sided]).mean())
        if (m & (target == NONE)).any():
            pred_none = np.argmax(z[m], axis=1) == NONE
            gold_none = target[m] == NONE
            tp = float((pred_none & gold_none).sum())
            prec = tp / max(float(pred_none.sum()), 1.0)
            rec = tp / max(float(gold_none.sum()), 1.0)
            f1[s] = 100.0 * (2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    mean = float(np.mean(list(acc.values()))) if acc else 0.0
    return DevScores(acc, f1, mean, z, target)


def _batches(items: list[Item], batch: int, rng: random.Random) -> list[list[Item]]:
    """Batches of similar length (less padding), in random order."""
    chunk = batch * 50
    out: list[list[Item]] = []
    for s in range(0, len(items), chunk):
        part = sorted(items[s : s + chunk], key=lambda it: len(it.text) + len(it.question))
        out += [part[i : i + batch] for i in range(0, len(part), batch)]
    rng.shuffle(out)
    return out


def _epoch_batches(corpus: Corpus, cfg: TrainConfig, epoch: int) -> list[list[Item]]:
    rng = random.Random(cfg.seed * 1009 + epoch)
    rows = sample_rows(corpus.train, cfg.caps, rng)
    items = make_items(
        rows,
        rng,
        abstract_rate=cfg.abstract_rate,
        offtopic_rate=cfg.offtopic_rate,
        viewpoint_rate=cfg.viewpoint_rate,
        negation_rate=cfg.negation_rate,
        own_claims_rate=cfg.own_claims_rate,
        weights=cfg.weights,
    )
    return _batches(items, cfg.batch, rng)


def _atomic_save(obj: Any, path: Path) -> None:
    import torch

    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


class ThreadTuner:
    """Every ``period`` steps, time a few steps on 1 thread and on all cores; keep the faster.

    On a busy two-core machine a second OpenMP thread that is pre-empted makes
    the first wait at every synchronisation, and training runs several times
    slower than on one thread; on a quiet one, all cores are faster. The
    choice changes only speed (and float summation order), not the recipe.
    """

    def __init__(self, cores: int, period: int = 300, trial: int = 8) -> None:
        self.options = sorted({1, max(1, cores)})
        self.period, self.trial = period, trial
        self.times: dict[int, list[float]] = {}
        self.current = self.options[-1]
        self.count = 0
        self.t0 = 0.0

    def before_step(self) -> None:
        import torch

        phase = self.count % self.period
        if len(self.options) > 1 and phase < self.trial * len(self.options):
            want = self.options[phase // self.trial]
            if want != torch.get_num_threads():
                torch.set_num_threads(want)
        elif phase == self.trial * len(self.options) and self.times:
            self.current = min(self.times, key=lambda k: float(np.median(self.times[k])))
            torch.set_num_threads(self.current)
            self.times = {}
        self.t0 = time.perf_counter()

    def after_step(self) -> None:
        import torch

        phase = self.count % self.period
        if len(self.options) > 1 and phase < self.trial * len(self.options):
            self.times.setdefault(torch.get_num_threads(), []).append(time.perf_counter() - self.t0)
        self.count += 1


def optimizer(
    net: Any, *, lr: float, head_lr: float, weight_decay: float, total: int, warmup: float
) -> tuple[Any, Any]:
    """AdamW over the trainable parameters (the encoder's matrices with weight decay, its
    vectors without, the heads, every parameter outside ``encoder.``, at ``head_lr``) and
    a linear warm-up over ``warmup`` of the ``total`` steps, then a linear decay to 0."""
    import torch

    decay, no_decay, heads = [], [], []
    for name, p in net.named_parameters():
        if not p.requires_grad:
            continue
        if not name.startswith("encoder."):
            heads.append(p)
        elif p.ndim == 1:
            no_decay.append(p)
        else:
            decay.append(p)
    opt = torch.optim.AdamW(
        [
            {"params": decay, "lr": lr, "weight_decay": weight_decay},
            {"params": no_decay, "lr": lr, "weight_decay": 0.0},
            {"params": heads, "lr": head_lr, "weight_decay": 0.0},
        ]
    )
    warm = max(1, int(warmup * total))

    def lr_factor(step: int) -> float:
        if step < warm:
            return (step + 1) / warm
        return max(0.0, (total - step) / max(1, total - warm))

    return opt, torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)


def seed_everything(seed: int) -> None:
    """Python's, NumPy's and torch's generators, for a run that repeats."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def save_training_state(path: Path, net: Any, opt: Any, sched: Any, **extra: Any) -> None:
    """A resumable checkpoint, written atomically: weights, optimizer, schedule, torch's
    generator and ``extra`` (step, history, ...)."""
    import torch

    _atomic_save(
        {
            "model": net.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "torch_rng": torch.get_rng_state(),
            **extra,
        },
        path,
    )


def restore_training_state(path: Path, net: Any, opt: Any, sched: Any) -> dict[str, Any] | None:
    """Load a :func:`save_training_state` checkpoint into ``net``, ``opt``, ``sched`` and
    torch's generator; its other entries, or None when there is none."""
    import torch

    if not path.exists():
        return None
    st = torch.load(path, weights_only=False)
    net.load_state_dict(st.pop("model"))
    opt.load_state_dict(st.pop("opt"))
    sched.load_state_dict(st.pop("sched"))
    torch.set_rng_state(st.pop("torch_rng"))
    return dict(st)


def optimizer_step(loss: Any, net: Any, opt: Any, sched: Any) -> None:
    """Back-propagate ``loss``, clip the gradient norm at 1, step and schedule."""
    import torch

    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    sched.step()
    opt.zero_grad(set_to_none=True)


@dataclass
class TrainResult:
    run_id: str
    history: list[dict[str, Any]]
    best_epoch: int
    temperature: float
    dev: dict[str, Any]
    seconds: float
    artifact: Path | None
    hashes: dict[str, str]
    counts: dict[str, dict[str, int]]


def train(
    cfg: TrainConfig,
    *,
    stance_dir: Path,
    perspectrum: Path | None,
    state_dir: Path,
    out: Path | None,
    base: Path,
    log: Callable[[str], None] = print,
    show_progress: bool = True,
    max_steps: int | None = None,
    checkpoint_seconds: float = 120.0,
    init: Path | None = None,
    written: Path | None = None,
) -> TrainResult:
    """Train (or resume) and write the artifact to ``out`` (see the module docstring).

    ``init``: an artifact whose weights start the run (its sha256 must be
    ``cfg.init_sha256``), to continue training a shipped model for more epochs."""
    t_start = time.time()
    corpus = load_corpus(stance_dir, perspectrum if cfg.perspectrum else None, cfg.sources, written)

    import torch

    from assistant.progress_bar import step_bar
    from assistant.stance.net import encode, load_base

    torch.set_num_threads(usable_cpus())
    run_id = cfg.run_id(corpus.hashes)
    state_dir = state_dir / run_id
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "config.json").write_text(
        json.dumps({"config": asdict(cfg), "data": corpus.hashes}, indent=1), encoding="utf-8"
    )
    bf16 = cfg.precision == "bf16" and bf16_native()
    log(
        f"run {run_id}: {len(corpus.train)} train rows, {len(corpus.dev)} dev rows; "
        f"{'bf16' if bf16 else 'fp32'} on {torch.get_num_threads()} threads"
    )

    seed_everything(cfg.seed)
    net, tok = load_base(base, cfg.attention)
    if init is not None:
        from assistant.stance.artifact import apply_artifact, read_card

        if file_sha256(init) != cfg.init_sha256:
            raise InputError(f"{init} is not the artifact this run continues (sha256 differs)")
        apply_artifact(net, init, read_card(init))
        log(f"starting from {init} (trained {cfg.epoch_offset} epochs)")
    net.freeze_embeddings()
    net.train()
    steps_per_epoch = len(_epoch_batches(corpus, cfg, cfg.epoch_offset))
    total = steps_per_epoch * cfg.epochs
    opt, sched = optimizer(
        net,
        lr=cfg.lr,
        head_lr=cfg.head_lr,
        weight_decay=cfg.weight_decay,
        total=total,
        warmup=cfg.warmup,
    )
    dev = dev_items(corpus, cfg.dev_per_source, cfg.seed)

    ckpt = state_dir / "state.pt"
    step, history = 0, []
    best_epoch, best_score = -1, -1.0
    st = restore_training_state(ckpt, net, opt, sched)
    if st is not None:
        step, history = int(st["step"]), list(st["history"])
        best_epoch, best_score = int(st["best_epoch"]), float(st["best_score"])
        log(f"resuming at step {step} of {total}")

    def save_state() -> None:
        save_training_state(
            ckpt,
            net,
            opt,
            sched,
            step=step,
            history=history,
            best_epoch=best_epoch,
            best_score=best_score,
        )

    ce = torch.nn.CrossEntropyLoss(reduction="none")
    bar = step_bar(total, initial=step, desc="stance", show=show_progress)
    last_save = time.time()
    running = None
    tuner = ThreadTuner(usable_cpus())
    while step < total and (max_steps is None or step < max_steps):
        epoch, pos = divmod(step, steps_per_epoch)
        batches = _epoch_batches(corpus, cfg, epoch + cfg.epoch_offset)
        for b in batches[pos:]:
            claims = [c for it in b for c in it.claims]
            texts = [it.text for it in b for _ in (0, 1)]
            y = torch.tensor([lab for it in b for lab in (it.label, flip(it.label))])
            side_y = torch.tensor([it.label for it in b])
            w = torch.tensor([it.weight for it in b], dtype=torch.float32)
            enc = encode(tok, claims, texts, cfg.max_len)
            tuner.before_step()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                logits = net(**enc)
            logits = logits.float()
            # each item's loss counts its weight; the mean is over the items' weights
            loss = (ce(logits, y) * w.repeat_interleave(2)).sum() / (2 * w.sum())
            if cfg.pair_weight:
                lp = torch.log_softmax(logits, dim=-1)
                la, lb = lp[0::2], lp[1::2]
                z = torch.stack(
                    [la[:, 0] + lb[:, 1], lb[:, 0] + la[:, 1], la[:, 2] + lb[:, 2]], dim=1
                )
                loss = loss + cfg.pair_weight * (ce(z, side_y) * w).sum() / w.sum()
            optimizer_step(loss, net, opt, sched)
            tuner.after_step()
            step += 1
            lv = float(loss.detach())
            running = lv if running is None else 0.98 * running + 0.02 * lv
            bar.update(1)
            bar.set_postfix(loss=f"{running:.3f}", epoch=epoch + 1, threads=tuner.current)
            if time.time() - last_save > checkpoint_seconds:
                save_state()
                last_save = time.time()
            if max_steps is not None and step >= max_steps:
                save_state()
                break
        # a run of one epoch has no epoch to choose: its dev pass is the final one below
        if step % steps_per_epoch == 0 and step > 0 and cfg.epochs > 1:
            log(f"scoring the dev split ({sum(len(v) for v in dev.values())} items)")
            score, by_form = evaluate_dev(
                net, tok, dev, max_len=cfg.max_len, bf16=bf16, select=cfg.select_sources
            )
            done = step // steps_per_epoch
            entry = _history_entry(done, step, running, score, by_form, t_start)
            history.append(entry)
            log(
                f"epoch {done}: dev score {score:.2f} "
                + json.dumps({f: e for f, e in entry.items() if f in dev})
            )
            if score > best_score:
                best_score, best_epoch = score, done
                _atomic_save(net.trained_state(), state_dir / "best.pt")
            save_state()
            last_save = time.time()
    bar.close()
    if best_epoch < 0:  # no epoch scored (one epoch, or stopped by max_steps): these weights
        _atomic_save(net.trained_state(), state_dir / "best.pt")
        best_epoch = step // max(steps_per_epoch, 1)
    net.load_state_dict(torch.load(state_dir / "best.pt", weights_only=False), strict=False)
    score, by_form, temperature, dev_summary = calibrate(net, tok, dev, cfg, log)
    if not history and step >= steps_per_epoch:  # one epoch: scored once, here
        history.append(_history_entry(best_epoch, step, running, score, by_form, t_start))
        log(f"epoch {best_epoch}: dev score {score:.2f}")
    artifact = None
    if out is not None:
        from assistant.stance.artifact import write_artifact

        card = {
            "run_id": run_id,
            "config": asdict(cfg),
            "data": corpus.hashes,
            "counts": corpus.counts(),
            "history": history,
            "best_epoch": best_epoch,
            "dev": dev_summary,
            "labels": list(LABELS),
            "train_minutes": round((time.time() - t_start) / 60, 1),
        }
        artifact = write_artifact(net, base, out, temperature=temperature, card=card)
    return TrainResult(
        run_id,
        history,
        best_epoch,
        temperature,
        dev_summary,
        time.time() - t_start,
        artifact,
        corpus.hashes,
        corpus.counts(),
    )


def calibrate(
    net: Any,
    tok: Any,
    dev: dict[str, list[Item]],
    cfg: TrainConfig,
    log: Callable[[str], None] = print,
) -> tuple[float, dict[str, DevScores], float, dict[str, Any]]:
    """The final dev pass in float32: (selection score, scores per claim form, the
    temperature fitted on every dev item's side logits, the card's dev summary)."""
    log(f"scoring the dev split ({sum(len(v) for v in dev.values())} items, float32)")
    score, by_form = evaluate_dev(
        net, tok, dev, max_len=cfg.max_len, bf16=False, select=cfg.select_sources
    )
    logits = np.concatenate([sc.logits for sc in by_form.values()])
    target = np.concatenate([sc.target for sc in by_form.values()])
    temperature = fit_temperature(logits, target)
    calibrated = softmax(logits, temperature)
    dev_summary = {
        "score": round(score, 2),
        **{form: sc.summary() for form, sc in by_form.items()},
        "temperature": round(temperature, 4),
        "ece": round(expected_calibration_error(calibrated, target), 4),
        "items": {form: len(items) for form, items in dev.items()},
    }
    return score, by_form, temperature, dev_summary


def _history_entry(
    epoch: int, step: int, loss: float | None, score: float, by_form: dict[str, Any], t0: float
) -> dict[str, Any]:
    """One epoch's line of the card's history: its step, loss and dev scores."""
    return {
        "epoch": epoch,
        "step": step,
        "loss": loss,
        "score": round(score, 2),
        **{form: sc.summary() for form, sc in by_form.items()},
        "minutes": round((time.time() - t0) / 60, 1),
    }


def steps_for(cfg: TrainConfig, corpus: Corpus) -> int:
    return len(_epoch_batches(corpus, cfg, 0)) * cfg.epochs
