"""Dataclasses shared by the stages of the one pass (DESIGN §2).

Names follow the papers: a question has a ``root_query``, ``perspectives``
(paper 000) and ``aspects`` (paper 003); a summary has two ``claims`` each with
``perspectives`` that cite ``references`` (paper 004, eq. 1).

Every class round-trips through plain JSON with ``to_dict`` / ``from_dict`` so
the session log, ``--json`` output and the UI share one representation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, TypeVar

from assistant.wording import count

Side = Literal["pro", "con"]
SIDES: tuple[Side, Side] = ("pro", "con")
Intent = Literal["two_sided", "one_sided", "factual", "lookup"]

T = TypeVar("T")


def _from_dict(cls: type[T], data: dict[str, Any]) -> T:
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in data.items() if k in names})


# --------------------------------------------------------------------------- corpus


@dataclass
class Document:
    """One source document (a file, or a record of a JSONL/JSON/CSV file)."""

    doc_id: str
    title: str
    text: str
    source: str = ""
    path: str = ""
    format: str = "txt"
    language: str = ""
    n_words: int = 0
    meta: dict[str, Any] = field(default_factory=dict)
    # computed at indexing time (assistant.ingest.attributes): language, structure,
    # reading_grade, audience, domain, …
    attrs: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Document:
        return _from_dict(cls, data)


@dataclass
class Passage:
    """A chunk of a document with provenance: ``text == doc.text[start:end]``.

    ``page`` is 1-based for PDFs and ``None`` otherwise.
    """

    doc_id: str
    ordinal: int
    text: str
    start: int
    end: int
    page: int | None = None
    passage_id: int = -1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Passage:
        return _from_dict(cls, data)


# --------------------------------------------------------------------------- retrieval


@dataclass
class PassageHit:
    passage_id: int
    doc_id: str
    score: float
    text: str = ""
    start: int = 0
    end: int = 0
    page: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PassageHit:
        return _from_dict(cls, data)


@dataclass
class DocumentHit:
    """A ranked document with the passage evidence and the scores behind it.

    ``scores`` maps a method name (``dense``, ``bm25``, ``pap_plus``,
    ``aspect:<text>``, ``fused`` …) to the score that method gave.
    """

    doc_id: str
    score: float
    rank: int = 0
    title: str = ""
    source: str = ""
    path: str = ""
    side: Side | None = None
    passages: list[PassageHit] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)
    # doc_ids of documents with the same best passage (copies of this one) that the
    # ``sphere`` retriever folded into this hit instead of listing them again
    copies: list[str] = field(default_factory=list)
    # the stance model's judgment of the best passage against the plan's two claims
    # (assistant.stance): {"side": "pro" | "con" | "none", "p": [P(pro), P(con), P(neither)]}
    stance: dict[str, Any] | None = None

    @property
    def best_passage(self) -> PassageHit | None:
        return self.passages[0] if self.passages else None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocumentHit:
        hit = _from_dict(cls, data)
        hit.passages = [PassageHit.from_dict(p) for p in data.get("passages", [])]
        return hit


# --------------------------------------------------------------------------- query plan


@dataclass
class QueryPerspective:
    """A phrase of the question that sets a viewpoint (paper 000 §2).

    ``role`` is one of the PIR perspective types: ``stance`` (support/undermine),
    ``ideology`` (left/right/center), ``location``, ``subtopic``, ``analogy``,
    ``entity``, ``interpretation``, ``verdict`` (support/refute/nei), ``source``,
    ``other``. ``side`` says which claim it serves, when it serves one.
    ``span`` gives character offsets in the question when the text is a span.
    """

    text: str
    role: str = "other"
    side: Side | None = None
    span: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["span"] = list(self.span) if self.span else None
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QueryPerspective:
        p = _from_dict(cls, data)
        if p.span is not None:
            p.span = (int(p.span[0]), int(p.span[1]))
        return p


@dataclass
class Aspect:
    """A non-overlapping sub-span of the question naming one facet (paper 003 §3.1)."""

    text: str
    span: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["span"] = list(self.span) if self.span else None
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Aspect:
        a = _from_dict(cls, data)
        if a.span is not None:
            a.span = (int(a.span[0]), int(a.span[1]))
        return a


@dataclass
class Constraint:
    """A document-level requirement in one InfoSearch dimension (paper 002 §3).

    ``dimension``: ``audience``, ``keyword``, ``format``, ``language``,
    ``length``, ``source``. ``value`` is the dimension's value (a keyword, an
    ISO-639-1 code, ``"short"``/``"long"`` or ``"<N"``/``">N"`` words, a source
    substring, a format name, an audience level). ``negated`` inverts the test
    ("not from news sites", "without insurance"). ``hard`` constraints filter,
    soft ones re-weight. ``text`` is the phrase of the question it came from.
    """

    dimension: str
    value: str
    negated: bool = False
    hard: bool = True
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Constraint:
        return _from_dict(cls, data)


@dataclass
class QueryPlan:
    """What the understand stage makes of a question (DESIGN §2)."""

    question: str
    root_query: str
    perspectives: list[QueryPerspective] = field(default_factory=list)
    aspects: list[Aspect] = field(default_factory=list)
    claims: tuple[str, str] = ("", "")
    constraints: list[Constraint] = field(default_factory=list)
    intent: Intent = "two_sided"
    # which side a one-sided question wants ("find evidence against X" -> "con")
    target_side: Side | None = None
    source: str = "rules"  # rules | llm | rules+llm | user
    # a follow-up (assistant.understand.followup): the session turn it edits, and how
    # its plan was derived ("add_constraint: + constraint language es")
    follows: int | None = None
    derivation: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "root_query": self.root_query,
            "perspectives": [p.to_dict() for p in self.perspectives],
            "aspects": [a.to_dict() for a in self.aspects],
            "claims": list(self.claims),
            "constraints": [c.to_dict() for c in self.constraints],
            "intent": self.intent,
            "target_side": self.target_side,
            "source": self.source,
            "follows": self.follows,
            "derivation": self.derivation,
        }

    def copy(self) -> QueryPlan:
        """An independent copy (its lists can be edited without touching this plan)."""
        return QueryPlan.from_dict(self.to_dict())

    def claims_question(self) -> str:
        """The question the plan's two claims answer (the stance model reads each claim
        with it). A follow-up's ``question`` is the follow-up's own text ("show me more",
        "only documents in Spanish"), not a question about the topic: for a follow-up,
        the topic it inherited (``root_query``)."""
        if self.follows is not None and self.root_query.strip():
            return self.root_query
        return self.question or self.root_query

    def edit_and_changes(self) -> tuple[str, list[str]]:
        """The follow-up's ``derivation`` read back: its edit and its changes
        ("add_constraint: + constraint language es; edited by you" ->
        ("add_constraint", ["+ constraint language es", "edited by you"])); a derivation
        without an edit is returned whole as the edit."""
        edit, sep, rest = self.derivation.partition(": ")
        if not sep:
            return self.derivation.strip(), []
        return edit, [c.strip() for c in rest.split(";") if c.strip()]

    def search_question(self) -> str:
        """The question retrieval searches with. A follow-up's own text ("show me more",
        "what about the cost?") names no topic: for a follow-up, the topic it inherited
        (``root_query``) with the facets the thread added to it (aspects and perspectives
        whose words the topic does not already hold), so "more" pages the same ranking
        and "what about the cost?" searches for the topic's cost."""
        if self.follows is None or not self.root_query.strip():
            return self.question or self.root_query
        root = " ".join(self.root_query.split())
        low = root.lower()
        extra = [
            " ".join(t.split())
            for t in (*(a.text for a in self.aspects), *(p.text for p in self.perspectives))
            if t.strip() and " ".join(t.split()).lower() not in low
        ]
        return " ".join([root, *dict.fromkeys(extra)])

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QueryPlan:
        claims = data.get("claims") or ["", ""]
        return cls(
            question=data.get("question", ""),
            root_query=data.get("root_query", ""),
            perspectives=[QueryPerspective.from_dict(p) for p in data.get("perspectives", [])],
            aspects=[Aspect.from_dict(a) for a in data.get("aspects", [])],
            claims=(str(claims[0]), str(claims[1])),
            constraints=[Constraint.from_dict(c) for c in data.get("constraints", [])],
            intent=data.get("intent", "two_sided"),
            target_side=data.get("target_side"),
            source=data.get("source", "rules"),
            follows=data.get("follows"),
            derivation=str(data.get("derivation") or ""),
        )


# --------------------------------------------------------------------------- summary


@dataclass
class Reference:
    """A document cited by a perspective, with the quote that supports it."""

    doc_id: str
    title: str = ""
    source: str = ""
    path: str = ""
    page: int | None = None
    passage_id: int = -1
    quote: str = ""
    # where the quote sits in the passage text (character offsets), if found
    quote_start: int = -1
    quote_end: int = -1
    retrieval_score: float = 0.0
    support: float = 0.0  # verifier's support score in [0, 1]
    verified: bool = False
    check: str = ""  # how it was verified: quote | similarity | model
    # the stance model's probability that the document supports the claim it is cited
    # under (None: no stance model ran)
    stance: float | None = None
    # "" when the summarizer cited it here; "moved" when the user moved it here from the
    # other claim, "placed" when the user placed a document the answer did not cite
    # (assistant.summarize.correct)
    by_user: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reference:
        return _from_dict(cls, data)


@dataclass
class SummaryPerspective:
    """One-sentence perspective under a claim, citing its documents (paper 004 eq. 1)."""

    text: str
    references: list[Reference] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "references": [r.to_dict() for r in self.references]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SummaryPerspective:
        return cls(
            text=data.get("text", ""),
            references=[Reference.from_dict(r) for r in data.get("references", [])],
        )


NO_EVIDENCE = "No supporting evidence found in this index."


@dataclass
class ClaimSummary:
    claim: str
    side: Side
    perspectives: list[SummaryPerspective] = field(default_factory=list)
    note: str = ""  # e.g. NO_EVIDENCE, or a constraint left too few documents

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim,
            "side": self.side,
            "perspectives": [p.to_dict() for p in self.perspectives],
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClaimSummary:
        return cls(
            claim=data.get("claim", ""),
            side=data.get("side", "pro"),
            perspectives=[SummaryPerspective.from_dict(p) for p in data.get("perspectives", [])],
            note=data.get("note", ""),
        )


@dataclass
class SideBalance:
    side: Side
    documents_cited: int = 0
    distinct_sources: int = 0
    mean_retrieval_score: float = 0.0
    perspectives: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class BalanceReport:
    """Per-side counts plus a lopsidedness index in [0, 1] (0 = even)."""

    sides: list[SideBalance] = field(default_factory=list)
    lopsidedness: float = 0.0
    unused_doc_ids: list[str] = field(default_factory=list)
    # summarized documents the stance model does not cite: those it says take no side
    # (P(neither) highest) and those whose side is unclear (it leans to a claim without
    # the confidence it needs); ``stance_p`` holds each one's (P(pro), P(con), P(neither))
    no_side_doc_ids: list[str] = field(default_factory=list)
    unclear_doc_ids: list[str] = field(default_factory=list)
    # every summarized document the stance model judged, cited or not
    stance_p: dict[str, list[float]] = field(default_factory=dict)
    # documents the user took out of the answer (assistant.summarize.correct)
    removed_doc_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": [s.to_dict() for s in self.sides],
            "lopsidedness": self.lopsidedness,
            "unused_doc_ids": list(self.unused_doc_ids),
            "no_side_doc_ids": list(self.no_side_doc_ids),
            "unclear_doc_ids": list(self.unclear_doc_ids),
            "stance_p": {k: list(v) for k, v in self.stance_p.items()},
            "removed_doc_ids": list(self.removed_doc_ids),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BalanceReport:
        return cls(
            sides=[_from_dict(SideBalance, s) for s in data.get("sides", [])],
            lopsidedness=float(data.get("lopsidedness", 0.0)),
            unused_doc_ids=list(data.get("unused_doc_ids", [])),
            no_side_doc_ids=list(data.get("no_side_doc_ids", [])),
            unclear_doc_ids=list(data.get("unclear_doc_ids", [])),
            stance_p={
                str(k): [float(x) for x in v] for k, v in (data.get("stance_p") or {}).items()
            },
            removed_doc_ids=list(data.get("removed_doc_ids", [])),
        )


@dataclass
class Summary:
    """The two-sided answer: exactly two claims (paper 004, Table 10)."""

    question: str
    claims: list[ClaimSummary]
    balance: BalanceReport = field(default_factory=BalanceReport)
    method: str = "deterministic"  # deterministic | model
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "claims": [c.to_dict() for c in self.claims],
            "balance": self.balance.to_dict(),
            "method": self.method,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Summary:
        return cls(
            question=data.get("question", ""),
            claims=[ClaimSummary.from_dict(c) for c in data.get("claims", [])],
            balance=BalanceReport.from_dict(data.get("balance", {})),
            method=data.get("method", "deterministic"),
            notes=list(data.get("notes", [])),
        )


# --------------------------------------------------------------------------- corrections

Place = Literal["pro", "con", "out"]
PLACES: tuple[Place, Place, Place] = ("pro", "con", "out")


@dataclass
class Correction:
    """The user's correction of one document's side in one answer (issue 33), kept as a
    labelled example for the stance model.

    ``to``: the claim the user put the document under, or ``"out"`` (taken out of the
    answer: it argues neither claim). ``was``: where the answer had it (``pro``,
    ``con``, ``both``, ``no_side``, ``unclear`` or ``out``). ``question`` and
    ``claims`` are what the stance model read it against; ``p`` its own (P(pro),
    P(con), P(neither)) for the document (None when the turn did not record them);
    ``passages`` the text it judged (the document's retrieved passages); ``quotes``
    the sentences the answer cited it with; ``stance_model`` the artifact's sha256.
    """

    doc_id: str
    to: Place
    was: str = ""
    title: str = ""
    question: str = ""
    claims: tuple[str, str] = ("", "")
    p: list[float] | None = None
    passages: list[str] = field(default_factory=list)
    quotes: list[str] = field(default_factory=list)
    stance_model: str = ""
    created: str = ""

    @property
    def label(self) -> int:
        """The gold side as the stance data numbers it: 0 = claim A, 1 = B, 2 = neither."""
        return PLACES.index(self.to)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["claims"] = list(self.claims)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Correction:
        c = _from_dict(cls, data)
        claims = list(data.get("claims") or ["", ""])
        c.claims = (str(claims[0]), str(claims[1]))
        c.p = [float(x) for x in data["p"]] if data.get("p") is not None else None
        c.passages = [str(t) for t in data.get("passages", [])]
        c.quotes = [str(t) for t in data.get("quotes", [])]
        return c


# --------------------------------------------------------------------------- lookup


@dataclass
class AspectMatch:
    """Whether a looked-up document meets one aspect of the question, and the evidence.

    ``reference`` holds the sentence of the document that best supports the
    aspect, checked the way summary citations are (``Reference.check``:
    ``quote``, ``terms`` or ``similarity``); ``met`` is ``reference.verified``.
    A document with no text has no reference.
    """

    aspect: str
    met: bool = False
    reference: Reference | None = None
    score: float = 0.0  # the retriever's score of the document for this aspect (aspect:<text>)

    def to_dict(self) -> dict[str, Any]:
        return {
            "aspect": self.aspect,
            "met": self.met,
            "reference": self.reference.to_dict() if self.reference else None,
            "score": self.score,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AspectMatch:
        ref = data.get("reference")
        return cls(
            aspect=str(data.get("aspect", "")),
            met=bool(data.get("met", False)),
            reference=Reference.from_dict(ref) if isinstance(ref, dict) else None,
            score=float(data.get("score", 0.0)),
        )


@dataclass
class LookupRow:
    """One ranked document of a lookup, with one :class:`AspectMatch` per plan aspect."""

    rank: int
    doc_id: str
    title: str = ""
    source: str = ""
    path: str = ""
    score: float = 0.0
    aspects: list[AspectMatch] = field(default_factory=list)
    copies: list[str] = field(default_factory=list)  # same-text documents folded into it

    @property
    def met(self) -> int:
        return sum(1 for a in self.aspects if a.met)

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k != "aspects"}
        d["aspects"] = [a.to_dict() for a in self.aspects]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LookupRow:
        row = _from_dict(cls, data)
        row.aspects = [AspectMatch.from_dict(a) for a in data.get("aspects", [])]
        row.copies = list(data.get("copies", []))
        return row


@dataclass
class Lookup:
    """The answer to a lookup question: a ranked list instead of two claims.

    ``aspects`` are the plan's aspects the rows are checked against (empty for
    a plain ranked list: fewer than two aspects); ``aggregator`` is the aspect
    fusion method that ranked the rows (paper 003 §4.3.3), empty when the
    ranking is the whole question's.
    """

    question: str
    aspects: list[str] = field(default_factory=list)
    rows: list[LookupRow] = field(default_factory=list)
    aggregator: str = ""

    def ranking_text(self) -> str:
        """How the list was ranked, in one sentence (shown by the export, CLI and app)."""
        n = len(self.aspects)
        if self.aspects and self.aggregator:
            return f"Ranked by aspect fusion ({self.aggregator}) over {count(n, 'aspect')}."
        if self.aspects:
            return f"Ranked by the whole question; {count(n, 'aspect')} checked."
        return "Ranked by the whole question."

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "aspects": list(self.aspects),
            "rows": [r.to_dict() for r in self.rows],
            "aggregator": self.aggregator,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Lookup:
        return cls(
            question=str(data.get("question", "")),
            aspects=[str(a) for a in data.get("aspects", [])],
            rows=[LookupRow.from_dict(r) for r in data.get("rows", [])],
            aggregator=str(data.get("aggregator", "")),
        )


# --------------------------------------------------------------------------- factual answer

NOT_A_DEBATE = (
    "A factual question, not a debate: the passages that answer it, ranked as the index "
    "ranks them for the question. Ask for both sides to see it argued."
)


@dataclass
class AnswerRow:
    """One ranked document of a factual answer, with the sentence of it that answers the
    question best (``reference``: the quote, a whole sentence of the document, its page
    and passage, and its cosine to the question as ``support``)."""

    rank: int
    doc_id: str
    title: str = ""
    source: str = ""
    path: str = ""
    score: float = 0.0
    reference: Reference | None = None
    copies: list[str] = field(default_factory=list)  # same-text documents folded into it

    def to_dict(self) -> dict[str, Any]:
        d = {k: v for k, v in asdict(self).items() if k != "reference"}
        d["reference"] = self.reference.to_dict() if self.reference else None
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AnswerRow:
        row = _from_dict(cls, data)
        ref = data.get("reference")
        row.reference = Reference.from_dict(ref) if isinstance(ref, dict) else None
        row.copies = list(data.get("copies", []))
        return row


@dataclass
class FactualAnswer:
    """The answer to a factual question (plan intent ``factual``): the passages that
    answer it, ranked, instead of two claims. Not a debate (:data:`NOT_A_DEBATE`)."""

    question: str
    rows: list[AnswerRow] = field(default_factory=list)

    def ranking_text(self) -> str:
        """What the answer is, in one sentence (shown by the app, the CLI and the export)."""
        return NOT_A_DEBATE

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "debate": False,
            "note": NOT_A_DEBATE,
            "rows": [r.to_dict() for r in self.rows],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FactualAnswer:
        return cls(
            question=str(data.get("question", "")),
            rows=[AnswerRow.from_dict(r) for r in data.get("rows", [])],
        )


@dataclass
class Progress:
    """What a stage reports through the progress callback."""

    stage: str  # understanding | retrieving | summarizing | merging | verifying | done
    step: int = 0
    total: int = 0
    detail: str = ""


@dataclass
class TurnResult:
    """Everything one pass produced for one question (what the session log stores)."""

    question: str
    plan: QueryPlan
    hits: dict[str, list[DocumentHit]]  # side ("pro"/"con") -> ranked documents
    summary: Summary  # for a lookup or a factual answer: no claims, only the notes
    index: str = ""
    timings: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    model: dict[str, Any] = field(default_factory=dict)  # llm path/sha256/backend, embedder
    retrieval: dict[str, Any] = field(default_factory=dict)  # retrieval settings used
    # the ranked list of a lookup question (plan.intent == "lookup"); None otherwise
    lookup: Lookup | None = None
    # a question about an earlier answer ("why is [8] under Claim B?"), answered from the
    # session log without a search (assistant.thread): the text answer; "" otherwise
    reply: str = ""
    # the passages that answer a factual question (plan.intent == "factual"); None otherwise
    answer: FactualAnswer | None = None
    # the user's corrections of sides, oldest first; ``summary`` already shows them
    corrections: list[Correction] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """How long the pass took: its ``total`` timing (the stages' timings overlap it,
        so they are summed only when it is missing)."""
        if "total" in self.timings:
            return float(self.timings["total"])
        return float(sum(self.timings.values()))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "question": self.question,
            "plan": self.plan.to_dict(),
            "hits": {s: [h.to_dict() for h in hs] for s, hs in self.hits.items()},
            "summary": self.summary.to_dict(),
            "index": self.index,
            "timings": dict(self.timings),
            "model": dict(self.model),
            "retrieval": dict(self.retrieval),
        }
        if self.lookup is not None:
            d["lookup"] = self.lookup.to_dict()
        if self.reply:
            d["reply"] = self.reply
        if self.answer is not None:
            d["answer"] = self.answer.to_dict()
        if self.corrections:
            d["corrections"] = [c.to_dict() for c in self.corrections]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnResult:
        return cls(
            question=data.get("question", ""),
            plan=QueryPlan.from_dict(data.get("plan", {})),
            hits={
                s: [DocumentHit.from_dict(h) for h in hs]
                for s, hs in (data.get("hits") or {}).items()
            },
            summary=Summary.from_dict(data.get("summary", {})),
            index=data.get("index", ""),
            timings=dict(data.get("timings", {})),
            model=dict(data.get("model", {})),
            retrieval=dict(data.get("retrieval", {})),
            lookup=Lookup.from_dict(data["lookup"]) if data.get("lookup") else None,
            reply=str(data.get("reply") or ""),
            answer=FactualAnswer.from_dict(data["answer"]) if data.get("answer") else None,
            corrections=[Correction.from_dict(c) for c in data.get("corrections") or []],
        )
