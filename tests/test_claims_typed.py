"""Claims of questions as people type them: spoken fillers, context before the question,
hyphenated words, no verb. Each case fell back to the labelled form on the code before
("For — um so should public schools have armed guards")."""

from __future__ import annotations

import pytest

from assistant.understand import understand
from assistant.understand.claims import make_claims


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # spoken fillers before the question
        (
            "um so should public schools have armed guards",
            (
                "Public schools should have armed guards.",
                "Public schools should not have armed guards.",
            ),
        ),
        (
            "hey so is it okay to use AI to write school essays",
            (
                "It is okay to use AI to write school essays.",
                "It is not okay to use AI to write school essays.",
            ),
        ),
        # context before a dash or a colon, however long
        (
            "Been arguing with my roommate all night lol — should hate speech be a crime?",
            ("Hate speech should be a crime.", "Hate speech should not be a crime."),
        ),
        (
            "I run a small restaurant, so I'm looking at this from the kitchen side: should "
            "restaurants be required to show calorie counts on their menus?",
            (
                "Restaurants should be required to show calorie counts on their menus.",
                "Restaurants should not be required to show calorie counts on their menus.",
            ),
        ),
        # a hyphenated word the tokenizer splits
        (
            "Should e-cigarettes be banned?",
            ("E-cigarettes should be banned.", "E-cigarettes should not be banned."),
        ),
        # no verb
        (
            "Password managers safe?",
            ("Password managers are safe.", "Password managers are not safe."),
        ),
    ],
)
def test_a_question_as_typed_gets_declarative_claims(
    question: str, claims: tuple[str, str]
) -> None:
    assert understand(question, use_llm="never").claims == claims


def test_a_filler_word_that_opens_a_topic_stays() -> None:
    # "right" is a filler before a question ("right, should we …"), not before a topic
    claims = make_claims("Right to repair laws", "two_sided")
    assert "Right to repair" in claims[0]
    assert "To repair laws" not in claims[0]


def test_a_label_before_a_question_still_reads() -> None:
    plan = understand("Debate: is space exploration worth the money?", use_llm="never")
    assert plan.claims == (
        "Space exploration is worth the money.",
        "Space exploration is not worth the money.",
    )


def test_a_reading_that_alters_a_hyphenated_word_is_refused() -> None:
    # read with "long-term" whole, the parser pluralised it ("… yield long-terms benefits.")
    claims = understand(
        "Does universal pre-kindergarten yield long-term benefits?", use_llm="never"
    ).claims
    assert all("long-terms" not in c for c in claims)
