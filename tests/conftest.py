"""Shared fixtures.

* The whole suite runs offline: ``HF_HUB_OFFLINE=1`` and a guard that fails any
  attempt to open a non-loopback network connection (DESIGN §5, issue 8).
* Settings and the session database point at a temporary folder, so tests never
  touch the user's files.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


class NetworkBlocked(RuntimeError):
    pass


def _is_loopback(address: object) -> bool:
    if isinstance(address, tuple) and address:
        host = address[0]
    else:
        return isinstance(address, (str, bytes))  # AF_UNIX path
    if isinstance(host, bytes):
        host = host.decode()
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_loopback(address):
        raise NetworkBlocked(f"test tried to connect to {address!r}")
    return _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_loopback(address):
        raise NetworkBlocked(f"test tried to connect to {address!r}")
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


def _guarded_getaddrinfo(host, *args, **kwargs):  # type: ignore[no-untyped-def]
    if host not in (None, "localhost", "127.0.0.1", "::1", "") and not _is_loopback((host,)):
        raise NetworkBlocked(f"test tried to resolve {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _guarded_getaddrinfo


@pytest.fixture(autouse=True)
def _isolated_user_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Point the session log and caches at a temp dir for every test."""
    base = tmp_path_factory.mktemp("sphere-user")
    monkeypatch.setenv("SPHERE_SESSION_DB", str(base / "sessions.db"))
    monkeypatch.setenv("SPHERE_CACHE_DIR", str(base / "cache"))
    yield


@pytest.fixture(autouse=True)
def _judge_choices_restored() -> Iterator[None]:
    """The shared follow-up judge is one per process, as in the product, where one
    process answers with one user's settings; in the test process ``sphere ask`` and the
    app configure it with each test's settings (``stance.model: off`` …), which would
    otherwise leak into the next test. Its choices are put back after every test."""
    from assistant.understand.facet_judge import shared_judge

    judge = shared_judge()
    saved = (judge.stance_choice, judge.reader_choice, judge.settings, judge.reader)
    yield
    judge.stance_choice, judge.reader_choice, judge.settings, judge.reader = saved


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    """The real bundled MiniLM embedder, loaded once."""
    from assistant.embed import load_embedder

    return load_embedder("bundled")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not beside the repository")
    return SHARED_DATA


@pytest.fixture(scope="session")
def demo_index_dir(tmp_path_factory: pytest.TempPathFactory, embedder) -> Path:  # type: ignore[no-untyped-def]
    """An index folder holding the bundled demo corpus as index ``demo`` (built once)."""
    from assistant.demo import DEMO_FIELDS, demo_corpus_path
    from assistant.index import BuildOptions, build_index
    from assistant.ingest.loaders import FieldMapping

    folder = tmp_path_factory.mktemp("demo-index") / "indexes"
    opts = BuildOptions(mapping=FieldMapping(**DEMO_FIELDS))
    build_index(folder, "demo", [demo_corpus_path()], embedder, opts)
    return folder
