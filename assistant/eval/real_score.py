"""How ``sphere eval real`` scores an answer against a page's gold texts (issue 34).

Pure functions over the gold pages (``gold.jsonl`` of ``idebate-html``) and an
answer's summary, read by attribute only (claims → perspectives → references),
so the scoring does not depend on how ingest, the summarizer or the claim
builder work inside.

**Text matching.** Quotes and gold texts are compared by their *match key*:
HTML entities decoded, Unicode NFKC, zero-width characters and soft hyphens
dropped, curly quotes and dashes made plain, footnote markers dropped (``[3]``,
``[iv]`` but not an editor's ``[i]n``, and numbers of one to three digits
standing alone or glued after a word or a punctuation mark: ``unrest.1``,
``art 1 is``; an ordinal's suffix set apart, ``19 th``, is joined to its number
first), whitespace collapsed (no space before ``.,;:!?)]``), lower
case. Both sides get the same key, so a marker the extractor removes or keeps
makes no difference.

**Gold sentences** (the boundaries a quote must start and end on). A gold text
is cut into sentences by one rule:

1. a line break ends a sentence (paragraphs, list items, headings);
2. ``.``, ``!`` or ``?`` (with any closing quotes or brackets after it) ends a
   sentence when whitespace and a character that can open one follow (a
   capital, a digit, an opening quote or bracket);
3. except a full stop after a title word of ``real_words.yaml``
   (``Mr.``, ``Dr.``, ``vs.`` …): that never ends one. After an initial or an
   acronym (``J.``, ``U.S.``) rule 2 holds, so a quote may end there or run on.

A quote is *whole* when its key equals the keys of one or more consecutive
gold sentences of one gold text (the intro or one argument), joined by spaces.
"""

from __future__ import annotations

import html
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path, PurePath
from typing import Any

import yaml

from assistant.errors import DataError

SIDES = ("pro", "con")
#: the counts of one answer's row (:func:`evidence_counts`, :func:`reference_counts`,
#: :func:`side_counts`) and the checks of its claims (:func:`claims_check`)
EVIDENCE_KEYS = (
    "items",
    "furniture",
    "whole",
    "found_any",
    "whole_of_found",
    "headings",
    "markers",
    "empty",
)
REFERENCE_KEYS = (
    "references",
    "other_page",
    "same_motion_page",
    "motion_pages",
    "motion_pages_cited",
)
SIDE_KEYS = ("scored", "correct", "ambiguous", "intro")
CLAIM_CHECKS = ("declarative", "no_template", "not_repeated")


# --------------------------------------------------------------------------- words
@dataclass(frozen=True)
class Words:
    abbreviations: frozenset[str]


@lru_cache(maxsize=4)
def load_words(path: str | None = None) -> Words:
    """The lists of ``real_words.yaml`` (or of ``path``), checked once."""
    where = Path(path) if path else Path(str(resources.files("assistant.eval") / "real_words.yaml"))
    data = yaml.safe_load(where.read_text(encoding="utf-8")) or {}
    value = data.get("abbreviations")
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise DataError(f"{where}: 'abbreviations' must be a list of non-empty strings")
    return Words(frozenset(v.strip().lower().rstrip(".") for v in value))


# --------------------------------------------------------------------------- text
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_PLAIN = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
    }
)
# a bracketed note marker, numbered or Roman ("[3]", "[iv]"), not an editor's letter
# inside a word ("[i]n")
_BRACKET_MARK = re.compile(r"\[(?:\d{1,3}|[ivxlc]{1,6})\](?![^\W\d_])", re.IGNORECASE)
# a footnote number glued after a word or a punctuation mark ("unrest.1 Even", "art1 is")
_GLUED_MARK = re.compile(r"(?<=[^\W\d_]|[.,;:!?'\")\]])\d{1,3}(?=[\s.,;:!?)]|$)")
# an ordinal whose suffix a page sets apart as a superscript ("the 19 th century",
# "162 nd"): joined, so that "19th" and "19 th" are the same text and neither
# loses its number to the marker rules
_ORDINAL = re.compile(r"(?<![\w.])(\d{1,4})\s+(st|nd|rd|th)\b", re.IGNORECASE)
# a number of one to three digits standing alone ("art 1 is", "2 Nicholson")
_LONE_NUMBER = re.compile(r"(?<!\S)\d{1,3}(?=[\s,;:]|$)")
_SPACES = re.compile(r"[^\S\n]+")
_SPACE_BEFORE = re.compile(r"\s+([.,;:!?)\]])")
_SPACE_AFTER = re.compile(r"([(\[])\s+")


def clean_text(text: str) -> str:
    """``text`` with the key's normalisation but case and line breaks kept."""
    t = unicodedata.normalize("NFKC", html.unescape(text or "")).translate(_INVISIBLE)
    t = t.translate(_PLAIN)
    t = _ORDINAL.sub(r"\1\2", t)
    t = _BRACKET_MARK.sub(" ", t)
    t = _GLUED_MARK.sub("", t)
    t = _LONE_NUMBER.sub(" ", t)
    lines = (_SPACES.sub(" ", line).strip() for line in t.splitlines())
    t = "\n".join(line for line in lines if line)
    return _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", t))


def match_key(text: str) -> str:
    """The form quotes and gold texts are compared in (module docstring)."""
    t = clean_text(text).replace("\n", " ")
    return _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", t)).lower()


_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9])")


def gold_sentences(text: str, abbreviations: Iterable[str] = ()) -> list[str]:
    """The sentences of a gold text by the rule of the module docstring (cleaned text)."""
    abbr = {a.lower().rstrip(".") for a in abbreviations}
    out: list[str] = []
    for para in clean_text(text).split("\n"):
        start = 0
        for m in _SENTENCE_END.finditer(para):
            word = para[start : m.end()].split()[-1].strip("\"')]([")
            if word.endswith(".") and word.rstrip(".").lower() in abbr:
                continue
            out.append(para[start : m.end()].strip())
            start = m.end()
        if para[start:].strip():
            out.append(para[start:].strip())
    return out


@dataclass(frozen=True)
class GoldText:
    """One gold text as its match key, with where its sentences start and end in it."""

    key: str
    starts: frozenset[int]
    ends: frozenset[int]

    @classmethod
    def of(cls, text: str, abbreviations: Iterable[str] = ()) -> GoldText:
        keys = [k for k in (match_key(s) for s in gold_sentences(text, abbreviations)) if k]
        starts: set[int] = set()
        ends: set[int] = set()
        pos = 0
        for k in keys:
            starts.add(pos)
            ends.add(pos + len(k))
            pos += len(k) + 1
        return cls(" ".join(keys), frozenset(starts), frozenset(ends))

    def contains(self, key: str) -> bool:
        return bool(key) and key in self.key

    def whole(self, key: str) -> bool:
        """Whether ``key`` is one or more consecutive whole sentences of this text."""
        if not key:
            return False
        at = self.key.find(key)
        while at >= 0:
            if at in self.starts and at + len(key) in self.ends:
                return True
            at = self.key.find(key, at + 1)
        return False


# --------------------------------------------------------------------------- gold
@dataclass(frozen=True)
class GoldArgument:
    id: str
    argues: str  # "pro": the motion's side; "con": against it
    title: str
    text: GoldText


@dataclass(frozen=True)
class GoldPage:
    page: str  # as in gold.jsonl: "pages/<slug>.html"
    motion: str
    theme: str
    intro: GoldText
    arguments: tuple[GoldArgument, ...]
    titles: frozenset[str] = field(default_factory=frozenset)

    @property
    def name(self) -> str:
        return page_name(self.page)

    def texts(self) -> list[GoldText]:
        return [self.intro, *(a.text for a in self.arguments)]

    def found(self, key: str) -> bool:
        return any(t.contains(key) for t in self.texts())

    def whole(self, key: str) -> bool:
        return any(t.whole(key) for t in self.texts())

    def argues(self, key: str) -> set[str]:
        """The sides of the arguments whose text contains ``key``."""
        return {a.argues for a in self.arguments if a.text.contains(key)}


def page_name(path: str) -> str:
    """The file name a page is known by (gold ``page`` and a reference's path alike)."""
    return PurePath(str(path).replace("\\", "/")).name


def motion_key(motion: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", motion.lower()))


def _gold_page(row: dict[str, Any], words: Words) -> GoldPage:
    args = tuple(
        GoldArgument(
            str(a["id"]),
            str(a["argues"]),
            str(a.get("title") or ""),
            GoldText.of(str(a["text"]), words.abbreviations),
        )
        for a in row["arguments"]
    )
    titles = frozenset(match_key(str(a.get("title") or "")) for a in row["arguments"]) - {""}
    return GoldPage(
        str(row["page"]),
        str(row["motion"]),
        str(row.get("theme") or ""),
        GoldText.of(str(row.get("intro") or ""), words.abbreviations),
        args,
        titles,
    )


def load_gold(folder: str | Path, words: Words | None = None) -> dict[str, GoldPage]:
    """The gold pages of an ``idebate-html`` folder by file name (:class:`DataError` if bad)."""
    root = Path(folder).expanduser()
    hint = "pass the idebate-html folder: gold.jsonl and pages/ (e.g. ../shared/data/idebate-html)"
    gold = root / "gold.jsonl"
    if not root.is_dir():
        raise DataError(f"{root}: no such folder", hint=hint)
    if not gold.is_file() or not (root / "pages").is_dir():
        raise DataError(f"{root} has no gold.jsonl and pages/ folder", hint=hint)
    w = words or load_words()
    pages: dict[str, GoldPage] = {}
    for n, line in enumerate(gold.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            page = _gold_page(row, w)
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise DataError(
                f"{gold}:{n}: not a gold page ({exc.__class__.__name__}: {exc})",
                hint="each line: {page, motion, intro, arguments: [{id, argues, text}]}",
            ) from None
        if page.name in pages:
            raise DataError(f"{gold}:{n}: page {page.name} appears twice")
        pages[page.name] = page
    if not pages:
        raise DataError(f"{gold} holds no page", hint=hint)
    return pages


@dataclass(frozen=True)
class RealQuestion:
    page: str
    motion: str
    question: str

    @property
    def name(self) -> str:
        return page_name(self.page)


def load_questions(path: str | Path, gold: dict[str, GoldPage]) -> list[RealQuestion]:
    """The question file (``{"page", "motion", "question"}`` a line), each page in ``gold``."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise DataError(f"{p}: no such question file", hint="pass --questions FILE")
    out: list[RealQuestion] = []
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            q = RealQuestion(str(row["page"]), str(row["motion"]), str(row["question"]).strip())
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise DataError(f"{p}:{n}: not a question row ({exc})") from None
        if q.name not in gold:
            raise DataError(f"{p}:{n}: page {q.page} is not in gold.jsonl")
        if not q.question:
            raise DataError(f"{p}:{n}: empty question")
        out.append(q)
    if not out:
        raise DataError(f"{p} holds no question")
    return out


# --------------------------------------------------------------------------- answers
@dataclass(frozen=True)
class Quoted:
    """A text an answer shows as evidence: a reference's quote or a perspective's text."""

    kind: str  # "quote" | "perspective"
    side: str  # the claim it stands under: "pro" (claim A, yes) | "con"
    text: str
    pages: tuple[str, ...]  # the page a quote cites; the pages a perspective's references cite


def claim_sides(summary: Any) -> list[tuple[str, Any]]:
    """(side, claim) for each claim of ``summary``; a claim without a side is A then B."""
    claims = list(getattr(summary, "claims", None) or [])
    return [
        (str(getattr(c, "side", "") or (SIDES[i] if i < 2 else "")), c)
        for i, c in enumerate(claims)
    ]


def reference_page(ref: Any) -> str:
    return page_name(str(getattr(ref, "path", "") or getattr(ref, "doc_id", "")))


def answer_items(summary: Any) -> list[Quoted]:
    """Every perspective text and every reference quote of ``summary``, in order."""
    items: list[Quoted] = []
    for side, claim in claim_sides(summary):
        for p in getattr(claim, "perspectives", []) or []:
            refs = list(getattr(p, "references", []) or [])
            pages = tuple(dict.fromkeys(reference_page(r) for r in refs))
            items.append(Quoted("perspective", side, str(getattr(p, "text", "")), pages))
            for r in refs:
                quote = str(getattr(r, "quote", "") or "")
                items.append(Quoted("quote", side, quote, (reference_page(r),)))
    return items


def cited_pages(summary: Any) -> dict[str, set[str]]:
    """The pages cited under each claim."""
    out: dict[str, set[str]] = {s: set() for s in SIDES}
    for side, claim in claim_sides(summary):
        for p in getattr(claim, "perspectives", []) or []:
            for r in getattr(p, "references", []) or []:
                out.setdefault(side, set()).add(reference_page(r))
    return out


# --------------------------------------------------------------------------- metrics
def evidence_counts(
    items: Sequence[Quoted], page: str, gold: dict[str, GoldPage]
) -> dict[str, int]:
    """Furniture and whole-sentence counts of an answer to the question about ``page``.

    ``furniture``: items (quotes and perspective texts; empty quotes left out and
    counted apart) not found in ``page``'s gold texts, so a quote from another
    page counts too. ``whole``: items that are whole sentences of a gold text
    of a page they may come from (``page`` and the pages the item cites);
    ``found_any``: items found in one of those pages at all, of which
    ``whole_of_found`` are whole. ``headings``: items that are an argument's
    title (not a gold text, so furniture); ``markers``: items that show a
    footnote marker such as ``[2]`` (the key forgives it).
    """
    home = gold[page]
    c = dict.fromkeys(EVIDENCE_KEYS, 0)
    for it in items:
        key = match_key(it.text)
        if not key:
            c["empty"] += 1
            continue
        c["items"] += 1
        if not home.found(key):
            c["furniture"] += 1
        candidates = [home, *(gold[p] for p in it.pages if p in gold and p != page)]
        if any(g.whole(key) for g in candidates):
            c["whole"] += 1
        if any(g.found(key) for g in candidates):
            c["found_any"] += 1
            c["whole_of_found"] += any(g.whole(key) for g in candidates)
        if any(key in g.titles for g in candidates):
            c["headings"] += 1
        if _BRACKET_MARK.search(it.text):
            c["markers"] += 1
    return c


def reference_counts(
    items: Sequence[Quoted], page: str, gold: dict[str, GoldPage]
) -> dict[str, int]:
    """References citing the question's page, a page with the same motion, or another;
    ``motion_pages``: the pages whose motion is the question's (its own included), of
    which ``motion_pages_cited`` are cited at all (the answer's recall of the pages
    that argue its question, where a question has several)."""
    motion = motion_key(gold[page].motion)
    own = {name for name, g in gold.items() if motion_key(g.motion) == motion}
    c = dict.fromkeys(REFERENCE_KEYS, 0)
    cited_own: set[str] = set()
    for it in items:
        if it.kind != "quote":
            continue
        c["references"] += 1
        cited = it.pages[0] if it.pages else ""
        if cited in own:
            cited_own.add(cited)
        if cited != page:
            c["other_page"] += 1
            if cited in own:
                c["same_motion_page"] += 1
    c["motion_pages"] = len(own)
    c["motion_pages_cited"] = len(cited_own)
    return c


def side_counts(items: Sequence[Quoted], page: str, gold: dict[str, GoldPage]) -> dict[str, int]:
    """Passage side accuracy counts of one answer.

    A quote is scored when it cites a page whose motion is the question's
    (the page itself or a copy of it) and an argument of that page contains
    it: ``correct`` when it stands under the claim the argument argues (pro =
    claim A = the motion). ``ambiguous``: the arguments containing it argue
    both sides; ``intro``: found only in the page's neutral intro.
    """
    motion = motion_key(gold[page].motion)
    c = dict.fromkeys(SIDE_KEYS, 0)
    for it in items:
        key = match_key(it.text)
        cited = it.pages[0] if it.pages else ""
        if it.kind != "quote" or not key or cited not in gold:
            continue
        g = gold[cited]
        if motion_key(g.motion) != motion:
            continue
        sides = g.argues(key)
        if len(sides) > 1:
            c["ambiguous"] += 1
        elif sides:
            c["scored"] += 1
            c["correct"] += it.side in sides
        elif g.intro.contains(key):
            c["intro"] += 1
    return c


# --------------------------------------------------------------------------- claims
def claims_check(claims: Sequence[str], question: str) -> dict[str, Any]:
    """An answer's two claims by the claims checker of ``sphere eval claims``
    (:func:`assistant.understand.claim_check.check_claims`), in this harness's keys:
    ``declarative`` (both), ``no_template`` (neither shows template words),
    ``not_repeated`` (neither repeats the question) and ``ok``; ``labelled``: a claim
    is the never-wrong labelled form ("Yes — …?"), which is not declarative;
    ``why``: the checker's reasons. An answer without two claims fails every check."""
    from assistant.understand.claim_check import check_claims

    checks = check_claims(question, claims)
    two = len(claims) == 2
    out: dict[str, Any] = {
        "declarative": two and all(c.declarative for c in checks),
        "no_template": two and not any(c.template for c in checks),
        "not_repeated": two and not any(c.repeats_question for c in checks),
    }
    out["ok"] = all(out.values())
    out["labelled"] = any(c.labelled for c in checks)
    out["why"] = [c.reason for c in checks if c.reason] or ([] if two else ["not two claims"])
    return out


# --------------------------------------------------------------------------- aggregate
TARGETS = {
    "furniture_rate": ("<=", 0.02),
    "whole_sentences": (">=", 1.0),
    "side_accuracy": (">=", 0.80),
    "both_claims": (">=", 0.70),
    "claims_ok": (">=", 1.0),
}


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest-rank method (the value at rank ⌈q·n⌉)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(round(q * len(ordered), 9)))
    return ordered[min(rank, len(ordered)) - 1]


def _rate(num: float, den: float) -> float:
    return round(num / den, 4) if den else 0.0


def aggregate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of ``rows`` (one per question): rates as fractions."""

    def total(group: str, key: str) -> int:
        return sum(int(r[group][key]) for r in rows)

    n = len(rows)
    seconds = [float(r["seconds"]) for r in rows]
    out: dict[str, Any] = {
        "questions": n,
        "items": total("evidence", "items"),
        "furniture_rate": _rate(total("evidence", "furniture"), total("evidence", "items")),
        # page furniture proper: in no gold text of the question's page or of the cited pages
        "not_in_any_gold_rate": _rate(
            total("evidence", "items") - total("evidence", "found_any"), total("evidence", "items")
        ),
        "whole_sentences": _rate(total("evidence", "whole"), total("evidence", "items")),
        "whole_of_found": _rate(
            total("evidence", "whole_of_found"), total("evidence", "found_any")
        ),
        "headings_quoted": total("evidence", "headings"),
        "markers_quoted": total("evidence", "markers"),
        "empty_quotes": total("evidence", "empty"),
        "references": total("references", "references"),
        "references_other_page": total("references", "other_page"),
        "references_same_motion_page": total("references", "same_motion_page"),
        # references citing a page of the question's motion (its own or another), and the
        # share of those pages cited: precision and recall where a question has several
        "motion_precision": _rate(
            total("references", "references")
            - total("references", "other_page")
            + total("references", "same_motion_page"),
            total("references", "references"),
        ),
        "motion_recall": _rate(
            total("references", "motion_pages_cited"), total("references", "motion_pages")
        ),
        "side_accuracy": _rate(total("sides", "correct"), total("sides", "scored")),
        "side_quotes_scored": total("sides", "scored"),
        "side_quotes_ambiguous": total("sides", "ambiguous"),
        "intro_quotes": total("sides", "intro"),
        "both_claims": _rate(sum(all(r["page_cited"].values()) for r in rows), n),
        "page_cited": _rate(sum(any(r["page_cited"].values()) for r in rows), n),
        "claims_ok": _rate(sum(bool(r["claims_check"]["ok"]) for r in rows), n),
    }
    for k in CLAIM_CHECKS:
        out[f"claims_{k}"] = _rate(sum(bool(r["claims_check"][k]) for r in rows), n)
    out["seconds_median"] = round(nearest_rank(seconds, 0.5), 3)
    out["seconds_p90"] = round(nearest_rank(seconds, 0.9), 3)
    out["meets"] = {
        k: (out[k] <= v if op == "<=" else out[k] >= v) for k, (op, v) in TARGETS.items()
    }
    return out
