"""The llama.cpp backend with the real bundled model (SmolLM2-135M, loaded once)."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

import pytest

from assistant.errors import CancelledError, ModelError, PromptError
from assistant.llm.base import GrammarSpec, ModelOutputError, parse_json_answer
from assistant.llm.grammar import choice_grammar, locate_span, span_candidates, span_grammar
from assistant.llm.validate import SchemaValidationError, validate_json

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}, "n": {"type": "integer"}},
    "required": ["answer", "n"],
    "additionalProperties": False,
}


@pytest.fixture(scope="session")
def llm():  # type: ignore[no-untyped-def]
    from assistant.llm.llama import LlamaCppBackend

    backend = LlamaCppBackend("bundled", n_ctx=1024, max_tokens=32)
    yield backend
    backend.close()


MSGS = [{"role": "user", "content": "Name three colours."}]


def test_chat_and_complete(llm) -> None:  # type: ignore[no-untyped-def]
    out = llm.chat(MSGS, max_tokens=12)
    assert out.text.strip()
    assert out.finish_reason in ("stop", "length")
    assert 0 < out.completion_tokens <= 12
    comp = llm.complete("The capital of France is", max_tokens=5)
    assert comp.completion_tokens <= 5


def test_every_generation_evaluates_its_whole_prompt_from_an_empty_cache(  # type: ignore[no-untyped-def]
    llm, monkeypatch
) -> None:
    """No prefix reuse: llama-cpp-python would evaluate only the tokens after the part
    of the prompt it still holds (one token for a prompt it just ran), in batches whose
    size changes the floating-point sums (issue 17)."""
    evals: list[tuple[int, int]] = []  # (positions already in the KV cache, tokens evaluated)
    real_eval = llm.llm.eval

    def spy(tokens):  # type: ignore[no-untyped-def]
        evals.append((llm.llm.n_tokens, len(tokens)))
        return real_eval(tokens)

    monkeypatch.setattr(llm.llm, "eval", spy)
    n_prompt = llm.chat(MSGS, max_tokens=2).prompt_tokens
    assert n_prompt > 10
    for generate in (
        lambda: llm.chat(MSGS, max_tokens=2),  # the very prompt the cache holds
        lambda: list(llm.stream(MSGS, max_tokens=2)),
        lambda: llm.chat(MSGS, max_tokens=2, cancel=threading.Event()),  # the streamed path
        lambda: llm.json(MSGS, SCHEMA, max_tokens=2),
    ):
        evals.clear()
        with contextlib.suppress(ModelOutputError):
            generate()
        assert evals[0] == (0, n_prompt)
        # then one generated token at a time (json may retry: the prompt again, whole)
        assert all(n == 1 or (start, n) == (0, n_prompt) for start, n in evals)
    evals.clear()
    llm.complete("The capital of France is", max_tokens=2)
    assert evals[0][0] == 0


def test_greedy_answer_does_not_depend_on_what_ran_before(llm) -> None:  # type: ignore[no-untyped-def]
    # the failure this replaces: streamed after the prompt was evaluated whole, then
    # asked again with all but its last token still cached, the same prompt gave
    # '1. Red: This is the most obvious colour, but' and '1. Red: The most obvious
    # colour, but there are' on an AVX2 machine (llama.cpp 0.3.36 built there)
    other = [{"role": "user", "content": "Name three animals that live in the sea."}]
    llm.complete("Once upon a time", max_tokens=6)
    want = llm.chat(MSGS, max_tokens=12).text
    assert want.strip()
    chunks = list(llm.stream(MSGS, max_tokens=12))
    assert len(chunks) > 1 and "".join(chunks) == want
    assert llm.chat(MSGS, max_tokens=12).text == want  # the cache held this very prompt
    llm.chat(other, max_tokens=12)  # the cache holds another prompt with the same start
    assert llm.chat(MSGS, max_tokens=12).text == want
    assert "".join(llm.stream(MSGS, max_tokens=12)) == want


def test_cancel_between_tokens(llm) -> None:  # type: ignore[no-untyped-def]
    ev = threading.Event()
    got = []
    with pytest.raises(CancelledError):
        for chunk in llm.stream(MSGS, max_tokens=30, cancel=ev):
            got.append(chunk)
            ev.set()
    assert len(got) == 1


def test_json_schema_output_is_validated(llm) -> None:  # type: ignore[no-untyped-def]
    llm.prepare_schema(SCHEMA)
    value = llm.json([{"role": "user", "content": "Is water wet? Answer as JSON."}], SCHEMA)
    validate_json(value, SCHEMA)
    assert value["answer"] in ("yes", "no")


def test_json_truncated_retries_then_fails(llm) -> None:  # type: ignore[no-untyped-def]
    schema = {
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 200}},
        "required": ["text"],
    }
    with pytest.raises(ModelOutputError):
        llm.json(MSGS, schema, max_tokens=3)  # 3, then 6 tokens: never a whole object


def test_grammar_choice(llm) -> None:  # type: ignore[no-untyped-def]
    g = choice_grammar(["alpha", "beta"])
    assert llm.grammar_chat(MSGS, g, max_tokens=8) in ("alpha", "beta")


def test_bad_grammar_fails_at_prepare(llm) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ModelError):
        llm.prepare_grammar(GrammarSpec('root ::= ( "a"'))


def test_span_grammar_answer_is_a_span(llm) -> None:  # type: ignore[no-untyped-def]
    text = "Find a claim that opposes the argument: Zoos should be banned."
    g = span_grammar(text, max_words=10)
    ans = llm.grammar_chat(
        [{"role": "user", "content": f"Copy the viewpoint phrase of: {text}"}], g, max_tokens=24
    )
    assert ans == "NONE" or ans in text


def test_count_tokens_and_info(llm) -> None:  # type: ignore[no-untyped-def]
    assert llm.count_tokens("") == 0
    assert 0 < llm.count_tokens("hello world") < 5
    info = llm.info()
    assert info["backend"] == "llama.cpp"
    assert len(info["sha256"]) == 64 and info["n_ctx"] == 1024
    assert info["sha256"] == llm.info()["sha256"]  # cached


def test_context_overflow_is_a_clear_error(llm) -> None:  # type: ignore[no-untyped-def]
    from assistant.llm.base import ContextOverflowError

    with pytest.raises(ContextOverflowError):
        llm.complete("word " * 3000, max_tokens=4)


# ----------------------------------------------------------------- load errors (no model)


def test_missing_gguf(tmp_path: Path) -> None:
    from assistant.llm.llama import LlamaCppBackend

    with pytest.raises(ModelError, match="not found"):
        LlamaCppBackend(str(tmp_path / "nope.gguf"))


def test_empty_gguf(tmp_path: Path) -> None:
    from assistant.llm.llama import LlamaCppBackend

    p = tmp_path / "empty.gguf"
    p.write_bytes(b"")
    with pytest.raises(ModelError, match="empty"):
        LlamaCppBackend(str(p))


def test_random_bytes_gguf(tmp_path: Path) -> None:
    from assistant.llm.llama import LlamaCppBackend

    p = tmp_path / "random.gguf"
    p.write_bytes(os.urandom(4096).replace(b"GGUF", b"XXXX"))
    with pytest.raises(ModelError, match="not a GGUF"):
        LlamaCppBackend(str(p))


def test_truncated_gguf_header(tmp_path: Path) -> None:
    from assistant.llm.llama import LlamaCppBackend, bundled_gguf_path

    p = tmp_path / "cut.gguf"
    p.write_bytes(bundled_gguf_path().read_bytes()[:4096])
    with pytest.raises(ModelError):
        LlamaCppBackend(str(p))


def test_factory_errors(tmp_path: Path) -> None:
    from assistant.config import LLMSettings
    from assistant.llm import load_backend

    with pytest.raises(ModelError):
        load_backend(LLMSettings(model=str(tmp_path / "x.gguf")), cache=False)


# ----------------------------------------------------------------- pure helpers


def test_span_grammar_shape() -> None:
    g = span_grammar("a b: c", max_words=2)
    assert g.gbnf.startswith('root ::= n0 | "NONE"')
    assert '" c"' in g.gbnf  # the separator is kept verbatim on the edge
    with pytest.raises(PromptError):
        span_grammar("   ")


def test_span_candidates_are_substrings() -> None:
    text = "Is it safe, or not?"
    spans = span_candidates(text, 3)
    assert (0, 2) in spans
    assert all(0 <= s < e <= len(text) for s, e in spans)


def test_locate_span_prefers_nearest() -> None:
    assert locate_span("a b a b", "a b", near=4) == (4, 7)
    assert locate_span("Hello World", "hello world") == (0, 11)
    assert locate_span("abc", "zzz") is None


def test_parse_json_answer_tolerates_prose() -> None:
    assert parse_json_answer('Sure! {"a": 1} done') == {"a": 1}
    with pytest.raises(ModelOutputError):
        parse_json_answer("no json here")


def test_validate_json_errors_name_the_path() -> None:
    with pytest.raises(SchemaValidationError, match="n"):
        validate_json({"answer": "yes"}, SCHEMA)
    with pytest.raises(SchemaValidationError, match="not one of"):
        validate_json({"answer": "maybe", "n": 1}, SCHEMA)
    with pytest.raises(SchemaValidationError, match="unexpected"):
        validate_json({"answer": "no", "n": 1, "x": 2}, SCHEMA)
    with pytest.raises(SchemaValidationError):
        validate_json({"answer": "no", "n": True}, SCHEMA)
