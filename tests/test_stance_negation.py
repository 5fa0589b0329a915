"""Negation augmentation of the stance training data (``TrainConfig.negation_rate``)."""

from __future__ import annotations

import random

import pytest

from assistant.stance.corpus import make_items
from assistant.stance.data import LABEL_ID, Row, negate


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Uniforms should be mandatory.", "Uniforms should not be mandatory."),
        ("Uniforms should not be mandatory.", "Uniforms should be mandatory."),
        ("A uniform is cheaper for most homes.", "A uniform is not cheaper for most homes."),
        ("It isn't fair to poor families", "It is fair to poor families"),
        ("We cannot ban guns", "We can ban guns"),
        ("This won't work", "This will work"),
    ],
)
def test_negate_flips_the_one_clause(text: str, expected: str) -> None:
    assert negate(text) == expected
    back = negate(expected)  # negating again gives the original back (contractions expanded)
    assert back is not None and negate(back) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Uniforms reduce bullying.",  # no copula or modal: needs do-support, left alone
        "It is cheap and it is fair.",  # two clauses
        "Is it fair?",  # a question
        "No one should pay.",  # a negation that is not on the auxiliary
        "the death penalty is not a deterrent and never was",  # two negations
        "It is fair. It is cheap.",  # two sentences
        " ".join(["word"] * 30) + " is long",
    ],
)
def test_negate_refuses_what_it_cannot_place(text: str) -> None:
    assert negate(text) is None


def _rows() -> list[Row]:
    pro, con, none = LABEL_ID["pro"], LABEL_ID["con"], LABEL_ID["none"]
    rows = []
    for i in range(40):
        topic = f"topic {i % 4}"
        rows.append(Row(topic, f"Uniforms should be mandatory {i}", pro, "s", "train", "g"))
        rows.append(Row(topic, f"Uniforms reduce bullying {i}", con, "s", "train", "g"))
        rows.append(Row(topic, f"It is raining {i}", none, "s", "train", "g"))
    return rows


def test_make_items_negates_and_flips_a_share() -> None:
    rows = _rows()
    plain = make_items(rows, random.Random(3))
    negated = make_items(rows, random.Random(3), negation_rate=0.5)
    changed = [(p, n) for p, n in zip(plain, negated, strict=True) if p.text != n.text]
    assert 10 <= len(changed) <= 30  # about half of the 40 negatable rows
    for p, n in changed:
        assert n.text == negate(p.text)
        assert {p.label, n.label} == {LABEL_ID["pro"], LABEL_ID["con"]}
        assert (p.a, p.b) == (n.a, n.b)
    # "neither" rows and rows without a place for the negation are never touched
    pairs = list(zip(plain, negated, strict=True))
    assert all(n.text == p.text for p, n in pairs if "raining" in p.text or "bullying" in p.text)


def test_rate_zero_draws_nothing() -> None:
    """Without negation the items (and the random stream) are the shipped recipe's."""
    rows = _rows()
    plain = make_items(rows, random.Random(5))
    assert plain == make_items(rows, random.Random(5), negation_rate=0.0)
