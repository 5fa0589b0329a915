"""Which language model earns its place, and which stages get it.

**The rule** (docs/ARCHITECTURE.md, "Which language model Sphere uses"): a model is
*capable* when

* it is served over HTTP (``llm.model: http(s)://…/v1``: an OpenAI-compatible
  server such as llama.cpp's ``llama-server``, vLLM or Ollama, which people run
  for models larger than Sphere would load itself), or
* it is a GGUF file whose header says it has at least
  :data:`CAPABLE_PARAMETERS` (3 billion) parameters (the sum of its tensors'
  element counts, or ``general.size_label`` when the tensors cannot be
  counted) **and** a context of at least :data:`CAPABLE_CONTEXT` (4096) tokens,
  the smaller of the model's trained context (``<arch>.context_length``) and
  the window Sphere opens (``llm.n_ctx``).

The bundled SmolLM2-135M (134.5M parameters) is not capable. The header is
read without loading the model (:mod:`assistant.llm.gguf`).

**The plan** (:func:`llm_plan`): with ``llm.use: never`` no stage gets a
model; with ``always`` the question parser gets it, and the summaries too when
``summary.path`` is ``model``, or ``auto`` and the model is capable; with
``auto`` a capable model goes to the parser and the summaries (``summary.path:
auto``), a model that is not capable goes nowhere (unless ``summary.path:
model`` asks for it) and **is not loaded**. The plan is recorded with every
answer (``TurnResult.model["llm"]``), loaded or not.

:func:`is_capable` is the question parser's entry point; it never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.errors import ModelError
from assistant.llm.factory import is_url

CAPABLE_PARAMETERS = 3_000_000_000
CAPABLE_CONTEXT = 4096
STAGES = ("understand", "summarize")


@dataclass
class Capability:
    """What Sphere knows of a configured model, and whether it is capable."""

    model: str  # as configured: 'bundled', a path or a URL
    kind: str  # "gguf" | "server"
    capable: bool
    reason: str  # the figures behind the verdict: "135M parameters < 3B"
    path: str = ""
    url: str = ""
    name: str = ""
    parameters: int | None = None
    context_length: int | None = None  # the model's own (trained) context
    context: int | None = None  # what Sphere would use: min(context_length, n_ctx)
    quantization: str = ""
    size_bytes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "model": self.model,
            "kind": self.kind,
            "capable": self.capable,
            "capable_reason": self.reason,
        }
        for key in (
            "path",
            "url",
            "name",
            "parameters",
            "context_length",
            "quantization",
            "size_bytes",
        ):
            value = getattr(self, key)
            if value not in ("", None):
                d[key] = value
        return d


def _gguf_capability(model: str, path: Path, n_ctx: int | None, info: Any = None) -> Capability:
    from assistant.llm.gguf import format_parameters, read_gguf
    from assistant.llm.llama import check_gguf

    if info is None:
        check_gguf(path)  # missing, not a file, not GGUF: the messages the loader gives
        info = read_gguf(path)
    params = info.parameters
    ctx = info.context_length
    context = min(ctx, n_ctx) if ctx and n_ctx else (ctx or None)
    problems = []
    if params is None:
        problems.append("its parameter count is unknown (no tensors, no size label)")
    elif params < CAPABLE_PARAMETERS:
        problems.append(f"{format_parameters(params)} parameters < 3B")
    if context is None:
        problems.append("its context length is unknown")
    elif context < CAPABLE_CONTEXT:
        where = "llm.n_ctx" if n_ctx and ctx and n_ctx < ctx else "its trained context"
        problems.append(f"context {context} < {CAPABLE_CONTEXT} ({where})")
    reason = (
        "; ".join(problems)
        if problems
        else f"{format_parameters(params)} parameters, context {context}"
    )
    return Capability(
        model=model,
        kind="gguf",
        capable=not problems,
        reason=reason,
        path=str(path),
        name=info.name,
        parameters=params,
        context_length=ctx,
        context=context,
        quantization=info.quantization,
        size_bytes=info.size_bytes,
    )


def resolve_model_path(model: str) -> Path:
    """``bundled`` or a path → the GGUF file (not checked beyond existence of the package)."""
    from assistant.llm.llama import BUNDLED, bundled_gguf_path

    return bundled_gguf_path() if model.strip() == BUNDLED else Path(model).expanduser()


def assess(target: Any) -> Capability:
    """The :class:`Capability` of ``target``.

    ``target`` is a :class:`~assistant.config.Settings`, an
    :class:`~assistant.config.LLMSettings`, a model string (``bundled``, a
    GGUF path, an http(s) URL), a :class:`~pathlib.Path`, a loaded backend
    (llama.cpp or HTTP) or a :class:`~assistant.llm.gguf.GGUFInfo`.
    Raises :class:`~assistant.errors.ModelError` when a GGUF cannot be read.
    """
    from assistant.config import LLMSettings, Settings
    from assistant.llm.gguf import GGUFInfo

    if isinstance(target, Settings):
        target = target.llm
    if isinstance(target, LLMSettings):
        model = target.model.strip()
        if is_url(model):
            return _server(model)
        return _gguf_capability(model, resolve_model_path(model), target.n_ctx)
    if isinstance(target, GGUFInfo):
        return _gguf_capability(target.path, Path(target.path), None, target)
    if isinstance(target, Path):
        return _gguf_capability(str(target), target.expanduser(), None)
    if isinstance(target, str):
        model = target.strip()
        if is_url(model):
            return _server(model)
        return _gguf_capability(model, resolve_model_path(model), None)
    kind = getattr(target, "kind", "")
    if kind == "http":
        url = str(getattr(target, "base_url", "") or "")
        return _server(url + "/v1" if url and not url.endswith("/v1") else url)
    path = getattr(target, "path", None)
    if kind == "llama.cpp" and path is not None:
        n_ctx = getattr(target, "n_ctx", None)
        return _gguf_capability(str(path), Path(path), int(n_ctx) if n_ctx else None)
    raise ModelError(f"cannot tell what model {type(target).__name__} is")


def _server(url: str) -> Capability:
    return Capability(
        model=url,
        kind="server",
        capable=True,
        reason="an OpenAI-compatible server",
        url=url,
    )


def is_capable(target: Any) -> bool:
    """Whether ``target``'s model is capable (module docstring). Never raises.

    ``target``: the settings (``Settings`` or ``LLMSettings``), a model string
    or path, or a backend from :func:`assistant.llm.load_backend`; an object
    with a boolean ``capable`` attribute (a test double) answers for itself.
    ``None``, an unreadable GGUF or an unknown object is not capable.
    """
    if target is None:
        return False
    own = getattr(target, "capable", None)
    if isinstance(own, bool):
        return own
    try:
        return assess(target).capable
    except Exception:
        return False


@dataclass
class LLMPlan:
    """Which stages get the language model, and so whether it is loaded."""

    use: str  # llm.use
    stages: tuple[str, ...]
    reason: str
    capability: Capability | None = None
    summary_path: str = "deterministic"  # what summary.path resolves to with this model
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def load(self) -> bool:
        return bool(self.stages)

    @property
    def capable(self) -> bool:
        return bool(self.capability and self.capability.capable)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"use": self.use}
        if self.capability is not None:
            d.update(self.capability.to_dict())
        d.update(
            {
                "stages": list(self.stages),
                "summary_path": self.summary_path,
                "loaded": False,
                "why": self.reason,
            }
        )
        d.update(self.extra)
        return d


def resolve_summary_path(path: str, use: str, capable: bool) -> str:
    """``summary.path`` with this model: ``auto`` is ``model`` only for a capable one."""
    if use == "never":
        return "deterministic"
    if path == "auto":
        return "model" if capable else "deterministic"
    return path


def llm_plan(settings: Any) -> LLMPlan:
    """The plan for ``settings`` (a :class:`~assistant.config.Settings`).

    Reads the GGUF header (not the model) unless ``llm.use`` is ``never``; a
    missing or damaged GGUF raises :class:`~assistant.errors.ModelError`.
    """
    use = settings.llm.use
    if use == "never":
        return LLMPlan(use, (), "llm.use: never", None, "deterministic")
    cap = assess(settings.llm)
    summary = resolve_summary_path(settings.summary.path, use, cap.capable)
    stages: list[str] = []
    if use == "always" or cap.capable:
        stages.append("understand")
    if summary == "model":
        stages.append("summarize")
    verdict = "capable" if cap.capable else "not capable"
    if stages:
        why = f"llm.use: {use}, the model is {verdict} ({cap.reason}): " + " and ".join(stages)
    else:
        why = (
            f"llm.use: auto and the model is not capable ({cap.reason}): no stage uses it, "
            "so it is not loaded (the rules plan the question, the deterministic path "
            "summarizes)"
        )
    return LLMPlan(use, tuple(stages), why, cap, summary)
