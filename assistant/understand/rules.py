"""The deterministic plan: the parts put together, and the root text left once cut."""

from __future__ import annotations

import re
from dataclasses import replace

from assistant import lexicon as lx
from assistant.models import Aspect, QueryPerspective, QueryPlan
from assistant.understand.aspects import find_aspects
from assistant.understand.claims import make_claims
from assistant.understand.constraints import find_constraints
from assistant.understand.intent import _debatable, _is_wh, decide_intent
from assistant.understand.perspectives import _find_inline, _find_request
from assistant.understand.text import _WORD, _words, check_question, found_content


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
