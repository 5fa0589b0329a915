"""InfoSearch constraints (paper 002 §3): language, length, source, keyword, format, audience."""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.models import Constraint
from assistant.understand.text import _alt, _scope, _span_text, _split_values, _trim

_SOURCE_NOUNS = _alt(lx.SOURCE_NOUNS)
_LANG = _alt(lx.LANGUAGES)


_GOOD_FOR = re.compile(
    r"\b(?:good|bad|better|worse|best|worst|safe|unsafe|healthy|unhealthy|harmful|dangerous|"
    r"beneficial|helpful|important|necessary|appropriate|inappropriate|fine|fun|easy|hard|great|"
    r"useful|risky|right|wrong|enough)\s+$",
    re.I,
)


def _source_value(text: str) -> str:
    t = re.sub(r"^(?:the|a|an|any|some)\s+", "", text.strip(), flags=re.I)
    t = re.sub(r"\s+" + _SOURCE_NOUNS + r"$", "", t, flags=re.I).strip()
    return lx.SOURCE_ADJECTIVES.get(t.lower(), t) or text.strip()


def find_constraints(q: str, *, wh_factual: bool) -> tuple[list[Constraint], list[tuple[int, int]]]:
    """InfoSearch constraints (paper 002 §3) and the spans they came from."""
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

    # ---- source: "not from X sources", "from X sites", domains, "according to X"
    for m in re.finditer(
        r"\b(?P<neg>not\s+from|except\s+from|but not from|excluding|other than|apart from|"
        r"not\s+(?:published\s+)?(?:by|on|in))\s+",
        q,
        re.I,
    ):
        span = _scope(q, m.end())
        values = _split_values(_span_text(q, span))
        cue_from = "from" in m.group("neg").lower() or " by" in m.group("neg").lower()
        if not values or not (
            cue_from or any(re.search(_SOURCE_NOUNS + r"$|\.\w{2,4}$", v, re.I) for v in values)
        ):
            continue
        for v in values:
            add("source", _source_value(v), (m.start(), span[1]), negated=True)
    for m in re.finditer(
        r"\b(?:only\s+)?(?:from|by|in|on)\s+(?P<what>(?:[\w\-.&']+\s+){0,3}?"
        + _SOURCE_NOUNS
        + r")\b",
        q,
        re.I,
    ):
        if re.search(r"\bnot\s*$", q[: m.start()], re.I):
            continue
        for v in _split_values(m.group("what")):
            value = _source_value(v)
            if value and value.lower() not in ("the", "other", "any", "some"):
                only = m.group(0).lower().startswith("only")
                add("source", value, _trim(q, m.start(), m.end()), hard=only)
    for m in re.finditer(
        r"\b(?P<neg>not\s+from\s+|except\s+|excluding\s+)?(?:from\s+|on\s+|site:)?(?P<d>[\w\-]+\.(?:com|org|net|gov|edu|io|co\.uk|ac\.uk|news|info))\b",
        q,
        re.I,
    ):
        add(
            "source",
            m.group("d").lower(),
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
        )
    for m in re.finditer(
        r"\b(?:according to|published by|written by)\s+"
        r"(?P<who>[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,4})",
        q,
    ):
        add("source", m.group("who"), _trim(q, m.start(), m.end()), hard=False)

    # ---- language
    for m in re.finditer(
        r"\b(?P<neg>not\s+)?(?:(?:written|available|published)\s+)?in\s+(?P<l>" + _LANG + r")\b"
        r"|\b(?P<l2>" + _LANG + r")[- ]language\b",
        q,
        re.I,
    ):
        name = (m.group("l") or m.group("l2")).lower()
        add(
            "language",
            lx.LANGUAGES[name],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
        )

    # ---- length
    for m in re.finditer(
        r"\b(?P<cmp>under|less than|fewer than|at most|no more than|up to|below|over|more than|"
        r"at least|above)\s+(?P<n>\d[\d,]*)\s+words?\b",
        q,
        re.I,
    ):
        n = m.group("n").replace(",", "")
        op = (
            "<"
            if m.group("cmp").lower()
            in ("under", "less than", "fewer than", "at most", "no more than", "up to", "below")
            else ">"
        )
        add("length", f"{op}{n}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:too\s+|very\s+|overly\s+)?)?(?P<w>"
        + _alt(lx.SHORT_WORDS + lx.LONG_WORDS)
        + r")\s+"
        r"(?P<n>"
        + _alt(
            (*lx.DOC_NOUNS, "reads", "read", "summaries", "overview", "overviews", "explanation")
        )
        + r")\b",
        q,
        re.I,
    ):
        w = m.group("w").lower()
        value = "short" if w in lx.SHORT_WORDS else "long"
        add("length", value, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")), hard=False)

    # ---- format
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:as\s+|in\s+)?(?:an?\s+)?|no\s+|except\s+)?(?:as\s+|in\s+)?(?:an?\s+)?"
        r"(?P<f>" + _alt(lx.FORMATS) + r")(?:\s+(?:format|files?|documents?))?\b",
        q,
        re.I,
    ):
        f = m.group("f").lower()
        ambiguous = f in ("list", "lists", "table", "tables", "interview", "interviews")
        ambiguous = ambiguous or f in ("tutorial", "tutorials")
        # "list" is also a request verb: only with a format word or "as/in" near it
        near = q[max(0, m.start() - 12) : m.end() + 8]
        if ambiguous and not re.search(r"\b(?:as|in|format|formatted)\b", near, re.I):
            continue
        add("format", lx.FORMATS[f], _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))

    # ---- audience
    aud = _alt(lx.AUDIENCES)
    for m in re.finditer(
        r"\b(?P<neg>not\s+)?(?:for|aimed at|written for|suitable for|targeted at|"
        r"geared (?:toward|to)s?|"
        r"accessible to|understandable (?:by|to)|intended for|meant for)\s+(?:an?\s+|the\s+)?"
        r"(?P<a>" + aud + r")\b",
        q,
        re.I,
    ):
        if re.match(r"(?:not\s+)?for\b", m.group(0), re.I) and _GOOD_FOR.search(q[: m.start()]):
            continue  # "good for children", "harmful for teens": content, not a reader
        add(
            "audience",
            lx.AUDIENCES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:too\s+)?)?(?:in\s+)?(?P<a>"
        + _alt(lx.AUDIENCE_ADJECTIVES)
        + r")\b(?=\s+(?:"
        + _alt((*lx.DOC_NOUNS, "terms", "language", "explanation", "overview", "introduction"))
        + r")\b)",
        q,
        re.I,
    ):
        add(
            "audience",
            lx.AUDIENCE_ADJECTIVES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )

    # ---- keywords: must-not ("but not X", "except X", "without X"), must ("mentioning X", quotes)
    for m in re.finditer(
        r"\b(?P<cue>(?:exclude|excluding|omit|avoid|skip|ignore|drop)\s+(?:any\s+|all\s+)?"
        r"(?:\w+\s+)?(?:that|which)\s+(?:mention|contain|include|discuss)(?:e?s)?|"
        r"but not|except(?: for)?|excluding|other than|apart from|"
        r"(?:(?:that|which|it|they)\s+)?(?:do not|don't|does not|doesn't|must not|mustn't|"
        r"should not|shouldn't|may not|cannot|can't) "
        r"(?:mention|contain|include|discuss|talk about)|"
        r"not (?:mentioning|containing|including|about)|without(?: (?:mentioning|the words?|any))?|"
        r"with no|free of|minus)\s+",
        q,
        re.I,
    ):
        cue = m.group("cue").lower()
        if cue.startswith("without") and cue == "without" and wh_factual:
            continue  # "the legal age … without parental consent" is content, not a filter
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
        r"\b(?:that|which)?\s*(?:mention(?:s|ing)?|contain(?:s|ing)? the (?:word|term|phrase)|"
        r"with the (?:word|term|keyword|phrase)s?|including the (?:word|term)s?|"
        r"must (?:mention|include))\s+",
        q,
        re.I,
    ):
        if (
            re.search(
                r"\b(?:not|n't|don't|doesn't)\s*$", q[max(0, m.start() - 12) : m.start() + 1], re.I
            )
            or re.search(  # "without mentioning X", "exclude documents that mention X"
                r"\b(?:not|never|without|exclude|excluding|omit|avoid|skip|ignore|drop)\b"
                r"[^,;.?!]{0,30}$",
                q[max(0, m.start() - 40) : m.start() + 1],
                re.I,
            )
        ):
            continue
        span = _scope(q, m.end())
        if span[1] > span[0]:
            for v in _split_values(_span_text(q, span)):
                add("keyword", v.strip("\"'“”"), (m.start(), span[1]), hard=True)
    for m in re.finditer(r"[\"“](?P<k>[^\"”]{1,60})[\"”]", q):
        before = q[max(0, m.start() - 28) : m.start()].lower()
        neg = bool(re.search(r"\b(?:not|without|no|excluding|except)\b", before))
        add("keyword", m.group("k"), (m.start(), m.end()), negated=neg, hard=True)
    return cons, spans
