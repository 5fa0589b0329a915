"""Hypothesis strategies and a hand-built fixture for TurnResult (store and export tests)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from assistant.models import (
    Aspect,
    AspectMatch,
    BalanceReport,
    ClaimSummary,
    Constraint,
    DocumentHit,
    Lookup,
    LookupRow,
    PassageHit,
    QueryPerspective,
    QueryPlan,
    Reference,
    SideBalance,
    Summary,
    SummaryPerspective,
    TurnResult,
)

texts = st.text(max_size=40)
# finite floats: NaN != NaN would make equality meaningless, and JSON has no NaN
floats = st.floats(allow_nan=False, allow_infinity=False, width=64)
sides = st.sampled_from(["pro", "con"])
pages = st.none() | st.integers(min_value=1, max_value=5000)
spans = st.none() | st.tuples(st.integers(0, 500), st.integers(0, 500))
json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | floats | texts
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)

passage_hits = st.builds(
    PassageHit,
    passage_id=st.integers(-1, 10**6),
    doc_id=texts,
    score=floats,
    text=texts,
    start=st.integers(0, 10**5),
    end=st.integers(0, 10**5),
    page=pages,
)
document_hits = st.builds(
    DocumentHit,
    doc_id=texts,
    score=floats,
    rank=st.integers(0, 1000),
    title=texts,
    source=texts,
    path=texts,
    side=st.none() | sides,
    passages=st.lists(passage_hits, max_size=2),
    scores=st.dictionaries(texts, floats, max_size=3),
)
references = st.builds(
    Reference,
    doc_id=texts,
    title=texts,
    source=texts,
    path=texts,
    page=pages,
    passage_id=st.integers(-1, 10**6),
    quote=texts,
    quote_start=st.integers(-1, 1000),
    quote_end=st.integers(-1, 1000),
    retrieval_score=floats,
    support=floats,
    verified=st.booleans(),
    check=st.sampled_from(["", "quote", "similarity", "model", "terms"]),
)
summary_perspectives = st.builds(
    SummaryPerspective, text=texts, references=st.lists(references, max_size=3)
)
claim_summaries = st.builds(
    ClaimSummary,
    claim=texts,
    side=sides,
    perspectives=st.lists(summary_perspectives, max_size=3),
    note=texts,
)
side_balances = st.builds(
    SideBalance,
    side=sides,
    documents_cited=st.integers(0, 100),
    distinct_sources=st.integers(0, 100),
    mean_retrieval_score=floats,
    perspectives=st.integers(0, 20),
)
balances = st.builds(
    BalanceReport,
    sides=st.lists(side_balances, max_size=2),
    lopsidedness=floats,
    unused_doc_ids=st.lists(texts, max_size=3),
)
summaries = st.builds(
    Summary,
    question=texts,
    claims=st.lists(claim_summaries, max_size=2),
    balance=balances,
    method=st.sampled_from(["deterministic", "model"]),
    notes=st.lists(texts, max_size=2),
)
query_plans = st.builds(
    QueryPlan,
    question=texts,
    root_query=texts,
    perspectives=st.lists(
        st.builds(
            QueryPerspective,
            text=texts,
            role=st.sampled_from(["stance", "ideology", "subtopic", "other"]),
            side=st.none() | sides,
            span=spans,
        ),
        max_size=2,
    ),
    aspects=st.lists(st.builds(Aspect, text=texts, span=spans), max_size=2),
    claims=st.tuples(texts, texts),
    constraints=st.lists(
        st.builds(
            Constraint,
            dimension=st.sampled_from(["keyword", "language", "source", "length"]),
            value=texts,
            negated=st.booleans(),
            hard=st.booleans(),
            text=texts,
        ),
        max_size=2,
    ),
    intent=st.sampled_from(["two_sided", "one_sided", "factual", "lookup"]),
    target_side=st.none() | sides,
    source=st.sampled_from(["rules", "llm", "rules+llm", "user"]),
)
aspect_matches = st.builds(
    AspectMatch, aspect=texts, met=st.booleans(), reference=st.none() | references, score=floats
)
lookups = st.builds(
    Lookup,
    question=texts,
    aspects=st.lists(texts, max_size=3),
    rows=st.lists(
        st.builds(
            LookupRow,
            rank=st.integers(1, 100),
            doc_id=texts,
            title=texts,
            source=texts,
            path=texts,
            score=floats,
            aspects=st.lists(aspect_matches, max_size=3),
            copies=st.lists(texts, max_size=2),
        ),
        max_size=3,
    ),
    aggregator=st.sampled_from(["", "amean", "gmean", "borda"]),
)
turn_results = st.builds(
    TurnResult,
    question=texts,
    plan=query_plans,
    hits=st.dictionaries(sides, st.lists(document_hits, max_size=2), max_size=2),
    summary=summaries,
    index=texts,
    timings=st.dictionaries(texts, floats, max_size=3),
    model=st.dictionaries(texts, json_values, max_size=3),
    retrieval=st.dictionaries(texts, json_values, max_size=3),
    lookup=st.none() | lookups,
)


def example_turn(
    question: str = "Should school uniforms be mandatory?", **overrides: Any
) -> TurnResult:
    """A realistic turn on the demo corpus, with awkward characters in document text."""
    ref_for = Reference(
        doc_id="uniforms-02",
        title="A uniform costs less than a school-year wardrobe",
        source="Household Budget Monthly (magazine)",
        path="assistant/demo/corpus.jsonl",
        passage_id=11,
        quote="a mandatory uniform is cheaper for most households",
        retrieval_score=0.71,
        support=0.93,
        verified=True,
        check="quote",
        stance=0.91,
    )
    ref_for2 = Reference(
        doc_id="uniforms-01",
        title="Uniforms take the brand race out of the classroom",
        source="City Parents' Forum (blog)",
        path="assistant/demo/corpus.jsonl",
        passage_id=10,
        quote="fewer comparisons, less pressure to spend",
        retrieval_score=0.66,
        support=0.88,
        verified=True,
        check="quote",
        stance=0.84,
    )
    ref_against = Reference(
        doc_id="uniforms-09",
        title="Branded blazers are a *hidden* tax [on families]",
        source="Fair Costs Campaign <advocacy group>",
        path="reports/fair_costs.pdf",
        page=3,
        passage_id=42,
        quote="# Prices rise\n- two to three times more [^1] on `compulsory` items | see table",
        retrieval_score=0.64,
        support=0.41,
        verified=False,
        check="similarity",
        stance=0.67,
    )
    summary = Summary(
        question=question,
        claims=[
            ClaimSummary(
                claim="School uniforms should be mandatory.",
                side="pro",
                perspectives=[
                    SummaryPerspective(
                        "Uniforms are cheaper than a casual wardrobe for most families.",
                        [ref_for],
                    ),
                    SummaryPerspective(
                        "Uniforms make income differences less visible.", [ref_for2, ref_for]
                    ),
                ],
            ),
            ClaimSummary(
                claim="School uniforms should not be mandatory.",
                side="con",
                perspectives=[
                    SummaryPerspective(
                        "Branded items from one supplier make uniforms a cost, not a saving.",
                        [ref_against],
                    )
                ],
                note="Only one document found for this side.",
            ),
        ],
        balance=BalanceReport(
            sides=[
                SideBalance("pro", 2, 2, 0.685, 2),
                SideBalance("con", 1, 1, 0.64, 1),
            ],
            lopsidedness=0.33,
            unused_doc_ids=["uniforms-15"],
            # the stance model: uniforms-14 (an explainer) takes no side, uniforms-07
            # leans to the For claim without the confidence it needs
            no_side_doc_ids=["uniforms-14"],
            unclear_doc_ids=["uniforms-07"],
            stance_p={
                "uniforms-02": [0.89, 0.06, 0.05],
                "uniforms-01": [0.8, 0.12, 0.08],
                "uniforms-09": [0.22, 0.67, 0.11],
                "uniforms-07": [0.41, 0.33, 0.26],
                "uniforms-14": [0.1, 0.12, 0.78],
            },
        ),
        method="deterministic",
        notes=["The index has few documents against this claim."],
    )
    hits = {
        "pro": [
            DocumentHit(
                "uniforms-02",
                0.71,
                1,
                ref_for.title,
                ref_for.source,
                scores={"dense": 0.71, "bm25": 7.2, "fused": 0.032},
            ),
            DocumentHit(
                "uniforms-01",
                0.66,
                2,
                ref_for2.title,
                ref_for2.source,
                scores={"dense": 0.66, "fused": 0.031},
            ),
            DocumentHit(
                "uniforms-15",
                0.52,
                3,
                "A short history of school uniforms",
                "Open Learning Library (explainer)",
                scores={"dense": 0.52},
            ),
            DocumentHit(
                "uniforms-07",
                0.5,
                4,
                "What a head teacher learned from ten years of uniforms",
                "Teachers' Gazette",
                scores={"dense": 0.5},
                passages=[
                    PassageHit(
                        70,
                        "uniforms-07",
                        0.5,
                        "When our school brought in a uniform, mornings got calmer. Some "
                        "families still found the blazer hard to afford.",
                        0,
                        117,
                    )
                ],
            ),
        ],
        "con": [
            DocumentHit(
                "uniforms-09",
                0.64,
                1,
                ref_against.title,
                ref_against.source,
                scores={"dense": 0.64, "pap_plus": 0.58},
                passages=[
                    PassageHit(
                        42,
                        "uniforms-09",
                        0.64,
                        "# Prices rise\n- two to three times more [^1] on `compulsory` items | "
                        "see table. Families pay for the brand, not the cloth.",
                        120,
                        234,
                        3,
                    )
                ],
            ),
            DocumentHit(
                "uniforms-14",
                0.5,
                2,
                "Questions and answers: what does the research say about school uniforms?",
                "Open Learning Library (explainer)",
                scores={"dense": 0.5},
            ),
        ],
    }
    plan = QueryPlan(
        question=question,
        root_query="school uniforms mandatory",
        perspectives=[QueryPerspective("should be mandatory", "stance", "pro", (22, 35))],
        aspects=[Aspect("school uniforms", (7, 22))],
        claims=("School uniforms should be mandatory.", "School uniforms should not be mandatory."),
        constraints=[Constraint("source", "news", negated=True, hard=True, text="not from news")],
    )
    result = TurnResult(
        question=question,
        plan=plan,
        hits=hits,
        summary=summary,
        index="demo",
        timings={"understanding": 0.012, "retrieving": 0.084, "summarizing": 1.5},
        model={
            "backend": "llama-cpp",
            "path": "SmolLM2-135M-Instruct.Q4_1.gguf",
            "sha256": "0f3c",
            "embedder": "all-MiniLM-L6-v2",
            "stance": {"sha256": "5e1a"},
        },
        retrieval={"mode": "sphere", "k": 10, "pap_alpha": 1.0, "aspect_aggregator": "amean"},
    )
    for key, value in overrides.items():
        setattr(result, key, value)
    return result
