"""The parts of a passage the stance model judges apart (evidence.paragraph_units)."""

from __future__ import annotations

from assistant.stance.units import PARAGRAPH_WORDS, paragraph_units
from assistant.summarize.evidence import judgement_at

LONG = " ".join(["Word"] * (PARAGRAPH_WORDS - 1) + ["end."])
LONG2 = " ".join(["Other"] * PARAGRAPH_WORDS) + "."


def _texts(text: str) -> list[str]:
    return [text[s:e] for s, e in paragraph_units(text)]


def test_one_block_is_the_whole_passage() -> None:
    assert paragraph_units("One line. Two sentences.") == [(0, len("One line. Two sentences."))]
    assert paragraph_units(f"{LONG}") == [(0, len(LONG))]


def test_each_paragraph_is_a_unit_and_a_heading_joins_the_paragraph_after_it() -> None:
    text = f"The case for\n{LONG}\n{LONG2}"
    assert _texts(text) == [f"The case for\n{LONG}", LONG2]


def test_a_run_of_short_blocks_is_one_unit() -> None:
    items = "Reasons, in brief:\n- Cost: cheaper.\n- Equality: no brands.\n- Focus: fewer fights."
    assert _texts(items) == [items]
    qa = "Q: Do they help?\nA: Not much, studies say.\nQ: Cheaper?\nA: It depends."
    assert _texts(qa) == [qa]


def test_a_short_tail_carried_from_the_paragraph_before_is_its_own_unit() -> None:
    # a passage starts inside the previous paragraph (the chunker's overlap): its tail,
    # a whole sentence, is not glued to the next paragraph; a cited source in it ("(X,
    # 2010)") does not make it a heading
    tail = "That can lie only in a change of behaviour (Benedict XVI, 2010). It says so."
    text = f"{tail}\n{LONG}\nShort closing line.\n{LONG2}"
    assert _texts(text) == [tail, LONG, "Short closing line.", LONG2]


def test_a_trailing_heading_joins_the_unit_before_it() -> None:
    assert _texts(f"{LONG}\nNext point") == [f"{LONG}\nNext point"]


def test_judgement_at_prefers_the_paragraph_then_the_passage() -> None:
    whole = {1: (0.6, 0.3, 0.1)}
    part = {(2, 40): (0.1, 0.8, 0.1)}
    assert judgement_at(whole, part, 1, 0) == (0.6, 0.3, 0.1)
    assert judgement_at(whole, part, 2, 40) == (0.1, 0.8, 0.1)
    assert judgement_at(whole, part, 2, 0) is None
