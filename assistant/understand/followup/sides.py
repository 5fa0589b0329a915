"""Rule 3: a request for one side of the previous claims (a stance cue of the question
parser whose scope is the previous topic or a pointer back, a side word, "the other
side", or a side named by restating or denying the previous claim); and the side a
request for more names.
"""

from __future__ import annotations

import functools
import re

from assistant.models import QueryPlan, Side
from assistant.understand.followup import words as fw
from assistant.understand.followup.edits import FollowUp, _one_side, _one_sided, _other
from assistant.understand.followup.words import (
    Span,
    _content,
    _is_role,
    _residue,
    _stem,
    _tokens,
    _topic_stems,
    _words,
)
from assistant.understand.intent import find_side_cues
from assistant.understand.perspectives import _BOTH_FACETS
from assistant.understand.vocab import VOCAB, alternation

# the cue words of rule 3 (words/side_turns.yaml, section sides), each list read here once
_S = VOCAB.side_turns.sides

_MORE_CUE = re.compile(
    r"\b" + alternation(_S.more_cues, _S.more_cue_patterns, space=" ") + r"\b",
    re.I,
)


_CON_WORDS = frozenset(VOCAB.sides.con_words)


_PRO_WORDS = frozenset(VOCAB.sides.pro_words)


_OTHER_SIDE = re.compile(
    r"\b(?:(?:the\s+)?other\s+"
    + alternation(_S.other_side_nouns)
    + "|"
    + alternation(_S.other_side_phrases, _S.other_side_patterns, space=" ")
    + r")\b",
    re.I,
)


_MORE_WORDS = frozenset(VOCAB.followup.more_words)


_RESTRICT = re.compile(r"\b" + alternation(_S.restrict_words) + r"(?!\w)", re.I)


_TERSE_SIDE: dict[Side, re.Pattern[str]] = {
    "pro": re.compile(
        r"\b"
        + alternation(_S.terse_pro, _S.terse_pro_patterns, space=" ")
        + r"\b|(?<=\s)"
        + alternation(_S.terse_pro_after_space),
        re.I,
    ),
    "con": re.compile(
        r"\b" + alternation(_S.terse_con, _S.terse_con_patterns, space=" ") + r"\b", re.I
    ),
}

# nouns beside which a terse side word names a side ("the pro side")
_TERSE_SIDE_NOUNS = frozenset(_S.terse_side_nouns)

# verbs a request may hold before the side it names ("focus on the ones that say …")
_RESTRICTION_VERBS = frozenset(_S.restriction_verbs)


# words that name a side, not a group ("the opposing view")
_SIDE_WORDS = frozenset(VOCAB.sides.side_words)


_SIDE_RESIDUE = frozenset(VOCAB.sides.side_residue)


# "the arguments that it's wrong" (con), "just the arguments that they are" (pro): a side
# named by restating or denying the previous claim
_ARGUMENTS_THAT = re.compile(
    r"\b"
    + alternation(_S.claim_holders)
    + r"\s+(?:(?:that|which|who)\s+(?:"
    + alternation(_S.claim_verbs)
    + r"\s+)?|"
    + alternation(_S.claim_participles)
    + r"\s+)"
    r"(?:that\s+)?"
    r"(?:it|they|this|that)\s*(?:'s|’s|'re|’re|\s+is|\s+are|\s+was|\s+were|\s+does|\s+do|"
    r"\s+did|\s+will|\s+would|\s+can|\s+could|\s+wo(?=n't))?"
    r"(?P<neg>\s+not|n't|n’t)?(?:\s+" + alternation(_S.claim_intensifiers) + r"\b)?"
    r"(?:\s+(?:an?\s+)?(?P<adj>[\w\-]+(?:\s+idea)?))?"
    r"(?:\s+for\s+" + alternation(_S.claim_beneficiaries, _S.claim_beneficiary_patterns) + r")?"
    r"\s*[?.!]*$",
    re.I,
)


# "the side that says yes they do", "only the ones that say nah they don't"
_SAYS_YES = re.compile(
    r"\b"
    + alternation(_S.answer_verbs)
    + r"\s+(?:that\s+)?(?P<yn>"
    + alternation((*_S.yes_answers, *_S.no_answers))
    + r")"
    r"\b(?:[,]?\s+(?:it|they|this|that)\s*(?:'s|’s|'re|’re|\s+(?:is|are|does|do|did|will|would|"
    r"can|has|have)(?:n't|n’t|\s+not)?|(?:does|do|is|are|did)n['’]t))?\s*[?.!]*$",
    re.I,
)


# "the case for retaining the monarchy" after "should the monarchy be abolished?"
_FOR_VERBING = re.compile(
    r"\b"
    + alternation(_S.case_for_holders)
    + r"\s+"
    + alternation(_S.case_for_links)
    + r"\s+(?P<v>[a-z]+ing)\b",
    re.I,
)


# "the side that says keep them" after "should X be abolished?": a side named by a verb of
# the previous topic (pro) or by its opposite (con)
_SAYS_VERB = re.compile(
    r"\b"
    + alternation(_S.says_verb_holders)
    + r"\s+(?:that|which|who)\s+"
    + alternation(_S.says_verbs)
    + r"\s+(?:(?:we|you|they|to)\s+)?"
    r"(?:(?:should|must|need\s+to|ought\s+to)\s+)?(?P<v>[a-z]+)\b"
    r"(?P<o>(?:\s+[\w\-'’]+){0,4}?)\s*[?.!]*$",
    re.I,
)

# a verb's object that denies ("those who want to not keep it")
_NEGATED_OBJECT = re.compile(r"n[’']t\b|\b" + alternation(_S.object_negations) + r"\b", re.I)


_VERB_POLES = frozenset(VOCAB.sides.keep_verbs), frozenset(VOCAB.sides.end_verbs)


_BAD = frozenset(VOCAB.sides.bad)


_GOOD = frozenset(VOCAB.sides.good)


@functools.lru_cache(maxsize=1)
def _pole_stems() -> tuple[frozenset[str], frozenset[str]]:
    keep, end = (frozenset(_stem(w) for w in p) for p in _VERB_POLES)
    return keep, end


def _says_verb(q: str, previous: QueryPlan) -> tuple[Side, int] | None:
    """The side a verb names ("the side that says keep them"), and where its phrase starts."""
    m = _SAYS_VERB.search(q)
    topic = {_stem(w) for w in _words(previous.root_query or previous.question)}
    poles = _pole_stems()
    if m is not None and m.group("o"):
        # the verb's object is a pronoun or the topic's own words ("those who want to keep
        # tipping" after "should tipping be abolished?"), not a claim of its own
        obj = [w for w in _content(m.group("o")) if w not in fw.POINTERS]
        verb = _stem(m.group("v"))
        if (
            any(_stem(w) not in topic for w in obj)
            or _NEGATED_OBJECT.search(m.group("o"))
            or not (verb in poles[0] or verb in poles[1])
        ):
            m = None
    m = m or _FOR_VERBING.search(q)
    if m is None:
        return None
    v = _stem(m.group("v"))
    for mine, other in (poles, poles[::-1]):
        if v in mine and topic & mine:
            return "pro", m.start()
        if v in mine and topic & other:
            return "con", m.start()
    if v in topic:
        return "pro", m.start()
    return None


def _arguments_that(q: str, previous: QueryPlan) -> Side | None:
    found = _arguments_side(q, previous)
    if found is None:
        return None
    if _residue(q[: found[1]], also=_SIDE_RESIDUE | _RESTRICTION_VERBS):
        return None
    return found[0]


def _arguments_side(q: str, previous: QueryPlan) -> tuple[Side, int] | None:
    """The side a phrase names by a verb or by restating or denying the previous claim,
    and where the phrase starts."""
    said = _says_verb(q, previous)
    if said is not None:
        return said
    yes = _SAYS_YES.search(q)
    if yes is not None:
        return ("con" if yes.group("yn").lower() in _S.no_answers else "pro"), yes.start()
    m = _ARGUMENTS_THAT.search(q)
    if m is None:
        return None
    adj = (m.group("adj") or "").lower().replace(" ", "-")
    if not adj or adj in _GOOD or _stem(adj) in _topic_stems(previous):
        side: Side = "pro"
    elif adj in _BAD:
        side = "con"
    else:
        return None
    if adj and _stem(adj) not in _topic_stems(previous) and _negative_claim(previous):
        side = _other(side)  # "it's dangerous" after "is homeopathy harmful?" argues for
    return (_other(side) if m.group("neg") else side), m.start()


def _negative_claim(previous: QueryPlan) -> bool:
    """Does the previous topic's first claim call its subject bad ("is homeopathy
    harmful?"), so that a bad word about "it" supports it? (Not a verb of ending: after
    "do plastic bag bans reduce waste?", "they work" speaks of the bans.)"""
    return bool(set(_words(previous.root_query or previous.question)) & _BAD)


def _one_side_edit(q: str, previous: QueryPlan) -> FollowUp | None:
    if _BOTH_FACETS.search(q):
        return None  # "pros and cons": both sides
    named = _arguments_that(q, previous)
    if named is not None:
        return _one_side(previous, named)
    spans: list[Span] = []
    sides: set[Side] = set()
    for c in find_side_cues(q):
        if c.kind == "verb" and any(_is_role(w) for w in _words(q[c.cue[0] : c.cue[1]])):
            return None  # "what do dietitians recommend?": a group's view, not a side
        scope = q[c.topic[0] : c.topic[1]]
        if _residue(scope, previous=previous, also=_SIDE_RESIDUE):
            return None  # the cue is about a topic of its own ("critics of tolls")
        sides.add(c.side)
        spans += [c.cue, c.topic]
    toks = _tokens(q)
    terse = [(side, m.span()) for side, pat in _TERSE_SIDE.items() for m in pat.finditer(q)]
    side_noun = _TERSE_SIDE_NOUNS & {w for w, _, _ in toks}
    if terse and (_RESTRICT.search(q) or len(toks) <= 3 or side_noun):
        for side, span in terse:
            sides.add(side)
            spans.append(span)
    other = _OTHER_SIDE.search(q)
    prev_side = _one_sided(previous)
    if other and prev_side and not sides:
        sides.add(_other(prev_side))
        spans.append(other.span())
    if len(sides) != 1 or _residue(q, spans, previous, also=_SIDE_RESIDUE):
        return None
    return _one_side(previous, sides.pop())


# "for both positions", "from either camp", "on each side": no one side
_BOTH_SIDES = re.compile(
    r"\b"
    + alternation(_S.both_words)
    + r"\s+(?:of\s+the\s+)?"
    + alternation(_S.both_nouns)
    + r"\b|\b"
    + alternation(_S.both_sides_phrases, _S.both_sides_patterns, space=" ")
    + r"\b",
    re.I,
)


def _side_named(q: str, previous: QueryPlan) -> Side | None:
    """The side a turn's words name: a side word, "the other side" after a one-sided
    turn, or a restated or denied claim; None when they name none or both."""
    found = _arguments_side(q, previous)
    if found is not None:
        return found[0]
    if _BOTH_FACETS.search(q) or _BOTH_SIDES.search(q):
        return None
    prev_side = _one_sided(previous)
    if _OTHER_SIDE.search(q) and prev_side:
        return _other(prev_side)
    words = set(_words(q))
    con = bool(words & _CON_WORDS) or bool(_TERSE_SIDE["con"].search(q))
    pro = bool(words & _PRO_WORDS) or bool(_TERSE_SIDE["pro"].search(q))
    if con != pro:
        return "con" if con else "pro"
    for c in find_side_cues(q):
        return c.side
    return None
