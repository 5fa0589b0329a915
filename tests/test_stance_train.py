"""``sphere train stance`` end to end on a tiny data set: artifact, card, resume after a kill."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

TOPICS = ("We should ban fireworks", "Homework should be abolished", "Zoos should be closed")
PRO = ("it protects {x}", "the evidence shows {x} is harmful", "people are safer without {x}")
CON = ("{x} brings joy to many", "there is no harm in {x}", "{x} is part of our culture")


def _data(folder: Path) -> Path:
    folder.mkdir()
    rows = []
    for t in TOPICS:
        x = t.split()[-1]
        for split in ("train", "dev"):
            rows += [
                {"topic": t, "text": p.format(x=x), "label": "pro", "split": split} for p in PRO
            ]
            rows += [
                {"topic": t, "text": c.format(x=x), "label": "con", "split": split} for c in CON
            ]
    (folder / "arct.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return folder


def _cmd(tmp: Path, data: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "assistant.cli",
        "train",
        "stance",
        "--data-dir",
        str(data),
        "--sources",
        "arct",
        "--state-dir",
        str(tmp / "state"),
        "--out",
        str(tmp / "out" / "m.safetensors"),
        "--no-progress",
        *extra,
    ]


def _train(tmp: Path, data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _cmd(tmp, data, "--json", *extra), capture_output=True, text=True, cwd=tmp, timeout=600
    )


def test_train_writes_artifact_card_and_resumes(tmp_path: Path) -> None:
    data = _data(tmp_path / "data")
    first = _train(tmp_path, data, "--max-steps", "2")
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    art = Path(out["artifact"])
    card = json.loads(art.with_suffix(".json").read_text())
    digest = hashlib.sha256((data / "arct.jsonl").read_bytes()).hexdigest()
    assert card["data"] == {"arct.jsonl": digest}
    assert card["sha256"] == hashlib.sha256(art.read_bytes()).hexdigest()
    assert art.stat().st_size < 20_000_000
    assert card["config"]["seed"] == 13
    # the same command continues where it stopped
    second = _train(tmp_path, data, "--max-steps", "4")
    assert second.returncode == 0, second.stderr
    assert "resuming at step 2" in second.stderr
    assert json.loads(second.stdout)["run_id"] == out["run_id"]

    from assistant.stance.model import StanceModel

    model = StanceModel.load(art)
    js = model.sides(
        "Should fireworks be banned?",
        ("Ban fireworks.", "Keep fireworks."),
        ["Fireworks scare pets.", "Fireworks are fun."],
    )
    for j in js:
        assert sum(j.p) == pytest.approx(1.0)
    assert model.info()["sha256"] == card["sha256"]


def test_train_survives_a_kill(tmp_path: Path) -> None:
    data = _data(tmp_path / "data")
    cmd = _cmd(tmp_path, data, "--checkpoint-seconds", "0", "--epochs", "50")
    proc = subprocess.Popen(
        cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.time() + 300
    states = list((tmp_path / "state").glob("*/state.pt"))
    while not states and time.time() < deadline and proc.poll() is None:
        time.sleep(0.5)
        states = list((tmp_path / "state").glob("*/state.pt"))
    assert states, "no checkpoint was written"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    again = _train(tmp_path, data, "--epochs", "50", "--max-steps", "1")
    # the killed run had done at least one step: the rerun resumes past it and stops at once
    assert again.returncode == 0, again.stderr
    assert "resuming at step" in again.stderr
    step = int(again.stderr.split("resuming at step ")[1].split()[0])
    assert step >= 1
    assert np.isfinite(json.loads(again.stdout)["dev"]["temperature"])


def test_train_continues_a_trained_artifact(tmp_path: Path) -> None:
    """``--init``: a run starts from an artifact's weights; the artifact's hash and the
    epochs it had are in the new card (so the continuation is reproducible), and a
    missing artifact is a clear error."""
    data = _data(tmp_path / "data")
    first = _train(tmp_path, data, "--max-steps", "2")
    assert first.returncode == 0, first.stderr
    art = Path(json.loads(first.stdout)["artifact"])
    kept = tmp_path / "first.safetensors"
    kept.write_bytes(art.read_bytes())
    kept.with_suffix(".json").write_text(art.with_suffix(".json").read_text())
    more = _train(tmp_path, data, "--init", str(kept), "--lr", "2e-5", "--max-steps", "2")
    assert more.returncode == 0, more.stderr
    assert f"starting from {kept}" in more.stderr
    card = json.loads(art.with_suffix(".json").read_text())
    assert card["config"]["init_sha256"] == hashlib.sha256(kept.read_bytes()).hexdigest()
    assert card["config"]["epoch_offset"] == 2 and card["config"]["lr"] == 2e-5
    assert json.loads(more.stdout)["run_id"] != json.loads(first.stdout)["run_id"]
    bad = _train(tmp_path, data, "--init", str(tmp_path / "nope.safetensors"))
    assert bad.returncode == 2 and "no stance artifact" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_one_epoch_run_scores_dev_once_and_records_it(tmp_path: Path) -> None:
    """One epoch leaves no epoch to choose: dev is scored once, in fp32 at the end,
    and that pass is the epoch's history entry (not a bf16 pass after the epoch and
    the same pass again)."""
    data = _data(tmp_path / "data")
    done = _train(tmp_path, data, "--epochs", "1")
    assert done.returncode == 0, done.stderr
    card = json.loads((tmp_path / "out" / "m.json").read_text())
    assert card["best_epoch"] == 1
    [entry] = card["history"]
    assert entry["epoch"] == 1 and entry["score"] == card["dev"]["score"]
    assert done.stderr.count("scoring the dev split") == 1


def test_a_soup_averages_trained_artifacts(tmp_path: Path) -> None:
    """``sphere train stance-soup``: the mean of two artifacts' trained weights, its
    temperature refitted on the dev split, the ingredients in its card; a soup of one
    artifact with itself gives back its weights; one ingredient is a clear error."""
    import torch
    from safetensors.numpy import load_file

    from assistant.embed import bundled_model_path
    from assistant.stance.artifact import apply_artifact, read_card
    from assistant.stance.net import load_base

    data = _data(tmp_path / "data")
    arts = []
    for steps in ("2", "4"):
        run = _train(tmp_path, data, "--max-steps", steps, "--seed", steps)
        assert run.returncode == 0, run.stderr
        art = Path(json.loads(run.stdout)["artifact"])
        kept = tmp_path / f"s{steps}.safetensors"
        kept.write_bytes(art.read_bytes())
        kept.with_suffix(".json").write_text(art.with_suffix(".json").read_text())
        arts.append(kept)

    def soup(*ingredients: Path, out: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "assistant.cli", "train", "stance-soup"]
        for a in ingredients:
            cmd += ["--ingredient", str(a)]
        cmd += ["--data-dir", str(data), "--out", str(tmp_path / out), "--json"]
        return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=600)

    done = soup(*arts, out="soup.safetensors")
    assert done.returncode == 0, done.stderr
    card = json.loads((tmp_path / "soup.json").read_text())
    assert [c["sha256"] for c in card["soup"]] == [
        hashlib.sha256(a.read_bytes()).hexdigest() for a in arts
    ]
    assert np.isfinite(card["temperature"]) and card["temperature"] > 0

    def weights(path: Path) -> dict[str, torch.Tensor]:
        net, _ = load_base(bundled_model_path())
        apply_artifact(net, path, read_card(path))
        return net.trained_state()

    a, b, s = (weights(p) for p in (*arts, tmp_path / "soup.safetensors"))
    head = "head.weight"
    assert torch.allclose(s[head], (a[head] + b[head]) / 2, atol=1e-6)
    layer = "encoder.encoder.layer.3.output.dense.weight"
    # the layers are stored as int8 changes from the base: the mean up to that rounding
    step = float(np.abs(load_file(str(tmp_path / "soup.safetensors"))[f"{layer}:s"]).max())
    assert float((s[layer] - (a[layer] + b[layer]) / 2).abs().max()) <= step
    assert not torch.equal(a[head], b[head])

    same = soup(arts[0], arts[0], out="same.safetensors")
    assert same.returncode == 0, same.stderr
    stored = load_file(str(arts[0]))
    again = load_file(str(tmp_path / "same.safetensors"))
    assert stored.keys() == again.keys()
    for k in stored:  # W = base + q·s rounds in float32: requantised, q moves by one at most
        diff = np.abs(stored[k].astype(np.float64) - again[k].astype(np.float64))
        assert diff.max() <= (1 if k.endswith(":q") else 1e-6 * max(1.0, np.abs(stored[k]).max()))

    one = soup(arts[0], out="one.safetensors")
    assert one.returncode == 2 and "two or more" in one.stderr
    assert "Traceback" not in one.stderr
