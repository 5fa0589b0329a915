"""Markdown export of a turn or a whole session (CommonMark + footnotes).

The layout follows the PerSphere output format (paper 004, eq. 1): per question,
two claims as sections, the perspectives under each as bullet points, each
citing its documents as footnotes ``[^n]`` (title, source, file/page, quote).
Then the balance report (with the documents the answer does not cite, by why:
takes no side, side unclear, taken out by you, each with the stance model's
probabilities; and the user's corrections), notes, and a "Method" appendix
(index, embedder, model, retrieval settings, dates). A reference the user moved
or placed is marked so ("moved by you"), with the model's own probabilities. A
lookup question's turn has a table instead of claims: rank, document, source,
score, and one column per aspect with ✓ (met; the footnote gives the verified
sentence) or ✗. A factual question's turn says it is not a debate and lists the
passages that answer it, ranked, each with its sentence, source and page.

Everything that comes from documents, the question or the model goes through
:func:`md_text` or :func:`md_code`, so no text can open a heading, a list item,
a block quote, HTML, a link, or a footnote of its own. Footnotes are an
extension (GFM, markdown-it-footnote, Pandoc); a plain CommonMark reader shows
them as ``[^n]`` text and paragraphs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from assistant.citations import cited
from assistant.locations import citation_where, document_label
from assistant.models import (
    NO_EVIDENCE,
    DocumentHit,
    FactualAnswer,
    Lookup,
    QueryPlan,
    Reference,
    TurnResult,
)
from assistant.store import SessionInfo, StoredTurn, turn_numbers
from assistant.summarize.balance import probabilities_text
from assistant.summarize.correct import GROUP_TITLES, GROUP_WHY, GROUPS, correction_text
from assistant.wording import count

SIDE_LABEL = {"pro": "For", "con": "Against"}
ANSWER_CHECK = "question"  # assistant.summarize.factual.CHECK

# ASCII punctuation that can start inline structure anywhere in a line (code, emphasis,
# links, footnote references, inline footnotes "^[...]", HTML/autolinks, entities,
# GFM tables and strikethrough).
_INLINE = re.compile(r"([\\`*_\[\]<>#|~&!^])")
# What can open a block at the start of a line once the inline escapes are in:
# list markers, setext/thematic lines, ordered list "1." / "1)".
_LINE_START = re.compile(r"^([-+=])|^(\d{1,9})([.)])")
_WS = re.compile(r"\s+")


def md_text(text: object) -> str:
    """Escape text for inline use: one line, every structural character backslashed.

    Backslash escapes of ASCII punctuation are lossless in CommonMark (§2.4), so
    a renderer shows exactly the original characters (whitespace collapsed).
    """
    s = _WS.sub(" ", str(text).replace("\x00", "\ufffd")).strip()
    s = _INLINE.sub(r"\\\1", s)
    return _block_start_safe(s)


def _block_start_safe(line: str) -> str:
    """Escape a list/setext marker at the start of a line composed from escaped pieces."""
    return _LINE_START.sub(_escape_line_start, line)


def _escape_line_start(m: re.Match[str]) -> str:
    return "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3)


def md_code(text: object) -> str:
    """A code span holding ``text`` verbatim (on one line), whatever backticks it contains."""
    s = _WS.sub(" ", str(text).replace("\x00", "\ufffd")).strip()
    if not s:
        return "(none)"
    longest = max((len(run) for run in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


# --------------------------------------------------------------------------- footnotes


@dataclass
class _Footnotes:
    """Numbers citations ``[^n]`` across a document; one note per cited passage and quote."""

    next_number: int = 1
    pending: list[tuple[int, Reference, str]] = field(default_factory=list)
    _seen: dict[tuple[str, int, str, str, str], int] = field(default_factory=dict)
    copies: dict[str, list[str]] = field(default_factory=dict)  # doc_id -> same-text documents
    # doc_id -> the stance model's (P(pro), P(con), P(neither)), for moved references
    probs: dict[str, list[float]] = field(default_factory=dict)

    def cite(self, ref: Reference, side: str = "") -> str:
        # the same quote under another claim, or moved there by the user, is another note
        key = (ref.doc_id, ref.passage_id, ref.quote, side, ref.by_user)
        n = self._seen.get(key)
        if n is None:
            n = self.next_number
            self.next_number += 1
            self._seen[key] = n
            self.pending.append((n, ref, side))
        return f"[^{n}]"

    def flush(self) -> list[str]:
        lines = [
            f"[^{n}]: "
            + _reference(ref, self.copies.get(ref.doc_id, []), side, self.probs.get(ref.doc_id))
            for n, ref, side in self.pending
        ]
        self.pending = []
        return lines


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."


def _reference(
    ref: Reference,
    copies: list[str] | None = None,
    side: str = "",
    probs: list[float] | None = None,
) -> str:
    parts = [_sentence(md_text(ref.title or ref.doc_id))]
    source, location = citation_where(ref.source, ref.path)
    if source:
        parts.append(_sentence(md_text(source)))
    where = []
    if location:  # a path as code; a label ("demo corpus, record 13") as text
        where.append(md_code(location) if location == ref.path else md_text(location))
    if ref.page is not None:
        where.append(f"page {ref.page}")
    if where:
        parts.append(", ".join(where) + ".")
    if ref.quote:
        parts.append(f"“{md_text(ref.quote)}”")
    if ref.check == ANSWER_CHECK:  # a factual answer's sentence: chosen, not verified
        parts.append(f"(the sentence nearest the question, cosine {ref.support:.2f})")
    elif ref.verified:
        how = f" by {md_text(ref.check)}" if ref.check else ""
        parts.append(f"(verified{how}, support {ref.support:.2f})")
    elif ref.check == "user":
        parts.append("(not checked by the verifier)")
    else:
        parts.append("(not verified)")
    if ref.by_user and side in SIDE_LABEL:
        said = probabilities_text(probs)
        model = f" (the stance model: {said})" if said else ""
        parts.append(
            f"{ref.by_user.capitalize()} by you under the {SIDE_LABEL[side]} claim{model}."
        )
    elif ref.stance is not None and side in SIDE_LABEL:
        parts.append(f"Stance: supports the {SIDE_LABEL[side]} claim · {ref.stance:.2f}.")
    if document_label(ref.doc_id, ref.source, ref.path):  # a file's id is its path
        parts.append(f"Document {md_code(ref.doc_id)}.")
    if copies:
        parts.append(f"Same passage also in {', '.join(md_code(c) for c in copies)}.")
    # the "." after a title like "2024" would otherwise open an ordered list in the note
    return _block_start_safe(" ".join(parts))


# --------------------------------------------------------------------------- the thread


def follow_changes(plan: QueryPlan) -> str:
    """What a follow-up did to the turn it follows, from its plan's ``derivation``, as
    plain text: the plan edit's changes ("+ constraint language es", "+ page both",
    "- reference [5] doc-7"), or for a question about the answer what it asked
    ("about reference [8]", "compares references [2] and [8]")."""
    edit, changes = plan.edit_and_changes()
    numbers = re.findall(r"\d+", " ".join(changes))
    if edit == "explain_ref" and len(numbers) == 1:
        return f"about reference [{numbers[0]}]"
    if edit == "compare_refs" and len(numbers) == 2:
        return f"compares references [{numbers[0]}] and [{numbers[1]}]"
    return "; ".join(changes) or edit


def _follow_line(result: TurnResult, number: int | None, shown: dict[int, int] | None) -> str:
    """The first line of a turn: which turn it follows and what it changed, or (after
    the first turn of a session) that it starts a new thread."""
    plan = result.plan
    if plan.follows is None:
        if number is not None and number > 1:
            return "*New thread: a new topic, not a follow-up of an earlier turn.*"
        return ""
    if shown is None:  # one turn alone: the session log's turn id
        which = f"turn {plan.follows}"
    elif plan.follows in shown:  # a session: the number of its heading
        which = f"turn {shown[plan.follows]}"
    else:
        which = f"a turn not in this export (id {plan.follows})"
    changes = follow_changes(plan)
    line = f"Follows {which}: {md_text(changes)}" if changes else f"Follows {which}"
    if result.reply:
        line += " (answered from the session log, no new search)"
    return f"*{line}*"


def _reply(result: TurnResult, notes: _Footnotes, base: TurnResult | None) -> list[str]:
    """An answer from the session log as a list: one item per reference it describes
    ("[1] title (doc)"), its details ("under Claim A: …", "quote: “…”") nested under it.

    With the turn it is about (``base``), each described reference also cites its
    footnote, so "[1]" (the number in that turn's answer) leads to this export's note.
    """
    refs: dict[int, Any] = {}
    if base is not None:
        refs = cited(base)
    out: list[str] = []
    for block in re.split(r"\n\s*\n", result.reply.strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        head = md_text(lines[0])
        m = re.match(r"\[(\d+)\]", lines[0])
        if m and int(m.group(1)) in refs:
            c = refs[int(m.group(1))]
            head += notes.cite(c.ref, c.side)
        out.append(f"- {head}")
        out += [f"  - {md_text(line)}" for line in lines[1:]]
    return [*out, ""] if out else ["*No answer was recorded.*", ""]


# --------------------------------------------------------------------------- blocks


def _side_label(side: str) -> str:
    return SIDE_LABEL.get(side, md_text(side).capitalize() or "Claim")


def _claims(result: TurnResult, notes: _Footnotes) -> list[str]:
    out: list[str] = []
    for claim in result.summary.claims:
        heading = _side_label(claim.side)
        if claim.claim.strip():
            heading += ": " + md_text(claim.claim)
        out += [f"### {heading}", ""]
        for p in claim.perspectives:
            cites = "".join(notes.cite(r, claim.side) for r in p.references)
            by = {r.by_user for r in p.references}
            mark = f" *({by.pop()} by you)*" if len(by) == 1 and "" not in by else ""
            out.append(f"- {md_text(p.text) or '(no text)'}{mark}{cites}")
        if claim.perspectives:
            out.append("")
        note = claim.note.strip() or ("" if claim.perspectives else NO_EVIDENCE)
        if note:
            out += [f"*Note:* {md_text(note)}", ""]
    return out


def _lookup(lookup: Lookup, notes: _Footnotes) -> list[str]:
    out = ["### Ranked list", "", md_text(lookup.ranking_text())]
    if lookup.aspects:
        out[-1] += " ✓: a sentence of the document meets the aspect (the footnote quotes it)."
    out.append("")
    if not lookup.rows:
        return [*out, "*No document in this index matches.*", ""]
    head = ["#", "Document", "Source", "Score", *(md_text(a) or "(aspect)" for a in lookup.aspects)]
    out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in lookup.rows:
        title = md_text(row.title) if row.title.strip() else ""
        doc = f"{title} ({md_code(row.doc_id)})" if title else md_code(row.doc_id)
        cells = [str(row.rank), doc, md_text(row.source), f"{row.score:.3f}"]
        for m in row.aspects:
            cells.append("✓" + notes.cite(m.reference) if m.met and m.reference else "✗")
        out.append("| " + " | ".join(cells) + " |")
    return [*out, ""]


def _answer(answer: FactualAnswer, notes: _Footnotes) -> list[str]:
    """A factual question's answer: not a debate; the passages, ranked, with their quotes."""
    out = ["### Answer (not a debate)", "", md_text(answer.ranking_text()), ""]
    if not answer.rows:
        return [*out, "*No document in this index answers it.*", ""]
    for row in answer.rows:
        title = md_text(row.title) if row.title.strip() else ""
        # a file's id is its path, which its source shows; a demo record's source is a label
        source, _ = citation_where(row.source, row.path)
        shown_id = document_label(row.doc_id, row.source, row.path)
        doc = f"{title} ({md_code(shown_id)})" if title and shown_id else title
        doc = doc or md_code(row.doc_id)
        ref = row.reference
        where = [md_text(source)] if source.strip() else []
        if ref is not None and ref.page is not None:
            where.append(f"page {ref.page}")
        head = ", ".join([doc, *where])
        if ref is None or not ref.quote:
            out.append(f"{row.rank}. {head}: the document has no text.")
        else:
            out.append(f"{row.rank}. {head}: “{md_text(ref.quote)}”{notes.cite(ref)}")
    return [*out, ""]


def _doc_line(hit: DocumentHit | None, doc_id: str, *, with_source: bool) -> str:
    """A listed document: its title (and source) with its id, or the id alone."""
    label = md_text(hit.title) if hit and hit.title.strip() else ""
    source = f", {md_text(hit.source)}" if with_source and hit and hit.source.strip() else ""
    ident = md_code(doc_id)
    return f"  - {label}{source} ({ident})" if label else f"  - {ident}{source}"


def _titles(result: TurnResult) -> dict[str, DocumentHit]:
    seen: dict[str, DocumentHit] = {}
    for hits in result.hits.values():
        for h in hits:
            seen.setdefault(h.doc_id, h)
    return seen


def _balance(result: TurnResult) -> list[str]:
    balance = result.summary.balance
    out = ["### Balance", ""]
    for s in balance.sides:
        out.append(
            f"- {_side_label(s.side)}: {count(s.documents_cited, 'document')} cited, "
            f"{count(s.distinct_sources, 'distinct source')}, mean retrieval score "
            f"{s.mean_retrieval_score:.3f}, {count(s.perspectives, 'perspective')}"
        )
    out.append(f"- Lopsidedness: {balance.lopsidedness:.2f} (0 = even, 1 = one-sided)")
    docs = _titles(result)
    if balance.unused_doc_ids:
        out.append(f"- Retrieved but not cited ({len(balance.unused_doc_ids)}):")
        out += [_doc_line(docs.get(d), d, with_source=True) for d in balance.unused_doc_ids]
    else:
        out.append("- Retrieved but not cited: none")
    out += _apart(result, docs)
    if result.corrections:
        out.append(f"- Corrected by you ({len(result.corrections)}):")
        names = {side: f"the {label} claim" for side, label in SIDE_LABEL.items()}
        out += [f"  - {md_text(correction_text(c, names))}" for c in result.corrections]
    return [*out, ""]


def _apart(result: TurnResult, docs: dict[str, DocumentHit]) -> list[str]:
    """The summarized documents the answer does not cite, by why, with the stance
    model's probabilities."""
    balance = result.summary.balance
    out: list[str] = []
    for group, ids in zip(
        GROUPS,
        (balance.no_side_doc_ids, balance.unclear_doc_ids, balance.removed_doc_ids),
        strict=True,
    ):
        if not ids:
            continue
        out.append(f"- {GROUP_TITLES[group]}: {GROUP_WHY[group]} ({len(ids)}):")
        for d in ids:
            said = probabilities_text(balance.stance_p.get(d))
            out.append(_doc_line(docs.get(d), d, with_source=False) + (f": {said}" if said else ""))
    return out


def _notes(result: TurnResult) -> list[str]:
    notes = [n for n in result.summary.notes if n.strip()]
    if not notes:
        return []
    return ["### Notes", "", *(f"- {md_text(n)}" for n in notes), ""]


def _mapping(data: dict[str, Any], indent: str = "") -> list[str]:
    """Settings as a nested list (in their own order): keys as text, values in code spans."""
    out = []
    for key in data:
        value = data[key]
        if isinstance(value, dict) and value:
            out.append(f"{indent}- {md_text(key) or '(empty key)'}:")
            out += _mapping(value, indent + "  ")
        else:
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            out.append(f"{indent}- {md_text(key) or '(empty key)'}: {md_code(shown)}")
    return out


def _turn_method(result: TurnResult, created: str | None) -> list[str]:
    plan = result.plan
    out = []
    if created:
        out.append(f"- Date: {md_text(created)}")
    out.append(f"- Index: {md_code(result.index)}")
    if plan.follows is not None and plan.derivation:
        out.append(f"- Follow-up edit: {md_code(plan.derivation)}")
    if result.reply:
        out.append("- Answer: from the session log (no search, no summary)")
    elif result.lookup is not None:
        out.append(f"- Answer: ranked list. {md_text(result.lookup.ranking_text())}")
    elif result.answer is not None:
        out.append("- Answer: the passages that answer a factual question (not a debate)")
    else:
        out.append(f"- Summary: {md_text(result.summary.method)}")
    out.append(f"- Root query: {md_code(plan.root_query)}")
    if plan.perspectives:
        shown = "; ".join(
            md_text(p.text) + f" ({md_text(p.role)}" + (f", {p.side})" if p.side else ")")
            for p in plan.perspectives
        )
        out.append(f"- Query perspectives: {shown}")
    if plan.aspects:
        out.append("- Aspects: " + "; ".join(md_text(a.text) for a in plan.aspects))
    if plan.constraints:
        shown = "; ".join(
            ("not " if c.negated else "")
            + f"{md_text(c.dimension)} = {md_code(c.value)}"
            + (" (hard)" if c.hard else " (soft)")
            for c in plan.constraints
        )
        out.append(f"- Constraints: {shown}")
    if result.model:
        out.append("- Model:")
        out += _mapping(result.model, "  ")
    if result.retrieval:
        out.append("- Retrieval settings:")
        out += _mapping(result.retrieval, "  ")
    if result.timings:
        shown = ", ".join(f"{md_text(k)} {v:.2f} s" for k, v in result.timings.items())
        out.append(f"- Stage timings: {shown}")
    return out


def _turn(
    result: TurnResult,
    number: int | None,
    created: str | None,
    notes: _Footnotes,
    *,
    method: bool,
    shown: dict[int, int] | None = None,
    base: TurnResult | None = None,
) -> list[str]:
    """One turn's section. ``shown``: session turn id → heading number of the turns in
    this export (None: a turn alone); ``base``: for a reply, the turn it is about."""
    prefix = f"{number}. " if number is not None else ""
    notes.copies.update((h.doc_id, h.copies) for hs in result.hits.values() for h in hs if h.copies)
    notes.probs = result.summary.balance.stance_p
    out = [f"## {prefix}{md_text(result.question) or '(empty question)'}", ""]
    follow = _follow_line(result, number, shown)
    if follow:
        out += [follow, ""]
    if result.reply:
        out += _reply(result, notes, base)
    elif result.lookup is not None:
        out += _lookup(result.lookup, notes)
    elif result.answer is not None:
        out += _answer(result.answer, notes)
    else:
        out += _claims(result, notes)
        out += _balance(result)
    out += _notes(result)
    if method:
        out += ["### Method", "", *_turn_method(result, created), ""]
    footnotes = notes.flush()
    if footnotes:
        out += [*footnotes, ""]
    return out


def _join(lines: Iterable[str]) -> str:
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


# --------------------------------------------------------------------------- public


def turn_to_markdown(
    result: TurnResult,
    *,
    number: int | None = None,
    created: str | None = None,
    shown: dict[int, int] | None = None,
) -> str:
    """One turn as Markdown, with its own footnotes and method section. ``number``: its
    place in its session; ``shown``: the session's turn ids → places (``turn_numbers``),
    so the turn it follows is named by its place."""
    return _join(_turn(result, number, created, _Footnotes(), method=True, shown=shown))


def session_to_markdown(info: SessionInfo, turns: list[StoredTurn]) -> str:
    """A whole session: every turn, then the "Method" appendix."""
    title = md_text(info.title) or f"Session {info.id}"
    out = [
        f"# {title}",
        "",
        f"Sphere session {info.id} on index {md_code(info.index)}: "
        f"{count(len(turns), 'question')}, "
        f"created {md_text(info.created)}.",
        "",
    ]
    notes = _Footnotes()
    # a follow-up names the turn it follows by that turn's heading number here
    shown = turn_numbers(turns)
    by_id = {turn.id: turn.result for turn in turns}
    for n, turn in enumerate(turns, 1):
        follows = turn.result.plan.follows
        base = by_id.get(follows) if follows is not None else None
        out += _turn(turn.result, n, turn.created, notes, method=False, shown=shown, base=base)
    if not turns:
        out += ["*This session has no questions yet.*", ""]
    out += ["## Method", ""]
    out.append(f"- Index: {md_code(info.index)}")
    out.append(f"- Embedder: {md_code(info.embedder)}")
    if info.model:
        out.append("- Model:")
        out += _mapping(info.model, "  ")
    out.append(f"- Session created: {md_text(info.created)}; last updated: {md_text(info.updated)}")
    if info.settings:
        out.append("- Settings at the start of the session:")
        out += _mapping(info.settings, "  ")
    out.append("")
    for n, turn in enumerate(turns, 1):
        out += [f"### Question {n}", "", *_turn_method(turn.result, turn.created), ""]
    return _join(out)
