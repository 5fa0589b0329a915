"""Follow-ups resolved against the previous plan (assistant.understand.followup), and
``sphere eval conversation`` on a small set. Examples written for this file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.errors import DataError, InputError
from assistant.eval.conversation import run_conversation
from assistant.understand import parse_rules
from assistant.understand.cues import split_words
from assistant.understand.dialogues import load_dialogues
from assistant.understand.followup import EDITS, resolve

PREV = parse_rules("Should cities ban cars from their centres?")


@pytest.mark.parametrize(
    ("text", "edit", "value"),
    [
        ("what about the noise?", "add_aspect", None),
        ("and jobs?", "add_aspect", "jobs"),
        ("how does that affect shop owners?", "add_aspect", "shop owners"),
        ("forget the cost bit", "drop_aspect", "cost"),
        (
            "only articles in German",
            "add_constraint",
            {"dimension": "language", "value": "de", "negated": False},
        ),
        (
            "nothing from blogs please",
            "add_constraint",
            {"dimension": "source", "value": "blog", "negated": True},
        ),
        ("just the case against", "one_side", "con"),
        ("ok only the supporters", "one_side", "pro"),
        ("what do cyclists think?", "add_perspective", "cyclists"),
        ("and from the drivers' point of view?", "add_perspective", "drivers"),
        ("show me more", "more", "both"),
        ("any more against?", "more", "con"),
        ("why is [8] under Claim B?", "explain_ref", 8),
        ("compare [2] and [8]", "compare_refs", [2, 8]),
        ("drop [5]", "drop_ref", 5),
    ],
)
def test_follow_ups_edit_the_previous_plan(text: str, edit: str, value: object) -> None:
    r = resolve(text, PREV)
    assert (r.follows, r.edit) == (True, edit)
    if value is not None:
        assert r.value == value
    if r.plan is not None:
        assert r.plan.root_query == PREV.root_query  # the topic is kept
        assert r.changes


def test_the_edit_is_applied_and_nothing_else_changes() -> None:
    r = resolve("only articles in German", PREV)
    assert r.plan is not None
    before, after = PREV.to_dict(), r.plan.to_dict()
    assert after["constraints"][-1]["value"] == "de"
    # the plan says how it was derived, as the thread records it ("edit: changes")
    assert after["derivation"] == "add_constraint: + constraint language de"
    after["constraints"], after["derivation"] = before["constraints"], before["derivation"]
    assert after == before
    r = resolve("more from the other side", resolve("just the case for", PREV).plan)
    assert (r.edit, r.value) == ("more", "con")


@pytest.mark.parametrize(
    "text",
    [
        "Is nuclear power safe?",
        "what about nuclear power then?",  # another topic, not a facet of cars in cities
        "Why do critics oppose congestion charges in London?",
        "best vegetarian lasagne recipe",
    ],
)
def test_a_topic_of_its_own_starts_a_new_thread(text: str) -> None:
    r = resolve(text, PREV)
    assert (r.follows, r.edit, r.plan) == (False, "new_topic", None)


def test_eval_conversation_scores_a_small_set(tmp_path: Path) -> None:
    rows = [
        {
            "id": "c1",
            "turns": [
                {"text": "Should cities ban cars?"},
                {
                    "text": "what about jobs?",
                    "expect": {"follows": True, "edit": "add_aspect", "value": "jobs"},
                },
                {
                    "text": "Is coffee healthy?",
                    "expect": {"follows": False, "edit": "new_topic", "value": None},
                },
            ],
        }
    ]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    r = run_conversation(p)["methods"]["rules"]
    assert r["turns"] == 2 and r["resolved_plan_acc"] == 100.0 and r["new_topic_as_followup"] == 0.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "turns": [{"text": "q"}, {"text": "a"}]}) + "\n")
    with pytest.raises(DataError, match="turn 2 needs"):
        load_dialogues(bad)
    from assistant.commands.context import Context
    from assistant.commands.eval_cmd import eval_group

    res = CliRunner().invoke(
        eval_group, ["conversation", "--data", str(p), "--json"], obj=Context(None)
    )
    assert res.exit_code == 0 and json.loads(res.output)["dialogues"] == 1
    # several sets, one report each
    res = CliRunner().invoke(
        eval_group,
        ["conversation", "--data", str(p), "--data", str(p), "--json"],
        obj=Context(None),
    )
    assert res.exit_code == 0
    sets = json.loads(res.output)["sets"]
    assert [s["dialogues"] for s in sets] == [1, 1]
    res = CliRunner().invoke(
        eval_group, ["conversation", "--data", str(p), "--data", str(p)], obj=Context(None)
    )
    # two methods (rules alone, and with the embedder's facet judgment) for each set
    assert res.exit_code == 0 and res.output.count("resolved plan 100.0 %") == 4
    assert res.output.count("sphere: ") == 2


@pytest.mark.parametrize(
    "name",
    [
        "conversation_dev.jsonl",
        "conversation_dev2.jsonl",
        "conversation_dev3.jsonl",
        "conversation_dev4.jsonl",
        "conversation_dev5.jsonl",
        "conversation_dev6.jsonl",
        "conversation_dev7.jsonl",
        "conversation_dev8.jsonl",
        "conversation_dev9.jsonl",
        "conversation_dev10.jsonl",
        "conversation_dev11.jsonl",
        "conversation_dev12.jsonl",
        "conversation_dev13.jsonl",
        "conversation_dev14.jsonl",
        "conversation_test.jsonl",
        "conversation_test2.jsonl",
        "conversation_test3.jsonl",
        "conversation_test4.jsonl",
        "conversation_test5.jsonl",
        "conversation_test6.jsonl",
        "conversation_test7.jsonl",
        "conversation_test8.jsonl",
    ],
)
def test_the_shipped_dialogue_sets_load(name: str) -> None:
    dialogues = load_dialogues(Path(__file__).parent / "data" / name)
    assert len(dialogues) >= 60
    for d in dialogues:
        for t in d["turns"][1:]:
            assert t["expect"]["follows"] == (t["expect"]["edit"] != "new_topic"), d["id"]


def test_a_follow_up_searches_its_topic_and_added_facets_not_its_own_words() -> None:
    from assistant.retrieval.retriever import plan_queries
    from assistant.thread import continue_plan
    from assistant.understand import parse_rules

    first = parse_rules("Should school uniforms be mandatory?")
    _, more = continue_plan("show me more", first, 1)
    _, cost = continue_plan("what about the cost?", first, 1)
    _, teachers = continue_plan("what do teachers say?", first, 1)
    _, spanish = continue_plan("only documents in Spanish", first, 1)
    assert more is not None and cost is not None and teachers is not None and spanish is not None
    assert plan_queries(more).topic == plan_queries(first).topic  # the same ranking, paged
    assert not any("more" in t for t in plan_queries(more).texts)
    assert plan_queries(cost).topic[0] == "Should school uniforms be mandatory? cost"
    assert plan_queries(teachers).topic[0].endswith("teachers")
    assert not any("Spanish" in t for t in plan_queries(spanish).topic)
    assert first.search_question() == first.question  # a first turn searches its question


# --------------------------------------------------------------------------- mechanisms


def _read(first: str, text: str) -> tuple[bool, str, object]:
    r = resolve(text, parse_rules(first))
    return r.follows, r.edit, r.value


LANG_DE = {"dimension": "language", "value": "de", "negated": False}


@pytest.mark.parametrize(
    ("text", "edit", "value"),
    [
        # cue words with two letters swapped, informal spellings
        ("wat about teh cost?", "add_aspect", "cost"),
        ("remvoe [3]", "drop_ref", 3),
        ("shwo me more", "more", "both"),
        # follow-ups in Spanish, German and French
        ("nur auf Deutsch bitte", "add_constraint", LANG_DE),
        ("¿qué opinan los médicos?", "add_perspective", "médicos"),
        ("qu'en pensent les agriculteurs ?", "add_perspective", "agriculteurs"),
        ("was sagen Ökonomen dazu?", "add_perspective", "Ökonomen"),
        ("quita la [3]", "drop_ref", 3),
        ("nur die Gegenargumente", "one_side", "con"),
        ("und die Kosten?", "add_aspect", "Kosten"),
        ("más, por favor", "more", "both"),
        # a number with a unit is a quantity, not a reference; ordinals are references
        (
            "under 800 words pls",
            "add_constraint",
            {"dimension": "length", "value": "<800", "negated": False},
        ),
        ("where does 4 come from", "explain_ref", 4),
        ("how does 5 differ from 8", "compare_refs", [5, 8]),
        ("can you remove the second source", "drop_ref", 2),
        # a constraint's value alone with its scope word
        (
            "spanish only",
            "add_constraint",
            {"dimension": "language", "value": "es", "negated": False},
        ),
        (
            "just transcripts",
            "add_constraint",
            {"dimension": "format", "value": "transcript", "negated": False},
        ),
        (
            "shorter ones",
            "add_constraint",
            {"dimension": "length", "value": "short", "negated": False},
        ),
        (
            "no opinion pieces",
            "add_constraint",
            {"dimension": "source", "value": "opinion pieces", "negated": True},
        ),
        (
            "Could you stick to clinical trials?",
            "add_constraint",
            {"dimension": "source", "value": "clinical trials", "negated": False},
        ),
        (
            "keep it simple for a general reader",
            "add_constraint",
            {"dimension": "audience", "value": "general", "negated": False},
        ),
        # one side: a stance verb about the previous topic, a view word with "only"
        ("and why do people oppose it?", "one_side", "con"),
        ("the sceptical view only", "one_side", "con"),
        ("solo los contras", "one_side", "con"),
        # a stance verb whose subject is a group asks for the group's view
        ("what do dietitians recommend", "add_perspective", "dietitians"),
        ("I would welcome a journalist's point of view.", "add_perspective", "journalist"),
        ("landlords?", "add_perspective", "landlords"),
        # a facet after a request to narrow, or with a pointer back
        (
            "Please confine the analysis to the employment effects.",
            "add_aspect",
            "employment effects",
        ),
        ("What about the stress it causes?", "add_aspect", "stress it causes"),
        ("how does a ban like this affect local shop owners?", "add_aspect", "local shop owners"),
        ("what about in Berlin", "add_aspect", "Berlin"),
        # facet nouns of debates in general; a quality noun
        ("and bullying?", "add_aspect", "bullying"),
        ("and radiation levels?", "add_aspect", "radiation levels"),
        ("what about affordability", "add_aspect", "affordability"),
        (
            "no news articles",
            "add_constraint",
            {"dimension": "source", "value": "news", "negated": True},
        ),
        # long polite wrappers
        (
            "I was wondering whether you might be able to show me only material in German?",
            "add_constraint",
            LANG_DE,
        ),
        (
            "Much appreciated! Would you be able to tell me what bus drivers make of all this?",
            "add_perspective",
            "bus drivers",
        ),
        ("Thank you kindly. Might you show me some more, when you have a moment?", "more", "both"),
        # more phrasings of the same edits
        ("no [6] please", "drop_ref", 6),
        ("do 3 and 4 contradict each other?", "compare_refs", [3, 4]),
        ("noch mehr Argumente dagegen", "more", "con"),
        ("show me the rest", "more", "both"),
        ("switch to the arguments against", "one_side", "con"),
        ("now the arguments in favour", "one_side", "pro"),
        ("¿y el coste para el estado?", "add_aspect", "coste para el estado"),
        ("et les syndicats, ils en pensent quoi ?", "add_perspective", "syndicats"),
        ("any other arguments?", "more", "both"),
        ("I'd like to know more about the impact on jobs", "add_aspect", "impact on jobs"),
        ("please don't include the noise stuff", "drop_aspect", "noise"),
        ("What's the difference between sources 2 and 5?", "compare_refs", [2, 5]),
    ],
)
def test_mechanisms_read_follow_ups(text: str, edit: str, value: object) -> None:
    assert _read("Should cities ban cars from their centres?", text) == (True, edit, value)


@pytest.mark.parametrize(
    ("first", "text"),
    [
        # a sibling: shares a word with the previous topic and adds one of its own
        ("Is inheritance tax fair?", "what about wealth taxes?"),
        ("Tax meat?", "tax sugar?"),
        ("causes of the french revolution", "and the russian revolution?"),
        # the slot the previous topic filled, filled differently
        ("Is tap water safe to drink in Mexico City?", "and in Lima?"),
        ("Is fast charging bad for phone batteries?", "and for laptop batteries?"),
        # neither a facet nor a person ("-ers" alone does not make people)
        ("should pit bulls be banned", "what about rottweilers"),
        (
            "Should ChatGPT be allowed in university exams?",
            "what about calculators in maths exams?",
        ),
        # a predicate of its own, however it starts
        ("Should school uniforms be compulsory?", "And is homeschooling better?"),
        ("is red meat bad for your heart", "and what about eggs, are they bad too?"),
        ("Should cities ban cars from their centres?", "what do economists think about tariffs?"),
        ("Should cities ban cars from their centres?", "is 5 a prime number?"),
        ("Is homework good for kids?", "Thanks! And should alcohol be taxed more heavily too?"),
        ("Should the drinking age be 21?", "in Europe it's 18 right?"),
        ("Should the drinking age be 21?", "Und das Wahlalter?"),  # "das" is an article here
    ],
)
def test_siblings_and_questions_of_their_own_are_new_topics(first: str, text: str) -> None:
    assert _read(first, text)[:2] == (False, "new_topic")


@pytest.mark.parametrize(
    ("first", "text", "edit", "value"),
    [
        # spoken fillers; reference numbers spelled out, never "repaired" into cue words
        ("Should cities ban cars?", "uh so like what about the noise", "add_aspect", "noise"),
        ("Should cities ban cars?", "um compare four and nine", "compare_refs", [4, 9]),
        ("Should cities ban cars?", "explain why number three is there", "explain_ref", 3),
        ("Should cities ban cars?", "compare these two: 2 and 6", "compare_refs", [2, 6]),
        ("Should cities ban cars?", "Pull [2], it reads like an advert.", "drop_ref", 2),
        # a side named by a verb of the topic or its opposite, or by denying the claim
        ("Should zoos be abolished?", "just the side that says keep them", "one_side", "con"),
        ("Do speed cameras work?", "only the ones which say they don't work", "one_side", "con"),
        ("Do speed cameras work?", "more material arguing that they do not", "more", "con"),
        ("Should zoos be abolished?", "Can I read only the case for the ban?", "one_side", "pro"),
        # a question about the topic through a pronoun asks about a facet
        ("Should cities ban cars?", "is it even legal though?", "add_aspect", "legal"),
        (
            "Are e-bikes worth it?",
            "are they expensive to insure?",
            "add_aspect",
            "expensive to insure",
        ),
        ("Should cities ban cars?", "Does air quality come into it?", "add_aspect", "air quality"),
        (
            "Should cities ban cars?",
            "what about people with disabilities",
            "add_aspect",
            "people with disabilities",
        ),
        ("Should cities ban cars?", "what about the delivery part", "add_aspect", "delivery"),
        ("Should cities ban cars?", "e gli anziani?", "add_aspect", "anziani"),
        # a request beside a short comment on the answer
        (
            "Should cities ban cars?",
            "these are too dense, only the short ones",
            "add_constraint",
            {"dimension": "length", "value": "short", "negated": False},
        ),
        (
            "Should cities ban cars?",
            "I don't want the articles from the blogs",
            "add_constraint",
            {"dimension": "source", "value": "blog", "negated": True},
        ),
        (
            "Should cities ban cars?",
            "anything that isn't in English?",
            "add_constraint",
            {"dimension": "language", "value": "en", "negated": True},
        ),
        (
            "Should cities ban cars?",
            "Are there any FAQs on this?",
            "add_constraint",
            {"dimension": "format", "value": "faq", "negated": False},
        ),
        (
            "Should cities ban cars?",
            "Do cyclists have a view on this?",
            "add_perspective",
            "cyclists",
        ),
        ("Should cities ban cars?", "what about the drivers opinion", "add_perspective", "drivers"),
        (
            "Should cities ban cars?",
            "Quotes from urban planners?",
            "add_perspective",
            "urban planners",
        ),
    ],
)
def test_round_four_mechanisms(first: str, text: str, edit: str, value: object) -> None:
    assert _read(first, text) == (True, edit, value)


@pytest.mark.parametrize(
    ("first", "text"),
    [
        ("Should Amsterdam limit new hotels?", "and in Lisbon?"),
        ("Should zoos be abolished?", "um forget that, should circuses use animals"),
        ("Should zoos be abolished?", "is it ethical to keep octopuses as pets?"),
        ("Should zoos be abolished?", "what about aquariums, should they close too?"),
        ("Should zoos be abolished?", "ok, is it true that wolves are returning to Europe?"),
    ],
)
def test_round_four_new_topics(first: str, text: str) -> None:
    assert _read(first, text)[:2] == (False, "new_topic")


def test_courtesy_and_reasons_are_set_aside() -> None:
    first = "is a gap year a good idea"
    text = "Thank you so much, that is very helpful. Could you drop [2]? It looks like an advert."
    assert _read(first, text) == (True, "drop_ref", 2)
    text = "Wonderful. Could you leave out blogs? My teacher doesn't accept them."
    assert _read(first, text) == (
        True,
        "add_constraint",
        {"dimension": "source", "value": "blog", "negated": True},
    )


def test_more_pages_the_side_in_force() -> None:
    pro = resolve("only the case for", PREV).plan
    assert pro is not None
    assert (resolve("keep going", pro).edit, resolve("keep going", pro).value) == ("more", "pro")
    assert resolve("more of the opposite view", pro).value == "con"
    assert resolve("next page", PREV).value == "both"
    assert resolve("more on the skeptical side", PREV).value == "con"


def test_a_side_word_is_not_a_group() -> None:
    assert resolve("only the opposing view", PREV).edit != "add_perspective"
    assert resolve("ok the pros and cons of it", PREV).edit != "one_side"


def test_a_group_after_a_group_view_is_another_view() -> None:
    viewed = resolve("what do food banks say", PREV).plan
    assert viewed is not None
    r = resolve("how about the retailers", viewed)
    assert (r.edit, r.value) == ("add_perspective", "retailers")
    r = resolve("what about women", viewed)  # a population narrows: a facet
    assert (r.edit, r.value) == ("add_aspect", "women")


def test_dropping_a_facet_named_with_a_pronoun() -> None:
    first = (
        "Could you give me a balanced view on whether electric scooters should be allowed on "
        "pavements, especially regarding pedestrian safety and accessibility for disabled people?"
    )
    text = "On reflection, the accessibility question is a separate matter, so leave it aside."
    assert _read(first, text) == (True, "drop_aspect", "accessibility")
    # "no longer" is not a length
    text = "I no longer need the pedestrian safety part, if that's alright."
    assert _read(first, text) == (True, "drop_aspect", "pedestrian safety")
    assert _read("is solar worth it, esp cost and maintenance", "never mind maintenance") == (
        True,
        "drop_aspect",
        "maintenance",
    )


def test_with_no_is_a_property_unless_it_names_a_source() -> None:
    assert _read("how to start composting at home", "with no worms") == (
        True,
        "add_aspect",
        "no worms",
    )
    assert _read("how to start composting at home", "with no blogs")[1] == "add_constraint"


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            split_words(
                "what about the more only [3] 5 and drop why compare vs , . ? ¿ cost teachers "
                "say no from blogs spanish für que los it leave aside never mind with ones 800 "
                "words second source opposing side y und et"
            )
        )
        | st.text(min_size=1, max_size=6),
        min_size=1,
        max_size=20,
    )
)
def test_fuzz_resolve_never_crashes(words: list[str]) -> None:
    try:
        r = resolve(" ".join(words), PREV)
    except InputError:
        return
    assert r.edit in EDITS and r.follows == (r.edit != "new_topic")


def _c(dimension: str, value: str, negated: bool = False) -> dict[str, object]:
    return {"dimension": dimension, "value": value, "negated": negated}


@pytest.mark.parametrize(
    ("first", "text", "edit", "value"),
    [
        # a label before the turn is taken off and the rest decides
        (
            "Should zoos be abolished?",
            "Quick question: what do vets think about it?",
            "add_perspective",
            "vets",
        ),
        (
            "Should zoos be abolished?",
            "Other angle: how does it affect tourism?",
            "add_aspect",
            "tourism",
        ),
        # ordinal references
        ("Should zoos be abolished?", "why is the 6th one there", "explain_ref", 6),
        ("Should zoos be abolished?", "ditch the second", "drop_ref", 2),
        ("Should zoos be abolished?", "how do the 2nd and the 4th differ?", "compare_refs", [2, 4]),
        # drop verbs, with the facet named
        ("Should zoos be abolished?", "scrap the funding bit", "drop_aspect", "funding"),
        ("Should zoos be abolished?", "take conservation back out", "drop_aspect", "conservation"),
        # fillers and request verbs that name nothing
        ("Should zoos be abolished?", "what do keepers say lol", "add_perspective", "keepers"),
        (
            "Should zoos be abolished?",
            "dig up only sources in German",
            "add_constraint",
            _c("language", "de"),
        ),
        # constraints as a follow-up means them
        (
            "Should zoos be abolished?",
            "no lengthy reads please",
            "add_constraint",
            _c("length", "long", True),
        ),
        (
            "Should zoos be abolished?",
            "nothing aimed at children",
            "add_constraint",
            _c("audience", "child", True),
        ),
        (
            "Should zoos be abolished?",
            "leave out the PDFs",
            "add_constraint",
            _c("format", "pdf", True),
        ),
        (
            "Should zoos be abolished?",
            "Transcripts would be ideal, where available.",
            "add_constraint",
            _c("format", "transcript"),
        ),
        (
            "Should zoos be abolished?",
            "skip the Forums",
            "add_constraint",
            _c("source", "forum", True),
        ),
        # sides
        ("Should zoos be abolished?", "just the no side", "one_side", "con"),
        ("Should zoos be abolished?", "alleen de argumenten tegen", "one_side", "con"),
        ("Should zoos be abolished?", "oops, I meant more of the pro stuff", "more", "pro"),
        # group views
        (
            "Should zoos be abolished?",
            "and the visitors themselves?",
            "add_perspective",
            "visitors",
        ),
        (
            "Should zoos be abolished?",
            "wat zeggen dierenartsen ervan?",
            "add_perspective",
            "dierenartsen",
        ),
        # facets through the topic
        (
            "Should zoos be abolished?",
            "how would it pan out in small towns",
            "add_aspect",
            "small towns",
        ),
        (
            "Should zoos be abolished?",
            "what does the evidence say about endangered species?",
            "add_aspect",
            "endangered species",
        ),
        (
            "Should zoos be abolished?",
            "Sorry if this is a silly question, but how would it affect local jobs?",
            "add_aspect",
            "local jobs",
        ),
        (
            "Do tariffs protect jobs?",
            "Do tariffs protect jobs in rural areas?",
            "add_aspect",
            "rural areas",
        ),
    ],
)
def test_round_five_mechanisms(first: str, text: str, edit: str, value: object) -> None:
    assert _read(first, text) == (True, edit, value)


@pytest.mark.parametrize(
    ("first", "text"),
    [
        ("Should zoos be abolished?", "next: circus animals?"),
        ("Should zoos be abolished?", "New topic. Is homework useful"),
        ("Should schools teach Latin?", "Should schools teach Mandarin?"),
    ],
)
def test_round_five_new_topics(first: str, text: str) -> None:
    assert _read(first, text)[:2] == (False, "new_topic")


def test_a_name_added_by_a_follow_up_makes_the_next_name_a_sibling() -> None:
    placed = resolve("how would it work out in Oslo", parse_rules("Should rent be capped?"))
    assert placed.plan is not None and (placed.edit, placed.value) == ("add_aspect", "Oslo")
    assert resolve("and in Bergen?", placed.plan).edit == "new_topic"


def test_a_perturbed_copy_slips_the_turn_and_its_copied_value() -> None:
    from assistant.eval.conversation import perturb

    d = [
        {
            "id": "x",
            "turns": [
                {"text": "Should cities ban cars?"},
                {
                    "text": "and pollution",
                    "expect": {"follows": True, "edit": "add_aspect", "value": "pollution"},
                },
            ],
        }
    ]
    typo = perturb(d, "typo", seed=1)
    turn = typo[0]["turns"][1]
    assert turn["text"] != "and pollution" and turn["text"].startswith("and ")
    assert turn["expect"]["value"] == turn["text"].split()[-1]  # the same slip in the value
    assert d[0]["turns"][1]["text"] == "and pollution"  # the set itself is untouched
    assert perturb(d, "nopunct")[0]["turns"][0]["text"] == "Should cities ban cars?"


@pytest.mark.parametrize(
    ("text", "asked", "edit", "value"),
    [
        ("ok, remove it then", ("explain_ref", [4]), "drop_ref", 4),
        ("Fair enough. Could you take that one out?", ("explain_ref", [11]), "drop_ref", 11),
        ("quita eso", ("explain_ref", [2]), "drop_ref", 2),
        ("whoops, I meant 9 not 6", ("explain_ref", [6]), "explain_ref", 9),
        ("sorry, number 12", ("explain_ref", [2]), "explain_ref", 12),
    ],
)
def test_a_turn_after_a_reference_question_points_at_its_number(
    text: str, asked: tuple[str, list[int]], edit: str, value: int
) -> None:
    """ "drop it" after "why is [4] there?" drops [4]; a correction asks about the other
    number. Without the reference question before it, "remove it" names no reference."""
    r = resolve(text, PREV, asked=asked)
    assert (r.follows, r.edit, r.value) == (True, edit, value)
    assert resolve("ok, remove it then", PREV).edit != "drop_ref"
    # two numbers asked about: "drop it" cannot say which
    assert resolve("drop it", PREV, asked=("compare_refs", [2, 8])).edit != "drop_ref"


@pytest.mark.parametrize(
    ("text", "edit", "value"),
    [
        ("everything except German please", "add_constraint", ("language", "de", True)),
        ("I can't read Italian.", "add_constraint", ("language", "it", True)),
        ("nothing aimed at engineers", "add_constraint", ("audience", "expert", True)),
        ("our readers are mostly teenagers", "add_constraint", ("audience", "teen", False)),
        ("for twelve-year-olds please", "add_constraint", ("audience", "child", False)),
        (
            "skip whatever was put out as a press release",
            "add_constraint",
            ("source", "press release", True),
        ),
        ("stuff by the Guardian only", "add_constraint", ("source", "guardian", False)),
        (
            "leave out anything from amnesty international",
            "add_constraint",
            ("source", "amnesty international", True),
        ),
        ("minus the reddit stuff", "add_constraint", ("source", "reddit", True)),
        (
            "only ones with the word 'subsidy' in them",
            "add_constraint",
            ("keyword", "subsidy", False),
        ),
        ("nothing over two thousand words", "add_constraint", ("length", "<2000", False)),
        ("put it in tabular form", "add_constraint", ("format", "table", False)),
        (
            "This is very detailed. Only in Spanish though",
            "add_constraint",
            ("language", "es", False),
        ),
        ("where does 2 contradict 7?", "compare_refs", [2, 7]),
        ("und wie sieht es mit der Sicherheit aus?", "add_aspect", "Sicherheit"),
        ("what would it do to house prices", "add_aspect", "house prices"),
        ("encore d'autres, merci", "more", "both"),
        ("more for both positions please", "more", "both"),
        ("I wish you'd add what cyclists think.", "add_perspective", "cyclists"),
        ("I'd rather leave air quality out of it.", "drop_aspect", "air quality"),
        ("I'd like to learn about the noise", "add_aspect", "noise"),
        ("just the ones saying it's harmless", "one_side", "pro"),
        ("anything but French lol", "add_constraint", ("language", "fr", True)),
        ("nothing but French lol", "add_constraint", ("language", "fr", False)),
        ("solo per esperti", "add_constraint", ("audience", "expert", False)),
        ("keine Zeitungen bitte", "add_constraint", ("source", "newspaper", True)),
        ("a 3 minute read at most", "add_constraint", ("length", "short", False)),
        (
            "anything that doesn't come from the oil industry?",
            "add_constraint",
            ("source", "oil industry", True),
        ),
        ("slides or a powerpoint please", "add_constraint", ("format", "slides", False)),
        (
            "just stuff for ordinary people, not economists",
            "add_constraint",
            ("audience", "general", False),
        ),
        ("Could you also tell us about parking?", "add_aspect", "parking"),
        ("Further, I should like the view of urban planners.", "add_perspective", "urban planners"),
        ("what about delivery drivers, is it fair to them?", "add_aspect", "delivery drivers"),
    ],
)
def test_round_six_mechanisms(text: str, edit: str, value: object) -> None:
    """Constraints in the wordings of a sixth development round (an operator anywhere
    earlier in the clause, sources by name, keywords said as a word, spelled lengths,
    need statements), and the other kinds' new wordings; none of these is in a set."""
    r = resolve(text, PREV)
    got = r.value
    if edit == "add_constraint":
        assert isinstance(got, dict)
        got = (got["dimension"], got["value"], got["negated"])
    assert (r.follows, r.edit, got) == (True, edit, value)


@pytest.mark.parametrize(
    "text",
    [
        "Should schools teach in Spanish?",
        "Is the BBC biased?",
        "what changed in the last ten years?",
        "Ban TikTok?",
    ],
)
def test_round_six_new_topics(text: str) -> None:
    r = resolve(text, PREV)
    assert r.edit != "add_constraint"
