"""One typing slip in a word the follow-up rules key on (assistant.understand.spelling)."""

import pytest

from assistant.understand import spelling
from assistant.understand.followup.normalise import _repair


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("exlude", "exclude"),  # a letter left out
        ("agianst", "against"),  # two letters swapped
        ("spnaish", "spanish"),
        ("artciles", "articles"),
        ("fuor", "four"),  # a swap outranks the Italian "fuori", a letter away
        ("ebglish", "english"),  # b is next to n on the keyboard
    ],
)
def test_one_slip_in_a_key_word_is_repaired(typed: str, meant: str) -> None:
    assert spelling.near_key(typed) == meant


@pytest.mark.parametrize(
    "word",
    [
        "milks",  # an inflection of an English word
        "ricotta",  # a wrong letter that is not a keyboard neighbour ("ricetta")
        "thre",  # "there" or "three": ambiguous
        "teachres",  # a value word's spelling is the user's
        "costt",  # one slip from the value word "cost"
        "sources",  # a key word itself
        "opinions",
    ],
)
def test_words_left_alone(word: str) -> None:
    assert spelling.near_key(word) is None


def test_key_words_come_from_the_vocabulary_files_not_the_source() -> None:
    keys = spelling.key_words()
    assert {"exclude", "against", "spanish", "articles"} <= keys
    assert "cost" in spelling.value_words()
    # words of error messages are no key words ("the question is binary data", "binary or
    # control characters"): editing a message must not change which typos are fixed
    assert not {"binary", "control"} & keys


def test_repair_in_a_turn() -> None:
    assert _repair("exlude the bolgs pls") == "exclude the blogs please"
    assert _repair("plant-based milks") == "plant-based milks"
