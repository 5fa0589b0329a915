"""Full disk and read-only index folders give clear errors and lose nothing (issue 8)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from assistant.errors import IngestError
from assistant.index import BuildOptions, Index, build_index


@contextlib.contextmanager
def _tmpfs(path: Path, size: str, *, readonly: bool = False) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    opts = f"size={size}" + (",ro" if readonly else "")
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], capture_output=True, check=False
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def _docs(folder: Path, n: int, tag: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"{tag}{i}.txt").write_text(f"Document {tag} {i}. " + "Some words here. " * 40)
    return folder


def test_full_disk_is_a_clear_error_and_the_build_resumes(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    src = _docs(tmp_path / "src", 5, "a")
    with _tmpfs(tmp_path / "disk", "3m") as disk:
        build_index(disk, "x", [src], embedder, BuildOptions())
        filler = disk / "filler"
        with contextlib.suppress(OSError), open(filler, "wb") as fh:
            while True:
                fh.write(b"\0" * 65536)
        # leave a little room, so the update starts, commits some batches, then runs out
        with open(filler, "r+b") as fh:
            fh.truncate(filler.stat().st_size - 160 * 1024)
        _docs(src, 40, "b")
        with pytest.raises(IngestError, match="disk is full"):
            build_index(disk, "x", [src], embedder, BuildOptions(batch_passages=8))
        filler.unlink()
        report = build_index(disk, "x", [src], embedder, BuildOptions(batch_passages=8))
        assert report.documents == 45
        index = Index.open(disk, "x")
        try:
            rows = index.meta.db.execute("SELECT doc_row, ordinal FROM passages").fetchall()
            assert len(rows) == len(set(rows)) == index.n_passages
            assert index.meta.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            index.close()


def test_read_only_index_folder_is_a_clear_error(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    src = _docs(tmp_path / "src", 2, "a")
    with (
        _tmpfs(tmp_path / "ro", "1m", readonly=True) as ro,
        pytest.raises(IngestError, match="cannot write"),
    ):
        build_index(ro, "x", [src], embedder, BuildOptions())
