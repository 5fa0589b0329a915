"""Scripted stand-ins for the pipeline and the session log, for the UI tests.

A fake is for testing the app's control flow (progress, cancel, re-run with an
edited plan, sessions); the real pipeline and store are wired in ``make_app``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from assistant.errors import CancelledError, IndexNotFoundError
from assistant.models import (
    NO_EVIDENCE,
    AnswerRow,
    Aspect,
    AspectMatch,
    BalanceReport,
    ClaimSummary,
    Constraint,
    Correction,
    Document,
    DocumentHit,
    FactualAnswer,
    Lookup,
    LookupRow,
    PassageHit,
    Progress,
    QueryPerspective,
    QueryPlan,
    Reference,
    SideBalance,
    Summary,
    SummaryPerspective,
    TurnResult,
)

PASSAGES = {
    11: (
        "School mandates raised measles vaccination coverage above the 95 percent herd "
        "immunity threshold within two years, according to the regional health office."
    ),
    12: (
        "Outbreaks in schools fell sharply once proof of vaccination became a condition "
        "of enrolment, the study of 40 districts found."
    ),
    21: (
        "Critics argue that compulsion erodes trust: parents who feel coerced are less "
        "likely to accept other public health advice."
    ),
    22: (
        "Several countries reach high coverage without mandates, relying on free access "
        "and reminders instead of penalties."
    ),
    51: (
        "Attendance dipped among exempted children in districts with strict mandates, "
        "though the effect faded after a year."
    ),
    61: (
        "The first school vaccination laws date from the 1850s, when Massachusetts "
        "required smallpox vaccination for pupils."
    ),
}
DOCS = {
    "d1": Document(
        "d1", "Measles coverage after school mandates", "", "health.gov", "corpus/mandates.pdf"
    ),
    "d2": Document(
        "d2", "Enrolment rules and outbreaks", "", "Journal of Epidemiology", "corpus/outbreaks.txt"
    ),
    "d3": Document(
        "d3", "Trust and coercion in public health", "", "opinion weekly", "corpus/trust.html"
    ),
    "d4": Document(
        "d4", "Coverage without compulsion", "", "policy institute", "corpus/voluntary.txt"
    ),
    "d5": Document(
        "d5", "Exemptions and school attendance", "", "Education Review", "corpus/attendance.txt"
    ),
    "d6": Document(
        "d6", "A history of school vaccination laws", "", "Library of Medicine", "corpus/laws.txt"
    ),
}
PASSAGE_DOC = {11: "d1", 12: "d2", 21: "d3", 22: "d4", 51: "d5", 61: "d6"}
PAGES = {11: 3, 12: None, 21: None, 22: None, 51: None, 61: None}
# the stance model's (P(pro), P(con), P(neither)) for each summarized document: d5 leans
# to the pro claim without the confidence it needs (side unclear), d6 takes no side
STANCE_P = {
    "d1": [0.91, 0.05, 0.04],
    "d2": [0.86, 0.06, 0.08],
    "d3": [0.12, 0.78, 0.1],
    "d4": [0.2, 0.64, 0.16],
    "d5": [0.44, 0.38, 0.18],
    "d6": [0.08, 0.07, 0.85],
}


def _ref(pid: int, quote: str, *, verified: bool = True, support: float = 0.9) -> Reference:
    doc = DOCS[PASSAGE_DOC[pid]]
    text = PASSAGES[pid]
    start = text.find(quote)
    return Reference(
        doc_id=doc.doc_id,
        title=doc.title,
        source=doc.source,
        path=doc.path,
        page=PAGES[pid],
        passage_id=pid,
        quote=quote,
        quote_start=start,
        quote_end=start + len(quote) if start >= 0 else -1,
        retrieval_score=0.71,
        support=support,
        verified=verified,
        check="quote" if verified else "similarity",
        stance=max(STANCE_P[doc.doc_id][:2]),
    )


def sample_plan(question: str) -> QueryPlan:
    return QueryPlan(
        question=question,
        root_query="vaccination compulsory school children",
        perspectives=[
            QueryPerspective("compulsory", role="stance", side="pro"),
            QueryPerspective("parental choice", role="stance", side="con"),
        ],
        aspects=[Aspect("vaccination"), Aspect("school children")],
        claims=(
            "Vaccination should be compulsory for school children.",
            "Vaccination should not be compulsory for school children.",
        ),
        constraints=[Constraint("source", "news", negated=True, hard=False)],
    )


def sample_result(
    question: str, plan: QueryPlan | None = None, *, empty_con: bool = False
) -> TurnResult:
    plan = plan or sample_plan(question)
    pro = ClaimSummary(
        claim=plan.claims[0],
        side="pro",
        perspectives=[
            SummaryPerspective(
                "Mandates lift coverage past the herd-immunity threshold.",
                [
                    _ref(11, "above the 95 percent herd immunity threshold"),
                    _ref(12, "Outbreaks in schools fell sharply"),
                ],
            ),
            SummaryPerspective(
                "Enrolment checks cut school outbreaks.",
                [_ref(12, "Outbreaks in schools fell sharply")],
            ),
        ],
    )
    con = ClaimSummary(claim=plan.claims[1], side="con")
    if empty_con:
        con.note = NO_EVIDENCE
    else:
        con.perspectives = [
            SummaryPerspective(
                "Coercion erodes parents' trust in public health advice.",
                [_ref(21, "parents who feel coerced are less likely to accept")],
            ),
            SummaryPerspective(
                "High coverage is reachable without mandates.",
                [_ref(22, "high coverage without mandates", verified=False, support=0.41)],
            ),
        ]
    hits: dict[str, list[DocumentHit]] = {"pro": [], "con": []}
    for side, pids in (("pro", (11, 12, 51)), ("con", (21, 22, 61))):
        for rank, pid in enumerate(pids, 1):
            doc = DOCS[PASSAGE_DOC[pid]]
            hits[side].append(
                DocumentHit(
                    doc_id=doc.doc_id,
                    score=0.7,
                    rank=rank,
                    title=doc.title,
                    source=doc.source,
                    path=doc.path,
                    side=side,  # type: ignore[arg-type]
                    passages=[
                        PassageHit(
                            pid, doc.doc_id, 0.7, PASSAGES[pid], 0, len(PASSAGES[pid]), PAGES[pid]
                        )
                    ],
                )
            )
    balance = BalanceReport(
        sides=[
            SideBalance("pro", 2, 2, 0.71, 2),
            SideBalance(
                "con", 0 if empty_con else 2, 0 if empty_con else 2, 0.68, 0 if empty_con else 2
            ),
        ],
        lopsidedness=1.0 if empty_con else 0.05,
        no_side_doc_ids=["d6"],
        unclear_doc_ids=["d5"],
        stance_p={d: list(p) for d, p in STANCE_P.items()},
    )
    return TurnResult(
        question=question,
        plan=plan,
        hits=hits,
        summary=Summary(question=question, claims=[pro, con], balance=balance),
        index="demo",
        timings={"understanding": 0.1, "retrieving": 0.4, "summarizing": 1.2},
        model={"llm": "fake", "embedder": "fake"},
        retrieval={"mode": "sphere", "k": 10},
    )


LOOKUP_QUESTION = "A hotel with quiet rooms and breakfast included"
HOTELS = {
    31: (
        "harbour",
        "Harbour View Hotel",
        "Travel Notes",
        "The Harbour View Hotel has quiet rooms facing the bay. Breakfast is included in "
        "every rate.",
    ),
    32: (
        "garden",
        "Garden Rest Guesthouse",
        "Travel Notes",
        "A small guesthouse whose quiet rooms open onto a walled garden. Guests make their "
        "own meals in the shared kitchen.",
    ),
    33: (
        "loft",
        "City Loft Inn",
        "Nightlife Guide",
        "City Loft Inn sits above a busy nightclub, so the rooms are loud until late.",
    ),
}


def _sentence_ref(pid: int, sentence: str, *, verified: bool, support: float) -> Reference:
    doc_id, title, source, text = HOTELS[pid]
    start = text.find(sentence)
    return Reference(
        doc_id=doc_id,
        title=title,
        source=source,
        path="hotels.jsonl",
        passage_id=pid,
        quote=sentence,
        quote_start=start,
        quote_end=start + len(sentence),
        retrieval_score=0.7,
        support=support,
        verified=verified,
        check="terms" if verified and support == 1.0 else "similarity",
    )


def sample_lookup_result(
    question: str = LOOKUP_QUESTION, plan: QueryPlan | None = None
) -> TurnResult:
    """A lookup answered: three hotels, two aspects, met / not met with their sentences."""
    aspects = ["quiet rooms", "breakfast included"]
    plan = plan or QueryPlan(
        question=question,
        root_query=question,
        aspects=[Aspect(a) for a in aspects],
        intent="lookup",
    )
    evidence = {
        31: [
            ("The Harbour View Hotel has quiet rooms facing the bay.", True, 1.0),
            ("Breakfast is included in every rate.", True, 1.0),
        ],
        32: [
            ("A small guesthouse whose quiet rooms open onto a walled garden.", True, 1.0),
            ("Guests make their own meals in the shared kitchen.", False, 0.33),
        ],
        33: [
            (
                "City Loft Inn sits above a busy nightclub, so the rooms are loud until late.",
                False,
                0.53,
            ),
            (
                "City Loft Inn sits above a busy nightclub, so the rooms are loud until late.",
                False,
                0.21,
            ),
        ],
    }
    rows = []
    hits = []
    for rank, (pid, checks) in enumerate(evidence.items(), 1):
        doc_id, title, source, text = HOTELS[pid]
        score = round(0.75 - 0.04 * rank, 2)
        rows.append(
            LookupRow(
                rank=rank,
                doc_id=doc_id,
                title=title,
                source=source,
                path="hotels.jsonl",
                score=score,
                aspects=[
                    AspectMatch(a, ok, _sentence_ref(pid, sent, verified=ok, support=sup), 0.5)
                    for a, (sent, ok, sup) in zip(aspects, checks, strict=True)
                ],
            )
        )
        hits.append(
            DocumentHit(
                doc_id=doc_id,
                score=score,
                rank=rank,
                title=title,
                source=source,
                path="hotels.jsonl",
                side="pro",
                passages=[PassageHit(pid, doc_id, score, text, 0, len(text))],
            )
        )
    return TurnResult(
        question=question,
        plan=plan,
        hits={"pro": hits, "con": []},
        summary=Summary(question=question, claims=[]),
        index="hotels",
        timings={"understand": 0.1, "retrieve": 0.3, "verify": 0.2},
        model={"embedder": "fake"},
        retrieval={"mode": "sphere", "k": 10},
        lookup=Lookup(question, aspects, rows, "amean"),
    )


FACTUAL_QUESTION = "What did school mandates do to measles vaccination coverage?"


def sample_factual_result(
    question: str = FACTUAL_QUESTION, plan: QueryPlan | None = None
) -> TurnResult:
    """A factual question answered: two passages, ranked, each with its sentence."""
    plan = plan or QueryPlan(
        question=question,
        root_query=question,
        perspectives=[QueryPerspective(question, role="interpretation")],
        intent="factual",
    )
    rows, hits = [], []
    for rank, pid in enumerate((11, 12), 1):
        doc = DOCS[PASSAGE_DOC[pid]]
        quote = PASSAGES[pid]
        ref = _ref(pid, quote, support=round(0.7 - 0.1 * rank, 2))
        ref.check = "question"
        score = round(0.8 - 0.05 * rank, 2)
        rows.append(AnswerRow(rank, doc.doc_id, doc.title, doc.source, doc.path, score, ref))
        hits.append(
            DocumentHit(
                doc_id=doc.doc_id,
                score=score,
                rank=rank,
                title=doc.title,
                source=doc.source,
                path=doc.path,
                side="pro",
                passages=[PassageHit(pid, doc.doc_id, score, quote, 0, len(quote))],
            )
        )
    return TurnResult(
        question=question,
        plan=plan,
        hits={"pro": hits, "con": []},
        summary=Summary(question=question, claims=[]),
        index="demo",
        timings={"understand": 0.1, "retrieve": 0.3, "verify": 0.2},
        model={"embedder": "fake"},
        retrieval={"mode": "sphere", "k": 10},
        answer=FactualAnswer(question, rows),
    )


class ScriptedPipeline:
    """Reports the stages of a pass and returns :func:`sample_result`.

    With ``gate`` set up, ``run`` stops half-way through the local summaries
    until the gate opens (or ``cancel`` is set, which raises CancelledError),
    so a test can look at the progress display mid-run.
    """

    def __init__(
        self,
        *,
        gate: threading.Event | None = None,
        empty_con: bool = False,
        index_names: list[str] | None = None,
        lookup: bool = False,
        seconds: float = 0.0,
        factual: bool = False,
    ) -> None:
        self.gate = gate
        # how long a pass takes on the app's clock (a FixedClock, set by build_app)
        self.seconds = seconds
        self.clock: Any = None
        self.empty_con = empty_con
        self.calls: list[tuple[str, QueryPlan | None]] = []
        self.skips: list[dict[str, set[str]] | None] = []
        self.lookup = lookup  # answer every question with the sample lookup
        # answer with the sample factual answer, unless the plan asks for both sides
        self.factual = factual
        self.paused = threading.Event()  # set when run() is waiting at the gate
        self._index_names = index_names or ["demo", "papers"]

    def run(
        self,
        question: str,
        *,
        plan: QueryPlan | None = None,
        progress: Callable[[Progress], None] | None = None,
        cancel: threading.Event | None = None,
        skip: dict[str, set[str]] | None = None,
    ) -> TurnResult:
        self.calls.append((question, plan))
        self.skips.append(skip)
        report = progress or (lambda p: None)
        steps = [
            Progress("understanding"),
            Progress("retrieving", 1, 2, "pro"),
            Progress("retrieving", 2, 2, "con"),
            Progress("summarizing", 1, 4),
            Progress("summarizing", 2, 4),
        ]
        for p in steps:
            report(p)
        if self.gate is not None:
            self.paused.set()
            while not self.gate.wait(0.01):
                if cancel is not None and cancel.is_set():
                    raise CancelledError("cancelled by the user")
        if cancel is not None and cancel.is_set():
            raise CancelledError("cancelled by the user")
        for p in [
            Progress("summarizing", 3, 4),
            Progress("summarizing", 4, 4),
            Progress("merging", 1, 1),
            Progress("verifying", 1, 1),
            Progress("done"),
        ]:
            report(p)
        if self.clock is not None:
            self.clock.now += self.seconds
        if self.lookup:
            return sample_lookup_result(question, plan)
        if self.factual and (plan is None or plan.intent == "factual"):
            return sample_factual_result(question, plan)
        return sample_result(question, plan, empty_con=self.empty_con)

    def passage_text(self, passage_id: int) -> str:
        return PASSAGES[passage_id]

    def document(self, doc_id: str) -> Document:
        return DOCS[doc_id]

    def index_names(self) -> list[str]:
        return list(self._index_names)


def missing_index_factory(settings: Any, index_name: str) -> ScriptedPipeline:
    raise IndexNotFoundError(
        f"Index '{index_name}' not found in {settings.index_dir}.",
        hint=f"Build it with: sphere index build {index_name} PATH",
    )


# --------------------------------------------------------------------------- store


@dataclass
class FakeSessionInfo:
    id: int
    title: str
    created: datetime
    updated: datetime
    turns: int
    index: str


@dataclass
class FakeStoredTurn:
    id: int
    session_id: int
    created: datetime
    result: TurnResult


@dataclass
class FakeSearchHit:
    session_id: int
    turn_id: int
    question: str
    snippet: str


@dataclass
class MemoryStore:
    """An in-memory session log with a fixed clock (stable snapshots)."""

    sessions: dict[int, FakeSessionInfo] = field(default_factory=dict)
    stored: dict[int, list[FakeStoredTurn]] = field(default_factory=dict)
    corrections: list[tuple[int, Correction]] = field(default_factory=list)
    _next_turn: int = 1
    _tick: int = 0

    def _now(self) -> datetime:
        self._tick += 1
        return datetime(2025, 3, 14, 9, 0) + timedelta(minutes=self._tick)

    def create_session(
        self,
        title: str = "",
        *,
        index: str = "",
        settings: Any = None,
        model: Any = None,
        embedder: str = "",
    ) -> int:
        sid = max(self.sessions, default=0) + 1
        now = self._now()
        self.sessions[sid] = FakeSessionInfo(sid, title, now, now, 0, index)
        self.stored[sid] = []
        return sid

    def list_sessions(self) -> list[FakeSessionInfo]:
        return sorted(self.sessions.values(), key=lambda s: (s.updated, s.id), reverse=True)

    def get_session(self, session_id: int) -> FakeSessionInfo:
        return self.sessions[session_id]

    def rename_session(self, session_id: int, title: str) -> None:
        self.sessions[session_id].title = title

    def delete_session(self, session_id: int) -> None:
        del self.sessions[session_id]
        del self.stored[session_id]

    def add_turn(self, session_id: int, result: TurnResult) -> int:
        tid = self._next_turn
        self._next_turn += 1
        now = self._now()
        self.stored[session_id].append(FakeStoredTurn(tid, session_id, now, result))
        info = self.sessions[session_id]
        info.turns += 1
        info.updated = now
        return tid

    def turns(self, session_id: int) -> list[FakeStoredTurn]:
        return list(self.stored[session_id])

    def add_correction(self, turn_id: int, correction: Correction) -> TurnResult:
        """As the real log: the turn's answer stored corrected, the correction kept."""
        from assistant.summarize.correct import apply_correction

        for turns in self.stored.values():
            for t in turns:
                if t.id == turn_id:
                    t.result = apply_correction(t.result, correction)
                    self.corrections.append((turn_id, correction))
                    return t.result
        raise KeyError(turn_id)

    def search(self, query: str) -> list[FakeSearchHit]:
        q = query.casefold()
        out = []
        for sid, turns in self.stored.items():
            for t in turns:
                if q in t.result.question.casefold():
                    out.append(FakeSearchHit(sid, t.id, t.result.question, t.result.question))
        return out


def seeded_store(n: int = 3) -> MemoryStore:
    store = MemoryStore()
    questions = [
        "Should vaccination be compulsory for school children?",
        "Is a four-day work week good for business?",
        "Do electric cars reduce emissions overall?",
    ]
    for q in questions[:n]:
        sid = store.create_session(q, index="demo")
        store.add_turn(sid, sample_result(q))
    return store


# --------------------------------------------------------------------------- app


class FixedClock:
    """A monotonic clock the test moves by hand (stable elapsed times)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def build_app(
    tmp_path: Any,
    *,
    pipeline: Any = None,
    store: Any = None,
    factory: Any = None,
    theme: str = "textual-dark",
    **kwargs: Any,
) -> Any:
    """``make_app`` with fakes, a fixed clock and an export folder under ``tmp_path``."""
    from assistant.config import Settings
    from assistant.ui.app import make_app

    pipeline = pipeline or ScriptedPipeline()
    settings = Settings.model_validate(
        {"index_dir": str(tmp_path / "indexes"), "ui": {"theme": theme}}
    )
    clock = kwargs.pop("clock", FixedClock())
    if isinstance(pipeline, ScriptedPipeline) and pipeline.clock is None:
        pipeline.clock = clock  # its passes take pipeline.seconds on the app's clock
    return make_app(
        settings,
        pipeline_factory=factory or (lambda s, name: pipeline),
        store=store if store is not None else MemoryStore(),
        clock=clock,
        export_dir=tmp_path,
        **kwargs,
    )


def no_cursor_blink(app: Any) -> None:
    from textual.widgets import Input, TextArea

    for widget in app.query(Input):
        widget.cursor_blink = False
    for area in app.query(TextArea):
        area.cursor_blink = False
