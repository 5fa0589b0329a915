"""A real llama.cpp server on 127.0.0.1 for tests (``python -m assistant.llm.serve``:
``llama_cpp.server`` with the guard that keeps llama.cpp off AMX instructions)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(log_dir: Path, *, n_ctx: int) -> Iterator[str]:
    """Serve the bundled GGUF; yields ``http://127.0.0.1:PORT`` once ``/v1/models`` answers."""
    from assistant.llm.llama import bundled_gguf_path

    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "assistant.llm.serve",
        "--model",
        str(bundled_gguf_path()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
        "--n_threads",
        "2",
    ]
    # the server logs a lot to stderr: a pipe nobody reads would fill and block it
    log_path = log_dir / "server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = log_path.read_text(errors="replace")[-2000:]
                pytest.fail(f"llama_cpp.server exited early ({proc.returncode}): {err}")
            try:
                if httpx.get(url + "/v1/models", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.3)
        else:
            pytest.fail("llama_cpp.server did not start within 300 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
