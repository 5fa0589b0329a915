"""The regex vocabulary as data (words/frames.yaml, wrappers.yaml, constraints.yaml): the
keys load, the regexes built from them match phrases of each list, and a bad pattern is
refused."""

from __future__ import annotations

import re
from typing import Any

import pytest

from assistant.understand import vocab
from assistant.understand.constraints import find_constraints
from assistant.understand.followup import constraint_words as cw
from assistant.understand.followup import facet, normalise
from assistant.understand.vocab import VOCAB, VocabularyError, alternation, every

_F, _W = VOCAB.frames, VOCAB.wrappers
_Q, _C = VOCAB.constraints.question, VOCAB.constraints.followup


def test_the_new_files_and_keys_load() -> None:
    assert {"frames", "wrappers", "constraints"} <= set(vocab.FILES)
    assert "what about" in _F.weak_cues["en"] and "qu'en est-il de" in _F.weak_cues["fr"]
    assert "tell me more about" in _F.strong_cues and _F.strong_cue_patterns
    assert _F.circumfix.open == "wie sieht es mit" and _F.circumfix.close == "aus"
    assert "and" in _F.openers.frames and "und" in _F.and_words["de"]
    assert "could you please" in _W.requests["en"] and "bitte" in _W.requests["de"]
    assert "next question" in _W.new_topic_labels and _W.edit_label_patterns
    assert "nada" in _C.exclusions["es"] and _C.exclusion_patterns
    assert "aimed at" in _Q.audience_cues and _Q.audience_levels["kid"] == "child"
    assert "more than" in VOCAB.values.at_least and "under" in VOCAB.values.at_most
    for model in (_F, _W, _Q, _C):
        for name in type(model).model_fields:
            if name.endswith("_patterns"):
                for p in getattr(model, name):
                    re.compile(p)


def test_an_alternation_escapes_phrases_in_list_order() -> None:
    assert alternation(["what about", "w/o", "q&a"]) == r"(?:what\s+about|w/o|q\&a)"
    assert alternation(["in het", "in"], space=" ") == "(?:in het|in)"
    assert alternation(["a"], [r"b(?:c)?"]) == r"(?:a|b(?:c)?)"
    assert re.fullmatch(alternation(["a.b"]), "axb") is None
    with pytest.raises(ValueError):
        alternation([])


@pytest.mark.parametrize(
    ("file", "section", "key", "bad"),
    [
        ("frames", None, "strong_cue_patterns", ["(?:unclosed"]),
        ("wrappers", None, "lead_patterns", [" i meant"]),
        ("constraints", "followup", "exclusion_patterns", ["a", "a"]),
    ],
)
def test_a_bad_pattern_is_refused_with_the_file_and_key(
    monkeypatch: pytest.MonkeyPatch, file: str, section: str | None, key: str, bad: Any
) -> None:
    data = {name: vocab._read(name) for name in vocab.FILES}
    if section is None:
        data[file] = {**data[file], key: bad}
    else:
        data[file] = {**data[file], section: {**data[file][section], key: bad}}
    monkeypatch.setattr(vocab, "_read", lambda name: data[name])
    with pytest.raises(VocabularyError) as exc:
        vocab.load()
    assert f"{file}.yaml" in str(exc.value) and key in str(exc.value)


def _x(rx: re.Pattern[str], text: str, group: str = "x") -> str | None:
    m = rx.match(text)
    return m.group(group) if m else None


def test_every_weak_and_strong_cue_frames_a_facet() -> None:
    for cue in (*every(_F.weak_cues), *every(_F.and_words)):
        assert _x(facet._WEAK_FRAME, f"ok {cue} the cost?") == "the cost?", cue
    for cue in _F.strong_cues:
        assert _x(facet._STRONG_FRAME, f"and {cue} the cost") == "the cost", cue
    assert _x(facet._WEAK_FRAME, "wie sieht es mit den Kosten aus?") == "den Kosten aus?"
    assert _x(facet._WEAK_FRAME, "wie sieht es mit den Kosten?") is None  # no close
    assert _x(facet._STRONG_FRAME, "I'm mostly interested in costs") == "costs"  # a pattern
    assert _x(facet._STRONG_FRAME, "add ones with a garden") == "a garden"


def test_the_effect_and_pronoun_frames_read_their_slot_words() -> None:
    for verb in _F.effect_verbs:
        assert _x(facet._EFFECT_FRAME, f"how would it {verb} small shops") == "small shops"
    for verb in _F.effect_clause_verbs:
        assert _x(facet._EFFECT_CLAUSE, f"how would it {verb} for small shops") == "small shops"
    for cue in _F.subject_cues:
        assert _x(facet._COMES_INTO_IT, f"so does back pain {cue} here?") == "back pain", cue
    assert _x(facet._EFFECT_FRAME, "what are the consequences for farmers") == "farmers"
    assert _x(facet._EFFECT_FRAME, "is that also true for renters") == "renters"
    text = "what does the research say about older students"
    assert _x(facet._EFFECT_FRAME, text) == "older students"
    assert _x(facet._PRONOUN_QUESTION, "are they really expensive to run?") == "expensive to run"
    for verb in _F.pronoun_verbs:
        assert facet._PRONOUN_VERBS.sub("", f"{verb} small shops") == "small shops", verb
    assert _x(facet._ONES, "cheaper ones?", "a") == "cheaper"
    assert facet._POPULATION_FRAME.match("people living with diabetes")
    assert facet._POPULATION_FRAME.match("patients of diabetes") is None


def test_a_facet_loses_its_leads_and_tails() -> None:
    for lead in every(_F.facet_leads):
        assert facet._FACET_LEAD.sub("", f"{lead} cost") == "cost", lead
    for tail in every(_F.facet_tails):
        assert facet._FACET_TAIL.sub("", f"the cost, {tail}") == "the cost", tail
    assert facet._clean_facet("the cost side too, if that's ok?") == "cost"
    assert facet._MARKED_FACET.search("the storytelling bits")


def test_a_wrapper_is_taken_off_and_a_label_read() -> None:
    unwrap = normalise.unwrap
    for opener in every(_W.requests):
        assert unwrap(f"{opener} add the cost") == "add the cost", opener
    for end in every(_W.courtesy_ends):
        assert unwrap(f"only pdfs, {end}") == "only pdfs", end
    for verb in _W.fetch_verbs:
        assert unwrap(f"{verb} only pdfs") == "only pdfs", verb
    assert unwrap("Thanks. Now, I was wondering whether you could add the cost") == "add the cost"
    assert unwrap("Sorry, I meant the cost") == "the cost"
    assert unwrap("interviews would be even better, where available") == "interviews"
    label = normalise._LABEL.match("ok, next question: should cities ban cars?")
    assert label is not None and label.group("new") == "next question"
    label = normalise._LABEL.match("One more thing, if you don't mind: only pdfs")
    assert label is not None and label.group("new") is None
    assert normalise._POINTS_BACK.search("drop the sources")
    assert normalise._QUESTION_START.match("whether it works")
    assert normalise._OWN_QUESTION.search("wir streiten, ob es hilft")
    assert normalise._SENTENCE.split("fine, so could you add costs") == [
        "fine",
        "could you add costs",
    ]


def _all(rx: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0) for m in rx.finditer(text)]


def test_the_follow_up_operators_match_in_every_language() -> None:
    for op in every(_C.exclusions):
        assert _all(cw._EXCLUDE, f"{op} blogs") == [op], op
    for op in every(_C.positives):
        assert cw._POSITIVE.search(f"{op} blogs"), op
    assert _all(cw._EXCLUDE, "I can't read German") == ["can't read"]
    assert cw._excluded("no blogs, only news", 17) is False
    assert cw._NEGATION.search("nothing from the ") and cw._NOT_EXCLUDING.search("no more than ")
    assert cw._CLAUSE_END.search("anything but spanish") is None
    assert cw._POSITIVE_SOURCE.search("limit it to the ")
    assert cw._negated_scope("geen teksten voor de ")
    m = cw._AUDIENCE.search("für Kinder")
    assert m is not None and m.group("a") == "Kinder"


def test_the_follow_up_cues_read_their_value() -> None:
    def k(text: str) -> str | None:
        m = cw._KEYWORD_WORD.search(text)
        return m.group("k") if m else None

    assert k("qui mentionne Macron") == "Macron"
    assert k("mit dem Wort Klima") == "Klima"
    assert k("with the exact word keto in it") == "keto"
    assert k("die het woord klimaat") == "klimaat"
    m = cw._NAMED_SOURCE.search("published by the BBC")
    assert m is not None and m.group("n") == "BBC"
    assert cw._named_source("the last decade") is False
    m = cw._READ_MINUTES.search("a 5 min read tops")
    assert m is not None and m.group(0) == "a 5 min read tops"
    assert cw._PRAISE.search("this is very nice and ")
    assert cw._KEYWORD.search("stuff that discusses methane")
    assert cw._PREPOSITION.search("voor kinderen")


def _constraints(q: str) -> list[tuple[str, str, bool]]:
    cons, _ = find_constraints(q, wh_factual=False)
    return sorted((c.dimension, c.value, c.negated) for c in cons)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Is coffee healthy? Under 500 palabras", [("length", "<500", False)]),
        ("Is coffee healthy? More than 2000 mots", [("length", ">2000", False)]),
        ("Is coffee healthy? Not written in French", [("language", "fr", True)]),
        ("Is coffee healthy? In het Nederlands", [("language", "nl", False)]),
        ("Is coffee healthy? Geen Spanish bronnen", [("language", "es", True)]),
        ("Is coffee healthy? Explain it like I'm five", [("audience", "child", False)]),
        ("Is coffee healthy? Kid-level please", [("audience", "child", False)]),
        ("Is coffee healthy? I'm a total newbie", [("audience", "beginner", False)]),
        ("Is coffee healthy? Geared towards teens", [("audience", "teen", False)]),
        ("Is coffee healthy? Nothing longer than 800 words", [("length", "<800", False)]),
        ("Is coffee healthy? Something lengthy to read", [("length", "long", False)]),
        ("Is coffee healthy? The list sotto forma di list", [("format", "list", False)]),
        ("Is coffee healthy? Slides preferred", [("format", "slides", False)]),
        (
            "Is coffee healthy? Skip anything talking about caffeine",
            [("keyword", "caffeine", True)],
        ),
        (
            "Is coffee healthy? Documents that must mention caffeine",
            [("keyword", "caffeine", False)],
        ),
        ("Is coffee healthy? Nothing that shouldn't discuss tea", [("keyword", "tea", True)]),
    ],
)
def test_the_question_cues_name_a_constraint(
    question: str, expected: list[tuple[str, str, bool]]
) -> None:
    assert _constraints(question) == expected
