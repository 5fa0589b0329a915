"""No traceback when a command ends (issue 17).

A model left to ``Llama.__del__`` while the interpreter shuts down can print
"Exception ignored in ... __del__" and a traceback after the command's output,
which a user reads as a crash. The CLI closes every model it loaded before it
returns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

QUESTION = "Should school uniforms be mandatory?"


def test_the_cli_closes_the_model_it_loaded(
    demo_index_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.cli import main
    from assistant.llm import factory, llama

    monkeypatch.setenv("SPHERE_INDEX_DIR", str(demo_index_dir))
    monkeypatch.setenv("SPHERE_LLM__USE", "always")  # auto would not load the bundled model
    main(["ask", QUESTION, "--json"])
    assert json.loads(capsys.readouterr().out)["model"]["backend"] == "llama.cpp"
    assert not list(llama._OPEN)  # closed, not waiting for interpreter exit
    assert not factory._CACHE


def test_a_closed_model_is_a_clear_error() -> None:
    from assistant.errors import ModelError
    from assistant.llm.llama import LlamaCppBackend

    backend = LlamaCppBackend("bundled", n_ctx=256, max_tokens=4)
    backend.chat([{"role": "user", "content": "Hi"}], max_tokens=2)  # leaves a sampler
    backend.close()
    backend.close()  # twice: nothing
    with pytest.raises(ModelError, match="closed"):
        backend.chat([{"role": "user", "content": "Hi"}])
    with pytest.raises(ModelError, match="closed"):
        backend.count_tokens("hello")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "env", "code"),
    [
        (["ask", QUESTION, "--json"], {}, 0),  # auto: the model is not loaded, the rules answer
        (["ask", QUESTION, "--json"], {"SPHERE_LLM__USE": "always"}, 0),  # loaded and used
        (["understand", QUESTION], {"SPHERE_LLM__USE": "always"}, 0),  # the model generates
        (["ask", QUESTION, "--index", "nope"], {}, 3),
        (["ask", "  "], {}, 2),
        (["config", "show"], {}, 0),
        (["index", "list"], {}, 0),
    ],
    ids=[
        "ask",
        "ask-with-model",
        "understand-with-model",
        "missing-index",
        "empty-question",
        "config",
        "list",
    ],
)
def test_no_traceback_at_exit(
    args: list[str], env: dict[str, str], code: int, demo_index_dir: Path, tmp_path: Path
) -> None:
    run_env = {**os.environ, "SPHERE_INDEX_DIR": str(demo_index_dir), **env}
    run_env.pop("SPHERE_CONFIG", None)
    p = subprocess.run(
        [sys.executable, "-m", "assistant.cli", *args],
        cwd=tmp_path,  # no config.yaml here
        env=run_env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert p.returncode == code, p.stderr
    assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, p.stderr
    if code == 0:
        # stderr holds at most where `ask` logged the answer (stdout stays the answer)
        said = [line for line in p.stderr.splitlines() if not line.startswith("Logged as ")]
        assert said == [], p.stderr
        assert ("Logged as session 1, turn 1 " in p.stderr) == (args[0] == "ask")
        assert p.stdout.strip()
    else:
        assert p.stderr.splitlines()[0].split(":")[0] in ("Index not found", "Input error")
