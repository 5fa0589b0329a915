"""Which language model Sphere uses: the GGUF header reader, the "capable" rule,
and `llm.use: auto` not loading a model no stage uses (observed on the real
code path: the backend factory is never called, llama_cpp never imported).

Larger models than the bundled one are header-only fakes (tests/gguf_fakes.py).
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assistant.errors import ModelError
from assistant.llm.base import ModelOutputError
from tests.gguf_fakes import fake_model

QUESTION = "Should school uniforms be mandatory?"
BUNDLED_PARAMS = 134_515_008  # llama_model_n_params of SmolLM2-135M-Instruct


@pytest.fixture(scope="module")
def bundled() -> Path:
    from assistant.llm.llama import bundled_gguf_path

    return bundled_gguf_path()


def sphere(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``sphere ARGS`` in this process: (exit code, stdout, stderr)."""
    from assistant.cli import main

    capsys.readouterr()
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


# ---------------------------------------------------------------- the GGUF header


def test_header_facts_agree_with_llama_cpp(bundled: Path) -> None:
    """Parameter count and file type as llama.cpp itself reports them, without loading."""
    import llama_cpp

    from assistant.llm.gguf import FILE_TYPES, read_gguf

    info = read_gguf(bundled)
    assert info.parameters == BUNDLED_PARAMS and info.parameters_from == "tensors"
    assert info.quantization == "Q4_1" and info.file_type == llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_1
    assert info.context_length == 8192 and info.size_label == "135M"
    assert info.size_bytes == bundled.stat().st_size and info.architecture == "llama"
    for name in dir(llama_cpp):  # the table names every file type llama.cpp knows
        if name.startswith("LLAMA_FTYPE_") and name != "LLAMA_FTYPE_GUESSED":
            short = name.removeprefix("LLAMA_FTYPE_").removeprefix("MOSTLY_").removeprefix("ALL_")
            assert FILE_TYPES[getattr(llama_cpp, name)] == short


def test_loaded_parameter_count(bundled: Path) -> None:
    """The header's sum of tensor sizes is llama.cpp's own n_params."""
    import llama_cpp

    from assistant.llm.llama import safe_model_params

    with safe_model_params():
        model = llama_cpp.Llama(model_path=str(bundled), n_ctx=256, verbose=False)
    try:
        assert llama_cpp.llama_model_n_params(model.model) == BUNDLED_PARAMS
    finally:
        model.close()


def test_damaged_headers_are_clear_errors(bundled: Path, tmp_path: Path) -> None:
    from assistant.llm.gguf import GGUFError, read_gguf

    head = bundled.read_bytes()[: 4 << 20]
    for n in (0, 3, 24, 100, 5000, 200_000, len(head) // 2):
        p = tmp_path / f"cut-{n}.gguf"
        p.write_bytes(head[:n])
        with pytest.raises(GGUFError):
            read_gguf(p)
    bad = tmp_path / "huge.gguf"
    bad.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 1 << 50, 1) + b"\0" * 64)
    with pytest.raises(GGUFError, match="damaged"):
        read_gguf(bad)
    text = tmp_path / "notes.gguf"
    text.write_text("hello, this is not a model at all\n" * 4)
    with pytest.raises(GGUFError, match="not a GGUF"):
        read_gguf(text)
    with pytest.raises(GGUFError, match="not found"):
        read_gguf(tmp_path / "absent.gguf")


def test_split_models_sum_their_parts_and_labels_are_a_fallback(tmp_path: Path) -> None:
    from assistant.llm.gguf import format_parameters, read_gguf, size_label_parameters

    parts = [tmp_path / f"big-0000{k}-of-00003.gguf" for k in (1, 2, 3)]
    for p in parts:
        fake_model(p, parameters=1_000_000_000, extra={"split.count": 3})
    info = read_gguf(parts[0])
    assert info.parameters == 3_000_000_000 and info.split_count == 3
    parts[2].unlink()
    labelled = tmp_path / "lab-00001-of-00002.gguf"
    fake_model(labelled, parameters=10, label="8x7B", extra={"split.count": 2})
    info = read_gguf(labelled)
    assert info.parameters == 56_000_000_000 and info.parameters_from == "size_label"
    assert size_label_parameters("135M") == 135_000_000
    assert size_label_parameters("1.5B") == 1_500_000_000
    assert size_label_parameters("large") is None
    assert format_parameters(BUNDLED_PARAMS) == "135M"
    assert format_parameters(7_241_732_096) == "7.2B"


# ---------------------------------------------------------------- the capable rule


def _settings(tmp_path: Path, **llm: Any) -> Any:
    from assistant.config import Settings

    return Settings.model_validate({"index_dir": str(tmp_path / "ix"), "llm": llm})


def test_capable_rule(tmp_path: Path, bundled: Path) -> None:
    from assistant.config import LLMSettings
    from assistant.llm.capable import assess, is_capable

    big = fake_model(tmp_path / "big.gguf", parameters=3_200_000_000, context=8192)
    short = fake_model(tmp_path / "short.gguf", parameters=7_000_000_000, context=2048)
    small = fake_model(tmp_path / "small.gguf", parameters=2_900_000_000, context=32768)
    assert not is_capable(_settings(tmp_path))  # bundled: 135M
    assert not is_capable(bundled) and not is_capable("bundled")
    assert "135M parameters < 3B" in assess("bundled").reason
    assert is_capable(_settings(tmp_path, model=str(big)))
    assert is_capable(LLMSettings(model=str(big)))  # type: ignore[call-arg]
    assert is_capable(str(big)) and is_capable(big)
    assert not is_capable(str(short)) and not is_capable(str(small))
    # the window Sphere opens counts too: llm.n_ctx 2048 makes a big model not capable
    assert not is_capable(_settings(tmp_path, model=str(big), n_ctx=2048))
    assert "llm.n_ctx" in assess(LLMSettings(model=str(big), n_ctx=2048)).reason  # type: ignore[call-arg]
    assert is_capable("http://127.0.0.1:9/v1")  # a server, never contacted
    assert is_capable(_settings(tmp_path, model="https://127.0.0.1:9/v1"))
    # never raises: nothing, a missing file, an unknown object
    assert not is_capable(None) and not is_capable(tmp_path / "absent.gguf")
    assert not is_capable(object())

    class Capable:
        capable = True

    assert is_capable(Capable())


def test_capable_backends(bundled: Path) -> None:
    from assistant.llm.capable import is_capable
    from assistant.llm.http import HttpBackend
    from assistant.llm.llama import LlamaCppBackend

    backend = LlamaCppBackend("bundled", n_ctx=256, max_tokens=4)
    try:
        assert not is_capable(backend)
    finally:
        backend.close()
    assert is_capable(HttpBackend("http://127.0.0.1:9/v1", check=False))


def test_plan_decides_what_is_loaded(tmp_path: Path) -> None:
    from assistant.llm.capable import llm_plan

    big = str(fake_model(tmp_path / "big.gguf", parameters=8_000_000_000))
    plan = llm_plan(_settings(tmp_path))  # auto, bundled
    assert not plan.load and plan.stages == () and plan.summary_path == "deterministic"
    d = plan.to_dict()
    assert d["loaded"] is False and d["capable"] is False and d["parameters"] == BUNDLED_PARAMS
    assert "not loaded" in d["why"]
    plan = llm_plan(_settings(tmp_path, use="always"))
    assert plan.stages == ("understand",) and plan.summary_path == "deterministic"
    plan = llm_plan(_settings(tmp_path, model=big))  # auto, capable
    assert plan.stages == ("understand", "summarize") and plan.summary_path == "model"
    plan = llm_plan(_settings(tmp_path, model="http://127.0.0.1:9/v1"))
    assert plan.load and plan.summary_path == "model"
    assert llm_plan(_settings(tmp_path, model=big, use="never")).stages == ()
    s = _settings(tmp_path)
    s.summary.path = "model"  # asked for explicitly: loaded even though not capable
    assert llm_plan(s).stages == ("summarize",)
    s = _settings(tmp_path, model=big)
    s.summary.path = "deterministic"
    assert llm_plan(s).stages == ("understand",)
    with pytest.raises(ModelError, match="not found"):
        llm_plan(_settings(tmp_path, model=str(tmp_path / "absent.gguf")))


# ---------------------------------------------------------------- auto does not load


class _Refused(Exception):
    pass


def test_auto_never_calls_the_backend_factory(
    demo_index_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`sphere ask` and `sphere understand` with llm.use: auto and the bundled model."""
    from assistant.llm import factory

    calls: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise _Refused("the backend factory was called")

    monkeypatch.setattr(factory, "load_backend", refuse)
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_LLM__USE", "auto")
    code, out, _err = sphere(["ask", QUESTION, "--json"], capsys)
    assert code == 0 and not calls
    answer = json.loads(out)
    llm = answer["model"]["llm"]
    assert answer["model"]["backend"] is None and "gguf" not in answer["model"]
    assert llm["loaded"] is False and llm["stages"] == [] and llm["capable"] is False
    assert llm["model"] == "bundled" and llm["path"].endswith(".gguf")
    assert llm["parameters"] == BUNDLED_PARAMS and llm["quantization"] == "Q4_1"
    assert answer["summary"]["method"] == "deterministic"
    code, out, _err = sphere(["understand", QUESTION, "--json"], capsys)
    assert code == 0 and not calls and json.loads(out)["source"] == "rules"


def test_the_session_log_says_the_model_was_not_loaded(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_LLM__USE", "auto")
    code, _out, _err = sphere(["ask", QUESTION, "--save"], capsys)
    assert code == 0
    code, out, _err = sphere(["sessions", "show", "1", "--json"], capsys)
    model = json.loads(out)["model"]
    assert model["llm"]["loaded"] is False and model["llm"]["model"] == "bundled"


def test_auto_with_a_capable_model_hands_it_the_summaries(
    demo_index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A capable GGUF (a header-only fake, so a stand-in backend answers) is loaded, and
    summary.path: auto means the model path, checked and backed by the deterministic one."""
    from assistant.llm import factory
    from assistant.pipeline import Pipeline

    big = fake_model(tmp_path / "big.gguf", parameters=7_000_000_000)
    loaded: list[Any] = []

    class StandIn:
        kind = "llama.cpp"
        path = big
        n_ctx = 4096

        def json(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            raise ModelOutputError("no real model here")  # the deterministic path answers

        def grammar_chat(self, *args: Any, **kwargs: Any) -> str:
            raise ModelOutputError("no real model here")

        def info(self) -> dict[str, Any]:
            return {"backend": self.kind, "model": str(big)}

    def load(settings: Any, **kwargs: Any) -> Any:
        loaded.append(settings.model)
        return StandIn()

    monkeypatch.setattr(factory, "load_backend", load)
    settings = _settings(tmp_path, model=str(big)).model_copy(update={"index_dir": demo_index_dir})
    with Pipeline.from_settings(settings, "demo") as pipe:
        assert loaded == [str(big)] and pipe.capable
        assert pipe.summary_options().path == "model"
        result = pipe.run(QUESTION)
    llm = result.model["llm"]
    assert llm["loaded"] is True and llm["capable"] is True
    assert llm["stages"] == ["understand", "summarize"]
    assert result.retrieval["summary"]["path"] == "model"
    assert any("model failed" in n for n in result.summary.notes)  # fell back, said so


def test_always_still_loads_the_bundled_model(demo_index_dir: Path, tmp_path: Path) -> None:
    from assistant.pipeline import Pipeline

    settings = _settings(tmp_path, use="always", n_ctx=1024).model_copy(
        update={"index_dir": demo_index_dir}
    )
    with Pipeline.from_settings(settings, "demo") as pipe:
        assert pipe.backend is not None and pipe.backend.kind == "llama.cpp"
        info = pipe.model_info()
    assert info["llm"]["loaded"] is True and info["llm"]["stages"] == ["understand"]
    assert info["backend"] == "llama.cpp" and info["gguf"].endswith(".gguf")


@pytest.mark.slow
def test_auto_does_not_even_import_llama_cpp(demo_index_dir: Path, tmp_path: Path) -> None:
    """In a fresh process, `sphere ask` with auto never imports llama_cpp at all."""
    code = (
        "import sys, json, contextlib, io\n"
        "from assistant.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    main(['ask', {QUESTION!r}, '--json'])\n"
        "print(json.dumps({'llama_cpp': 'llama_cpp' in sys.modules,\n"
        "    'loaded': json.loads(buf.getvalue())['model']['llm']['loaded']}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPHERE_LLM")}
    env.update(SPHERE_INDEX_DIR=str(demo_index_dir), SPHERE_SESSION_DB=str(tmp_path / "s.db"))
    p = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1]) == {"llama_cpp": False, "loaded": False}
