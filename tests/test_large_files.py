"""A large file never stalls a build (issue 36): read in parts with bounded memory,
progress inside it, small files first, every part committed, a kill resumed inside it."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.errors import IndexIncompleteError
from assistant.index import BuildOptions, Index, build_index
from assistant.index.store import index_state
from assistant.ingest.stream import iter_parts
from tests.hash_embedder import HashEmbedder

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["nuclear", "power", "wind", "solar", "cost", "jobs", "tax", "carbon", "school",
         "uniform", "policy", "evidence", "study", "report", "market", "energy", "price",
         "family", "health", "city", "water"]  # fmt: skip


def _one_line(path: Path, size: int, seed: int = 0) -> str:
    """A file of ``size`` bytes on one line: numbered sentences, no line break."""
    rng = random.Random(seed)
    out: list[str] = []
    n = i = 0
    while n < size:
        s = f"Sentence {i} says {' '.join(rng.choices(WORDS, k=rng.randint(6, 20)))}. "
        out.append(s)
        n += len(s)
        i += 1
    text = "".join(out)
    path.write_text(text, encoding="ascii")
    return text


def _small_files(folder: Path) -> list[str]:
    import gzip

    (folder / "a.txt").write_text("Wind power creates jobs in small towns.\n", encoding="utf-8")
    (folder / "b.md").write_text("# Tax\n\nA carbon tax changes prices.\n", encoding="utf-8")
    (folder / "c.html").write_text(
        "<html><body><p>Solar panels are cheaper every year.</p></body></html>", encoding="utf-8"
    )
    (folder / "TODO").write_text("Write the report on water prices.\n", encoding="utf-8")
    (folder / "NEWS.gz").write_bytes(gzip.compress(b"School uniforms return in the city.\n"))
    return ["a.txt", "b.md", "c.html", "TODO", "NEWS.gz"]


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc")


CHILD = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from assistant.index import BuildOptions, build_index
from tests.hash_embedder import HashEmbedder

def progress(event, data):
    print(json.dumps({"event": event, **data}), flush=True)

build_index(Path(sys.argv[1]), "big", [Path(sys.argv[2])], HashEmbedder(delay=0.05),
            BuildOptions(), progress)
"""


@pytest.mark.slow
def test_a_50mb_one_line_file_beside_small_ones_killed_and_resumed(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    small = _small_files(folder)
    text = _one_line(folder / "big.txt", 50_000_000)
    n_parts = sum(1 for _ in iter_parts(folder / "big.txt"))
    idx = tmp_path / "idx"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(idx), str(folder), str(ROOT)],
        stdout=subprocess.PIPE,
        env=env,
    )
    events: list[dict] = []
    assert child.stdout is not None
    deadline = time.time() + 300
    while time.time() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        events.append(json.loads(line))
        if events[-1]["event"] == "file_progress" and events[-1]["part"] >= 3:
            break
    # the child's own high-water mark (its rusage would also count the parent's memory
    # that a fork copied before exec)
    peak_mb = _peak_rss_mb(child.pid)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    kinds = [e["event"] for e in events]
    assert "file_progress" in kinds, kinds
    # the small files were committed before the big one was started
    done_small = [Path(e["path"]).name for e in events if e["event"] == "file"]
    assert sorted(done_small) == sorted(small)
    assert kinds.index("file_start") > max(i for i, k in enumerate(kinds) if k == "file")
    # progress inside the big file: bytes, its total, parts, passages, growing
    moves = [e for e in events if e["event"] == "file_progress"]
    assert [e["part"] for e in moves] == list(range(1, len(moves) + 1))
    assert moves[0]["total"] == len(text) and 0 < moves[0]["bytes"] < moves[-1]["bytes"]
    assert 0 < moves[0]["passages"] < moves[-1]["passages"]
    # memory stayed far below the file's size times the old build's factor (1.9 GB)
    assert peak_mb < 400, f"peak RSS {peak_mb:.0f} MB"

    # what the kill left: every small file and the finished parts, marked incomplete
    db = sqlite3.connect(idx / "big" / "meta.sqlite")
    try:
        files = dict(db.execute("SELECT path, complete FROM files").fetchall())
        parts = [
            r[0] for r in db.execute("SELECT doc_id FROM documents WHERE file LIKE '%big.txt'")
        ]
    finally:
        db.close()
    assert all(files[str((folder / n).resolve())] == 1 for n in small)
    assert files[str((folder / "big.txt").resolve())] == 0
    kept = len(parts)
    assert kept >= 3 and sorted(parts) == sorted(f"{folder.resolve()}/big.txt#part{i}"
                                                 for i in range(1, kept + 1))  # fmt: skip
    assert index_state(idx, "big") == "incomplete"
    with pytest.raises(IndexIncompleteError):
        Index.open(idx, "big")

    # the rerun starts inside the big file, at the first part not committed
    emb = HashEmbedder()
    seen: list[dict] = []
    report = build_index(idx, "big", [folder], emb, BuildOptions(), lambda e, d: seen.append(d))
    assert report.resumed and report.files_indexed == 1
    assert report.documents_added == n_parts - kept
    assert report.documents == n_parts + len(small)
    index = Index.open(idx, "big")
    try:
        ids = [r[0] for r in index.meta.db.execute("SELECT doc_id FROM documents")]
        assert len(ids) == len(set(ids))
        joined = "".join(
            index.document(f"{folder.resolve()}/big.txt#part{i}").text  # type: ignore[union-attr]
            for i in range(1, n_parts + 1)
        )
        assert joined == text  # nothing lost, nothing twice
        last = index.meta.passages_of_doc(f"{folder.resolve()}/big.txt#part{n_parts}")
        doc = index.document(f"{folder.resolve()}/big.txt#part{n_parts}")
        assert doc is not None and all(doc.text[p.start : p.end] == p.text for p in last)
    finally:
        index.close()


def test_parts_are_cut_at_sentences_and_rejoin_to_the_file(tmp_path: Path) -> None:
    text = _one_line(tmp_path / "big.txt", 200_000, seed=3)
    parts = list(iter_parts(tmp_path / "big.txt", part_chars=30_000))
    assert len(parts) >= 6 and parts[-1].last and not parts[0].last
    assert "".join(p.document.text for p in parts) == text
    for p in parts[:-1]:
        assert p.document.text.endswith(". ") and len(p.document.text) <= 30_000
        assert p.document.doc_id.endswith(f"#part{p.number}")
        assert p.document.path == str(tmp_path / "big.txt")
    # a file that fits in one part is one document under the file's own name
    (tmp_path / "small.txt").write_text("One part only. Short.", encoding="utf-8")
    (only,) = iter_parts(tmp_path / "small.txt", part_chars=30_000)
    assert only.document.doc_id == str(tmp_path / "small.txt") and only.last


def test_a_file_over_the_limit_is_skipped_with_the_setting_named(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("Kept words about wind power.", encoding="utf-8")
    _one_line(tmp_path / "huge.txt", 300_000)
    opts = BuildOptions(max_file_bytes=200_000, part_chars=50_000)
    report = build_index(tmp_path / "idx", "lim", [tmp_path], HashEmbedder(), opts)
    reasons = {Path(s.path).name: s.reason for s in report.skipped}
    assert "too large" in reasons["huge.txt"] and "index.max_file_mb" in reasons["huge.txt"]
    assert report.documents == 1


def test_max_file_mb_comes_from_the_settings() -> None:
    from assistant.config import Settings
    from assistant.index.build import options_from_settings

    s = Settings.model_validate({"index": {"max_file_mb": 1.5}})
    assert options_from_settings(s).max_file_bytes == int(1.5 * 1024 * 1024)


@pytest.mark.slow
def test_parts_on_the_bundled_embedder_are_found_by_search(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    """The real encoder: a part deep inside a large file is its own document, found by
    what it says, its passages exact slices of its text."""
    from assistant.index.search import search

    folder = tmp_path / "f"
    folder.mkdir()
    filler = _one_line(folder / "big.txt", 40_000, seed=5)
    needle = "Octopuses guard their eggs in underwater caves for many months. "
    (folder / "big.txt").write_text(filler + needle + filler, encoding="ascii")
    opts = BuildOptions(part_chars=16_000)
    report = build_index(tmp_path / "idx", "real", [folder], embedder, opts)
    assert report.documents >= 5
    index = Index.open(tmp_path / "idx", "real")
    try:
        hits = search(index, embedder, "octopus eggs caves", k=3)
        top = hits[0]
        assert "#part" in top.doc_id
        doc = index.document(top.doc_id)
        assert doc is not None and needle.strip() in doc.text
        assert all(
            doc.text[p.start : p.end] == p.text for p in index.meta.passages_of_doc(doc.doc_id)
        )
    finally:
        index.close()
