"""InfoSearch constraints (paper 002 §3): language, length, source, keyword, format, audience."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from assistant.models import Constraint
from assistant.understand.sources import _SOURCE_NOUNS, _more_sources, _named_sources, _sources
from assistant.understand.text import _alt, _scope, _span_text, _split_values, _trim
from assistant.understand.values import (
    AUDIENCE_ADJECTIVES,
    AUDIENCES,
    FORMATS,
    LENGTH_WORDS,
    ages,
    language_code,
)
from assistant.understand.vocab import VOCAB, alternation, every, inverse

# the cues around a constraint's value in a question (words/constraints.yaml), each list
# read here once
_Q = VOCAB.constraints.question

_GOOD_FOR = re.compile(r"\b" + alternation(_Q.good_for_words) + r"\s+$", re.I)


_AT_MOST = VOCAB.values.at_most
_AT_LEAST = VOCAB.values.at_least
# "something short to read": the word -> the length it says
_READ_LENGTH = inverse(_Q.read_lengths)

_NAME_LANGS = tuple(VOCAB.values.name_languages)


def find_constraints(
    q: str, *, wh_factual: bool, proposition: tuple[int, int] | None = None
) -> tuple[list[Constraint], list[tuple[int, int]]]:
    """InfoSearch constraints (paper 002 §3) and the spans they came from.

    A bare content cue ("without X") is part of what is asked, not a filter, in a
    factual wh-question (``wh_factual``) and in a proposition (a yes/no question not put
    to Sphere, a motion, a proposal) whose span is ``proposition``, before any comma;
    there a quoted phrase re-weights rather than filters."""
    cons: list[Constraint] = []
    spans: list[tuple[int, int]] = []

    def add(
        dim: str, value: str, span: tuple[int, int], *, negated: bool = False, hard: bool = True
    ) -> None:
        if dim != "keyword" and any(s[0] < span[1] and span[0] < s[1] and s != span for s in spans):
            return
        if any(
            (c.dimension, c.value.lower(), c.negated) == (dim, value.lower(), negated) for c in cons
        ):
            return
        # audience and format re-weight, never filter (retrieval.constraints.is_hard):
        # say so in the plan the user reads and edits
        hard = hard and dim not in ("audience", "format")
        cons.append(Constraint(dim, value, negated=negated, hard=hard, text=_span_text(q, span)))
        spans.append(span)

    _sources(q, add)
    _languages(q, add)
    _lengths(q, add)
    _formats(q, add)
    _audiences(q, add)
    _keywords(q, add, wh_factual, proposition)
    _language_adjectives(q, add)
    _more_sources(q, add)
    _named_sources(q, add)
    _more_audiences(q, add)
    _more_lengths(q, add)
    _more_keywords(q, add)
    _more_formats(q, add)
    keep = not_implied(cons)
    return [c for c, k in zip(cons, keep, strict=True) if k], [
        sp for sp, k in zip(spans, keep, strict=True) if k
    ]


def _languages(q: str, add: Any) -> None:
    """Language: any language name langcodes knows, in English or in that language."""
    for m in re.finditer(
        r"\b(?P<neg>"
        + alternation(_Q.language_negations)
        + r"\s+)?(?:"
        + alternation(every(_Q.language_participles))
        + r"\s+)?"
        + alternation(every(_Q.language_prepositions), space=" ")
        + r"\s+(?P<l>[^\W\d_]{3,})\b"
        r"|\b(?P<l2>[^\W\d_]{3,})[- ]" + alternation(_Q.language_suffixes) + r"\b",
        q,
        re.I,
    ):
        code = language_code(m.group("l") or m.group("l2"))
        if code is None:
            continue
        add("language", code, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))


def _lengths(q: str, add: Any) -> None:
    """Length: "under 500 words", "short articles"."""
    for m in re.finditer(
        r"\b(?P<cmp>"
        + alternation((*_AT_MOST, *_AT_LEAST), space=" ")
        + r")\s+(?P<n>\d[\d,.]*)\s+"
        + alternation(every(_Q.word_nouns))
        + r"\b",
        q,
        re.I,
    ):
        if re.search(r"\b(?:nothing|none|no)\s*$", q[: m.start()], re.I):
            continue  # "nothing over 300 words" is the other way round (below)
        n = re.sub(r"[,.]", "", m.group("n"))
        op = "<" if m.group("cmp").lower() in _AT_MOST else ">"
        add("length", f"{op}{n}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:"
        + alternation(_Q.length_intensifiers)
        + r"\s+)?)?(?P<w>"
        + _alt(LENGTH_WORDS)
        + r")\s+"
        r"(?P<n>" + _alt((*VOCAB.requests.doc_nouns, *_Q.length_nouns)) + r")\b",
        q,
        re.I,
    ):
        w = m.group("w").lower()
        value = LENGTH_WORDS[w]
        add("length", value, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")), hard=False)


# a word near a format word that makes it a format ("as", "sous forme de")
_FORMAT_CUE = re.compile(r"\b" + alternation(every(_Q.format_cues), space=" ") + r"\b", re.I)


def _formats(q: str, add: Any) -> None:
    """Format: "as a PDF", "in a table"."""
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:as\s+|in\s+)?(?:an?\s+)?|no\s+|except\s+)?(?:as\s+|in\s+)?(?:an?\s+)?"
        r"(?P<f>" + _alt(FORMATS) + r")(?:\s+" + alternation(_Q.format_nouns) + r")?\b",
        q,
        re.I,
    ):
        f = m.group("f").lower()
        # every format word is also a topic word ("PDF table extraction", "a list of"):
        # it names a format only with a cue near it
        ambiguous = True
        # "list" is also a request verb: only with a format word or "as/in" near it
        near = q[max(0, m.start() - 16) : m.end() + 20]
        if ambiguous and not _FORMAT_CUE.search(near):
            continue
        add("format", FORMATS[f], _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))


def _audiences(q: str, add: Any) -> None:
    """Audience: "for beginners", "in plain language"."""
    aud = _alt(AUDIENCES)
    for m in re.finditer(
        r"\b(?P<neg>not\s+)?"
        + alternation(_Q.audience_cues, _Q.audience_cue_patterns, space=" ")
        + r"\s+(?:an?\s+|the\s+|my\s+|our\s+)?"
        r"(?P<a>" + aud + r")\b",
        q,
        re.I,
    ):
        if re.match(r"(?:not\s+)?for\b", m.group(0), re.I) and _GOOD_FOR.search(q[: m.start()]):
            continue  # "good for children", "harmful for teens": content, not a reader
        add(
            "audience",
            AUDIENCES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:too\s+)?)?(?:in\s+)?(?P<a>"
        + _alt(AUDIENCE_ADJECTIVES)
        + r")\b(?=\s+(?:"
        + _alt((*VOCAB.requests.doc_nouns, *_Q.audience_nouns))
        + r")\b)",
        q,
        re.I,
    ):
        add(
            "audience",
            AUDIENCE_ADJECTIVES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )


# a negation shortly before a keyword cue ("without mentioning X") …
_KEYWORD_NEGATOR = re.compile(
    r"\b" + alternation(_Q.keyword_negators, space=" ") + r"\b[^,;.?!]{0,30}$", re.I
)
# … and before a quoted keyword (matched as written: the text is lower-cased)
_QUOTE_NEGATOR = re.compile(r"\b" + alternation(_Q.quote_negators) + r"\b")


def part_of_proposition(c: Constraint) -> bool:
    """A quoted phrase inside a proposition (``find_constraints``): a keyword that
    re-weights and is no exclusion, the only such constraint the finder makes. It stays in
    the text the retrieval reads ("Introduce a “fat tax”")."""
    return c.dimension == "keyword" and not c.hard and not c.negated


def _inside(span: tuple[int, int] | None, at: int) -> bool:
    return span is not None and span[0] <= at < span[1]


def _keywords(q: str, add: Any, wh_factual: bool, proposition: tuple[int, int] | None) -> None:
    """Keywords: must-not ("but not X", "except X", "without X"), must ("mentioning X", quotes)."""
    for m in re.finditer(
        r"\b(?P<cue>"
        + alternation(_Q.exclusion_verbs, space=" ")
        + r"\s+(?:any\s+|all\s+)?(?:\w+\s+)?(?:that|which)\s+"
        + alternation(_Q.mention_verbs)
        + r"(?:e?s)?|"
        + alternation(_Q.exclusion_cues, space=" ")
        + r"|(?:(?:that|which|it|they)\s+)?"
        + alternation(_Q.negated_modals, space=" ")
        + r" "
        + alternation(_Q.negated_mention_verbs, space=" ")
        + r")\s+",
        q,
        re.I,
    ):
        cue = m.group("cue").lower()
        start = proposition[0] if proposition else 0
        in_clause = _inside(proposition, m.start()) and not re.search(r"[,;]", q[start : m.start()])
        if cue in _Q.content_cues and (wh_factual or in_clause):
            # "the legal age … without parental consent", "Should pharmacies sell
            # antibiotics without a prescription?": content, not a filter
            continue
        span = _scope(q, m.end())
        if span[1] <= span[0]:
            continue
        obj = _span_text(q, span)
        if re.match(r"^(?:from|by|in)\b", obj, re.I) or re.search(_SOURCE_NOUNS + r"$", obj, re.I):
            continue  # a source constraint, handled above
        explicit = "mention" in cue or "word" in cue or "contain" in cue or "include" in cue
        full = (m.start(), span[1])
        for v in _split_values(obj):
            v = re.sub(r"^(?:the|a|an|any)\s+", "", v, flags=re.I)
            if v:
                add("keyword", v, full, negated=True, hard=explicit)
    for m in re.finditer(
        r"\b(?:that|which)?\s*"
        + alternation(_Q.keyword_cues, _Q.keyword_cue_patterns, space=" ")
        + r"\s+",
        q,
        re.I,
    ):
        if (
            re.search(
                r"\b(?:not|n't|don't|doesn't)\s*$", q[max(0, m.start() - 12) : m.start() + 1], re.I
            )
            # "without mentioning X", "exclude documents that mention X"
            or _KEYWORD_NEGATOR.search(q[max(0, m.start() - 40) : m.start() + 1])
        ):
            continue
        span = _scope(q, m.end())
        if span[1] > span[0]:
            for v in _split_values(_span_text(q, span)):
                add("keyword", v.strip("\"'“”"), (m.start(), span[1]), hard=True)
    for m in re.finditer(r"[\"“](?P<k>[^\"”]{1,60})[\"”]", q):
        before = q[max(0, m.start() - 28) : m.start()].lower()
        neg = bool(_QUOTE_NEGATOR.search(before))
        # inside a proposition quotation marks are the writer's ("a “fat tax”"), not a
        # search operator: the phrase re-weights and filters nothing
        quoted = not _inside(proposition, m.start()) or neg
        add("keyword", m.group("k"), (m.start(), m.end()), negated=neg, hard=quoted)


def not_implied(cons: Sequence[Constraint]) -> list[bool]:
    """Which constraints to keep: a length word that a number of words for the same
    direction already says ("long pieces, over 2000 words") is dropped."""
    numeric = {c.value[0] for c in cons if c.dimension == "length" and c.value[:1] in "<>"}
    return [
        not (
            c.dimension == "length"
            and c.value in ("short", "long")
            and ("<" if c.value == "short" else ">") in numeric
        )
        for c in cons
    ]


# "eli5", "explain it like I'm five"
_CHILD_AUDIENCE = re.compile(
    r"\b" + alternation(_Q.child_audience, _Q.child_audience_patterns) + r"\b", re.I
)
# "expert-level": the level -> the audience
_AUDIENCE_LEVELS = dict(_Q.audience_levels)


def _more_audiences(q: str, add: Any) -> None:
    """ "explain to a teenager", "pitched to business leaders", "in a way teenagers can
    follow", "like I'm 10", "I'm a complete beginner"."""
    aud = _alt(AUDIENCES)
    for m in re.finditer(
        r"\b" + alternation(_Q.audience_verbs, space=" ") + r"\s+(?:it\s+|this\s+|them\s+)?"
        r"(?:to|at|for)?\s*(?:an?\s+|the\s+|my\s+)?(?:\w+\s+){0,2}?(?P<a>" + aud + r")\b",
        q,
        re.I,
    ):
        add("audience", AUDIENCES[m.group("a").lower()], _trim(q, m.start(), m.end()), hard=False)
    for m in _CHILD_AUDIENCE.finditer(q):
        add("audience", "child", _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b(?:for\s+)?"
        + alternation(_Q.novice_people)
        + r"\s+with\s+"
        + alternation(_Q.novice_amounts)
        + r"\s+"
        + alternation(_Q.novice_lacks, space=" ")
        + r"\b(?:\s+in\s+[\w\-]+)?",
        q,
        re.I,
    ):
        add("audience", "beginner", _trim(q, m.start(), m.end()), hard=False)
    for audience, start, end in ages(q):  # "a 10-year-old", "like I'm 10"
        add("audience", audience, _trim(q, start, end), hard=False)
    for m in re.finditer(
        r"\b(?P<a>" + alternation(_AUDIENCE_LEVELS) + r")s?"
        r"[- ]level\b",  # "kid-friendly hikes" is a property of the item, not a reader
        q,
        re.I,
    ):
        level = _AUDIENCE_LEVELS[m.group("a").lower()]
        add("audience", level, _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b(?:i'?m|i am)\s+(?:a\s+)?(?:"
        + alternation(_Q.novice_intensifiers)
        + r"\s+)?"
        + alternation(_Q.novice_words, space=" ")
        + r"\b",
        q,
        re.I,
    ):
        add("audience", "beginner", _trim(q, m.start(), m.end()), hard=False)


# "nothing longer than 800 words": at most
_NOTHING_OVER = _Q.nothing_over


def _more_lengths(q: str, add: Any) -> None:
    """ "nothing longer than 800 words", "something short to read", "a quick read"."""
    for m in re.finditer(r"\b(?P<n>\d[\d,]*)\s*\+\s*words?\b", q, re.I):  # "2000+ words"
        add("length", f">{m.group('n').replace(',', '')}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?:nothing|none|no(?:thing)? "
        + alternation(_Q.length_doc_nouns)
        + r"s?)\s+(?P<cmp>"
        + alternation((*_NOTHING_OVER, *_Q.nothing_under))
        + r")\s+(?:than\s+)?(?P<n>\d[\d,]*)\s+words?\b",
        q,
        re.I,
    ):
        op = "<" if m.group("cmp").lower() in _NOTHING_OVER else ">"
        add("length", f"{op}{m.group('n').replace(',', '')}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?:an?\s+)?(?:quick\s+)?(?P<n>\d{1,2})[- ]?min(?:ute)?s?\s+read\b"
        r"|\b" + alternation(_Q.page_limits, space=" ") + r"\s+(?P<p>one|two|three|\d)\s+pages?\b"
        r"|\btl;?dr\b|\bkeep (?:it|them|the \w+) " + alternation(_Q.keep_brief) + r"\b",
        q,
        re.I,
    ):
        n = m.group("n")
        value = "short" if n is None or int(n) <= 10 else "long"
        add("length", value, _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(r"\b(?P<w>long|short)[- ]form\b", q, re.I):
        add("length", m.group("w").lower(), _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b"
        + alternation(_Q.read_subjects)
        + r"\s+(?P<w>"
        + alternation(_READ_LENGTH)
        + r")\s+(?:(?:to\s+)?read|reads?)\b",
        q,
        re.I,
    ):
        value = _READ_LENGTH[m.group("w").lower()]
        add("length", value, _trim(q, m.start(), m.end()), hard=False)


_DOC_WORDS = alternation(every(_Q.language_doc_nouns))


def _language_adjectives(q: str, add: Any) -> None:
    """ "no English sources", "German articles only", "fuentes en español"."""
    for m in re.finditer(
        r"\b(?P<neg>"
        + alternation(every(_Q.language_adjective_negations), space=" ")
        + r")?[\s-]*(?P<l>[^\W\d_]{4,})\s+"
        + _DOC_WORDS
        + r"\b",
        q,
        re.I,
    ):
        code = language_code(m.group("l"))
        word = m.group("l")
        if code is not None and (
            word[0].isupper()
            or word.lower() in ("español", "français", "deutsch")
            or m.group("neg")  # "non-english sources": a negated name is a language
        ):
            add("language", code, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))


def _more_formats(q: str, add: Any) -> None:
    """ "make it slides", "transcripts preferred", "step by step", "interviews with …"."""
    for m in re.finditer(r"\bstep[- ]by[- ]step\b", q, re.I):
        add("format", "tutorial", _trim(q, m.start(), m.end()), hard=False)
    fmt = _alt(FORMATS)
    for m in re.finditer(
        r"(?:^\s*(?:"
        + alternation(_Q.format_openers, space=" ")
        + r"\s+)?|\bmake it\s+(?:into\s+)?(?:an?\s+)?)"
        r"(?P<f>" + fmt + r")\b(?=\s+" + alternation(_Q.format_followers) + r"\b|"
        r"\s+i can\b|\s*$|\s*[,.;])"
        r"|\b(?P<g>" + fmt + r")\s+" + alternation(_Q.format_approvals, space=" ") + r"\b",
        q,
        re.I,
    ):
        f = (m.group("f") or m.group("g")).lower()
        add("format", FORMATS[f], _trim(q, m.start(), m.end()))


def _more_keywords(q: str, add: Any) -> None:
    """ "leave out anything about X", "nothing that talks about X", "skip anything
    mentioning X"."""
    for m in re.finditer(
        r"\b"
        + alternation(_Q.exclusion_leads, space=" ")
        + r"\s+"
        + alternation(_Q.exclusion_objects)
        + r"?\s*(?:that\s+)?(?:is\s+|are\s+)?"
        + alternation(_Q.about_words, space=" ")
        + r"\s+",
        q,
        re.I,
    ):
        span = _scope(q, m.end(), 50)
        for v in _split_values(_span_text(q, span)):
            v = re.sub(r"^(?:the|a|an)\s+", "", v, flags=re.I)
            if v:
                add("keyword", v, (m.start(), span[1]), negated=True, hard=True)
