"""The HTTP backend against the real llama_cpp.server on 127.0.0.1.

The server is ``python -m assistant.llm.serve`` — ``llama_cpp.server`` itself,
started with the guard that keeps llama.cpp off AMX instructions (on machines
that report AMX but cannot run it, the plain server dies with SIGILL on its
first prompt; see assistant.llm.llama.safe_model_params).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from assistant.errors import BackendUnavailableError
from assistant.llm.http import HttpBackend
from tests.llama_server import free_port, running_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("server"), n_ctx=1024) as url:
        yield url


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
    port = free_port()  # nothing listens there
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
