"""The question's intent (two-sided, one-sided, factual, lookup) and wanted side."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.models import Intent, QueryPerspective, Side
from assistant.understand import cues
from assistant.understand.perspectives import _BOTH_FACETS
from assistant.understand.phrases import phrase_kind
from assistant.understand.text import _words, leading_clause
from assistant.understand.vocab import VOCAB, alternation

# the question cues of this module (words/questions.yaml), each list read here once
_W = VOCAB.questions.intent


def _is_wh(text: str) -> bool:
    first = _words(text[:40])[:1]
    return bool(first) and first[0] in VOCAB.grammar.wh_words


def _debatable(text: str) -> bool:
    words = set(_words(text))
    return bool(words & set(VOCAB.requests.debate_cues)) or bool(
        re.search(r"\bvs\.?\b|\bversus\b", text, re.I)
    )


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


# --------------------------------------------------------------------------- one side, from cues


@dataclass(frozen=True)
class SideCue:
    """A stance cue: the side it asks for, the cue's span and the topic it scopes over."""

    side: Side
    cue: tuple[int, int]
    topic: tuple[int, int]
    kind: str  # facet | agent | verb | evaluative | persuasion | view | copula


def _alt(words: Iterable[str]) -> str:
    ws = sorted({re.escape(w) for w in words}, key=len, reverse=True)
    return r"(?:" + "|".join(ws) + r")"


def _PAIRS(pro: Iterable[str], con: Iterable[str]) -> tuple[tuple[Side, Iterable[str]], ...]:
    return (("pro", pro), ("con", con))


_NEG = r"(?P<neg>\s+not|n't|\s+never)?"
_FACET: dict[Side, re.Pattern[str]] = {
    side: re.compile(
        r"(?<![\w'])(?:" + alternation(_W.facet_modifiers) + r"\s+)*(?P<f>" + _alt(words) + r")"
        r"(?![\w'])(?:\s+" + alternation(_W.facet_prepositions, space=" ") + r"(?![\w']))?",
        re.I,
    )
    for side, words in _PAIRS(cues.PRO_FACETS, cues.CON_FACETS)
}
_AGENT: dict[Side, re.Pattern[str]] = {
    side: re.compile(r"(?<![\w'])(?P<a>" + _alt(words) + r")(?![\w'])", re.I)
    for side, words in _PAIRS(cues.PRO_AGENTS, cues.CON_AGENTS)
}
_VERB = {
    side: _alt(cues.verb_forms(words))
    for side, words in (("pro", cues.PRO_VERBS), ("con", cues.CON_VERBS))
}
# "why do economists favor X", "how do advocates justify X", "why are economists against X"
_SUBJECT_VERB = re.compile(
    r"\b(?:do|does|did|would|might|could|are|is|were|was|will|can)\s+(?P<subj>(?:[\w'\-]+\s+){1,5}?)"
    r"(?:(?P<neg>not|never)\s+)?(?:" + alternation(_W.verb_intensifiers) + r"\s+)?"
    r"(?P<v>" + _VERB["pro"] + "|" + _VERB["con"] + r"|against|in favou?r of)"
    r"(?:\s+" + alternation(_W.verb_particles) + r")?\b",
    re.I,
)
# "articles praising X", "essays attacking X", "people who oppose X"
_NOUN_VERB = re.compile(
    r"\b(?P<n>" + _alt((*VOCAB.requests.doc_nouns, *_W.verb_subjects)) + r")"
    r"\s+(?:who\s+|that\s+)?(?P<v>" + _VERB["pro"] + "|" + _VERB["con"] + r")(?:\s+(?:to|of))?\b",
    re.I,
)
_EVAL = {
    side: _alt(words)
    for side, words in (("pro", cues.PRO_EVALUATIVE), ("con", cues.CON_EVALUATIVE))
}
_COPULA = r"(?:is|are|was|were|be|being|been|'s|'re)"
# "why is X harmful", "reasons X is bad", "explain why X is good", "why do they think X was bad"
_WHY_EVAL = re.compile(
    r"\b(?:why|reasons?(?:\s+why)?|how come)\s+(?P<x>.*?)\b" + _COPULA + r"(?P<neg>\s+not|n't)?"
    r"\s+(?:" + alternation(_W.eval_intensifiers, space=" ") + r"\s+)?"
    r"(?P<e>" + _EVAL["pro"] + "|" + _EVAL["con"] + r")\b",
    re.I,
)
_WHY_COPULA_FIRST = re.compile(
    r"\b(?:why|how come)\s+" + _COPULA + r"(?P<neg>n't|\s+not)?\s+(?P<x>.+?)\s+"
    r"(?:" + alternation(_W.copula_first_intensifiers, space=" ") + r"\s+)?"
    r"(?P<e>" + _EVAL["pro"] + "|" + _EVAL["con"] + r")\b",
    re.I,
)
_MAKES_EVAL = re.compile(
    r"\bwhat\s+makes\s+(?P<x>.+?)\s+(?:so\s+)?(?P<e>" + _EVAL["pro"] + "|" + _EVAL["con"] + r")\b",
    re.I,
)
_ABOUT_EVAL = re.compile(
    r"\bwhat(?:'s|s| is| are)?\s+(?:so\s+)?(?P<e>"
    + alternation((*_W.about_eval.pro, *_W.about_eval.con))
    + r")\s+"
    r"(?:about|with|w/)\s+",
    re.I,
)
_EFFECT = re.compile(
    r"\bhow\s+(?:does|do|can|could|did|will|would|might)\s+(?P<x>.+?)\s+(?P<v>"
    + _alt(cues.verb_forms(cues.PRO_EFFECT_VERBS))
    + "|"
    + _alt(cues.verb_forms(cues.CON_EFFECT_VERBS))
    + r")\b",
    re.I,
)
_PERSUADE: dict[Side, re.Pattern[str]] = {
    side: re.compile(r"\b(?P<p>" + _alt(words) + r")\b\s*", re.I)
    for side, words in _PAIRS(cues.PRO_PERSUADE, cues.CON_PERSUADE)
}
_WHY_SHOULD = re.compile(
    r"^\s*why\s+(?P<aux>should|must|ought|shall)(?P<neg>n't|\s+not)?\s+"
    r"(?:(?:we|i|you|they|people|anyone|one)\b)?",
    re.I,
)
_VIEW = re.compile(
    r"\b(?P<a>"
    + _alt((*cues.PRO_VIEWS, *cues.CON_VIEWS, *cues.PRO_AGENTS, *cues.CON_AGENTS))
    + r")\s+"
    + _alt(cues.VIEW_NOUNS)
    + r"\s+"
    + alternation(_W.view_prepositions)
    + r"\s+",
    re.I,
)
_COPULA_SIDE = re.compile(
    r"\b" + alternation(_W.side_copulas) + r"\s+(?:[\w'\-]+\s+){0,3}?"
    r"(?P<neg>" + alternation(_W.side_negations) + r"\s+)?"
    r"(?P<p>" + alternation(_W.side_prepositions, space=" ") + r")\s+",
    re.I,
)
_PRO_PREPS = tuple(VOCAB.stance.pro_prepositions)
# evaluative adjectives before "für", "pour", "voor": "gut für" is "good for"
_GOOD_BAD = frozenset(VOCAB.stance.good_bad)
_AUX_START = re.compile(r"^\s*(?:" + "|".join(VOCAB.grammar.auxiliaries) + r")\b", re.I)
_TOPIC_END = re.compile(
    r"\s*(?:[?!;]|\.(?:\s|$)|,|\s[-–—]\s|\s+"
    + alternation(_W.topic_end_verbs, space=" ")
    + r"\b\s*[?.!]?\s*$|\s+(?:as (?:a |an )?"
    + alternation(_W.topic_end_formats, space=" ")
    + r"|for (?:a |an )?"
    + alternation(_W.topic_end_audiences, space=" ")
    + r"|"
    + alternation(_W.topic_end_words, _W.topic_end_patterns, space=" ")
    + r")\b)",
    re.I,
)
_LEADING = re.compile(
    r"^(?:" + alternation(_W.leading_words) + r"\s+)+",
    re.I,
)


def _topic(q: str, start: int, end: int | None = None) -> tuple[int, int]:
    """The phrase a cue scopes over: from ``start`` to the clause's end."""
    if end is None:
        m = _TOPIC_END.search(q, start)
        end = m.start() if m else len(q)
    while start < end and q[start].isspace():
        start += 1
    text = q[start:end]
    lead = _LEADING.match(text)
    if lead and lead.end() < len(text):
        start += lead.end()
    while end > start and q[end - 1] in " ?.!,;:\"'":
        end -= 1
    return (start, end)


def _flip(side: Side, neg: str | None) -> Side:
    if neg and neg.strip():
        return "con" if side == "pro" else "pro"
    return side


def _side_of(word: str, pro: str) -> Side:
    return "pro" if re.fullmatch(pro, word, re.I) else "con"


def find_side_cues(q: str) -> list[SideCue]:
    """Every stance cue of the question, with the side it asks for and its scope."""
    out = [*_facet_cues(q), *_persuasion_cues(q), *_view_cues(q)]
    after = leading_clause(q)  # "If X, should we worry about Y?" asks yes or no too
    if not _AUX_START.match(after[1] if after else q):  # not in a yes/no question
        out += [*_verb_cues(q), *_evaluative_cues(q), *_copula_cues(q)]
    return out + _agent_cues(q)


def _facet_cues(q: str) -> list[SideCue]:
    out = []
    for side, pat in _FACET.items():
        for m in pat.finditer(q):
            if m.group("f").lower() == "cons" and re.search(r"\bpros\b", q, re.I):
                continue
            out.append(SideCue(side, (m.start(), m.end()), _topic(q, m.end()), "facet"))
    return out


def _persuasion_cues(q: str) -> list[SideCue]:
    out = []
    for p_side, p_pat in _PERSUADE.items():
        for m in p_pat.finditer(q):
            out.append(SideCue(p_side, (m.start(), m.end()), _topic(q, m.end()), "persuasion"))
    should = _WHY_SHOULD.match(q)
    if should:
        side = _flip("pro", should.group("neg"))
        span = (should.start(), should.end())
        out.append(SideCue(side, span, _topic(q, should.end()), "persuasion"))
    return out


def _view_cues(q: str) -> list[SideCue]:
    out = []
    for m in _VIEW.finditer(q):
        a = m.group("a").lower()
        view: Side = "pro" if a in cues.PRO_VIEWS or a in cues.PRO_AGENTS else "con"
        out.append(SideCue(view, (m.start(), m.end()), _topic(q, m.end()), "view"))
    return out


def _verb_cues(q: str) -> list[SideCue]:
    out = []
    for m in _SUBJECT_VERB.finditer(q):
        v = m.group("v").lower()
        base: Side = (
            "con"
            if v == "against"
            else "pro"
            if v.startswith("in fav")
            else _side_of(v, _VERB["pro"])
        )
        side = _flip(base, m.group("neg"))
        out.append(SideCue(side, (m.start(), m.end()), _topic(q, m.end()), "verb"))
    for m in _NOUN_VERB.finditer(q):
        base = _side_of(m.group("v"), _VERB["pro"])
        out.append(SideCue(base, (m.start("v"), m.end()), _topic(q, m.end()), "verb"))
    return out


def _evaluative_cues(q: str) -> list[SideCue]:
    out = []
    for pat in (_WHY_EVAL, _WHY_COPULA_FIRST, _MAKES_EVAL):
        for m in pat.finditer(q):
            base = _side_of(m.group("e"), _EVAL["pro"])
            x = _topic(q, m.start("x"), m.end("x"))
            if x[1] > x[0]:
                side = _flip(base, m.group("neg") if "neg" in m.groupdict() else None)
                out.append(SideCue(side, (m.start(), m.end()), x, "evaluative"))
    for m in _ABOUT_EVAL.finditer(q):
        base = "pro" if m.group("e").lower() in _W.about_eval.pro else "con"
        out.append(SideCue(base, (m.start(), m.end()), _topic(q, m.end()), "evaluative"))
    for m in _EFFECT.finditer(q):
        base = _side_of(m.group("v"), _alt(cues.verb_forms(cues.PRO_EFFECT_VERBS)))
        x = _topic(q, m.start("x"), m.end("x"))
        out.append(SideCue(base, (m.start(), m.end()), x, "evaluative"))
    return out


def _copula_cues(q: str) -> list[SideCue]:
    out = []
    for m in _COPULA_SIDE.finditer(q):
        p = m.group("p").lower()
        before = _words(q[: m.start("p")])
        if before and before[-1] in _GOOD_BAD:
            continue  # "ist Homeoffice gut für …": good for, not in favour of
        base: Side = "pro" if p in _PRO_PREPS else "con"
        side = _flip(base, m.group("neg"))
        out.append(SideCue(side, (m.start(), m.end()), _topic(q, m.end()), "copula"))
    return out


def _agent_cues(q: str) -> list[SideCue]:
    out = []
    for side, pat in _AGENT.items():
        for m in pat.finditer(q):
            out.append(SideCue(side, (m.start(), m.end()), _agent_topic(q, m), "agent"))
    return out


def _agent_topic(q: str, m: re.Match[str]) -> tuple[int, int]:
    """The topic of an agent: after "of" ("critics of X") or "about" ("sceptics about X"),
    or before it ("X's supporters"), else what follows it."""
    after = q[m.end() :]
    of = re.match(r"\s+" + alternation(_W.agent_of_words) + r"\s+", after)
    start = m.end() + (of.end() if of else 0)
    about = re.search(r"\b" + alternation(_W.agent_about_words) + r"\s+", q[m.end() :])
    if not of and about:
        start = m.end() + about.end()
    elif not of:
        own = re.search(r"([\w\-' ]+?)(?:'s|’s)\s+(?:\w+\s+)?$", q[: m.start()])
        if own:
            return _topic(q, own.start(1), own.end(1))
    return _topic(q, start)


_KIND_RANK = {
    "persuasion": 0,
    "facet": 1,
    "view": 1,
    "evaluative": 2,
    "verb": 2,
    "copula": 2,
    "agent": 3,
}


def find_side(q: str) -> SideCue | None:
    """The one side the question asks for, or None (no cue, or cues on both sides).

    A stance verb or an evaluative word outranks the agent that is its subject
    ("why do critics *support* X" asks for the side for X); cues of the same
    rank that disagree ("benefits and risks of X") make the question two-sided.
    """
    found = find_side_cues(q)
    if not found or _BOTH_FACETS.search(q):
        return None
    best_rank = min(_KIND_RANK[c.kind] for c in found)
    top = [c for c in found if _KIND_RANK[c.kind] == best_rank]
    sides = {c.side for c in top}
    if len(sides) > 1:
        return None
    # the cue that leaves the longest topic (the others are usually inside it)
    return max(top, key=lambda c: (c.topic[1] - c.topic[0], -c.cue[0]))


# --------------------------------------------------------------------------- factual, lookup

# wh-words that ask for a fact even when a stance word follows ("who were the critics of …")
_FACT_WH = frozenset(VOCAB.grammar.fact_wh)
# a headline that names two options after its topic ("Surrealist Memes: Regression or
# Progression?", "Climate Change – Act now, or question the urgency?"): a debate, never a
# lookup (PerSphere's titles; 43 of its 139 were read as lookups before this)
HEADLINE_OPTIONS = re.compile(
    r"(?::|\s[–—-]\s)[^:]*?\bor\b[^:]*$"  # options after the separator
    r"|^[^:–—]*?\bor\b[^:–—]*(?::|\s[–—-]\s)",  # "Cats or Dogs: who makes …"
    re.I,
)
# a motion's opening formula ("This House would …", "THW …") at the start
_MOTION_OPENING = (
    r"^\s*"
    + alternation((*_W.motion_openers, *VOCAB.claims.motion_abbreviations), space=" ")
    + r"\b"
)
MOTION_OPENING = re.compile(_MOTION_OPENING, re.I)
# a strong debate cue anywhere, or a motion's opening formula at the start
_STRONG_DEBATE = re.compile(
    _MOTION_OPENING + r"|\b" + alternation(_W.strong_debate_cues, space=" ") + r"\b",
    re.I,
)
_FINITE = frozenset((*VOCAB.grammar.auxiliaries, *VOCAB.grammar.finite_verbs))
_INFO_START = re.compile(
    r"^\s*(?:please\s+)?(?:(?:can|could) you\s+)?"
    + alternation(_W.info_openers, _W.info_opener_patterns, space=" ")
    + r"\b",
    re.I,
)
_LOOKUP_HEADS = frozenset(VOCAB.requests.lookup_heads)
_WORD_RE = re.compile(r"[^\W_][\w'’\-]*", re.UNICODE)


def first_word(q: str) -> str:
    m = _WORD_RE.search(q)
    return m.group(0).lower() if m else ""


def _edit1(a: str, b: str) -> bool:
    """True if ``a`` is ``b`` with one letter dropped, added or changed, or two swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        # one letter changed, or two neighbours swapped ("shuold")
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def is_wh(q: str) -> bool:
    """The question opens with a wh-word (English or five other languages; one typo allowed
    in an English one of three letters or more: "wht year …")."""
    w = first_word(q).replace("’", "'")
    if w in cues.WH_WORDS:
        return True
    return len(w) >= 3 and any(_edit1(w, x) for x in _W.typo_wh_words)


def fact_wh(q: str) -> bool:
    words = _words(q[:40])
    return bool(words) and (words[0] in _FACT_WH or " ".join(words[:2]) in _FACT_WH)


def is_info_request(q: str) -> bool:
    """An imperative or noun phrase asking to be told something ("explain how …",
    "history of …")."""
    if _INFO_START.match(q):
        return True
    words = _words(q[:60])
    return len(words) > 2 and words[0] in cues.INFO_NOUNS and words[1] in _W.info_noun_links


# a note in brackets ("… (Junior)", "… (ACTA)") is no part of a motion's phrase
_BRACKETED = re.compile(r"\s*\([^()]*\)")


def proposes_action(q: str) -> bool:
    """A motion in the imperative ("Abolish statutes of limitations on all felonies",
    "Raise the school leaving age to 18"): a bare verb phrase (:func:`phrase_kind`) whose
    verb asks for nothing (no request verb of ``words/claims.yaml``, no lookup opener)
    and that names no lookup head noun. A proposal is argued from both sides, never
    looked up."""
    text = _BRACKETED.sub("", q).strip().rstrip("?.!").strip()
    if not text:
        return False
    opener = cues.LOOKUP_OPENERS.match(text)
    if (opener and opener.end()) or _INFO_START.match(text):
        return False
    if first_word(text) in VOCAB.claims.request_verbs:
        return False
    if any(w in _LOOKUP_HEADS for w in _words(text)):
        return False
    return phrase_kind(text) == "verb_phrase"


def is_lookup(q: str, n_aspects: int, masked: list[tuple[int, int]] | None = None) -> bool:
    """A request for items with wanted properties: a noun phrase (no finite verb before its
    first property marker), no debate cue, and a property marker, a lookup head noun, an
    indefinite article or two or more aspects."""
    if (
        _AUX_START.match(q)
        or is_wh(q)
        or _STRONG_DEBATE.search(q)
        or _BOTH_FACETS.search(q)
        or HEADLINE_OPTIONS.search(q)
        or proposes_action(q)
    ):
        return False
    # constraint phrases ("that mention X", "in French") are filters, not wanted properties
    for s, e in sorted(masked or [], reverse=True):
        q = q[:s] + " " * (e - s) + q[e:]
    if not any(w.isalpha() for w in _words(q)):
        return False
    first = first_word(q)
    if len(first) >= 4 and any(_edit1(first, a) for a in VOCAB.grammar.auxiliaries if len(a) >= 4):
        return False  # a yes/no question with a typo ("shoud we …")
    opener = cues.LOOKUP_OPENERS.match(q)
    body_start = opener.end() if opener else 0
    words = _words(q[body_start:])
    if not words or words[0] in cues.INFO_NOUNS:
        return False
    marker = next(
        (i for i, w in enumerate(words) if i > 0 and w in cues.PROPERTY_MARKERS), len(words)
    )
    if any(w in _FINITE for w in words[:marker]):
        return False
    has_head = any(w in _LOOKUP_HEADS for w in words[: marker + 1])
    indefinite = bool(
        re.match(r"\s*" + alternation(_W.indefinite_articles) + r"\s", q[body_start:], re.I)
    )
    return marker < len(words) or has_head or indefinite or n_aspects >= 2 or q.count(",") >= 2
