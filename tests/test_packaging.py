"""Sphere installs as a tool: the wheel carries everything and runs from any folder (issue 17).

The wheel test builds the wheel from a copy of the sources, installs it into a
fresh virtual environment outside the checkout (without its dependencies: the
project environment's site-packages is made visible by a ``.pth`` file, so no
network is needed and the checkout itself is not importable there), then runs
``sphere`` from an empty folder with the XDG folders in a temp dir.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
QUESTION = "Should school uniforms be mandatory?"


def _pyproject() -> dict:  # type: ignore[type-arg]
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _folders() -> set[str]:
    """Every folder under assistant/ as a dotted name: setuptools takes each one, with or
    without ``__init__.py``, for an importable package, and warns at build time about one
    missing from the list ("absent from the `packages` configuration")."""
    return {"assistant"} | {
        ".".join(p.relative_to(REPO).parts)
        for p in (REPO / "assistant").rglob("*")
        if p.is_dir() and p.name != "__pycache__" and "__pycache__" not in p.parts
    }


def test_every_package_is_listed_for_the_wheel() -> None:
    """The package list is explicit (prompts/ is mapped in): a new folder must be added,
    a data-only one (weights/) too, with its files as that package's data."""
    setuptools = _pyproject()["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    on_disk = _folders()
    assert {"assistant.stance.weights", "assistant.understand.weights"} <= on_disk
    missing = on_disk - listed
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"
    assert setuptools["package-dir"] == {"assistant.prompts": "prompts"}
    assert listed - on_disk == {"assistant.prompts"}
    data = setuptools["package-data"]
    assert {"*.safetensors", "*.json"} <= set(data["assistant.stance.weights"])
    assert {"*.npz", "*.safetensors", "*.json"} <= set(data["assistant.understand.weights"])
    # word lists read at run time: furniture, eval real's words, the vocabulary (the claim
    # builder's words included)
    for name in ("assistant.ingest", "assistant.eval", "assistant.understand.words"):
        assert "*.yaml" in data[name], name
    assert data["assistant.prompts"] == ["*.yaml"]
    # every data file on disk is matched by a pattern of its folder's package
    for name, patterns in data.items():
        folder = REPO / ("prompts" if name == "assistant.prompts" else name.replace(".", "/"))
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{name}: {pattern} matches no file"


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], code: int = 0) -> str:
    p = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert p.returncode == code, f"{cmd}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
    assert "Traceback" not in p.stderr and "Exception ignored" not in p.stderr, p.stderr
    if code == 0:  # nothing on stderr but where `sphere ask` logged its answer
        assert [x for x in p.stderr.splitlines() if not x.startswith("Logged as ")] == [], p.stderr
    return p.stdout if code == 0 else p.stderr


@pytest.mark.slow
def test_wheel_installs_and_answers_from_another_folder(tmp_path: Path) -> None:
    # 1. the wheel, from a copy of what it is built from (nothing written into the checkout)
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for name in ("assistant", "prompts"):
        shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    # trained stance weights go in assistant/stance/weights/ (not in the repository yet)
    weights = src / "assistant" / "stance" / "weights"
    weights.mkdir(parents=True, exist_ok=True)
    (weights / "probe-17.json").write_text("{}", encoding="utf-8")
    (weights / "probe-17.safetensors").write_bytes(b"\0" * 16)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip"]
    built = subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-v", "-w", str(dist), str(src)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    # the build backend's own output (shown with -v): no packaging warning (issue 36)
    build_log = built.stdout + built.stderr
    for warning in ("BuildBackendWarning", "SetuptoolsDeprecationWarning", "absent from the"):
        assert warning not in build_log, build_log
    (wheel,) = dist.glob("sphere_assistant-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    # the shipped weights themselves, not only the probe files
    for path in [
        *(REPO / "assistant" / "stance" / "weights").iterdir(),
        *(REPO / "assistant" / "understand" / "weights").iterdir(),
    ]:
        assert str(path.relative_to(REPO)) in names
    prompts = {p.name for p in (REPO / "prompts").glob("*.yaml")}
    assert prompts and {f"assistant/prompts/{p}" for p in prompts} <= names
    assert "assistant/demo/corpus.jsonl" in names
    for folder in ("ingest", "eval", "understand/words"):  # their word lists (YAML)
        yaml = {str(p.relative_to(REPO)) for p in (REPO / "assistant" / folder).glob("*.yaml")}
        assert yaml and yaml <= names, folder
    assert {f"assistant/stance/weights/probe-17.{x}" for x in ("json", "safetensors")} <= names
    # the follow-up turn reader ships too
    assert {f"assistant/understand/weights/turn_reader.{x}" for x in ("json", "safetensors")} <= (
        names
    )
    tcss = {str(p.relative_to(REPO)) for p in (REPO / "assistant" / "ui").rglob("*.tcss")}
    assert tcss <= names
    assert not any(n.startswith(("tests/", "prompts/", "indexes/")) for n in names)

    # 2. a fresh environment outside the checkout; dependencies from the project's
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [*pip, "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # a path line, not an import: the project's editable-install hook is not run there
    (Path(purelib) / "sphere_test_deps.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8"
    )

    # 3. from an empty folder, XDG folders in tmp, no settings file anywhere
    work = tmp_path / "elsewhere"
    work.mkdir()
    # nor the checkout on PYTHONPATH (as the helpers run the tests)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPHERE_") and k != "PYTHONPATH"}
    env.update(
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        SPHERE_SESSION_DB=str(tmp_path / "sessions.db"),
        HF_HUB_OFFLINE="1",
    )
    code = "import assistant.llm.prompts as p; print(p.__file__, p.prompts_dir())"
    where = _run([str(python), "-c", code], cwd=work, env=env).split()
    assert all(Path(w).is_relative_to(venv) for w in where), where  # not the checkout
    sphere = str(venv / "bin" / "sphere")
    shown = _run([sphere, "config", "show"], cwd=work, env=env)
    assert shown.startswith("# no settings file")
    indexes = tmp_path / "data" / "sphere" / "indexes"
    assert f"index_dir: {indexes}" in shown
    err = _run([sphere, "ask", QUESTION, "--no-llm"], cwd=work, env=env, code=3)
    assert "`sphere index demo`" in err
    _run([sphere, "index", "demo", "--quiet"], cwd=work, env=env)
    assert (indexes / "demo" / "meta.sqlite").is_file()
    # the model plans the question with the packaged prompts
    with_model = {**env, "SPHERE_LLM__USE": "always"}
    answer = json.loads(_run([sphere, "ask", QUESTION, "--json"], cwd=work, env=with_model))
    assert answer["index"] == "demo" and answer["plan"]["source"] == "rules+llm"
    assert answer["model"]["backend"] == "llama.cpp"
    cited = [
        r["doc_id"]
        for c in answer["summary"]["claims"]
        for p in c["perspectives"]
        for r in p["references"]
    ]
    assert cited and all(d.startswith("uniforms-") for d in cited)
    assert not list(work.iterdir())  # nothing written into the folder it ran from
