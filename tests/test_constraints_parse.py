"""Constraint parsing of natural instructions, negation above all (issue 7, paper 002 §2)."""

from __future__ import annotations

import pytest

from assistant.understand import parse_rules

Q = "Is remote work good for productivity"


def _cons(question: str) -> list[tuple[str, str, bool]]:
    return [(c.dimension, c.value.lower(), c.negated) for c in parse_rules(question).constraints]


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        # must-not keywords: every phrasing yields one negated keyword and no positive twin
        (", without mentioning insurance", ("keyword", "insurance", True)),
        ("? It must not mention insurance.", ("keyword", "insurance", True)),
        ("? Exclude documents that mention insurance.", ("keyword", "insurance", True)),
        ("? Only documents that do not mention insurance.", ("keyword", "insurance", True)),
        ('? Find articles without the word "insurance".', ("keyword", "insurance", True)),
        ("? Not in Spanish.", ("language", "es", True)),
        (", not from news sites", ("source", "news", True)),
        # the positive forms
        (", must mention insurance", ("keyword", "insurance", False)),
        ("? Only documents that mention insurance.", ("keyword", "insurance", False)),
        ('? Find articles containing the word "insurance".', ("keyword", "insurance", False)),
        ("? Only documents in Spanish.", ("language", "es", False)),
        # a negation verb before "anything from", and "nothing" as a negation
        (", but exclude anything from tech blogs", ("source", "tech", True)),
        ("? Leaving out anything from Instagram.", ("source", "instagram", True)),
        ("? Nothing that mentions Paris.", ("keyword", "paris", True)),
        ("? Nothing in English.", ("language", "en", True)),
    ],
)
def test_negation_and_its_absence(tail: str, expected: tuple[str, str, bool]) -> None:
    got = _cons(Q + tail)
    assert expected in got
    flipped = (expected[0], expected[1], not expected[2])
    assert flipped not in got, f"{tail!r} also produced the opposite constraint"


def test_length_forms() -> None:
    assert ("length", "<100", False) in _cons(Q + "? In fewer than 100 words.")
    assert ("length", ">80", False) in _cons(Q + "? Documents with at least 80 words.")
    short = parse_rules(Q + "? Only short articles.").constraints
    assert [(c.dimension, c.value, c.hard) for c in short] == [("length", "short", False)]


def test_audience_with_article_and_only_source_is_hard() -> None:
    aud = parse_rules(Q + ", for a general audience").constraints
    assert [(c.dimension, c.value, c.hard) for c in aud] == [("audience", "general", False)]
    src = parse_rules(Q + ", only from government sources").constraints
    assert [(c.dimension, c.value, c.hard) for c in src] == [("source", "government", True)]
    preferred = parse_rules(Q + ", from government sources").constraints
    assert [(c.dimension, c.hard) for c in preferred] == [("source", False)]


def test_no_instruction_no_constraint() -> None:
    assert parse_rules(Q + "?").constraints == []


@pytest.mark.parametrize(
    "question",
    [
        "Disney Animated Films – Are they good for children?",
        "Is social media harmful for teens?",
    ],
)
def test_good_for_someone_is_content_not_an_audience(question: str) -> None:
    assert parse_rules(question).constraints == []
    assert ("audience", "child", False) in _cons("Explain vaccines for children")


@pytest.mark.parametrize(
    ("question", "root"),
    [
        ("Friends or Seinfeld? Only documents of fewer than 110 words.", "Friends or Seinfeld?"),
        ("Is nuclear power safe? It must not mention Chernobyl.", "Is nuclear power safe?"),
        ('Are uniforms good? Find articles containing the word "cost".', "Are uniforms good?"),
        # an instruction run on after a title with no full stop
        (
            "The Perspective on Studying Abroad Only documents of at least 110 words.",
            "The Perspective on Studying Abroad",
        ),
        ("Cats or dogs It must mention fur", "Cats or dogs"),
    ],
)
def test_root_query_keeps_no_instruction_leftovers(question: str, root: str) -> None:
    plan = parse_rules(question)
    assert plan.constraints, "the instruction was parsed"
    assert plan.root_query == root
    for a in plan.aspects:  # no "Only documents" facet; spans still point at the text
        assert "only" not in a.text.lower().split() and "documents" not in a.text.lower()
        assert a.span is None or question[a.span[0] : a.span[1]] == a.text


def test_without_instructions_the_root_is_untouched() -> None:
    # "Articles" here is content, and there is no constraint to clean up after
    assert (
        parse_rules("Should students read Articles").root_query == "Should students read Articles"
    )


def test_format_and_audience_are_soft_in_the_plan() -> None:
    # retrieval only re-weights by them (constraints.is_hard); the plan must not say "hard"
    cons = parse_rules("Should school uniforms be mandatory? As a list, for a general audience")
    got = {c.dimension: c.hard for c in cons.constraints}
    assert got == {"format": False, "audience": False}


@pytest.mark.parametrize(
    ("tail", "expected"),
    [
        ("? Documents exceeding 2000 words.", ("length", ">2000", False)),
        ("? Nothing longer than 900 words.", ("length", "<900", False)),
        ("? Only pieces shorter than 400 words.", ("length", "<400", False)),
    ],
)
def test_length_comparisons(tail: str, expected: tuple[str, str, bool]) -> None:
    assert expected in _cons(Q + tail)


@pytest.mark.parametrize(
    "tail", ["? Only use sources under 1000 words.", "? Only include sources that mention wages."]
)
def test_a_request_verb_is_not_a_source(tail: str) -> None:
    assert [c for c in _cons(Q + tail) if c[0] == "source"] == []


@pytest.mark.parametrize(
    ("tail", "hard"),
    [
        # a kind of source named by an adjective: "only" filters, "from" re-weights
        ("? Only official sources.", True),
        (", just scholarly literature please", True),
        (", only peer-reviewed journals", True),
        (", from academic sources", False),
    ],
)
def test_only_before_a_kind_of_source_makes_it_a_filter(tail: str, hard: bool) -> None:
    (c,) = [c for c in parse_rules(Q + tail).constraints if c.dimension == "source"]
    assert c.value in ("academic", "government") and c.hard is hard
