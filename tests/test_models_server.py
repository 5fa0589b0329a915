"""A real OpenAI-compatible server on 127.0.0.1: `sphere models list` finds it,
`sphere models use` selects it, and `sphere ask` answers through it.

The server is ``python -m assistant.llm.serve``: ``llama_cpp.server`` itself,
run with llama.cpp's extra CPU buffer types off, because on machines that
report AMX but cannot run it the plain server dies with SIGILL on its first
prompt (docs/ARCHITECTURE.md, "llama.cpp CPU buffers"). It serves the bundled
GGUF. A server counts as capable, so with ``llm.use: auto`` the model writes
the summaries (and the deterministic path checks them and stands in when a
step fails).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.llama_server import running_server
from tests.test_llm_capable import sphere

pytestmark = pytest.mark.slow

QUESTION = "Should school uniforms be mandatory?"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("server"), n_ctx=4096) as url:
        yield url + "/v1"


def test_list_use_and_ask_through_the_server(
    server: str,
    demo_index_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("SPHERE_LLM__MODEL", raising=False)
    monkeypatch.delenv("SPHERE_LLM__USE", raising=False)
    cfg = tmp_path / "config.yaml"
    cfg.write_text(
        "# a settings file of one's own\n"
        f"index_dir: {demo_index_dir}\n"
        "llm:\n"
        "  model: bundled   # for now\n"
        "  use: auto\n"
        "summary:\n"
        "  documents: 8     # two local summaries and the editorial merge, to keep it short\n"
        "  groups: 2\n"
        "models:\n"
        f"  servers: [{server}]\n"
        "  ollama: ''\n",
        encoding="utf-8",
    )
    base = ["--config", str(cfg)]
    code, out, _err = sphere([*base, "models", "list", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    served = [m for m in data["models"] if m["kind"] == "server"]
    assert len(served) == 1, data["searched"]
    entry = served[0]
    port = server.split(":")[-1].split("/")[0]
    assert entry["url"] == server and entry["name"].endswith(f"@127.0.0.1:{port}")
    assert entry["capable"] is True and entry["source"] == "server"
    assert any(s.get("url") == server and s.get("found") == 1 for s in data["searched"])

    code, out, _err = sphere([*base, "models", "use", entry["name"]], capsys)
    assert code == 0 and "capable" in out
    text = cfg.read_text()
    assert f"  model: {server} # for now\n" in text  # the comment kept
    assert f"  server_model: {entry['server_model']}\n" in text

    code, out, err = sphere([*base, "ask", QUESTION, "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    llm = answer["model"]["llm"]
    assert answer["model"]["backend"] == "http"
    assert llm["loaded"] is True and llm["capable"] is True and llm["kind"] == "server"
    assert llm["stages"] == ["understand", "summarize"]
    assert answer["retrieval"]["summary"]["path"] == "model"
    retrieved = {h["doc_id"] for hits in answer["hits"].values() for h in hits}
    cited = [
        r["doc_id"]
        for c in answer["summary"]["claims"]
        for p in c["perspectives"]
        for r in p["references"]
    ]
    # the server wrote the summaries: the editorial merge and at least one of the two local
    # summaries (the 135M model may run out of tokens twice on one local summary, which is
    # then written without it, as designed: with the round-11 stance model the second
    # group's documents did so); verification then checks every reference, and drops what
    # the 135M model cites without support
    summary = answer["summary"]
    assert summary["method"] == "model"
    failed = [n for n in summary["notes"] if "model failed" in n]
    assert not [n for n in failed if n.startswith("editorial")], summary["notes"]
    assert len(failed) <= 1, summary["notes"]
    assert set(cited) <= retrieved
    assert "verification" in answer["retrieval"]

    # the same URL written by hand works too (the server's first model is used)
    code, _out, _err = sphere([*base, "models", "use", server], capsys)
    assert code == 0 and f"  model: {server}" in cfg.read_text()
    assert "  server_model: ''" in cfg.read_text() or '  server_model: ""' in cfg.read_text()
