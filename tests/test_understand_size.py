"""The question parser and the follow-up rules stay small enough to read (issue 35):
no module of ``assistant/understand/`` over 600 lines, no function over 80 lines, and no
import inside a function unless a comment on it (or the line before) says why."""

from __future__ import annotations

import ast
from pathlib import Path

UNDERSTAND = Path(__file__).resolve().parents[1] / "assistant" / "understand"
MODULES = sorted(UNDERSTAND.rglob("*.py"))
# the turn reader's training loop is one function still (training code, not run by the app)
EXCEPT = {"reader_train.py": ("train",)}


def _rel(path: Path) -> str:
    return str(path.relative_to(UNDERSTAND))


def test_no_module_over_600_lines() -> None:
    big = {_rel(p): n for p in MODULES if (n := len(p.read_text().splitlines())) > 600}
    assert big == {}


def test_no_function_over_80_lines() -> None:
    long = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if n > 80 and node.name not in EXCEPT.get(_rel(path), ()):
                    long.append(f"{_rel(path)}:{node.name} ({n} lines)")
    assert long == []


def test_an_import_inside_a_function_says_why() -> None:
    silent = []
    for path in MODULES:
        lines = path.read_text().splitlines()
        tree = ast.parse("\n".join(lines))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            imports = [n for n in ast.walk(fn) if isinstance(n, ast.Import | ast.ImportFrom)]
            for node in imports:
                # a comment on the import, or on the line before it (one comment may
                # speak for a group of imports that follows it)
                at = node.lineno - 1
                said = "#" in lines[at] or any(
                    lines[i].strip().startswith("#") or "#" in lines[i]
                    for i in range(max(fn.lineno, at - 4), at)
                )
                if not said:
                    silent.append(f"{_rel(path)}:{node.lineno} {lines[at].strip()}")
    assert silent == []
