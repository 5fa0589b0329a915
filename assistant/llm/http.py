"""OpenAI-compatible HTTP backend (llama.cpp's server, llama_cpp.server, vLLM, Ollama).

``POST {base}/v1/chat/completions`` (and ``/v1/completions``), streaming by
server-sent events. Structured output goes as ``response_format``:
``{"type": "json_object", "schema": …}`` is what ``llama_cpp.server`` and
llama.cpp's ``llama-server`` accept (the latter also reads
``{"type": "json_schema", "json_schema": {"schema": …}}``); a GBNF grammar goes
in the ``grammar`` field, which both llama.cpp servers honour. The answer is
validated here whatever the server claims to have enforced.

A server that is down, refuses, or is slower than ``timeout`` raises
:class:`BackendUnavailableError` with the URL and what to do.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

import httpx

from assistant.errors import BackendUnavailableError, CancelledError, ModelError
from assistant.llm.base import BaseBackend, Completion, GenerationOptions, Message


class HttpBackend(BaseBackend):
    kind = "http"

    def __init__(
        self,
        base_url: str,
        *,
        model: str = "",
        api_key: str = "",
        timeout: float = 60.0,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int = 0,
        check: bool = True,
    ) -> None:
        base = base_url.rstrip("/")
        if base.endswith("/v1"):
            base = base[: -len("/v1")]
        self.base_url = base
        self.model = model
        self.timeout = timeout
        self.default_max_tokens = max_tokens
        self.default_temperature = temperature
        self.seed = seed
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
        )
        self._models: list[str] | None = None
        if check:
            self._models = self.list_models()
            if not self.model and self._models:
                self.model = self._models[0]

    # ------------------------------------------------------------------ transport
    def _unavailable(self, exc: Exception) -> BackendUnavailableError:
        if isinstance(exc, httpx.TimeoutException):
            return BackendUnavailableError(
                f"the model server at {self.base_url} did not answer within "
                f"{self.timeout:g} s ({type(exc).__name__})",
                hint="raise llm.timeout, use a smaller model, or check the server's load",
            )
        return BackendUnavailableError(
            f"cannot reach the model server at {self.base_url}: {exc}",
            hint="start it (e.g. `python -m llama_cpp.server --model MODEL.gguf`) or set "
            "llm.model to 'bundled'",
        )

    def _check_status(self, resp: httpx.Response) -> None:
        if resp.status_code >= 400:
            try:
                body = resp.read().decode("utf-8", "replace")[:500]
            except httpx.HTTPError:
                body = ""
            if resp.status_code in (502, 503, 504):
                raise BackendUnavailableError(
                    f"the model server at {self.base_url} answered {resp.status_code}: {body}"
                )
            raise ModelError(
                f"the model server at {self.base_url} refused the request "
                f"({resp.status_code}): {body}"
            )

    def list_models(self) -> list[str]:
        try:
            resp = self._client.get("/v1/models")
        except httpx.HTTPError as exc:
            raise self._unavailable(exc) from None
        self._check_status(resp)
        try:
            data = resp.json().get("data", [])
        except (ValueError, AttributeError):
            return []
        return [str(m.get("id", "")) for m in data if isinstance(m, dict)]

    def _body(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> tuple[str, dict[str, Any]]:
        body: dict[str, Any] = {
            "max_tokens": opts.max_tokens,
            "temperature": opts.temperature,
            "seed": self.seed,
            "stream": True,
        }
        if self.model:
            body["model"] = self.model
        if opts.stop:
            body["stop"] = list(opts.stop)
        if opts.json_schema is not None:
            body["response_format"] = {"type": "json_object", "schema": opts.json_schema}
        elif opts.grammar is not None:
            body["grammar"] = opts.grammar.gbnf
        if messages is not None:
            body["messages"] = list(messages)
            return "/v1/chat/completions", body
        body["prompt"] = prompt or ""
        return "/v1/completions", body

    def _events(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Iterator[tuple[str, str | None]]:
        """Yield (text, finish_reason) per server-sent event."""
        path, body = self._body(messages, prompt, opts)
        try:
            with self._client.stream("POST", path, json=body) as resp:
                self._check_status(resp)
                for line in resp.iter_lines():
                    if opts.cancel is not None and opts.cancel.is_set():
                        raise CancelledError("generation cancelled")
                    line = line.strip()
                    if not line.startswith("data:"):
                        continue
                    payload = line[len("data:") :].strip()
                    if payload == "[DONE]":
                        break
                    try:
                        event = json.loads(payload)
                    except json.JSONDecodeError:
                        continue
                    if "error" in event:
                        raise ModelError(f"the model server reported: {event['error']}")
                    choices = event.get("choices") or [{}]
                    choice = choices[0]
                    text = (choice.get("delta") or {}).get("content") or choice.get("text") or ""
                    yield text, choice.get("finish_reason")
        except httpx.HTTPError as exc:
            raise self._unavailable(exc) from None

    def _generate(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Completion:
        parts: list[str] = []
        finish = "stop"
        t0 = time.perf_counter()
        first = 0.0
        for text, reason in self._events(messages, prompt, opts):
            if text:
                if not parts:
                    first = time.perf_counter() - t0
                parts.append(text)
            if reason:
                finish = reason
        return Completion(
            text="".join(parts),
            finish_reason=finish,
            completion_tokens=len(parts),
            seconds=time.perf_counter() - t0,
            first_token_seconds=first,
        )

    def _stream(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Iterator[str]:
        for text, _ in self._events(messages, prompt, opts):
            if text:
                yield text

    # ------------------------------------------------------------------ misc
    def count_tokens(self, text: str) -> int:
        """Exact count from llama_cpp.server's ``/extras/tokenize``; else an estimate."""
        if not text:
            return 0
        try:
            resp = self._client.post("/extras/tokenize", json={"input": text})
            if resp.status_code == 200:
                tokens = resp.json().get("tokens")
                if isinstance(tokens, list):
                    return len(tokens)
        except (httpx.HTTPError, ValueError):
            pass
        return super().count_tokens(text)

    def info(self) -> dict[str, Any]:
        return {
            "backend": self.kind,
            "model": self.model,
            "url": self.base_url,
            "sha256": None,
            "n_ctx": None,
            "timeout": self.timeout,
        }

    def close(self) -> None:
        self._client.close()
