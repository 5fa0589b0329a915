"""The stance model in the pass: verification moves or drops references, the
balance counts documents that take no side, the export and the session log
carry the stance, and the shipped model judges plain cases."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from assistant.config import Settings
from assistant.export import turn_to_markdown
from assistant.index import Index
from assistant.models import ClaimSummary, QueryPlan, Reference, Summary, SummaryPerspective
from assistant.pipeline import Pipeline, load_stance
from assistant.stance.model import bundled_artifact, shared_model
from assistant.summarize.balance import balance_report
from assistant.summarize.verify import verify_summary
from tests.test_summarize import QUESTION, tiny_index  # noqa: F401  (fixture)

CLAIMS = (
    "Cars should be banned from city centres.",
    "Cars should not be banned from city centres.",
)


@pytest.fixture()
def stance_pipeline(tiny_index: Path, embedder):  # type: ignore[no-untyped-def]  # noqa: F811
    settings = Settings(index_dir=tiny_index, default_index="tiny")  # type: ignore[call-arg]
    settings.llm.use = "never"
    p = Pipeline(settings, Index.open(tiny_index, "tiny"), embedder, stance=load_stance(settings))
    yield p
    p.close()


def _draft() -> Summary:
    return Summary(
        question=QUESTION,
        claims=[
            ClaimSummary(
                CLAIMS[0],
                "pro",
                [
                    SummaryPerspective(
                        "Banning cars from the centre cuts air pollution.",
                        [Reference("pro-air"), Reference("con-access")],
                    )
                ],
            ),
            ClaimSummary(
                CLAIMS[1],
                "con",
                [
                    SummaryPerspective(
                        "A car ban makes the centre hard to reach for disabled and elderly people.",
                        [Reference("con-cost")],
                    )
                ],
            ),
        ],
    )


def test_verifier_moves_a_reference_the_stance_model_puts_under_the_other_claim(
    stance_pipeline: Pipeline,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    plan = QueryPlan(question=QUESTION, root_query=QUESTION, claims=CLAIMS)
    hits = stance_pipeline.retrieve(plan, lambda _p: None)
    docs = stance_pipeline.source_docs(hits, 20)
    assert {"pro-air", "con-access", "con-cost"} <= {d.doc_id for d in docs}
    judged = {
        "pro-air": (0.9, 0.05, 0.05),
        "con-access": (0.05, 0.9, 0.05),  # cited for the claim it opposes
        "con-cost": (0.3, 0.3, 0.4),  # neither
    }
    out, report = verify_summary(_draft(), docs, embedder, stance=judged, stance_min=0.5)
    pro, con = out.claims
    assert [r.doc_id for r in pro.perspectives[0].references] == ["pro-air"]
    assert pro.perspectives[0].references[0].stance == 0.9
    assert [r.doc_id for r in con.perspectives[0].references] == ["con-access"]
    moved = con.perspectives[0].references[0]
    assert moved.verified and moved.stance == 0.9
    assert [m["doc_id"] for m in report.moved] == ["con-access"]
    assert "supports con" in report.moved[0]["reason"]
    reasons = {r["doc_id"]: r["reason"] for r in report.removed}
    assert "neither claim" in reasons["con-cost"]
    # without the stance model nothing moves: the planted reference is judged on support only
    _out, plain = verify_summary(_draft(), docs, embedder)
    assert plain.moved == []


def test_below_one_half_a_reference_is_checked_as_the_summarizer_placed_it(
    stance_pipeline: Pipeline,
    embedder,  # type: ignore[no-untyped-def]
) -> None:
    """At a threshold under 0.5 both claims can reach it: a reference leaning to its
    own claim (0.49 against 0.47) stays where it is; and a passage not sure alone is
    checked by its document's judgment, as the summarizer placed it."""
    plan = QueryPlan(question=QUESTION, root_query=QUESTION, claims=CLAIMS)
    hits = stance_pipeline.retrieve(plan, lambda _p: None)
    docs = stance_pipeline.source_docs(hits, 20)
    by_id = {d.doc_id: d for d in docs}
    judged = {
        "pro-air": (0.49, 0.47, 0.04),  # both over 0.45, its own claim ahead
        "con-access": (0.05, 0.9, 0.05),
        "con-cost": (0.2, 0.7, 0.1),  # sure as a whole ...
    }
    pid = by_id["con-cost"].passages[0].passage_id
    unsure = {pid: (0.35, 0.43, 0.22)}  # ... not alone
    draft = _draft()
    draft.claims[0].perspectives[0].references = [Reference("pro-air")]
    draft.claims[1].perspectives[0].references = [Reference("con-cost", passage_id=pid)]
    out, report = verify_summary(
        draft, docs, embedder, stance=judged, stance_min=0.45, passage_stance=unsure
    )
    pro, con = out.claims
    assert [r.doc_id for r in pro.perspectives[0].references] == ["pro-air"]
    assert report.moved == []
    assert [r.doc_id for r in con.perspectives[0].references] == ["con-cost"]
    assert con.perspectives[0].references[0].stance == 0.7
    # a passage sure alone still decides, whatever its document says
    draft = _draft()
    draft.claims[1].perspectives[0].references = [Reference("con-cost", passage_id=pid)]
    out, report = verify_summary(
        draft, docs, embedder, stance=judged, stance_min=0.45, passage_stance={pid: (0.8, 0.1, 0.1)}
    )
    assert "con-cost" not in [r.doc_id for r in out.claims[1].perspectives[0].references]


def test_balance_counts_documents_that_take_no_side() -> None:
    summary = _draft()
    retrieved = ["pro-air", "con-access", "con-cost", "off-topic"]
    report = balance_report(summary, retrieved, ["off-topic"])
    assert report.no_side_doc_ids == ["off-topic"]
    assert "off-topic" not in report.unused_doc_ids


def test_shipped_model_loads_offline_and_is_small() -> None:
    path = bundled_artifact()
    assert path.is_file() and path.stat().st_size <= 20 * 1024 * 1024
    model = shared_model()
    info = model.info()
    assert info["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert 0.2 < info["temperature"] < 20


def test_shipped_model_probabilities_are_distributions_and_swap_with_the_claims() -> None:
    """Judging against (A, B) and against (B, A) gives the same side, swapped: the
    decision is symmetric in the two claims (DESIGN: a side against both claims)."""
    model = shared_model()
    texts = [
        "Banning cars from the centre is the fastest way to cut air pollution.",
        "Banning cars from downtown makes the centre harder to reach for disabled people.",
        "Feed the starter twice a day and keep it somewhere warm.",
    ]
    ab = model.sides(QUESTION, CLAIMS, texts)
    ba = model.sides(QUESTION, (CLAIMS[1], CLAIMS[0]), texts)
    for x, y in zip(ab, ba, strict=True):
        assert sum(x.p) == pytest.approx(1.0, abs=1e-6)
        assert x.p[0] == pytest.approx(y.p[1], abs=1e-4)
        assert x.p[1] == pytest.approx(y.p[0], abs=1e-4)
        assert x.p[2] == pytest.approx(y.p[2], abs=1e-4)


def test_shipped_model_judges_plain_cases() -> None:
    """Sentences that say their side outright: the shipped model gets the side, and
    the off-topic one is not confidently put under either claim."""
    model = shared_model()
    claims = ("School uniforms should be mandatory.", "School uniforms should not be mandatory.")
    question = "Should school uniforms be mandatory?"
    pro = [
        "Compulsory uniforms reduce bullying over clothes and should be required in every school.",
        "Making uniforms mandatory is the right policy: it puts all pupils on an equal footing.",
    ]
    con = [
        "Mandatory uniforms should be scrapped because they suppress pupils' self-expression.",
        "Forcing families to buy uniforms is wrong; schools should let children dress freely.",
    ]
    off = ["The bakery on the corner sells sourdough loaves on Saturdays."]
    got = model.sides(question, claims, [*pro, *con, *off])
    assert [g.side for g in got[:2]] == [0, 0]
    assert [g.side for g in got[2:4]] == [1, 1]
    assert max(got[4].p[0], got[4].p[1]) < 0.5


def test_answer_cites_documents_under_the_claim_the_model_gives_and_logs_the_model(
    stance_pipeline: Pipeline,
) -> None:
    result = stance_pipeline.run(QUESTION)
    info = result.model["stance"]
    assert info["sha256"] == hashlib.sha256(bundled_artifact().read_bytes()).hexdigest()
    refs = [
        (c.side, r) for c in result.summary.claims for p in c.perspectives for r in p.references
    ]
    assert refs, "the tiny index has documents on both sides"
    need = stance_pipeline.settings.stance.min_confidence
    for _side, r in refs:
        assert r.stance is not None and r.stance >= need
    md = turn_to_markdown(result)
    assert "Stance: supports the" in md
    # the document about sourdough is never cited under a claim
    assert all(r.doc_id != "off-topic" for _s, r in refs)
