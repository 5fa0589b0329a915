"""The HTTP backend against the real llama_cpp.server on 127.0.0.1.

The server is ``python -m assistant.llm.serve`` — ``llama_cpp.server`` itself,
started with the guard that keeps llama.cpp off AMX instructions (on machines
that report AMX but cannot run it, the plain server dies with SIGILL on its
first prompt; see assistant.llm.llama.safe_model_params).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from assistant.errors import BackendUnavailableError
from assistant.llm.http import HttpBackend

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from assistant.llm.llama import bundled_gguf_path

    port = _free_port()
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
        "1024",
        "--n_threads",
        "2",
    ]
    # the server logs a lot to stderr: a pipe nobody reads would fill and block it
    log_path = tmp_path_factory.mktemp("server") / "server.log"
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


MSGS = [{"role": "user", "content": "Name three colours."}]


def test_chat(server: str) -> None:
    b = HttpBackend(server, timeout=60)
    out = b.chat(MSGS, max_tokens=12)
    assert out.text.strip()
    assert out.finish_reason in ("stop", "length")
    assert b.info()["url"] == server and b.model


def test_stream(server: str) -> None:
    b = HttpBackend(server, timeout=60)
    chunks = list(b.stream(MSGS, max_tokens=12))
    assert len(chunks) > 1 and "".join(chunks).strip()


def test_json_schema(server: str) -> None:
    b = HttpBackend(server, timeout=60)
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
        "required": ["answer"],
    }
    value = b.json(
        [{"role": "user", "content": "Is water wet? JSON please."}], schema, max_tokens=20
    )
    assert value["answer"] in ("yes", "no")


def test_grammar_and_token_count(server: str) -> None:
    from assistant.llm.grammar import choice_grammar

    b = HttpBackend(server, timeout=60)
    assert b.grammar_chat(MSGS, choice_grammar(["red", "blue"]), max_tokens=6) in ("red", "blue")
    assert 0 < b.count_tokens("hello world") < 6


def test_server_down() -> None:
    port = _free_port()  # nothing listens there
    with pytest.raises(BackendUnavailableError, match="cannot reach"):
        HttpBackend(f"http://127.0.0.1:{port}", timeout=2)


def test_slow_server_times_out() -> None:
    """A server that accepts the connection and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    port = sock.getsockname()[1]
    conns: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                conns.append(sock.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        b = HttpBackend(f"http://127.0.0.1:{port}", timeout=0.5, check=False)
        with pytest.raises(BackendUnavailableError, match="did not answer"):
            b.chat(MSGS, max_tokens=4)
    finally:
        stop.set()
        t.join()
        for c in conns:
            c.close()
        sock.close()
