"""The first run in any folder: no settings file, no index, then the demo index (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.cli import main

QUESTION = "Should school uniforms be mandatory?"


@pytest.mark.slow
def test_first_run_anywhere_points_to_the_demo_index_and_builds_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    embedder,  # type: ignore[no-untyped-def]  (loaded once for the session)
) -> None:
    home = tmp_path / "somewhere-else"
    home.mkdir()
    monkeypatch.chdir(home)  # not the checkout: no ./config.yaml
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("SPHERE_CONFIG", "SPHERE_INDEX_DIR"):
        monkeypatch.delenv(name, raising=False)
    indexes = tmp_path / "data" / "sphere" / "indexes"

    main(["index", "list"])
    assert "sphere index demo" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["ask", QUESTION, "--no-llm"])
    assert exit_.value.code == 3
    err = capsys.readouterr().err
    assert f"no index named 'demo' in {indexes}" in err
    assert "hint: build it from the demo corpus that ships with Sphere: `sphere index demo`" in err

    main(["index", "demo", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["documents"] == 64 and report["name"] == "demo"
    assert (indexes / "demo" / "meta.sqlite").is_file()
    main(["index", "demo", "--json"])  # again: nothing to do
    assert json.loads(capsys.readouterr().out)["files_unchanged"] == 1

    main(["ask", QUESTION, "--no-llm", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert result["index"] == "demo"
    top = [hits[0]["doc_id"] for hits in result["hits"].values()]
    assert len(top) == 2 and all(d.startswith("uniforms-") for d in top)
