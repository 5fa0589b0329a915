from __future__ import annotations

from pathlib import Path

import pytest

from assistant.config import load_settings
from assistant.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]


def test_repo_config_is_valid_and_paths_resolve_against_it() -> None:
    s = load_settings(REPO / "config.yaml", environ={})
    assert s.index_dir == REPO / "indexes"
    assert s.embedder.model == "bundled" and s.retrieval.k == 10


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("embedder:\n  modle: x\n")
    with pytest.raises(ConfigError) as err:
        load_settings(cfg, environ={})
    assert "embedder.modle" in str(err.value) and str(cfg) in str(err.value)


def test_bad_value_and_bad_yaml(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("retrieval:\n  k: -3\n")
    with pytest.raises(ConfigError, match=r"retrieval\.k"):
        load_settings(cfg, environ={})
    cfg.write_text("retrieval: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(cfg, environ={})
    cfg.write_text("- a list\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_settings(cfg, environ={})


def test_environment_overrides(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("retrieval:\n  k: 7\n")
    s = load_settings(
        cfg,
        environ={
            "SPHERE_INDEX_DIR": str(tmp_path / "ix"),
            "SPHERE_RETRIEVAL__K": "3",
            "SPHERE_LLM__MODEL": "http://127.0.0.1:9/v1",
        },
    )
    assert s.index_dir == tmp_path / "ix" and s.retrieval.k == 3
    assert s.llm.model.startswith("http")
    with pytest.raises(ConfigError, match="environment"):
        load_settings(cfg, environ={"SPHERE_NOPE": "1"})


def test_missing_explicit_config(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.yaml", environ={})


# ------------------------------------------------------------ where settings come from (issue 17)


def _files(tmp_path: Path) -> dict[str, Path]:
    """A settings file in each place Sphere looks, each naming a different default index."""
    places = {
        "explicit": tmp_path / "explicit.yaml",
        "env": tmp_path / "from-env.yaml",
        "cwd": tmp_path / "work" / "config.yaml",
        "user": tmp_path / "xdg-config" / "sphere" / "config.yaml",
    }
    for name, path in places.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"default_index: {name}\n", encoding="utf-8")
    return places


def test_settings_file_lookup_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    places = _files(tmp_path)
    monkeypatch.chdir(places["cwd"].parent)
    env = {"SPHERE_CONFIG": str(places["env"]), "XDG_CONFIG_HOME": str(tmp_path / "xdg-config")}
    s = load_settings(places["explicit"], environ=env)
    assert (s.default_index, s.source_how) == ("explicit", "--config")
    s = load_settings(None, environ=env)
    assert (s.default_index, s.source_how) == ("env", "$SPHERE_CONFIG")
    assert s.source_file == places["env"]
    del env["SPHERE_CONFIG"]
    s = load_settings(None, environ=env)
    assert s.default_index == "cwd" and s.source_file == places["cwd"]
    places["cwd"].unlink()
    s = load_settings(None, environ=env)
    assert s.default_index == "user" and s.source_file == places["user"]
    places["user"].unlink()
    s = load_settings(None, environ=env)
    assert s.default_index == "demo" and s.source_file is None  # the defaults
    with pytest.raises(ConfigError, match="SPHERE_CONFIG"):
        load_settings(None, environ={"SPHERE_CONFIG": str(tmp_path / "gone.yaml")})


def test_defaults_put_indexes_in_the_xdg_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no config.yaml here
    s = load_settings(None, environ={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert s.index_dir == tmp_path / "data" / "sphere" / "indexes"
    assert s.session_db == Path.home() / ".local/share/sphere/sessions.db"  # as before
    # unset, or relative (the XDG spec says to ignore it): ~/.local/share
    for environ in ({}, {"XDG_DATA_HOME": "relative/data"}):
        s = load_settings(None, environ=environ)
        assert s.index_dir == Path.home() / ".local/share/sphere/indexes"


def test_paths_in_a_settings_file_are_relative_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "xdg-config" / "sphere" / "config.yaml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("index_dir: my-indexes\nsession_db: log/sessions.db\n", encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg-config"), "XDG_DATA_HOME": str(tmp_path / "d")}
    s = load_settings(None, environ=env)
    assert s.index_dir == cfg.parent / "my-indexes"
    assert s.session_db == cfg.parent / "log" / "sessions.db"
    # a file that does not name index_dir keeps the default folder, not one beside it
    cfg.write_text("retrieval:\n  k: 5\n", encoding="utf-8")
    assert load_settings(None, environ=env).index_dir == tmp_path / "d" / "sphere" / "indexes"


def test_config_show_says_which_file_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.cli import main

    places = _files(tmp_path)
    monkeypatch.chdir(places["cwd"].parent)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.delenv("SPHERE_CONFIG", raising=False)
    main(["config", "show"])
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        f"# settings file: {places['cwd']} (found as ./config.yaml in the current folder)"
    )
    assert "default_index: cwd" in out
    overridden = next(line for line in out.splitlines() if line.startswith("# overridden by"))
    assert "SPHERE_CACHE_DIR" in overridden and "SPHERE_SESSION_DB" in overridden  # conftest
    monkeypatch.setenv("SPHERE_CONFIG", str(places["env"]))
    main(["config", "show"])
    assert f"# settings file: {places['env']} (found as $SPHERE_CONFIG)" in capsys.readouterr().out
    main(["--config", str(places["explicit"]), "config", "show"])
    assert "(found as --config)" in capsys.readouterr().out
    monkeypatch.delenv("SPHERE_CONFIG")
    places["cwd"].unlink()
    places["user"].unlink()
    main(["config", "show"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("# no settings file (looked for --config FILE, $SPHERE_CONFIG")


def test_stance_model_path_is_relative_to_the_config_file(tmp_path: Path) -> None:
    cfg = tmp_path / "conf" / "c.yaml"
    cfg.parent.mkdir()
    cfg.write_text("stance:\n  model: models/mine.safetensors\n")
    s = load_settings(cfg, environ={})
    assert s.stance.model == str(tmp_path / "conf" / "models" / "mine.safetensors")
    assert load_settings(REPO / "config.yaml", environ={}).stance.model == "bundled"
    off = load_settings(cfg, environ={"SPHERE_STANCE__MODEL": "off"})
    assert off.stance.model == "off"
