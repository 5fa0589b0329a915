"""The one pass of DESIGN §2: understand → retrieve → summarize → verify.

The UI, ``sphere ask`` and ``sphere eval summary`` all call :class:`Pipeline`.
Each stage reports :class:`~assistant.models.Progress` through a callback, in
order: ``understanding``, ``retrieving`` (per side), ``summarizing`` (local
summary k of n), ``merging`` (editorial merge), ``verifying``, ``done``; a set
``cancel`` event raises :class:`~assistant.errors.CancelledError` at the next
check (between stages, groups, references, and inside model generation).

The language model is loaded only when some stage uses it
(:func:`assistant.llm.capable.llm_plan`): with ``llm.use: always``, or with
``auto`` and a *capable* model (a server, or a GGUF of at least 3B parameters
and a 4096-token context), or with ``summary.path: model``. With ``auto`` and
the bundled 135M model no stage uses it, so it is not loaded; the GGUF's
header is still read (a missing or broken file fails at once with a clear
:class:`~assistant.errors.ModelError`), and every answer records which model
would be used and that it was not loaded (``TurnResult.model["llm"]``). With
``never`` nothing is read and every stage takes its deterministic path.

The stance model (:mod:`assistant.stance`, ``settings.stance``) decides which
claim a document stands under wherever a side is decided: the retriever's side
assignment of the most relevant documents, the summarizer's placement of
documents and perspectives and its choice of evidence sentence, and the
verifier's side check. ``stance.model: off`` leaves the claim margin to do it.

A lookup (``plan.intent == "lookup"``: items with wanted properties, no
claims) takes another path after retrieval: no summary, but a ranked list
(:class:`~assistant.models.Lookup`, ``TurnResult.lookup``) whose rows say
which of the plan's aspects each document meets, with the verified sentence
that shows it (:mod:`assistant.summarize.lookup`). With two or more aspects the
retriever ranks it by aspect fusion (paper 003 §4.3). Its progress is
``understanding``, ``retrieving``, ``verifying``, ``done``.

A factual question (``plan.intent == "factual"``) is not a debate: it gets no
claims and no summary, but the passages that answer it
(:class:`~assistant.models.FactualAnswer`, ``TurnResult.answer``), ranked as
a lookup's documents are, each with the sentence that answers the question
(:mod:`assistant.summarize.factual`). :func:`as_two_sided_plan` asks for both
sides of it instead (``sphere ask --two-sided``, the app's "Argue both sides",
the plan editor), and a debate plan without claims gets them from the question
parser (:func:`with_claims`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.config import Settings
from assistant.errors import CancelledError
from assistant.models import (
    SIDES,
    Document,
    FactualAnswer,
    Lookup,
    Passage,
    Progress,
    QueryPlan,
    Side,
    Summary,
    TurnResult,
)
from assistant.summarize.balance import balance_report
from assistant.summarize.evidence import SourceDoc, pool_documents, split_passages
from assistant.summarize.hiersphere import SummaryOptions, summarize
from assistant.summarize.verify import VerifyOptions, VerifyReport, verify_summary
from assistant.understand import check_question, make_claims
from assistant.wording import count

SENTENCE_CACHE_DOCS = 5000
ProgressFn = Callable[[Progress], None]

#: ``summary.path: auto`` with a model that is not capable means this path (chosen by
#: ``sphere eval summary``: with the bundled 135M model the deterministic path wins on
#: every figure); with a capable model ``auto`` means ``model``
AUTO_PATH = "deterministic"


def summary_path(settings: Settings, have_model: bool, capable: bool = False) -> str:
    """The summary path to run: ``deterministic`` or ``model``.

    ``auto`` is ``model`` when the loaded model is capable
    (:func:`assistant.llm.capable.is_capable`), else :data:`AUTO_PATH`.
    """
    from assistant.llm.capable import resolve_summary_path

    path = resolve_summary_path(settings.summary.path, settings.llm.use, capable)
    if path == "model" and not have_model:
        return "deterministic"
    return path


def load_stance(settings: Settings) -> Any:
    """The configured stance model (shared in the process), or None for ``off``."""
    choice = settings.stance.model.strip()
    if choice.lower() == "off":
        return None
    from assistant.stance.model import shared_model

    return shared_model(None if choice.lower() == "bundled" else Path(choice).expanduser())


def asked_side(plan: QueryPlan) -> Side | None:
    """The one side a one-sided plan asks for ("just the case against"), else None."""
    if plan.intent == "one_sided" and plan.target_side in SIDES:
        return plan.target_side
    return None


def one_side(summary: Summary, plan: QueryPlan, found: int = 0) -> None:
    """A one-sided plan ("just the case against", "find evidence for X") answers with its
    side only: the other claim is kept, as the question's other answer, with its
    perspectives left out and a note saying how many documents were found for it.

    The side asked for has the whole budget (:meth:`Pipeline.run`): twice the
    documents retrieved for it and twice ``summary.max_perspectives``; the other
    side's documents are retrieved (they are what "more from the other side"
    pages from, and the stance model needs both claims to place a document) but
    not summarized. ``found``: how many documents the other side's ranking held
    (after those already cited in the thread).
    """
    side = asked_side(plan)
    if side is None:
        return
    for claim in summary.claims:
        if claim.side != side:
            claim.perspectives = []
            claim.note = (
                f"Left out: only the other claim was asked for ({count(found, 'document')} "
                "found for this one not shown; "
                "ask for both sides to see them)."
                if found
                else "Left out: only the other claim was asked for (ask for both sides to see it)."
            )


def as_lookup_plan(plan: QueryPlan) -> QueryPlan:
    """``plan`` read as a lookup: the same question, root query, aspects and constraints,
    intent ``lookup``, no claims and no target side (``sphere ask --lookup``, the
    ``sphere eval lookup`` harness)."""
    return replace(plan, intent="lookup", claims=("", ""), target_side=None)


def as_two_sided_plan(plan: QueryPlan) -> QueryPlan:
    """``plan`` argued from both sides (a factual question the user wants as a debate):
    intent ``two_sided``, no target side, without the factual reading's own perspective
    (the whole question). Its claims, if it has none, come when it runs
    (:func:`with_claims` in :meth:`Pipeline.run`, on the answering thread: the parser
    they need may not be loaded yet)."""
    kept = [p for p in plan.perspectives if p.role != "interpretation"]
    return replace(plan, intent="two_sided", target_side=None, perspectives=kept)


def with_claims(plan: QueryPlan) -> QueryPlan:
    """A debate plan (two- or one-sided) with an empty claim gets both from the question
    parser (:func:`assistant.understand.make_claims` of its root query): a plan edited
    from a factual one has none, and the summary would write "Not: …"."""
    if plan.intent not in ("two_sided", "one_sided") or all(c.strip() for c in plan.claims):
        return plan
    root = plan.root_query.strip() or plan.question
    claims = make_claims(root, plan.intent)
    return replace(plan, claims=claims) if all(claims) else plan


def lookup_details(lookup: Lookup) -> dict[str, Any]:
    """What the session log records about how a lookup was ranked and checked."""
    checked = [m for row in lookup.rows for m in row.aspects]
    return {
        "aspects": len(lookup.aspects),
        "aggregator": lookup.aggregator,  # empty: ranked by the whole question
        "checked": len(checked),
        "met": sum(1 for m in checked if m.met),
    }


class Pipeline:
    """One index, one embedder, optionally one language model; ``run`` answers questions."""

    def __init__(
        self,
        settings: Settings,
        index: Any,
        embedder: Any,
        *,
        backend: Any = None,
        retriever: Any = None,
        stance: Any = None,
        llm_plan: Any = None,
    ) -> None:
        self.settings = settings
        #: :class:`assistant.llm.capable.LLMPlan` (``from_settings`` makes one); recorded
        #: with every answer
        self.llm_plan = llm_plan
        self.stance = stance
        self.index = index
        self.index_name: str = getattr(index, "name", "")
        self.embedder = embedder
        self.backend = backend
        self._prompts: Any = None
        # unit vectors of each document's sentences, filled as documents are summarized
        # (bounded: cleared when it grows past SENTENCE_CACHE_DOCS documents)
        self._sentence_cache: dict[str, Any] = {}
        if retriever is None:
            from assistant.retrieval.retriever import Retriever, params_from_settings

            params = replace(
                params_from_settings(settings.retrieval),
                stance_docs=settings.stance.documents,
                stance_min_confidence=settings.stance.min_confidence,
            )
            retriever = Retriever(index, embedder, settings.retrieval, params=params, stance=stance)
        self.retriever = retriever

    def set_stance(self, stance: Any) -> None:
        """Use another stance model (``None``: the claim margin decides sides)."""
        self.stance = stance
        if hasattr(self.retriever, "stance"):
            self.retriever.stance = stance

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_settings(cls, settings: Settings, index_name: str | None = None) -> Pipeline:
        """Open the index (``None`` = ``settings.default_index``), the embedder and the model.

        Raises :class:`IndexNotFoundError` for a missing index and
        :class:`ModelError` for a missing or broken model.
        """
        from assistant.embed import embedder_from_settings
        from assistant.index.store import Index

        name = index_name or settings.default_index
        embedder = embedder_from_settings(settings)
        index = Index.open(Path(settings.index_dir), name, embedder_name=embedder.name)
        backend = None
        try:
            from assistant.llm.capable import llm_plan

            plan = llm_plan(settings)  # reads the GGUF header, not the model
            stance = load_stance(settings)
            if plan.load:
                from assistant.llm.factory import load_backend

                backend = load_backend(settings.llm)
        except BaseException:
            index.close()
            raise
        return cls(settings, index, embedder, backend=backend, stance=stance, llm_plan=plan)

    @property
    def capable(self) -> bool:
        """Whether the loaded model is capable (``summary.path: auto`` then means the model)."""
        if self.backend is None:
            return False
        if self.llm_plan is not None and self.llm_plan.capability is not None:
            return bool(self.llm_plan.capable)
        from assistant.llm.capable import is_capable

        return is_capable(self.backend)

    @property
    def prompts(self) -> Any:
        if self._prompts is None:
            from assistant.llm import load_prompts

            self._prompts = load_prompts()
        return self._prompts

    # ------------------------------------------------------------------ the pass
    def run(
        self,
        question: str,
        *,
        plan: QueryPlan | None = None,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
        options: SummaryOptions | None = None,
        skip: dict[Side, set[str]] | None = None,
    ) -> TurnResult:
        """Answer ``question`` (or run ``plan`` as given, e.g. edited in the UI).

        ``skip``: per side, documents to leave out of that side's ranking, so the
        next ones take their places (a follow-up asking for more of a side).
        """
        q = check_question(question)
        emit = progress or (lambda _p: None)
        timings: dict[str, float] = {}

        def check() -> None:
            if cancel is not None and cancel.is_set():
                raise CancelledError("the answer was cancelled")

        t0 = time.perf_counter()
        check()
        emit(Progress("understanding", 0, 1, "reading the question"))
        if plan is None:
            plan = self.understand(q)
        elif plan.follows is not None and self.backend is not None and self.capable:
            # a capable model rewrites the follow-up into a standalone question; the
            # rules check it (assistant.understand.rewrite)
            from assistant.understand.rewrite import rewrite_followup

            plan = rewrite_followup(plan, q, self.backend)
        plan = with_claims(plan)
        timings["understand"] = time.perf_counter() - t0
        check()

        t = time.perf_counter()
        hits = self.retrieve(plan, emit, cancel, skip=skip)
        # constraint notes ("Only 1 document in this index is in Spanish …")
        retrieval_notes = list(getattr(self.retriever, "last_notes", []))
        timings["retrieve"] = time.perf_counter() - t
        check()

        lookup: Lookup | None = None
        answer: FactualAnswer | None = None
        if plan.intent == "lookup":
            lookup = self.answer_lookup(plan, hits, emit=emit, cancel=cancel, timings=timings)
            summary = Summary(question=q, claims=[], notes=retrieval_notes)
            details: dict[str, Any] = {"lookup": lookup_details(lookup)}
        elif plan.intent == "factual":
            answer = self.answer_factual(plan, hits, emit=emit, cancel=cancel, timings=timings)
            summary = Summary(question=q, claims=[], notes=retrieval_notes)
            details = {"answer": {"rows": len(answer.rows), "check": "question"}}
        else:
            summary, details = self._two_sided(plan, hits, options, emit, cancel, timings)
            summary.notes[:0] = retrieval_notes
        timings["total"] = time.perf_counter() - t0
        emit(Progress("done", 1, 1, ""))
        return TurnResult(
            question=q,
            plan=plan,
            hits={s: list(hits.get(s, [])) for s in SIDES},
            summary=summary,
            index=self.index_name,
            timings={k: round(v, 4) for k, v in timings.items()},
            model=self.model_info(),
            retrieval={**self.settings.retrieval.model_dump(mode="json"), **details},
            lookup=lookup,
            answer=answer,
        )

    def _two_sided(
        self,
        plan: QueryPlan,
        hits: dict[Side, list[Any]],
        options: SummaryOptions | None,
        emit: ProgressFn,
        cancel: threading.Event | None,
        timings: dict[str, float],
    ) -> tuple[Summary, dict[str, Any]]:
        """The summary of a debate plan, one-sided or two-sided, and what the log records."""
        opts = options or self.summary_options()
        shown, side = hits, asked_side(plan)
        if side is not None:  # the side asked for has the whole budget (one_side)
            shown = {s: list(hits.get(s, [])) if s == side else [] for s in SIDES}
            opts = replace(opts, max_perspectives=2 * opts.max_perspectives)
        summary, report = self.answer(plan, shown, opts, emit=emit, cancel=cancel, timings=timings)
        other = [s for s in SIDES if s != side]
        one_side(summary, plan, found=len(hits.get(other[0], [])) if side else 0)
        details = {
            "summary": {
                "path": opts.path,
                "groups": opts.groups,
                "documents": opts.documents,
                "max_perspectives": opts.max_perspectives,
            },
            "verification": report.to_dict(),
        }
        return summary, details

    # ------------------------------------------------------------------ stages
    def understand(self, question: str) -> QueryPlan:
        """The plan of ``question`` (the question parser, with the model when configured)."""
        from assistant.understand import understand

        return understand(question, backend=self.backend, use_llm=self.settings.llm.use)

    def answer(
        self,
        plan: QueryPlan,
        hits: dict[Side, list[Any]],
        options: SummaryOptions,
        *,
        emit: ProgressFn | None = None,
        cancel: threading.Event | None = None,
        timings: dict[str, float] | None = None,
    ) -> tuple[Summary, VerifyReport]:
        """Summarize ``hits`` (HierSphere), verify every reference, attach the balance report."""
        say = emit or (lambda _p: None)
        times = timings if timings is not None else {}
        t = time.perf_counter()
        docs = self.source_docs(hits, options.documents)
        if len(self._sentence_cache) > SENTENCE_CACHE_DOCS:
            self._sentence_cache.clear()
        use_model = options.path == "model" and self.backend is not None
        draft = summarize(
            plan,
            docs,
            self.embedder,
            options,
            backend=self.backend,
            prompts=self.prompts if use_model else None,
            progress=say,
            cancel=cancel,
            sentence_cache=self._sentence_cache,
            stance=self.stance,
        )
        times["summarize"] = time.perf_counter() - t
        if cancel is not None and cancel.is_set():
            raise CancelledError("the answer was cancelled")
        t = time.perf_counter()
        say(Progress("verifying", 0, 1, "checking every reference"))
        summary, report = verify_summary(
            draft.summary,
            # the documents as summarized: draft.sentence_vecs are their sentences'
            draft.docs or docs,
            self.embedder,
            VerifyOptions(),
            sentence_vecs=draft.sentence_vecs,
            cancel=cancel,
            stance=draft.stance,
            stance_min=options.stance_min_confidence,
            passage_stance=draft.passage_stance,
            unit_stance=draft.unit_stance,
        )
        summary.balance = balance_report(
            summary,
            [h.doc_id for side in SIDES for h in hits.get(side, [])],
            draft.no_side,
            draft.unclear,
            draft.stance,
        )
        if report.removed:
            summary.notes.append(
                f"{count(len(report.removed), 'reference')} removed by verification "
                f"({count(report.dropped_perspectives, 'perspective')} dropped)"
            )
        times["verify"] = time.perf_counter() - t
        return summary, report

    def answer_lookup(
        self,
        plan: QueryPlan,
        hits: dict[Side, list[Any]],
        *,
        emit: ProgressFn | None = None,
        cancel: threading.Event | None = None,
        timings: dict[str, float] | None = None,
    ) -> Lookup:
        """The ranked list of a lookup, each row checked against the plan's aspects."""
        from assistant.summarize.lookup import answer_lookup

        t = time.perf_counter()
        ranked, docs = self._list_docs(hits, emit, "checking each document against the aspects")
        lookup = answer_lookup(
            plan,
            ranked,
            docs,
            self.embedder,
            aggregator=self.lookup_aggregator(),
            sentence_cache=self._sentence_cache,
            cancel=cancel,
        )
        if timings is not None:
            timings["verify"] = time.perf_counter() - t
        return lookup

    def answer_factual(
        self,
        plan: QueryPlan,
        hits: dict[Side, list[Any]],
        *,
        emit: ProgressFn | None = None,
        cancel: threading.Event | None = None,
        timings: dict[str, float] | None = None,
    ) -> FactualAnswer:
        """The passages that answer a factual question, ranked, each with its sentence."""
        from assistant.summarize.factual import answer_factual

        t = time.perf_counter()
        ranked, docs = self._list_docs(hits, emit, "finding the sentence that answers it")
        answer = answer_factual(
            plan, ranked, docs, self.embedder, sentence_cache=self._sentence_cache, cancel=cancel
        )
        if timings is not None:
            timings["verify"] = time.perf_counter() - t
        return answer

    def _list_docs(
        self, hits: dict[Side, list[Any]], emit: ProgressFn | None, detail: str
    ) -> tuple[list[Any], list[SourceDoc]]:
        """A ranked list's documents (a lookup, a factual answer) with their sentences.

        Such a plan has no claims: the retriever puts every document on one side, in its
        ranking, which the list keeps."""
        (emit or (lambda _p: None))(Progress("verifying", 0, 1, detail))
        ranked = [h for side in SIDES for h in hits.get(side, [])]
        docs = self.source_docs({"pro": ranked}, len(ranked))
        if len(self._sentence_cache) > SENTENCE_CACHE_DOCS:
            self._sentence_cache.clear()
        return ranked, docs

    def lookup_aggregator(self) -> str:
        """The aspect fusion that ranks lookups with ≥ 2 aspects ("" when it is off)."""
        r = self.settings.retrieval
        eta = getattr(getattr(self.retriever, "params", None), "lookup_aspect_weight", 0.0)
        return r.aspect_aggregator if r.mode == "sphere" and eta > 0 else ""

    def retrieve(
        self,
        plan: QueryPlan,
        emit: ProgressFn,
        cancel: threading.Event | None = None,
        *,
        skip: dict[Side, set[str]] | None = None,
    ) -> dict[Side, list[Any]]:
        """Per-side documents from the perspective-aware retriever.

        A lookup or a factual answer gets ``retrieval.k`` documents (its list); a summary at least
        half of ``summary.documents`` per side, and the side a one-sided plan asks
        for twice that (:func:`one_side`).
        """
        k = self.settings.retrieval.k
        if plan.intent not in ("lookup", "factual"):  # a list, not a summary
            k = max(k, (self.settings.summary.documents + 1) // 2)
        side = asked_side(plan)
        k_side = {s: 2 * k if s == side else k for s in SIDES}

        def side_progress(p: Progress) -> None:
            if cancel is not None and cancel.is_set():
                raise CancelledError("the answer was cancelled")
            emit(p)

        extra = max((len(v) for v in (skip or {}).values()), default=0)
        hits: dict[Side, list[Any]] = self.retriever.retrieve(
            plan, k=k, depth=max(k_side.values()) + extra, progress=side_progress
        )
        # further down the ranking: the skipped documents give their places to the next
        left = skip or {}
        return {
            s: [h for h in hs if str(h.doc_id) not in left.get(s, set())][: k_side.get(s, k)]
            for s, hs in hits.items()
        }

    def summary_options(self) -> SummaryOptions:
        s = self.settings.summary
        return SummaryOptions(
            groups=s.groups,
            documents=s.documents,
            max_perspectives=s.max_perspectives,
            relevance_ratio=s.relevance_ratio,
            quote_relevance_ratio=s.quote_relevance_ratio,
            stance_min_confidence=self.settings.stance.min_confidence,
            path="model"
            if summary_path(self.settings, self.backend is not None, self.capable) == "model"
            else "deterministic",
        )

    def source_docs(self, hits: dict[Side, list[Any]], limit: int) -> list[SourceDoc]:
        """The retrieved documents with their retrieved passages and those passages'
        sentences: what is summarized, judged and quoted is what retrieval found, so a
        200-page PDF costs what a short page costs (its few best passages, not every
        sentence of it)."""
        docs = pool_documents({str(k): list(v) for k, v in hits.items()}, limit)
        found: dict[str, dict[int, Any]] = {}
        for side_hits in hits.values():
            for h in side_hits:
                for ph in h.passages:
                    found.setdefault(str(h.doc_id), {}).setdefault(int(ph.passage_id), ph)
        for d in docs:
            got = sorted(found.get(d.doc_id, {}).values(), key=lambda ph: (ph.start, ph.end))
            passages: list[Passage] = [
                Passage(d.doc_id, i, ph.text, ph.start, ph.end, ph.page, int(ph.passage_id))
                for i, ph in enumerate(got)
                if ph.text
            ] or self.index.passages_of(d.doc_id)
            d.passages = passages
            d.sentences = split_passages(d.doc_id, passages)
            d.passage_scores = {pid: float(ph.score) for pid, ph in found.get(d.doc_id, {}).items()}
        stored = self.index.stored_sentence_vectors(
            [(p.passage_id, p.text) for d in docs for p in d.passages]
        )
        for d in docs:
            d.stored_vectors = {
                p.passage_id: stored[p.passage_id] for p in d.passages if p.passage_id in stored
            }
        return docs

    # ------------------------------------------------------------------ lookups
    def passage_text(self, passage_id: int) -> str:
        return str(self.index.passage_text(int(passage_id)))

    def document(self, doc_id: str) -> Document | None:
        doc: Document | None = self.index.document(doc_id)
        return doc

    def index_names(self) -> list[str]:
        from assistant.index.store import list_indexes

        return list_indexes(Path(self.settings.index_dir))

    def model_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "embedder": getattr(self.embedder, "name", ""),
            "backend": None,
            "llm_use": self.settings.llm.use,
        }
        llm: dict[str, Any] = self.llm_plan.to_dict() if self.llm_plan is not None else {}
        if self.backend is not None:
            b = self.backend.info()
            info["backend"] = b.get("backend")
            info["llm"] = {**llm, **b, "loaded": True}
            if "model" in b:
                info["gguf"] = b["model"]
            if "sha256" in b:
                info["sha256"] = b["sha256"]
        elif llm:
            info["llm"] = llm  # the model that would be used, and "loaded": false
        if self.stance is not None:
            info["stance"] = self.stance.info()
        from assistant.understand.reader import loaded_readers

        readers = loaded_readers()
        if readers:  # the follow-up turn reader, once a follow-up has needed it
            info["turn_reader"] = readers[0]
        return info

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
