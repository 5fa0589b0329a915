"""Aspects: non-overlapping sub-spans naming distinct facets (paper 003 §3.1)."""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.models import Aspect
from assistant.understand.text import _WORD, _trim, _words

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
