"""``sphere train stance-soup``: the uniform average of trained stance artifacts.

A uniform model soup (Wortsman et al. 2022, "Model soups", §2: θ = (1/k) Σ_i θ_i
over k fine-tuned models from one initialisation) or, for successive epochs of one
run, stochastic weight averaging (Izmailov et al. 2018, eq. 2: the running mean of
the weights visited). Either costs nothing at inference: the soup is one network
of the same size. Every trained tensor (the encoder's layers and the head) is
averaged after each artifact is applied to the base weights
(:func:`~assistant.stance.artifact.apply_artifact`); the frozen embeddings are the
base's in every ingredient.

The averaged network is scored on the dev items of its last ingredient's
configuration and its temperature refitted there
(:func:`~assistant.stance.train.calibrate`, the final pass of a training run), so
its probabilities are calibrated as a trained artifact's are; the card records the
ingredients by sha256.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from assistant.errors import InputError
from assistant.stance.artifact import apply_artifact, read_card, write_artifact
from assistant.stance.data import file_sha256


def config_of(card: dict[str, Any]) -> Any:
    """The :class:`~assistant.stance.train.TrainConfig` a card records (lists as tuples)."""
    from assistant.stance.train import TrainConfig

    known = {f.name for f in fields(TrainConfig)}
    raw = {k: v for k, v in card.get("config", {}).items() if k in known}
    for key in ("sources", "select_sources"):
        if key in raw:
            raw[key] = tuple(raw[key])
    return TrainConfig(**raw)


def average_state(states: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The elementwise mean of trained states with the same tensors (float32 sums in a
    fixed order, so the result is the same on every CPU)."""
    if not states:
        raise InputError("a soup needs at least one ingredient")
    names = set(states[0])
    for st in states[1:]:
        if set(st) != names:
            raise InputError("the ingredients do not hold the same tensors")
    return {
        name: sum((st[name].float() for st in states[1:]), states[0][name].float()) / len(states)
        for name in sorted(names)
    }


def soup(
    ingredients: Sequence[Path],
    *,
    stance_dir: Path,
    perspectrum: Path | None,
    written: Path | None,
    base: Path,
    out: Path,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Write the uniform soup of ``ingredients`` to ``out``; returns its card's summary."""
    from assistant.stance.corpus import load_corpus
    from assistant.stance.net import load_base
    from assistant.stance.train import calibrate, dev_items

    t0 = time.time()
    if len(ingredients) < 2:
        raise InputError("a soup needs two or more --ingredient artifacts")
    cards = []
    for path in ingredients:
        if not path.is_file():
            raise InputError(f"--ingredient: no stance artifact at {path}")
        cards.append(read_card(path))
    cfg = config_of(cards[-1])
    # the dev data first: a wrong --data-dir fails before any network is read
    corpus = load_corpus(stance_dir, perspectrum if cfg.perspectrum else None, cfg.sources, written)
    dev = dev_items(corpus, cfg.dev_per_source, cfg.seed)
    net, tok = load_base(base, cfg.attention)
    start = {k: v.detach().clone() for k, v in net.trained_state().items()}
    states = []
    for path, card in zip(ingredients, cards, strict=True):
        net.load_state_dict(start, strict=False)  # each ingredient applied to the base
        apply_artifact(net, path, card)
        states.append({k: v.detach().clone() for k, v in net.trained_state().items()})
        log(f"read {path.name} (run {card.get('run_id', '?')})")
    net.load_state_dict(average_state(states), strict=False)
    net.eval()
    score, _, temperature, dev_summary = calibrate(net, tok, dev, cfg, log)
    shas = [file_sha256(p) for p in ingredients]
    run_id = "soup-" + hashlib.sha256("".join(shas).encode()).hexdigest()[:12]
    card = {
        "run_id": run_id,
        "config": asdict(cfg),
        "data": corpus.hashes,
        "soup": [
            {"file": p.name, "sha256": sha, "run_id": c.get("run_id")}
            for p, sha, c in zip(ingredients, shas, cards, strict=True)
        ],
        "dev": dev_summary,
        "labels": cards[-1].get("labels"),
        "train_minutes": round((time.time() - t0) / 60, 1),
    }
    artifact = write_artifact(net, base, out, temperature=temperature, card=card)
    return {
        "run_id": run_id,
        "artifact": str(artifact),
        "dev": dev_summary,
        "score": round(score, 2),
        "minutes": card["train_minutes"],
    }
