"""Rules 8 and 9 of the follow-up reader (assistant.understand.followup): the turn-kind
model's reading taken at its thresholds, a facet a frame names, a side named by the claim
it states, and the model's second opinion on rules 2-7. Examples written for this file."""

from __future__ import annotations

import pytest

from assistant.understand import followup, parse_rules
from assistant.understand.facet_judge import shared_judge
from assistant.understand.followup import FollowUp, resolve
from assistant.understand.followup.learned import (
    _as_kind,
    _learned_kind,
    _second_opinion,
    _side_by_claim,
)
from assistant.understand.followup.lenient import _framed_facet
from assistant.understand.followup.resolve import _read
from assistant.understand.followup.settings import DEFAULTS

ZOOS = parse_rules("Should zoos be abolished?")
CITIES = parse_rules("Should cities ban cars from their centres?")


class _Judge:
    """A judge whose turn-kind and stance readings are given (control flow only); it
    records the statements it was asked to judge."""

    def __init__(
        self,
        kind: str = "new_topic",
        p: float = 0.0,
        side: tuple[float, float, float] = (0, 0, 1),
        reads_side: tuple[str, float] | None = None,
    ) -> None:
        self.given, self.claimed, self.reads_side = (kind, p), side, reads_side
        self.kinds: list[str] = []
        self.statements: list[str] = []
        self.sides_asked: list[str] = []

    def kind(self, turn: str, topic: str) -> tuple[str, float]:
        self.kinds.append(turn)
        return self.given

    def side(self, turn: str, topic: str) -> tuple[str, float] | None:
        self.sides_asked.append(turn)
        return self.reads_side

    def claim_side(
        self, question: str, claims: tuple[str, str], statement: str
    ) -> tuple[float, float, float]:
        self.statements.append(statement)
        return self.claimed


def _kind(kind: str, p: float, q: str, previous: object = ZOOS) -> FollowUp | None:
    return _as_kind(kind, p, q, previous, _Judge(kind, p))  # type: ignore[arg-type]


def test_a_framed_facet_needs_the_facet_threshold_and_bare_words_the_higher_one() -> None:
    framed = "could you also look at how it would work in coastal towns, since I live in one"
    below, at = DEFAULTS.lenient_p("add_aspect") - 0.01, DEFAULTS.lenient_p("add_aspect")
    assert _kind("add_aspect", below, framed) is None
    found = _kind("add_aspect", at, framed)
    assert found is not None and (found.edit, found.value) == ("add_aspect", "coastal towns")
    assert found.rule.startswith("9 turn-kind model (add_aspect")
    bare, unframed = "animal welfare standards", DEFAULTS.lenient_p("add_aspect_unframed")
    assert DEFAULTS.lenient_p("add_aspect") < unframed
    assert _kind("add_aspect", unframed - 0.01, bare) is None  # no frame: not sure enough
    found = _kind("add_aspect", unframed, bare)
    assert found is not None and found.value == "animal welfare standards"


def test_a_lenient_constraint_allows_words_of_the_turns_own_beside_it() -> None:
    text = "only articles in German, my teacher reads German"
    assert _read(text, ZOOS, None) is None  # rule 4 alone: the reason is words of its own
    p = DEFAULTS.lenient_p("add_constraint")
    found = _kind("add_constraint", p, text)
    assert found is not None and found.edit == "add_constraint"
    assert found.value == {"dimension": "language", "value": "de", "negated": False}
    assert _kind("add_constraint", p - 0.01, text) is None


def test_a_group_is_found_by_a_person_noun_and_a_facet_dropped_by_name() -> None:
    p = DEFAULTS.lenient_p("add_perspective")
    found = _kind("add_perspective", p, "I'd be curious how small farmers see all this")
    assert found is not None and (found.edit, found.value) == ("add_perspective", "small farmers")
    noisy = resolve("what about the noise?", CITIES).plan
    assert noisy is not None
    text = "the noise question no longer matters for me"
    found = _kind("drop_aspect", DEFAULTS.lenient_p("drop_aspect"), text, noisy)
    assert found is not None and (found.edit, found.value) == ("drop_aspect", "noise")
    assert found.plan is not None and "noise" not in [a.text for a in found.plan.aspects]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("add_aspect", "hmm ok"),
        ("add_constraint", "I'd love to see what else turns up"),
        ("add_perspective", "interesting stuff honestly"),
        ("drop_aspect", "skip nothing"),
    ],
)
def test_the_reader_finds_no_value_so_nothing_is_read(kind: str, text: str) -> None:
    assert _kind(kind, 0.99, text) is None


def test_learned_kind_needs_a_judge_and_words_to_read() -> None:
    text = "small farmers would be my angle"
    assert _learned_kind(text, ZOOS, None) is None
    judge = _Judge("add_perspective", 0.9)
    assert _learned_kind("Could you add that?", ZOOS, judge) is None  # type: ignore[arg-type]
    assert judge.kinds == []  # a turn pointing back is not given to the model
    found = _learned_kind(text, ZOOS, judge)  # type: ignore[arg-type]
    assert found is not None and found.value == "small farmers"


@pytest.mark.parametrize(
    ("turn", "facet"),
    [
        (
            "could you also look at how it would work in coastal towns, since I live in one",
            "coastal towns",
        ),
        ("what about the effect on single parents because they struggle", "single parents"),
        ("how do pesticide residues compare?", "pesticide residues"),
        ("I'd like the cost to schools covered", "cost to schools"),
        ("thanks, that was great", None),
        ("tell me more", None),
    ],
)
def test_the_framed_facet_is_the_innermost_frames_phrase(turn: str, facet: str | None) -> None:
    assert _framed_facet(turn, ZOOS) == facet


def test_a_claimed_side_follows_the_stance_model(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "just the people who argue that zoos save endangered species from extinction"
    judge = _Judge(side=(0.7, 0.2, 0.1))
    assert _side_by_claim(text, ZOOS, judge, DEFAULTS) == "pro"  # type: ignore[arg-type]
    assert judge.statements == ["zoos save endangered species from extinction"]
    assert _side_by_claim(text, ZOOS, _Judge(side=(0.2, 0.7, 0.1)), DEFAULTS) == "con"  # type: ignore[arg-type]
    # P(neither) is largest: no side
    assert _side_by_claim(text, ZOOS, _Judge(side=(0.3, 0.2, 0.5)), DEFAULTS) is None  # type: ignore[arg-type]
    # at claimed_side_p = 0.5 a side's share of P(A) + P(B) is never below it: raised here
    assert DEFAULTS.claimed_side_p == 0.5
    higher = DEFAULTS.replaced({"claimed_side_p": 0.6})
    assert _side_by_claim(text, ZOOS, _Judge(side=(0.45, 0.4, 0.15)), higher) is None  # type: ignore[arg-type]
    # the turn states nothing: the model is not asked
    judge = _Judge(side=(0.9, 0.05, 0.05))
    assert _side_by_claim("only the ones saying it", ZOOS, judge, DEFAULTS) is None  # type: ignore[arg-type]
    assert judge.statements == []


def test_the_real_stance_model_reads_a_claimed_side() -> None:
    # checked when written: P(A), P(B) 0.18, 0.82 (against abolition) and 0.93, 0.06
    judge = shared_judge()
    text = "just the people who argue that zoos save endangered species from extinction"
    assert _side_by_claim(text, ZOOS, judge, DEFAULTS) == "con"
    assert (
        _side_by_claim("the people who think animals suffer in captivity", ZOOS, judge, DEFAULTS)
        == "pro"
    )


def test_a_sure_second_opinion_overrules_rules_2_to_7() -> None:
    text = "focus on the arguments against it"
    found = _read(text, ZOOS, None)
    assert found is not None and found.rule.startswith("7")
    sure = _Judge("one_side", DEFAULTS.second_opinion_p)
    other = _second_opinion(found, text, ZOOS, sure)  # type: ignore[arg-type]
    assert (other.edit, other.value) == ("one_side", "con")
    unsure = _Judge("one_side", DEFAULTS.second_opinion_p - 0.01)
    assert _second_opinion(found, text, ZOOS, unsure) is found  # type: ignore[arg-type]
    text = "buy a house or rent?"
    found = _read(text, ZOOS, None)
    assert found is not None and found.follows
    new = _second_opinion(found, text, ZOOS, _Judge("new_topic", DEFAULTS.second_opinion_p))  # type: ignore[arg-type]
    assert (new.follows, new.edit) == (False, "new_topic")
    # one_side that sure, but no side named or claimed: the facet stands
    text = "what about animal welfare?"
    found = _read(text, ZOOS, None)
    assert found is not None
    assert _second_opinion(found, text, ZOOS, _Judge("one_side", 0.99)) is found  # type: ignore[arg-type]


def test_a_reference_is_never_overruled() -> None:
    found = _read("why is [3] there?", ZOOS, None)
    assert found is not None and found.rule.startswith("1")
    judge = _Judge("new_topic", 0.99)
    assert _second_opinion(found, "why is [3] there?", ZOOS, judge) is found  # type: ignore[arg-type]
    assert judge.kinds == []


NOISY = resolve("what about the noise?", CITIES).plan


def _con(dimension: str, value: str) -> dict[str, object]:
    return {"dimension": dimension, "value": value, "negated": False}


# written for this file (none is in tests/data); each read right when written
TURNS = [
    (
        ZOOS,
        "ugh my teacher is so strict lol, she said only academic journals this time, "
        "sorry about that",
        "add_constraint",
        _con("source", "academic"),
    ),
    (
        ZOOS,
        "cool cool. anyway, stuff in French only if possible, I'm practising for an exam",
        "add_constraint",
        _con("language", "fr"),
    ),
    (
        ZOOS,
        "Hey, no offence but can we get stuff written for kids? I'm showing this to my "
        "little brother, he's 9",
        "add_constraint",
        _con("audience", "child"),
    ),
    (
        ZOOS,
        "What would veterinarians make of all this, do you think?",
        "add_perspective",
        "veterinarians",
    ),
    (
        ZOOS,
        "Really helpful, cheers. My class is mostly biology students, so could you focus on "
        "the effects on breeding programmes for rare species, if there's anything on that?",
        "add_aspect",
        "breeding programmes for rare species",
    ),
    (
        CITIES,
        "Only the arguments that banning cars makes city centres cleaner and safer, please.",
        "one_side",
        "pro",
    ),
    (
        CITIES,
        "Only the arguments that banning cars would hurt local shops, please.",
        "one_side",
        "con",
    ),
    (
        NOISY,
        "Thanks! On reflection, please forget the noise part, my essay is about air quality only.",
        "drop_aspect",
        "noise",
    ),
    (ZOOS, "Completely off topic, but should I learn piano or guitar first?", "new_topic", None),
]


@pytest.mark.parametrize(("previous", "text", "edit", "value"), TURNS)
def test_turns_phrased_freely_end_to_end(
    previous: object, text: str, edit: str, value: object
) -> None:
    found = resolve(text, previous, shared_judge())  # type: ignore[arg-type]
    assert (found.follows, found.edit, found.value) == (edit != "new_topic", edit, value)


_PREV_SAFE = "Is nuclear power safe?"
_PREV_ZOOS = "Should zoos be abolished?"


@pytest.mark.parametrize(
    ("question", "turn", "edit", "value"),
    [
        # sides said as yes/no, by a verb of the opposite pole, by a bad word about "it"
        (_PREV_SAFE, "the camp that says yes it is", "one_side", "pro"),
        (_PREV_SAFE, "only the ones that say nope", "one_side", "con"),
        (_PREV_ZOOS, "just the case for keeping them", "one_side", "con"),
        ("Is vaping harmful?", "only people who think it's dangerous", "one_side", "pro"),
        # two references compared
        (_PREV_SAFE, "how is 4 different from 9", "compare_refs", [4, 9]),
        # constraints: a restriction said as an exclusion of what is not, a hedged number,
        # a keyword said as a word, a question in Spanish, a reason after a dropped format
        (
            _PREV_SAFE,
            "remove everything that isn't in French",
            "add_constraint",
            {"dimension": "language", "value": "fr", "negated": False},
        ),
        (
            _PREV_SAFE,
            "nothing over like 600 words",
            "add_constraint",
            {"dimension": "length", "value": "<600", "negated": False},
        ),
        (
            _PREV_SAFE,
            "only stuff that mentions TikTok",
            "add_constraint",
            {"dimension": "keyword", "value": "TikTok", "negated": False},
        ),
        (
            _PREV_SAFE,
            "¿Hay algo en francés?",
            "add_constraint",
            {"dimension": "language", "value": "fr", "negated": False},
        ),
    ],
)
def test_round_seven_rules(question: str, turn: str, edit: str, value: object) -> None:
    found = resolve(turn, parse_rules(question), shared_judge())
    assert found.follows and found.edit == edit
    assert found.value == value


def test_a_comparison_with_one_number_after_a_question_about_another() -> None:
    prev = parse_rules(_PREV_SAFE)
    found = resolve("compared to [8]?", prev, shared_judge(), ("explain_ref", [3]))
    assert (found.edit, found.value) == ("compare_refs", [3, 8])
    found = resolve("compared to [8]?", prev, shared_judge(), ("drop_ref", [3]))
    assert found.edit != "compare_refs"  # only after a question about one reference


def test_a_reason_after_a_dropped_kind_does_not_change_its_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the rules and the turn-kind model; with the turn reader the two models split between
    # a constraint and a dropped facet and the turn is read as a new topic (a known miss,
    # docs/TURN_READER.md "Limits"; the fallback for it, edit_sure_p, was measured and lost)
    judge = shared_judge()
    monkeypatch.setattr(judge, "reader_choice", "off")
    prev = parse_rules(_PREV_SAFE)
    plain = resolve("skip the videos", prev, judge)
    said = resolve("skip the videos my laptop can't play them", prev, judge)
    assert plain.edit == "add_constraint"
    assert (said.edit, said.value) == (plain.edit, plain.value)


FIREWORKS = parse_rules("Should fireworks be banned?")


def test_the_side_reader_names_a_side_no_rule_reads() -> None:
    side_p = DEFAULTS.side_reader_p

    def read(kind: str, side: str, p: float, previous: object = FIREWORKS) -> object:
        judge = _Judge(kind, 0.9, reads_side=(side, p))
        found = _as_kind(kind, 0.9, "only the ban camp", previous, judge)  # type: ignore[arg-type]
        return found and (found.edit, found.value)

    assert read("one_side", "pro", side_p) == ("one_side", "pro")
    assert read("one_side", "con", 0.9) == ("one_side", "con")
    assert read("one_side", "pro", side_p - 0.01) is None  # not sure enough: no side
    assert read("one_side", "both", 0.9) is None  # "both" is no one side
    assert read("more", "con", 0.9) == ("more", "con")
    assert read("more", "both", 0.9) == ("more", "both")
    assert read("more", "pro", side_p - 0.01) == ("more", "both")
    # after a one-sided turn "more" pages the side in force; the reader is not asked
    one_sided = resolve("just the case against", FIREWORKS).plan
    judge = _Judge("more", 0.9, reads_side=("pro", 0.99))
    found = _as_kind("more", 0.9, "only the ban camp", one_sided, judge)  # type: ignore[arg-type]
    assert found is not None and found.value == "con" and judge.sides_asked == []
    # a side the words name is read from the words; the reader is not asked
    judge = _Judge("one_side", 0.9, reads_side=("pro", 0.99))
    found = _as_kind("one_side", 0.9, "only the arguments against", FIREWORKS, judge)  # type: ignore[arg-type]
    assert found is not None and found.value == "con" and judge.sides_asked == []


@pytest.mark.parametrize(
    ("question", "turn", "edit", "side"),
    [
        # checked when written: the side reader gives con at P 0.77 and 0.72
        ("Should fireworks be banned?", "just the keep-them-legal people", "one_side", "con"),
        ("Should zoos be abolished?", "more from the save-the-zoos lot", "more", "con"),
    ],
)
def test_the_shipped_side_reader(question: str, turn: str, edit: str, side: str) -> None:
    found = resolve(turn, parse_rules(question), shared_judge())
    assert (found.edit, found.value) == (edit, side)
    assert "side reader" in found.rule


_SUGAR = "Should sugary drinks be taxed?"


@pytest.mark.parametrize(
    ("question", "turn", "edit", "value"),
    [
        # a reaction to the answer before the request is not the request
        (_SUGAR, "Wow, neat. What about the dentist angle?", "add_aspect", "dentist"),
        (_SUGAR, "Love this. I'm mostly curious about the dentist angle", "add_aspect", "dentist"),
        # a language said with a capital and a full stop is a language, not a source
        (
            _SUGAR,
            "Thanks! Only Spanish.",
            "add_constraint",
            {"dimension": "language", "value": "es", "negated": False},
        ),
        (
            _SUGAR,
            "I see. Only Portuguese sources.",
            "add_constraint",
            {"dimension": "language", "value": "pt", "negated": False},
        ),
        # a facet the user is curious or worried about, or asks what it does to
        (
            _SUGAR,
            "honestly I'm mostly wondering about the corner shop angle",
            "add_aspect",
            "corner shop",
        ),
        # a relative clause ends the facet; a population named by one is kept whole
        (
            _SUGAR,
            "so how would that hit low-income shoppers who buy in bulk",
            "add_aspect",
            "low-income shoppers",
        ),
        # a word of the topic right after the facet's own words is its head
        (
            _SUGAR,
            "could you look at how it plays out in rural shops, I live in a village",
            "add_aspect",
            "rural shops",
        ),
        # yes and no name sides when nothing else follows
        (_SUGAR, "only the yeses", "one_side", "pro"),
        # a claim named by the letter the answer shows it under
        (_SUGAR, "only claim B", "one_side", "con"),
        (_SUGAR, "just side A please", "one_side", "pro"),
        (_SUGAR, "more on side B", "more", "con"),
        (_SUGAR, "just the nos", "one_side", "con"),
        (_SUGAR, "more yes", "more", "pro"),
        # a group's view with a typo, or with the verb first
        (_SUGAR, "what do dentsts of the NHS think", "add_perspective", "dentsts of the NHS"),
        (_SUGAR, "what think the bottlers?", "add_perspective", "bottlers"),
        # the same request said twice, the second time in English: its last saying
        (_SUGAR, "et les enfants ? how does it affect children", "add_aspect", "children"),
    ],
)
def test_round_eight_rules(question: str, turn: str, edit: str, value: object) -> None:
    found = resolve(turn, parse_rules(question), shared_judge())
    assert found.follows and found.edit == edit, found
    if isinstance(value, str):
        assert found.value.lower() == value.lower()
    else:
        assert found.value == value


@pytest.mark.parametrize(
    ("turn", "facet"),
    [
        # read by the frame reader; the shipped turn-kind model is below the facet
        # threshold on both (P 0.52 and 0.69 when written), so the resolver does not take them
        ("my nephew drinks loads of cola, what would it do to kids' teeth?", "kids' teeth"),
        ("I'd be keen on the dimension of industry lobbying, if possible.", "industry lobbying"),
    ],
)
def test_round_eight_facet_frames(turn: str, facet: str) -> None:
    assert _framed_facet(followup.unwrap(turn), parse_rules(_SUGAR)) == facet


_TIPS = "Should tipping in restaurants be abolished?"


@pytest.mark.parametrize(
    ("question", "turn", "follows", "edit", "value"),
    [
        # a label that announces something new
        (_TIPS, "On a different note: do electric scooters cut traffic?", False, "new_topic", None),
        (_TIPS, "Separately, who invented the bicycle?", False, "new_topic", None),
        # "an" typed for "and" between two reference numbers ("wy" for "why" was dropped
        # as fitted to one development turn, issue 35 step 6)
        (_TIPS, "compare 2 an 5 for me", True, "compare_refs", [2, 5]),
        (_TIPS, "take away [4] please, it's an advert", True, "drop_ref", 4),
        # a Spanish view with an English tail
        (_TIPS, "¿y qué piensan los camareros about it?", True, "add_perspective", "camareros"),
        # an editor's verb for dropping a facet
        (
            _TIPS,
            "kill the wage theft angle, we ran it last week",
            True,
            "drop_aspect",
            "wage theft",
        ),
        # a side named by a verb of the other pole with the topic as its object
        (_TIPS, "only those who want to keep tipping", True, "one_side", "con"),
        (_TIPS, "just the people who want to scrap tipping", True, "one_side", "pro"),
    ],
)
def test_round_nine_rules(
    question: str, turn: str, follows: bool, edit: str, value: object
) -> None:
    found = resolve(turn, parse_rules(question), shared_judge())
    assert (found.follows, found.edit) == (follows, edit), found
    if isinstance(value, str):
        assert found.value.lower() == value.lower()
    elif value is not None:
        assert found.value == value


def test_a_facet_ends_before_would_be_worth_and_the_role_of_names_one() -> None:
    plan = parse_rules("Should cities plant more street trees?")
    assert _framed_facet("maybe the effect on pollen allergies would be worth a look", plan) == (
        "pollen allergies"
    )
    assert _framed_facet("think about the role of maintenance budgets", plan) == (
        "maintenance budgets"
    )


def test_a_verb_with_a_negated_object_names_no_side_by_the_verb() -> None:
    # "people who say walls don't work": the denial decides, not the topic's noun
    plan = parse_rules("Do border walls work?")
    found = resolve("more from the people who say walls don't work", plan, shared_judge())
    assert (found.edit, found.value) == ("more", "con")
