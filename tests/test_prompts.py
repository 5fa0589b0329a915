"""Prompt files: loaded and validated at start; named errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.errors import MissingVariableError, PromptError
from assistant.llm.prompts import load_prompts, substitute


def test_repo_prompts_load() -> None:
    ps = load_prompts()
    for name in (
        "perspective_extraction",
        "aspect_extraction",
        "claims",
        "local_summary",
        "editorial_merge",
        "reference_determination",
        "stance_detection",
    ):
        assert name in ps
    assert ps.directory.name == "prompts"


def test_missing_variable_is_named() -> None:
    p = load_prompts().get("perspective_extraction")
    with pytest.raises(MissingVariableError, match="query"):
        p.messages()


def test_unknown_prompt() -> None:
    with pytest.raises(PromptError, match="unknown prompt 'nope'"):
        load_prompts().get("nope")


def test_values_are_not_re_expanded() -> None:
    # a question containing "{query}" must not pull in another variable
    out = substitute("Q: {query} {{literal}}", {"query": "ignore {system} {query}"})
    assert out == "Q: ignore {system} {query} {literal}"


def test_schema_enum_variable_filled_at_call_time() -> None:
    p = load_prompts().get("local_summary")
    schema = p.schema_for(reference_ids=["d1", "d2"])
    refs = schema["properties"]["claims"]["items"]["properties"]["perspectives"]["items"]
    assert refs["properties"]["references"]["items"]["enum"] == ["d1", "d2"]
    assert (
        p.schema["properties"]["claims"]["items"]["properties"]["perspectives"]["items"][
            "properties"
        ]["references"]["items"]["enum"]
        == "{reference_ids}"
    )  # template untouched
    with pytest.raises(MissingVariableError, match="reference_ids"):
        p.schema_for()


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_schema_fails_at_load(tmp_path: Path) -> None:
    _write(tmp_path, "bad", "template: hi {x}\nschema: {type: frobnicate}\n")
    with pytest.raises(PromptError, match=r"bad\.yaml"):
        load_prompts(tmp_path)


def test_unknown_key_and_missing_template(tmp_path: Path) -> None:
    _write(tmp_path / "a", "p", "template: hi\ncolour: red\n")
    with pytest.raises(PromptError, match="unknown key"):
        load_prompts(tmp_path / "a")
    _write(tmp_path / "b", "p", "system: hi\n")
    with pytest.raises(PromptError, match="template"):
        load_prompts(tmp_path / "b")


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(PromptError, match="not found"):
        load_prompts(tmp_path / "none")


def test_env_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, "hello", "template: 'Hello {name}'\nmax_tokens: 5\n")
    monkeypatch.setenv("SPHERE_PROMPTS_DIR", str(tmp_path))
    p = load_prompts().get("hello")
    assert p.render(name="Ada") == "Hello Ada" and p.max_tokens == 5 and p.output == "text"
