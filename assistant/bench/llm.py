"""``sphere bench llm``: the backend against raw llama.cpp, in one process.

* tokens/s through :class:`~assistant.llm.llama.LlamaCppBackend` (streaming,
  cancellation checks, chunk assembly) versus ``llama_cpp.Llama.create_completion``
  on the same prompt, greedy, same number of tokens: the ratio (target ≥ 0.95);
* model load time of each;
* time to first token for a short prompt, and for prompts with a long system
  prompt: the backend evaluates every prompt whole (no prefix reuse, see
  :mod:`assistant.llm.llama`), so this is what a long prompt costs each call.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

PROMPT = (
    "Write a short essay about the history of public libraries, their role in "
    "education, and how they changed in the digital age.\n\nEssay:"
)
SYSTEM = (
    "You are a careful research assistant. You read documents and summarize the "
    "perspectives they contain on a question, for and against. You cite documents "
    "by id, never invent sources, and keep every perspective to one sentence. "
) * 6
QUESTIONS = [
    "Should schools ban homework?",
    "Is nuclear power safe?",
    "Does social media harm teenagers?",
    "Should voting be compulsory?",
    "Are electric cars better for the environment?",
]


def run_bench(
    model: str = "bundled", *, n_tokens: int = 128, repeats: int = 3, n_threads: int = 0
) -> dict[str, Any]:
    from llama_cpp import Llama

    from assistant.llm.llama import LlamaCppBackend, bundled_gguf_path, safe_model_params

    path = str(bundled_gguf_path()) if model == "bundled" else model
    t0 = time.perf_counter()
    backend = LlamaCppBackend(model, n_ctx=2048, n_threads=n_threads)
    backend_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    with safe_model_params():
        raw = Llama(
            model_path=path,
            n_ctx=2048,
            n_threads=backend.n_threads,
            n_threads_batch=backend.n_threads,
            seed=0,
            verbose=False,
        )
    raw_load = time.perf_counter() - t0

    # warm both once (first-call allocations)
    raw.create_completion(PROMPT, max_tokens=8, temperature=0.0, seed=0)
    backend.complete(PROMPT, max_tokens=8)

    raw_rates, our_rates = [], []
    for _ in range(repeats):
        raw.reset()  # the backend evaluates every prompt whole: so does raw llama.cpp here
        t = time.perf_counter()
        out: Any = raw.create_completion(PROMPT, max_tokens=n_tokens, temperature=0.0, seed=0)
        dt = time.perf_counter() - t
        raw_rates.append(out["usage"]["completion_tokens"] / dt)
        t = time.perf_counter()
        ours = backend.complete(PROMPT, max_tokens=n_tokens)
        dt = time.perf_counter() - t
        our_rates.append(ours.completion_tokens / dt)
    raw_tps = statistics.median(raw_rates)
    our_tps = statistics.median(our_rates)

    def ttft(messages: list[dict[str, str]]) -> float:
        t = time.perf_counter()
        for _ in backend.stream(messages, max_tokens=4):
            break
        return time.perf_counter() - t

    msgs = [{"role": "user", "content": PROMPT}]
    ttft_short = statistics.median(ttft(msgs) for _ in range(3))

    def shared(q: str) -> list[dict[str, str]]:
        return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": q}]

    ttft_long = statistics.median(ttft(shared(q)) for q in QUESTIONS)
    info = {k: v for k, v in backend.info().items() if k != "sha256"}
    report = {
        "benchmark": "llm",
        "model": info,
        "n_tokens": n_tokens,
        "tokens_per_s": {"raw_llama_cpp": round(raw_tps, 2), "backend": round(our_tps, 2)},
        "throughput_ratio": round(our_tps / raw_tps, 3),
        "load_seconds": {"raw_llama_cpp": round(raw_load, 3), "backend": round(backend_load, 3)},
        "ttft_seconds": round(ttft_short, 4),
        "long_prompt": {
            "system_prompt_tokens": backend.count_tokens(SYSTEM),
            "ttft_seconds": round(ttft_long, 4),
        },
    }
    raw.close()
    backend.close()
    return report
