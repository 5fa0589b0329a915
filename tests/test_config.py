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
