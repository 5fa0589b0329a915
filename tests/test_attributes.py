"""Document attributes at indexing time (paper 002 dimensions) on small fixtures."""

from __future__ import annotations

import pytest

from assistant.ingest.attributes import (
    audience,
    detect_language,
    document_attributes,
    domain_of,
    reading_grade,
    structure,
)

LIST_DOC = """Reasons to cycle to work
- It is cheaper than driving.
- It keeps you fit.
- It cuts traffic in the city.
- It is often faster at rush hour."""

QA_DOC = """Q: Is coffee bad for you?
A: Not in moderate amounts.
Q: How much is too much?
A: More than four cups a day for most adults."""

TABLE_DOC = """| city | population | area |
| Paris | 2.1 million | 105 km2 |
| Lyon | 0.5 million | 48 km2 |
| Nice | 0.3 million | 72 km2 |"""

CODE_DOC = """def mean(xs):
    total = 0
    for x in xs:
        total += x
    return total / len(xs)"""

PROSE_DOC = (
    "The city council met on Tuesday. It voted to build a new park near the river. "
    "Work starts in the spring."
)

SPANISH = (
    "El ayuntamiento aprobó ayer un nuevo parque junto al río, y las obras empezarán "
    "en primavera según el alcalde de la ciudad."
)
FRENCH = (
    "Le conseil municipal a approuvé hier la construction d'un nouveau parc près de la "
    "rivière, et les travaux commenceront au printemps."
)

SIMPLE = "The cat sat on the mat. The dog ran to the cat. They play all day. It is fun."
COMPLEX = (
    "Notwithstanding considerable methodological heterogeneity, contemporary epidemiological "
    "investigations consistently demonstrate statistically significant associations between "
    "socioeconomic deprivation and cardiovascular morbidity, necessitating comprehensive "
    "interdisciplinary interventions."
)


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        (LIST_DOC, "list"),
        (QA_DOC, "qa"),
        (TABLE_DOC, "table"),
        (CODE_DOC, "code"),
        (PROSE_DOC, "prose"),
    ],
)
def test_structure(text: str, shape: str) -> None:
    assert structure(text) == shape


def test_language() -> None:
    assert detect_language(SPANISH)[0] == "es"
    assert detect_language(FRENCH)[0] == "fr"
    assert detect_language(PROSE_DOC)[0] == "en"
    # too short to say: no code rather than a guess
    assert detect_language("Hola")[0] == ""


def test_reading_grade_orders_simple_below_complex() -> None:
    simple, hard = reading_grade(SIMPLE), reading_grade(COMPLEX)
    assert simple < reading_grade(PROSE_DOC) < hard
    assert audience(simple) == "general" and audience(hard) == "expert"
    # Flesch–Kincaid by hand: 4 sentences, 19 words, 19 one-syllable words
    # 0.39 · 19/4 + 11.8 · 19/19 − 15.59 = −1.9375 → clipped to 0
    assert simple == 0.0


def test_document_attributes_and_domain() -> None:
    a = document_attributes(SPANISH, {"url": "https://www.elpais.com/a/b"})
    assert a["language"] == "es" and a["n_words"] == len(SPANISH.split())
    assert a["structure"] == "prose" and a["domain"] == "elpais.com"
    assert "domain" not in document_attributes(PROSE_DOC, {})
    assert domain_of("news.bbc.co.uk/story") == "news.bbc.co.uk"
