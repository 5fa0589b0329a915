"""Rule 4: a turn made of constraint phrases only. The constraints of a turn are read
by :func:`read_turn_constraints` (the question parser's reader, then values said
alone), made what the turn means (:func:`_normalised`: an operator earlier in the
clause negates, a file type named as a source is a format) and added to the plan.
"""

from __future__ import annotations

import dataclasses
import re

from assistant.models import Constraint, QueryPlan
from assistant.understand.constraints import find_constraints, not_implied
from assistant.understand.followup.bare import _bare_constraints
from assistant.understand.followup.constraint_words import (
    _ASKS,
    _AUDIENCES,
    _CONSTRAINT_RESIDUE,
    _DOC_KIND,
    _DOC_KINDS,
    _EXCLUDE,
    _GENERIC_DOCS,
    _KIND_WORDS,
    _POSITIVE,
    _PREPOSITION,
    _SOURCE_MODIFIERS,
    _excluded,
    _negated_scope,
)
from assistant.understand.followup.edits import FollowUp, Rule, _con, _edit
from assistant.understand.followup.words import (
    _FACET_MARK,
    _NUMBER_WORDS,
    Span,
    _content,
    _is_facet,
    _residue,
    _stem,
    _topic_stems,
    _words,
)
from assistant.understand.values import (
    FORMATS,
    language_code,
)
from assistant.understand.vocab import VOCAB

_ARTICLES = frozenset(VOCAB.grammar.articles)


_DOC_SINGULAR = frozenset(VOCAB.values.doc_singular)


def _normalised(q: str, c: Constraint, span: Span) -> Constraint:
    """A constraint as a follow-up means it: a file type named as a source is a format
    ("skip the PDFs"), a source kind in the singular and lower case ("keine Blogs" ->
    "blog"), a value excluded by an operator earlier in its clause ("anything but
    spanish", "I can't read German"), a length, audience or format negated by a word
    before its scope ("no long reads", "nothing written for kids"), and an excluded
    bound turned round ("omit documents exceeding 2,000 words" -> ``<2000``)."""
    if c.dimension == "source":
        low = c.value.lower()
        if low in _ARTICLES:  # "sans les blogs": the article alone was taken for the name
            after = _words(q[span[0] : span[1]])
            low = after[-1] if after and after[-1] not in _ARTICLES else low
        if low.endswith("ies") and low[:-3] + "y" in _DOC_SINGULAR:
            low = low[:-3] + "y"  # "only studies" -> study
        if low in FORMATS:
            c = dataclasses.replace(c, dimension="format", value=FORMATS[low], hard=False)
        else:
            if (
                low in VOCAB.values.source_nouns
                and low.endswith("s")
                and low[:-1] in VOCAB.values.source_nouns
            ):
                low = low[:-1]  # a kind, as the parser writes it
            low = _KIND_WORDS.get(low, low)  # "keine Zeitungen" -> newspaper
            c = dataclasses.replace(c, value=low)
    if not c.negated and (
        _excluded(q, span[0])
        or (c.dimension in ("length", "audience", "format") and _negated_scope(q[: span[0]]))
    ):
        c = dataclasses.replace(c, negated=True)
    bound = re.fullmatch(r"([<>])\s*(\d+)", c.value.strip()) if c.dimension == "length" else None
    if bound and c.negated:
        # "omit documents exceeding 2,000 words": what is wanted is under 2,000
        flip = "<" if bound.group(1) == ">" else ">"
        c = dataclasses.replace(c, value=flip + bound.group(2), negated=False)
    return c


_SPELLED_HUNDREDS = re.compile(
    r"\b(?P<n>" + "|".join(_NUMBER_WORDS) + r"|a|one)\s+(?P<u>hundred|thousand)\b", re.I
)


_FEW = re.compile(
    r"\b(?:a couple of|a couple|couple of|a few|a handful of)"
    r"(?=\s+(?:pages?|minutes?|paragraphs?))",
    re.I,
)


# "pitched at children rather than adults", "html pages than anything else"
_RATHER_THAN = re.compile(
    r"\s*,?\s*(?:rather than|instead of|than|not|over) (?:the |any |anything |everything )?"
    r"(?:else|[\w\-]+(?: [\w\-]+)?)\s*[.!?]*\s*$",
    re.I,
)


# "My readers are kids, around 9 or 10", "our audience is mostly parents"
_READERS_ARE = re.compile(
    r"\b(?:my|our|the) (?:readers|readership|audience|class|students|listeners|viewers|"
    r"target audience|target group|kids|pupils) (?:are|is|will be) (?:(?:mostly|all|mainly|"
    r"largely|just|only)\s+)?(?:an?\s+|the\s+)?(?P<a>[\w\-]+(?: [\w\-]+)?)"
    r"(?P<age>,?\s*(?:around|about|aged|age|ages)?\s*\d{1,2}(?:\s*(?:or|to|-|and)\s*\d{1,2})?"
    r"(?: years old)?)?",
    re.I,
)


def _kind_as_source(c: Constraint, said: bool = False) -> Constraint:
    """A keyword that names a kind of document is a source ("without the forum posts",
    "minus the wiki stuff" -> forum, wiki), one that names a language a language
    ("everything except German"); "the word 'methane' explicitly" -> methane. ``said``:
    the keyword was said as a word ("mentioning Instagram"), and stays one."""
    if c.dimension != "keyword":
        return c
    v = re.sub(r"^(?:the\s+)?(?:word|term|phrase)\s+", "", c.value.strip(), flags=re.I)
    v = re.sub(r"\s+(?:explicitly|anywhere|at all|in (?:it|them))$", "", v, flags=re.I)
    v = v.strip("'\"‘’“” ")
    if said:
        return dataclasses.replace(c, value=v) if v else c
    kind = re.sub(
        r"\s+(?:stuff|ones|things|posts|content|material|pages|articles)$", "", v, flags=re.I
    )
    code = language_code(v) if " " not in v else None
    if code:  # "everything except German"
        return dataclasses.replace(c, dimension="language", value=code, hard=True)
    if _DOC_KIND.fullmatch(kind) or kind.lower() in VOCAB.values.source_sites:
        low = kind.lower()
        value = low[:-1] if low.endswith("s") and low[:-1] in _DOC_KINDS else low
        return dataclasses.replace(c, dimension="source", value=value)
    return dataclasses.replace(c, value=v) if v else c


_HEDGED_NUMBER = re.compile(
    r"\b(?P<op>under|over|below|above|less than|more than|fewer than|at most|at least|max|"
    r"maximum|min|minimum|no more than|no longer than|up to)\s+(?:like|maybe|around|about|"
    r"roughly|approx(?:imately)?|say|~)\s+(?=\d)",
    re.I,
)


def _spelled(q: str) -> str:
    """Numbers of a length written as words, as digits ("under five hundred words" ->
    "under 500 words", "a couple of pages" -> "2 pages"; "exceed 3,000 words" -> "over")."""

    def hundreds(m: re.Match[str]) -> str:
        n = m.group("n").lower()
        k = 1 if n in ("a", "one") else _NUMBER_WORDS[n]
        return str(k * (100 if m.group("u").lower() == "hundred" else 1000))

    q = _SPELLED_HUNDREDS.sub(hundreds, q)
    q = _FEW.sub(
        lambda m: "3" if "few" in m.group(0).lower() or "handful" in m.group(0) else "2", q
    )
    q = _HEDGED_NUMBER.sub(lambda m: m.group("op") + " ", q)
    return re.sub(r"\bexceeds?(?=\s+\d)", "over", q, flags=re.I)


_FORMAT_NAMES = frozenset(FORMATS)


def _same(c: Constraint) -> tuple[str, str, bool]:
    """What makes two constraints the same one."""
    return c.dimension, c.value.lower(), c.negated


# a keyword said as one ("mentioning Instagram", "with the word keto") stays a keyword
_MENTIONED = re.compile(
    r"^\s*(?:that\s+|which\s+)?(?:mention|mentions|mentioning|mentioned|with\s+the\s+(?:word|term)|"
    r"containing|contains|naming|that\s+names?|citing)\b",
    re.I,
)


# "cut everything that isn't in Spanish": an exclusion of what is not, a restriction
_EXCLUDE_WHAT_IS_NOT = re.compile(
    r"\b(?:cut|remove|drop|exclude|skip|filter\s+out|leave\s+out|get\s+rid\s+of|lose|ditch|"
    r"hide|toss|ignore)\s+(?:everything|anything|all|whatever|stuff|those|the\s+ones|ones|"
    r"documents|sources|articles|results)\s+(?:that|which|what)?\s*(?:is|are)(?:n['’]t|\s+not)\b",
    re.I,
)


def _constraint_edit(q: str, previous: QueryPlan, lenient: bool = False) -> FollowUp | None:
    """Rule 4: a turn made of constraint phrases only (their values, operators and scope
    words). ``lenient`` (rule 9): words of the turn's own beside the constraints are
    allowed."""
    q = _spelled(q)
    cons, spans = read_turn_constraints(q)
    if not cons:
        return None
    if not lenient and _has_residue(q, cons, spans, previous):
        return None
    cons = [
        _kind_as_source(c, said=bool(_MENTIONED.match(q[a:b])))
        for c, (a, b) in zip(cons, spans, strict=True)
    ]
    # a generic document noun or a request verb is no source ("exclude opinion pieces from
    # the sources", "can you only show me sources from the European Commission")
    keep = [not _no_source(c) for c in cons]
    if not all(keep) and any(keep):
        cons = [c for c, k in zip(cons, keep, strict=True) if k]
        spans = [sp for sp, k in zip(spans, keep, strict=True) if k]
    elif not any(keep) and lenient:
        return None
    if any(c.dimension == "keyword" and _FACET_MARK.search(c.value) for c in cons):
        return None  # "don't include the noise stuff": a facet to drop, not a word
    if any(_topic_or_facet(q, c, span, previous) for c, span in zip(cons, spans, strict=True)):
        return None
    return _constraints_edit(previous, _as_meant(q, cons, spans))


def read_turn_constraints(q: str) -> tuple[list[Constraint], list[Span]]:
    """The constraints of a follow-up and their spans: the question parser's
    (:func:`~assistant.understand.constraints.find_constraints`), then the values said
    alone (:func:`_bare_constraints`), then the readers described ("my readers are kids")."""
    cons, spans = find_constraints(q, wh_factual=False)
    more, more_spans = _bare_constraints(q, list(spans))
    cons, spans = [*cons, *more], [*spans, *more_spans]
    readers = _READERS_ARE.search(q)
    if readers and readers.group("a").lower() in _AUDIENCES:
        s0, e0 = readers.span()
        if not any(a < e0 and s0 < b for a, b in spans):
            value = _AUDIENCES[readers.group("a").lower()]
            cons.append(Constraint("audience", value, text=q[s0:e0]))
            spans.append((s0, e0))
    return cons, spans


def _has_residue(q: str, cons: list[Constraint], spans: list[Span], previous: QueryPlan) -> bool:
    """Words of the turn's own beside the constraints, their frame (the operators' own
    words, "anything but", "nada", and a contrast at the end, "rather than adults") and
    the words a constraint turn may hold."""
    frame = [m.span() for m in _EXCLUDE.finditer(q)] + [m.span() for m in _POSITIVE.finditer(q)]
    contrast = _RATHER_THAN.search(q)
    if contrast and not any(a < contrast.end() and contrast.start() < b for a, b in spans):
        frame.append(contrast.span())  # ", not doctors" after "just stuff for regular people"
    # a value word said twice over ("interview transcripts", "slides or a presentation")
    said = _FORMAT_NAMES if any(c.dimension == "format" for c in cons) else frozenset()
    return bool(_residue(q, [*spans, *frame], previous, also=_CONSTRAINT_RESIDUE | said))


def _no_source(c: Constraint) -> bool:
    return c.dimension == "source" and (
        c.value.lower() in _GENERIC_DOCS or (_words(c.value) or [""])[0] in _ASKS
    )


def _topic_or_facet(q: str, c: Constraint, span: Span, previous: QueryPlan) -> bool:
    """A value that is the topic's own ("the trails need not be beginner-friendly") or a
    kind of document that names a facet of the answer ("leave out the productivity
    studies")."""
    s0, e0 = span
    words = _content(q[s0:e0])
    if (
        c.dimension in ("audience", "length")
        and words
        and not _PREPOSITION.search(q[s0:e0])
        and {_stem(w) for w in words} <= _topic_stems(previous)
    ):
        return True
    if c.dimension == "source" and re.search(r"\bthe\s+$", q[:s0], re.I):
        mods = [w for w in words if not _DOC_KIND.fullmatch(w)]
        return bool(mods) and not set(mods) & _SOURCE_MODIFIERS and all(_is_facet(w) for w in mods)
    return False


def _as_meant(q: str, cons: list[Constraint], spans: list[Span]) -> list[Constraint]:
    """The constraints as the turn means them (:func:`_normalised`), an exclusion of what
    is not ("cut everything that isn't in Spanish") turned into a restriction, a length
    word a number already says and a value said twice left out."""
    cons = [_normalised(q, c, span) for c, span in zip(cons, spans, strict=True)]
    twice = _EXCLUDE_WHAT_IS_NOT.search(q)
    if twice:
        cons = [
            dataclasses.replace(c, negated=False) if c.negated and sp[0] >= twice.start() else c
            for c, sp in zip(cons, spans, strict=True)
        ]
    # "only long ones, 2000+ words": the bare word and the number are one constraint
    cons = [c for c, keep in zip(cons, not_implied(cons), strict=True) if keep]
    # "the super technical stuff meant for specialists": one audience said twice
    once = {_same(c): c for c in reversed(cons)}
    return [c for c in cons if once[_same(c)] is c]


def _constraints_edit(previous: QueryPlan, cons: list[Constraint]) -> FollowUp:
    have = {_same(c) for c in previous.constraints}
    new = [c for c in cons if _same(c) not in have]

    def apply(plan: QueryPlan) -> None:
        plan.constraints.extend(new)

    value = [_con(c) for c in cons]
    changes = [f"+ constraint {c.dimension} {'not ' if c.negated else ''}{c.value}" for c in new]
    return _edit(
        previous,
        "add_constraint",
        value[0] if len(value) == 1 else value,
        Rule.CONSTRAINTS,
        changes,
        apply,
    )


def _names_constraint(phrase: str) -> bool:
    """Does the phrase name a constraint's value other than a keyword ("blogs", "pdfs")?"""
    cons, _ = find_constraints("no " + phrase, wh_factual=False)
    more, _ = _bare_constraints("no " + phrase, [])
    return any(c.dimension != "keyword" for c in (*cons, *more))
