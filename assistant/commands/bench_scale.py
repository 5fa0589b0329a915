"""The ``sphere bench scale`` command over :mod:`assistant.bench.scale`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from assistant.bench.scale import _ScaleProgress, rescore_sweep, run_scale_bench
from assistant.commands.context import Context, pass_ctx


@click.command("scale")
@click.option("--passages", "n", default=1_000_000, show_default=True, type=click.IntRange(1000))
@click.option(
    "--approximate",
    type=click.Choice(["ivf", "hnsw", "ivfpq"]),
    default="ivf",
    show_default=True,
    help="ivfpq: the compressed index, candidates re-scored from the vector file",
)
@click.option("--nprobe", default=32, show_default=True, type=click.IntRange(1))
@click.option("--opq", is_flag=True, help="IVF-PQ behind an OPQ rotation")
@click.option(
    "--rescore",
    default=1024,
    show_default=True,
    type=click.IntRange(1),
    help="IVF-PQ candidates re-scored exactly",
)
@click.option("--flat-threshold", default=200_000, show_default=True, type=click.IntRange(0))
@click.option(
    "--keep",
    type=click.Path(file_okay=False),
    help="keep the index in this folder (at 10M: 17 GB; put it outside the repository)",
)
@click.option(
    "--reuse",
    is_flag=True,
    help="with --keep: measure the index built there before, or resume its killed build",
)
@click.option(
    "--search-queries",
    default=50,
    show_default=True,
    type=click.IntRange(0, 10_000),
    help="time the search methods on the built index with this many queries (0: skip)",
)
@click.option(
    "--exact-queries",
    type=click.IntRange(0, 10_000),
    help="check PAP+ against exact on only this many queries (each is a pass over the vectors)",
)
@click.option(
    "--ray-workers",
    default="",
    help="also time an index build on a local Ray cluster with these worker counts "
    "(e.g. 1,2) against the local build, on --ray-corpus",
)
@click.option(
    "--ray-corpus",
    type=click.Path(exists=True),
    help="files for the Ray build comparison (default: the demo corpus)",
)
@click.option(
    "--ray-passages",
    default=1024,
    show_default=True,
    type=click.IntRange(64),
    help="passages of the repeated demo corpus",
)
@click.option("--ray-rounds", default=2, show_default=True, type=click.IntRange(1, 20))
@click.option(
    "--sweep",
    metavar="NPROBES:RESCORES",
    default=None,
    help="with --reuse on a compressed index: recall@10 and ms a query for each "
    "nprobe × rescore (e.g. 32,64:256,1024,4096), instead of the usual figures",
)
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
@pass_ctx
def scale_bench_command(
    ctx: Context,
    n: int,
    approximate: str,
    nprobe: int,
    opq: bool,
    rescore: int,
    flat_threshold: int,
    keep: str | None,
    reuse: bool,
    search_queries: int,
    exact_queries: int | None,
    ray_workers: str,
    ray_corpus: str | None,
    ray_passages: int,
    ray_rounds: int,
    sweep: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Build an index of N synthetic passages (precomputed vectors); time, memory, recall."""
    try:
        workers = [int(x) for x in ray_workers.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(
            "comma-separated worker counts", param_hint="--ray-workers"
        ) from None
    if any(w < 1 for w in workers):
        raise click.BadParameter("worker counts are at least 1", param_hint="--ray-workers")
    if reuse and not keep:
        raise click.BadParameter("--reuse needs --keep FOLDER", param_hint="--reuse")
    if sweep is not None:
        if not (reuse and keep and (Path(keep) / "manifest.json").exists()):
            raise click.BadParameter(
                "needs --keep FOLDER --reuse of a built index", param_hint="--sweep"
            )
        try:
            left, right = sweep.split(":")
            nprobes = [int(x) for x in left.split(",") if x.strip()]
            rescores = [int(x) for x in right.split(",") if x.strip()]
        except ValueError:
            raise click.BadParameter(
                "NPROBES:RESCORES, e.g. 32,64:256,1024", param_hint="--sweep"
            ) from None
        if not nprobes or not rescores or min(nprobes + rescores) < 1:
            raise click.BadParameter("positive nprobe and rescore values", param_hint="--sweep")
        rows = rescore_sweep(Path(keep), nprobes, rescores, queries=max(search_queries, 1))
        if as_json:
            click.echo(json.dumps({"passages": n, "sweep": rows}, indent=2))
        else:
            for r in rows:
                click.echo("  ".join(f"{k} {v}" for k, v in r.items()))
        return
    # the bar is on stderr, the JSON on stdout: a long --json run still shows its ETA
    with _ScaleProgress(not quiet) as bar:
        result = run_scale_bench(
            n,
            folder=Path(keep) if keep else None,
            approximate=approximate,
            nprobe=nprobe,
            flat_threshold=flat_threshold,
            search_queries=search_queries,
            opq=opq,
            rescore=rescore,
            reuse=reuse,
            exact_queries=exact_queries,
            say=bar.say,
            progress=bar.update,
        )
        if workers:
            from assistant.bench.ray_build import run_ray_build_bench

            bar.say(f"Ray build with {ray_workers} workers against the local build")
            result["ray_build"] = run_ray_build_bench(
                ctx.settings,
                [Path(ray_corpus)] if ray_corpus else None,
                workers,
                rounds=ray_rounds,
                passages=ray_passages,
            )
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    build = (
        f"build {result['build_seconds']:.1f} s (ingest {result['ingest_seconds']:.1f} s + "
        f"FAISS/BM25 {result['index_seconds']:.1f} s), "
        if "build_seconds" in result
        else "reused, "
    )
    click.echo(
        f"{n:,} passages: {build}FAISS {result['faiss']['kind']} {result['faiss']['params']}\n"
        f"peak RSS {result['peak_rss_mb']:.0f} MB (vectors alone {result['vectors_mb']:.0f} MB), "
        f"disk {result['disk_mb']:.0f} MB ({result['disk_bytes_per_passage']:.0f} B a passage)\n"
        f"opened index: {result['open_anon_mb']:.0f} MB of memory "
        f"({result['memory_bytes_per_passage']:.0f} B a passage; FAISS file "
        f"{result['faiss_bytes_per_passage']:.0f} B a passage)\n"
        f"recall@10 vs exact: {result['recall@10_vs_exact']:.3f} "
        f"(FAISS alone {result['recall@10_faiss_alone']:.3f})"
    )
    for name, m in result.get("search", {}).get("methods", {}).items():
        click.echo(
            f"  {name:14s} p50 {m['p50_ms']:8.2f} ms  p95 {m['p95_ms']:8.2f} ms  "
            f"×{m['ratio_p50']:.2f} / ×{m['ratio_p95']:.2f}"
        )
    if "search" in result:
        pct = result["search"]["pap_plus_rescored_identical_pct"]
        checked = result["search"]["pap_plus_exact_checked"]
        click.echo(f"  PAP+ re-scored = exact on {pct}% of {checked} queries")
    for w, r in result.get("ray_build", {}).get("workers", {}).items():
        click.echo(
            f"  Ray build, {w} worker(s): {r['passages_per_s']:.1f} passages/s, "
            f"×{r['ratio_to_local']:.2f} the local build"
        )
