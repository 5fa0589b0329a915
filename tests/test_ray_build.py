"""Index builds on a real Ray cluster: same index as a local build, resumable, worker-kill safe.

A real cluster (``ray start --head --block`` on 127.0.0.1 with two CPUs, so two
worker processes each holding one embedder) is started once for the module
and stopped by its process id at the end. Marked slow: the cluster and the
two embedders take ~20 s to come up.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from assistant.config import load_settings
from assistant.errors import IndexIncompleteError, InputError
from assistant.index import BuildOptions, Index, build_index

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A one-node Ray cluster with two worker CPUs; yields its address."""
    ray_bin = Path(sys.executable).with_name("ray")
    port = _free_port()
    # short: Ray's socket paths live under it and must stay below 107 characters
    temp = tempfile.mkdtemp(prefix="rayt", dir="/tmp")
    # Token authentication with a token of its own: `ray start` would otherwise turn it
    # on or off by whether ~/.ray/auth_token exists (written by any earlier local
    # ray.init), and the test would depend on the machine's history. The driver gets the
    # token but not RAY_AUTH_MODE: enabling it when a token is at hand is Sphere's job.
    token = secrets.token_hex(32)
    saved = {k: os.environ.pop(k, None) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN")}
    os.environ["RAY_AUTH_TOKEN"] = token
    env = {
        **os.environ,
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": token,
    }
    proc = subprocess.Popen(
        [
            str(ray_bin),
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--node-ip-address=127.0.0.1",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={temp}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    address = f"127.0.0.1:{port}"
    deadline = time.time() + 90
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"ray start failed: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.5)
    try:
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        proc.send_signal(signal.SIGTERM)  # --block: stops the processes it started
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(temp, ignore_errors=True)
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v


def _records(path: Path, n: int) -> Path:
    with path.open("w") as fh:
        for i in range(n):
            words = " ".join(f"w{(i * 7 + j) % 97}" for j in range(30))
            fh.write(json.dumps({"id": i, "text": f"Record {i} on topic {i % 13}. {words}"}) + "\n")
    return path


def _corpus(tmp: Path) -> list[Path]:
    src = tmp / "docs"
    src.mkdir()
    _records(src / "a.jsonl", 150)
    _records(src / "b.jsonl", 90)
    (src / "c.txt").write_text("A plain text file about bread and yeast. " * 60)
    return [src]


def _contents(
    folder: Path,
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], np.ndarray]:
    index = Index.open(folder.parent, folder.name)
    try:
        docs = index.meta.db.execute(
            "SELECT row, doc_id, file, title, text, attrs FROM documents ORDER BY row"
        ).fetchall()
        passages = index.meta.db.execute(
            'SELECT passage_id, doc_row, ordinal, start, "end", text FROM passages '
            "ORDER BY passage_id"
        ).fetchall()
        pids = np.array([p[0] for p in passages], dtype=np.int64)
        vecs = index.vectors(pids)
    finally:
        index.close()
    return docs, passages, vecs


def _settings():  # type: ignore[no-untyped-def]
    return load_settings(REPO / "config.yaml")


@pytest.fixture(scope="module")
def local_build(tmp_path_factory: pytest.TempPathFactory, embedder):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("ray-local")
    paths = _corpus(tmp)
    build_index(tmp / "idx", "local", paths, embedder, BuildOptions(batch_passages=32))
    return paths, _contents(tmp / "idx" / "local")


def _assert_same(a, b) -> None:  # type: ignore[no-untyped-def]
    docs_a, pass_a, vec_a = a
    docs_b, pass_b, vec_b = b
    assert docs_a == docs_b
    assert pass_a == pass_b
    assert vec_a.shape == vec_b.shape
    np.testing.assert_allclose(vec_a, vec_b, atol=1e-5)


def test_ray_build_equals_local_build(cluster: str, local_build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from assistant.index.distributed import RayEmbedder

    paths, reference = local_build
    emb = RayEmbedder(_settings(), cluster, 2)
    try:
        assert emb.workers == 2 and len(set(emb.pids())) == 2  # two worker processes
        report = build_index(tmp_path, "r", paths, emb, BuildOptions(batch_passages=32))  # type: ignore[arg-type]
    finally:
        emb.close()
    assert report.documents == len(reference[0]) and not report.resumed
    _assert_same(_contents(tmp_path / "r"), reference)


def test_killed_worker_loses_and_duplicates_nothing(
    cluster: str, local_build, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from assistant.index.distributed import RayEmbedder

    paths, reference = local_build
    emb = RayEmbedder(_settings(), cluster, 2)
    killed: list[int] = []
    try:
        pids = emb.pids()

        def progress(event: str, _data: dict[str, object]) -> None:
            # after the first committed batch, kill a worker with batches in flight
            if event == "batch" and not killed:
                busy = max(range(len(pids)), key=lambda i: emb._load[i])
                os.kill(pids[busy], signal.SIGKILL)
                killed.append(pids[busy])

        report = build_index(
            tmp_path,
            "k",
            paths,
            emb,
            BuildOptions(batch_passages=16),
            progress,  # type: ignore[arg-type]
        )
        assert killed and killed[0] not in emb.pids()  # Ray restarted the actor
    finally:
        emb.close()
    assert report.documents == len(reference[0])
    _assert_same(_contents(tmp_path / "k"), reference)


def test_killed_driver_resumes(cluster: str, local_build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    paths, reference = local_build
    env = {
        **os.environ,
        "SPHERE_INDEX_DIR": str(tmp_path / "idx"),
        "HF_HUB_OFFLINE": "1",
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    args = ["index", "build", "d", *map(str, paths), "--batch-passages", "8", "-q"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", *args, "--ray", cluster, "--ray-workers", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    db = tmp_path / "idx/d/meta.sqlite"
    deadline = time.time() + 180
    committed = 0
    while time.time() < deadline and proc.poll() is None:
        if db.exists():
            try:
                c = sqlite3.connect(db, timeout=0.1)
                try:
                    committed = c.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
                finally:
                    c.close()
            except sqlite3.Error:
                committed = 0
            if committed >= 40:
                break
        time.sleep(0.05)
    assert proc.poll() is None, f"build ended before the kill: {proc.stderr.read().decode()[-800:]}"  # type: ignore[union-attr]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with pytest.raises(IndexIncompleteError, match="incomplete"):
        Index.open(tmp_path / "idx", "d")
    # resumed on the cluster again: committed documents are kept, the rest added once
    from assistant.index.distributed import RayEmbedder

    emb = RayEmbedder(_settings(), cluster, 2)
    try:
        report = build_index(tmp_path / "idx", "d", paths, emb, BuildOptions(batch_passages=8))  # type: ignore[arg-type]
    finally:
        emb.close()
    assert report.resumed and 0 < report.documents_added < len(reference[0])
    _assert_same(_contents(tmp_path / "idx" / "d"), reference)


def _run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "assistant.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})},
        timeout=120,
    )


def test_bad_addresses_are_clear_errors(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("some text to index")
    env = {"SPHERE_INDEX_DIR": str(tmp_path / "idx")}
    bad = _run_cli("index", "build", "x", str(src), "--ray", "no-port-here", env=env)
    assert bad.returncode == 2 and "bad Ray address" in bad.stderr
    assert "Traceback" not in bad.stderr
    port = _free_port()  # nothing listens there
    down = _run_cli("index", "build", "x", str(src), "--ray", f"127.0.0.1:{port}", env=env)
    assert down.returncode == 5 and "cannot reach the Ray cluster" in down.stderr
    assert "Traceback" not in down.stderr
    with pytest.raises(InputError):
        from assistant.index.distributed import check_address

        check_address("host:notaport")


def test_ray_missing_is_a_clear_error(tmp_path: Path) -> None:
    src = tmp_path / "a.txt"
    src.write_text("some text to index")
    # a `ray` that cannot be imported, first on the path
    fake = tmp_path / "noray"
    (fake / "ray").mkdir(parents=True)
    (fake / "ray" / "__init__.py").write_text("raise ImportError('no ray here')\n")
    env = {
        "SPHERE_INDEX_DIR": str(tmp_path / "idx"),
        "PYTHONPATH": os.pathsep.join([str(fake), str(REPO)]),
    }
    out = _run_cli("index", "build", "x", str(src), "--ray", env=env)
    assert out.returncode == 5, out.stderr
    assert "needs Ray, which is not installed" in out.stderr
    assert "sphere-assistant[ray]" in out.stderr and "Traceback" not in out.stderr


def test_token_auth_is_turned_on_when_a_token_is_at_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `ray start` does: a driver joining by address sends the token it has."""
    from assistant.index.distributed import _token_auth_for

    monkeypatch.setenv("HOME", str(tmp_path))
    for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(k, raising=False)
    assert not _token_auth_for("127.0.0.1:6379") and "RAY_AUTH_MODE" not in os.environ
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("t" * 64)
    assert not _token_auth_for("")  # a local Ray decides for itself
    assert "RAY_AUTH_MODE" not in os.environ
    assert _token_auth_for("127.0.0.1:6379") and os.environ["RAY_AUTH_MODE"] == "token"
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # an explicit choice stands
    assert not _token_auth_for("10.0.0.5:6379") and os.environ["RAY_AUTH_MODE"] == "disabled"
