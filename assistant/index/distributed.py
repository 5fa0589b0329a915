"""Index builds on a Ray cluster: ``sphere index build NAME PATH --ray [ADDRESS]``.

The driver (the ``sphere`` process) still reads, chunks and commits, exactly
as a local build does (:mod:`assistant.index.build`); only the embedding
moves. Each Ray actor holds one embedder (the same model, loaded on its node),
reserves one CPU and runs torch on one thread, and encodes whole batches of
passage texts (so W actors on a node use W cores, not W × all of them). A
batch the driver reads is sorted by length and cut into tasks (little
padding, as in one local ``encode`` call), sent longest first to the actor
with the least text still to embed; the driver keeps batches in flight (at
least one queued behind the one it commits, so a worker never waits for the
driver), and commits their vectors in the order the batches were read,
through the same crash-safe writer: vectors appended and fsynced, then one
SQLite transaction per batch. So:

* the index is the one a local build writes (same passage ids, same rows;
  vectors equal up to float rounding of the encoder's thread count);
* a killed driver loses only uncommitted batches, and the next build resumes
  where the last commit stopped (the actors die with their driver);
* a killed worker is restarted by Ray (``max_restarts=-1``) and its
  unfinished batches are re-run (``max_task_retries=-1``); as the driver
  commits each batch once, in order, no passage is lost or duplicated.

Ray is optional (``pip install 'sphere-assistant[ray]'``). Without an address a local
Ray instance is started with one worker per core; ``auto`` joins the cluster
this machine is part of; ``HOST:PORT`` joins that cluster's head node
(``ray start --head`` prints it). Usage statistics are switched off: Sphere
never talks to the network on its own.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Sequence
from typing import Any

import numpy as np

from assistant.errors import InputError, SphereError


class RayError(SphereError):
    """Ray is missing, or the cluster cannot be reached or used."""

    title = "Ray error"
    exit_code = 5


def import_ray() -> Any:
    """``import ray``, or a clear error saying how to install it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no phoning home
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    # Ray starts its workers 15 nice levels below the driver (worker_niceness); on a busy
    # machine the embedders then starve while the driver waits. A Ray started here keeps
    # them at the driver's priority, as a local build's embedding is.
    os.environ.setdefault("RAY_worker_niceness", "0")
    try:
        import ray
    except ImportError:
        raise RayError(
            "--ray needs Ray, which is not installed",
            hint="install it with `pip install 'sphere-assistant[ray]'` (or `pip install ray`), "
            "or build without --ray",
        ) from None
    return ray


def check_address(address: str) -> str:
    """Validate a Ray address: '' (local), 'auto', 'HOST:PORT' or 'ray://HOST:PORT'."""
    address = (address or "").strip()
    if address in ("", "auto", "local"):
        return address
    hostport = address[len("ray://") :] if address.startswith("ray://") else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InputError(
            f"bad Ray address {address!r}",
            hint="give HOST:PORT of the head node (as `ray start --head` prints it), "
            "'auto' for the cluster this machine belongs to, or no address for a local Ray",
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=3):
            pass
    except OSError as exc:
        raise RayError(
            f"cannot reach the Ray cluster at {address} ({exc.strerror or exc})",
            hint="start it with `ray start --head --port PORT` on the head node, "
            "or check the host and port",
        ) from None
    return address


def _token_auth_for(address: str) -> bool:
    """Join a cluster by address with Ray's token authentication when a token is at hand.

    ``ray start --head`` turns token authentication on by itself when a token
    exists (``~/.ray/auth_token``, which any local ``ray.init`` of Ray >= 2.59
    writes), but ``ray.init(address=...)`` never does, so a driver joining by
    address would be refused ("InvalidAuthToken"). Like ``ray start``, turn it on
    when ``RAY_AUTH_MODE`` is unset and a token is available (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH`` or the default file); a cluster without
    authentication accepts a driver that sends one. Returns whether it is on.
    """
    if address in ("", "local"):
        return os.environ.get("RAY_AUTH_MODE", "").lower() == "token"
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None:
        return mode.lower() == "token"
    token_file = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.join(
        os.path.expanduser("~"), ".ray", "auth_token"
    )
    if os.environ.get("RAY_AUTH_TOKEN") or os.path.isfile(token_file):
        os.environ["RAY_AUTH_MODE"] = "token"
        # Ray caches its config at import; re-read it, as Ray's own switch does
        with contextlib.suppress(Exception):
            from ray._raylet import Config  # type: ignore[attr-defined]

            Config.initialize("")
        return True
    return False


def _loopback(address: str) -> bool:
    host = address.removeprefix("ray://").rpartition(":")[0].strip("[]")
    return host in ("127.0.0.1", "localhost", "::1")


class _EmbedActor:
    """One embedder in a Ray worker process."""

    def __init__(
        self, model: str, device: str, batch_size: int, max_seq_length: int, threads: int = 1
    ) -> None:
        import torch

        from assistant.embed import load_embedder

        # as many threads as the CPUs Ray reserved for the actor: without it every actor
        # runs torch on all the node's cores, and W actors on a node oversubscribe it
        torch.set_num_threads(max(1, threads))
        self.embedder = load_embedder(
            model, device=device, batch_size=batch_size, max_seq_length=max_seq_length
        )

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self.embedder.encode(list(texts))

    def pid(self) -> int:
        return os.getpid()


class RayEmbedder:
    """An embedder whose batches run on Ray actors; ``submit`` / ``result`` in order.

    Also a plain :class:`~assistant.embed.Embedder` (``encode`` submits and
    waits), with the name and dimension of the configured model, read on the
    driver without loading it.
    """

    def __init__(self, settings: Any, address: str = "", workers: int | None = None) -> None:
        from assistant.embed import lazy_embedder_from_settings

        address = check_address(address)
        ray = import_ray()
        self._ray = ray
        lazy = lazy_embedder_from_settings(settings)
        self.name: str = lazy.name
        self.dim: int = lazy.dim
        self._started = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": "ERROR",
            }
            try:
                if address in ("", "local"):
                    ray.init(
                        num_cpus=workers or os.cpu_count() or 1,
                        object_store_memory=256 * 1024 * 1024,
                        _node_ip_address="127.0.0.1",  # a one-machine cluster: no IP lookup
                        **kwargs,
                    )
                else:
                    _token_auth_for(address)
                    if _loopback(address):
                        kwargs["_node_ip_address"] = "127.0.0.1"
                    ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError, OSError) as exc:
                raise RayError(
                    f"cannot start or join Ray at {address or 'a new local instance'}: "
                    f"{str(exc).splitlines()[0][:200]}",
                    hint="check the address (`ray status` on the head node); a cluster "
                    "with token authentication needs its token in RAY_AUTH_TOKEN or "
                    "~/.ray/auth_token (`ray get-auth-token` on the head); or build without --ray",
                ) from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        n = workers or max(cpus, 1)
        if cpus and n > cpus:
            raise RayError(
                f"asked for {n} Ray workers, but the cluster has {cpus} CPUs",
                hint=f"use --ray-workers {cpus} or fewer, or add nodes to the cluster",
            )
        e = settings.embedder
        actor_cls = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1)(_EmbedActor)
        self.actors = [
            actor_cls.remote(e.model, e.device, e.batch_size, e.max_seq_length, 1) for _ in range(n)
        ]
        self._load = [0] * n  # characters each actor has still to embed
        self._pending: dict[Any, tuple[int, int]] = {}  # ref -> (actor, characters)

    @property
    def workers(self) -> int:
        return len(self.actors)

    def pids(self) -> list[int]:
        """Process id of each actor (waits until every actor is up)."""
        return [int(p) for p in self._ray.get([a.pid.remote() for a in self.actors])]

    def _settle(self, ref: Any) -> None:
        i, cost = self._pending.pop(ref, (-1, 0))
        if i >= 0:
            self._load[i] -= cost

    def submit(self, texts: Sequence[str]) -> Any:
        """Send a batch to the actor with the least text still to embed (batches that
        have finished count as done, fetched or not); returns the ticket for :meth:`result`."""
        if self._pending:
            done, _ = self._ray.wait(list(self._pending), num_returns=len(self._pending), timeout=0)
            for ref in done:
                self._settle(ref)
        i = min(range(len(self.actors)), key=lambda j: self._load[j])
        ref = self.actors[i].encode.remote(list(texts))
        cost = sum(len(t) for t in texts) + 1
        self._load[i] += cost
        self._pending[ref] = (i, cost)
        return ref

    def result(self, ticket: Any) -> np.ndarray:
        self._settle(ticket)
        try:
            return np.asarray(self._ray.get(ticket), dtype=np.float32)
        except self._ray.exceptions.RayError as exc:
            raise RayError(
                f"a Ray worker failed to embed a batch: {str(exc).splitlines()[0][:200]}",
                hint="committed batches are kept; run the same command again to resume",
            ) from None

    def encode(self, texts: Sequence[str], **_kw: Any) -> np.ndarray:
        return self.result(self.submit(texts))

    def cancel_pending(self) -> None:
        """Drop batches still in flight (the build stopped); their results are not needed."""
        for ref in list(self._pending):
            with contextlib.suppress(Exception):  # best effort: close() kills the actors
                self._ray.cancel(ref)
        self._pending.clear()
        self._load = [0] * len(self.actors)

    def close(self) -> None:
        """Kill the actors; shut Ray down if this embedder started it."""
        for a in self.actors:
            with contextlib.suppress(Exception):  # already gone
                self._ray.kill(a)
        self.actors = []
        if self._started:
            self._ray.shutdown()
            self._started = False
