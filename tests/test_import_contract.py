"""Layers point down: a static import contract over every module of ``assistant/``.

Read from the source (every ``import``, at module level or inside a function), so a
forbidden import fails here even on a path no test runs. The layers, top down:

* the shells: ``cli.py``, ``commands/`` (click), ``ui/`` (textual);
* the harnesses: ``eval/`` and ``bench/`` (plain functions the commands call);
* the library: everything else (``pipeline``, ``thread``, ``export``, ``understand/``,
  ``retrieval/``, ``index/`` …), which imports neither a shell nor a harness.

Harlequin keeps the same kind of contract for its core and UI with import-linter
(``pyproject.toml``); this is its equivalent without the extra dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "assistant"

# modules that train models offline: they may read the evaluation sets' helpers
TRAINING = (
    "assistant.understand.reader_train",
    "assistant.stance.train",
    "assistant.stance.corpus",
)


def _module(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


GRAPH = {_module(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def _under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _offenders(importers: tuple[str, ...], targets: tuple[str, ...]) -> list[str]:
    """Modules outside ``importers`` that import one of ``targets``."""
    return sorted(
        f"{m} imports {t}"
        for m, imports in GRAPH.items()
        if not _under(m, *importers)
        for t in imports
        if _under(t, *targets)
    )


SHELLS = ("assistant.cli", "assistant.commands", "assistant.ui", "assistant.__main__")


@pytest.mark.parametrize(
    ("rule", "importers", "targets"),
    [
        ("click only in the command line", ("assistant.cli", "assistant.commands"), ("click",)),
        ("textual only in the app", ("assistant.ui",), ("textual",)),
        ("nothing below the shells imports the CLI", ("assistant.cli",), ("assistant.cli",)),
        (
            "nothing below the shells imports the commands",
            ("assistant.cli", "assistant.commands"),
            ("assistant.commands",),
        ),
        (
            "only the shells (and the app's start-up benchmark) import the UI",
            (*SHELLS, "assistant.bench.startup"),
            ("assistant.ui",),
        ),
        (
            "the library imports no harness",
            (*SHELLS, "assistant.eval", "assistant.bench", *TRAINING),
            ("assistant.eval", "assistant.bench"),
        ),
        (
            "the library knows no demo (the index's missing-demo hint is the CLI's)",
            ("assistant.demo", *SHELLS, "assistant.eval", "assistant.bench"),
            ("assistant.demo",),
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_layers_point_down(rule: str, importers: tuple[str, ...], targets: tuple[str, ...]) -> None:
    assert _offenders(importers, targets) == [], rule


def test_the_export_and_the_thread_do_not_import_the_ui() -> None:
    for m in ("assistant.export", "assistant.thread", "assistant.pipeline"):
        assert not [t for t in GRAPH[m] if _under(t, "assistant.ui")], m


def test_the_contract_sees_every_module() -> None:
    assert "assistant.understand.followup.resolve" in GRAPH
    assert "click" in GRAPH["assistant.commands.eval_conversation"]
