"""The turn reader of follow-ups (assistant/understand/reader.py): its span decoding, its
training examples, its artifact, its training command, and how the resolver uses it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from assistant.understand import parse_rules, reader, reader_train
from assistant.understand.facet_judge import FacetJudge
from assistant.understand.followup import EDITS, resolve
from assistant.understand.followup.settings import DEFAULTS

DATA = Path(__file__).parent / "data"


def _sphere(*args: str, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``sphere ARGS`` in a child process, offline: its exit code and output."""
    return subprocess.run(
        [sys.executable, "-m", "assistant.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("text", "start", "end", "want"),
    [
        ("what about the upfront costs?", 20, 26, "upfront costs"),  # "front co" -> words
        ("what about the upfront costs?", 15, 29, "upfront costs"),  # "?" stripped
        ("focus on (rural) schools", 9, 16, "rural"),
        ("Rotterdam", 0, 3, "Rotterdam"),
    ],
)
def test_a_span_is_widened_to_whole_words(text: str, start: int, end: int, want: str) -> None:
    s, e = reader.widen(text, start, end)
    assert text[s:e] == want


def test_the_best_span_is_the_best_start_and_end_in_order_and_in_the_turn() -> None:
    start = np.array([9.0, -5.0, 5.0, 0.0, 0.0, 0.0])
    end = np.array([0.0, 9.0, 0.0, 1.0, 4.0, 0.0])
    allowed = np.array([False, True, True, True, True, True])
    # token 0 is not the turn's; the end must not come before the start
    a, b, p = reader.best_span(start, end, allowed) or (None, None, None)
    assert (a, b) == (2, 4)
    assert p is not None and 0 < p < 1
    assert reader.best_span(start, end, np.zeros(6, bool)) is None
    # a span is at most MAX_SPAN_TOKENS long
    n = reader.MAX_SPAN_TOKENS + 5
    s, e = np.zeros(n), np.zeros(n)
    s[0], e[n - 1] = 5.0, 5.0
    a, b, _ = reader.best_span(s, e, np.ones(n, bool)) or (0, 0, 0.0)
    assert b - a < reader.MAX_SPAN_TOKENS


def test_the_context_is_the_threads_root_and_the_side_shown() -> None:
    plan = parse_rules("find evidence against a four-day week from business sources")
    assert plan.intent == "one_sided"
    text = reader.plan_context(plan)
    assert text.startswith(plan.root_query) and "the side against only" in text
    plan = parse_rules("Should school uniforms be mandatory?")
    plan.question = "what about the cost?"  # the app sets a follow-up's words there
    assert reader.plan_context(plan) == (
        "Should school uniforms be mandatory? Showing: both sides."
    )


def test_training_examples_carry_the_context_the_resolver_will_give(tmp_path: Path) -> None:
    f = tmp_path / "conversation_devx.jsonl"
    rows = [
        {
            "id": "x-1",
            "turns": [
                {"text": "Should zoos be banned?"},
                {
                    "text": "only the ban camp",
                    "expect": {"follows": True, "edit": "one_side", "value": "pro"},
                },
                {
                    "text": "more from the other side",
                    "expect": {"follows": True, "edit": "more", "value": "con"},
                },
            ],
        },
        {
            "id": "x-2",
            "turns": [
                {"text": "Is coffee bad for you?"},
                {
                    "text": "And the Effect On Sleep?",
                    "expect": {"follows": True, "edit": "add_aspect", "value": "effect on sleep"},
                },
                {
                    "text": "what about tea?",
                    "expect": {"follows": False, "edit": "new_topic", "value": None},
                },
                {
                    "text": "teachers' view?",
                    "expect": {"follows": True, "edit": "add_perspective", "value": "nurses"},
                },
            ],
        },
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    ex = reader_train.examples([f])
    assert [x.kind for x in ex] == [
        "one_side",
        "more",
        "add_aspect",
        "new_topic",
        "add_perspective",
    ]
    assert ex[0].context.endswith("Showing: both sides.") and ex[0].side == "pro"
    assert ex[1].context.endswith("Showing: the side for only.") and ex[1].side == "con"
    # the span is found whatever its case; a value the turn does not contain has none
    assert ex[2].span is not None and ex[2].turn[slice(*ex[2].span)] == "Effect On Sleep"
    assert ex[4].span is None
    # after a new topic the context is the new question
    assert ex[3].context.startswith("Is coffee") and ex[4].context.startswith("what about tea")


def test_the_cross_check_folds_are_whole_files(tmp_path: Path) -> None:
    files = [tmp_path / f"conversation_dev{i}.jsonl" for i in (1, 2, 3, 10, 11)]
    groups = reader_train.fold_groups(files, 2)
    assert [[f.name for f in g] for g in groups] == [
        ["conversation_dev1.jsonl", "conversation_dev3.jsonl", "conversation_dev11.jsonl"],
        ["conversation_dev2.jsonl", "conversation_dev10.jsonl"],
    ]


class _Reading:
    """A reading with given numbers: for the resolver's control flow only."""

    def __init__(self, kinds: dict[str, float], span: str | None, side: str = "both") -> None:
        self.kinds = {k: kinds.get(k, 0.0) for k in EDITS}
        self.sides = {"pro": 0.0, "con": 0.0, "both": 0.0, side: 1.0}
        self.span, self.span_p = span, 0.9
        self.kind = max(self.kinds, key=self.kinds.__getitem__)
        self.kind_p = self.kinds[self.kind]
        self.side, self.side_p = side, 1.0


class _Judge(FacetJudge):
    def __init__(self, reading: _Reading) -> None:
        super().__init__(None)
        self.reading = reading

    def read(self, turn: str, previous: object) -> _Reading:
        return self.reading

    def kind_probs(self, turn: str, topic: str) -> None:
        return None  # the reader alone

    def kind(self, turn: str, topic: str) -> None:
        return None

    def claim_side(self, *a: object) -> None:
        return None

    def side(self, turn: str, topic: str) -> None:
        return None

    def is_facet(self, phrase: str, topic: str) -> bool:
        return False


def test_rule_9_takes_a_facets_words_from_the_readers_span() -> None:
    plan = parse_rules("Should pensioners get free bus passes?")
    turn = (
        "Several of our members are retirees who worry about upkeep, so it would be really "
        "useful to see what the evidence says about maintenance effort over the years."
    )
    judge = _Judge(_Reading({"add_aspect": 0.95}, "maintenance effort"))
    got = resolve(turn, plan, judge)
    assert (got.follows, got.edit, got.value) == (True, "add_aspect", "maintenance effort")
    assert got.plan is not None and got.plan.aspects[-1].text == "maintenance effort"
    # a span with no word of its own is no value: the frame readers are asked instead
    judge = _Judge(_Reading({"add_aspect": 0.95}, "the"))
    assert resolve("Consider the role of housing costs.", plan, judge).value != "the"


def test_a_side_no_rule_names_is_the_readers_side(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = parse_rules("Should zoos be abolished?")
    judge = _Judge(_Reading({"one_side": 0.97}, None, side="con"))
    got = resolve("only the save-the-zoos lot", plan, judge)
    assert (got.edit, got.value) == ("one_side", "con")
    judge.settings = DEFAULTS.replaced({"side_p": 1.5})  # never sure enough: no side read
    assert resolve("only the save-the-zoos lot", plan, judge).edit != "one_side"


def test_the_value_override_replaces_a_rules_facet_only_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plan = parse_rules("Should schools ban phones?")
    judge = _Judge(_Reading({"add_aspect": 0.99}, "children"))
    turn = "What about children? Parents keep writing in."
    plain = resolve(turn, plan, judge)
    judge.settings = DEFAULTS.replaced({"override_p": 0.9})
    over = resolve(turn, plan, judge)
    assert over.edit == "add_aspect" and over.value == "children"
    assert "turn reader" in over.rule or plain.value == "children"


def test_with_the_reader_off_the_resolver_reads_as_before() -> None:
    judge = FacetJudge(None)
    judge.reader_choice = "off"
    assert judge.read("what about the cost?", parse_rules("Tax meat?")) is None


def test_bad_reader_settings_are_clear_errors() -> None:
    bad = _sphere(
        "eval",
        "conversation",
        "--data",
        str(DATA / "conversation_dev.jsonl"),
        "--use",
        "nonsense=1",
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "'nonsense' is not a setting" in bad.stderr and "min_p" in bad.stderr  # the names
    test_set = _sphere("train", "turn-reader", "--data", str(DATA / "conversation_test.jsonl"))
    assert test_set.returncode == 2 and "test set" in test_set.stderr
    missing = _sphere(
        "eval",
        "conversation",
        "--data",
        str(DATA / "conversation_dev.jsonl"),
        "--reader",
        "/nonexistent/r.safetensors",
    )
    assert missing.returncode == 2 and "no turn reader" in missing.stderr


def _tiny_set(folder: Path) -> Path:
    """Six dialogues of every head's kind, for training end to end in seconds."""
    rows = []
    for i, (topic, facet) in enumerate(
        [
            ("Should zoos be banned?", "animal welfare"),
            ("Tax sugar?", "dental health"),
            ("Should cities ban cars?", "air quality"),
        ]
    ):
        rows.append(
            {
                "id": f"t-{i}a",
                "turns": [
                    {"text": topic},
                    {
                        "text": f"what about {facet}?",
                        "expect": {"follows": True, "edit": "add_aspect", "value": facet},
                    },
                    {
                        "text": "only the critics",
                        "expect": {"follows": True, "edit": "one_side", "value": "con"},
                    },
                ],
            }
        )
        rows.append(
            {
                "id": f"t-{i}b",
                "turns": [
                    {"text": topic},
                    {
                        "text": "skip anything from reddit",
                        "expect": {
                            "follows": True,
                            "edit": "add_constraint",
                            "value": {"dimension": "source", "value": "reddit", "negated": True},
                        },
                    },
                    {
                        "text": "Is coffee bad for you?",
                        "expect": {"follows": False, "edit": "new_topic", "value": None},
                    },
                ],
            }
        )
    f = folder / "conversation_devtiny.jsonl"
    folder.mkdir(parents=True, exist_ok=True)
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return f


def _train_cmd(tmp: Path, data: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "assistant.cli",
        "train",
        "turn-reader",
        "--data",
        str(data),
        "--state-dir",
        str(tmp / "state"),
        "--out",
        str(tmp / "out" / "r.safetensors"),
        "--no-progress",
        *extra,
    ]


@pytest.mark.slow
def test_training_survives_a_kill_and_writes_a_reader_that_loads(tmp_path: Path) -> None:
    import signal
    import time

    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    data = _tiny_set(tmp_path / "data")
    proc = subprocess.Popen(
        _train_cmd(tmp_path, data, "--checkpoint-seconds", "0", "--epochs", "40"),
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.time() + 300
    states: list[Path] = []
    while not states and time.time() < deadline and proc.poll() is None:
        time.sleep(0.5)
        states = list((tmp_path / "state").glob("*/state.pt"))
    assert states, "no checkpoint was written"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    again = subprocess.run(
        _train_cmd(tmp_path, data, "--epochs", "40", "--json"),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "resuming at step" in again.stderr
    assert int(again.stderr.split("resuming at step ")[1].split()[0]) >= 1
    summary = json.loads(again.stdout)
    artifact = Path(summary["artifact"])
    card = json.loads(artifact.with_suffix(".json").read_text())
    assert card["format"] == reader.FORMAT and card["turns"] == 12
    assert set(card["data"]) == {"conversation_devtiny.jsonl"}  # its sha256 recorded
    # the artifact loads on the bundled base and reads a turn it was trained on
    got = reader.TurnReader.load(artifact).read(
        "what about animal welfare?", parse_rules("Should zoos be banned?")
    )
    assert got.kind == "add_aspect" and got.span == "animal welfare"
    assert abs(sum(got.kinds.values()) - 1) < 1e-6 and set(got.dimensions) == set(reader.DIMENSIONS)


@pytest.mark.parametrize(
    ("question", "turn", "edit", "value"),
    [
        # phrasings in no dialogue set; the rules alone read none of the first three
        (
            "Should pensioners get free bus passes?",
            "I'm putting this in front of a class of thirteen-year-olds next week.",
            "add_constraint",
            {"dimension": "audience", "value": "teen", "negated": False},
        ),
        (
            "Should homework be banned in primary schools?",
            "My daughter reads Portuguese far better than English, anything in her language?",
            "add_constraint",
            {"dimension": "language", "value": "pt", "negated": False},
        ),
        (
            "Should cities charge drivers a congestion fee?",
            "Could you keep each point short enough to read on a phone?",
            "add_constraint",
            {"dimension": "length", "value": "short", "negated": False},
        ),
        (
            "Should pensioners get free bus passes?",
            "A lot of our volunteers drive in the countryside, so it would help to see how "
            "this plays out for rural bus routes in particular.",
            "add_aspect",
            "rural bus routes",
        ),
        (
            "Should cities charge drivers a congestion fee?",
            "Honestly the bit I keep wondering about is what it does to small shops on the "
            "high street.",
            "add_aspect",
            "small shops on the high street",
        ),
        (
            "Should cities charge drivers a congestion fee?",
            "Leave out anything that came from a lobby group's website, please.",
            "add_constraint",
            {"dimension": "source", "value": "lobby group", "negated": True},
        ),
        (
            "Should cities charge drivers a congestion fee?",
            "Is nuclear power safe?",
            "new_topic",
            None,
        ),
    ],
)
def test_the_shipped_reader_reads_phrasings_in_no_set(
    question: str, turn: str, edit: str, value: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assistant.understand.facet_judge import shared_judge

    assert reader.bundled_artifact().exists(), "the shipped turn reader is missing"
    judge = shared_judge()  # the bundled embedder's judge, as the app and `sphere ask` use
    monkeypatch.setattr(judge, "reader_choice", "bundled")
    got = resolve(turn, parse_rules(question), judge)
    assert (got.edit, got.value) == (edit, value), got.rule


def test_a_reader_file_that_cannot_load_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "r.safetensors"
    bad.write_bytes(b"not a reader")
    got = _sphere(
        "eval", "conversation", "--data", str(DATA / "conversation_dev.jsonl"), "--reader", str(bad)
    )
    assert got.returncode != 0 and "Traceback" not in got.stderr
    assert "turn reader" in got.stderr and "followup.reader" in got.stderr


def test_an_out_path_that_cannot_be_written_is_refused_before_training() -> None:
    got = _sphere(
        "train",
        "turn-reader",
        "--data",
        str(DATA / "conversation_dev.jsonl"),
        "--out",
        "/proc/no-such-folder/r.safetensors",
        "--no-progress",
        timeout=120,
    )
    assert got.returncode == 2 and "cannot write" in got.stderr and "Traceback" not in got.stderr
