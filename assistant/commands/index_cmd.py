"""``sphere index build|list|info|remove``."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from assistant.commands.context import Context, pass_ctx
from assistant.wording import count, noun_for


@click.group("index")
def index_group() -> None:
    """Build and manage document indexes."""


@index_group.command("build")
@click.argument("name")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--id-field", help="record field holding the document id")
@click.option("--text-field", help="record field holding the text (default: text/content/body)")
@click.option("--title-field", help="record field holding the title")
@click.option("--source-field", help="record field holding the source (site, outlet, url)")
@click.option("--meta-field", "meta_fields", multiple=True, help="extra record field to keep")
@click.option("--rebuild", is_flag=True, help="start the index over from nothing")
@click.option(
    "--batch-passages",
    default=4096,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="passages embedded and committed per batch",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="config",
    default=None,
    metavar="[ADDRESS]",
    help="embed on a Ray cluster: HOST:PORT of its head node, 'auto', or no value for "
    "index.ray_address in config.yaml ('' there: a local Ray on this machine)",
)
@click.option(
    "--ray-workers",
    type=click.IntRange(1, 4096),
    help="Ray actors (one embedder each; default: one per CPU of the cluster)",
)
@click.option("--json", "as_json", is_flag=True, help="print the build report as JSON")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@pass_ctx
def build(
    ctx: Context,
    name: str,
    paths: tuple[str, ...],
    id_field: str | None,
    text_field: str | None,
    title_field: str | None,
    source_field: str | None,
    meta_fields: tuple[str, ...],
    rebuild: bool,
    batch_passages: int,
    ray_address: str | None,
    ray_workers: int | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Index the files under PATHS (recursively) as index NAME.

    Reads .txt .md .html .pdf, and .jsonl/.json/.csv records (one document per
    record). Re-running updates the index incrementally; an interrupted build
    resumes. With --ray the passages are embedded by Ray actors (`pip install
    'sphere-assistant[ray]'`); the index is the same as a local build's.
    """
    from assistant.embed import lazy_embedder_from_settings
    from assistant.index.build import build_index, options_from_settings
    from assistant.index.store import check_name
    from assistant.ingest.loaders import FieldMapping

    s = ctx.settings
    check_name(name)
    mapping = FieldMapping(id_field, text_field, title_field, source_field, meta_fields)
    options = options_from_settings(s, mapping, rebuild=rebuild, batch_passages=batch_passages)
    if ray_workers is not None and ray_address is None:
        raise click.UsageError("--ray-workers needs --ray")
    embedder: Any
    if ray_address is not None:
        from assistant.index.distributed import RayEmbedder

        address = s.index.ray_address if ray_address == "config" else ray_address
        embedder = RayEmbedder(s, address, ray_workers)
    else:
        embedder = lazy_embedder_from_settings(s)
    try:
        with _BuildProgress(not quiet and not as_json) as bar:
            report = build_index(s.index_dir, name, list(paths), embedder, options, bar.update)
    finally:
        if ray_address is not None:
            embedder.close()
    _finish(report, as_json)


@index_group.command("demo")
@click.option("--rebuild", is_flag=True, help="start the index over from nothing")
@click.option("--json", "as_json", is_flag=True, help="print the build report as JSON")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@pass_ctx
def demo(ctx: Context, rebuild: bool, as_json: bool, quiet: bool) -> None:
    """Build the demo index from the demo corpus that ships with Sphere.

    64 short fictional documents on four debatable questions (school uniforms,
    a four-day week, nuclear power, social media for under-16s), indexed as
    'demo' in the index folder (`sphere config show` says where).
    """
    from assistant.demo import build_demo_index

    with _BuildProgress(not quiet and not as_json) as bar:
        report = build_demo_index(ctx.settings, rebuild=rebuild, progress=bar.update)
    _finish(report, as_json)
    if not as_json:
        click.echo('Try:  sphere ask "Should school uniforms be mandatory?"   or just:  sphere')


def _finish(report: Any, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        _print_report(report)
    if report.documents == 0:
        raise SystemExit(4)


def _print_report(report: Any) -> None:
    verb = "Resumed and built" if report.resumed else "Built"
    click.echo(
        f"{verb} index '{report.name}': {count(report.documents, 'document')}, "
        f"{count(report.passages, 'passage')} "
        f"({report.documents_added} added, {report.documents_removed} removed; "
        f"{count(report.files_indexed, 'file')} indexed, {report.files_unchanged} unchanged, "
        f"{report.files_removed} removed) in {report.seconds:.1f} s "
        f"({report.docs_per_second:.1f} docs/s)."
    )
    for note in report.notes:
        click.echo(f"  note: {note}")
    if report.skipped:
        click.echo(f"Skipped {len(report.skipped)}:")
        for s in report.skipped[:50]:
            click.echo(f"  {s.path}: {s.reason}")
        if len(report.skipped) > 50:
            click.echo(f"  … and {len(report.skipped) - 50} more (see `sphere index info`)")


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def _read_so_far(data: dict[str, Any]) -> str:
    """'12.5 of 50.0 MB, 3,200 passages' (no total for a .gz)."""
    total = data["total"]
    amount = f"{data['bytes'] / 1e6:.1f} of {_mb(total)}" if total else _mb(data["bytes"])
    return f"{amount}, {data['passages']:,} {noun_for(data['passages'], 'passage')}"


class _BuildProgress:
    """The builder's events on stderr: a rich bar on a terminal (files, passages,
    docs/s, and a second bar in bytes for a large file read in parts), else one
    plain line per stage and a line at most every 30 s inside a large file."""

    def __init__(self, show: bool) -> None:
        from assistant.progress_bar import PlainLines, bars_wanted

        self.show = show
        self.bars = show and bars_wanted()
        self.plain = PlainLines() if show and not self.bars else None
        self.t0 = time.perf_counter()
        self.docs = 0
        self.passages = 0
        self.progress: Any = None
        self.big: Any = None  # the bar of the large file being read

    def __enter__(self) -> _BuildProgress:
        return self

    def _start(self) -> None:
        """Drawn at the builder's first event, so a build refused before it starts (a
        missing path, no indexable files) prints its error without an empty bar."""
        from assistant.progress_bar import eta_bar

        # the count is a field, not {task.completed}: a large file's bar counts bytes
        self.progress = eta_bar("{task.fields[count]}", "{task.fields[stats]}")
        self.progress.start()
        self.task = self.progress.add_task("indexing", total=None, stats="", count="")
        self.files = 0
        self.total_files = 0

    def update(self, event: str, data: dict[str, Any]) -> None:
        if event == "batch":
            self.docs += data["documents"]
            self.passages += data["passages"]
        if self.plain is not None:
            self._line(event, data)
        elif self.bars:
            self._bar(event, data)

    def _line(self, event: str, data: dict[str, Any]) -> None:
        assert self.plain is not None
        if event == "start":
            self.plain.stage(
                "indexing",
                f"{count(data['files'], 'file')} to read ({_mb(data['bytes'])}), "
                f"{data['unchanged']} unchanged",
            )
        elif event == "file_start":
            total = data["total"]
            size = f" ({_mb(total)})" if total else ""
            self.plain.stage(f"reading {data['path']}{size} in parts")
        elif event == "file_progress":
            self.plain.tick(_read_so_far(data))
        elif event == "file" and self.plain._stage.startswith("reading "):
            self.plain.stage("indexing", self._so_far())
        elif event == "finalize":
            self.plain.stage("writing FAISS + BM25", self._so_far())

    def _so_far(self) -> str:
        """'1,200 documents, 3,400 passages'."""
        docs, passages = self.docs, self.passages
        return (
            f"{docs:,} {noun_for(docs, 'document')}, {passages:,} {noun_for(passages, 'passage')}"
        )

    def _bar(self, event: str, data: dict[str, Any]) -> None:
        if self.progress is None:
            self._start()
        if event == "start":
            self.total_files = data["files"]
            self.progress.update(self.task, total=data["files"])
        elif event == "file":
            self.files += 1
            self.progress.advance(self.task)
            if self.big is not None and data["path"] == self.progress.tasks[self.big].fields.get(
                "path"
            ):
                self.progress.remove_task(self.big)
                self.big = None
        elif event == "file_start":
            name = data["path"].rsplit("/", 1)[-1]
            self.big = self.progress.add_task(
                name[:40], total=data["total"], stats="", count="", path=data["path"]
            )
        elif event == "file_progress" and self.big is not None:
            completed = data["bytes"] if data["total"] else None
            self.progress.update(self.big, completed=completed, stats=_read_so_far(data))
        elif event == "finalize":
            self.progress.update(self.task, description="writing FAISS + BM25")
        rate = self.docs / max(time.perf_counter() - self.t0, 1e-9)
        self.progress.update(
            self.task,
            count=f"{self.files}/{self.total_files} files",
            stats=f"{self.docs} docs, {self.passages} passages, {rate:.1f} docs/s",
        )

    def __exit__(self, *exc: object) -> None:
        if self.progress:
            self.progress.stop()


@index_group.command("list")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
def list_cmd(ctx: Context, as_json: bool) -> None:
    """List the indexes in the index folder; an unfinished build is marked, with the
    command that resumes it."""
    from assistant.index.store import index_state, list_indexes, resume_command

    index_dir = ctx.settings.index_dir
    rows = []
    for n in list_indexes(index_dir):
        state = index_state(index_dir, n)
        row = {"name": n, "state": state}
        if state == "incomplete":
            row["resume"] = resume_command(index_dir, n)
        rows.append(row)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo(
            f"No indexes in {index_dir}. Build one with "
            "`sphere index build NAME PATH…`, or the demo index with `sphere index demo`."
        )
    for r in rows:
        if r["state"] == "clean":
            click.echo(r["name"])
        elif r["state"] == "incomplete":
            click.echo(f"{r['name']}  (incomplete: resume with `{r['resume']}`)")
        else:
            click.echo(f"{r['name']}  ({r['state']})")


@index_group.command("info")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True)
@click.option("--skipped", "show_skipped", is_flag=True, help="list skipped files and reasons")
@pass_ctx
def info(ctx: Context, name: str, as_json: bool, show_skipped: bool) -> None:
    """Show documents, passages, embedder, chunking and FAISS type of NAME."""
    from assistant.index.store import Index

    index = Index.open(ctx.settings.index_dir, name)
    try:
        data = index.info()
        skipped = index.meta.skipped()
    finally:
        index.close()
    if show_skipped:
        data["skipped_files"] = [{"path": p, "reason": r} for p, r in skipped]
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    for key in (
        "name",
        "path",
        "documents",
        "passages",
        "embedder",
        "dim",
        "chunking",
        "faiss",
        "files",
        "skipped",
        "built",
        "size_bytes",
    ):
        click.echo(f"{key:>10}: {data[key]}")
    if show_skipped:
        for p, r in skipped:
            click.echo(f"  {p}: {r}")


@index_group.command("remove")
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="do not ask")
@pass_ctx
def remove(ctx: Context, name: str, yes: bool) -> None:
    """Delete index NAME and its files."""
    from assistant.index.store import remove_index

    if not yes and not click.confirm(f"Remove index '{name}'?", default=False):
        raise click.Abort()
    remove_index(ctx.settings.index_dir, name)
    click.echo(f"Removed index '{name}'.")
