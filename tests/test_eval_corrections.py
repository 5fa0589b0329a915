"""``sphere eval stance --corrections sessions.db``: a session log's corrections of sides
scored as a labelled set, with the metrics of the other kinds (issue 33)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from assistant.eval.stance import correction_cases, metrics, model_probs
from assistant.models import (
    BalanceReport,
    ClaimSummary,
    DocumentHit,
    PassageHit,
    QueryPlan,
    Reference,
    SideBalance,
    Summary,
    SummaryPerspective,
    TurnResult,
)
from assistant.store import SessionStore
from assistant.summarize.correct import apply_correction, make_correction
from tests.test_sessions_cli import run

QUESTION = "Should school uniforms be mandatory?"
CLAIMS = ("School uniforms should be mandatory.", "School uniforms should not be mandatory.")
TEXTS = {
    "pro-1": "Compulsory uniforms reduce bullying over clothes and should be required in "
    "every school.",
    "pro-2": "Making uniforms mandatory is the right policy: it puts all pupils on an equal "
    "footing.",
    "con-1": "Mandatory uniforms should be scrapped because they suppress pupils' self-expression.",
    "off-1": "The bakery on the corner sells sourdough loaves on Saturdays.",
}


def _turn() -> TurnResult:
    """An answer that got every side wrong: pro-1 and con-1 under the other claim, the
    bakery page cited, pro-2 left "side unclear"."""
    hits: dict[str, list[DocumentHit]] = {"pro": [], "con": []}
    for n, (doc_id, text) in enumerate(TEXTS.items()):
        side = "pro" if n % 2 == 0 else "con"
        hits[side].append(
            DocumentHit(
                doc_id,
                0.5,
                n,
                title=doc_id.title(),
                passages=[PassageHit(n, doc_id, 0.5, text, 0, len(text))],
            )
        )

    def ref(doc_id: str) -> Reference:
        return Reference(
            doc_id,
            title=doc_id.title(),
            passage_id=list(TEXTS).index(doc_id),
            quote=TEXTS[doc_id],
            stance=0.6,
        )

    summary = Summary(
        QUESTION,
        [
            ClaimSummary(CLAIMS[0], "pro", [SummaryPerspective("a", [ref("con-1"), ref("off-1")])]),
            ClaimSummary(CLAIMS[1], "con", [SummaryPerspective("b", [ref("pro-1")])]),
        ],
        BalanceReport(
            sides=[SideBalance("pro", 2), SideBalance("con", 1)],
            unclear_doc_ids=["pro-2"],
            stance_p={d: [0.4, 0.4, 0.2] for d in TEXTS},
        ),
    )
    plan = QueryPlan(QUESTION, QUESTION, claims=CLAIMS)
    return TurnResult(QUESTION, plan, hits, summary, index="demo", model={"stance": {}})


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A session log made here: one turn, five corrections (pro-1 twice: the last counts)."""
    path = tmp_path / "sessions.db"
    with SessionStore(path) as s:
        sid = s.create_session(index="demo")
        result = _turn()
        tid = s.add_turn(sid, result)
        for doc_id, to in (
            ("pro-1", "out"),
            ("pro-1", "pro"),
            ("con-1", "con"),
            ("off-1", "out"),
            ("pro-2", "pro"),
        ):
            fix = make_correction(result, doc_id, to)
            result = apply_correction(result, fix)
            s.add_correction(tid, fix)
    return path


def test_corrections_are_cases_with_the_users_side_as_gold(log: Path) -> None:
    cases = correction_cases(log)
    got = {(c.text, c.gold, c.task) for c in cases}
    assert got == {
        (TEXTS["pro-1"], 0, "from:out"),  # taken out, then placed under claim A: A counts
        (TEXTS["con-1"], 1, "from:pro"),
        (TEXTS["off-1"], 2, "from:pro"),  # out of the answer = neither
        (TEXTS["pro-2"], 0, "from:unclear"),
    }
    assert all(c.claims == CLAIMS and c.question == QUESTION for c in cases)
    assert all(c.passages == (c.text,) for c in cases)  # the passages the model judged


def test_eval_stance_scores_the_corrections_with_the_usual_metrics(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from assistant.stance.model import shared_model

    code, out, err = run(["eval", "stance", "--corrections", str(log), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["kind"] == "corrections" and data["main"] is None
    assert set(data["methods"]) == {"claim_margin", "sphere", "sphere_document"}
    assert set(data["tasks"]) == {"from:out", "from:pro", "from:unclear"}
    sphere = data["methods"]["sphere"]
    assert sphere["n"] == 4.0
    # the figures are the shared metrics of the model's own probabilities on these cases
    cases = correction_cases(log)
    want = metrics(model_probs(shared_model(), cases, whole=False), cases)
    assert sphere == pytest.approx(want)
    assert {"side_accuracy", "accuracy", "macro_f1", "accuracy_none", "ece"} <= set(sphere)
    # --data detects a session log by its content
    code, out2, _ = run(["eval", "stance", "--data", str(log), "--json"], capsys)
    assert code == 0
    again = json.loads(out2)
    assert again["methods"]["sphere"] == pytest.approx(sphere)
    assert np.isclose(again["methods"]["claim_margin"]["n"], 4.0)


def test_eval_stance_corrections_bad_input_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.db"
    code, _, err = run(["eval", "stance", "--corrections", str(missing)], capsys)
    assert code == 2 and "session log not found" in err and not missing.exists()
    empty = tmp_path / "empty.db"
    with SessionStore(empty) as s:
        s.add_turn(s.create_session(index="demo"), _turn())
    code, _, err = run(["eval", "stance", "--corrections", str(empty)], capsys)
    assert code == 2 and "holds no corrections" in err and "sphere sessions correct" in err
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    code, _, err = run(["eval", "stance", "--data", str(foreign)], capsys)
    assert code == 6 and "not a Sphere session log" in err
    code, _, err = run(["eval", "stance"], capsys)
    assert code == 2 and "give one of --data FILE and --corrections" in err
    code, _, err = run(
        ["eval", "stance", "--data", str(empty), "--corrections", str(empty)], capsys
    )
    assert code == 2 and "give one of" in err
    assert "Traceback" not in err
