"""The deterministic plan: the parts put together, and the root text left once cut."""

from __future__ import annotations

import re
from dataclasses import replace

from assistant.models import Aspect, Intent, QueryPerspective, QueryPlan, Side
from assistant.understand.aspects import facet_aspects, find_aspects, lookup_aspects
from assistant.understand.claims import asked_sentence, make_claims
from assistant.understand.constraints import find_constraints, part_of_proposition
from assistant.understand.declarative import subject_of
from assistant.understand.intent import (
    _AUX_START,
    _STRONG_DEBATE,
    MOTION_OPENING,
    SideCue,
    _debatable,
    _is_wh,
    decide_intent,
    fact_wh,
    find_side,
    is_info_request,
    is_lookup,
    is_wh,
    proposes_action,
)
from assistant.understand.parse import parse
from assistant.understand.perspectives import _BOTH_FACETS, _find_inline, _find_request
from assistant.understand.text import _WORD, _words, as_typed, check_question, found_content
from assistant.understand.vocab import VOCAB


def _in_predicate(q: str, cue: SideCue) -> bool:
    """A side cue of a noun ("defence of", "benefits of") in the predicate of a yes/no
    question about someone else is part of what is asked, not a request for one side:
    "Should the ICC allow a defence of cultural relativism …?", "Should schools teach
    the benefits of exercise?" ask whether, as "Are there benefits to homework?" and
    "Should I read the case against …?" (a pronoun as the subject) do not."""
    if cue.kind != "facet":
        return False
    subject = subject_of(q)
    if not subject:
        return False
    doc = parse(subject)
    if len(doc) == 1 and doc[0].tag_ in ("PRP", "EX"):
        return False
    at = q.lower().find(subject.lower())
    return at >= 0 and cue.cue[0] >= at + len(subject)


def _proposition(q: str) -> tuple[int, int] | None:
    """The span of the asked sentence when it asks about a proposition: a yes/no question
    not put to Sphere ("Should pharmacies sell …?", not "Could you show …?"), a motion
    ("This House would …", "THW …") or a proposal in the imperative ("Detain terror
    suspects without trial"); None otherwise."""
    asked = asked_sentence(q)
    start = q.rfind(asked) if asked else -1
    if start < 0:
        return None
    aux = _AUX_START.match(asked)
    if aux:
        after = _words(asked[aux.end() :])[:1]
        span = (start, start + len(asked))
        return span if after and after[0] not in VOCAB.grammar.addressees else None
    if MOTION_OPENING.match(asked) or proposes_action(asked):
        return (start, start + len(asked))
    return None


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
    constraints, con_spans = find_constraints(q, wh_factual=wh_factual, proposition=_proposition(q))
    # constraint phrases are not viewpoints
    perspectives = [p for p in perspectives if not _only_constraints(q, p, con_spans)]
    # a quoted phrase inside a proposition is a part of it that re-weights ("Introduce a
    # “fat tax”"): it stays in the root text the retrieval reads
    root_cut = [
        sp for sp, c in zip(con_spans, constraints, strict=True) if not part_of_proposition(c)
    ]
    root_text = _root_text(q, root, perspectives, root_cut, request)
    intent, target = decide_intent(q, root_text, perspectives, request)
    if intent == "one_sided":
        # the PIR shapes cut the cue out of the question ("What are the arguments against
        # X?" left "What are the X?"): the topic the stance cue scopes over is the root
        cue = find_side(q)
        if (
            cue is not None
            and cue.side == target
            and (_is_wh(root_text) or _AUX_START.match(root_text) or root_text.endswith("?"))
        ):
            root_text = _cue_topic(q, cue.topic, con_spans) or root_text
    if intent != "one_sided" and (
        not request or intent == "two_sided" or all(p.role == "other" for p in perspectives)
    ):
        intent, target, root_text, perspectives, root = _natural_kind(
            q, intent, root_text, perspectives, root, con_spans
        )
    if intent == "lookup":
        # "without mushrooms" is a property of the dish (an aspect), not a document filter;
        # "skip pages that mention X" (hard) stays a filter
        keep = [not (c.dimension == "keyword" and c.negated and not c.hard) for c in constraints]
        constraints = [c for c, k in zip(constraints, keep, strict=True) if k]
        con_spans = [sp for sp, k in zip(con_spans, keep, strict=True) if k]
    if intent == "factual" and not perspectives:
        # PIR's AmbigQA reading: the (disambiguated) question is its own perspective
        perspectives = [QueryPerspective(text=q, role="interpretation", span=(0, len(q)))]
        root_text = _root_text(q, (0, len(q)), [], con_spans, False) if con_spans else q
    exclude = [p.span for p in perspectives if p.span and p.role != "interpretation"]
    # constraint phrases are filters, not facets; a negated keyword ("but not stew") is both
    exclude += [
        s
        for s, c in zip(con_spans, constraints, strict=False)
        if not (c.dimension == "keyword" and c.negated)
    ]
    if intent == "lookup":
        # in a lookup a negated keyword left in the plan is a document filter ("skip pages
        # that mention X"; "without X" became an aspect above): no part of it is a property
        aspects = lookup_aspects(q, (0, len(q)), exclude + list(con_spans))
    else:
        aspects = facet_aspects(q, (0, len(q))) or find_aspects(q, root, exclude)
    if con_spans:
        aspects = _without_instruction_words(aspects)
    named = _named(q, root, perspectives, root_cut, request, root_text)
    claims = make_claims(named, intent, q) if intent != "lookup" else ("", "")
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


def _named(
    q: str,
    root: tuple[int, int],
    perspectives: list[QueryPerspective],
    con_spans: list[tuple[int, int]],
    request: bool,
    root_text: str,
) -> str:
    """The text the claims are made of: the root text, with the quoted names of a yes/no
    question put back ('Should "Huckleberry Finn" be banned?'). A quoted phrase is a
    keyword the documents must hold, cut from the root text; in a question that opens
    with an auxiliary it is a word of the question's own grammar, most often its subject,
    and in a motion ("This House would “make the punishment fit the crime” …",
    "Introduce a “fat tax”") a part of what is proposed."""
    kept = [(s, e) for s, e in con_spans if not (q[s] in '"“' and q[e - 1] in '"”')]
    if len(kept) == len(con_spans) or root_text != _root_text(
        q, root, perspectives, con_spans, request
    ):
        return root_text
    named = _root_text(q, root, perspectives, kept, request)
    grammar = (
        VOCAB.claims.aux_kind(named.split()[0]) is not None
        or MOTION_OPENING.match(named)
        or proposes_action(named)
    )
    return named if grammar else root_text


def _natural_kind(
    q: str,
    intent: Intent,
    root_text: str,
    perspectives: list[QueryPerspective],
    root: tuple[int, int],
    con_spans: list[tuple[int, int]],
) -> tuple[Intent, Side | None, str, list[QueryPerspective], tuple[int, int]]:
    """The kind of a question typed in natural words, where the PIR shapes found no side:
    a stance cue and its scope (:func:`find_side`) make it one-sided; an information
    request or a wh-question, factual; a noun phrase with wanted properties, a lookup."""
    if _BOTH_FACETS.search(q):
        return "two_sided", None, root_text, perspectives, root
    cue = find_side(q)
    if (
        cue is not None
        and not (fact_wh(q) and cue.kind in ("agent", "verb", "copula"))
        and not _in_predicate(q, cue)
    ):
        topic = _cue_topic(q, cue.topic, con_spans) or q[cue.topic[0] : cue.topic[1]]
        raw = q[cue.cue[0] : cue.cue[1]]
        start = cue.cue[0] + len(raw) - len(raw.lstrip())
        span = (start, start + len(raw.strip()))  # the span of the text, not its spaces
        stance = QueryPerspective(
            text=q[span[0] : span[1]], role="stance", side=cue.side, span=span
        )
        kept = [p for p in perspectives if p.role not in ("stance", "interpretation")]
        return "one_sided", cue.side, topic, [*kept, stance], cue.topic
    unfiltered = q
    for s, e in sorted(con_spans, reverse=True):  # "results must mention X" is a filter
        unfiltered = unfiltered[:s] + " " * (e - s) + unfiltered[e:]
    if _STRONG_DEBATE.search(unfiltered) and not fact_wh(q):
        return "two_sided", None, root_text, perspectives, root
    if intent == "factual":
        return intent, None, root_text, perspectives, root
    if is_info_request(q) or (is_wh(q) and not _debatable(q)):
        return "factual", None, root_text, perspectives, root
    if is_lookup(q, len(find_aspects(q, root, list(con_spans))), list(con_spans)):
        return "lookup", None, root_text, perspectives, root
    return intent, None, root_text, perspectives, root


def _cue_topic(q: str, span: tuple[int, int], con_spans: list[tuple[int, int]]) -> str:
    """The topic a stance cue scopes over, as the root: a noun phrase ("the downsides of
    nuclear power?") loses the question mark the sentence ended with, so the claims are
    made of a noun phrase ("Nuclear power is harmful overall.")."""
    topic = _root_text(q, span, [], con_spans, False)
    before = _words(q[: span[0]])
    if _AUX_START.match(topic) and len(before) >= 2 and _is_wh(q):
        # "What harm can homeopathy do?": the cue took a wh-phrase (a wh-word and its
        # noun), and what is left ("can homeopathy do") is a question's remnant whose
        # subject is the topic ("Why do brexiteers think …" has no such phrase)
        subject = subject_of(q[span[0] :])
        if subject:
            return as_typed(topic, subject)
    if topic.endswith("?") and not _is_wh(topic) and not _AUX_START.match(topic):
        topic = topic.rstrip(" ?")
    return topic


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
    return all(w in VOCAB.grammar.aspect_stopwords or w in VOCAB.requests.doc_nouns for w in rest)


# a preposition left at the end of a piece of the question whose next phrase was cut
_CUT_PREPOSITION = re.compile(r"\s+(?:to|for)\s*$", re.I)


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
            # the preposition of a phrase cut out goes with it ("explain X to | a 9-year-old")
            pieces.append(_CUT_PREPOSITION.sub("", q[pos:s]))
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
_INSTRUCTION_FILLER = frozenset(VOCAB.grammar.instruction_filler)


# words that open an instruction sentence
_INSTRUCTION_OPENERS = frozenset(VOCAB.grammar.instruction_openers)


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
