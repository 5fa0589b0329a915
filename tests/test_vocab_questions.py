"""The question cues as data (words/questions.yaml): the sections load, their patterns
compile, and the regexes of intent.py, perspectives.py and sources.py built from the lists
match every phrase of each list."""

from __future__ import annotations

import re
from typing import Any

import pytest

from assistant.understand import intent, perspectives, sources, vocab
from assistant.understand.spelling import key_words
from assistant.understand.vocab import VOCAB

_I = VOCAB.questions.intent
_P = VOCAB.questions.perspectives
_S = VOCAB.questions.sources


def test_the_question_cues_load_as_regex_vocabulary() -> None:
    assert "questions" in vocab.FILES and "questions" in vocab.REGEX_FILES
    assert "pros and cons" in _P.both_sides and "critical of" in _P.con_verbs
    assert "explain" in _I.info_openers and "vs." in _I.strong_debate_cues
    assert _I.about_eval.pro == ("good", "great", "right")
    assert "co.uk" in _S.domain_endings and "nada de" in _S.more_exclusions
    for model in (_I, _P, _S):
        for name in type(model).model_fields:
            if name.endswith("_patterns"):
                for p in getattr(model, name):
                    re.compile(p)
    # their words are no key words of the spelling repair, as they were not while written
    # in the regexes (words of other lists may be)
    assert not {"pertaining", "debunking", "rebutting", "insufficient"} & key_words()


def _matches(pattern: re.Pattern[str], text: str) -> bool:
    return pattern.search(text) is not None


@pytest.mark.parametrize(
    ("pattern", "phrases", "frame"),
    [
        (perspectives._PRO, _P.pro_verbs, "a text that {} the claim"),
        (perspectives._CON, _P.con_verbs, "a text that {} the claim"),
        (perspectives._NEI, _P.nei_phrases, "there is {} here"),
        (perspectives._BOTH_FACETS, _P.both_sides, "the {} of tolls"),
        (perspectives._TOPIC_INTRO, _P.topic_intros, "articles {} tolls"),
        (perspectives._STANCE_PREP, _P.stance_preps, "articles {} tolls"),
        (intent._STRONG_DEBATE, _I.strong_debate_cues, "{} tolls"),
        (intent._LEADING, _I.leading_words, "{} tolls"),
        (intent._COPULA_SIDE, _I.side_prepositions, "are you {} tolls"),
    ],
)
def test_a_cue_regex_matches_every_phrase_of_its_list(
    pattern: re.Pattern[str], phrases: tuple[str, ...], frame: str
) -> None:
    for phrase in phrases:
        assert _matches(pattern, frame.format(phrase)), phrase


def test_the_perspective_cues_match_their_phrases() -> None:
    for verb in _P.stance_prep_verbs:
        assert perspectives._STANCE_PREP.match(f" that {verb} tolls"), verb
    for det in _P.verdict_determiners:
        for noun in _P.verdict_nouns:
            assert perspectives._VERDICT_SUBJECT.search(f"{det} {noun} shows"), (det, noun)
    for noun in _P.evidence_nouns:
        for cue in _P.evidence_cues:
            assert perspectives._EVIDENCE_STANCE.search(f"{noun} {cue} tolls"), (noun, cue)
    place = VOCAB.places.places[0]
    for verb in _P.location_verbs:
        assert perspectives._LOCATION.search(f"it {verb} {place}"), verb
    for cue in _P.subtopic_cues:
        assert perspectives._SUBTOPIC.search(f"{cue} to tolls")
        assert not perspectives._SUBTOPIC.search(f"{cue} to the claim")
    for noun in _P.viewpoint_nouns:
        assert perspectives._VIEWPOINT.search(f"from an economist's {noun}"), noun
    assert perspectives.classify_perspective("evidence that refutes the claim") == (
        "stance",
        "con",
    )
    assert perspectives.classify_perspective("related to the argument") == ("stance", None)


def test_the_intent_cues_match_their_phrases() -> None:
    for opener in _I.info_openers:
        assert intent.is_info_request(f"{opener} the tolls"), opener
    assert intent.is_info_request("a list of toll roads")
    assert intent.is_info_request("history of toll roads")
    for word in _I.typo_wh_words:
        assert intent.is_wh(word + "x tolls") or len(word) < 3
    for word in _I.about_eval.pro:
        assert intent.find_side(f"what's {word} about tolls?").side == "pro"  # type: ignore[union-attr]
    for word in _I.about_eval.con:
        assert intent.find_side(f"what's {word} with tolls?").side == "con"  # type: ignore[union-attr]
    for verb in _I.topic_end_verbs:
        assert intent._TOPIC_END.search(f"tolls {verb}?"), verb
    for fmt in _I.topic_end_formats:
        assert intent._topic(f"tolls are bad as a {fmt}", 0) == (0, 13), fmt
    for who in _I.topic_end_audiences:
        assert intent._topic(f"tolls are bad for a {who} reader", 0) == (0, 13), who
    for word in (*_I.topic_end_words, "i'm", "im", "i am"):
        assert intent._topic(f"tolls are bad {word} now", 0) == (0, 13), word
    for article in _I.indefinite_articles:
        assert intent.is_lookup(f"{article} café with a garden", 0), article


def _found(fn: Any, q: str) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []

    def add(kind: str, value: str, span: Any, **flags: Any) -> None:
        out.append((value, bool(flags.get("negated"))))

    fn(q, add)
    return out


def test_the_source_cues_read_their_value() -> None:
    for ending in _S.domain_endings:
        assert ("example." + ending, False) in _found(
            sources._sources, f"tolls on example.{ending}"
        )
    for cue in _S.attributions:
        assert ("Reuters", False) in _found(sources._sources, f"tolls {cue} Reuters")
    for cue in (*_S.exclusions, "not from", "except from", "not published by"):
        assert ("Reddit", True) in _found(sources._sources, f"tolls {cue} Reddit blogs"), cue
    for cue in _S.negated_from:
        assert all(neg for _, neg in _found(sources._sources, f"tolls, {cue} from blogs")), cue
    for cue in _S.more_exclusions:
        assert ("reddit", True) in _found(sources._more_sources, f"tolls. {cue} Reddit"), cue
    for tail in (*_S.courtesy_ends, *_S.item_ends):
        assert ("reddit", True) in _found(sources._more_sources, f"tolls, no Reddit {tail}"), tail
    for noun in _S.research_nouns:
        assert ("academic", False) in _found(sources._named_sources, f"tolls in academic {noun}")
    for word in _S.not_only_words:
        assert not _found(sources._more_sources, f"tolls, only {word}."), word
