"""Perspectives: PIR roles and sides of viewpoint phrases (paper 000 §2), request shapes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.models import QueryPerspective, Side
from assistant.understand.text import _alt, _span_text, _trim, _words
from assistant.understand.values import AUDIENCES
from assistant.understand.vocab import VOCAB, alternation

# the question cues of this module (words/questions.yaml), each list read here once
_W = VOCAB.questions.perspectives

_PRO = re.compile(r"\b" + alternation(_W.pro_verbs, space=" ") + r"\b", re.I)
_CON = re.compile(r"\b" + alternation(_W.con_verbs, space=" ") + r"\b", re.I)
_NEI = re.compile(r"\b" + alternation(_W.nei_phrases, space=" ") + r"\b", re.I)
_VERDICT_SUBJECT = re.compile(
    r"\b"
    + alternation(_W.verdict_determiners, space=" ")
    + r"\s+"
    + alternation(_W.verdict_nouns)
    + r"\b",
    re.I,
)
_IDEOLOGY = {k: re.compile(r"\b" + _alt(v) + r"\b", re.I) for k, v in VOCAB.stance.ideology.items()}
_ANALOGY = re.compile(r"\b" + _alt(VOCAB.stance.analogy_cues) + r"\b", re.I)
_ENTITY = re.compile(r"\b" + _alt(VOCAB.stance.entity_cues) + r"\b", re.I)
_PLACE = _alt(VOCAB.places.places)
_LOCATION = re.compile(
    r"\b" + alternation(_W.location_verbs, space=" ") + r"\s+(?:the\s+)?" + _PLACE + r"\b"
)
_SUBTOPIC = re.compile(
    r"\b"
    + alternation(_W.subtopic_cues)
    + r"\s+to\s+(?!the "
    + alternation(_W.subtopic_not_objects)
    + r"\b)\S",
    re.I,
)
_NEUTRAL_STANCE = re.compile(
    r"\b"
    + alternation(_W.neutral_stance_cues)
    + r"\s+to\s+the\s+"
    + alternation(_W.neutral_stance_objects)
    + r"\b",
    re.I,
)
# imperative / request openers: what precedes the description of the wanted document
_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:can you\s+|could you\s+|would you\s+)?(?:please\s+)?"
    + _alt(VOCAB.requests.request_openers)
    + r"\b\s*",
    re.I,
)
_DOC_NOUN = re.compile(r"\b" + _alt(VOCAB.requests.doc_nouns) + r"\b", re.I)
# a pointer from the description to the content that follows ("… similar to the following news")
_POINTER_TAIL = re.compile(
    r"(?:\s*,)?\s+(?:and\s+)?(?:is\s+|are\s+)?(?:" + alternation(_W.pointer_adjectives) + r"\s+)?"
    r"(?:to\s+|with\s+)?the\s+following(?:\s+\w+)?\s*$",
    re.I,
)
_TOPIC_TAIL = re.compile(
    r"\s+"
    + alternation(_W.topic_tail_prepositions)
    + r"\s+(?:the\s+)?"
    + alternation(_W.topic_tail_nouns)
    + r"(?:\s+of)?\s*$",
    re.I,
)
_TOPIC_INTRO = re.compile(
    r"\s+" + alternation(_W.topic_intros, space=" ") + r"\s+",
    re.I,
)
_STANCE_PREP = re.compile(
    r"\s+(?:(?:that|which)\s+"
    + alternation(_W.stance_prep_verbs)
    + r"|"
    + alternation(_W.stance_preps, space=" ")
    + r")\b",
    re.I,
)
_VIEWPOINT = re.compile(
    r"\bfrom\s+(?:an?\s+|the\s+)?(?P<who>[\w' \-]{2,60}?)(?:'s)?\s+"
    + alternation(_W.viewpoint_nouns, space=" ")
    + r"\b|\bfrom the "
    + alternation(_W.viewpoint_of_nouns, space=" ")
    + r" of\s+(?P<who2>[\w' \-]{2,60}?)"
    r"(?=[,.;:?!]|$|\s+(?:on|about|regarding|and|but)\b)",
    re.I,
)
_FACET_PRO = re.compile(
    r"\b(?:what are\s+)?(?:the\s+)?" + _alt(VOCAB.stance.pro_facet_phrases) + r"\s+(?:of|to)\b",
    re.I,
)
_FACET_CON = re.compile(
    r"\b(?:what are\s+)?(?:the\s+)?" + _alt(VOCAB.stance.con_facet_phrases) + r"\s+(?:of|to)?\b",
    re.I,
)
_BOTH_FACETS = re.compile(r"\b" + alternation(_W.both_sides, space=" ") + r"\b", re.I)
_EVIDENCE_STANCE = re.compile(
    r"\b(?P<noun>"
    + alternation(_W.evidence_nouns, space=" ")
    + r")\s+(?P<cue>"
    + alternation(_W.evidence_cues, space=" ")
    + r")\b",
    re.I,
)


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
        both = _BOTH_FACETS.match(q, _trim(q, sp.start(), sp.end())[0]) if sp else None
        if both:  # "give me the arguments for and against <topic>": both sides, no perspective
            rs, re_ = _trim(q, both.end(), len(q))
            if re_ > rs:
                return _Found([], (rs, re_), True)
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


_AUDIENCE_AFTER = re.compile(r"\s+(?:the\s+|a\s+)?" + _alt(AUDIENCES) + r"\b", re.I)


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
    # "arguments for and against X" asks for both sides: its "arguments for" is no side
    both = [b.span() for b in _BOTH_FACETS.finditer(q)]
    for m in _EVIDENCE_STANCE.finditer(q):
        if any(m.start() < e and s < m.end() for s, e in both):
            continue
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
            r"\b(?:from|by|in)\s+(?:the\s+|a\s+|an\s+)?"
            + pat.pattern
            + r"(?:\s+"
            + alternation(_W.ideology_tails)
            + r")?\b",
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
