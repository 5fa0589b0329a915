"""The parser on questions as people type them: stance cues and their scope, lookups,
information requests, and the constraint phrasings (examples written for this file,
in neither tests/data set)."""

from __future__ import annotations

import pytest

from assistant.understand import parse_rules
from assistant.understand.cues import verb_forms
from assistant.understand.intent import find_side, is_wh
from assistant.understand.values import language_code


@pytest.mark.parametrize(
    ("question", "side", "topic"),
    [
        ("What do fans of daylight saving time say?", "pro", "daylight saving time"),
        ("why do farmers oppose the new water rules", "con", "new water rules"),
        ("How do teachers defend standardized testing?", "pro", "standardized testing"),
        ("Why is hustle culture toxic?", "con", "hustle culture"),
        ("whats so great about vinyl records", "pro", "vinyl records"),
        ("reasons not to move to the suburbs", "con", "move to the suburbs"),
        ("Make the case that museums should be free.", "pro", "museums should be free"),
        ("Why shouldn't cities build more highways?", "con", "cities build more highways"),
        ("the downsides of open-plan offices", "con", "open-plan offices"),
        ("Nachteile von Homeschooling", "con", "Homeschooling"),
        ("ventajas de la energía eólica", "pro", "energía eólica"),
        ("I want the sceptical take on smart meters", "con", "smart meters"),
        ("How does urban gardening benefit neighbourhoods?", "pro", "urban gardening"),
    ],
)
def test_one_sided_requests_and_their_topic(question: str, side: str, topic: str) -> None:
    plan = parse_rules(question)
    assert (plan.intent, plan.target_side) == ("one_sided", side)
    cue = find_side(question)
    assert cue is not None and topic in question[cue.topic[0] : cue.topic[1]]
    assert topic.lower() in plan.root_query.lower()  # the claims are made from the topic
    assert plan.claims[0] and plan.claims[1]


@pytest.mark.parametrize(
    "question",
    [
        "Should daylight saving time be abolished?",
        "the benefits and risks of intermittent fasting",
        "Does social media harm teenagers?",
        "Are electric scooters good or bad for cities?",
        "shuold we tax sugary drinks",  # a typo in the auxiliary
    ],
)
def test_two_sided_questions_stay_two_sided(question: str) -> None:
    plan = parse_rules(question)
    assert plan.intent == "two_sided" and plan.target_side is None


@pytest.mark.parametrize(
    "question",
    [
        "When did Norway ban petrol cars?",
        "wat is the boiling point of ethanol",
        "Explain how a heat pump works",
        "history of the printing press",
        "Who were the main critics of the Treaty of Versailles?",  # a fact about critics
    ],
)
def test_factual_questions(question: str) -> None:
    assert parse_rules(question).intent == "factual"


def test_lookup_with_properties() -> None:
    plan = parse_rules("a cheap tent for two people with a porch, under 3kg")
    assert plan.intent == "lookup" and plan.claims == ("", "")
    texts = [a.text for a in plan.aspects]
    assert "cheap" in texts and any("porch" in t for t in texts) and any("3kg" in t for t in texts)
    assert not any(t == "tent" for t in texts)  # the item itself is no aspect
    plan = parse_rules("family restaurant in Porto with a terrace that serves fish")
    texts = [a.text for a in plan.aspects]
    assert plan.intent == "lookup" and not any("Porto" in t for t in texts)  # a place is no aspect


def test_without_is_an_aspect_of_a_lookup_but_a_filter_of_documents() -> None:
    plan = parse_rules("banana bread recipe without nuts")
    assert plan.intent == "lookup" and not plan.constraints
    assert any(a.text == "without nuts" for a in plan.aspects)
    plan = parse_rules("Should we ban plastic bags? skip pages that mention Walmart")
    assert ("keyword", "Walmart", True) in {
        (c.dimension, c.value, c.negated) for c in plan.constraints
    }


@pytest.mark.parametrize(
    ("question", "constraint"),
    [
        ("Is fracking safe? explain it to a teenager", ("audience", "teen", False)),
        ("how do tides work, explain like I'm 8", ("audience", "child", False)),
        ("the case for nuclear energy, pitched at policymakers", ("audience", "policy", False)),
        ("Is remote work here to stay? no Reddit", ("source", "reddit", True)),
        ("Should we drop the penny? BBC articles only", ("source", "bbc", False)),
        ("risks of vaping, nothing longer than 600 words", ("length", "<600", False)),
        ("Is coffee healthy? something short to read", ("length", "short", False)),
        ("Busco artículos en francés sobre el cambio climático", ("language", "fr", False)),
        ("Should schools ban phones? I'd prefer interviews", ("format", "interview", False)),
    ],
)
def test_constraint_phrasings(question: str, constraint: tuple[str, str, bool]) -> None:
    assert constraint in {
        (c.dimension, c.value, c.negated) for c in parse_rules(question).constraints
    }


def test_topic_words_are_not_constraints() -> None:
    for q in ("python tools for PDF table extraction", "hotel in Paris with a pool"):
        assert parse_rules(q).constraints == []


def test_language_names_come_from_cldr() -> None:
    assert language_code("Spanish") == "es" and language_code("español") == "es"
    assert language_code("allemand") == "de" and language_code("Nederlands") == "nl"
    assert language_code("Paris") is None and language_code("the") is None


def test_helpers() -> None:
    assert {"praising", "praised", "praises"} <= set(verb_forms(["praise"]))
    assert {"criticizes", "criticizing"} <= set(verb_forms(["criticize"]))
    assert is_wh("wht year did it end") and is_wh("Warum ist das so?") and not is_wh("whale songs")


@pytest.mark.parametrize(
    ("question", "root", "side"),
    [
        ("What are the arguments against school uniforms?", "school uniforms", "con"),
        ("What are the downsides of nuclear power?", "nuclear power", "con"),
        ("What are the benefits of remote work?", "remote work", "pro"),
        ("Give me the case against a four-day week", "a four-day week", "con"),
    ],
)
def test_a_one_sided_question_claims_its_cue_topic(question: str, root: str, side: str) -> None:
    """The PIR shapes cut the cue out of the question and left "What are the school
    uniforms?" as the root (claims "We support the claim that what are the …"): the topic
    the cue scopes over is the root, without the sentence's question mark, and its claims
    are the noun phrase's two forms (words/claims.yaml)."""
    plan = parse_rules(question)
    assert (plan.intent, plan.target_side, plan.root_query) == ("one_sided", side, root)
    topic = root[0].upper() + root[1:]
    verb = "are" if root.endswith("uniforms") else "is"
    assert plan.claims == (
        f"{topic} {verb} beneficial overall.",
        f"{topic} {verb} harmful overall.",
    )


@pytest.mark.parametrize(
    "title",
    [
        "Pineapple on Pizza: Delicious or Disgusting?",
        "Vinyl or Streaming – which sounds better?",
        "Remote Work: A Blessing or a Curse?",
        "The Perspective on Daylight Saving Time",
    ],
)
def test_a_headline_debate_is_two_sided_not_a_lookup(title: str) -> None:
    """A headline naming two options around a colon or a dash (PerSphere's titles), or
    "the perspective on X", is a debate: the natural-question parser read 43 of
    PerSphere's 139 titles as lookups, with no claims."""
    plan = parse_rules(title)
    assert plan.intent == "two_sided" and all(plan.claims)


@pytest.mark.parametrize(
    ("title", "second"),
    [
        ("ADHD Diagnosis: Too Much or Just Right?", "Just Right"),
        ("Homework: too much or just enough?", "just enough"),
    ],
)
def test_a_verdict_after_just_is_an_option_not_a_source(title: str, second: str) -> None:
    """ "… or Just Right?" was read as "only from Right" (a hard source constraint), which
    also cut the second option out of the claims."""
    plan = parse_rules(title)
    assert not [c for c in plan.constraints if c.kind == "source"]
    # (a title in Title Case is put in sentence case before its claims are made)
    assert plan.intent == "two_sided" and second.lower() in plan.claims[1].lower()
