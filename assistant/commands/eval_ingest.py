"""The ``sphere eval html`` and ``sphere eval sentences`` commands over
:mod:`assistant.eval.ingest`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from assistant.eval.ingest import TRICKY, run_html, run_sentences


@click.command("html")
@click.option("--data", "data", required=True, type=click.Path(path_type=Path),
              help="the idebate-html folder (pages/ and gold.jsonl)")  # fmt: skip
@click.option("--limit", type=click.IntRange(1), help="only the first N pages")
@click.option("--json", "as_json", is_flag=True)
def html_command(data: Path, limit: int | None, as_json: bool) -> None:
    """Main-content extractors on saved web pages: furniture rate, recall, time."""
    _report(run_html(data, limit), as_json)


@click.command("sentences")
@click.option("--data", "data", required=True, type=click.Path(path_type=Path),
              help="the idebate-html folder (its gold texts)")  # fmt: skip
@click.option("--cases", type=click.Path(exists=True, path_type=Path), default=TRICKY,
              show_default=True, help="hand-made cases (JSONL: sentences, text)")  # fmt: skip
@click.option("--json", "as_json", is_flag=True)
def sentences_command(data: Path, cases: Path, as_json: bool) -> None:
    """Sentence segmenters: tricky cases, abbreviation ends and speed on gold texts."""
    _report(run_sentences(data, cases), as_json)


def _report(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    for name, m in report["methods"].items():
        cells = ", ".join(
            f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in m.items()
        )
        click.echo(f"{name}: {cells}")
