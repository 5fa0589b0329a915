"""Language-model layer: one backend protocol, llama.cpp and HTTP backends,
grammars for constrained output, prompt files (DESIGN §5).

Public API::

    from assistant.llm import load_backend, load_prompts
    backend = load_backend(settings.llm)          # 'bundled' | GGUF path | http(s) URL
    prompt = load_prompts().get("local_summary")
    data = backend.json(prompt.messages(query=..., documents=...), prompt.schema_for(...))

    from assistant.llm import is_capable
    is_capable(settings)      # or a backend, a GGUF path, a URL: the rule in capable.py
"""

from __future__ import annotations

from assistant.llm.base import (
    Backend,
    BaseBackend,
    Completion,
    ContextOverflowError,
    GrammarSpec,
    ModelOutputError,
)
from assistant.llm.capable import is_capable, llm_plan
from assistant.llm.factory import load_backend
from assistant.llm.prompts import Prompt, PromptSet, load_prompts

__all__ = [
    "Backend",
    "BaseBackend",
    "Completion",
    "ContextOverflowError",
    "GrammarSpec",
    "ModelOutputError",
    "Prompt",
    "PromptSet",
    "is_capable",
    "llm_plan",
    "load_backend",
    "load_prompts",
]
