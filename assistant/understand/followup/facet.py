"""Rule 7: a facet of the previous topic (after a frame that narrows, "focus on …", any
short phrase; after "what about" or alone, a phrase whose head is a facet or names
people, all of whose words are the topic's, or that points back), unless it puts a
sibling in the place of part of the topic; and the previous question restated with
a few words of its own.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.models import Aspect, QueryPlan
from assistant.understand.followup import words as fw
from assistant.understand.followup.constraint import _names_constraint
from assistant.understand.followup.constraint_words import _LENGTH_WORDS
from assistant.understand.followup.drop import _DROP_VERB
from assistant.understand.followup.edits import FollowUp, Rule, _add_aspect, _add_perspective, _edit
from assistant.understand.followup.normalise import _QUESTION_START, unwrap
from assistant.understand.followup.sides import _MORE_CUE
from assistant.understand.followup.words import (
    _CLAUSE,
    _FACET_MARK,
    _PREPOSITIONS,
    _REQUEST_VERBS,
    _content,
    _is_facet,
    _is_person,
    _is_role,
    _residue,
    _stem,
    _tokens,
    _topic_stems,
    _words,
)
from assistant.understand.vocab import VOCAB, alternation, every

# the words of the frames (words/frames.yaml), each list read here once
_W = VOCAB.frames
_OPENERS = _W.openers
_FRAME_OPENERS = _OPENERS.frames
_AND_WORDS = every(_W.and_words)
_CIRCUMFIX = _W.circumfix
_CIRCUMFIX_END = alternation([_CIRCUMFIX.close])


def _opening(words: tuple[str, ...]) -> str:
    """The words a turn may open with before a frame, any number of them ("and so …")."""
    return r"^\s*(?:" + alternation(words) + r"[,]?\s+)*"


_OPEN = _opening(_FRAME_OPENERS)


# the weak frames: a cue (or "and" alone) before a facet
_WEAK_FRAME = re.compile(
    _opening(tuple(dict.fromkeys((*_FRAME_OPENERS, *_AND_WORDS))))
    + alternation(
        (*every(_W.weak_cues), *_AND_WORDS),
        # the circumfix opens the frame when the turn ends with its close
        [alternation([_CIRCUMFIX.open]) + r"(?=\s.+\s" + _CIRCUMFIX_END + r"\s*[?.!]*$)"],
    )
    + r"\s+(?P<x>.+)$",
    re.I,
)


_STRONG_FRAME = re.compile(
    _OPEN
    + r"(?:also\s+)?"
    + alternation(_W.strong_cues, _W.strong_cue_patterns)
    + r"\s+(?P<x>.+)$",
    re.I,
)


_EFFECT_FRAME = re.compile(
    _OPEN
    + r"(?:how\s+(?:does|do|would|will|did|might|could|is|are)\s+(?P<s>.+?)\s+"
    + alternation(_W.effect_verbs)
    + r"|(?:the\s+)?"
    + alternation(_W.implications)
    + r"\s+(?:for|of)|what\s+(?:would|will|does|could|might)\s+(?P<s6>it|that|this|they)\s+do\s+"
    r"(?:to|for)|(?:what(?:'s|\s+is|\s+are|\s+about)?\s+)?(?:the\s+)?"
    + alternation(_W.effect_nouns)
    + r"\s+(?:on|for)|(?:is|are)\s+(?P<s2>it|that|this|they)\s+"
    + alternation(_W.effect_judgements)
    + r"\s+for|does\s+(?P<s3>it|that|this)\s+"
    + alternation(_W.effect_pronoun_verbs)
    + r"|(?:is|does)\s+(?P<s4>that|this|it)\s+(?:also\s+)?"
    + alternation(_W.sameness, space=" ")
    + r"\s+(?:for|to)|what\s+"
    + alternation(_W.bearing_nouns)
    + r"\s+(?:does|do|would|will|might|could)\s+(?P<s5>it|this|that|they)\s+(?:have|make)\s+"
    r"(?:on|to|for)|"
    # "what does the research say about older students?", "and if you've got young kids?"
    r"what\s+(?:does|do)\s+(?:the\s+)?"
    + alternation(_W.evidence_nouns)
    + r"\s+"
    + alternation(_W.evidence_verbs, space=" ")
    + r"\s+(?:about|on|for|regarding)|"
    r"(?:what\s+)?if\s+(?:you|i|we|one|they)(?:'ve|'re|'m|\s+have|\s+are|\s+am)?"
    r"(?:\s+got)?)"
    r"\s+(?P<x>.+)$",
    re.I,
)

if TYPE_CHECKING:  # the judge imports the resolver settings: no import cycle at run time
    from assistant.understand.facet_judge import FacetJudge


_EFFECT_SUBJECT = frozenset(VOCAB.followup.effect_subject)


# "how it would affect waiting times", "what would this mean for rare disease research",
# "how does it work for children with dyslexia", "how the answer changes for smaller towns"
_EFFECT_CLAUSE = re.compile(
    _OPEN
    + r"(?:how|what)\s+(?:(?:does|do|would|will|did|might|could|is|are)\s+)?(?P<s>[\w'’\- ]+?)\s+"
    r"(?:(?:would|will|might|could|does|do|did)\s+)?"
    + alternation(_W.effect_clause_verbs)
    + r"\s+(?:(?:for|to|on|in)\s+)?(?P<x>.+)$",
    re.I,
)


# "what would it cost": the verb names the facet
_COST_CLAUSE = re.compile(
    _opening(_OPENERS.cost) + r"(?:what|how\s+much)\s+(?:would|will|does|did|might|"
    r"could)\s+(?:it|this|that|they)\s+(?P<x>cost)\s*[?.!]*$",
    re.I,
)


def _effect_object(x: str, previous: QueryPlan) -> str | None:
    """The object of an effect clause whose subject points back at the topic, or None."""
    m = _EFFECT_CLAUSE.match(x)
    if m is None:
        return None
    subject = [w for w in _words(m.group("s")) if not w.endswith("ing")]  # "paying them"
    if _residue(" ".join(subject), previous=previous, also=_EFFECT_SUBJECT | {"like"}):
        return None
    return m.group("x")


# "cheaper ones?": a property of the items wanted
_ONES = re.compile(r"^\s*(?P<a>[\w\-]+)\s+" + alternation(_W.item_nouns) + r"\s*[?.!]*$", re.I)


_FACET_LEAD = re.compile(r"^(?:" + alternation(every(_W.facet_leads)) + r"\s+)+", re.I)


_FACET_TAIL = re.compile(
    r"(?:[,]?\s+"
    + alternation(every(_W.facet_tails), _W.facet_tail_patterns, space=" ")
    + r")+\s*$",
    re.I,
)


_PREVIOUS_EDIT = re.compile(r"^add_perspective\b")


def _clean_facet(x: str) -> str:
    x = re.sub(r"[?.!]+\s*$", "", x.strip())
    x = _FACET_TAIL.sub("", x).strip()
    x = re.sub(
        r"\s+(?:between|for|among|to|on|with|of)\s+(?:them|it|us|each other|this|that)$",
        "",
        x,
        flags=re.I,
    )
    return _FACET_LEAD.sub("", x).strip(" ,")


# a phrase the user marks as a part of the answer ("the storytelling part")
_MARKED_FACET = re.compile(r"\s" + alternation(_W.marked_facet_nouns) + r"s?\s*[?.!]*\s*$", re.I)


# a population named by what its members have or do ("people with diabetes")
_POPULATION_FRAME = re.compile(
    r"^(?:the\s+)?"
    + alternation(_W.population_heads)
    + r"\s+"
    + alternation(_W.population_links)
    + r"\b",
    re.I,
)


# "are they expensive to run?", "is it legal though?": a question about the previous topic,
# its subject a pronoun, asks about a facet
_PRONOUN_QUESTION = re.compile(
    _opening(_OPENERS.pronoun_question) + r"(?:is|are|was|were|does|do|did|would|will|"
    r"can|could|isn't|aren't|doesn't|won't)\s+(?:it|they|this|that|these|those)\s+"
    r"(?:" + alternation(_W.pronoun_question_adverbs) + r"\s+)?(?P<x>[^,;:]+?)\s*[?.!]*\s*$",
    re.I,
)


_PRONOUN_VERBS = re.compile(r"^" + alternation(_W.pronoun_verbs) + r"\s+", re.I)


# "does back pain come into it?": a facet as the subject, the topic as the object
_COMES_INTO_IT = re.compile(
    _opening(_OPENERS.comes_into_it)
    + r"(?:does|do|did|would|will|should|is|are)\s+(?P<x>.+?)\s+"
    + alternation(_W.subject_cues)
    + r"\s*"
    + alternation(_W.subject_cue_tails)
    + r"?\s*[?.!]*\s*$",
    re.I,
)


def _pronoun_question(q: str, previous: QueryPlan) -> FollowUp | None:
    m = _COMES_INTO_IT.match(q)
    if m:
        return _facet(m.group("x"), previous, strong=True, back=True, perspective_next=False)
    m = _PRONOUN_QUESTION.match(q)
    if m is None:
        return None
    x = m.group("x")
    inf = re.search(r"\b(?:to|that|whether|if)\s+(?P<v>\w+)(?P<rest>.*)$", x, re.I)
    if inf:
        if inf.group(0).split()[0].lower() != "to":
            return None  # "is it true that …", "is it ok if …": a clause of its own
        if _residue(inf.group("rest"), previous=previous, also=fw.POPULATIONS):
            return None  # "is it ethical to eat octopus": an object of its own
    x = _clean_facet(_PRONOUN_VERBS.sub("", x.strip()))
    if not _content(x) or len(_content(x)) > 5:
        return None
    return _add_aspect(previous, x)


def _name_for_name(value: str, previous: QueryPlan) -> bool:
    """ "and in Prague?" after "Should Amsterdam limit new hotels?": a name where the
    previous topic has a name (a capitalised word not opening the sentence) puts one
    place or body in the place of another."""
    if not value[:1].isupper():
        return False
    prev = previous.root_query or previous.question
    toks = re.findall(r"[^\W\d_][\w'’\-]*", prev)
    names = [t for t in toks[1:] if t[:1].isupper() and t.lower() not in fw.FILLER]
    # a name a follow-up added ("how would it play out in Dublin", then "and in Lisbon?")
    names += [w for a in previous.aspects for w in a.text.split() if w[:1].isupper()]
    mine = {w.lower() for w in value.split()}
    return bool(names) and not mine & {n.lower() for n in names}


def _slot_taken(prep: str, rest: list[str], previous: QueryPlan) -> bool:
    """Does the previous topic already fill the slot "<prep> …" with something else
    ("and in Lima?" after "… in Mexico City")?"""
    prev = previous.root_query or previous.question
    for m in re.finditer(r"\b" + re.escape(prep) + r"\s+(?P<y>[\w\-' ]+)", prev, re.I):
        y = [w for w in _words(m.group("y"))[:4] if w not in fw.FILLER]
        if not y:
            continue
        named = [w for w in m.group("y").split() if w.lower() not in fw.FILLER][:1]
        capital = bool(named) and named[0][:1].isupper()  # a name: "in Mexico City"
        if {_stem(w) for w in y} & {_stem(w) for w in rest} or capital:
            return True
    return False


# a preposition that ends the head of a facet's phrase ("cost for families": "cost")
_HEAD_END = re.compile(r"\s+" + alternation(every(_W.head_prepositions)) + r"\s+")


def _facet(
    x: str,
    previous: QueryPlan,
    *,
    strong: bool,
    back: bool,
    perspective_next: bool,
    judge: FacetJudge | None = None,
) -> FollowUp | None:
    """The facet a phrase names, or None when it names a topic of its own. ``judge``:
    the embedder's reading of a phrase whose head no lexicon lists."""
    back = back or any(w in fw.POINTERS for w in _words(x))  # "the stress it causes"
    clean = _clean_facet(x)
    strong = strong or bool(_MARKED_FACET.search(x) or _POPULATION_FRAME.match(clean))
    x = clean
    if _CLAUSE.search(" " + x) or re.search(r"[,;:.!?]", x):
        return None  # "eggs, are they bad too?", "who wrote Emma": a predicate of its own
    words = _content(x)
    if not words or len(words) > (6 if strong else 4):
        return None
    first = _words(x)[0]
    if first in _PREPOSITIONS:
        rest = words
        value = re.sub(r"^\w+\s+(?:the\s+|a\s+|an\s+)?", "", x, flags=re.I)
        if (_slot_taken(first, rest, previous) or _name_for_name(value, previous)) and not back:
            return None  # a sibling: the same slot filled differently
        return _add_aspect(previous, value)
    if first in _REQUEST_VERBS:
        return None  # "add that": a request pointing back, no facet named
    if strong or back:
        return _add_aspect(previous, x)
    head_part = _HEAD_END.split(x, maxsplit=1)[0]
    head = (_words(head_part) or [""])[-1]
    topic = _topic_stems(previous)
    known = [w for w in words if _stem(w) in topic]
    foreign = [w for w in words if _stem(w) not in topic and not _is_facet(w) and not _is_person(w)]
    if known and foreign:
        return None  # a sibling: "wealth taxes" after "inheritance tax"
    if perspective_next and _is_role(head) and len(words) <= 3:
        return _add_perspective(previous, x)  # "and teachers?" after a group's view
    if _is_facet(head) or _is_person(head) or _is_person(words[0]) or not foreign:
        return _add_aspect(previous, x)
    if (
        judge is not None
        and not known
        and judge.is_facet(x, previous.root_query or previous.question)
    ):
        return _add_aspect(previous, x)  # a facet the lexicons do not list: "bees", "eye strain"
    return None


_WITH_OPEN = r"^\s*(?:" + alternation(_OPENERS.with_phrase) + r"\s+)?"


def _property(q: str, previous: QueryPlan) -> FollowUp | None:
    """ "with no ricotta", "without a garden": a property of what is wanted, unless what
    follows "with(out)" is a constraint's value ("without pdfs", "with no blogs")."""
    m = re.match(_WITH_OPEN + r"with(?:out)?\s+(?P<y>.+?)\s*[?.!]*$", q, re.I)
    if not m:
        return None
    if _names_constraint(re.sub(r"^(?:no|any)\s+", "", m.group("y"), flags=re.I)):
        return None
    if q.lower().lstrip().startswith("without") and _FACET_MARK.search(m.group("y")):
        return None  # "without the offside stuff": a facet of the answer dropped (rule 5)
    value = _clean_facet(re.sub(_WITH_OPEN + r"with\s+", "", q, flags=re.I))
    return _add_aspect(previous, value) if _content(value) else None


# a turn with the circumfix's start in it, and its close at the end of the facet
_CIRCUMFIX_STARTS = re.compile(r"^\s*(?:\w+\s+)*?" + alternation([_CIRCUMFIX.starts]), re.I)
_CIRCUMFIX_CLOSE = re.compile(r"\s+" + _CIRCUMFIX_END + r"\s*[?.!]*\s*$")


def _facet_edit(q: str, previous: QueryPlan, judge: FacetJudge | None) -> FollowUp | None:
    perspective_next = bool(_PREVIOUS_EDIT.match(previous.derivation))
    m = _ONES.match(q)
    if m and m.group("a").lower() not in fw.FILLER and m.group("a").lower() not in _LENGTH_WORDS:
        return _add_aspect(previous, m.group("a"))
    m = _COST_CLAUSE.match(q)
    if m:
        return _add_aspect(previous, m.group("x"))
    m = _EFFECT_FRAME.match(q)
    if m:
        subject = next((g for g in m.group("s", "s2", "s3", "s4", "s5", "s6") if g), "")
        if not _residue(subject, previous=previous, also=_EFFECT_SUBJECT | {"like"}):
            return _facet(m.group("x"), previous, strong=True, back=True, perspective_next=False)
    x = _effect_object(q, previous)
    if x is not None:
        return _facet(x, previous, strong=True, back=True, perspective_next=False)
    found = _pronoun_question(q, previous)
    if found:
        return found
    m = _STRONG_FRAME.match(q)
    if m:
        x = _effect_object(m.group("x"), previous) or m.group("x")
        found = _facet(x, previous, strong=True, back=False, perspective_next=False)
        if found:
            return found
    m = _WEAK_FRAME.match(q)
    x = m.group("x") if m else q
    if m and _CIRCUMFIX_STARTS.match(q):
        x = _CIRCUMFIX_CLOSE.sub("", x)  # "wie sieht es mit den Kosten aus?"
    if m is None and (_MORE_CUE.search(q) or len(_words(q)) > 5 or _DROP_VERB.match(q)):
        return None  # a facet alone is a short phrase, not a request to drop or page
    if m is None and len(_words(q)) > 3:
        judge = None  # the judge reads "what about bees?" and "pets?", not longer turns
    return _facet(
        x, previous, strong=False, back=False, perspective_next=perspective_next, judge=judge
    )


def _restated(text: str, previous: QueryPlan) -> FollowUp | None:
    """The previous question asked again with a facet added ("Does raising interest rates
    bring down inflation in developing countries?" after the same question without the
    place): every content word of it kept, one to four words of its own. Those words are
    the facet. A word in the place of another ("should schools teach coding?" after
    "… cursive?") or a name where the topic has a name is another topic."""
    q = unwrap(text)
    if not (q.rstrip().endswith("?") or _QUESTION_START.match(q)):
        return None
    prev = previous.root_query or previous.question
    p_stems = {_stem(w) for w in _content(prev)}
    toks = [(w, s, e) for w, s, e in _tokens(q) if w not in fw.FILLER and w not in fw.POINTERS]
    t_stems = {_stem(w) for w, _, _ in toks}
    if not p_stems or not p_stems <= t_stems:
        return None  # a word put in the place of another: "should schools teach coding?"
    new = [(w, s, e) for w, s, e in toks if _stem(w) not in p_stems]
    if not 1 <= len(new) <= 4:
        return None
    span = q[new[0][1] : new[-1][2]]
    if _name_for_name(span, previous) or _CLAUSE.search(" " + span):
        return None
    return _edit(
        previous,
        "add_aspect",
        span,
        Rule.RESTATED,
        [f"+ aspect {span}"],
        lambda plan: plan.aspects.append(Aspect(text=span)),
    )
