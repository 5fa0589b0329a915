"""Debate motions as they are written: in the imperative, abbreviated, with quoted words.

Each case failed on the code before it (read as a lookup with no claims, or its quoted
words dropped from the claims); the requests beside them must stay what they were.
"""

from __future__ import annotations

import pytest

from assistant.understand import understand
from assistant.understand.phrases import phrase_kind


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # a proposal in the imperative is argued, its verb capitalised or not
        (
            "Abolish statutes of limitations on all felonies",
            (
                "One should abolish statutes of limitations on all felonies.",
                "One should not abolish statutes of limitations on all felonies.",
            ),
        ),
        (
            "Raise the school leaving age to 18 (Junior)",
            (
                "One should raise the school leaving age to 18.",
                "One should not raise the school leaving age to 18.",
            ),
        ),
        # the abbreviated formula opens a motion as "This House" does, spelled out
        (
            "THW ban the minimum wage",
            (
                "This house would ban the minimum wage.",
                "This house would not ban the minimum wage.",
            ),
        ),
        (
            "THBT public services are best run by private companies",
            (
                "Public services are best run by private companies.",
                "Public services are not best run by private companies.",
            ),
        ),
        # quoted words of a motion are part of what it proposes
        (
            "Introduce a “fat tax” (Junior)",
            ("One should introduce a “fat tax”.", "One should not introduce a “fat tax”."),
        ),
        (
            "This House would “make the punishment fit the crime” in prison.",
            (
                "This House would “make the punishment fit the crime” in prison.",
                "This House would not “make the punishment fit the crime” in prison.",
            ),
        ),
    ],
)
def test_a_motion_as_written_is_debated(question: str, claims: tuple[str, str]) -> None:
    plan = understand(question, use_llm="never")
    assert plan.intent == "two_sided"
    assert plan.claims == claims


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("Find a hotel in Paris", "lookup"),  # a lookup opener
        ("Recommend a laptop under 500", "lookup"),  # a lookup opener and a lookup head
        ("Explain the causes of the First World War", "factual"),  # an information request
    ],
)
def test_a_request_in_the_imperative_is_no_motion(question: str, intent: str) -> None:
    plan = understand(question, use_llm="never")
    assert plan.intent == intent
    assert plan.claims == ("", "")  # neither a lookup nor a factual question has claims


def test_a_capitalised_imperative_is_a_verb_phrase() -> None:
    # the small tagger reads "Abolish" as a name; the lower-case reading is a verb phrase
    assert phrase_kind("Abolish statutes of limitations on all felonies") == "verb_phrase"
    # an acronym is not lower-cased, and a noun phrase stays one
    assert phrase_kind("NATO expansion") == "noun_phrase"
    assert phrase_kind("The death penalty") == "noun_phrase"


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        (
            "Should pharmacies sell antibiotics without a prescription?",
            "Pharmacies should sell antibiotics without a prescription.",
        ),
        (
            "This House would detain terror suspects without trial",
            "This House would detain terror suspects without trial.",
        ),
        (
            "should life without parole be abolished as well?",
            "Life without parole should be abolished as well.",
        ),
        (
            "Hello! Should self-driving cars be allowed on public roads without a safety driver?",
            "Self-driving cars should be allowed on public roads without a safety driver.",
        ),
    ],
)
def test_without_inside_a_proposition_is_what_is_asked(question: str, claim: str) -> None:
    # it was a filter: the claim lost it and documents naming it were pushed out
    plan = understand(question, use_llm="never")
    assert plan.claims[0] == claim
    assert not [c for c in plan.constraints if c.dimension == "keyword"]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        # a frame, not a proposition: the filter reading stays
        ("Pros and cons of nuclear power without Fukushima", "Fukushima"),
        # after a comma it qualifies the request, not the clause
        ("Should we ban cars, without the climate stuff?", "climate stuff"),
        # a yes/no question put to Sphere is a request
        (
            "Could you show the opt-out organ donation debate without the religious part?",
            "religious part",
        ),
    ],
)
def test_without_outside_a_proposition_stays_a_filter(question: str, value: str) -> None:
    plan = understand(question, use_llm="never")
    negated = [c.value for c in plan.constraints if c.dimension == "keyword" and c.negated]
    assert negated == [value]


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("Introduce a “fat tax” (Junior)", "fat tax"),
        ('Should "Huckleberry Finn" be banned?', "Huckleberry Finn"),
    ],
)
def test_a_quoted_phrase_in_a_proposition_reweights_and_stays_in_the_query(
    question: str, phrase: str
) -> None:
    # it was a hard filter cut from the root text: "Introduce a (Junior)" found nothing
    plan = understand(question, use_llm="never")
    keywords = [c for c in plan.constraints if c.dimension == "keyword"]
    assert [(c.value, c.hard, c.negated) for c in keywords] == [(phrase, False, False)]
    assert phrase in plan.root_query


def test_a_quoted_phrase_outside_the_proposition_still_filters() -> None:
    plan = understand('Should we ban cars? Only pages "congestion"', use_llm="never")
    assert [(c.value, c.hard) for c in plan.constraints] == [("congestion", True)]
