"""``sphere eval real`` (issue 34): each metric on hand-made cases, the question file,
bad input, and one small end-to-end run on tiny HTML pages the test writes."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from assistant.commands.context import Context
from assistant.commands.eval_cmd import eval_group
from assistant.errors import DataError, InputError
from assistant.eval.real_score import (
    EVIDENCE_KEYS,
    GoldText,
    Quoted,
    RealQuestion,
    aggregate,
    answer_items,
    cited_pages,
    claims_check,
    evidence_counts,
    gold_sentences,
    load_gold,
    load_questions,
    load_words,
    match_key,
    nearest_rank,
    reference_counts,
    side_counts,
)
from assistant.models import ClaimSummary, Reference, Summary, SummaryPerspective

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = REPO / "tests" / "data" / "real_questions.jsonl"

# two pages on one motion (a page and its copy) and one on another
PRO_1 = "Cars fill city air with fumes. Closing the centre to traffic cuts asthma."
PRO_2 = "Shops gain when people walk. Mr. Jones saw sales rise by a fifth."
CON_1 = "A ban shuts out disabled people who need a car. They lose their independence."
COUNTER = "Buses and taxis still reach the centre. Cars fill city air with fumes."
INTRO = "Many cities have debated car bans. Some closed their squares."
OTHER = "School uniforms cost families money. Parents pay for every blazer."


def _row(page: str, motion: str, intro: str, args: list[tuple[str, str, str]]) -> dict:
    return {
        "page": f"pages/{page}",
        "theme": "transport" if "car" in page else "education",
        "motion": motion,
        "intro": intro,
        "arguments": [
            {"id": i, "kind": "point", "under": s, "argues": s, "title": f"Title {i}", "text": t}
            for i, s, t in args
        ],
    }


GOLD_ROWS = [
    _row(
        "cars.html",
        "This House would ban cars from city centres",
        INTRO,
        [("pro1", "pro", PRO_1), ("pro2", "pro", PRO_2), ("con1", "con", CON_1)],
    ),
    _row(
        "cars-copy.html",
        "This House would ban cars from city centres",
        INTRO,
        [("pro1", "pro", PRO_1)],
    ),
    _row(
        "uniforms.html",
        "This House would make school uniforms compulsory",
        "",
        [("con1", "con", OTHER)],
    ),
]


@pytest.fixture()
def gold_dir(tmp_path: Path) -> Path:
    (tmp_path / "pages").mkdir()
    (tmp_path / "gold.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in GOLD_ROWS), encoding="utf-8"
    )
    return tmp_path


@pytest.fixture()
def gold(gold_dir: Path):  # type: ignore[no-untyped-def]
    return load_gold(gold_dir)


def q(kind: str, side: str, text: str, page: str = "cars.html") -> Quoted:
    return Quoted(kind, side, text, (page,))


# --------------------------------------------------------------------------- text
def test_match_key_drops_markers_entities_and_spacing() -> None:
    gold = "Even then [1] it fails &amp; costs  money\n\n– says “the report” 12, again."
    quote = 'Even then it fails & costs money - says "the report", again.'
    assert match_key(gold) == match_key(quote)
    assert match_key("unrest.1 Even then") == match_key("unrest. [1] Even then")
    assert match_key("in 2012 the") != match_key("in the")  # years are not markers
    # Roman endnote markers too (Word's exported endnotes), not an editor's "[i]n"
    assert match_key('roots." [iii] At a cursory') == match_key('roots." At a cursory')
    assert match_key("rulings[ii], such") == match_key("rulings, such")
    assert match_key("“[i]n the end") != match_key("“n the end")
    # a superscript ordinal suffix set apart on the page is the same text as one joined
    assert match_key("since the 19 th or 20 th Centuries") == match_key(
        "since the 19th or 20th Centuries"
    )
    assert match_key("to 162 nd – where") == match_key("to 162nd - where")
    assert match_key("since the 19th century") != match_key("since the 20th century")


def test_gold_sentences_follow_the_documented_rule() -> None:
    words = load_words()
    text = (
        "Mr. Smith met the U.S. Senate. Was it wise? Yes!\n"
        "A heading without a stop\nit said 3 things. then went on."
    )
    got = gold_sentences(text, words.abbreviations)
    assert got == [
        "Mr. Smith met the U.S.",  # an acronym before a capital may end one
        "Senate.",
        "Was it wise?",
        "Yes!",
        "A heading without a stop",  # a line break ends one
        "it said things. then went on.",  # no capital after the stop: one sentence
    ]


def test_whole_is_a_run_of_consecutive_gold_sentences() -> None:
    g = GoldText.of("One two three. Four five six. Seven eight nine.")
    assert g.whole(match_key("Four five six."))
    assert g.whole(match_key("One two three. Four five six."))
    assert not g.whole(match_key("One two three. Four five"))  # cut at the end
    assert not g.whole(match_key("two three. Four five six."))  # cut at the start
    assert g.contains(match_key("two three. Four five"))
    assert not g.whole("")


# --------------------------------------------------------------------------- metrics
def test_evidence_counts_furniture_cut_and_other_page(gold) -> None:  # type: ignore[no-untyped-def]
    items = [
        q("quote", "pro", "Cars fill city air with fumes.[1]"),  # whole, a marker shown
        q("perspective", "pro", "Skip to main content Log in Register"),  # furniture
        q("quote", "pro", "Closing the centre to traffic"),  # on the page but cut
        q("quote", "con", "School uniforms cost families money.", "uniforms.html"),  # other page
        q("quote", "con", "Title con1"),  # an argument's title: not a gold text
        q("quote", "con", "  "),  # empty quote: counted apart
    ]
    c = evidence_counts(items, "cars.html", gold)
    assert c == {
        "items": 5,
        "furniture": 3,  # the menu, the other page's sentence, the title
        "whole": 2,  # the page's sentence and the other page's (whole there)
        "found_any": 3,
        "whole_of_found": 2,
        "headings": 1,
        "markers": 1,
        "empty": 1,
    }


def test_side_counts_score_quotes_from_gold_arguments(gold) -> None:  # type: ignore[no-untyped-def]
    items = [
        q("quote", "pro", "Shops gain when people walk."),  # pro argument, under A: right
        q("quote", "pro", "They lose their independence."),  # con argument under A: wrong
        q("quote", "con", "Cars fill city air with fumes.", "cars-copy.html"),  # copy page, wrong
        q("quote", "con", "Some closed their squares."),  # the intro: not scored
        q("quote", "pro", "School uniforms cost families money.", "uniforms.html"),  # other motion
        q("perspective", "pro", "Shops gain when people walk."),  # perspectives are not scored
    ]
    assert side_counts(items, "cars.html", gold) == {
        "scored": 3,
        "correct": 1,
        "ambiguous": 0,
        "intro": 1,
    }


def test_a_quote_two_opposite_arguments_hold_is_ambiguous(gold_dir: Path) -> None:
    rows = [
        _row("cars.html", "M", "", [("p", "pro", PRO_1), ("c", "con", COUNTER)]),
    ]
    (gold_dir / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    g = load_gold(gold_dir)
    c = side_counts([q("quote", "pro", "Cars fill city air with fumes.")], "cars.html", g)
    assert c == {"scored": 0, "correct": 0, "ambiguous": 1, "intro": 0}


def test_reference_counts_name_other_pages_and_copies(gold) -> None:  # type: ignore[no-untyped-def]
    items = [
        q("quote", "pro", "x"),
        q("quote", "pro", "x", "cars-copy.html"),
        q("quote", "con", "x", "uniforms.html"),
        q("perspective", "con", "x", "uniforms.html"),
    ]
    assert reference_counts(items, "cars.html", gold) == {
        "references": 3,
        "other_page": 2,
        "same_motion_page": 1,
        # cars.html and its copy argue the motion; the copy is cited, and cars.html
        # itself by the first quote
        "motion_pages": 2,
        "motion_pages_cited": 2,
    }
    only_other = [q("quote", "pro", "x", "uniforms.html")]
    c = reference_counts(only_other, "cars.html", gold)
    assert (c["motion_pages"], c["motion_pages_cited"]) == (2, 0)


def car_summary(pro: list[SummaryPerspective], con: list[SummaryPerspective]) -> Summary:
    return Summary(
        question="Should cars be banned from city centres?",
        claims=[
            ClaimSummary("Cars should be banned from city centres.", "pro", pro),
            ClaimSummary("Cars should not be banned from city centres.", "con", con),
        ],
    )


def cite(path: str, quote: str) -> Reference:
    return Reference(path, path=path, quote=quote)


def test_answer_items_and_cited_pages_read_the_summary() -> None:
    refs = [cite("/data/pages/cars.html", "a"), Reference("/x/cars-copy.html", quote="b")]
    summary = car_summary([SummaryPerspective("Cars fill city air with fumes.", refs)], [])
    items = answer_items(summary)
    assert [(i.kind, i.side, i.text, i.pages) for i in items] == [
        ("perspective", "pro", "Cars fill city air with fumes.", ("cars.html", "cars-copy.html")),
        ("quote", "pro", "a", ("cars.html",)),
        ("quote", "pro", "b", ("cars-copy.html",)),
    ]
    assert cited_pages(summary) == {"pro": {"cars.html", "cars-copy.html"}, "con": set()}


QUESTION = "Should child performers be banned?"


@pytest.mark.parametrize(
    ("claim", "declarative", "no_template", "not_repeated", "labelled"),
    [
        ("Child performers should be banned.", True, True, True, False),
        ("Child performers should not be banned.", True, True, True, False),
        ("Writing unsafe Rust is a good idea.", True, True, True, False),
        ("We support the claim that child performers should be banned.", True, False, True, False),
        ("Not: Should child performers be banned?", False, False, False, False),
        ("Should child performers be banned?", False, True, False, False),
        ("Should child performers be banned.", False, True, False, False),  # inverted, no '?'
        # the never-wrong labelled form holds the question by design: not declarative
        ("Yes — Should child performers be banned?", False, True, True, True),
        ("Child performers and their parents.", False, True, True, False),  # no finite verb
    ],
)
def test_claims_are_scored_by_the_claims_checker(
    claim: str, declarative: bool, no_template: bool, not_repeated: bool, labelled: bool
) -> None:
    # the same claim twice: each key is then that claim's own check
    got = claims_check([claim, claim], QUESTION)
    assert {k: got[k] for k in ("declarative", "no_template", "not_repeated", "labelled")} == {
        "declarative": declarative,
        "no_template": no_template,
        "not_repeated": not_repeated,
        "labelled": labelled,
    }
    assert got["ok"] == (declarative and no_template and not_repeated)
    assert bool(got["why"]) != got["ok"]


def test_an_answer_needs_two_good_claims() -> None:
    good = ["Child performers should be banned.", "Child performers should not be banned."]
    assert claims_check(good, QUESTION)["ok"]
    one = claims_check(good[:1], QUESTION)
    assert not one["ok"] and not one["declarative"] and one["why"] == ["not two claims"]
    assert not claims_check([], QUESTION)["ok"]
    assert not claims_check([good[0], "Arguments against child performers."], QUESTION)["ok"]


def _agg_row(theme: str, ev: dict, sides: dict, cited: dict, ok: bool, seconds: float) -> dict:
    return {
        "theme": theme,
        "evidence": {**dict.fromkeys(EVIDENCE_KEYS, 0), **ev},
        "references": {
            "references": 2,
            "other_page": 1,
            "same_motion_page": 0,
            "motion_pages": 3,
            "motion_pages_cited": 1,
        },
        "sides": {"scored": 0, "correct": 0, "ambiguous": 0, "intro": 0, **sides},
        "page_cited": cited,
        "claims_check": dict.fromkeys(("declarative", "no_template", "not_repeated", "ok"), ok),
        "seconds": seconds,
    }


def test_aggregate_by_hand() -> None:
    rows = [
        _agg_row(
            "a",
            {"items": 10, "furniture": 1, "whole": 8, "found_any": 9, "whole_of_found": 8},
            {"scored": 4, "correct": 3},
            {"pro": True, "con": True},
            True,
            1.0,
        ),
        _agg_row(
            "a",
            {"items": 10, "furniture": 0, "whole": 10, "found_any": 10, "whole_of_found": 10},
            {"scored": 1, "correct": 1},
            {"pro": True, "con": False},
            False,
            3.0,
        ),
    ]
    m = aggregate(rows)
    assert m["furniture_rate"] == round(1 / 20, 4)
    assert m["not_in_any_gold_rate"] == round(1 / 20, 4)
    assert m["whole_sentences"] == round(18 / 20, 4)
    assert m["whole_of_found"] == round(18 / 19, 4)
    assert m["side_accuracy"] == round(4 / 5, 4)
    assert m["both_claims"] == 0.5 and m["page_cited"] == 1.0
    assert m["claims_ok"] == 0.5
    assert m["references_other_page"] == 2
    assert m["motion_precision"] == round(2 / 4, 4) and m["motion_recall"] == round(2 / 6, 4)
    assert m["seconds_median"] == 1.0 and m["seconds_p90"] == 3.0
    assert m["meets"]["side_accuracy"] and not m["meets"]["furniture_rate"]


def test_nearest_rank() -> None:
    values = [float(v) for v in range(1, 11)]
    assert nearest_rank(values, 0.5) == 5.0
    assert nearest_rank(values, 0.9) == 9.0
    assert nearest_rank([4.0], 0.9) == 4.0
    assert nearest_rank([], 0.5) == 0.0


class ScriptedPipe:
    """A stand-in for Pipeline: one fixed answer, and a refusal for the question 'bad'."""

    def __init__(self, summary: Summary) -> None:
        self.summary = summary
        self.asked: list[str] = []

    def run(self, question: str) -> SimpleNamespace:
        self.asked.append(question)
        if question == "bad":
            raise InputError("the question is empty")
        return SimpleNamespace(summary=self.summary, plan=SimpleNamespace(intent="two_sided"))


def test_ask_all_scores_answers_and_keeps_a_refused_question(gold) -> None:  # type: ignore[no-untyped-def]
    from assistant.eval.real import WARM_UP_QUESTION, ask_all

    summary = car_summary(
        [
            SummaryPerspective(
                "Cars fill city air with fumes.", [cite("p/cars.html", "Log in Register")]
            )
        ],
        [
            SummaryPerspective(
                "They lose their independence.",
                [cite("p/cars.html", "They lose their independence.")],
            )
        ],
    )
    pipe = ScriptedPipe(summary)
    motion = GOLD_ROWS[0]["motion"]
    questions = [
        RealQuestion("pages/cars.html", motion, "Should cars be banned from city centres?"),
        RealQuestion("pages/cars.html", motion, "bad"),
    ]
    rows, warm_up = ask_all(pipe, questions, gold, lambda _m: None)
    # one untimed warm-up answer first, on a question of none of the pages
    assert pipe.asked == [WARM_UP_QUESTION, *(x.question for x in questions)]
    assert warm_up >= 0 and [r["seconds"] >= 0 for r in rows] == [True, True]
    good, refused = rows
    assert good["evidence"]["items"] == 4 and good["evidence"]["furniture"] == 1
    assert good["furniture"] == ["Log in Register"]
    assert good["sides"] == {"scored": 1, "correct": 1, "ambiguous": 0, "intro": 0}
    assert good["page_cited"] == {"pro": True, "con": True}
    assert good["claims_check"]["ok"] and good["intent"] == "two_sided"
    assert refused["error"].endswith("the question is empty")
    assert not refused["claims_check"]["ok"] and refused["evidence"]["items"] == 0
    m = aggregate(rows)
    assert m["both_claims"] == 0.5 and m["claims_ok"] == 0.5 and m["furniture_rate"] == 0.25


# --------------------------------------------------------------------------- data and input
def test_committed_questions_are_one_per_page_and_ask() -> None:
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 208
    assert len({r["page"] for r in rows}) == len(rows)
    for r in rows:
        assert set(r) == {"page", "motion", "question"}
        assert r["question"].endswith("?") and r["question"][0].isupper()


def test_committed_questions_match_the_shared_gold(shared_data: Path) -> None:
    folder = shared_data / "idebate-html"
    if not (folder / "gold.jsonl").is_file():
        pytest.skip("idebate-html is not in the shared data")
    gold = load_gold(folder)
    questions = load_questions(QUESTIONS, gold)
    assert {x.name for x in questions} == set(gold)
    assert all(gold[x.name].motion == x.motion for x in questions)


def test_bad_folders_and_question_files_are_data_errors(tmp_path: Path, gold) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DataError, match="no such folder"):
        load_gold(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"no gold\.jsonl"):
        load_gold(tmp_path / "empty")
    bad = tmp_path / "q.jsonl"
    bad.write_text(json.dumps({"page": "pages/nope.html", "motion": "m", "question": "q?"}))
    with pytest.raises(DataError, match=r"not in gold\.jsonl"):
        load_questions(bad, gold)


def test_cli_folder_without_gold_exits_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(
        eval_group, ["real", "--data", str(tmp_path), "--json"], obj=Context(None)
    )
    assert isinstance(res.exception, DataError)
    assert res.exception.exit_code == 2
    assert "gold.jsonl" in str(res.exception)


# --------------------------------------------------------------------------- end to end
NAV = (
    "<header><nav><a href='/'>Home</a> | <a href='/topics'>Debates</a> | "
    "<a href='/login'>Log in</a></nav></header>"
)
FOOT = (
    "<aside><h3>Popular debates</h3><ul><li>Should zoos close?</li></ul></aside>"
    "<section class='comments'><p>Great debate, thanks!</p></section>"
    "<footer>© 2018 Debate Club. All rights reserved. Privacy policy.</footer>"
)

PAGES = {
    "cars": (
        "This House would ban cars from city centres",
        "Should cars be banned from city centres?",
        "Many cities have debated closing their centres to private cars.",
        [
            (
                "pro",
                "Car fumes make the air in city centres unhealthy to breathe. "
                "Closing the centre to cars cut asthma admissions among children.",
            ),
            (
                "con",
                "A ban on cars shuts disabled people out of the city centre. "
                "Shops in car-free centres lose the customers who drive in from outside.",
            ),
        ],
    ),
    "uniforms": (
        "This House would make school uniforms compulsory",
        "Should school uniforms be compulsory?",
        "Schools differ on whether pupils must wear a uniform.",
        [
            (
                "pro",
                "School uniforms stop pupils being bullied for their clothes. "
                "A uniform makes every pupil equal in the classroom.",
            ),
            (
                "con",
                "School uniforms cost poor families money they do not have. "
                "Pupils should be free to express themselves through their clothes.",
            ),
        ],
    ),
    "nuclear": (
        "This House would build more nuclear power stations",
        "Should more nuclear power stations be built?",
        "Nuclear power supplies a tenth of the world's electricity.",
        [
            (
                "pro",
                "Nuclear power stations emit almost no carbon dioxide while running. "
                "They give steady power when the wind does not blow.",
            ),
            (
                "con",
                "Nuclear waste stays dangerous for thousands of years. "
                "New nuclear power stations cost far more than wind farms.",
            ),
        ],
    ),
}


def write_site(root: Path) -> None:
    (root / "pages").mkdir(parents=True)
    gold, questions = [], []
    for slug, (motion, question, intro, args) in PAGES.items():
        body = "".join(
            f"<div class='point'><h4>Point {i}</h4><p>{text}</p></div>"
            for i, (_side, text) in enumerate(args)
        )
        html = (
            f"<html><head><title>{motion} | Debate Club</title></head><body>{NAV}"
            f"<main><h1>{motion}</h1><p>{intro}</p>{body}</main>{FOOT}</body></html>"
        )
        (root / "pages" / f"{slug}.html").write_text(html, encoding="utf-8")
        gold.append(
            _row(f"{slug}.html", motion, intro, [(f"p{i}", s, t) for i, (s, t) in enumerate(args)])
        )
        questions.append({"page": f"pages/{slug}.html", "motion": motion, "question": question})
    (root / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in gold))
    (root / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in questions))


@pytest.mark.slow
def test_end_to_end_on_tiny_pages(tmp_path: Path) -> None:
    from assistant.config import Settings
    from assistant.eval.real import run_real_eval

    write_site(tmp_path / "site")
    settings = Settings(cache_dir=tmp_path / "cache")  # type: ignore[call-arg]
    settings.llm.use = "never"
    out = run_real_eval(
        tmp_path / "site",
        settings,
        questions_path=tmp_path / "site" / "questions.jsonl",
        index_dir=tmp_path / "idx",
    )
    assert out["index"]["documents"] == 3 and not out["index"]["reused"]
    assert [r["page"] for r in out["rows"]] == [f"{s}.html" for s in PAGES]
    m = out["methods"]["sphere"]
    assert m["questions"] == 3
    for key in ("furniture_rate", "whole_sentences", "side_accuracy", "both_claims", "claims_ok"):
        assert 0.0 <= m[key] <= 1.0
    for r in out["rows"]:
        ev = r["evidence"]
        assert ev["furniture"] <= ev["items"] and ev["whole_of_found"] <= ev["found_any"]
        assert r["sides"]["correct"] <= r["sides"]["scored"]
        assert r["seconds"] > 0 and len(r["claims"]) == 2
        assert len(r["furniture"]) == ev["furniture"]
    assert out["config"]["model"].get("stance")  # the stance model was on
    assert set(out["tasks"]) == {"transport", "education"}

    # the second run reuses the index and prints one JSON object
    res = CliRunner().invoke(
        eval_group,
        [
            "real",
            "--data",
            str(tmp_path / "site"),
            "--questions",
            str(tmp_path / "site" / "questions.jsonl"),
            "--index-dir",
            str(tmp_path / "idx"),
            "--limit",
            "1",
            "--json",
        ],
        obj=Context(None),
    )
    assert res.exit_code == 0, res.output
    again = json.loads(res.output)
    assert again["index"]["reused"] and again["methods"]["sphere"]["questions"] == 1
    assert again["code"]["commit"] == "" or len(again["code"]["commit"]) == 40


def test_rescore_scores_a_saved_run_again(gold_dir: Path, tmp_path: Path) -> None:
    """``sphere eval real --rescore``: the saved answers scored by today's scorer; a row
    saved before a count existed gets it, and a file that is no saved run is a DataError."""
    from assistant.eval.real import answer_view, rescore, saved_answer

    refs = [
        cite("/data/pages/cars.html", "Cars fill city air with fumes."),
        Reference("/x/uniforms.html", quote="School uniforms cost families money."),
    ]
    view = answer_view(
        car_summary([SummaryPerspective("Cars fill city air with fumes.", refs)], [])
    )

    def shown(v: list[dict]) -> list:
        return [
            (
                c["side"],
                c["claim"],
                [
                    (p["text"], [(r["page"], r["quote"]) for r in p["references"]])
                    for p in c["perspectives"]
                ],
            )
            for c in v
        ]

    assert shown(answer_view(saved_answer(view))) == shown(view)
    row = {
        "page": "cars.html",
        "theme": "transport",
        "question": QUESTION,
        "claims": [],
        "claims_check": {
            "declarative": True,
            "no_template": True,
            "not_repeated": True,
            "ok": True,
        },
        "evidence": {},
        "references": {"references": 9, "other_page": 9, "same_motion_page": 0},  # stale
        "sides": {},
        "page_cited": {"pro": True, "con": False},
        "answer": view,
        "seconds": 1.0,
    }
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"benchmark": "real", "rows": [row]}), encoding="utf-8")
    out = rescore(saved, gold_dir)
    refs_row = out["rows"][0]["references"]
    assert (refs_row["references"], refs_row["other_page"]) == (2, 1)
    assert (refs_row["motion_pages"], refs_row["motion_pages_cited"]) == (2, 1)
    m = out["methods"]["sphere"]
    assert m["motion_precision"] == 0.5 and m["motion_recall"] == 0.5
    assert out["rows"][0]["furniture"] == ["School uniforms cost families money."]
    (tmp_path / "bad.json").write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(DataError):
        rescore(tmp_path / "bad.json", gold_dir)
