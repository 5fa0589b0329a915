"""Aspects: non-overlapping sub-spans naming distinct facets (paper 003 §3.1)."""

from __future__ import annotations

import re

from assistant.models import Aspect
from assistant.understand.cues import LOOKUP_OPENERS
from assistant.understand.text import _WORD, _trim, _words
from assistant.understand.vocab import VOCAB

_VERB_SET = frozenset(VOCAB.grammar.common_verbs)
_NEG_WORDS = set(w for w in VOCAB.grammar.negations if " " not in w) | set(
    VOCAB.grammar.negated_auxiliaries
)


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
        elif lw in VOCAB.grammar.aspect_breaks or lw in VOCAB.grammar.aspect_stopwords:
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
        if (
            e > s
            and _words(q[s:e])
            and not all(w in VOCAB.grammar.aspect_stopwords for w in _words(q[s:e]))
        ):
            aspects.append(Aspect(text=q[s:e], span=(s, e)))
    return aspects


# --------------------------------------------------------------------------- lookups

# a wanted property starts at one of these words (the marker stays in the aspect)
_PROPERTY_START = re.compile(
    r"\b(?:with|without|no|not too|not|under|over|below|above|less than|more than|at least|"
    r"at most|within|for|near|close to|walking distance|ready in|"
    r"praising|criticising|criticizing|complaining about|containing|made with|using|"
    r"topped with|served with|"
    r"that|which|who|con|sin|avec|sans|mit|ohne|senza|com|sem|met|zonder)\b",
    re.I,
)
# words that introduce the item's topic, not a property ("papers on X", "accounts of X")
_TOPIC_PREP = re.compile(r"^(?:on|of|about|about the|regarding|de|sur|über|su|sobre|over)$", re.I)
# participles whose objects are the wanted facets ("reviews focusing on A and B")
_FACET_VERBS = re.compile(
    r"\b(?:focusing on|focussing on|covering|that cover|which cover|including|describing|"
    r"comparing|especially regarding|regarding|particularly for|particularly|especially|"
    r"in terms of|with regard to|effects on|impact on|such as)\s+",
    re.I,
)
_ADJ_LIKE = re.compile(
    r"(?:ful|ous|ive|able|ible|ic|al|less|free|friendly|proof|ish|est|er|-\w+|\d\w*)$", re.I
)
_COMMON_ADJ = frozenset(VOCAB.grammar.common_adjectives)
_LOCATION = re.compile(r"^(?:in|at|near|around|à|en|in der|im|a|em|no|na|bij)\s+(?:the\s+)?[A-Z]")


def _content(text: str) -> list[str]:
    return [
        w
        for w in _words(text)
        if w not in VOCAB.grammar.aspect_stopwords and not _PROPERTY_START.fullmatch(w)
    ]


def _split_list(q: str, s: int, e: int) -> list[tuple[int, int]]:
    """A span split at commas and "and"/"or" into items."""
    out = []
    pos = s
    for m in re.finditer(
        r"\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s+e\s+|\s+et\s+|\s+und\s+)", q[s:e]
    ):
        out.append((pos, s + m.start()))
        pos = s + m.end()
    out.append((pos, e))
    return [_trim(q, a, b) for a, b in out if b > a]


def lookup_aspects(q: str, region: tuple[int, int], exclude: list[tuple[int, int]]) -> list[Aspect]:
    """The wanted properties of a lookup (paper 003 §3.1's aspects, for a request for items).

    The request is read as ``[opener] [modifiers] head [topic] (property)*``: the
    modifiers before the head noun ("quiet", "dog-friendly") are aspects; the
    head noun and a place ("in Lisbon") are not; each property marker ("with",
    "under", "that", "for", "without") opens one aspect that runs to the next,
    and a list inside it ("a kids club and a sandy beach") gives one aspect per
    item. A participle such as "focusing on" or "covering" names facets: its
    objects are the aspects.
    """
    start, end = region
    opener = LOOKUP_OPENERS.match(q, start)
    if opener and opener.end() > start:
        start = opener.end()
    spans: list[tuple[int, int]] = []
    markers = [m for m in _PROPERTY_START.finditer(q, start, end) if m.start() > start]
    head_end = markers[0].start() if markers else end
    # the head phrase: modifiers before the last word (the head noun)
    head = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(q, start, head_end)]
    topic_at = next((i for i, w in enumerate(head) if _TOPIC_PREP.match(w[0])), None)
    if topic_at is not None:
        head = head[:topic_at]
    # "winter coat, waterproof, warm to -20": after the item, a comma list of properties
    comma = q.find(",", start, head_end)
    if comma > 0 and head and head[-1][1] > comma:
        spans.extend(_split_list(q, comma + 1, head_end))
        head = [w for w in head if w[2] <= comma]
    for i, (w, s, e) in enumerate(head[:-1]):
        lw = w.lower()
        if lw in _COMMON_ADJ or (_ADJ_LIKE.search(lw) and i < len(head) - 2) or "-" in lw:
            spans.append((s, e))
    for s, e in _property_segments(q, markers, end):
        spans.extend(_property_spans(q, s, e))
    out = []
    for s, e in spans:
        s, e = _trim(q, s, e)
        tail = re.search(r"\s+(?:and|or|but|e|et|und|y)$", q[s:e], re.I)
        if tail:
            e = s + tail.start()
        if e <= s or any(x[0] <= s < x[1] for x in exclude):
            continue
        if all(w in VOCAB.grammar.aspect_stopwords for w in _words(q[s:e])):
            continue
        out.append(Aspect(text=q[s:e], span=(s, e)))
    return sorted(out, key=lambda a: a.span[0] if a.span else 0)


def _property_segments(q: str, markers: list[re.Match[str]], end: int) -> list[tuple[int, int]]:
    """The spans from each property marker to the next; a property cut short at a
    function word ("ready in | under 30 minutes", "with a range of | at least 60 km") or
    a bare relative verb ("that take | less than an hour") runs on into the next one."""
    bounds = [m.start() for m in markers] + [end]
    segments: list[tuple[int, int]] = []
    for i in range(len(markers)):
        s, e = _trim(q, bounds[i], bounds[i + 1])
        prev = q[segments[-1][0] : segments[-1][1]] if segments else ""
        dangling = bool(
            re.search(r"\b(?:of|in|to|with|a|an|the|than|by)$", prev, re.I)
            or re.fullmatch(r"(?:that|which|who)\s+\w+", prev, re.I)
        )
        if segments and dangling and segments[-1][1] >= s - 1:
            segments[-1] = (segments[-1][0], e)
        else:
            segments.append((s, e))
    return segments


def _property_spans(q: str, s: int, e: int) -> list[tuple[int, int]]:
    """The aspects of one property: none for a place, the objects of a facet verb
    ("focusing on A and B"), the items of a short list, else the property whole."""
    text = q[s:e]
    if _LOCATION.match(text) or e <= s:
        return []
    rel = re.match(r"(?:that|which|who)(?:'s|\s+(?:is|are))?\s+", text, re.I)
    if rel:
        s += rel.end()
    facet = _FACET_VERBS.match(q, s)
    if facet:
        return _split_list(q, facet.end(), e)
    parts = _split_list(q, s, e)
    if len(parts) > 1 and all(len(_words(q[a:b])) <= 4 for a, b in parts):
        return parts
    return [(s, e)]


def facet_aspects(q: str, region: tuple[int, int]) -> list[Aspect]:
    """Facets a question lists after an explicit cue ("especially regarding noise,
    wildlife and cost", "compare effects on A and B"); [] without such a cue."""
    m = _FACET_VERBS.search(q, region[0], region[1])
    if not m:
        return []
    end_m = re.search(r"[?.!;]", q[m.end() : region[1]])
    end = m.end() + end_m.start() if end_m else region[1]
    return [Aspect(text=q[s:e], span=(s, e)) for s, e in _split_list(q, m.end(), end) if e > s]
