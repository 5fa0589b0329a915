"""The cue phrases of rule 3 (sides.py) and rule 9's lenient readers (lenient.py) as data
(words/side_turns.yaml): the lists load, are no spelling key words, a bad pattern is
refused, and the regexes built from them match the phrases of each list."""

from __future__ import annotations

import re
from typing import Any

import pytest

from assistant.understand import parse_rules, spelling, vocab
from assistant.understand.followup import lenient, sides
from assistant.understand.vocab import VOCAB, VocabularyError, every

_S, _L = VOCAB.side_turns.sides, VOCAB.side_turns.lenient


def test_the_lists_load_and_are_regex_vocabulary() -> None:
    assert "side_turns" in vocab.FILES and "side_turns" in vocab.REGEX_FILES
    assert "keep going" in _S.more_cues and "d'autres" in _S.more_cues
    assert "nur" in _S.restrict_words and "no" in _S.no_answers and "yes" in _S.yes_answers
    assert "zoom in on" in _L.facet_cues and "einfluss auf" in _L.effect_cues["de"]
    for model in (_S, _L):
        for name in type(model).model_fields:
            if name.endswith("_patterns"):
                for p in getattr(model, name):
                    re.compile(p)
    # a cue word no other file lists is no key word of the spelling repair
    assert "uitsluitend" not in spelling.key_words()


@pytest.mark.parametrize(
    ("section", "key", "bad"),
    [
        ("sides", "terse_pro_patterns", ["(?:unclosed"]),
        ("lenient", "clause_breaks", ["since", "since"]),
        ("lenient", "effect_cues", {"xx": ["impact on"]}),
    ],
)
def test_a_bad_entry_is_refused_with_the_file_and_key(
    monkeypatch: pytest.MonkeyPatch, section: str, key: str, bad: Any
) -> None:
    data = {name: vocab._read(name) for name in vocab.FILES}
    turns = data["side_turns"]
    data["side_turns"] = {**turns, section: {**turns[section], key: bad}}
    monkeypatch.setattr(vocab, "_read", lambda name: data[name])
    with pytest.raises(VocabularyError) as exc:
        vocab.load()
    assert "side_turns.yaml" in str(exc.value) and key in str(exc.value)


def _found(rx: re.Pattern[str], text: str) -> str | None:
    m = rx.search(text)
    return m.group(0) if m else None


def test_the_side_cues_match_their_phrases() -> None:
    for cue in _S.more_cues:
        assert _found(sides._MORE_CUE, f"ok {cue} please") == cue, cue
    assert _found(sides._MORE_CUE, "keep them coming") == "keep them coming"
    assert _found(sides._MORE_CUE, "any other sources?") == "any other"
    for noun in _S.other_side_nouns:
        assert sides._OTHER_SIDE.search(f"and the other {noun}?"), noun
    for phrase in _S.other_side_phrases:
        assert _found(sides._OTHER_SIDE, f"now {phrase} please") == phrase, phrase
    assert _found(sides._OTHER_SIDE, "flip it around") == "flip it around"
    for word in _S.restrict_words:
        assert _found(sides._RESTRICT, f"{word} the cons") == word, word
    for word in _S.terse_pro:
        assert _found(sides._TERSE_SIDE["pro"], f"only {word}") == word, word
    for word in _S.terse_con:
        assert _found(sides._TERSE_SIDE["con"], f"only {word}") == word, word
    assert _found(sides._TERSE_SIDE["pro"], "only claim A") == "claim A"
    assert _found(sides._TERSE_SIDE["pro"], "argumenten vóór") == "vóór"
    assert _found(sides._TERSE_SIDE["con"], "just the noes") == "the noes"
    assert sides._TERSE_SIDE["con"].search("only claim b") is None  # the letter in its case
    for both in _S.both_words:
        for noun in _S.both_nouns:
            assert sides._BOTH_SIDES.search(f"arguments from {both} {noun}"), (both, noun)
    for phrase in ("ambos lados", "des deux côtés", "beiden seiten"):
        assert sides._BOTH_SIDES.search(f"les arguments {phrase}"), phrase


def test_a_restated_claim_names_a_side() -> None:
    for holder in _S.claim_holders:
        m = sides._ARGUMENTS_THAT.search(f"just the {holder} that it's not harmful")
        assert m is not None and m.group("adj") == "harmful" and m.group("neg"), holder
    for verb in _S.claim_verbs:
        m = sides._ARGUMENTS_THAT.search(f"the ones that {verb} they are really bad for kids")
        assert m is not None and m.group("adj") == "bad", verb
    for verb in _S.claim_participles:
        m = sides._ARGUMENTS_THAT.search(f"people {verb} it's good for the planet")
        assert m is not None and m.group("adj") == "good", verb
    for verb in _S.answer_verbs:
        for answer in (*_S.yes_answers, *_S.no_answers):
            m = sides._SAYS_YES.search(f"the side that {verb} {answer} they do")
            assert m is not None and m.group("yn") == answer, (verb, answer)
    for holder in _S.case_for_holders:
        for link in _S.case_for_links:
            m = sides._FOR_VERBING.search(f"the {holder} {link} keeping it")
            assert m is not None and m.group("v") == "keeping", (holder, link)
    for holder in _S.says_verb_holders:
        for verb in _S.says_verbs:
            m = sides._SAYS_VERB.search(f"the {holder} that {verb} we should keep them")
            assert m is not None and m.group("v") == "keep", (holder, verb)
    assert sides._NEGATED_OBJECT.search(" to never keep them")
    plan = parse_rules("Should school uniforms be abolished?")
    assert sides._side_named("only the side that says nope", plan) == "con"
    assert sides._side_named("only the side that says yep", plan) == "pro"


def test_the_lenient_frames_match_their_phrases() -> None:
    def x(text: str) -> str | None:
        m = lenient._FACET_SEARCH.search(text)
        return m.group("x") if m else None

    for cue in _L.facet_cues:
        assert x(f"could you {cue} rural areas") == "rural areas", cue
    for word in _L.concern_words:
        assert x(f"I'm {word} about rural areas") == "rural areas", word
    for noun in _L.facet_nouns:
        assert x(f"the {noun} of rural areas") == "rural areas", noun
    for noun in _L.effect_nouns:
        assert x(f"the {noun} on rural areas") == "rural areas", noun
    for noun in _L.evidence_nouns:
        assert x(f"any {noun} on whether rural areas") == "rural areas", noun
    for verb in _L.effect_verbs:
        assert x(f"how it {verb} rural areas") == "rural areas", verb
    for verb in _L.apply_verbs:
        assert x(f"how it {verb} for rural areas") == "rural areas", verb
    for cue in every(_L.effect_cues):
        # "impact sur", "impact op": the verb "impact" is tried first and takes the rest
        assert (x(f"e {cue} den Kosten") or "").endswith("den Kosten"), cue
    assert x("wat abt rural areas") == "rural areas"  # a pattern


def test_the_lenient_phrase_ends_and_frames_match_their_phrases() -> None:
    for noun in _L.span_frame_nouns:
        for link in _L.span_frame_links:
            assert lenient._SPAN_FRAME.sub("", f"the {noun} {link} farmers") == "farmers"
    for verb in _L.subject_verbs:
        m = lenient._FACET_SUBJECT.search(f"how do pesticide residues {verb}?")
        assert m is not None and m.group("x") == "pesticide residues", verb
    for verb in _L.wish_verbs:
        for word in _L.covered_words:
            m = lenient._FACET_OBJECT.search(f"I'd {verb} the cost to schools {word} too")
            assert m is not None and m.group("x") == "the cost to schools", (verb, word)
    for word in _L.aside_words:
        assert lenient._FACET_END.split(f"rural areas would be {word} to see")[0] == "rural areas"
    for word in (*_L.clause_breaks, "as it", "do you think"):
        assert lenient._FACET_END.split(f"rural areas {word} it")[0] == "rural areas", word
    for word in _L.hesitations:
        for noun in _L.place_nouns:
            assert lenient._PLACES_LIKE.sub("", f"{word} {noun} like Toronto") == "Toronto"
    for link in _L.group_topic_links:
        assert lenient._ABOUT_TOPIC.search(f"people {link} it"), link
    assert lenient._ABOUT_TOPIC.search("people ABOUT it") is None  # case kept, as before
