"""Question → :class:`~assistant.models.QueryPlan` (DESIGN §2 "understand").

Two paths (DESIGN §5):

* :func:`parse_rules` — deterministic: cue lexicons (:mod:`assistant.lexicon`),
  regular patterns and negation scope give a complete plan with no model:
  perspectives with PIR roles (paper 000 §2), aspects as non-overlapping
  sub-spans (paper 003 §3.1), two opposing claims (paper 004; PerSphere's
  "We support / undermine the claim that …" is the fallback), InfoSearch
  constraints (paper 002 §3) and the intent.
* the model (optional) answers only under grammars — a span grammar for the
  perspective phrase and the aspects, a JSON schema for the claims — and its
  answers are validated; :func:`understand` combines the two by the rule the
  evaluation chose (``sphere eval extract`` / ``sphere eval aspects``): the
  rules decide wherever a cue fired; the model's span is used only where the
  rules found no cue and the span carries a viewpoint word.

Text in the question is data: it is never executed as instructions, and the
model sees it only inside a prompt whose answer is constrained to spans of the
question or to a fixed JSON shape.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from assistant import lexicon as lx
from assistant.errors import CancelledError, InputError, SphereError
from assistant.models import Aspect, Constraint, Intent, QueryPerspective, QueryPlan, Side

MAX_QUESTION_CHARS = 2000
UseLLM = Literal["auto", "always", "never"] | bool

_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)


# --------------------------------------------------------------------------- input


def check_question(question: object) -> str:
    """The question stripped, or :class:`InputError` if it is empty, huge or binary."""
    if isinstance(question, bytes):
        try:
            question = question.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the question is binary data, not text") from None
    if not isinstance(question, str):
        raise InputError(f"the question must be text, not {type(question).__name__}")
    q = question.strip()
    if not q:
        raise InputError(
            "the question is empty", hint='type a question, e.g. sphere understand "Should …?"'
        )
    if len(q) > MAX_QUESTION_CHARS:
        raise InputError(
            f"the question is too long ({len(q)} characters; at most {MAX_QUESTION_CHARS})",
            hint="put long text in a document, index it, and ask a short question about it",
        )
    bad = sum(
        1 for ch in q if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\n\t\r"
    )
    if "\x00" in q or "\ufffd" in q or bad > 0:
        raise InputError("the question contains binary or control characters, not text")
    return q


# --------------------------------------------------------------------------- helpers


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of phrases, longest first, word-bounded."""
    ws = sorted({re.escape(w) for w in words}, key=len, reverse=True)
    return r"(?:" + "|".join(ws) + r")"


_PRO = re.compile(
    r"\b(?:supports?|supporting|in favou?r of|favou?ring|favou?rs|backs|backing|defends|"
    r"defending|agrees? with|endorses|endorsing|confirms|confirming|proves)\b",
    re.I,
)
_CON = re.compile(
    r"\b(?:opposes|oppose|opposing|against|undermines?|undermining|refutes?|refuting|"
    r"contradicts?|contradicting|rebuts?|rebutting|disputes?|disputing|challenges|challenging|"
    r"critici[sz]es|critici[sz]ing|critical of|disagrees? with|debunks?|debunking|disproves?)\b",
    re.I,
)
_NEI = re.compile(
    r"\b(?:no information|not enough info(?:rmation)?|neither supports? nor refutes?|"
    r"insufficient information)\b",
    re.I,
)
_VERDICT_SUBJECT = re.compile(
    r"\b(?:this|the following|the given|these)\s+(?:sentence|sentences|evidence|text|passage|"
    r"paragraph|statement|document|facts?)\b",
    re.I,
)
_IDEOLOGY = {k: re.compile(r"\b" + _alt(v) + r"\b", re.I) for k, v in lx.IDEOLOGY.items()}
_ANALOGY = re.compile(r"\b" + _alt(lx.ANALOGY_CUES) + r"\b", re.I)
_ENTITY = re.compile(r"\b" + _alt(lx.ENTITY_CUES) + r"\b", re.I)
_PLACE = _alt(lx.COUNTRIES)
_LOCATION = re.compile(
    r"\b(?:happened|happening|took place|taking place|based|located|set|reported|occurr(?:ed|ing)|"
    r"from|in|about)\s+(?:the\s+)?" + _PLACE + r"\b"
)
_SUBTOPIC = re.compile(
    r"\b(?:relates|related|relating|relevant|pertaining)\s+to\s+(?!the (?:argument|claim|"
    r"statement|question|following|story|news|sentence)\b)\S",
    re.I,
)
_NEUTRAL_STANCE = re.compile(
    r"\b(?:relates?|related|relevant)\s+to\s+the\s+(?:argument|claim|statement)\b", re.I
)
_REQUEST = re.compile(r"^\s*" + lx.REQUEST_OPENERS + r"\b\s*", re.I)
_DOC_NOUN = re.compile(r"\b" + _alt(lx.DOC_NOUNS) + r"\b", re.I)
# a pointer from the description to the content that follows ("… similar to the following news")
_POINTER_TAIL = re.compile(
    r"(?:\s*,)?\s+(?:and\s+)?(?:is\s+|are\s+)?(?:(?:similar|related|relevant|analogous|close)\s+)?"
    r"(?:to\s+|with\s+)?the\s+following(?:\s+\w+)?\s*$",
    re.I,
)
_TOPIC_TAIL = re.compile(
    r"\s+(?:on|about|regarding|concerning|for)\s+(?:the\s+)?(?:topic|subject|issue|question|theme)"
    r"(?:\s+of)?\s*$",
    re.I,
)
_TOPIC_INTRO = re.compile(
    r"\s+(?:on the (?:topic|subject|issue) of|on the (?:topic|subject|issue)|about|on|regarding|"
    r"concerning|related to|relating to|discussing|covering)\s+",
    re.I,
)
_STANCE_PREP = re.compile(
    r"\s+(?:(?:that|which)\s+(?:supports?|opposes?|refutes?|undermines?|contradicts?|"
    r"challenges?|criticizes?|criticises?|defends?|favou?rs?|backs?)|against|for|in favou?r of|"
    r"supporting|opposing|refuting|undermining|contradicting|challenging|defending|favou?ring|"
    r"critical of|backing)\b",
    re.I,
)
_VIEWPOINT = re.compile(
    r"\bfrom\s+(?:an?\s+|the\s+)?(?P<who>[\w' \-]{2,60}?)(?:'s)?\s+"
    r"(?:perspective|point of view|viewpoint|standpoint|point-of-view|view|lens|angle)\b"
    r"|\bfrom the (?:perspective|point of view|viewpoint|standpoint) of\s+(?P<who2>[\w' \-]{2,60}?)"
    r"(?=[,.;:?!]|$|\s+(?:on|about|regarding|and|but)\b)",
    re.I,
)
_FACET_PRO = re.compile(
    r"\b(?:what are\s+)?(?:the\s+)?" + _alt(lx.PRO_FACETS) + r"\s+(?:of|to)\b", re.I
)
_FACET_CON = re.compile(
    r"\b(?:what are\s+)?(?:the\s+)?" + _alt(lx.CON_FACETS) + r"\s+(?:of|to)?\b", re.I
)
_BOTH_FACETS = re.compile(
    r"\b(?:pros and cons|advantages and disadvantages|benefits and (?:risks|drawbacks|harms)|"
    r"arguments for and against|for and against|both sides)\b",
    re.I,
)
_EVIDENCE_STANCE = re.compile(
    r"\b(?P<noun>evidence|arguments?|reasons?|studies|research|the case|a case|sources?|claims?|"
    r"data|points?|facts?|articles?|opinions?)\s+(?P<cue>against|for|in favou?r of|supporting|"
    r"opposing|refuting|undermining|contradicting|challenging|critical of|that (?:supports?|"
    r"opposes?|refutes?|undermines?|contradicts?|challenges?|shows?|proves?|disproves?))\b",
    re.I,
)


def _span_text(q: str, span: tuple[int, int]) -> str:
    return q[span[0] : span[1]]


def _trim(q: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span to drop surrounding whitespace and punctuation."""
    while start < end and (q[start].isspace() or q[start] in ",;:.!?\"'()[]"):
        start += 1
    while end > start and (q[end - 1].isspace() or q[end - 1] in ",;:.!?\"'()[]"):
        end -= 1
    return start, end


def _words(text: str) -> list[str]:
    return [m.group(0).lower() for m in _WORD.finditer(text)]


# --------------------------------------------------------------------------- perspectives


def classify_perspective(text: str) -> tuple[str, Side | None]:
    """PIR role and side of a perspective phrase (paper 000 §2 task types)."""
    if _NEI.search(text):
        return "verdict", None
    if _VERDICT_SUBJECT.search(text):
        if _CON.search(text):
            return "verdict", "con"
        if _PRO.search(text):
            return "verdict", "pro"
    if _CON.search(text):
        return "stance", "con"
    if _PRO.search(text):
        return "stance", "pro"
    if _NEUTRAL_STANCE.search(text):
        return "stance", None
    for value in ("left", "right", "center"):
        if _IDEOLOGY[value].search(text):
            return "ideology", None
    if _ENTITY.search(text):
        return "entity", None
    if _ANALOGY.search(text):
        return "analogy", None
    if _LOCATION.search(text):
        return "location", None
    if _SUBTOPIC.search(text):
        return "subtopic", None
    return "other", None


def ideology_value(text: str) -> str | None:
    for value in ("left", "right", "center"):
        if _IDEOLOGY[value].search(text):
            return value
    return None


@dataclass
class _Found:
    perspectives: list[QueryPerspective]
    root: tuple[int, int]
    request: bool


def _clean_description(q: str, start: int, end: int) -> tuple[int, int]:
    desc = q[start:end]
    for pat in (_POINTER_TAIL, _TOPIC_TAIL, _POINTER_TAIL):
        m = pat.search(desc)
        if m and m.start() > 0:
            desc = desc[: m.start()]
    return _trim(q, start, start + len(desc))


def _find_request(q: str) -> _Found | None:
    """``<request> <description>[:] <content>`` — the PIR query shape and its plain variants."""
    m = _REQUEST.match(q)
    if not m:
        return None
    body_start = m.end()
    colon = q.find(":", body_start)
    # "Find <desc>: <content>" with a short description before the colon
    if colon > body_start and len(_words(q[body_start:colon])) <= 30:
        ds, de = _clean_description(q, body_start, colon)
        rs, re_ = _trim(q, colon + 1, len(q))
        if de > ds and re_ > rs:
            return _Found([_perspective(q, (ds, de))], (rs, re_), True)
    # "find <doc noun> <stance prep> <topic>" — the stance word's object is the topic
    noun = _DOC_NOUN.search(q, body_start)
    if noun and len(_words(q[body_start : noun.start()])) <= 4:
        sp = _STANCE_PREP.match(q, noun.end()) or _STANCE_PREP.match(q, _skip_det(q, noun.end()))
        if sp and sp.group(0).strip().lower() == "for" and _AUDIENCE_AFTER.match(q, sp.end()):
            sp = None  # "articles for beginners" names an audience, not a side
        if sp:
            ps, pe = _trim(q, body_start, sp.end())
            rs, re_ = _trim(q, sp.end(), len(q))
            if re_ > rs:
                return _Found([_perspective(q, (ps, pe))], (rs, re_), True)
        intro = _TOPIC_INTRO.search(q, noun.end())
        if intro:
            ps, pe = _clean_description(q, body_start, intro.start())
            rs, re_ = _trim(q, intro.end(), len(q))
            desc = q[ps:pe]
            role, _ = classify_perspective(desc)
            if re_ > rs and (role != "other" or pe > noun.end() + 1):
                return _Found([_perspective(q, (ps, pe))], (rs, re_), True)
        # a description with no topic introducer: the whole object is the perspective
        ps, pe = _trim(q, body_start, len(q))
        role, _ = classify_perspective(q[ps:pe])
        if role != "other":
            return _Found([_perspective(q, (ps, pe))], (0, len(q)), True)
    return None


_AUDIENCE_AFTER = re.compile(r"\s+(?:the\s+|a\s+)?" + _alt(lx.AUDIENCES) + r"\b", re.I)


def _skip_det(q: str, pos: int) -> int:
    m = re.match(r"\s+(?:that|which)\b", q[pos:])
    return pos + m.end() if m else pos


def _perspective(q: str, span: tuple[int, int]) -> QueryPerspective:
    text = _span_text(q, span)
    role, side = classify_perspective(text)
    return QueryPerspective(text=text, role=role, side=side, span=span)


def _find_inline(q: str) -> list[QueryPerspective]:
    """Viewpoint phrases inside an ordinary question."""
    out: list[QueryPerspective] = []
    for m in _EVIDENCE_STANCE.finditer(q):
        span = _trim(q, m.start(), m.end())
        cue = m.group("cue").lower()
        side: Side = "con" if _CON.search(cue) else "pro"
        out.append(QueryPerspective(text=_span_text(q, span), role="stance", side=side, span=span))
    for m in _VIEWPOINT.finditer(q):
        span = _trim(q, m.start(), m.end())
        text = _span_text(q, span)
        role = (
            "ideology"
            if ideology_value(text)
            else "location"
            if re.search(_PLACE, text)
            else "other"
        )
        out.append(QueryPerspective(text=text, role=role, span=span))
    if not _BOTH_FACETS.search(q):
        for pat, side_ in ((_FACET_PRO, "pro"), (_FACET_CON, "con")):
            for m in pat.finditer(q):
                span = _trim(q, m.start(), m.end())
                out.append(
                    QueryPerspective(text=_span_text(q, span), role="stance", side=side_, span=span)  # type: ignore[arg-type]
                )
    for value, pat in _IDEOLOGY.items():
        for m in re.finditer(
            r"\b(?:from|by|in)\s+(?:the\s+|a\s+|an\s+)?" + pat.pattern + r"(?:\s+(?:media|outlets?|"
            r"sources?|press|news|perspective|side|wing))?\b",
            q,
            re.I,
        ):
            span = _trim(q, m.start(), m.end())
            out.append(QueryPerspective(text=_span_text(q, span), role="ideology", span=span))
            del value
            break
    return _drop_overlaps(out)


def _drop_overlaps(ps: list[QueryPerspective]) -> list[QueryPerspective]:
    kept: list[QueryPerspective] = []
    for p in sorted(ps, key=lambda p: -(p.span[1] - p.span[0]) if p.span else 0):
        if p.span and any(k.span and p.span[0] < k.span[1] and k.span[0] < p.span[1] for k in kept):
            continue
        kept.append(p)
    return sorted(kept, key=lambda p: p.span[0] if p.span else 0)


# --------------------------------------------------------------------------- constraints

_NEG_SCOPE_END = re.compile(
    r"[,;.?!:]|\s(?:and|but|that|which|who|so|because|while|if|please)\s", re.I
)
_SOURCE_NOUNS = _alt(lx.SOURCE_NOUNS)
_LANG = _alt(lx.LANGUAGES)


_GOOD_FOR = re.compile(
    r"\b(?:good|bad|better|worse|best|worst|safe|unsafe|healthy|unhealthy|harmful|dangerous|"
    r"beneficial|helpful|important|necessary|appropriate|inappropriate|fine|fun|easy|hard|great|"
    r"useful|risky|right|wrong|enough)\s+$",
    re.I,
)


def _scope(q: str, start: int, limit: int = 80) -> tuple[int, int]:
    """Negation / object scope: from ``start`` to the next clause boundary."""
    m = _NEG_SCOPE_END.search(q, start)
    end = m.start() if m else len(q)
    return _trim(q, start, min(end, start + limit))


def _split_values(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\bor\b|\band\b|\bnor\b|/)\s*", text)
    return [p.strip() for p in parts if p.strip()]


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


def _back_to(q: str, pos: int, words: tuple[str, ...]) -> int:
    m = re.search(r"\b(?:" + "|".join(words) + r")\s+$", q[:pos], re.I)
    return m.start() if m else pos


# --------------------------------------------------------------------------- claims

_AUX_Q = re.compile(
    r"^\s*(?P<aux>" + "|".join(lx.AUXILIARIES) + r")\b\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.I | re.S
)
_BASE_VERBS = ("be", "become", "have", "get", "remain", "stay", "go", "continue", "keep")
_ADJ_SUFFIX = re.compile(r"(?:ful|ous|ive|able|ible|ic|al|less|ant|ent|ary|ory|ed|ing|ish)$", re.I)


def _third_person(verb: str) -> str:
    v = verb.lower()
    if v == "have":
        return "has"
    if v in ("do", "go"):
        return verb + "es"
    if re.search(r"(?:s|sh|ch|x|z|o)$", v):
        return verb + "es"
    if re.search(r"[^aeiou]y$", v):
        return verb[:-1] + "ies"
    return verb + "s"


def _sentence(text: str) -> str:
    t = re.sub(r"\s+", " ", text).strip().rstrip("?.!:;, ")
    if not t:
        return ""
    return t[0].upper() + t[1:] + "."


def _plural(subject: str) -> bool:
    words = subject.split()
    if not words:
        return False
    if re.search(r"\band\b", subject, re.I):
        return True
    head = words[0]
    for i, w in enumerate(words):
        if w.lower() in ("of", "in", "for", "on", "with", "from", "to") and i > 0:
            head = words[i - 1]
            break
    else:
        head = words[-1]
    h = head.lower()
    return h.endswith("s") and not h.endswith(("ss", "us", "is", "ics")) and len(h) > 3


def _split_subject(words: list[str], aux: str) -> int | None:
    """Index where the predicate starts in ``<aux> <subject> <predicate>``."""
    aux = aux.lower()
    for i, w in enumerate(words[1:], start=1):
        lw = w.lower().strip(",")
        if aux in ("is", "are", "was", "were"):
            if lw in lx.PREDICATE_STARTERS or (_ADJ_SUFFIX.search(lw) and len(lw) > 4 and i >= 1):
                return i
        elif aux in ("do", "does", "did"):
            if lw in lx.COMMON_VERBS or lw in _BASE_VERBS:
                return i
        elif aux in ("has", "have", "had"):
            if re.search(r"(?:ed|en|wn|ne|ght)$", lw) or lw in (
                "been",
                "made",
                "done",
                "gone",
                "become",
            ):
                return i
        elif lw in _BASE_VERBS or lw in lx.COMMON_VERBS:
            return i
    return None


def _yes_no_claims(text: str) -> tuple[str, str] | None:
    m = _AUX_Q.match(text)
    if not m:
        return None
    aux = m.group("aux")
    rest = m.group("rest")
    words = rest.split()
    if len(words) < 2:
        return None
    la = aux.lower()
    # "<aux> S A or B O?": two alternatives, each a claim
    ors = [i for i, w in enumerate(words) if w.lower() == "or"]
    if ors and 1 <= ors[0] < len(words) - 1:
        k = ors[0]
        a, b = words[k - 1], words[k + 1]
        tail = " ".join(words[k + 2 :])
        pre = words[: k - 1]
        cut = _split_subject([*pre, a], la)
        if cut is None or cut > len(pre):
            cut = len(pre)
        subject = " ".join(pre[:cut])
        middle = " ".join(pre[cut:])
        if not subject:
            return None
        if la in ("do", "does", "did"):
            if la == "does":
                a, b = _third_person(a), _third_person(b)
            elif la == "did":
                return None
            return (
                _sentence(f"{subject} {middle} {a} {tail}"),
                _sentence(f"{subject} {middle} {b} {tail}"),
            )
        verb = la if la not in ("is", "are") else ("are" if _plural(subject) else "is")
        return (
            _sentence(f"{subject} {verb} {middle} {a} {tail}"),
            _sentence(f"{subject} {verb} {middle} {b} {tail}"),
        )
    cut = _split_subject(words, la)
    if cut is None:
        return None
    subject = " ".join(words[:cut])
    pred = " ".join(words[cut:])
    if la in ("does", "do"):
        v, *obj = pred.split(" ", 1)
        obj_s = obj[0] if obj else ""
        pos = f"{subject} {_third_person(v) if la == 'does' else v} {obj_s}"
        neg = f"{subject} {la} not {v} {obj_s}"
        return _sentence(pos), _sentence(neg)
    if la == "did":
        return None
    neg_aux = "cannot" if la == "can" else f"{la} not"
    return _sentence(f"{subject} {la} {pred}"), _sentence(f"{subject} {neg_aux} {pred}")


_STATEMENT_AUX = re.compile(
    r"\b(?P<aux>should|must|can|will|would|could|is|are|was|were|may|might|has|have|had|does|do)\b(?P<after>\s+\S+)?",
    re.I,
)


def negate_statement(statement: str) -> str | None:
    """The statement with its first auxiliary negated, or None if it has none."""
    m = _STATEMENT_AUX.search(statement)
    if not m or m.start() == 0:
        return None
    aux = m.group("aux")
    la = aux.lower()
    after = (m.group("after") or "").strip().lower()
    if after in ("not", "n't", "never"):
        return statement[: m.start()] + aux + statement[m.end("aux") :].replace(" not", "", 1)
    if la in ("has", "have", "had") and not re.search(r"(?:ed|en|wn|ne|been|ght)$", after):
        # main verb "have": "Animals have rights" -> "Animals do not have rights"
        do = "does" if la == "has" else "did" if la == "had" else "do"
        return statement[: m.start()] + f"{do} not have" + statement[m.end("aux") :]
    neg = "cannot" if la == "can" else f"{aux} not"
    return statement[: m.start()] + neg + statement[m.end("aux") :]


def persphere_claims(statement: str) -> tuple[str, str]:
    """PerSphere's fallback template (paper 004, App. H)."""
    s = re.sub(r"\s+", " ", statement).strip().rstrip("?.!")
    s = s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s
    return (f"We support the claim that {s}.", f"We undermine the claim that {s}.")


def make_claims(text: str, intent: Intent) -> tuple[str, str]:
    """Two opposing claims for the root text (pro first)."""
    t = re.sub(r"\s+", " ", text).strip()
    if not t or intent == "factual":
        return ("", "")
    # several sentences (context, or text aimed at the model): claim the last question
    sentences = [x for x in re.split(r"(?<!\bvs\.)(?<![A-Z]\.)(?<=[.!?])\s+", t) if x.strip()]
    if len(sentences) > 1:
        asked = [x for x in sentences if x.endswith("?")]
        t = asked[-1] if asked else sentences[-1]
    # "A vs. B – which/who is better?"
    m = re.match(
        r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)(?:\s*[:\-–—,]\s*(?:which|who)\s+(?:is|are)\s+(?P<p>[^?]+))?\??$",
        t,
        re.I,
    )
    if m:
        a, b = m.group("a").strip(), m.group("b").strip()
        pred = (m.group("p") or "better").strip()
        if len(a.split()) == 1 and len(b.split()) > 1:
            a = a + " " + " ".join(b.split()[1:])
        return (
            _sentence(f"{a} {'are' if _plural(a) else 'is'} {pred}"),
            _sentence(f"{b} {'are' if _plural(b) else 'is'} {pred}"),
        )
    # "Which is better, A or B?"
    m = re.match(
        r"^(?:which|who)\s+(?:is|are)\s+(?P<p>[^,?]+?),?\s+(?P<a>[^,?]+?)\s+or\s+(?P<b>[^?]+)\??$",
        t,
        re.I,
    )
    if m:
        p = m.group("p").strip()
        return (_sentence(f"{m.group('a')} is {p}"), _sentence(f"{m.group('b')} is {p}"))
    # "Topic: A or B?"
    m = re.match(r"^(?P<topic>[^:?]{2,80}):\s*(?P<a>[^?]+?)\s+or\s+(?P<b>[^?]+?)\??$", t)
    if m and not _AUX_Q.match(m.group("a")):
        topic = m.group("topic").strip()
        verb = "are" if _plural(topic) else "is"
        return (
            _sentence(f"{topic} {verb} {m.group('a')}"),
            _sentence(f"{topic} {verb} {m.group('b')}"),
        )
    # "…: <yes/no question>?" — the part after a title colon
    tail = (
        t.split(":", 1)[1].strip()
        if ":" in t and _AUX_Q.match(t.split(":", 1)[1].strip() or "")
        else t
    )
    yn = _yes_no_claims(tail)
    if yn:
        return yn
    if t.endswith("?"):
        return persphere_claims(t)
    neg = negate_statement(t)
    if neg:
        return (_sentence(t), _sentence(neg))
    if not _STATEMENT_AUX.search(t) and len(t.split()) <= 12:
        topic = re.sub(
            r"^(?:the perspective on|the debate (?:on|over|about)|debate:)\s+", "", t, flags=re.I
        )
        return (
            _sentence(f"Arguments in favour of {topic}"),
            _sentence(f"Arguments against {topic}"),
        )
    return persphere_claims(t)


# --------------------------------------------------------------------------- aspects

_VERB_SET = frozenset(lx.COMMON_VERBS)
_NEG_WORDS = set(w for w in lx.NEGATIONS if " " not in w) | {
    "isn't",
    "aren't",
    "don't",
    "doesn't",
    "not",
}


def find_aspects(q: str, region: tuple[int, int], exclude: list[tuple[int, int]]) -> list[Aspect]:
    """Non-overlapping sub-spans of ``q`` naming distinct facets (paper 003 §3.1).

    Content-word runs split at connectives; a negation opens a facet that runs
    to the next clause boundary ("not baked in the oven").
    """
    toks = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(q, region[0], region[1])]
    toks = [t for t in toks if not any(s[0] <= t[1] < s[1] for s in exclude)]
    out: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    neg_open = False
    prev_end = region[0]
    for word, s, e in toks:
        lw = word.lower().replace("’", "'")
        gap = q[prev_end:s]
        boundary = bool(re.search(r"[,;:.?!()]", gap)) or any(
            x[0] < s and x[1] > prev_end for x in exclude
        )
        if boundary and cur:
            out.append(cur)
            cur, neg_open = None, False
        if lw in _NEG_WORDS:
            if cur:
                out.append(cur)
            cur, neg_open = (s, e), True
        elif neg_open:
            if lw in ("and", "but", "or", "so", "because", "if", "when", "while", "that"):
                out.append(cur)  # type: ignore[arg-type]
                cur, neg_open = None, False
            else:
                cur = (cur[0], e)  # type: ignore[index]
        elif lw in lx.ASPECT_BREAKS or lw in lx.ASPECT_STOPWORDS:
            if cur:
                out.append(cur)
                cur = None
        else:
            cur = (cur[0], e) if cur else (s, e)
        prev_end = e
    if cur:
        out.append(cur)
    aspects = []
    for s, e in out:
        s, e = _trim(q, s, e)
        if e > s and _words(q[s:e]) and not all(w in lx.ASPECT_STOPWORDS for w in _words(q[s:e])):
            aspects.append(Aspect(text=q[s:e], span=(s, e)))
    return aspects


# --------------------------------------------------------------------------- intent


def _is_wh(text: str) -> bool:
    first = _words(text[:40])[:1]
    return bool(first) and first[0] in lx.WH_WORDS


def _debatable(text: str) -> bool:
    words = set(_words(text))
    return bool(words & set(lx.DEBATE_CUES)) or bool(re.search(r"\bvs\.?\b|\bversus\b", text, re.I))


def decide_intent(
    q: str, root: str, perspectives: list[QueryPerspective], request: bool
) -> tuple[Intent, Side | None]:
    if _BOTH_FACETS.search(q):
        return "two_sided", None
    sides = {p.side for p in perspectives if p.side}
    if len(sides) == 1 and any(p.role in ("stance", "verdict") for p in perspectives):
        return "one_sided", sides.pop()
    if any(p.role == "verdict" for p in perspectives):
        return "factual", None
    if request and perspectives and all(p.role not in ("stance",) for p in perspectives):
        return "factual", None
    if _is_wh(root) and not _debatable(root):
        return "factual", None
    if _is_wh(q) and not _debatable(q) and not request:
        return "factual", None
    return "two_sided", None


# --------------------------------------------------------------------------- the rules


def parse_rules(question: object) -> QueryPlan:
    """The deterministic plan (no model)."""
    q = check_question(question)
    found = _find_request(q)
    request = found is not None
    perspectives = list(found.perspectives) if found else []
    root = found.root if found else (0, len(q))
    if not found:
        perspectives = _find_inline(q)
    wh_factual = _is_wh(q) and not _debatable(q) and not request
    constraints, con_spans = find_constraints(q, wh_factual=wh_factual)
    # constraint phrases are not viewpoints
    perspectives = [p for p in perspectives if not _only_constraints(q, p, con_spans)]
    root_text = _root_text(q, root, perspectives, con_spans, request)
    intent, target = decide_intent(q, root_text, perspectives, request)
    if intent == "factual" and not perspectives:
        # PIR's AmbigQA reading: the (disambiguated) question is its own perspective
        perspectives = [QueryPerspective(text=q, role="interpretation", span=(0, len(q)))]
        root_text = q
    exclude = [p.span for p in perspectives if p.span and p.role != "interpretation"]
    # constraint phrases are filters, not facets; a negated keyword ("but not stew") is both
    exclude += [
        s
        for s, c in zip(con_spans, constraints, strict=False)
        if not (c.dimension == "keyword" and c.negated)
    ]
    aspects = find_aspects(q, root, exclude)
    if con_spans:
        aspects = _without_instruction_words(aspects)
    claims = make_claims(root_text, intent)
    return QueryPlan(
        question=q,
        root_query=root_text,
        perspectives=perspectives,
        aspects=aspects,
        claims=claims,
        constraints=constraints,
        intent=intent,
        target_side=target,
        source="rules",
    )


def _only_constraints(q: str, p: QueryPerspective, con_spans: list[tuple[int, int]]) -> bool:
    """True if the perspective says nothing beyond its constraint phrases and a document noun
    ("short articles for beginners")."""
    if not p.span:
        return False
    if any(s[0] <= p.span[0] and p.span[1] <= s[1] for s in con_spans):
        return True
    if p.role != "other":
        return False
    rest = [
        m.group(0).lower()
        for m in _WORD.finditer(q, p.span[0], p.span[1])
        if not any(s[0] <= m.start() < s[1] for s in con_spans)
    ]
    return all(w in lx.ASPECT_STOPWORDS or w in lx.DOC_NOUNS for w in rest)


def _root_text(
    q: str,
    root: tuple[int, int],
    perspectives: list[QueryPerspective],
    con_spans: list[tuple[int, int]],
    request: bool,
) -> str:
    """The question minus perspective and (non-keyword) constraint phrases."""
    cut = [p.span for p in perspectives if p.span] + list(con_spans)
    pieces = []
    pos = root[0]
    for s, e in sorted(c for c in cut if c[1] > root[0] and c[0] < root[1]):
        if s > pos:
            pieces.append(q[pos:s])
        pos = max(pos, e)
    if pos < root[1]:
        pieces.append(q[pos : root[1]])
    text = " ".join(p.strip() for p in pieces if p.strip())
    text = re.sub(r"\s+([,.;:?!])", r"\1", text)
    text = re.sub(r"^(?:[,;:]\s*|(?:and|but|or|of|on|about|that|which)\s+)+", "", text, flags=re.I)
    text = re.sub(
        r"(?:\s+(?:and|but|or|from|by|in|on|with|of)|[,;:])+\s*([?.!]?)$", r"\1", text, flags=re.I
    )
    text = re.sub(r"\s{2,}", " ", text).strip()
    text = _drop_instruction_leftovers(text) if con_spans else text
    for a, b in (('"', '"'), ("“", "”")):
        if (text.count(a) + (text.count(b) if a != b else 0)) % 2:  # a quote cut in half
            text = text.replace(a, "").replace(b, "").strip()
    if request and not found_content(text):
        text = q[root[0] : root[1]].strip()
    return text or q


# what is left of an instruction sentence once its constraint phrase is cut out
# ("Only documents of fewer than 90 words." -> "Only documents.")
_INSTRUCTION_FILLER_WORDS = (
    "only just please find show give get list return retrieve search me us i we want "
    "need would like it they must should has have contain contains containing with "
    "without that which who the a an of in from by on for and or word words term terms "
    "document documents article articles text texts page pages piece pieces source "
    "sources result results paper papers post posts item items answer answers"
)
_INSTRUCTION_FILLER = frozenset(_INSTRUCTION_FILLER_WORDS.split())


# words that open an instruction sentence
_INSTRUCTION_OPENERS_WORDS = (
    "only just please find show give get list return retrieve search it they documents "
    "articles texts pages sources results"
)
_INSTRUCTION_OPENERS = frozenset(_INSTRUCTION_OPENERS_WORDS.split())


def _instruction_tail(tokens: list[str]) -> int:
    """Where a trailing instruction starts: the first token after the first that is a
    capitalised opener ("Only", "Find") followed by filler only; ``len(tokens)`` if none."""
    words = [t.strip(",;:.").lower() for t in tokens]
    j = len(words)
    while j > 1 and words[j - 1] in _INSTRUCTION_FILLER:
        j -= 1
    for i in range(max(j, 1), len(tokens)):
        if tokens[i][:1].isupper() and words[i] in _INSTRUCTION_OPENERS:
            return i
    return len(tokens)


def _without_instruction_words(aspects: list[Aspect]) -> list[Aspect]:
    """Aspects minus a trailing instruction opener ("Apple Only documents" -> "Apple");
    an aspect made of instruction words only ("only") is dropped."""
    out: list[Aspect] = []
    for a in aspects:
        tokens = a.text.split()
        cut = _instruction_tail(tokens)
        text = " ".join(tokens[:cut])
        if not any(w not in _INSTRUCTION_FILLER for w in _words(text)):
            continue
        span = a.span
        if span and cut < len(tokens):
            span = (span[0], span[0] + len(text))
        out.append(replace(a, text=text, span=span))
    return out


def _drop_instruction_leftovers(text: str) -> str:
    """Drop sentences made only of instruction filler; fix "?." left by a cut."""
    parts = re.split(r"(?<=[.?!])\s+", text)
    kept = [p for p in parts if any(w not in _INSTRUCTION_FILLER for w in _words(p.lower()))]
    out = " ".join(kept) if kept else text
    # an instruction run on after a title without a full stop
    # ("Studying Abroad Only documents."): cut the filler tail from its capitalised opener
    tokens = out.rstrip(". ").split()
    cut = _instruction_tail(tokens)
    if cut < len(tokens):
        out = " ".join(tokens[:cut])
    return re.sub(r"([?!])[.]+$", r"\1", out.strip())


def found_content(text: str) -> bool:
    return any(w not in lx.ASPECT_STOPWORDS for w in _words(text))


# --------------------------------------------------------------------------- the model


_MODEL_LOCK = threading.Lock()


def llm_perspective(question: str, backend: Any, *, max_words: int = 24) -> QueryPerspective | None:
    """The model's perspective phrase, constrained to a span of the question (paper 000 A.8)."""
    from assistant.llm.grammar import NONE_ANSWER, locate_span, span_grammar
    from assistant.llm.prompts import load_prompts

    prompt = load_prompts().get("perspective_extraction")
    grammar = span_grammar(question, max_words=max_words)
    with _MODEL_LOCK:
        text = backend.grammar_chat(
            prompt.messages(query=question), grammar, max_tokens=prompt.max_tokens * 2
        )
    text = text.strip()
    if not text or text == NONE_ANSWER:
        return None
    span = locate_span(question, text)
    if span is None:
        return None
    role, side = classify_perspective(text)
    return QueryPerspective(text=question[span[0] : span[1]], role=role, side=side, span=span)


def llm_aspects(question: str, backend: Any, *, max_words: int = 8) -> list[Aspect]:
    """The model's aspects, each a span of the question; overlapping ones are dropped."""
    from assistant.llm.grammar import locate_span, span_grammar
    from assistant.llm.prompts import load_prompts

    prompt = load_prompts().get("aspect_extraction")
    span_g = span_grammar(question, max_words=max_words, allow_none=False)
    body = span_g.gbnf.replace("root ::= n0\n", "")
    from assistant.llm.base import GrammarSpec

    grammar = GrammarSpec(
        gbnf='root ::= n0 (" | " n0)? (" | " n0)? (" | " n0)? (" | " n0)?\n' + body
    )
    with _MODEL_LOCK:
        text = backend.grammar_chat(
            prompt.messages(query=question), grammar, max_tokens=prompt.max_tokens
        )
    out: list[Aspect] = []
    pos = 0
    for part in text.split(" | "):
        span = locate_span(question, part, near=pos)
        if span is None or any(a.span and span[0] < a.span[1] and a.span[0] < span[1] for a in out):
            continue
        out.append(Aspect(text=question[span[0] : span[1]], span=span))
        pos = span[1]
    return sorted(out, key=lambda a: a.span[0] if a.span else 0)


def llm_claims(question: str, backend: Any) -> tuple[str, str] | None:
    from assistant.llm.prompts import load_prompts

    prompt = load_prompts().get("claims")
    schema = prompt.schema_for()
    with _MODEL_LOCK:
        data = backend.json(
            prompt.messages(question=question), schema, max_tokens=prompt.max_tokens
        )
    pro, con = str(data["pro"]).strip(), str(data["con"]).strip()
    if not pro or not con or pro.lower() == con.lower():
        return None
    return pro, con


_VIEWPOINT_WORD = re.compile(
    _PRO.pattern + "|" + _CON.pattern + r"|\b(?:perspective|viewpoint|point of view|wing|biased|"
    r"neutral|liberal|conservative|analogy|similar)\b",
    re.I,
)


def combine(rules: QueryPlan, model_perspective: QueryPerspective | None) -> QueryPlan:
    """The 'sphere' rule: keep the rules' perspectives where a cue fired; otherwise take
    the model's span only if it carries a viewpoint word (chosen by ``sphere eval extract``)."""
    cue_fired = any(p.role != "interpretation" for p in rules.perspectives)
    if cue_fired or model_perspective is None:
        return rules
    if not _VIEWPOINT_WORD.search(model_perspective.text):
        return rules
    plan = QueryPlan.from_dict(rules.to_dict())
    plan.perspectives = [model_perspective]
    span = model_perspective.span or (0, 0)
    plan.root_query = _root_text(
        plan.question, (0, len(plan.question)), [model_perspective], [], False
    )
    plan.intent, plan.target_side = decide_intent(
        plan.question, plan.root_query, plan.perspectives, False
    )
    plan.claims = (
        make_claims(plan.root_query, plan.intent) if plan.intent != "factual" else ("", "")
    )
    plan.aspects = find_aspects(plan.question, (0, len(plan.question)), [span])
    plan.source = "rules+llm"
    return plan


def _want_model(use_llm: UseLLM) -> str:
    if use_llm is True:
        return "always"
    if use_llm is False:
        return "never"
    if use_llm not in ("auto", "always", "never"):
        raise InputError(f"use_llm must be auto, always or never, not {use_llm!r}")
    return str(use_llm)


def understand(
    question: object,
    *,
    backend: Any = None,
    embedder: Any = None,
    use_llm: UseLLM = "auto",
) -> QueryPlan:
    """Question → QueryPlan.

    ``use_llm``: ``"never"`` — rules only; ``"auto"`` — the model refines only
    where the evaluation showed it helps, which for the bundled 135M model is
    nowhere (``sphere eval extract``: rules 75.6 QA-F1, model 24.3;
    ``sphere eval aspects``: rules 84.5 IoU, model 35.7), so ``auto`` is the
    rules; ``"always"`` — the model proposes a perspective span when no cue
    fired, claims for two-sided questions, and aspects when the rules found
    fewer than two (for a stronger configured model). Any model failure falls
    back to the rules' answer.
    ``embedder`` is accepted for callers that pass one; the rules do not need it.
    """
    del embedder
    plan = parse_rules(question)
    mode = _want_model(use_llm)
    if backend is None or mode != "always":
        return plan
    try:
        cue_fired = any(p.role != "interpretation" for p in plan.perspectives)
        if not cue_fired and plan.intent != "factual":
            plan = combine(plan, llm_perspective(plan.question, backend))
        if plan.intent == "two_sided":
            claims = llm_claims(plan.root_query, backend)
            if claims:
                plan.claims = claims
                plan.source = "rules+llm"
        if len(plan.aspects) < 2:
            excl = [p.span for p in plan.perspectives if p.span and p.role != "interpretation"]
            aspects = [
                a
                for a in llm_aspects(plan.question, backend)
                if a.span and not any(a.span[0] < s[1] and s[0] < a.span[1] for s in excl)
            ]
            if len(aspects) >= 2:
                plan.aspects = aspects
                plan.source = "rules+llm"
    except CancelledError:
        raise
    except SphereError:
        # unavailable server, bad output, context overflow: the rules' plan stands
        return plan
    return plan


def extract_aspects(query: str) -> list[str]:
    """Aspect texts of ``query`` by the rules (the hook ``assistant.eval.mpr`` looks for)."""
    try:
        return [a.text for a in parse_rules(query).aspects]
    except InputError:
        return []
