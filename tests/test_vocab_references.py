"""The words of rules 1, 5 and 6 as data (words/references.yaml): the file loads as a
regex vocabulary file, and the regexes of references.py, drop.py and group.py, built from
its lists, match a phrase of every entry."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from assistant.understand import vocab
from assistant.understand.followup import drop, group, references
from assistant.understand.vocab import VOCAB, VocabularyError

_R, _G, _D = VOCAB.references.references, VOCAB.references.group, VOCAB.references.drop


def test_the_file_loads_as_a_regex_vocabulary_file() -> None:
    assert "references" in vocab.FILES and "references" in vocab.REGEX_FILES
    assert "get rid of" in _R.remove_verbs and "référence" in _R.ref_nouns
    assert "point of view" in _G.view_nouns and "sostienen" in _G.es_verbs
    assert "forget about" in _D.verbs and _D.verb_patterns
    for model in (_R, _G, _D):
        for name in type(model).model_fields:
            if name.endswith("_patterns"):
                for p in getattr(model, name):
                    re.compile(p)
    # YAML would read these as booleans unquoted
    assert "no" in _R.remove_without and "on" in _G.topic_links and "off" in _R.pointed_particles


@pytest.mark.parametrize(
    ("section", "key", "bad"),
    [
        ("drop", "verb_patterns", ["(?:unclosed"]),
        ("references", "ref_nouns", ["Source"]),
        ("group", "view_verbs", ["say", "say"]),
    ],
)
def test_a_bad_entry_is_refused_with_the_file_and_key(
    monkeypatch: pytest.MonkeyPatch, section: str, key: str, bad: Any
) -> None:
    data = {name: vocab._read(name) for name in vocab.FILES}
    refs = data["references"]
    data["references"] = {**refs, section: {**refs[section], key: bad}}
    monkeypatch.setattr(vocab, "_read", lambda name: data[name])
    with pytest.raises(VocabularyError) as exc:
        vocab.load()
    assert "references.yaml" in str(exc.value) and key in str(exc.value)


def _numbers(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in references._EXPLICIT_REF.finditer(text)]


def test_the_reference_words_read_a_number() -> None:
    for noun in _R.ref_nouns:
        assert _numbers(f"why is {noun} 7 there") == ["7"], noun
    for unit in _R.units:
        assert references._UNIT_AFTER.match(f" {unit} or so"), unit
    for word in _R.quantity_before:
        assert references._QUANTITY_BEFORE.search(f"something {word} "), word
    for verb in _R.remove_verbs:
        assert references._REMOVE.search(f"{verb} [5]"), verb
    for neg in _R.remove_without:
        assert references._REMOVE.search(f"the answer {neg} [5]"), neg
    assert references._REMOVE.search("take that   out")  # a pattern: any space after "that"
    assert references._REMOVE.search("enlève la 5")
    for cue in _R.compare_cues:
        assert references._COMPARE_CUE.search(f"{cue} 2 5"), cue
    for verb in _R.pair_verbs:
        assert references._PAIR_LINK.match(f"] {verb} with source "), verb
    for link in _R.pair_links:
        assert references._PAIR_LINK.match(f" {link} "), link
    for filler in _R.pair_fillers:
        assert references._PAIR_LINK.match(f" and {filler} #"), filler
    assert references._PAIR_LINK.match(" 5 ") is None


def test_the_ordinals_and_number_words_read_a_reference() -> None:
    def ordinals(text: str) -> list[str]:
        return [m.group("o") for m in references._ORDINAL_REF.finditer(text)]

    for noun in _R.ordinal_nouns:
        assert ordinals(f"lose the fifth {noun}") == ["fifth"], noun
    for link in _R.ordinal_links:
        assert ordinals(f"the 2nd {link} 5th differ") == ["2nd", "5th"], link
    for verb in _R.ordinal_verbs:
        assert ordinals(f"does the third {verb} much") == ["third"], verb
    for suffix in (*_R.ordinal_suffixes_en, *_R.ordinal_suffixes):
        assert ordinals(f"the 3{suffix}?") == [f"3{suffix}"], suffix
    for noun in _R.number_nouns:
        assert references._digits(f"why {noun} one") == f"why {noun} 1", noun
    assert references._digits("the other one") == "the other one"
    for word in _R.number_blockers:
        assert references._digits(f"compare {word} two") == f"compare {word} two", word
    assert references._digits("compare two and seven") == "compare 2 and 7"


def test_a_drop_of_the_reference_asked_about_reads_its_slots() -> None:
    pointed = references._DROP_POINTED
    for opener in (*_R.pointed_openers, "hmmm"):
        assert pointed.match(f"{opener}, drop it"), opener
    for request in _R.pointed_requests:
        assert pointed.match(f"{request} drop it"), request
    for verb in (*_R.pointed_verbs, "enlève"):
        assert pointed.match(f"{verb} it"), verb
    for obj in _R.pointed_objects:
        assert pointed.match(f"drop {obj}"), obj
    for particle in _R.pointed_particles:
        assert pointed.match(f"take it {particle}"), particle
    for tail in _R.pointed_tails:
        assert pointed.match(f"drop it {tail}"), tail
    for end in _R.pointed_ends:
        assert pointed.match(f"drop it {end}"), end
    for subject in _R.pointed_if_subjects:
        for approval in _R.pointed_if_approvals:
            assert pointed.match(f"drop it, if {subject} {approval}"), (subject, approval)
    assert pointed.match("drop it and add costs") is None
    for word in _R.corrections:
        assert references._CORRECTION.search(f"{word}, 7"), word
    for opener in _R.compare_one_openers:
        assert references._COMPARE_ONE.match(f"{opener}, vs [9]?"), opener
    for cue in (*_R.compare_one_cues, "how does it compare with"):
        assert references._COMPARE_ONE.match(f"{cue} 6?"), cue
    for noun in _R.compare_one_nouns:
        assert references._COMPARE_ONE.match(f"versus {noun} 6"), noun


def _verb(text: str) -> tuple[str, str] | None:
    m = drop._DROP_VERB.search(text)
    return (m.group("v"), m.group("x")) if m else None


def test_every_drop_verb_drops_what_follows_it() -> None:
    shadowed = []
    for verb in _D.verbs:
        got = _verb(f"{verb} the cost part")
        assert got is not None and f"{got[0]} {got[1]}" == f"{verb} the cost part", verb
        if got[0] != verb:
            shadowed.append(verb)
    # "do not need" is listed before "do not need to be" (and read first), as it was
    assert shadowed == ["do not need to be", "don't need to be"]
    assert _verb("take the cost part back out") == ("take", "the cost part back out")
    assert _verb("leave the kids out of it") == ("leave", "the kids out of it")
    assert _verb("set that aside") == ("set that aside", "")
    assert _verb("without the cost bits") == ("without", "the cost bits")
    for start in _D.object_starts:
        assert drop._drop_object(f"{start} costs") == ("costs", False), start
    for end in _D.object_ends:
        assert drop._drop_object(f"the costs {end}") == ("costs", True), end
    for tail in _D.object_tails:
        assert drop._drop_object(f"costs {tail}") == ("costs", False), tail
    for particle in _D.object_particles:
        for tail in _D.object_particle_tails:
            assert drop._drop_object(f"costs {particle} {tail}") == ("costs", False)
    for link in _D.reason_links:
        assert drop._DROP_REASON.split(f"the pdfs {link} they are slow")[0] == "the pdfs", link
    for subject in _D.reason_subjects:
        assert drop._DROP_REASON.split(f"the pdfs {subject} hate")[0] == "the pdfs", subject
    for words in _D.never_minds:
        for verb in _D.never_mind_verbs:
            assert drop._NEVER_MIND.sub("", f"{words}, {verb} it") == f"{verb} it"
    for word in _D.taken_back:
        for tail in _D.taken_back_tails:
            m = drop._TAKEN_BACK.fullmatch(f"{word} turnout {tail}?")
            # ("no more turnout": "no" is read first, as it was)
            assert m is not None and m.group("x").endswith("turnout"), (word, tail)


def _groups(text: str) -> list[str]:
    return [m.group("x") for p in group._VIEWS if (m := p.search(text))]


# each view frame: a turn made of one entry of each list named, and the group it names
_FRAMES = [
    ("what {} nurses {}?", ("what_auxiliaries", "view_verbs"), "nurses"),
    ("what do nurses {} think", ("view_adverbs",), "nurses"),
    ("how {} nurses {} it", ("how_auxiliaries", "how_verbs"), "nurses"),
    ("what {} the nurses?", ("inverted_verbs",), "nurses"),
    ("and {} nurses {}", ("yes_no_auxiliaries", "assent_verbs"), "nurses"),
    ("I'd like to hear what nurses {}", ("hear_verbs",), "nurses"),
    ("{} of the nurses", ("voice_nouns",), "nurses"),
    ("what {} do unions take", ("position_nouns",), "unions"),
    ("{} unions have a {}", ("have_auxiliaries", "have_nouns"), "unions"),
    ("the {} of nurses?", ("view_nouns",), "nurses"),
    ("from a nurse {}", ("from_view_nouns",), "nurse"),
    ("and nurses {}?", ("bare_view_nouns",), "nurses"),
    ("{} what about nurses, how do they {}", ("about_openers", "they_verbs"), "nurses"),
    ("{} {} los médicos sobre esto?", ("es_question_words", "es_verbs"), "los médicos"),
    ("y los médicos {} {}", ("es_question_words", "es_verbs_after"), "y los médicos"),
    (
        "qué dicen los médicos {} {}?",
        ("es_topic_prepositions", "es_topic_pronouns"),
        "los médicos",
    ),
    ("was {} die Ärzte {}?", ("de_verbs", "de_pronoun_adverbs"), "die Ärzte"),
    ("wie {} {} die Lehrer?", ("de_judge_verbs", "de_pronouns"), "die Lehrer"),
    ("{} {} les médecins ?", ("fr_question_words", "fr_verbs"), "les médecins"),
    ("{} {} Ärzte", ("view_phrases", "view_phrase_links"), "Ärzte"),
    ("{} ne {} i medici?", ("it_question_words", "it_verbs"), "i medici"),
    ("e {} ne {} la Chiesa?", ("it_question_words", "it_verbs_one"), "Chiesa"),
    ("o que {} os médicos?", ("pt_verbs",), "os médicos"),
    ("{} {} de artsen {}?", ("nl_question_words", "nl_verbs", "nl_pronoun_adverbs"), "artsen"),
]


@pytest.mark.parametrize(("template", "lists", "expected"), _FRAMES)
def test_every_view_frame_reads_a_group(
    template: str, lists: tuple[str, ...], expected: str
) -> None:
    for words in itertools.product(*(getattr(_G, name) for name in lists)):
        text = template.format(*words)
        assert expected in _groups(text), text


def test_the_view_patterns_read_a_group() -> None:
    assert "nurses" in _groups("what do nurses make of all this?")


def test_a_group_name_loses_the_words_around_it() -> None:
    for lead in _G.group_leads:
        assert group._GROUP_LEAD.sub("", f"{lead} nurses") == "nurses", lead
    for end in _G.group_ends:
        assert group._clean_group(f"nurses {end} say") == "nurses", end
    for tail in _G.group_tails:
        assert group._clean_group(f"nurses {tail}") == "nurses", tail
    for link in _G.topic_links:
        assert group._TOPIC_LINK.search(f"views {link} cost"), link
    for opener in _G.role_view_openers:
        for noun in _G.role_view_nouns:
            m = group._ROLE_VIEW.fullmatch(f"{opener} the nurse {noun}?")
            assert m is not None and m.group("x") == "nurse", (opener, noun)
    for opener in _G.alone_openers:
        m = group._ALONE.fullmatch(f"{opener} landlords?")
        assert m is not None and m.group("x") == "landlords", opener
