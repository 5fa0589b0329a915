"""``sphere search`` from the command line, including ``--mode sphere`` (two lists)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from assistant.cli import cli
from assistant.demo import demo_corpus_path
from assistant.index import BuildOptions, build_index


@pytest.fixture(scope="module")
def demo_dir(demo_index_dir: Path) -> Path:
    return demo_index_dir


def _run(demo_dir: Path, *args: str) -> tuple[int, str]:
    env = {"SPHERE_INDEX_DIR": str(demo_dir)}
    r = CliRunner().invoke(cli, ["search", "demo", *args], env=env, catch_exceptions=False)
    return r.exit_code, r.output


def test_sphere_mode_gives_two_disjoint_lists_with_the_plan(demo_dir: Path) -> None:
    code, out = _run(demo_dir, "Should school uniforms be mandatory?", "--mode", "sphere", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["mode"] == "sphere"
    assert data["plan"]["claims"][0] and data["plan"]["claims"][1]
    pro = [h["doc_id"] for h in data["sides"]["pro"]]
    con = [h["doc_id"] for h in data["sides"]["con"]]
    assert pro and con and not set(pro) & set(con)
    # the demo corpus's uniforms documents are what both sides draw on
    assert sum(d.startswith("uniforms-") for d in pro + con) >= 0.8 * len(pro + con)


def test_sphere_mode_applies_a_length_instruction(demo_dir: Path) -> None:
    words = {
        r["id"]: len(r["text"].split())
        for r in map(json.loads, demo_corpus_path().read_text(encoding="utf-8").splitlines())
    }
    q = "Should school uniforms be mandatory? Only documents of fewer than 92 words."
    code, out = _run(demo_dir, q, "--mode", "sphere", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert [c["dimension"] for c in data["plan"]["constraints"]] == ["length"]
    assert data["plan"]["root_query"] == "Should school uniforms be mandatory?"
    hits = [h["doc_id"] for h in data["sides"]["pro"] + data["sides"]["con"]]
    assert hits and all(words[d] <= 92 for d in hits)
    # only on-topic documents: a short filter does not pad the sides with other topics
    assert all(d.startswith("uniforms-") for d in hits)
    # without the instruction, longer documents are among the results
    code, out = _run(demo_dir, "Should school uniforms be mandatory?", "--mode", "sphere", "--json")
    plain = json.loads(out)
    assert any(words[h["doc_id"]] > 92 for s in plain["sides"].values() for h in s)


def test_a_filter_nothing_on_topic_meets_leaves_sides_empty_and_says_so(demo_dir: Path) -> None:
    # no English uniforms document is under 85 words: no padding with social media or
    # four-day-week documents, and a note per side instead
    q = "Should school uniforms be mandatory? Only documents of fewer than 85 words."
    code, out = _run(demo_dir, q, "--mode", "sphere", "--json")
    assert code == 0, out
    data = json.loads(out)
    hits = [h["doc_id"] for s in data["sides"].values() for h in s]
    assert all(d.startswith("uniforms-") for d in hits)
    assert len(hits) <= 1 and data["notes"]


def test_sphere_mode_text_output_names_both_claims(demo_dir: Path) -> None:
    code, out = _run(demo_dir, "Is nuclear power safe?", "--mode", "sphere", "--k", "3")
    assert code == 0, out
    assert "FOR:" in out and "AGAINST:" in out
    assert out.count("id nuclear-") >= 4


def test_a_file_indexed_twice_is_listed_once_with_its_copy(
    tmp_path: Path,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    text = "Nuclear power plants emit almost no carbon dioxide while they run."
    (docs / "nuclear.txt").write_text(text, encoding="utf-8")
    (docs / "nuclear (copy).txt").write_text(text, encoding="utf-8")
    (docs / "waste.txt").write_text(
        "Nuclear waste stays dangerous for millennia.", encoding="utf-8"
    )
    build_index(tmp_path / "indexes", "mine", [docs], embedder, BuildOptions())
    env = {"SPHERE_INDEX_DIR": str(tmp_path / "indexes")}
    args = ["search", "mine", "Is nuclear power clean?", "--mode", "sphere", "--k", "3"]
    r = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    entries = [line for line in r.output.splitlines() if re.match(r"\s+\d+\. \[", line)]
    assert len(entries) == 2  # the copy and waste.txt; the other copy is not a second entry
    also = [line for line in r.output.splitlines() if "same passage also in: " in line]
    assert len(also) == 1 and also[0].endswith(".txt")
    data = json.loads(
        CliRunner().invoke(cli, [*args, "--json"], env=env, catch_exceptions=False).output
    )
    hits = [h for side in data["sides"].values() for h in side]
    assert len(hits) == 2 and sum(len(h["copies"]) for h in hits) == 1
