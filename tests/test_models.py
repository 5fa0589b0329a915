"""`sphere models list` over every usual model folder, and `sphere models use`
editing the settings file.

The bundled SmolLM2-135M GGUF is linked (never copied) into each layout under a
temporary HOME.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.gguf_fakes import fake_model, link
from tests.test_llm_capable import BUNDLED_PARAMS, sphere

REPO = Path(__file__).resolve().parents[1]
ENV_VARS = ("XDG_DATA_HOME", "XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE", "OLLAMA_MODELS")


@pytest.fixture(scope="module")
def bundled() -> Path:
    from assistant.llm.llama import bundled_gguf_path

    return bundled_gguf_path()


# ---------------------------------------------------------------- sphere models list


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled: Path) -> Iterator[Path]:
    """A temporary HOME with the bundled GGUF in every usual layout, and a settings file."""
    h = tmp_path / "home"
    ollama = h / ".ollama" / "models"
    digest = "0" * 56 + "5ee0c0de"
    link(bundled, ollama / "blobs" / f"sha256-{digest}")
    manifest = {
        "schemaVersion": 2,
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json"},
        "layers": [
            {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:" + "1" * 64},
            {
                "mediaType": "application/vnd.ollama.image.model",
                "digest": f"sha256:{digest}",
                "size": bundled.stat().st_size,
            },
        ],
    }
    for ns, name, tag in (("library", "smollm2", "135m"), ("someone", "tiny", "q4")):
        m = ollama / "manifests" / "registry.ollama.ai" / ns / name / tag
        m.parent.mkdir(parents=True, exist_ok=True)
        m.write_text(json.dumps(manifest))
    broken = ollama / "manifests" / "registry.ollama.ai" / "library" / "gone" / "latest"
    broken.parent.mkdir(parents=True)
    broken.write_text("{not json")
    link(bundled, h / ".lmstudio" / "models" / "lmstudio-community" / "SmolLM2-GGUF" / "lms.gguf")
    link(bundled, h / ".cache" / "lm-studio" / "models" / "old" / "repo" / "cached.gguf")
    link(bundled, h / ".local" / "share" / "nomic.ai" / "GPT4All" / "gpt4all-smol.gguf")
    snap = h / ".cache" / "huggingface" / "hub" / "models--HuggingFaceTB--SmolLM2-GGUF"
    link(bundled, snap / "snapshots" / "abc123" / "smollm2-q4_1.gguf")
    (snap / "blobs").mkdir()
    link(bundled, h / "models" / "mine" / "hard.gguf", hard=True)
    # not language models, or not first parts: left out
    fake_model(h / "models" / "mine" / "mmproj-vision.gguf", parameters=1000, arch="clip")
    fake_model(h / "models" / "split-00002-of-00002.gguf", parameters=10)
    (h / "models" / "readme.txt").write_text("not a model")
    (h / "models" / "broken.gguf").write_bytes(b"GGUF\x03\0\0\0")
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(h / ".config"))
    monkeypatch.delenv("SPHERE_CONFIG", raising=False)
    monkeypatch.delenv("SPHERE_LLM__MODEL", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./config.yaml
    cfg = tmp_path / "config.yaml"
    shutil.copyfile(REPO / "config.yaml", cfg)
    text = cfg.read_text().replace("index_dir: indexes", f"index_dir: {tmp_path / 'ix'}")
    cfg.write_text(text)
    yield h


EXPECTED = {  # source: names
    "bundled": {"bundled"},
    "ollama": {"smollm2:135m", "someone/tiny:q4"},
    "lmstudio": {"lmstudio-community/SmolLM2-GGUF/lms", "old/repo/cached"},
    "gpt4all": {"gpt4all-smol"},
    "huggingface": {"HuggingFaceTB/SmolLM2-GGUF/smollm2-q4_1"},
    "folder": {"mine/hard", "broken"},
}


def test_models_list_finds_every_layout(
    home: Path, bundled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = sphere(["models", "list", "--json", "--no-servers"], capsys)
    assert code == 0
    data = json.loads(out)
    found: dict[str, set[str]] = {}
    for m in data["models"]:
        found.setdefault(m["source"], set()).add(m["name"])
    assert found == EXPECTED
    for m in data["models"]:
        if m["name"] == "broken":
            assert m["error"] and "truncated" in m["error"]
            continue
        assert m["kind"] == "gguf" and not m["error"], m
        assert m["size_bytes"] == bundled.stat().st_size
        assert m["quantization"] == "Q4_1" and m["parameters"] == BUNDLED_PARAMS
        assert m["context_length"] == 8192 and m["capable"] is False
        assert Path(m["path"]).is_file()
    paths = {m["name"]: m["path"] for m in data["models"]}
    assert paths["smollm2:135m"] == str(
        home / ".ollama" / "models" / "blobs" / f"sha256-{'0' * 56}5ee0c0de"
    )
    assert [m["name"] for m in data["models"] if m["current"]] == ["bundled"]
    assert not any(s.get("url") for s in data["searched"])  # --no-servers: none asked
    # the text table
    code, out, err = sphere(["models", "list", "--no-servers"], capsys)
    assert code == 0 and "smollm2:135m" in out and "Q4_1" in out and "135M" in out
    assert "broken" in err  # the unreadable file says why


def test_model_folders_from_the_environment(
    home: Path,
    tmp_path: Path,
    bundled: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """$OLLAMA_MODELS, $HF_HOME and models.folders move the places looked in."""
    elsewhere = tmp_path / "elsewhere"
    shutil.move(str(home / ".ollama" / "models"), str(elsewhere / "ollama"))
    shutil.move(str(home / ".cache" / "huggingface"), str(elsewhere / "hf"))
    link(bundled, elsewhere / "extra" / "x.gguf")
    monkeypatch.setenv("OLLAMA_MODELS", str(elsewhere / "ollama"))
    monkeypatch.setenv("HF_HOME", str(elsewhere / "hf"))
    monkeypatch.setenv("SPHERE_MODELS__FOLDERS", str(elsewhere / "extra"))
    code, out, _err = sphere(["models", "list", "--json", "--no-servers"], capsys)
    assert code == 0
    names = {(m["source"], m["name"]) for m in json.loads(out)["models"]}
    assert ("ollama", "smollm2:135m") in names
    assert ("huggingface", "HuggingFaceTB/SmolLM2-GGUF/smollm2-q4_1") in names
    assert ("folder", "x") in names


def test_servers_are_asked_on_loopback_only(tmp_path: Path) -> None:
    from assistant.llm.discover import probe_servers

    asked: list[str] = []

    def get(url: str, timeout: float) -> Any:
        asked.append(url)
        if url.endswith("/api/tags"):
            return {
                "models": [
                    {
                        "name": "qwen2.5:7b",
                        "size": 4_683_087_332,
                        "details": {"parameter_size": "7.6B", "quantization_level": "Q4_K_M"},
                    }
                ]
            }
        if ":8000" in url:
            raise ConnectionRefusedError("nothing listening")
        return {
            "data": [{"id": "/m/qwen.gguf", "meta": {"n_params": 7_000_000, "n_ctx_train": 32768}}]
        }

    log: list[dict[str, Any]] = []
    found = probe_servers(
        ["http://127.0.0.1:8000/v1", "http://localhost:8080/v1", "http://192.168.1.5:8080/v1"],
        "http://127.0.0.1:11434",
        0.5,
        log,
        get,
    )
    assert asked == [
        "http://127.0.0.1:8000/v1/models",
        "http://localhost:8080/v1/models",
        "http://127.0.0.1:11434/api/tags",
    ]
    names = {m.name: m for m in found}
    assert set(names) == {"qwen@localhost:8080", "qwen2.5:7b@127.0.0.1:11434"}
    ollama = names["qwen2.5:7b@127.0.0.1:11434"]
    assert ollama.url == "http://127.0.0.1:11434/v1" and ollama.server_model == "qwen2.5:7b"
    assert ollama.parameters == 7_600_000_000 and ollama.quantization == "Q4_K_M"
    assert all(m.capable and m.kind == "server" for m in found)
    assert names["qwen@localhost:8080"].context_length == 32768
    assert "loopback" in next(r["note"] for r in log if "192.168" in r["url"])


# ---------------------------------------------------------------- sphere models use


def test_models_use_edits_the_model_line_only(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "config.yaml"
    original = cfg.read_text()
    blob = str(home / ".ollama" / "models" / "blobs" / f"sha256-{'0' * 56}5ee0c0de")
    code, out, _err = sphere(["--config", str(cfg), "models", "use", "smollm2:135m"], capsys)
    assert code == 0 and "not capable" in out and str(cfg) in out
    edited = cfg.read_text()
    changed = [
        (a, b) for a, b in zip(original.splitlines(), edited.splitlines(), strict=True) if a != b
    ]
    assert len(changed) == 1
    before, after = changed[0]
    assert before.startswith("  model: bundled")
    assert after.startswith(f"  model: {blob}") and "# SmolLM2-135M-Instruct" in after
    code, out, _err = sphere(["--config", str(cfg), "config", "show"], capsys)
    assert f"# settings file: {cfg}" in out and f"  model: {blob}" in out
    code, out, _err = sphere(["--config", str(cfg), "config", "show", "--json"], capsys)
    assert json.loads(out)["llm"]["model"] == blob
    # the listing marks it as the one in use
    code, out, _err = sphere(
        ["--config", str(cfg), "models", "list", "--json", "--no-servers"], capsys
    )
    current = [m["name"] for m in json.loads(out)["models"] if m["current"]]
    assert "smollm2:135m" in current
    # back to bundled: the file is what it was, byte for byte
    code, _out, _err = sphere(["--config", str(cfg), "models", "use", "bundled"], capsys)
    assert code == 0 and cfg.read_text() == original
    # a path, and a server URL
    gpt = home / ".local" / "share" / "nomic.ai" / "GPT4All" / "gpt4all-smol.gguf"
    code, _out, _err = sphere(["--config", str(cfg), "models", "use", str(gpt)], capsys)
    assert code == 0 and f"  model: {gpt}" in cfg.read_text()
    code, out, _err = sphere(
        ["--config", str(cfg), "models", "use", "http://127.0.0.1:8081/v1"], capsys
    )
    assert code == 0 and "  model: http://127.0.0.1:8081/v1" in cfg.read_text()
    assert "capable (an OpenAI-compatible server)" in out
    assert not list(tmp_path.glob(".config.yaml.*"))  # no temporary file left behind


def test_models_use_refuses_unknown_and_ambiguous_names(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / "config.yaml"
    original = cfg.read_text()
    base = ["--config", str(cfg), "models", "use"]
    code, _out, err = sphere([*base, "smollm3:135m"], capsys)
    assert code == 2 and "unknown model 'smollm3:135m'" in err and "smollm2:135m" in err
    code, _out, err = sphere([*base, str(tmp_path / "nothing.gguf")], capsys)
    assert code == 2 and "not found" in err
    (tmp_path / "text.gguf").write_text("plain text, not a model")
    code, _out, err = sphere([*base, str(tmp_path / "text.gguf")], capsys)
    assert code == 2 and "not a GGUF" in err
    code, _out, err = sphere([*base, "http://:x/v1"], capsys)
    assert code == 2 and "URL" in err
    code, _out, err = sphere([*base, "broken"], capsys)  # listed, but unreadable
    assert code == 2 and "cannot use 'broken'" in err
    assert cfg.read_text() == original  # nothing written on a refusal
    # the same name in two places: ask which
    link(
        home / ".local" / "share" / "nomic.ai" / "GPT4All" / "gpt4all-smol.gguf",
        home / "models" / "gpt4all-smol.gguf",
    )
    code, _out, err = sphere([*base, "gpt4all-smol"], capsys)
    assert code == 2 and "2 listed models" in err and "--source" in err
    code, _out, _err = sphere([*base, "gpt4all-smol", "--source", "folder"], capsys)
    assert code == 0 and str(home / "models" / "gpt4all-smol.gguf") in cfg.read_text()


def test_models_use_creates_the_user_settings_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No settings file anywhere: the per-user one is created, and config show reads it."""
    (tmp_path / "config.yaml").unlink()
    code, out, err = sphere(["models", "use", "HuggingFaceTB/SmolLM2-GGUF/smollm2-q4_1"], capsys)
    assert code == 0, err
    user = home / ".config" / "sphere" / "config.yaml"
    assert f"written to {user}" in out and "created" in err
    code, out, _err = sphere(["config", "show"], capsys)
    assert f"# settings file: {user}" in out and "smollm2-q4_1.gguf" in out


def test_config_edit_keeps_comments_and_handles_odd_files(tmp_path: Path) -> None:
    import yaml

    from assistant.config_edit import set_keys

    p = tmp_path / "c.yaml"
    p.write_text("# mine\nllm:\n    use: always   # note\n    model: 'a # b'  # the model\nx: 1\n")
    r = set_keys(p, "llm", {"model": "/m/new model.gguf"})
    assert r.comments_kept and r.old == {"model": "a # b"}
    text = p.read_text()
    assert text.startswith("# mine\nllm:\n    use: always   # note\n")
    assert "    model: /m/new model.gguf # the model\n" in text and text.endswith("x: 1\n")
    assert yaml.safe_load(text)["llm"] == {"use": "always", "model": "/m/new model.gguf"}
    # a value that needs quoting, a missing key, a missing section
    set_keys(p, "llm", {"model": "x: #y", "server_model": "m"})
    assert yaml.safe_load(p.read_text())["llm"] == {
        "use": "always",
        "model": "x: #y",
        "server_model": "m",
    }
    q = tmp_path / "d.yaml"
    q.write_text("index_dir: ix\n")
    set_keys(q, "llm", {"model": "bundled"})
    assert q.read_text() == "index_dir: ix\n\nllm:\n  model: bundled\n"
    # flow style cannot be edited line by line: re-written, and the caller is told
    f = tmp_path / "e.yaml"
    f.write_text("# gone\nllm: {model: bundled, use: auto}\n")
    r = set_keys(f, "llm", {"model": "http://127.0.0.1:1/v1"})
    assert not r.comments_kept
    assert yaml.safe_load(f.read_text())["llm"] == {"model": "http://127.0.0.1:1/v1", "use": "auto"}
    # if_present: not added when the file never had it
    set_keys(q, "llm", {"model": "bundled", "server_model": ""}, if_present=("server_model",))
    assert "server_model" not in q.read_text()
    # a symlinked settings file stays a link; its target is edited
    target = tmp_path / "real.yaml"
    target.write_text("llm:\n  model: bundled\n")
    (tmp_path / "link.yaml").symlink_to(target)
    set_keys(tmp_path / "link.yaml", "llm", {"model": "/x.gguf"})
    assert (tmp_path / "link.yaml").is_symlink() and "/x.gguf" in target.read_text()
