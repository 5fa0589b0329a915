"""One backend protocol for every language model Sphere talks to (DESIGN §5).

A backend turns chat messages into text, a stream of text chunks, a
grammar-constrained string or a JSON object validated against a schema. The
in-process llama.cpp backend (:mod:`assistant.llm.llama`) and the
OpenAI-compatible HTTP client (:mod:`assistant.llm.http`) share the logic here:
JSON parsing, validation, the retry when a generation stops at its token limit
mid-JSON, and cancellation.

The model is never trusted: every structured answer is decoded under a grammar
*and* validated afterwards; a caller that gets :class:`ModelOutputError` falls
back to its deterministic path.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from assistant.errors import ModelError
from assistant.llm.validate import validate_json

Message = dict[str, str]


class ModelOutputError(ModelError):
    """The model's answer could not be parsed or validated (after the retry)."""

    title = "Model output error"


class ContextOverflowError(ModelError):
    """The prompt does not fit in the model's context window."""

    title = "Prompt too long for the model"


@dataclass
class Completion:
    """One finished generation."""

    text: str
    finish_reason: str = "stop"  # stop | length
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    first_token_seconds: float = 0.0


@dataclass(frozen=True)
class GrammarSpec:
    """A GBNF grammar, compiled by the backend that uses it.

    ``key`` names it in the backend's cache so a grammar built at start-up is
    not rebuilt per call.
    """

    gbnf: str
    key: str = ""

    @property
    def cache_key(self) -> str:
        return self.key or hashlib.sha1(self.gbnf.encode("utf-8")).hexdigest()


@dataclass
class GenerationOptions:
    max_tokens: int = 256
    temperature: float = 0.0
    stop: list[str] = field(default_factory=list)
    grammar: GrammarSpec | None = None
    json_schema: dict[str, Any] | None = None
    cancel: threading.Event | None = None


@runtime_checkable
class Backend(Protocol):
    """What every language-model backend offers."""

    kind: str

    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion: ...

    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion: ...

    def stream(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[str]: ...

    def json(
        self,
        messages: Sequence[Message],
        schema: dict[str, Any],
        *,
        max_tokens: int | None = None,
        cancel: threading.Event | None = None,
    ) -> dict[str, Any]: ...

    def grammar_chat(
        self,
        messages: Sequence[Message],
        grammar: GrammarSpec | str,
        *,
        max_tokens: int | None = None,
        cancel: threading.Event | None = None,
    ) -> str: ...

    def prepare_schema(self, schema: dict[str, Any]) -> None: ...

    def prepare_grammar(self, grammar: GrammarSpec | str) -> None: ...

    def count_tokens(self, text: str) -> int: ...

    def info(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


def as_grammar(grammar: GrammarSpec | str | None) -> GrammarSpec | None:
    if grammar is None or isinstance(grammar, GrammarSpec):
        return grammar
    return GrammarSpec(gbnf=grammar)


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while True:
            block = f.read(chunk)
            if not block:
                break
            h.update(block)
    return h.hexdigest()


def parse_json_answer(text: str) -> Any:
    """Parse the model's JSON answer; tolerate text around one JSON value."""
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    # a weak model may wrap the object in prose or a code fence
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise ModelOutputError("the model's answer contains no JSON value")
    try:
        value, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as exc:
        raise ModelOutputError(f"the model's answer is not valid JSON: {exc}") from None
    return value


class BaseBackend:
    """Shared behaviour: JSON with validation and one retry, grammar answers."""

    kind = "base"
    default_max_tokens = 256

    # subclasses implement _generate and the streaming primitive
    def _generate(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Completion:
        raise NotImplementedError

    def _stream(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Iterator[str]:
        raise NotImplementedError

    def _opts(
        self,
        max_tokens: int | None,
        temperature: float | None,
        stop: Sequence[str] | None,
        grammar: GrammarSpec | str | None,
        cancel: threading.Event | None,
        json_schema: dict[str, Any] | None = None,
    ) -> GenerationOptions:
        return GenerationOptions(
            max_tokens=int(max_tokens or self.default_max_tokens),
            temperature=float(self.default_temperature if temperature is None else temperature),
            stop=list(stop or []),
            grammar=as_grammar(grammar),
            json_schema=json_schema,
            cancel=cancel,
        )

    default_temperature = 0.0

    # ------------------------------------------------------------------ public API
    def chat(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion:
        return self._generate(
            messages, None, self._opts(max_tokens, temperature, stop, grammar, cancel)
        )

    def complete(
        self,
        prompt: str,
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Completion:
        return self._generate(
            None, prompt, self._opts(max_tokens, temperature, stop, grammar, cancel)
        )

    def stream(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        stop: Sequence[str] | None = None,
        grammar: GrammarSpec | str | None = None,
        cancel: threading.Event | None = None,
    ) -> Iterator[str]:
        return self._stream(
            messages, None, self._opts(max_tokens, temperature, stop, grammar, cancel)
        )

    def grammar_chat(
        self,
        messages: Sequence[Message],
        grammar: GrammarSpec | str,
        *,
        max_tokens: int | None = None,
        cancel: threading.Event | None = None,
    ) -> str:
        """The model's answer under ``grammar`` (a GBNF string or spec)."""
        out = self.chat(messages, max_tokens=max_tokens, grammar=grammar, cancel=cancel)
        if out.finish_reason == "length":
            raise ModelOutputError(
                f"the model's answer stopped at its token limit ({max_tokens}) before the "
                "grammar was complete"
            )
        return out.text

    def json(
        self,
        messages: Sequence[Message],
        schema: dict[str, Any],
        *,
        max_tokens: int | None = None,
        cancel: threading.Event | None = None,
    ) -> dict[str, Any]:
        """A JSON object decoded under ``schema`` and validated against it.

        A generation that hits its token limit mid-JSON is retried once with
        twice the tokens; a second failure raises :class:`ModelOutputError` so
        the caller can use its deterministic path.
        """
        budget = int(max_tokens or self.default_max_tokens)
        last_error = ""
        for attempt in range(2):
            out = self._generate(
                messages,
                None,
                self._opts(budget, 0.0, None, None, cancel, json_schema=schema),
            )
            try:
                value = parse_json_answer(out.text)
                validate_json(value, schema)
            except (ModelOutputError, ValueError) as exc:
                last_error = str(exc)
                if out.finish_reason == "length" and attempt == 0:
                    budget *= 2
                    continue
                break
            if not isinstance(value, dict):
                last_error = "the model's answer is not a JSON object"
                break
            return value
        raise ModelOutputError(f"no valid JSON answer from the model: {last_error}")

    def prepare_schema(self, schema: dict[str, Any]) -> None:
        """Build (and cache) what ``json`` needs for ``schema``; fail now if it is bad."""

    def prepare_grammar(self, grammar: GrammarSpec | str) -> None:
        """Compile ``grammar`` now so a bad one fails at start-up."""

    def count_tokens(self, text: str) -> int:
        # a rough figure for servers that cannot count: ~4 characters a token
        return max(1, len(text) // 4) if text else 0

    def info(self) -> dict[str, Any]:
        return {"backend": self.kind}

    def close(self) -> None:
        pass

    def __enter__(self) -> BaseBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
