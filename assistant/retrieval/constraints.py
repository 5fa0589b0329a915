"""Document constraints on retrieval candidates (InfoSearch dimensions, paper 002 §2).

A :class:`~assistant.models.Constraint` names one of paper 002's six
document-level dimensions — ``keyword``, ``language``, ``length``,
``source``, ``audience``, ``format`` — with the value conventions of
:mod:`assistant.models` (what :mod:`assistant.understand` produces).
:func:`check_constraints` tests candidate documents (rows of an
:class:`~assistant.index.store.Index`) against them:

* **Hard** constraints filter. ``keyword`` (the word or phrase must occur /
  must not occur: word boundaries, case-insensitive, plurals and possessives
  folded by :func:`stem`), ``language`` (ISO 639-1 code of the indexing-time
  attribute; a document whose language was not identified meets no language),
  ``length`` (words: ``"<N"`` means at most N, ``">N"`` at least N, both
  inclusive; ``"short"`` / ``"long"`` are the bottom / top third of the
  index's document lengths) and ``source`` (a case-insensitive substring of the
  document's ``source`` field, url domain, path or title; a kind the parser names by
  an adjective, ``academic`` or ``government``, also by the words that mark it:
  "journal", "university", ".edu" …, ``words/values.yaml``: ``source_kind_marks``).
* **Soft** constraints re-weight: ``audience`` and ``format`` always (the
  reading-grade and line-shape heuristics behind them are too coarse to drop
  documents on), any other dimension when ``hard`` is false ("short pieces",
  "from academic sources").
* ``negated`` inverts the test ("not from news sites", "without insurance").

**Compliance in the score.** Every constraint a kept document meets adds
``COMPLIANCE_WEIGHT`` × (spread of the candidates' scores) to its score:
among hard survivors that is the same shift for all (the order is unchanged),
so a score says how well a document fits the *instructed* query, which is what
paper 002's SICR (eq. 1) compares across modes; among soft constraints it is
the re-weighting.

The per-index attribute arrays (numpy, indexed by document row) are read from
the metadata once and cached while the :class:`Index` lives; keyword tests
read the text of candidate documents only (their stemmed word strings are
cached too). The :class:`ConstraintCheck` says how many candidates each
constraint removed, and :func:`ConstraintCheck.notes` turns a filter that
leaves too few documents into a sentence for the answer instead of dropping the
constraint silently.
"""

from __future__ import annotations

import json
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from assistant.index.store import Index
from assistant.models import Constraint
from assistant.understand.values import SOURCE_KIND_MARKS

#: score shift per constraint met, as a fraction of the candidates' score spread
COMPLIANCE_WEIGHT = 0.1
#: fewer kept candidates than this (but some) → a note
FEW_DOCUMENTS = 3
#: "short" / "long": the bottom / top third of the index's document lengths
SHORT_QUANTILE, LONG_QUANTILE = 1 / 3, 2 / 3
#: stemmed texts of this many documents are kept per index
TEXT_CACHE = 20_000

# audience values (assistant.understand.values.AUDIENCES) -> document audiences that suit them
# (documents get general ≤ grade 9 < informed ≤ 13 < expert, assistant.ingest.attributes)
AUDIENCE_FIT: dict[str, frozenset[str]] = {
    "child": frozenset({"general"}),
    "teen": frozenset({"general"}),
    "beginner": frozenset({"general"}),
    "general": frozenset({"general"}),
    "parent": frozenset({"general"}),
    "student": frozenset({"general", "informed"}),
    "teacher": frozenset({"general", "informed"}),
    "policy": frozenset({"informed", "expert"}),
    "business": frozenset({"informed", "expert"}),
    "informed": frozenset({"informed"}),
    "expert": frozenset({"expert"}),
}
# format values (assistant.understand.values.FORMATS) -> document structure (attributes.structure)
STRUCTURE_OF = {
    "list": "list",
    "table": "table",
    "faq": "qa",
    "qa": "qa",
    "interview": "qa",
    "transcript": "qa",
    "code": "code",
    "prose": "prose",
}
FILE_FORMATS = frozenset({"pdf", "html", "md", "txt", "csv", "json", "jsonl", "docx"})

_TOKEN = re.compile(r"\w+", re.UNICODE)
# words ending in -s that are not plurals of another word
_NOT_PLURAL = frozenset(
    [
        "news",
        "series",
        "species",
        "physics",
        "economics",
        "politics",
        "ethics",
        "mathematics",
        "athletics",
        "always",
        "perhaps",
        "does",
        "lens",
        "gas",
        "bus",
        "yes",
        "thus",
        "plus",
        "chaos",
        "canvas",
        "atlas",
        "bias",
        "alias",
        "whereas",
        "sometimes",
        "besides",
        "towards",
        "afterwards",
        "nevertheless",
    ]
)


# --------------------------------------------------------------------------- words


def stem(word: str) -> str:
    """A light stem: lower case, possessive and plural endings folded.

    ``policies → policy``, ``taxes → tax``, ``cars → car``, ``car's → car``;
    ``glass``, ``status``, ``analysis`` stay. No other suffix is touched, so a
    keyword never matches a different word (``new`` does not match ``news``).
    """
    w = word.lower()
    if w.endswith("'s") or w.endswith("’s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "xes", "ches", "shes", "zes")):
        return w[:-2]
    if (
        len(w) > 3
        and w.endswith("s")
        and not w.endswith(("ss", "us", "is"))
        and w not in _NOT_PLURAL
    ):
        return w[:-1]
    return w


def stemmed_text(text: str) -> str:
    """`` stem1 stem2 … `` (padded with spaces) for phrase tests by substring."""
    return " " + " ".join(stem(t) for t in _TOKEN.findall(text.replace("’", "'"))) + " "


def keyword_pattern(keyword: str) -> str:
    """The padded stemmed form a document's :func:`stemmed_text` must contain."""
    return stemmed_text(keyword.strip("\"'“”‘’ "))


# --------------------------------------------------------------------------- per-index cache


@dataclass
class DocAttributes:
    """Attribute arrays of every document of one index, indexed by document row."""

    n_words: np.ndarray  # int64, -1 for a missing row
    language: np.ndarray  # object: ISO code or ""
    structure: np.ndarray  # object
    audience: np.ndarray  # object
    file_format: np.ndarray  # object
    source_key: np.ndarray  # object: "source | domain | path | title", lower case
    present: np.ndarray  # bool
    short_max: float = 0.0
    long_min: float = 0.0
    texts: OrderedDict[int, str] = field(default_factory=OrderedDict)
    source_masks: dict[str, np.ndarray] = field(default_factory=dict)
    index_totals: dict[tuple[str, str, bool], int | None] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def n_documents(self) -> int:
        return int(self.present.sum())


_CACHE: weakref.WeakKeyDictionary[Index, DocAttributes] = weakref.WeakKeyDictionary()
_CACHE_LOCK = threading.Lock()


def doc_attributes(index: Index) -> DocAttributes:
    """The cached attribute arrays of ``index`` (read from its metadata on first use)."""
    with _CACHE_LOCK:
        got = _CACHE.get(index)
        if got is None:
            got = _load(index)
            _CACHE[index] = got
        return got


def _load(index: Index) -> DocAttributes:
    cur = index.meta.db.execute(
        "SELECT row, source, path, format, language, n_words, attrs, title, meta "
        "FROM documents ORDER BY row"
    )
    rows = cur.fetchall()
    size = (max(int(r[0]) for r in rows) + 1) if rows else 0
    n_words = np.full(size, -1, dtype=np.int64)
    empty = np.full(size, "", dtype=object)
    language, structure, audience, fmt, source = (empty.copy() for _ in range(5))
    present = np.zeros(size, dtype=bool)
    for r in rows:
        i = int(r[0])
        attrs: dict[str, Any] = json.loads(r[6]) if r[6] else {}
        present[i] = True
        n_words[i] = int(attrs.get("n_words", r[5] or 0))
        language[i] = str(attrs.get("language", r[4] or "") or "")
        structure[i] = str(attrs.get("structure", "") or "")
        audience[i] = str(attrs.get("audience", "") or "")
        fmt[i] = str(r[3] or "").lower()
        meta: dict[str, Any] = json.loads(r[8]) if r[8] else {}
        url = meta.get("url") if isinstance(meta.get("url"), str) else ""
        parts = (r[1] or "", attrs.get("domain", "") or "", url, r[2] or "", r[7] or "")
        source[i] = " | ".join(str(p) for p in parts).lower()
    lengths = n_words[present]
    short_max = float(np.quantile(lengths, SHORT_QUANTILE)) if len(lengths) else 0.0
    long_min = float(np.quantile(lengths, LONG_QUANTILE)) if len(lengths) else 0.0
    return DocAttributes(
        n_words, language, structure, audience, fmt, source, present, short_max, long_min
    )


def _stemmed_texts(index: Index, attrs: DocAttributes, rows: np.ndarray) -> list[str]:
    """Stemmed text of each row, read from the index for rows not cached yet."""
    with attrs.lock:
        missing = [int(r) for r in rows if int(r) not in attrs.texts]
    fetched: dict[int, str] = {}
    if missing:
        docs = index.documents_by_row(missing, with_text=True)
        fetched = {r: stemmed_text(f"{d.title}\n{d.text}") for r, d in docs.items()}
    with attrs.lock:
        for r, t in fetched.items():
            attrs.texts[r] = t
        while len(attrs.texts) > TEXT_CACHE:
            attrs.texts.popitem(last=False)
        return [attrs.texts.get(int(r), fetched.get(int(r), "")) for r in rows]


# --------------------------------------------------------------------------- the tests


def language_name(code: str) -> str:
    """The English name of an ISO 639-1 code ("es" → "Spanish"); the code if unknown."""
    import langcodes

    try:
        name = str(langcodes.Language.get(code).display_name("en"))
    except (LookupError, ValueError):
        return code
    return code if name.lower().startswith("unknown") else name


def describe(c: Constraint) -> str:
    """A short human phrase for a constraint ("in Spanish", "not mentioning 'x'")."""
    neg = "not " if c.negated else ""
    v = c.value
    if c.dimension == "language":
        return f"{neg}in {language_name(v)}"
    if c.dimension == "keyword":
        return f"{'not ' if c.negated else ''}mentioning “{v}”"
    if c.dimension == "length":
        m = re.fullmatch(r"([<>])\s*(\d+)", v.strip())
        if m:
            bound = "at most" if m.group(1) == "<" else "at least"
            return f"{neg}{bound} {m.group(2)} words long"
        return f"{neg}{v}"
    if c.dimension == "source":
        return f"{neg}from {v}"
    if c.dimension == "audience":
        return f"{neg}for a {v} audience"
    return f"{neg}{c.dimension} {v}"


def predicate(c: Constraint, n: int) -> str:
    """``describe`` as a verb phrase for ``n`` documents ("are in Spanish", "mention “x”")."""
    one = n == 1
    if c.dimension == "keyword":
        verb = (
            ("does not mention" if one else "do not mention")
            if c.negated
            else ("mentions" if one else "mention")
        )
        return f"{verb} “{c.value}”"
    return f"{'is' if one else 'are'} {describe(c)}"


def _meets(
    index: Index, attrs: DocAttributes, rows: np.ndarray, c: Constraint
) -> np.ndarray | None:
    """Whether each row meets ``c`` before negation; None if ``c`` cannot be tested."""
    dim, value = c.dimension.lower(), (c.value or "").strip()
    if not value:
        return None
    if dim == "keyword":
        pat = keyword_pattern(value)
        if not pat.strip():
            return None
        return np.fromiter((pat in t for t in _stemmed_texts(index, attrs, rows)), bool, len(rows))
    if dim == "language":
        return np.asarray(attrs.language[rows] == value.lower(), dtype=bool)
    if dim == "length":
        n = attrs.n_words[rows]
        m = re.fullmatch(r"([<>])\s*(\d+)", value)
        if m:
            bound = int(m.group(2))
            return np.asarray(n <= bound if m.group(1) == "<" else n >= bound, dtype=bool)
        if value.lower() == "short":
            return np.asarray(n <= attrs.short_max, dtype=bool)
        if value.lower() == "long":
            return np.asarray(n >= attrs.long_min, dtype=bool)
        return None
    if dim == "source":
        key = value.lower()
        with attrs.lock:
            mask = attrs.source_masks.get(key)
            if mask is None:
                # "blogs" matches "… (blog)": the last word's plural is folded too; a kind
                # named by an adjective ("academic") by the words that mark it ("journal")
                words = key.split()
                folded = " ".join([*words[:-1], stem(words[-1])]) if words else key
                marks = (key, folded, *SOURCE_KIND_MARKS.get(key, ()))
                mask = np.fromiter(
                    (any(m in s for m in marks) for s in attrs.source_key),
                    bool,
                    len(attrs.source_key),
                )
                attrs.source_masks[key] = mask
        return np.asarray(mask[rows], dtype=bool)
    if dim == "audience":
        fit = AUDIENCE_FIT.get(value.lower())
        return None if fit is None else np.isin(attrs.audience[rows], list(fit))
    if dim == "format":
        v = value.lower()
        if v in STRUCTURE_OF:
            return np.asarray(attrs.structure[rows] == STRUCTURE_OF[v], dtype=bool)
        if v in FILE_FORMATS:
            return np.asarray(attrs.file_format[rows] == v, dtype=bool)
        return None
    return None


def is_hard(c: Constraint) -> bool:
    """Filters (True) or re-weights (False); audience and format always re-weight."""
    return bool(c.hard) and c.dimension.lower() not in ("audience", "format")


# --------------------------------------------------------------------------- the check


@dataclass
class ConstraintOutcome:
    """What one constraint did to the candidates."""

    constraint: Constraint
    hard: bool
    tested: bool  # False: the index cannot test it (e.g. an unknown format)
    met: int  # candidates that meet it (after negation)
    removed: int  # candidates it removed (hard only; counted in order, once each)
    index_total: int | None = None  # documents of the whole index meeting it, if cheap

    def to_dict(self) -> dict[str, Any]:
        return {
            "constraint": self.constraint.to_dict(),
            "hard": self.hard,
            "tested": self.tested,
            "met": self.met,
            "removed": self.removed,
            "index_total": self.index_total,
        }


@dataclass
class ConstraintCheck:
    """Kept rows (input order), their score shifts, and what each constraint did."""

    rows: np.ndarray
    boost: np.ndarray | None  # (len(rows),) score shift, None without constraints
    candidates: int
    outcomes: list[ConstraintOutcome] = field(default_factory=list)

    def notes(self, side_counts: Mapping[Any, int] | None = None) -> list[str]:
        """Sentences for the answer when a hard filter leaves too few documents.

        ``side_counts`` (side → kept documents on it) adds a note for a side
        left with fewer than :data:`FEW_DOCUMENTS`.
        """
        out: list[str] = []
        hard = [o for o in self.outcomes if o.hard and o.tested]
        for o in hard:
            c = o.constraint
            if o.index_total is not None and o.index_total < FEW_DOCUMENTS:
                n, where = o.index_total, "in this index"
            elif o.met < FEW_DOCUMENTS:
                n, where = o.met, f"among the {self.candidates} best candidates"
            else:
                continue
            if n == 0:
                out.append(
                    f"No document {where} {predicate(c, 1)}; this constraint leaves "
                    "nothing to answer from."
                )
            else:
                docs = "document" if n == 1 else "documents"
                out.append(
                    f"Only {n} {docs} {where} {predicate(c, n)}; the answer is built from those."
                )
        for o in self.outcomes:
            if not o.tested:
                out.append(
                    f"The constraint '{o.constraint.text or describe(o.constraint)}' "
                    "cannot be checked on this index; it was not applied."
                )
        if side_counts and hard and len(self.rows):
            for side, n in side_counts.items():
                if n >= FEW_DOCUMENTS:
                    continue
                what = " and ".join(predicate(o.constraint, max(n, 1)) for o in hard)
                lead = "No document" if n == 0 else f"Only {n} document{'s' * (n != 1)}"
                out.append(f"{lead} on the {side} side {what}.")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "candidates": self.candidates,
            "kept": len(self.rows),
            "outcomes": [o.to_dict() for o in self.outcomes],
        }


def check_constraints(
    index: Index,
    doc_rows: np.ndarray,
    constraints: Sequence[Constraint],
    scores: np.ndarray | None = None,
) -> ConstraintCheck:
    """Test candidate ``doc_rows`` (best first) against ``constraints``.

    Returns the rows that pass every hard constraint, in input order, with a
    score shift per kept row (module docstring: soft re-weighting and the
    compliance term, in units of the spread of ``scores``; 1 if ``scores`` is
    not given). With no constraints the rows come back unchanged and ``boost``
    is None.
    """
    rows = np.asarray(doc_rows, dtype=np.int64)
    if not constraints:
        return ConstraintCheck(rows, None, len(rows))
    attrs = doc_attributes(index)
    ok = (rows >= 0) & (rows < len(attrs.present))
    rows_ok = np.where(ok, rows, 0)
    keep = ok & attrs.present[rows_ok]
    met_count = np.zeros(len(rows), dtype=np.float64)
    outcomes: list[ConstraintOutcome] = []
    for c in constraints:
        hard = is_hard(c)
        meets = _meets(index, attrs, rows_ok, c)
        if meets is None:
            outcomes.append(ConstraintOutcome(c, hard, False, 0, 0))
            continue
        if c.negated:
            meets = ~meets
        removed = 0
        if hard:
            removed = int((keep & ~meets).sum())
            keep &= meets
        met_count += meets
        outcomes.append(
            ConstraintOutcome(
                c, hard, True, int(meets.sum()), removed, _index_total(index, attrs, c)
            )
        )
    if scores is not None and len(scores):
        s = np.asarray(scores, dtype=np.float64)
        spread = float(s.max() - s.min()) or 1.0
    else:
        spread = 1.0
    boost = (COMPLIANCE_WEIGHT * spread * met_count)[keep]
    return ConstraintCheck(rows[keep], boost.astype(np.float32), len(rows), outcomes)


def _index_total(index: Index, attrs: DocAttributes, c: Constraint) -> int | None:
    """Documents of the whole index meeting ``c`` — for the array dimensions only (cached)."""
    if c.dimension.lower() not in ("language", "length", "source"):
        return None
    key = (c.dimension.lower(), c.value.strip().lower(), bool(c.negated))
    with attrs.lock:
        if key in attrs.index_totals:
            return attrs.index_totals[key]
    meets = _meets(index, attrs, np.flatnonzero(attrs.present), c)
    total = None if meets is None else int((~meets if c.negated else meets).sum())
    with attrs.lock:
        attrs.index_totals[key] = total
    return total
