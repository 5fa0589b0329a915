"""Index build, search, incremental updates, resume after a kill, and bad input."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from assistant.errors import (
    IndexCorruptError,
    IndexIncompleteError,
    IndexMismatchError,
    IndexNotFoundError,
    InputError,
)
from assistant.index import BuildOptions, Index, build_index, list_indexes, remove_index
from assistant.index.search import late_fusion_rows, rrf, search
from assistant.ingest.loaders import FieldMapping

TOPICS = {
    "cats": "Cats are small domestic felines that purr and hunt mice at night.",
    "rockets": "Rockets burn liquid fuel and oxidizer to reach orbit around the Earth.",
    "bread": "Sourdough bread rises slowly with wild yeast and a long fermentation.",
    "tax": "A carbon tax puts a price on emissions so polluters pay for the damage.",
}


def _corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in TOPICS.items():
        (folder / f"{name}.txt").write_text(f"{name.title()}\n\n{text} " * 3, encoding="utf-8")
    (folder / "notes.md").write_text(
        "# Notes\n\nMixed notes about cats and bread.", encoding="utf-8"
    )
    return folder


@pytest.fixture()
def built(tmp_path: Path, embedder):  # type: ignore[no-untyped-def]
    src = _corpus(tmp_path / "docs")
    report = build_index(tmp_path / "idx", "t", [src], embedder, BuildOptions(max_words=20))
    return tmp_path, src, report


def test_build_and_search(built, embedder) -> None:  # type: ignore[no-untyped-def]
    tmp, _src, report = built
    assert report.documents == 5 and report.passages >= 5 and not report.skipped
    index = Index.open(tmp / "idx", "t")
    try:
        assert index.n_passages == report.passages
        hits = search(index, embedder, "space launch vehicles and orbit", k=3)
        assert hits[0].doc_id.endswith("rockets.txt")
        assert hits[0].best_passage and "Rockets" in hits[0].best_passage.text
        bm = search(index, None, "sourdough yeast", k=2, mode="bm25")
        assert bm[0].doc_id.endswith("bread.txt")
        hy = search(index, embedder, "carbon emissions price", k=2, mode="hybrid")
        assert hy[0].doc_id.endswith("tax.txt") and set(hy[0].scores) == {"dense", "bm25"}
        # provenance: passage offsets point into the stored document text
        doc = index.document(hits[0].doc_id)
        bp = hits[0].best_passage
        assert doc is not None and doc.text[bp.start : bp.end] == bp.text
        info = index.info()
        assert info["documents"] == 5 and info["embedder"] == embedder.name
        # the brief read a result list uses agrees with the full one on what it shows
        full = index.documents_by_row(range(10), with_text=True)
        brief = index.documents_by_row(range(10), with_text=True, brief=True)
        assert len(full) == 5 and set(brief) == set(full)
        for row, d in full.items():
            b = brief[row]
            assert (b.doc_id, b.title, b.source, b.path, b.text) == (
                d.doc_id,
                d.title,
                d.source,
                d.path,
                d.text,
            )
        pids = [p.passage_id for p in index.passages_of(hits[0].doc_id)]
        assert index.passage_texts(pids) == {i: p.text for i, p in index.passages(pids).items()}
        ps, ds = index.passages_and_documents(pids)
        assert ps == index.passages(pids)
        assert ds == index.documents_by_row(list(ds), brief=True) and len(ds) == 1
    finally:
        index.close()
    manifest = json.loads((tmp / "idx/t/manifest.json").read_text())
    assert manifest["embedder"]["dim"] == 384 and manifest["faiss"]["kind"] == "flat"
    assert len(manifest["files"]) == 5


def test_incremental_skip_change_delete(built, embedder) -> None:  # type: ignore[no-untyped-def]
    from assistant.embed import LazyEmbedder

    tmp, src, _ = built
    faiss_mtime = (tmp / "idx/t/faiss.index").stat().st_mtime_ns
    lazy = LazyEmbedder("bundled")
    again = build_index(tmp / "idx", "t", [src], lazy, BuildOptions(max_words=20))
    assert again.files_unchanged == 5 and again.documents_added == 0
    # nothing changed: no model load, no FAISS/BM25 rewrite
    assert not lazy.loaded
    assert (tmp / "idx/t/faiss.index").stat().st_mtime_ns == faiss_mtime
    (src / "cats.txt").write_text("Dogs bark loudly at the mail carrier every morning.")
    (src / "bread.txt").unlink()
    third = build_index(tmp / "idx", "t", [src], embedder, BuildOptions(max_words=20))
    assert third.files_indexed == 1 and third.files_removed == 1 and third.documents == 4
    index = Index.open(tmp / "idx", "t")
    try:
        hits = search(index, embedder, "barking dog", k=1)
        assert hits[0].doc_id.endswith("cats.txt")
        assert all(
            not h.doc_id.endswith("bread.txt") for h in search(index, embedder, "bread", k=10)
        )
        assert index.n_passages == index.meta.counts()[1]
    finally:
        index.close()


def test_embedder_and_chunking_mismatch_refused(built, embedder) -> None:  # type: ignore[no-untyped-def]
    tmp, src, _ = built
    with pytest.raises(IndexMismatchError, match="chunking"):
        build_index(tmp / "idx", "t", [src], embedder, BuildOptions(max_words=50))

    class Other:
        name, dim = "other-model", 384

        def encode(self, texts, **kw):  # type: ignore[no-untyped-def]
            return np.zeros((len(texts), 384), np.float32)

    with pytest.raises(IndexMismatchError, match="other-model"):
        build_index(tmp / "idx", "t", [src], Other(), BuildOptions(max_words=20))  # type: ignore[arg-type]
    with pytest.raises(IndexMismatchError):
        Index.open(tmp / "idx", "t", embedder_name="other-model")


def test_unknown_and_corrupt_index(built) -> None:  # type: ignore[no-untyped-def]
    tmp, _, _ = built
    with pytest.raises(IndexNotFoundError, match="available: t"):
        Index.open(tmp / "idx", "nope")
    (tmp / "idx/t/faiss.index").write_bytes(b"garbage")
    with pytest.raises(IndexCorruptError, match="damaged"):
        Index.open(tmp / "idx", "t")
    assert list_indexes(tmp / "idx") == ["t"]
    remove_index(tmp / "idx", "t")
    assert list_indexes(tmp / "idx") == []


def test_bad_paths(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match="does not exist"):
        build_index(tmp_path / "idx", "x", [tmp_path / "missing"], embedder)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no indexable files"):
        build_index(tmp_path / "idx", "x", [tmp_path / "empty"], embedder)
    with pytest.raises(InputError, match="invalid index name"):
        build_index(tmp_path / "idx", "../evil", [tmp_path], embedder)


def test_failed_update_leaves_existing_index_usable(built, embedder) -> None:  # type: ignore[no-untyped-def]
    tmp, _src, report = built
    bad = tmp / "bad"
    bad.mkdir()
    (bad / "x.bin.txt").write_bytes(b"\x00\x01" * 100)
    (bad / "y.jsonl").write_text("{broken\n")
    r2 = build_index(tmp / "idx", "t", [bad], embedder, BuildOptions(max_words=20))
    assert {s.reason.split(" ")[0] for s in r2.skipped} >= {"binary", "line"}
    index = Index.open(tmp / "idx", "t")
    try:
        assert index.n_documents == report.documents
    finally:
        index.close()


def test_late_fusion_and_rrf_by_hand() -> None:
    rows = np.array([1, 1, 2, 1, 3, -1])
    scores = np.array([0.9, 0.5, 0.8, 0.1, 0.85, 0.99], dtype=np.float32)
    docs, fused = late_fusion_rows(rows, scores, k_r=2)
    assert docs.tolist() == [3, 2, 1]  # 3: .85, 2: .8, 1: (.9+.5)/2 = .7
    assert fused.tolist() == pytest.approx([0.85, 0.8, 0.7])
    docs1, _fused1 = late_fusion_rows(rows, scores, k_r=1)
    assert docs1.tolist() == [1, 3, 2]
    d, s = rrf([np.array([5, 7]), np.array([7, 9])], k=60)
    assert d.tolist() == [7, 5, 9]
    assert s[0] == pytest.approx(1 / 62 + 1 / 61)


def _cli(*args: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "assistant.cli", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@pytest.mark.slow
def test_killed_build_resumes_without_duplicates_or_loss(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "records.jsonl"
    with src.open("w") as fh:
        for i in range(600):
            fh.write(
                json.dumps({"id": i, "text": f"Document {i} talks about topic {i % 17} " * 4})
                + "\n"
            )
    env = {**os.environ, "SPHERE_INDEX_DIR": str(tmp_path / "idx"), "HF_HUB_OFFLINE": "1"}
    proc = _cli("index", "build", "r", str(src), "--batch-passages", "16", "-q", env=env)
    db = tmp_path / "idx/r/meta.sqlite"
    deadline = time.time() + 120
    committed = 0
    while time.time() < deadline and proc.poll() is None:
        if db.exists():
            try:
                c = sqlite3.connect(db, timeout=0.1)
                try:
                    committed = c.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
                finally:
                    c.close()
            except sqlite3.Error:
                committed = 0
            if committed >= 50:
                break
        time.sleep(0.05)
    assert proc.poll() is None, "build finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with pytest.raises(IndexIncompleteError, match="incomplete") as err:
        Index.open(tmp_path / "idx", "r")
    assert "damaged" not in str(err.value)
    assert err.value.hint == f"resume it with `sphere index build r {src.resolve()}`"
    # marked in the list, with the command, and in the hint of a name that is not there
    listed = _cli("index", "list", env=env)
    out, _ = listed.communicate(timeout=120)
    assert f"r  (incomplete: resume with `sphere index build r {src.resolve()}`)" in out.decode()
    with pytest.raises(IndexNotFoundError, match="no index") as missing:
        Index.open(tmp_path / "idx", "nope")
    assert "available: r (incomplete)" in str(missing.value.hint)
    report = build_index(tmp_path / "idx", "r", [src], embedder, BuildOptions())
    assert report.resumed and report.documents == 600
    assert report.documents_added < 600  # work committed before the kill was kept
    index = Index.open(tmp_path / "idx", "r")
    try:
        rows = index.meta.db.execute(
            "SELECT d.doc_id, p.ordinal FROM passages p JOIN documents d ON d.row=p.doc_row"
        ).fetchall()
        assert len(rows) == len(set(rows)) == index.n_passages
        assert index.meta.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # every vector row is the embedding of its own passage text
        pids = np.array(sorted(index.passages(list(range(index.doc_rows.size)))))
        sample = pids[:: max(1, len(pids) // 20)]
        texts = [index.passages([int(p)])[int(p)].text for p in sample]
        assert np.allclose(index.vectors(sample), embedder.encode(texts), atol=1e-4)
    finally:
        index.close()


def test_cli_errors_are_messages_not_tracebacks(tmp_path: Path) -> None:
    env = {**os.environ, "SPHERE_INDEX_DIR": str(tmp_path / "idx")}
    for args, code, text in [
        (["search", "nope", "query"], 3, "no index named 'nope'"),
        (["index", "build", "x", str(tmp_path / "missing")], 2, "does not exist"),
        (["index", "info", "nope"], 3, "Index not found"),
    ]:
        p = _cli(*args, env=env)
        _out, err = p.communicate(timeout=120)
        assert p.returncode == code, err.decode()
        assert text in err.decode() and "Traceback" not in err.decode()


def test_bad_config_key_is_named(tmp_path: Path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("retrieval:\n  kk: 3\n")
    p = _cli("--config", str(cfg), "config", "show", env=dict(os.environ))
    _out, err = p.communicate(timeout=60)
    assert p.returncode == 2
    assert "unknown key 'retrieval.kk'" in err.decode() and str(cfg) in err.decode()


def test_field_mapping_from_cli_args_is_used(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "c.csv"
    src.write_text("key,headline,body,outlet\na,Alpha,Text about alpha.,Site A\n")
    build_index(
        tmp_path / "idx",
        "c",
        [src],
        embedder,
        BuildOptions(mapping=FieldMapping("key", "body", "headline", "outlet")),
    )
    index = Index.open(tmp_path / "idx", "c")
    try:
        doc = index.document("a")
        assert doc is not None and (doc.title, doc.source) == ("Alpha", "Site A")
    finally:
        index.close()


def test_attributes_are_stored_and_old_indexes_upgrade(built, embedder) -> None:  # type: ignore[no-untyped-def]
    tmp, src, _ = built
    (src / "es.txt").write_text(
        "La energía nuclear produce electricidad sin emitir dióxido de carbono a la atmósfera.",
        encoding="utf-8",
    )
    build_index(tmp / "idx", "t", [src], embedder, BuildOptions(max_words=20))
    index = Index.open(tmp / "idx", "t")
    try:
        doc = index.document(str((src / "es.txt").resolve()))
        assert doc is not None and doc.language == "es" and doc.attrs["structure"] == "prose"
        assert doc.attrs["n_words"] == 13 and doc.attrs["audience"] in {
            "general",
            "informed",
            "expert",
        }
    finally:
        index.close()
    # simulate an index written before attributes existed (schema 1)
    db = sqlite3.connect(tmp / "idx/t/meta.sqlite")
    db.execute("UPDATE documents SET attrs = NULL")
    db.execute("UPDATE info SET value='1' WHERE key='schema_version'")
    db.commit()
    db.close()
    with pytest.raises(IndexMismatchError, match="older Sphere"):
        Index.open(tmp / "idx", "t")
    report = build_index(tmp / "idx", "t", [src], embedder, BuildOptions(max_words=20))
    assert report.documents_added == 0 and any("attributes for 6" in n for n in report.notes)
    index = Index.open(tmp / "idx", "t")
    try:
        assert all(d.attrs for d in index.documents_by_row(list(range(1, 7))).values())
    finally:
        index.close()


def test_lazy_embedder_knows_its_size_without_loading() -> None:
    from assistant.embed import BUNDLED_NAME, LazyEmbedder

    lazy = LazyEmbedder("bundled")
    assert (lazy.name, lazy.dim, lazy.loaded) == (BUNDLED_NAME, 384, False)
