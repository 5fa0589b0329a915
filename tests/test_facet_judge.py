"""Follow-ups that the lexicons do not know: the embedder's facet judgment, and the
general rules added with the third development set (tests/data/conversation_dev3.jsonl)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.embed import LazyEmbedder
from assistant.understand import parse_rules
from assistant.understand.facet_judge import FACET_MARGIN, FacetJudge
from assistant.understand.followup import resolve


@pytest.fixture(scope="module")
def judge() -> FacetJudge:
    return FacetJudge(LazyEmbedder())


@pytest.mark.parametrize(
    ("topic", "turn"),
    [
        ("ban glyphosate?", "what about bees?"),
        ("are ebooks better than paper books for students", "what about eye strain"),
        ("Ban fireworks?", "pets?"),
    ],
)
def test_a_facet_no_lexicon_lists_is_read_with_the_embedder(
    judge: FacetJudge, topic: str, turn: str
) -> None:
    plan = parse_rules(topic)
    assert not resolve(turn, plan).follows  # the lexicons alone: a topic of its own
    got = resolve(turn, plan, judge)
    assert (got.follows, got.edit) == (True, "add_aspect")
    m = judge.margin(got.value, topic)
    assert m is not None and m >= FACET_MARGIN


@pytest.mark.parametrize(
    ("topic", "turn"),
    [
        ("Should coffee be off-limits for teenagers?", "what about tea?"),
        ("Should Paris ban short-term holiday rentals?", "and Barcelona?"),
        ("is it ok to feed dogs a raw diet", "what about cats?"),
    ],
)
def test_a_sibling_topic_stays_a_new_topic(judge: FacetJudge, topic: str, turn: str) -> None:
    got = resolve(turn, parse_rules(topic), judge)
    assert (got.follows, got.edit) == (False, "new_topic")


def test_the_judge_is_only_asked_about_a_bare_phrase(judge: FacetJudge) -> None:
    """A request that points back names no facet ("Could you add that?")."""
    plan = parse_rules("Should organ donation be opt-out?")
    assert not resolve("Could you add that?", plan, judge).follows
    long = (
        "Thank you so much for this. My grandmother is on a transplant waiting list, so I'm "
        "especially interested in how it would affect waiting times. Could you add that?"
    )
    got = resolve(long, plan, judge)
    assert (got.edit, got.value) == ("add_aspect", "waiting times")
    own = (
        "That's really useful, thank you. A friend and I were arguing about whether people "
        "should be allowed to sell a kidney. Could you look into that one as well?"
    )
    assert resolve(own, plan, judge).edit == "new_topic"


@pytest.mark.parametrize(
    ("topic", "turn", "edit", "value"),
    [
        (
            "Should college athletes be paid?",
            "How would paying them affect women's sports?",
            "add_aspect",
            "women's sports",
        ),
        (
            "Should drug prices be capped?",
            "What would this mean for rare disease research?",
            "add_aspect",
            "rare disease research",
        ),
        ("Should the UK build a new airport?", "what would it cost", "add_aspect", "cost"),
        (
            "Is euthanasia ethical?",
            "Could you please focus only on the arguments that it's wrong?",
            "one_side",
            "con",
        ),
        ("Are zoos ethical?", "just the arguments that they are", "one_side", "pro"),
        (
            "Should farming be subsidised?",
            "cosa ne pensano gli agricoltori?",
            "add_perspective",
            "agricoltori",
        ),
        (
            "Should Lisbon limit tourism?",
            "o que dizem os moradores de Lisboa?",
            "add_perspective",
            "moradores de Lisboa",
        ),
        ("Should Europe ban glyphosate?", "só os argumentos contra", "one_side", "con"),
        (
            "Ist Wirtschaftswachstum wichtiger als Klimaschutz?",
            "lass die Wirtschaft weg",
            "drop_aspect",
            "Wirtschaft",
        ),
        ("Should VAR be scrapped?", "without the offside stuff", "drop_aspect", "offside"),
        ("Should cities ban cars?", "nah forget teh cost", "drop_aspect", "cost"),
    ],
)
def test_rules_from_the_third_development_set(topic: str, turn: str, edit: str, value: str) -> None:
    got = resolve(turn, parse_rules(topic))
    assert (got.follows, got.edit, got.value) == (True, edit, value)


@pytest.mark.parametrize(
    ("turn", "dimension", "value", "negated"),
    [
        ("non-english sources", "language", "en", True),
        ("nur kurze Texte bitte", "length", "short", False),
        ("solo fonti in italiano", "language", "it", False),
    ],
)
def test_constraints_from_the_third_development_set(
    turn: str, dimension: str, value: str, negated: bool
) -> None:
    got = resolve(turn, parse_rules("Should cities ban cars?"))
    assert got.edit == "add_constraint"
    assert got.value == {"dimension": dimension, "value": value, "negated": negated}


def test_the_session_thread_resolves_with_the_judge() -> None:
    """``sphere ask --session`` and the app go through ``thread.continue_plan``: the
    embedder's judgment is on there by default."""
    from assistant.thread import continue_plan

    follow, plan = continue_plan("what about bees?", parse_rules("ban glyphosate?"), 7)
    assert (follow.edit, follow.value) == ("add_aspect", "bees")
    assert plan is not None and plan.follows == 7


def test_a_length_word_and_a_number_give_one_constraint() -> None:
    got = resolve("only long ones, 2000+ words", parse_rules("Should cities ban cars?"))
    assert got.value == {"dimension": "length", "value": ">2000", "negated": False}


def test_a_side_named_by_its_claim_follows_the_configured_stance_model(tmp_path: Path) -> None:
    # the bundled model reads the claim; "off" (or a file that is no model) reads nothing,
    # so the side is not taken from a model the user turned off
    j = FacetJudge(LazyEmbedder())
    claims = ("Tipping should be abolished.", "Tipping should not be abolished.")
    q = "Should tipping be abolished?"
    p = j.claim_side(q, claims, "tipping should be abolished")
    assert p is not None and p[0] > p[1]
    j.stance_choice = "off"
    assert j.claim_side(q, claims, "tipping should be abolished") is None
    j.stance_choice = str(tmp_path / "missing.npz")
    assert j.claim_side(q, claims, "tipping should be abolished") is None
