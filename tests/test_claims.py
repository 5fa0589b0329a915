"""Claims built from the question's own syntax (issue 34, item 3): golden table and checker.

The questions here are phrasings written for these tests, not taken from the
understand sets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.errors import DataError
from assistant.understand import make_claims, parse_rules
from assistant.understand.claim_check import check_claim, check_claims, is_labelled
from assistant.understand.claim_words import read_words, words
from assistant.understand.claims import labelled
from assistant.understand.declarative import negate, question_claims
from assistant.understand.language import claim_language

GOLDEN = [
    # yes/no and modal questions: the statement and its negation, placed by the parse
    (
        "Is learning Esperanto a waste of time?",
        "Learning Esperanto is a waste of time.",
        "Learning Esperanto is not a waste of time.",
    ),
    (
        "Should Python code raise exceptions instead of returning error codes?",
        "Python code should raise exceptions instead of returning error codes.",
        "Python code should not raise exceptions instead of returning error codes.",
    ),
    (
        "Does reading fiction improve empathy?",
        "Reading fiction improves empathy.",
        "Reading fiction does not improve empathy.",
    ),
    (
        "Did the invention of the telegraph change diplomacy?",
        "The invention of the telegraph changed diplomacy.",
        "The invention of the telegraph did not change diplomacy.",
    ),
    (
        "Can small towns survive without a high street?",
        "Small towns can survive without a high street.",
        "Small towns cannot survive without a high street.",
    ),
    (
        "Has streaming music hurt independent artists?",
        "Streaming music has hurt independent artists.",
        "Streaming music has not hurt independent artists.",
    ),
    (
        "Is it fair to tax sugary drinks?",
        "It is fair to tax sugary drinks.",
        "It is not fair to tax sugary drinks.",
    ),
    (
        "Are electric scooters safe on pavements?",
        "Electric scooters are safe on pavements.",
        "Electric scooters are not safe on pavements.",
    ),
    (
        "Shouldn't libraries stay open on Sundays?",
        "Libraries should stay open on Sundays.",
        "Libraries should not stay open on Sundays.",
    ),
    (
        "Will lab-grown diamonds replace mined ones?",
        "Lab-grown diamonds will replace mined ones.",
        "Lab-grown diamonds will not replace mined ones.",
    ),
    # alternatives: one claim each, the words they share copied
    (
        "Do video calls help or harm remote teams?",
        "Video calls help remote teams.",
        "Video calls harm remote teams.",
    ),
    (
        "Is nuclear fusion a realistic hope or a costly dream?",
        "Nuclear fusion is a realistic hope.",
        "Nuclear fusion is a costly dream.",
    ),
    (
        "Are standing desks good or bad for your back?",
        "Standing desks are good for your back.",
        "Standing desks are bad for your back.",
    ),
    (
        "Is homework useful, or is it a waste of evenings?",
        "Homework is useful.",
        "Homework is not useful.",
    ),
    ("Cats vs dogs: which is friendlier?", "Cats are friendlier.", "Dogs are friendlier."),
    (
        "Which is healthier, butter or margarine?",
        "Butter is healthier.",
        "Margarine is healthier.",
    ),
    # a topic set before its question; a label before a question
    (
        "Congestion charges: do they work?",
        "Congestion charges work.",
        "Congestion charges do not work.",
    ),
    (
        "Vegan diets - are they healthy?",
        "Vegan diets are healthy.",
        "Vegan diets are not healthy.",
    ),
    (
        "Quick question: should bosses read employees' emails?",
        "Bosses should read employees' emails.",
        "Bosses should not read employees' emails.",
    ),
    (
        "a wealth tax - good idea or not?",
        "A wealth tax is a good idea.",
        "A wealth tax is not a good idea.",
    ),
    # statements
    ("Cities should ban cars", "Cities should ban cars.", "Cities should not ban cars."),
    (
        "Remote work boosts productivity",
        "Remote work boosts productivity.",
        "Remote work does not boost productivity.",
    ),
    (
        "Zoos do not protect endangered species",
        "Zoos do not protect endangered species.",
        "Zoos protect endangered species.",
    ),
    # topics and requests: the never-wrong forms of claims.yaml
    (
        "pros and cons of congestion charging",
        "Congestion charging is beneficial overall.",
        "Congestion charging is harmful overall.",
    ),
    (
        "the debate over daylight saving time",
        "Daylight saving time is beneficial overall.",
        "Daylight saving time is harmful overall.",
    ),
    (
        "hydrogen buses",
        "Hydrogen buses are beneficial overall.",
        "Hydrogen buses are harmful overall.",
    ),
    (
        "keep chickens in the garden",
        "One should keep chickens in the garden.",
        "One should not keep chickens in the garden.",
    ),
    (
        "whether social media caused the rise in teen anxiety",
        "Social media caused the rise in teen anxiety.",
        "Social media did not cause the rise in teen anxiety.",
    ),
    (
        "the claim that bilingual children learn faster",
        "Bilingual children learn faster.",
        "Bilingual children do not learn faster.",
    ),
    # a title in Title Case is read in sentence case; names keep their capitals
    (
        "Are Electric Cars Better For The Environment?",
        "Electric cars are better for the environment.",
        "Electric cars are not better for the environment.",
    ),
    ("Remote Work – Blessing or Curse?", "Remote work is a blessing.", "Remote work is a curse."),
    # a sentence with a name of several words is not Title Case: a content word is small
    (
        "Should Lesotho be annexed by South Africa?",
        "Lesotho should be annexed by South Africa.",
        "Lesotho should not be annexed by South Africa.",
    ),
    (
        "Should the International Criminal Court be recognised?",
        "The International Criminal Court should be recognised.",
        "The International Criminal Court should not be recognised.",
    ),
    ("Time: linear or cyclical?", "Time is linear.", "Time is cyclical."),
    # one typing slip in the opening auxiliary
    (
        "shoudl schools teach coding",
        "Schools should teach coding.",
        "Schools should not teach coding.",
    ),
]


@pytest.mark.parametrize(("text", "pro", "con"), GOLDEN)
def test_golden_claims(text: str, pro: str, con: str) -> None:
    assert make_claims(text, "two_sided") == (pro, con)


@pytest.mark.parametrize(("text", "pro", "con"), GOLDEN)
def test_golden_claims_pass_the_checker(text: str, pro: str, con: str) -> None:
    assert all(c.ok for c in check_claims(text, (pro, con)))


# subjects and openings the parse reads beyond a plain noun phrase
SUBJECTS = [
    # modal 'ought' keeps its 'to' after it
    (
        "Ought wealthy nations to accept more refugees?",
        "Wealthy nations ought to accept more refugees.",
        "Wealthy nations ought not to accept more refugees.",
    ),
    (
        "Ought the minimum wage to be raised?",
        "The minimum wage ought to be raised.",
        "The minimum wage ought not to be raised.",
    ),
    (
        "Ought we to eat less meat?",
        "We ought to eat less meat.",
        "We ought not to eat less meat.",
    ),
    (
        "Ought not judges to be elected?",
        "Judges ought to be elected.",
        "Judges ought not to be elected.",
    ),
    # a relative clause on the subject's noun
    (
        "Should students who cheat on exams be expelled?",
        "Students who cheat on exams should be expelled.",
        "Students who cheat on exams should not be expelled.",
    ),
    (
        "Should landlords who refuse tenants with pets be fined?",
        "Landlords who refuse tenants with pets should be fined.",
        "Landlords who refuse tenants with pets should not be fined.",
    ),
    (
        "Do children whose parents read to them learn faster?",
        "Children whose parents read to them learn faster.",
        "Children whose parents read to them do not learn faster.",
    ),
    (
        "Can a company that avoids taxes be ethical?",
        "A company that avoids taxes can be ethical.",
        "A company that avoids taxes cannot be ethical.",
    ),
    (
        "Should people who can afford it pay more for healthcare?",
        "People who can afford it should pay more for healthcare.",
        "People who can afford it should not pay more for healthcare.",
    ),
    (
        "Should a country that invades another be expelled from the UN?",
        "A country that invades another should be expelled from the UN.",
        "A country that invades another should not be expelled from the UN.",
    ),
    (
        "Are children who play video games more aggressive?",
        "Children who play video games are more aggressive.",
        "Children who play video games are not more aggressive.",
    ),
    # an infinitive with its 'to' on the subject's noun
    (
        "Should the power to declare war rest with parliament?",
        "The power to declare war should rest with parliament.",
        "The power to declare war should not rest with parliament.",
    ),
    (
        "Is the urge to check your phone a form of addiction?",
        "The urge to check your phone is a form of addiction.",
        "The urge to check your phone is not a form of addiction.",
    ),
    (
        "Does the ability to work from home improve wellbeing?",
        "The ability to work from home improves wellbeing.",
        "The ability to work from home does not improve wellbeing.",
    ),
    (
        "Is the best way to learn a language immersion?",
        "The best way to learn a language is immersion.",
        "The best way to learn a language is not immersion.",
    ),
    # quotation marks around a name in the subject
    (
        "Should 'Mein Kampf' be sold in bookshops?",
        "'Mein Kampf' should be sold in bookshops.",
        "'Mein Kampf' should not be sold in bookshops.",
    ),
    (
        "Is 'Citizen Kane' the greatest film ever made?",
        "'Citizen Kane' is the greatest film ever made.",
        "'Citizen Kane' is not the greatest film ever made.",
    ),
    (  # a title that opens the claim starts with a capital inside its quotes
        "Should 'the Odyssey' be read in primary school?",
        "'The Odyssey' should be read in primary school.",
        "'The Odyssey' should not be read in primary school.",
    ),
    (
        'Should the film "Joker" have been rated R?',
        'The film "Joker" should have been rated R.',
        'The film "Joker" should not have been rated R.',
    ),
    # a clause set before the question
    (
        "If a vaccine is safe, should it be mandatory?",
        "If a vaccine is safe, it should be mandatory.",
        "If a vaccine is safe, it should not be mandatory.",
    ),
    (
        "Unless they consent, should adults be screened for cancer?",
        "Unless they consent, adults should be screened for cancer.",
        "Unless they consent, adults should not be screened for cancer.",
    ),
    (
        "Although tuition is expensive, is university worth it?",
        "Although tuition is expensive, university is worth it.",
        "Although tuition is expensive, university is not worth it.",
    ),
    (
        "Since fossil fuels are finite, should Britain invest in nuclear power?",
        "Since fossil fuels are finite, Britain should invest in nuclear power.",
        "Since fossil fuels are finite, Britain should not invest in nuclear power.",
    ),
]


@pytest.mark.parametrize(("text", "pro", "con"), SUBJECTS)
def test_subjects_with_clauses_names_and_openings(text: str, pro: str, con: str) -> None:
    assert make_claims(text, "two_sided") == (pro, con)
    assert all(c.ok for c in check_claims(text, (pro, con)))


def test_a_double_quoted_name_stays_in_the_claims_of_a_plan() -> None:
    # the quoted name is a keyword filter, cut from the root text, and the question's subject
    plan = parse_rules('Should "Huckleberry Finn" be removed from libraries?')
    assert plan.claims == (
        '"Huckleberry Finn" should be removed from libraries.',
        '"Huckleberry Finn" should not be removed from libraries.',
    )


def test_to_follows_no_auxiliary_but_ought() -> None:
    # "The freedom should to protest …" was kept: the subject holds the infinitive
    assert question_claims("Should the freedom to assemble be protected?") == (
        "The freedom to assemble should be protected.",
        "The freedom to assemble should not be protected.",
    )
    assert negate("Schools ought to teach logic") == "Schools ought not to teach logic"


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        # the small model tags every word after "Should the …" a noun; its tagger still
        # thinks the verb the likelier verb of the two ("cap", not "drug")
        ("Should the government cap drug prices?", "The government should cap drug prices."),
        ("Should the city fund bike lanes?", "The city should fund bike lanes."),
        ("Should the state tax sugar drinks?", "The state should tax sugar drinks."),
        ("Should the public sector pay staff more?", "The public sector should pay staff more."),
    ],
)
def test_a_verb_the_question_parse_reads_as_a_noun(question: str, subject: str) -> None:
    pro, con = question_claims(question) or ("", "")
    assert pro == subject
    assert con == subject.replace(" should ", " should not ")


def test_verb_probabilities_follow_the_parse_s_tokens() -> None:
    from assistant.understand.parse import parse, verb_probabilities

    q = "Should the school board ban phone use?"
    p = verb_probabilities(q)
    assert len(p) == len(parse(q))
    assert all(0.0 <= x <= 1.0 for x in p)
    assert max(range(len(p)), key=p.__getitem__) == 4  # "ban"


def test_a_question_behind_a_clause_no_rule_reads_is_labelled() -> None:
    text = "When a species is endangered, should hunting it be banned?"
    assert make_claims(text, "two_sided") == labelled(text, "en")


@pytest.mark.parametrize(
    ("text", "language", "yes", "no"),
    [
        ("¿Deberían ser obligatorios los uniformes escolares?", "es", "Sí — ", "No — "),
        ("Faut-il interdire les voitures dans les centres-villes ?", "fr", "Oui — ", "Non — "),
        ("Sollten Hausaufgaben abgeschafft werden?", "de", "Ja — ", "Nein — "),
    ],
)
def test_another_language_gets_the_never_wrong_form(
    text: str, language: str, yes: str, no: str
) -> None:
    assert claim_language(text) == language
    assert make_claims(text, "two_sided") == (yes + text, no + text)


def test_labelled_forms() -> None:
    assert labelled("teletrabajo", "") == ("For — teletrabajo", "Against — teletrabajo")
    assert labelled("Is it?", "en") == ("Yes — Is it?", "No — Is it?")
    # an English question that is no yes/no question is not answered yes or no
    assert labelled("What makes bread rise?", "en")[0] == "For — What makes bread rise?"
    assert is_labelled("Sí — ¿Debería …?") and not is_labelled("Zoos should close.")


def test_short_english_topics_are_english() -> None:
    # too short for langid.py, which reads them as French and Dutch
    for text in ("rent control", "zoos", "school vouchers"):
        assert claim_language(text) == "en", text
    assert claim_language("原子力発電の賛否") == ""


def test_factual_questions_have_no_claims() -> None:
    assert make_claims("Who wrote Middlemarch?", "factual") == ("", "")


def test_no_template_words_reach_a_plan() -> None:
    for q in (
        "Should governments regulate artificial intelligence?",
        "What are the arguments on both sides of the tipping debate?",
        "pros and cons of nuclear power",
        "Is een suikertaks een goed idee?",
        "What harm can homeopathy do?",
    ):
        pro, con = parse_rules(q).claims
        for claim in (pro, con):
            low = claim.lower()
            assert not any(t in low for t in words().template_words), (q, claim)


@pytest.mark.parametrize(
    ("claim", "question", "why"),
    [
        ("Should we ban cars?", "Should we ban cars?", "a question mark"),
        ("Should we ban cars.", "Should we ban cars?", "a question's word order"),
        ("Arguments in favour of cars.", "cars", "no finite verb"),
        ("We support the claim that cars are good.", "cars", ""),
        ("Yes — ¿Debería …?", "¿Debería …?", "labelled"),
    ],
)
def test_checker_catches_what_is_no_claim(claim: str, question: str, why: str) -> None:
    check = check_claim(claim, question)
    assert not check.ok
    assert why in check.reason


def test_an_inverted_claim_is_no_statement_even_framed() -> None:
    # read framed ("They say that should …") the frame's "that" must not count as its subject
    check = check_claim("Should child performers be banned.", "Are zoos cruel?")
    assert not check.declarative and "word order" in check.reason
    assert check_claim("Zoos protect endangered species.", "Are zoos cruel?").declarative


def test_checker_flags_template_words_and_repeats() -> None:
    assert check_claim("We support the claim that cars are good.", "x").template
    repeated = check_claim("Yes, should cities ban cars.", "Should cities ban cars?")
    assert repeated.repeats_question and not repeated.ok
    # a statement typed as the question is its own pro claim, not a repeat
    assert check_claim("Cities should ban cars.", "Cities should ban cars").ok


def test_negation_is_placed_by_the_parse() -> None:
    assert negate("Cannabis should be legalised") == "Cannabis should not be legalised"
    assert negate("Animals have rights") == "Animals do not have rights"
    assert negate("The vote was close") == "The vote was not close"
    assert negate("What does the law protect against") is None  # a question, no statement
    assert question_claims("Is?") is None


def test_claim_words_are_validated() -> None:
    data = words().model_dump()
    bad = json.loads(json.dumps(data))
    bad["lead_ins"] = [*bad["lead_ins"], "What About"]
    with pytest.raises(DataError, match="lead_ins"):
        read_words(bad)
    bad = json.loads(json.dumps(data))
    bad["topic_frames"] = [*bad["topic_frames"], bad["topic_frames"][0]]
    with pytest.raises(DataError, match="listed twice"):
        read_words(bad)
    bad = json.loads(json.dumps(data))
    bad["labels"]["xx"] = bad["labels"]["en"]
    with pytest.raises(DataError, match="unknown language"):
        read_words(bad)
    bad = json.loads(json.dumps(data))
    bad["forms"]["noun_phrase"]["pro"] = "Good."
    with pytest.raises(DataError, match="topic"):
        read_words(bad)


def test_eval_claims_reports_every_group(tmp_path: Path) -> None:
    from assistant.eval.claims import run_claims

    rows = [
        {
            "id": "t-1",
            "family": "debate",
            "question": "Should museums be free?",
            "intent": "two_sided",
        },
        {
            "id": "t-2",
            "family": "factual",
            "question": "Who built the Eiffel Tower?",
            "intent": "factual",
        },
        {
            "id": "t-3",
            "family": "non_english",
            "question": "¿Deberían ser gratis los museos?",
            "intent": "two_sided",
        },
    ]
    data = tmp_path / "set.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    report = run_claims(data)
    groups = report["groups"]
    assert groups["debates"] == {**groups["debates"], "n": 1, "ok": 100.0}
    assert groups["yes_no"]["n"] == 1 and groups["yes_no"]["ok"] == 100.0
    assert groups["non_english"]["labelled"] == 100.0
    assert groups["all"]["n"] == 2  # the factual question has no claims to check
    assert [f["id"] for f in report["failures"]] == ["t-3"]
    assert report["parser_load_seconds"] >= 0.0


def test_a_side_noun_in_a_yes_no_question_s_predicate_is_asked_about() -> None:
    # "a defence of X" after the subject is part of the proposition, not "in defence of X"
    plan = parse_rules("Should the ICC allow a defence of duress to the crime of piracy?")
    assert plan.intent == "two_sided"
    assert plan.claims == (
        "The ICC should allow a defence of duress to the crime of piracy.",
        "The ICC should not allow a defence of duress to the crime of piracy.",
    )
    # a pronoun as the subject asks for one side still
    assert parse_rules("Can you give me a defence of nuclear power?").intent == "one_sided"


def test_a_yes_no_question_behind_a_clause_is_not_a_request_for_one_side() -> None:
    # "worry about" is a stance verb in "What should I worry about with X"; behind "If …,"
    # the auxiliary still opens the question, so it asks yes or no
    plan = parse_rules("If costs rise, should we worry about inflation?")
    assert plan.intent == "two_sided"
    assert plan.claims == (
        "If costs rise, we should worry about inflation.",
        "If costs rise, we should not worry about inflation.",
    )


@pytest.mark.parametrize(
    ("question", "opposite"),
    [
        (
            "Do innocent people have nothing to fear from surveillance?",
            "Innocent people have something to fear from surveillance.",
        ),
        ("Is there no alternative to austerity?", "There is some alternative to austerity."),
        ("Should no one be above the law?", "Someone should be above the law."),
        (
            "Should we never negotiate with terrorists?",
            "We should sometimes negotiate with terrorists.",
        ),
        ("Is socialism no longer relevant?", "Socialism is still relevant."),
        (
            "If you have done nothing wrong, do you have nothing to worry about from surveillance?",
            "If you have done nothing wrong, you have something to worry about from surveillance.",
        ),
        # a negative word in a clause of its own or under another verb is not the claim's
        (
            "Should people who never vote lose benefits?",
            "People who never vote should not lose benefits.",
        ),
        (
            "Is it better to have no elections than sham elections?",
            "It is not better to have no elections than sham elections.",
        ),
        # a question that says "not" already is opposed without it
        ("Should schools not ban phones?", "Schools should ban phones."),
        ("Do zoos not help animals?", "Zoos help animals."),
    ],
)
def test_a_claim_that_says_no_is_opposed_without_a_double_negative(
    question: str, opposite: str
) -> None:
    pro, con = parse_rules(question).claims
    assert con == opposite
    assert " not not " not in pro + con and "not have nothing" not in con


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # B ends where the words about the question begin
        (
            "homeschooling vs traditional school - what does each side say",
            ("Homeschooling is better.", "Traditional school is better."),
        ),
        (
            "Remote work vs office work: pros and cons?",
            ("Remote work is better.", "Office work is better."),
        ),
        # B's head is shared only with an A that modifies it as B's first word does
        (
            "Public vs private schools",
            ("Public schools are better.", "Private schools are better."),
        ),
        ("Electric vs petrol cars", ("Electric cars are better.", "Petrol cars are better.")),
        # a wh-phrase cue ("What harm") leaves a question's remnant: its subject is the topic
        (
            "What harm can homeopathy do?",
            ("Homeopathy is beneficial overall.", "Homeopathy is harmful overall."),
        ),
        # "whats" is a wh-word as typed
        (
            "whats the best argument for keeping the monarchy",
            (
                "Keeping the monarchy is beneficial overall.",
                "Keeping the monarchy is harmful overall.",
            ),
        ),
    ],
)
def test_claims_of_comparisons_and_wh_phrase_cues(question: str, claims: tuple[str, str]) -> None:
    assert parse_rules(question).claims == claims
    assert all(c.ok for c in check_claims(question, claims))


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # a root too short to tell its language takes the question's
        (
            "Explain to a teenager why vaping is harmful",
            ("Vaping is beneficial overall.", "Vaping is harmful overall."),
        ),
        (
            "arguments against banning tiktok",
            ("Banning tiktok is beneficial overall.", "Banning tiktok is harmful overall."),
        ),
        ("Nachteile von Elektroautos", ("Dafür — Elektroautos", "Dagegen — Elektroautos")),
        ("waarom zijn mensen tegen windmolens", ("Voor — windmolens", "Tegen — windmolens")),
    ],
)
def test_a_short_root_is_in_its_question_s_language(question: str, claims: tuple[str, str]) -> None:
    assert parse_rules(question).claims == claims
    assert make_claims("vaping", "one_sided") == ("For — vaping", "Against — vaping")


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # a question about a view debates the view's clause, not that someone holds it
        (
            "why do brexiteers think EU membership was bad for Britain",
            ("EU membership was bad for Britain.", "EU membership was not bad for Britain."),
        ),
        (
            "Why do critics say nuclear power is too expensive?",
            ("Nuclear power is too expensive.", "Nuclear power is not too expensive."),
        ),
        (
            "Why do people believe homework is useless?",
            ("Homework is useless.", "Homework is not useless."),
        ),
        (
            "Did Trump say the election was stolen?",
            ("The election was stolen.", "The election was not stolen."),
        ),
        # not an opinion verb: a question of consensus keeps its holders
        (
            "Do experts agree that coffee is healthy?",
            (
                "Experts agree that coffee is healthy.",
                "Experts do not agree that coffee is healthy.",
            ),
        ),
        # an opinion verb without a clause is asked as it is
        (
            "Does the public believe in ghosts?",
            ("The public believes in ghosts.", "The public does not believe in ghosts."),
        ),
    ],
)
def test_a_question_about_a_view_debates_its_clause(question: str, claims: tuple[str, str]) -> None:
    assert parse_rules(question).claims == claims
    assert all(c.ok for c in check_claims(question, claims))


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # the asker's own view, or a debate motion's house: the claim is the view's clause
        (
            "This House believes that Eritrea is responsible for its isolation",
            (
                "Eritrea is responsible for its isolation.",
                "Eritrea is not responsible for its isolation.",
            ),
        ),
        (
            "This House believes Europe still needs a constitution",
            ("Europe still needs a constitution.", "Europe still does not need a constitution."),
        ),
        (
            "I think homework helps students learn",
            ("Homework helps students learn.", "Homework does not help students learn."),
        ),
        (
            "We believe zoos should be closed",
            ("Zoos should be closed.", "Zoos should not be closed."),
        ),
        # a motion without an opinion verb is debated as worded, never looked up
        (
            "This House supports security profiling at airports",
            (
                "This House supports security profiling at airports.",
                "This House does not support security profiling at airports.",
            ),
        ),
        # an aside in brackets is a note on the question, not the question
        (
            "Every child should have a mobile phone. (Junior)",
            (
                "Every child should have a mobile phone.",
                "Every child should not have a mobile phone.",
            ),
        ),
        # "cannot" makes a clause (not a lookup), and its negation keeps the space
        (
            "Governments cannot be trusted with our data",
            (
                "Governments cannot be trusted with our data.",
                "Governments can be trusted with our data.",
            ),
        ),
    ],
)
def test_a_stated_view_or_motion_debates_its_claim(question: str, claims: tuple[str, str]) -> None:
    plan = parse_rules(question)
    assert plan.intent == "two_sided"
    assert plan.claims == claims
    assert all(c.ok for c in check_claims(question, claims))
