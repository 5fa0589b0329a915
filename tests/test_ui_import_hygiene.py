"""The library never imports the UI: ``textual`` loads only under ``assistant/ui``.

Run in a subprocess so the modules this test session already imported don't count.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from tests.conftest import REPO

LIBRARY = [
    "assistant.pipeline",
    "assistant.store",
    "assistant.export",
    "assistant.cli",
    "assistant.commands.app_cmd",
    # the UI's own textual-free helpers
    "assistant.ui.format",
    "assistant.ui.plan_text",
    "assistant.ui.protocols",
    "assistant.ui.wiring",
]

CHECK = """
import json, sys
for name in json.loads(sys.argv[1]):
    __import__(name)
print(json.dumps(sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))))
"""


def test_library_does_not_import_textual() -> None:
    present = [m for m in LIBRARY if _exists(m)]
    assert "assistant.cli" in present
    out = subprocess.run(
        [sys.executable, "-c", CHECK, json.dumps(present)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
        check=True,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_the_app_module_does_import_textual() -> None:
    """The check above can fail: importing the app really loads textual."""
    out = subprocess.run(
        [sys.executable, "-c", CHECK, json.dumps(["assistant.ui.app"])],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
        check=True,
    )
    assert "textual" in json.loads(out.stdout.strip().splitlines()[-1])


def _exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
