"""``load_backend(settings.llm)``: 'bundled', a GGUF path, or an http(s) URL."""

from __future__ import annotations

import threading
from typing import Any

from assistant.config import LLMSettings
from assistant.llm.base import BaseBackend

_CACHE: dict[tuple[Any, ...], BaseBackend] = {}
_CACHE_LOCK = threading.Lock()


def is_url(model: str) -> bool:
    return model.startswith(("http://", "https://"))


def load_backend(settings: LLMSettings | None = None, *, cache: bool = True) -> BaseBackend:
    """The backend named by ``settings.model`` (loaded once per process when ``cache``).

    Raises :class:`~assistant.errors.ModelError` for a missing or corrupt GGUF
    and :class:`~assistant.errors.BackendUnavailableError` for a server that
    cannot be reached.
    """
    s = settings or LLMSettings()  # type: ignore[call-arg]
    key = (s.model, s.n_ctx, s.n_threads, s.seed, s.server_model, s.timeout)
    if cache:
        with _CACHE_LOCK:
            if key in _CACHE:
                return _CACHE[key]
    backend: BaseBackend
    if is_url(s.model):
        from assistant.llm.http import HttpBackend

        backend = HttpBackend(
            s.model,
            model=s.server_model,
            api_key=s.api_key,
            timeout=s.timeout,
            max_tokens=s.max_tokens,
            temperature=s.temperature,
            seed=s.seed,
        )
    else:
        from assistant.llm.llama import LlamaCppBackend

        backend = LlamaCppBackend(
            s.model,
            n_ctx=s.n_ctx,
            n_threads=s.n_threads,
            seed=s.seed,
            max_tokens=s.max_tokens,
            temperature=s.temperature,
        )
    if cache:
        with _CACHE_LOCK:
            _CACHE[key] = backend
    return backend


def close_backends() -> None:
    """Close every backend :func:`load_backend` cached, now (the CLI, before it returns).

    A model freed by ``__del__`` while the interpreter shuts down can print
    "Exception ignored in ... __del__" and a traceback, which a user reads as a
    crash; freeing it here, while every module is intact, prints nothing.
    """
    with _CACHE_LOCK:
        backends = list(_CACHE.values())
        _CACHE.clear()
    for backend in backends:
        backend.close()
