"""Follow-ups: a turn with no topic of its own is an edit of the previous turn's plan.

**The rule for "no topic of its own"** (tested in ``tests/test_followup.py``,
measured by ``sphere eval conversation``). A follow-up is the cue of one kind of
edit, the edit's value, and nothing else. What is left of the turn once its cue
and its value are taken out, the *residue*, must be made of filler words
(function words, request verbs, document nouns, courtesy: the lexicons of
:mod:`assistant.understand.followup_words`, in English, Spanish, German and
French), words pointing back ("it", "this") and words of the previous topic. A
word of its own in the residue is a topic of its own: the turn starts a new
thread.

Before the rules the turn is normalised: a cue word with two letters swapped is
repaired ("teh", "onyl", "remvoe"), and so is one typing slip in any word the
rules key on (:mod:`assistant.understand.spelling`: "exlude", "Spnaish"), an
informal spelling spelled out ("wat", "moar", "smth"), a label taken off ("New
question:", "Different angle:", "next."; a label announcing something new with
nothing after it pointing back, "next: vaping bans?", is a new topic), and a
turn of several sentences is read by its request, the sentences that only thank
("Thank you so much, that is very helpful.") or give a reason ("It looks like an
advert.") set aside.

The edits, tried in this order:

1. it points at the answer: a reference number ("why is [8] under Claim B?",
   "compare [2] and [8]", "drop [5]", "where does 4 come from", "quita la [3]");
   a number with a unit or a comparison ("under 800 words") is not a reference;
   after a question about one reference ("why is [5] there?"), "drop it" drops
   that one and "sorry, I meant 7" asks the same about 7;
2. it asks for more of the same ranking ("more from the other side", "show me
   more", "keep going", "más, por favor"); with no side named, the previous
   plan's side (both sides after a two-sided plan);
3. it narrows to one side of the previous claims: a stance cue of the question
   parser ("just the case against", "why do people oppose it?", "nur die
   Gegenargumente", "now the other side") whose scope is the previous topic or
   a pointer back ("pros and cons" names both sides; "what do dietitians
   recommend?", a stance verb with a group for subject, asks for a view);
4. it is made of constraint phrases only ("only stuff in Spanish", "nothing
   from blogs"), a constraint's value alone with its scope word counting as the
   phrase ("spanish only", "shorter ones", "no opinion pieces", "stick to
   clinical trials"); "with no ricotta", whose object names no constraint, is a
   property of what is wanted (a facet), read before the constraints. A value
   is negated by an excluding operator anywhere earlier in its clause ("skip the
   super technical stuff meant for specialists", "anything but spanish", "I
   can't read German", "nada em inglês"; "nothing but French" restricts); a
   source may be named ("reuters only", "published by the BBC", "anything from
   al jazeera", "the dairy industry"), a keyword said as a word ("with the word
   keto in it", "qui mentionne Macron"), a length spelled out ("under five
   hundred words", "a couple of pages", "5 min read max"), the readers stated
   ("my readers are kids", "for ten-year-olds"); the operators, scope words and
   a contrast at the end ("rather than adults") are the constraint's frame;
5. it drops a facet ("forget the cost part"; "leave it aside" about a facet of
   the previous plan that the turn names);
6. it asks for a group's view of the same topic ("what do teachers say?",
   "qu'en pensent les médecins ?"), or names a group alone ("landlords?");
7. it asks about a facet. After a request to narrow ("focus on animal welfare",
   "could you also cover …", "how does that affect students?") any short phrase
   is a facet. After "what about" / "and", or alone (a short phrase), the phrase
   is a facet when its head is a facet noun ("the upfront cost", "emergency
   response times") or names people ("high school athletes"), when all its words
   are the previous topic's, or when it points back ("its environmental impact",
   "the stress it causes") — unless it *substitutes* for part
   of the previous topic: it shares a word with it and adds one that is none of
   these ("what about wealth taxes?" after inheritance tax, "tax sugar?" after
   "tax meat?"), or its preposition fills a slot the previous topic already
   filled ("and in Lima?" after "… in Mexico City"). A group's name after a
   turn that asked for a group's view asks for another view ("and teachers?").

   The previous question asked again whole, with one to four words of its own
   ("Does raising interest rates bring down inflation in developing
   countries?"), asks about those words as a facet; a word in the place of one
   of its words ("should schools teach coding?" after "… cursive?") is another
   topic.

8. the rules found no edit, but the trained turn-kind model
   (:mod:`assistant.understand.turn_kind`, given with the facet judge) reads a
   request for more results or for one side at P >= 0.5, and the turn's words
   say the side (for "more", the side in force otherwise). A side named by a
   statement of its own ("only the ones saying servers would end up earning
   less") is the side whose claim the bundled stance model
   (:mod:`assistant.stance`) judges the statement to support, against the
   previous plan's two claims, when it judges it to support either;
9. the rules found no edit, but the model reads a constraint, a facet, a group's
   view or a dropped facet at ``LENIENT_P[kind]``, and a lenient reader of that
   kind finds its value: the constraint finders with words of the turn's own
   allowed beside them ("I'm not a native speaker, so anything in Portuguese
   would help"), the facet a frame names anywhere in the turn, innermost and up
   to the end of its clause ("could you also look at how it would work in rural
   areas, since I live in one" -> "rural areas"; without a frame, the turn's own
   words at a higher P), the group a view frame or a person noun names, the
   facet a drop names.

"The model" in rules 8 and 9 is the turn-kind regression and, where it ships
(``followup.reader: bundled``), the fine-tuned turn reader
(:mod:`assistant.understand.reader`, ``docs/TURN_READER.md``), their kind
distributions averaged (``READER.weight``). With the reader, rule 9 takes a
facet's, dropped facet's or group's words from the reader's span first (unless
rule 7's sibling tests make the span a sibling topic), a side no rule names is
the reader's (P >= ``READER.side_p``), and a constraint no finder reads takes the
reader's dimension and negation and that dimension's value from the turn's words
(``_guided_constraint``: "a class of thirteen-year-olds" -> audience teen).

A reading of rules 2-7 gets a second opinion: the model reading another kind at
P >= ``SECOND_OPINION_P`` (0.8) overrules it when that kind's reader finds a
value ("would you please focus on the arguments against it?" is a side, not a
facet), or, reading a new topic that sure, makes it one ("buy a house or
rent?"). A reference (rule 1) is never overruled. The thresholds were chosen on
the development sets, each held out in turn and read with a model trained on
the others.

Before rule 7's phrase is read, a question about the topic through a pronoun
("is it legal though?", "does back pain come into it?") asks about a facet; a
turn of a short comment and a request ("those feel shallow, only the long
ones") is read by its request.

Everything else is a new topic: in particular "what about nuclear power then?"
after a question on coal, whose words are neither a facet nor the previous
topic's, and "And is homeschooling better?", a question with a predicate of its
own, start a new thread.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from assistant import lexicon as lx
from assistant.models import Aspect, Constraint, QueryPerspective, QueryPlan, Side
from assistant.understand import followup_words as fw
from assistant.understand import spelling
from assistant.understand.constraints import find_constraints, not_implied
from assistant.understand.facet_judge import FacetJudge
from assistant.understand.intent import find_side_cues
from assistant.understand.perspectives import _BOTH_FACETS
from assistant.understand.text import check_question
from assistant.understand.values import (
    AUDIENCE_ADJECTIVES,
    AUDIENCES,
    FORMATS,
    LENGTH_WORDS,
    SOURCE_ADJECTIVES,
    ages,
    language_code,
    school_year,
)
from assistant.understand.vocab import VOCAB, inverse

EDITS = (
    "new_topic",
    "add_aspect",
    "drop_aspect",
    "add_constraint",
    "one_side",
    "add_perspective",
    "more",
    "explain_ref",
    "compare_refs",
    "drop_ref",
)
FACET_NOUNS = fw.FACET_NOUNS

Span = tuple[int, int]


@dataclass
class FollowUp:
    """What a turn makes of the previous plan: the edit, its value, the plan to run."""

    follows: bool
    edit: str
    value: Any = None
    plan: QueryPlan | None = None
    rule: str = ""  # which step of the rule decided (for the session log)
    changes: list[str] = field(default_factory=list)  # "+ constraint language es"


# --------------------------------------------------------------------------- words

_TOKEN = re.compile(r"[^\W_][\w'’\-]*")
_ELISION = re.compile(r"^(?:l|d|qu|j|n|s|c|m|t)'(?=\w)")


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Lower-cased words with their spans; French elisions ("l'impact") and English
    possessives ("drivers'", "journalist's") reduced to the word."""
    out = []
    for m in _TOKEN.finditer(text):
        w, start = m.group(0).lower().replace("’", "'"), m.start()
        e = _ELISION.match(w)
        if e and len(w) > e.end():
            w, start = w[e.end() :], start + e.end()
        if w.endswith("'s"):
            w = w[:-2]
        out.append((w.rstrip("'"), start, m.end()))
    return out


def _words(text: str) -> list[str]:
    return [w for w, _, _ in _tokens(text)]


@functools.lru_cache(maxsize=1)
def _stemmer() -> Any:
    import Stemmer

    return Stemmer.Stemmer("english")


@functools.lru_cache(maxsize=8192)
def _stem(word: str) -> str:
    return str(_stemmer().stemWord(word.lower()))


def _content(text: str) -> list[str]:
    return [w for w in _words(text) if w not in fw.FILLER and w not in fw.POINTERS]


def _topic_stems(previous: QueryPlan) -> frozenset[str]:
    """The stems of the previous topic's words (its question, facets and groups)."""
    text = " ".join(
        (
            previous.root_query,
            previous.question,
            *(a.text for a in previous.aspects),
            *(p.text for p in previous.perspectives),
        )
    )
    return frozenset(_stem(w) for w in _words(text) if w not in fw.FILLER)


def _residue(
    text: str,
    spans: Iterable[Span] = (),
    previous: QueryPlan | None = None,
    also: Iterable[str] = (),
) -> list[str]:
    """The words of ``text`` outside ``spans`` that are not filler, pointers, courtesy,
    words of ``also`` or (given the previous plan) words of the previous topic."""
    spans = list(spans)
    return [
        w
        for w, s, e in _own_tokens(text, previous, also)
        if not any(s < b and a < e for a, b in spans)
    ]


def _own_tokens(
    text: str, previous: QueryPlan | None = None, also: Iterable[str] = ()
) -> list[tuple[str, int, int]]:
    """The tokens of ``text`` (word, start, end) of its own: not filler, pointers,
    courtesy, words of ``also`` or (given the previous plan) words of the previous topic."""
    extra = set(also)
    topic = _topic_stems(previous) if previous is not None else frozenset()
    return [
        (w, s, e)
        for w, s, e in _tokens(text)
        if not (w in fw.FILLER or w in fw.POINTERS or w in fw.COURTESY or w in extra)
        and _stem(w) not in topic
    ]


@functools.lru_cache(maxsize=1)
def _facet_stems() -> frozenset[str]:
    return frozenset(_stem(w) for w in FACET_NOUNS)


def _is_facet(word: str) -> bool:
    """A facet noun, or a noun of a quality ("affordability", "loneliness")."""
    w = word.lower()
    quality = len(w) > 7 and w.endswith(("ability", "ibility", "iness", "ness"))
    return w in FACET_NOUNS or _stem(w) in _facet_stems() or quality


def _is_person(word: str) -> bool:
    w = word.lower()
    if w in fw.ANYONE:
        return False
    if w in fw.ROLES or w in fw.POPULATIONS:
        return True
    return any(
        w.endswith(e) and (len(w) == len(e) or w[: len(w) - len(e)].isalpha())
        for e in fw.ROLE_ENDINGS
    )


def _is_role(word: str) -> bool:
    """A group with a view of its own ("teachers", "beekeepers"), not a population."""
    return _is_person(word) and word.lower() not in fw.POPULATIONS


# --------------------------------------------------------------------------- normalising


_NUMBER_WORDS = {w: i for i, w in enumerate(VOCAB.grammar.number_words, start=1)}


def _repair(text: str) -> str:
    """Informal spellings spelled out and cue words with two adjacent letters swapped
    repaired ("wat about teh cost" -> "what about the cost")."""

    def fix(m: re.Match[str]) -> str:
        w = m.group(0)
        low = w.lower()
        if low in fw.SLANG:
            return fw.SLANG[low]
        if low in fw.CUE_WORDS or low in _NUMBER_WORDS or len(low) < 3:
            return w
        for i in range(len(low) - 1):
            t = low[:i] + low[i + 1] + low[i] + low[i + 2 :]
            if t != low and t in fw.CUE_WORDS:
                return t
        return _near_cue(low) or spelling.near_key(low) or w

    return re.sub(r"(?<![\w'])[A-Za-z]+(?![\w'])", fix, text)


@functools.lru_cache(maxsize=4096)
def _near_cue(low: str) -> str | None:
    """A long word one slip from a cue word ("begginers" -> "beginners"), not one of its
    inflections ("germans" stays)."""
    if len(low) < 7:
        return None
    import difflib

    for c in difflib.get_close_matches(low, sorted(fw.CUE_WORDS), n=1, cutoff=0.88):
        if not (low.startswith(c) or c.startswith(low) or low[:-1] == c[:-1]):
            return c
    return None


_SENTENCE = re.compile(
    r"(?<=[.!?;])\s+(?=\S)|,\s+so\s+(?=(?:could|would|can|it would|i'?d|i would|if you|"
    r"i'?m|i am)\b)|\s+and\s+(?=(?:i|she|he|we|they)(?:['’]d|\s+would|\s+want)\b)",
    re.I,
)
_CLAUSE_SPLIT = re.compile(r",\s+")
_QUESTION_START = re.compile(
    r"^\s*(?:is|are|was|were|should|shall|would|could|can|do|does|did|will|has|have|must|"
    r"what|why|how|who|which|where|when|whether)\b",
    re.I,
)


def _courtesy(sentence: str) -> bool:
    words = _words(sentence)
    return bool(words) and all(w in fw.COURTESY for w in words)


def _reaction(sentence: str) -> bool:
    """A sentence of thanks or a reaction to the answer ("Love this.", "I see.")."""
    words = _words(sentence)
    return bool(words) and all(w in fw.REACTION for w in words)


# polite and conversational wrappers around a follow-up ("Could you …, please?")
_WRAP_START = re.compile(
    r"^\s*(?:(?:thanks|thank you|great|ok(?:ay)?|cool|nice|hmm|right|so|and|now|well|"
    r"never mind|nvm|nah|nope|on (?:second thought|reflection)|in that case|actually|also|eh|hm|"
    r"furthermore|further|moreover|additionally|in addition|besides|scratch that|forget that|"
    r"gracias|merci|danke)[,.!]\s*|(?:thanks|thank you|ok(?:ay)?|so|and|now|well|also|eh|nah|"
    r"um|uh|uhm|erm|yeah|like|hmm|k|kk|idk|tbh|ngl|lol|hey|alright|right|pero|aber|"
    r"(?:no,?\s+)?(?:sorry,?\s+)?(?:i meant|i mean|what i meant was|oops,? i meant)|"
    r"on (?:second thought|reflection)|in that case|actually)\s+)*"
    # "I hope this isn't a silly question, but …", "not sure if this is allowed, but …"
    r"(?:[^.?!]{0,60}?\b(?:silly|dumb|stupid|naive|daft|sure|allowed|reasonable|bother)\b"
    r"[^.?!,]{0,40}?,?\s+but\s+)?"
    r"(?:(?:please|kindly|would you be so kind as to|would you mind|could you(?: please)?|"
    r"can you(?: please)?|would you(?: please)?|i would like(?: to)?|i'd like(?: to)?|"
    r"could i(?: please)?|can i|could we|can we|let's|lets|i want(?: to)?|"
    r"tell me|gimme|give me|give us|por favor|bitte|s'il (?:te|vous) pla[iî]t)\s+|"
    # a request verb that names no edit of its own ("pull up only sources in French")
    r"(?:pull up|dig up|bring up|dig out|find me|fetch|grab|look for|search for|hunt down|"
    r"track down)\s+(?=\S)|"
    # "I was wondering whether you might be able to …", "if at all possible, …"
    r"(?:i was wondering|i wonder|i'?d be (?:most |very |really )?grateful|"
    r"i'?d (?:be|also be) (?:particularly |really |very |most |especially |also )?interested in|"
    r"i wish you'?d|i wish you would|i (?:require|need)|we (?:require|need)|"
    r"i should like(?: to)?|i'?d (?:really )?appreciate (?:hearing|seeing|getting|reading)|"
    r"i'?d (?:love|like) to (?:also )?see|"
    r"(?:i'?d|i would) (?:like|want|prefer) (?:the (?:analysis|summary|answer|overview|"
    r"results?|report)|you|it|this) to|"
    r"it would be (?:nice|good|great|helpful|useful) to (?:have|see|get)|"
    r"it'?d be (?:nice|good|great|helpful|useful) to (?:have|see|get)|"
    r"(?:i'?d|i would) (?:like|love|want) to (?:hear|read|learn|know|find out|understand)"
    r"(?: (?:more|a bit|a little))?(?: about)?|"
    r"it would (?:really |also )?help(?: (?:a lot|greatly|me|a great deal))* if you could|"
    r"i would be (?:most |very |really )?grateful|if (?:at all )?possible|"
    r"is it possible|would it be possible|if you could|if it'?s not too much trouble|"
    r"do you mind|might you|could you possibly|would you be able|are you able|be able|possibly)"
    r"(?:\s+(?:whether|if)\s+you\s+(?:might|could|would|can)(?:\s+possibly)?)?"
    r"(?:\s+be\s+able)?(?:\s+to)?[,]?\s+)*",
    re.I,
)
_COURTESY_END = (
    r"(?:[,.]?\s*(?<![\w'])(?:please|pls|if you (?:don't|do not) mind|if possible|thanks|"
    r"thank you|now|too|as well|though|instead|tbh|lol|lmao|haha|ngl|imo|thx|in particular|"
    r"specifically|particularly|especially|exactly|tho|you know|svp|plz|"
    r"what'?s out there on (?:that|it|this)|"
    r",?\s*(?:is|are|does|do|would|will)\s+(?:it|this|that)\s+(?:\w+\s+){0,2}(?:for|to)\s+"
    r"(?:them|him|her|those|these)|"
    r"if you could (?:include|add|cover) (?:that|this|it)(?: as well| too)?|"
    r"por favor|bitte|s'il (?:te|vous) pla[iî]t|merci|gracias|danke|graag|grazie|obrigad[oa]))"
)
_WRAP_END = re.compile(
    # "interviews would be preferable, where available", "an FAQ would be even better"
    r"(?:\s+would be (?:even |much |far |most |really |very )?(?:best|ideal|preferable|better|"
    r"great|perfect|appreciated|helpful|good|nice|welcome|fine)"
    r"(?:,?\s+(?:where|if|when) (?:available|possible|you can(?: find (?:it|them|any|some))?))?"
    + _COURTESY_END
    + r"*|"
    + _COURTESY_END
    + r"+)\s*[.!?]*\s*$",
    re.I,
)


# a sentence before the request, which may be a reaction to the answer ("Love this.")
_LEAD_SENTENCE = re.compile(r"^\s*([^.!?]+[.!]+)\s+(?=\S)")


def unwrap(text: str) -> str:
    """The follow-up without its polite or conversational wrapper, and without reactions
    to the answer before it ("Love this. What about the cheating angle?")."""
    t = text
    for _ in range(3):
        m = _LEAD_SENTENCE.match(t)
        if m is None or not _reaction(m.group(1)):
            break
        t = t[m.end() :]
    t = _WRAP_START.sub("", t, count=1)
    t = _WRAP_END.sub("", t)
    return t.strip() or text.strip()


# --------------------------------------------------------------------------- plans


def _edit(
    previous: QueryPlan,
    edit: str,
    value: Any,
    rule: str,
    changes: list[str],
    apply: Callable[[QueryPlan], None] | None = None,
) -> FollowUp:
    plan = previous.copy()
    if apply is not None:
        apply(plan)
    plan.derivation = f"{edit}: " + "; ".join(changes)
    return FollowUp(True, edit, value, plan=plan, rule=rule, changes=changes)


def _page(previous: QueryPlan, side: str, rule: str) -> FollowUp:
    """More of a side's ranking. After a one-sided plan, paging the other side (or both)
    makes that the side the answer shows ("more from the other side" after "just the case
    for": the case against)."""

    def apply(plan: QueryPlan) -> None:
        if previous.intent == "one_sided" and side != previous.target_side:
            if side in ("pro", "con"):
                plan.target_side = side  # type: ignore[assignment]
            else:
                plan.intent, plan.target_side = "two_sided", None

    return _edit(previous, "more", side, rule, [f"+ page {side}"], apply)


def _one_side(previous: QueryPlan, side: Side, rule: str = "3 one side") -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.intent, plan.target_side = "one_sided", side

    return _edit(previous, "one_side", side, rule, [f"+ side {side}"], apply)


def _add_perspective(previous: QueryPlan, who: str) -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.perspectives.append(QueryPerspective(text=who, role="entity"))

    return _edit(
        previous, "add_perspective", who, "6 a group's view", [f"+ perspective {who}"], apply
    )


def _add_aspect(previous: QueryPlan, x: str) -> FollowUp:
    def apply(plan: QueryPlan) -> None:
        plan.aspects.append(Aspect(text=x))

    return _edit(previous, "add_aspect", x, "7 a facet", [f"+ aspect {x}"], apply)


def _con(c: Constraint) -> dict[str, Any]:
    return {"dimension": c.dimension, "value": c.value, "negated": c.negated}


def _one_sided(previous: QueryPlan) -> Side | None:
    if previous.intent == "one_sided" and previous.target_side in ("pro", "con"):
        return previous.target_side
    return None


def _other(side: Side) -> Side:
    return "con" if side == "pro" else "pro"


# --------------------------------------------------------------------------- 1 references

_REF_NOUN = (
    r"(?:ref(?:erence)?s?|source|sources|doc(?:ument)?|number|no\.|nr\.?|referencia|fuente|"
    r"quelle|r[ée]f[ée]rence|refer[eê]ncia|nummer|n[úu]mero|num[ée]ro|item|link|citation)"
)
_EXPLICIT_REF = re.compile(
    r"\[\s*(\d{1,3})\s*\]|#\s*(\d{1,3})\b|\b" + _REF_NOUN + r"\s*\[?\s*(\d{1,3})\b\]?", re.I
)
_BARE_NUMBER = re.compile(r"(?<![\w/.\-\[#])(\d{1,3})(?![\w/\]]|[.,]\d)")
# a number with a unit or a comparison is a quantity, not a reference ("under 800 words")
_UNIT_AFTER = re.compile(
    r"^\s*(?:%|percent|words?|pages?|min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?|years?|"
    r"yrs?|km|kms|miles?|kg|gb|mb|euros?|dollars?|pounds?|people|times|minutes?|-)",
    re.I,
)
_QUANTITY_BEFORE = re.compile(
    r"(?:under|over|than|least|most|up to|below|above|exceeding|around|approximately|age|aged|"
    r"[$£€])\s*$",
    re.I,
)
_REMOVE = re.compile(
    r"\b(?:drop|remove[ds]?|removing|delete|exclude|get rid of|set aside|put aside|pull|nix|"
    r"skip|ignore|scratch|take (?:(?:it|that|this|them)\s+)?(?:out|away)|"
    r"took (?:(?:it|that|this|them)\s+)?(?:out|away)|lose|hide|ditch|strike|bin|"
    r"leave (?:(?:it|that|this)\s+)?out|leaving out|cut|scrap|toss|kill|throw (?:(?:it|that)\s+)?"
    r"out|discard|omit|erase|quita|quitar|elimina|eliminar|borra|borrar|saca|sacar|"
    r"entferne|entfernen|lösche|löschen|streiche|streichen|supprime[rz]?|enl[eè]ve[rz]?|"
    r"retire[rz]?|ôte[rz]?|tira fuori|togli|rimuovi|elimina|cancella|remova|tire|tira|"
    r"apaga|tirar|tirem|retirar|forget|disregard|dismiss|vergeet|verwijder|haal)\b|"
    r"\b(?:no|without|minus|except|sin|ohne|sans|senza|sem)"
    r"(?=\s+(?:\[|#|ref(?:erence)?\s*\[?\d|source\s*\[?\d|number\s*\d))",
    re.I,
)
_COMPARE_CUE = re.compile(
    r"\b(?:compare|compared|comparing|contrast|difference|diff|differ|differs|different|versus|vs|"
    r"disagree|agree|same|which|contradict|contradicts|conflict|conflicts|consistent|match|"
    r"each other|both|vergleiche?|vergelijk|compara|comparar|confronta|comparer)\b",
    re.I,
)
_PAIR_LINK = re.compile(
    r"^\s*\]?\s*(?:(?:differ|differs|different|similar|compare[sd]?|contrast|stack up|compared|"
    r"disagree|"
    r"disagrees|agree|agrees|conflict|conflicts|contradict|contradicts|square|line up)\s+)?"
    r"(?:,|and|an|or|n|vs\.?|versus|&|with|to|from|et|und|y|e|en|against|(?<=[a-z] ))\s*"
    r"(?:(?:like|uh|um|erm|say)\s+)?"
    r"(?:\[|#|" + _REF_NOUN + r"\s*)?\s*$",
    re.I,
)
# the words a question about one bare reference number is made of ("why did you cite 7")
_REF_QUESTION = fw.FILLER | frozenset(VOCAB.followup.reference_question)


_ORDINALS = {w: i for i, w in enumerate(VOCAB.grammar.ordinals, start=1)}
_ORDINAL = (
    r"(?:" + "|".join(_ORDINALS) + r"|\d{1,2}(?:st|nd|rd|th)|\d{1,2}\.?(?:º|ª|e|er|ème|te|o|a))"
)
# "the fifth source", "the 3rd one", "lose the 5th", "the third and seventh sources"
_ORDINAL_REF = re.compile(
    r"(?:\bthe\s+|(?<=\band\s)|(?<=\bor\s)|(?<=\bvs\s)|(?<=&\s)|(?<=,\s))(?P<o>"
    + _ORDINAL
    + r")(?=\s+(?:one|source|sources|reference|references|ref|refs|link|links|document|"
    r"documents|article|articles|citation|citations|result|results|item|items|study|studies|"
    r"paper|papers|piece|entry)\b|\s+(?:and|or|vs|&)\s+(?:the\s+)?" + _ORDINAL + r"\b|"
    r"\s+(?:differ|differs|compare|agree|disagree|say|says|argue|argues|"
    r"contradict|conflict|seem|seems|look|looks)\b|"
    r"\s*(?:[?.!,;]|$))",
    re.I,
)


def _ordinal_number(word: str) -> int:
    low = word.lower()
    return _ORDINALS.get(low) or int(re.sub(r"\D", "", low))  # "3rd", "3.º" -> 3


def _quantity(text: str, start: int, end: int) -> bool:
    return bool(_UNIT_AFTER.match(text[end:]) or _QUANTITY_BEFORE.search(text[:start]))


_NUMBER_WORD = re.compile(
    r"(?:(?<=\bnumber )|(?<=\bno\. )|(?<=\bref )|(?<=\breference )|(?<=\bsource )|(?<=\bitem ))"
    r"one\b|\b(?:" + "|".join(w for w in _NUMBER_WORDS if w != "one") + r")\b",
    re.I,
)


def _digits(text: str) -> str:
    """Reference numbers spelled out as digits ("compare three and seven", "why is number
    six there"); "one" only after a reference noun ("the other one" is no reference)."""

    def digit(m: re.Match[str]) -> str:
        if re.search(
            r"\b(?:these|those|the|both|all|first|last|top|other)\s+$", text[: m.start()], re.I
        ):
            return m.group(0)  # "compare these two: 3 and 5"
        return str(_NUMBER_WORDS[m.group(0).lower()])

    return _NUMBER_WORD.sub(digit, text)


def _reference(text: str, previous: QueryPlan) -> FollowUp | None:
    text = _digits(text)
    explicit = [
        (int(next(g for g in m.groups() if g)), m.start(), m.end())
        for m in _EXPLICIT_REF.finditer(text)
    ] + [(_ordinal_number(m.group("o")), m.start(), m.end()) for m in _ORDINAL_REF.finditer(text)]
    explicit.sort(key=lambda f: f[1])
    bare = [
        (int(m.group(1)), m.start(), m.end())
        for m in _BARE_NUMBER.finditer(text)
        if not any(s <= m.start() < e for _, s, e in explicit)
        and not _quantity(text, m.start(), m.end())
    ]
    if len(explicit) == 1 and bare:
        _, _, end = explicit[0]
        linked_bare = [b for b in bare if b[1] >= end and _PAIR_LINK.match(text[end : b[1]])]
        if linked_bare:
            explicit = [explicit[0], linked_bare[0]]  # "sources 2 and 5", "[2] vs 5"
    found = explicit or bare
    numbers = list(dict.fromkeys(n for n, _, _ in found))
    remove = _REMOVE.search(text)
    if len(numbers) == 2 and not remove:
        a_end, b_start = found[0][2], found[-1][1]
        linked = bool(_PAIR_LINK.match(text[a_end:b_start]))
        short = len(_words(text)) <= 6
        if found is explicit or (linked and (short or _COMPARE_CUE.search(text))):
            return FollowUp(True, "compare_refs", numbers, rule="1 reference")
        return None
    if len(numbers) != 1:
        return None
    if not explicit and not remove:
        spans = [(s, e) for _, s, e in bare]
        if _residue(text, spans, also=_REF_QUESTION):
            return None  # "is 5 a prime number?": a number in a question of its own
    edit = "drop_ref" if remove else "explain_ref"
    return FollowUp(True, edit, numbers[0], rule="1 reference")


# --------------------------------------------------------------------------- 2 more

_MORE_CUE = re.compile(
    r"\b(?:more|further|additional|others|another|else|next|keep going|continue|go on|the rest|"
    r"encore|quelques-uns|d'autres|weitere|ancora|altri|outros|meer|"
    r"keep (?:them|those|it) coming|"
    r"remaining|(?:any|some)\s+other(?=\s+(?:arguments?|sources?|results?|views?|evidence|"
    r"studies|points|articles|ones)\b)|"
    r"más|mas|mais|ancora|altri|altre|outros|outras|otros|otras|mehr|weitere[nrs]?|weitere|"
    r"plus|encore|autres|più|piu|meer)\b",
    re.I,
)
_CON_WORDS = frozenset(VOCAB.sides.con_words)
_PRO_WORDS = frozenset(VOCAB.sides.pro_words)
_OTHER_SIDE = re.compile(
    r"\b(?:(?:the\s+)?other\s+(?:side|camp|view)|opposite|opposing|the other one|the contrary|"
    r"flip(?:\s+(?:it|that|sides?|the\s+sides?|around|over))+|(?:switch|swap)\s+sides|"
    r"the\s+flip\s+side|"
    r"otro lado|lado contrario|autre c[ôo]t[ée]|andere seite|gegenseite)\b",
    re.I,
)
_MORE_WORDS = frozenset(VOCAB.followup.more_words)


def _more(q: str, previous: QueryPlan) -> FollowUp | None:
    if not _MORE_CUE.search(q):
        return None
    both = _BOTH_SIDES.search(q)
    if both:  # "more for both positions please"
        if _residue(q, [both.span()], previous, also=_MORE_WORDS | {"for", "from", "on"}):
            return None
        return _page(previous, "both", "2 more")
    named = _arguments_side(q, previous)
    if named is not None:
        if _residue(q[: named[1]], previous=previous, also=_MORE_WORDS | {"material"}):
            return None
        return _page(previous, named[0], "2 more")
    if _residue(q, previous=previous, also=_MORE_WORDS | _CON_WORDS | _PRO_WORDS):
        return None
    words = set(_words(q))
    prev_side = _one_sided(previous)
    side: str | None = None
    if _OTHER_SIDE.search(q):
        side = _other(prev_side) if prev_side else None
    if side is None:
        con = bool(words & _CON_WORDS) or bool(_TERSE_SIDE["con"].search(q))
        pro = bool(words & _PRO_WORDS) or bool(_TERSE_SIDE["pro"].search(q))
        side = "con" if con and not pro else "pro" if pro and not con else None
    if side is None:
        side = prev_side or "both"
    return _page(previous, side, "2 more")


# --------------------------------------------------------------------------- 3 one side

_RESTRICT = re.compile(
    r"\b(?:only|just|solely|exclusively|merely|solo|sólo|solamente|únicamente|nur|"
    r"seulement|uniquement|soltanto|só|somente|apenas|alleen|enkel|uitsluitend)(?!\w)",
    re.I,
)
_TERSE_SIDE: dict[Side, re.Pattern[str]] = {
    "pro": re.compile(
        r"\b(?:pros?|in fav(?:ou)?r|a favor|en faveur|dafür|positive|supportive|optimistic|"
        r"favou?rable|vóór|yes(?=\s+(?:side|camp|case|arguments?|vote))|"
        # the claim by the letter the answer shows it under ("only claim A", "side A")
        r"(?:claim|side|column|position)\s+(?-i:A)(?![\w'])|(?<=for )(?-i:A)(?=\s*[?.!]*$)|"
        # "just yes", "more on the yes side", "only the yeses"
        r"(?<=just )(?:the\s+)?(?:yes|yeses|yes'?s)(?=\s*[?.!]*$)|"
        r"(?<=only )(?:the\s+)?(?:yes|yeses|yes'?s)(?=\s*[?.!]*$)|"
        r"(?<=more )(?:yes|yeses)(?=\s*[?.!]*$)|"
        r"(?<=argumenten )voor)\b|(?<=\s)vóór",
        re.I,
    ),
    "con": re.compile(
        r"\b(?:cons?|against|contras?|en contra|contre|contro|dagegen|sceptical|skeptical|critical|"
        r"negative|pessimistic|hostile|tegen|opposing|"
        r"no(?=\s+(?:side|camp|case|vote)\b)|contrary|"
        r"(?:claim|side|column|position)\s+(?-i:B)(?![\w'])|(?<=for )(?-i:B)(?=\s*[?.!]*$)|"
        # "just the no's", "more no", "only the noes"
        r"(?<=just )(?:the\s+)?(?:no|nos|no'?s|noes)(?=\s*[?.!]*$)|"
        r"(?<=only )(?:the\s+)?(?:no|nos|no'?s|noes)(?=\s*[?.!]*$)|"
        r"(?<=more )(?:no|nos|noes)(?=\s*[?.!]*$))\b",
        re.I,
    ),
}
# words that name a side, not a group ("the opposing view")
_SIDE_WORDS = frozenset(VOCAB.sides.side_words)
_SIDE_RESIDUE = frozenset(VOCAB.sides.side_residue)


# "the arguments that it's wrong" (con), "just the arguments that they are" (pro): a side
# named by restating or denying the previous claim
_ARGUMENTS_THAT = re.compile(
    r"\b(?:arguments?|case|evidence|reasons?|points?|side|view|material|ones|stuff|articles|"
    r"sources|people|those|studies)\s+(?:(?:that|which|who)\s+(?:(?:say|says|argue|argues|claim|"
    r"claims|show|shows|assert|asserts|find|finds|suggest|suggests|think|thinks|believe|"
    r"believes|feel|feels|reckon|reckons)"
    r"\s+)?|(?:saying|sayin|arguing|claiming|showing|asserting|stating|suggesting|finding|"
    r"thinking|believing|feeling)\s+)"
    r"(?:that\s+)?"
    r"(?:it|they|this|that)\s*(?:'s|’s|'re|’re|\s+is|\s+are|\s+was|\s+were|\s+does|\s+do|"
    r"\s+did|\s+will|\s+would|\s+can|\s+could|\s+wo(?=n't))?"
    r"(?P<neg>\s+not|n't|n’t)?(?:\s+(?:all|just|totally|really|so|actually)\b)?"
    r"(?:\s+(?:an?\s+)?(?P<adj>[\w\-]+(?:\s+idea)?))?"
    r"(?:\s+for\s+(?:them|him|her|us|you|people|kids|children|society|everyone|the\s+\w+))?"
    r"\s*[?.!]*$",
    re.I,
)
# "the side that says yes they do", "only the ones that say nah they don't"
_SAYS_YES = re.compile(
    r"\b(?:says?|saying|sayin|answers?|answering)\s+(?:that\s+)?(?P<yn>yes|yeah|yep|yup|no|nah|nope)"
    r"\b(?:[,]?\s+(?:it|they|this|that)\s*(?:'s|’s|'re|’re|\s+(?:is|are|does|do|did|will|would|"
    r"can|has|have)(?:n't|n’t|\s+not)?|(?:does|do|is|are|did)n['’]t))?\s*[?.!]*$",
    re.I,
)
# "the case for retaining the monarchy" after "should the monarchy be abolished?"
_FOR_VERBING = re.compile(
    r"\b(?:arguments?|case|side|ones|people|those|camp|view|position)\s+(?:for|in\s+favou?r\s+of)"
    r"\s+(?P<v>[a-z]+ing)\b",
    re.I,
)
# "the side that says keep them" after "should X be abolished?": a side named by a verb of
# the previous topic (pro) or by its opposite (con)
_SAYS_VERB = re.compile(
    r"\b(?:arguments?|case|side|ones|people|those|camp|view)\s+(?:that|which|who)\s+"
    r"(?:say|says|argue|argues|want|wants|claim|claims)\s+(?:(?:we|you|they|to)\s+)?"
    r"(?:(?:should|must|need\s+to|ought\s+to)\s+)?(?P<v>[a-z]+)\b"
    r"(?P<o>(?:\s+[\w\-'’]+){0,4}?)\s*[?.!]*$",
    re.I,
)
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
            or re.search(r"n[’']t\b|\b(?:not|no|never)\b", m.group("o"), re.I)
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
    if _residue(q[: found[1]], also=_SIDE_RESIDUE | {"focus", "stick", "concentrate"}):
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
        return ("con" if yes.group("yn").lower() in ("no", "nah", "nope") else "pro"), yes.start()
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
    side_noun = {
        "side",
        "view",
        "views",
        "take",
        "perspective",
        "camp",
        "arguments",
        "argument",
        "case",
        "reasons",
        "evidence",
        "claim",
        "column",
    } & {w for w, _, _ in toks}
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


# --------------------------------------------------------------------------- 4 constraints

_NEGATION = re.compile(
    r"\b(?:no|not|nothing|none|without|skip|skipping|exclude|excluding|avoid|avoiding|ignore|"
    r"ignoring|except|leave out|leaving out|aren't|isn't|don't want|do not want|sin|ohne|keine|"
    r"kein|sans|pas de|ni|cut|drop|remove|lose|ditch|get rid of|no more|geen)\s+"
    r"(?:(?:any|anything|stuff|content|results|articles|sources|documents|"
    r"that|which|are|is|from|on|by|in|the|all)\s+){0,4}$",
    re.I,
)
# kinds of document a source constraint names ("no opinion pieces", "stick to clinical trials")
_DOC_KINDS = (*VOCAB.values.source_nouns, *VOCAB.values.doc_kinds)
# kinds of document in the other languages users write, as their English kind (words
# that are English too, "journal", are left to the English lexicons)
_KIND_WORDS = inverse(VOCAB.values.kind_words)
_KIND_WORD = re.compile(r"\b(?:" + "|".join(_KIND_WORDS) + r")\b", re.I)
_DOC_KIND = re.compile(
    r"\b(?:" + "|".join(re.escape(k) for k in sorted(_DOC_KINDS, key=len, reverse=True)) + r")\b",
    re.I,
)
# generic document nouns: the scope of a constraint, never its value
_GENERIC_DOCS = frozenset(VOCAB.values.generic_docs)
_POSITIVE_SOURCE = re.compile(
    r"\b(?:only|just|stick(?:ing)? to|limit(?:ed)? (?:it |this |the \w+ )?to|"
    r"restrict(?:ed)? (?:it |this |the \w+ |everything )?to|"
    r"confine(?:d)? (?:it |this |the \w+ )?to|"
    r"solo|nur|seulement)\s+(?:the\s+|to\s+)?$",
    re.I,
)
_LENGTH_WORDS = LENGTH_WORDS
_LENGTH_PHRASES = dict(VOCAB.values.length_phrases)
_AUDIENCES = AUDIENCES
_AUDIENCE = re.compile(
    r"\b(?:for|at|to|aimed at|written for|suitable for|pitched at|para|für|pour|per|voor)\s+"
    r"(?:(?:like|say|um|uh|maybe|mostly|mainly)\s+)?(?:an?\s+|the\s+|my\s+|our\s+)?(?:(?:legal|medical|technical|scientific|financial|industry|"
    r"policy|clinical|subject|domain)\s+)?(?P<a>"
    + "|".join(re.escape(a) for a in sorted(_AUDIENCES, key=len, reverse=True))
    + r")\b",
    re.I,
)
_AUDIENCE_WORDS = re.compile(
    r"\b(?:in\s+)?(?P<a>"
    + "|".join(re.escape(a) for a in sorted(AUDIENCE_ADJECTIVES, key=len, reverse=True))
    + r")\b",
    re.I,
)
_KEYWORD = re.compile(
    r"\b(?:stuff|ones|sources|articles|documents|results|anything|things|material|pages|texts)\s+"
    r"(?:that|which)\s+(?:talks?|talking|discuss(?:es)?|deals?|refers?|covers?)\s+"
    r"(?:about\s+|with\s+|to\s+)?(?P<k>[\w\-]+(?:\s+[\w\-]+)?)\s*[.!?]*$",
    re.I,
)
# where a constraint's bare value may stand: at the end, or before a scope word or a
# document noun ("spanish only", "shorter ones", "pdfs please"), never before a noun
# it modifies ("the russian revolution", "no longer need")
_VALUE_NEXT = frozenset(
    (
        *_GENERIC_DOCS,
        *(w for d in VOCAB.requests.doc_nouns for w in d.split()),
        *VOCAB.followup.value_next,
    )
)
_CONSTRAINT_RESIDUE = frozenset(
    (*(w for d in VOCAB.requests.doc_nouns for w in d.split()), *VOCAB.followup.constraint_residue)
)


_PREPOSITION = re.compile(r"\b(?:for|at|to|from|by|in|für|para|pour|per|voor)\b", re.I)
# words that make a kind of document a kind of source ("the opinion pieces", "the
# government reports"), not a facet of the answer ("the productivity studies")
_SOURCE_MODIFIERS = frozenset(VOCAB.values.source_modifiers)


def _negated_scope(before: str) -> bool:
    """A negation before an audience phrase and its scope words ("nothing written for
    kids", "geen teksten voor kinderen"), not a negation inside it."""
    before = re.sub(
        r"(?:\b(?:written|aimed|meant|intended|pitched|geschrieben|escrito|écrit)\s+)?"
        r"(?:\b(?:for|at|to|voor|für|para|pour|per)\s+)?(?:\b(?:the|a|an|de|die|los|les)\s+)?$",
        "",
        before,
        flags=re.I,
    )
    before = re.sub(r"\b(?:texts?|teksten|stuff|things|material|articles|sources)\s*$", "", before)
    return bool(_NEGATION.search(before))


# an operator that excludes what follows it in its clause ("skip the super technical
# stuff meant for specialists", "anything but spanish", "I can't read German", "nada em
# inglês"); "only"/"just" after it starts a positive request again ("no, only Spanish")
_EXCLUDE = re.compile(
    r"\b(?:no|not|nothing|nothin|none|without|w/o|skip|skipping|exclude|excluding|except|"
    r"besides|other than|apart from|anything but|everything but|minus|avoid|avoiding|ignore|"
    r"ignoring|leave out|leaving out|leave off|omit|omitting|drop|remove|cut|lose|ditch|"
    r"get rid of|filter out|weed out|rather not|(?:can'?t|cannot|can not|don'?t|do not|never) "
    r"(?:read|understand|speak|stand|trust|use|want|need|come|include|show|give|cite|add)|"
    r"doesn'?t come|does not come|"
    r"aren'?t|isn'?t|wasn'?t|weren'?t|"
    r"don'?t want|sin|nada|ningún|ninguna|ninguno|excepto|menos|ohne|kein|keine|keinen|"
    r"nichts|außer|sans|pas de|pas d'|rien|aucun|aucune|sauf|niente|senza|nessun|nessuna|"
    r"tranne|sem|nenhum|nenhuma|exceto|geen|niets|zonder|behalve)(?![\w'])",
    re.I,
)
_POSITIVE = re.compile(
    r"\b(?:only|just|jsut|solely|exclusively|solo|solamente|sólo|nur|seulement|uniquement|"
    r"soltanto|apenas|somente|alleen|enkel)\b",
    re.I,
)
# "no more than", "not longer than": a bound, not an exclusion
_NOT_EXCLUDING = re.compile(
    r"\b(?:no|not) (?:more|longer|shorter|less|fewer|over|under|above|below|bigger|"
    r"greater)(?: than)?\s*$|\bnot (?:only|just)\b|\bno (?:matter|problem|worries)\b|"
    r"\bnot sure\b",
    re.I,
)
_CLAUSE_END = re.compile(
    r"[.;!?]\s|,\s+(?!\d)|(?<!anything)(?<!everything)(?<!all)\s(?:but|though|although|whereas)"
    r"\s(?!not\b)",
    re.I,
)


def _excluded(q: str, start: int) -> bool:
    """Whether the value at ``start`` is excluded by an operator earlier in its clause,
    with no "only" after the operator ("skip anything that's just a transcript" is
    excluded all the same: "just" after "anything that's" qualifies the thing)."""
    before = q[:start]
    ends = list(_CLAUSE_END.finditer(before))
    if ends:
        before = before[ends[-1].end() :]
    ops = [m for m in _EXCLUDE.finditer(before) if not _NOT_EXCLUDING.search(before[: m.end()])]
    if not ops:
        return False
    after = before[ops[-1].end() :]
    positive = _POSITIVE.search(after)
    return not (
        positive
        and not re.search(r"\b(?:that'?s|that is|which is|are)\s+$", after[: positive.start()])
    )


# "that mention the word 'methane'", "with the word keto in it", "anything mentioning
# Amazon", "qui mentionne Macron", "qui parlent de X", "mit dem Wort X"
_KEYWORD_WORD = re.compile(
    r"\b(?:(?:with|w|w/|containing|contain|contains|has|have|having|use|uses|using|"
    r"mention|mentions|mentioning)\s+)?"
    r"(?:the\s+(?:exact\s+)?(?:word|term|phrase|keyword)|"
    r"mentioning|that mentions?|which mentions?|mentions?|"
    r"qui mentionnent|qui mentionne|qui parlent de|qui parle de|"
    r"mit dem (?:wort|begriff)|die (?:das wort|den begriff)|"
    r"con la palabra|que mencion(?:a|an|en|e|am|em)|che menzionan[oa]|com a palavra|"
    r"met het woord|die (?:het woord)?)\s+"
    r"(?:(?:la|el|los|las|le|les|die|der|das|il|lo|o|a|de|het)\s+)?"
    r"(?P<k>['\"‘“]?[^\W\d_][\w\-]*['\"’”]?)"
    r"(?=\s*(?:in (?:it|them|the (?:text|title))|explicitly|anywhere|at all|somewhere)?\s*"
    r"(?:[.!?,]|\b(?:if|please|pls|thanks|lol)\b|$))",
    re.I,
)
_READ_MINUTES = re.compile(
    r"\b(?:an?\s+)?(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")[- ]?min(?:ute)?s?[- ]?"
    r"reads?\b(?:\s+(?:max|maximum|tops|at most))?",
    re.I,
)
# a source by name: "reuters only", "only from the bbc", "published by the BBC", "anything
# from al jazeera?", "leave out anything from greenpeace"
_NAMED_SOURCE = re.compile(
    r"(?:\b(?:from|by|published by|produced by|written by)\s+(?:the\s+)?"
    r"(?P<n>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*){0,2}?)"
    r"(?=\s*(?:only|please|pls|thanks|articles?|stories|reports?|pieces|coverage|content|"
    r"stuff|ones)?(?:\s+(?:on|about)\s+(?:this|that|it|the topic))?\s*(?:[.!?,]|$))"
    r"|^\s*(?:the\s+)?(?P<n2>[^\W\d_][\w&.\-]*(?:\s+[^\W\d_][\w&.\-]*)?)\s+only\b)",
    re.I,
)


@functools.cache
def _countries() -> frozenset[str]:
    return frozenset(c.lower() for c in lx.COUNTRIES)


def _named_source(name: str) -> bool:
    """A name of a source: not a word of the value lexicons (a place, a language, a kind
    of document, a group), not time, not a pointer."""
    words = name.lower().split()
    if not words or any(w in fw.POINTERS for w in words) or words[-1] in fw.FILLER:
        return False  # ("al jazeera", "le monde": an article of another language is part)
    low = " ".join(words)
    if re.search(
        r"\b(?:year|years|month|months|decade|decades|century|today|now|recent|"
        r"last|past|since|ago)\b",
        low,
    ):
        return False
    if low in _countries() or any(language_code(w) for w in words):
        return False
    if _DOC_KIND.fullmatch(low) or low in _GENERIC_DOCS or low in _AUDIENCES:
        return False
    closed = (_LENGTH_WORDS, FORMATS, _AUDIENCES, AUDIENCE_ADJECTIVES, _SIDE_WORDS)
    if any(w in vocab for w in words for vocab in closed):
        return False
    if any(w in ("side", "sides", "both", "angle", "view", "views", "perspective") for w in words):
        return False
    if words[-1] in _ORG_NOUNS and len(words) > 1:
        return True  # "the dairy industry", "the meat lobby"
    return not any(_is_facet(w) or _is_person(w) or _is_role(w) for w in words)


_ORG_NOUNS = frozenset(VOCAB.values.org_nouns)


def _source_name(name: str) -> str:
    """A named source as a value: lower case; an English plural noun typed in lower case
    in the singular, as kinds are written ("the tabloids" -> "tabloid"); a name left as
    it is ("reuters", "the Times")."""
    low = name.lower()
    if (
        name.islower()
        and " " not in low
        and low.endswith("s")
        and low[:-1] in spelling.dictionary()
    ):
        return low[:-1]  # (a capital says a name: "the Times")
    return low


_PRAISE = re.compile(
    r"\b(?:this|that|it|which|they|these|those)(?:'s|’s| is| was| are| were| looks?| seems?)\s+"
    r"(?:(?:very|really|so|super|quite|pretty|extremely|incredibly|nice and|wonderfully|"
    r"impressively|admirably|and)\s+)*$",
    re.I,
)


def _bare_constraints(q: str, taken: list[Span]) -> tuple[list[Constraint], list[Span]]:
    """A constraint's value alone with its scope word ("spanish only", "just transcripts",
    "shorter ones", "no opinion pieces", "stick to clinical trials"): in a turn with no
    topic of its own the value says the dimension."""
    cons: list[Constraint] = []
    spans: list[Span] = []
    toks = _tokens(q)

    def free(s: int, e: int) -> bool:
        return not any(s < b and a < e for a, b in (*taken, *spans))

    def negated(s: int) -> bool:
        return bool(_NEGATION.search(q[:s])) or _excluded(q, s)

    def standing(i: int) -> bool:
        """The value at token ``i`` stands alone (not a modifier of a noun after it; "any
        FAQs about it" stands)."""
        if i + 1 >= len(toks) or toks[i + 1][0] in _VALUE_NEXT:
            return True
        return toks[i + 1][0] in ("about", "on", "regarding", "for") and (
            i + 2 >= len(toks) or toks[i + 2][0] in fw.POINTERS
        )

    def add(dim: str, value: str, s: int, e: int, neg: bool) -> None:
        # audience, format and a length word re-weight, as the question parser has them
        hard = dim in ("language", "keyword", "source")
        if free(s, e):
            cons.append(Constraint(dim, value, negated=neg, hard=hard, text=q[s:e]))
            spans.append((s, e))

    for m in _KEYWORD_WORD.finditer(q):
        add("keyword", m.group("k").strip("'\"‘’“”"), m.start(), m.end(), negated(m.start()))
    for audience, start, end in ages(q):
        add("audience", audience, start, end, False)
    for m in _NAMED_SOURCE.finditer(q):
        g = "n" if m.group("n") else "n2"
        if _named_source(m.group(g)):
            add("source", _source_name(m.group(g)), m.start(g), m.end(g), negated(m.start()))
    for m in _KIND_WORD.finditer(q):
        if negated(m.start()) or _POSITIVE.search(q[: m.start()]):
            add("source", _KIND_WORDS[m.group(0).lower()], m.start(), m.end(), negated(m.start()))
    for m in _READ_MINUTES.finditer(q):  # "5 min read max", "a ten-minute read"
        n = _NUMBER_WORDS.get(m.group("n").lower()) or int(m.group("n"))
        add("length", "short" if n <= 10 else "long", m.start(), m.end(), negated(m.start()))
    for m in _AUDIENCE.finditer(q):
        add("audience", _AUDIENCES[m.group("a").lower()], m.start(), m.end(), False)
    for m in _AUDIENCE_WORDS.finditer(q):  # "in plain language", "technical ones"
        after = _words(q[m.end() :])[:1]
        if not after or after[0] in _VALUE_NEXT:
            add("audience", AUDIENCE_ADJECTIVES[m.group("a").lower()], m.start(), m.end(), False)
    for phrase, value in _LENGTH_PHRASES.items():
        for m in re.finditer(r"\b" + phrase + r"\b", q, re.I):
            add("length", value, m.start(), m.end(), False)
    for m in _KEYWORD.finditer(q):
        add("keyword", m.group("k"), m.start(), m.end(), negated(m.start()))
    for m in _DOC_KIND.finditer(q):
        # the kind and up to two words before it that are not filler ("opinion pieces")
        i = next((k for k, t in enumerate(toks) if t[2] > m.start()), None)
        if i is None:
            continue
        j = i
        while (
            j > 0
            and i - j < 2
            and toks[j - 1][0] not in fw.FILLER
            and not _EXCLUDE.fullmatch(toks[j - 1][0])
            and not _POSITIVE.fullmatch(toks[j - 1][0])
            and toks[j - 1][0] not in _ASKS
            and toks[j - 1][0] not in ("out", "off", "of", "aside", "away")  # "leave out"
        ):
            j -= 1
        s0 = toks[j][1]
        np = q[s0 : m.end()]
        words = np.split()
        if np.lower() in _GENERIC_DOCS or not free(s0, m.end()) or words[0] in _LENGTH_WORDS:
            continue
        if any(language_code(w) for w in words):
            continue  # "Spanish sources" name a language
        neg = negated(s0)
        if not neg and not _POSITIVE_SOURCE.search(q[:s0]):
            continue
        value = np
        if len(words) > 1 and words[-1].lower() in ("sources", "sites", "websites", "source"):
            value = " ".join(words[:-1])  # "news sites" -> "news", as the parser reads it
        elif len(words) == 1 and np.lower() in lx.SOURCE_NOUNS:
            value = np[:-1] if np.endswith("s") else np  # "forums" -> "forum"
        value = SOURCE_ADJECTIVES.get(value.lower(), value)
        add("source", value.lower(), s0, m.end(), neg)
    for m in re.finditer(
        r"\b(?P<a>" + "|".join(map(re.escape, SOURCE_ADJECTIVES)) + r")\b", q, re.I
    ):
        neg = negated(m.start())
        if neg or _POSITIVE_SOURCE.search(q[: m.start()]):
            add("source", SOURCE_ADJECTIVES[m.group("a").lower()], m.start(), m.end(), neg)
    for i, (w, s, e) in enumerate(toks):
        if not free(s, e) or not standing(i):
            continue
        if _PRAISE.search(q[:s]):
            continue  # "this is very thorough": praise of the answer, not a request
        if w in _LENGTH_WORDS and (
            not negated(s) or i + 1 == len(toks) or toks[i + 1][0] in _VALUE_NEXT
        ):
            add("length", _LENGTH_WORDS[w], s, e, negated(s))  # "nothing long"
        elif w in FORMATS or (w.endswith("s") and w[:-1] in FORMATS):
            add("format", FORMATS.get(w) or FORMATS[w[:-1]], s, e, negated(s))
        elif w in lx.SOURCE_SITES and (
            negated(s) or _POSITIVE.search(q) or re.search(r"\b(?:from|on|off)\s+$", q[:s], re.I)
        ):
            add("source", w, s, e, negated(s))  # ("Ban Instagram?" names no source)
        elif len(w) >= 4 and w not in fw.FILLER:
            code = language_code(w.removesuffix("-language"))
            if code is not None:
                add("language", code, s, e, negated(s))
    return cons, spans


_ARTICLES = frozenset(VOCAB.grammar.articles)
_DOC_SINGULAR = frozenset(VOCAB.values.doc_singular)


def _normalised(q: str, c: Constraint, span: Span) -> Constraint:
    """A constraint as a follow-up means it: a file type named as a source is a format
    ("skip the PDFs"), a source kind in the singular and lower case ("keine Blogs" ->
    "blog"), a value excluded by an operator earlier in its clause ("anything but
    spanish", "I can't read German"), a length, audience or format negated by a word
    before its scope ("no long reads", "nothing written for kids"), and an excluded
    bound turned round ("omit documents exceeding 2,000 words" -> ``<2000``)."""
    if c.dimension == "source":
        low = c.value.lower()
        if low in _ARTICLES:  # "sans les blogs": the article alone was taken for the name
            after = _words(q[span[0] : span[1]])
            low = after[-1] if after and after[-1] not in _ARTICLES else low
        if low.endswith("ies") and low[:-3] + "y" in _DOC_SINGULAR:
            low = low[:-3] + "y"  # "only studies" -> study
        if low in FORMATS:
            c = dataclasses.replace(c, dimension="format", value=FORMATS[low], hard=False)
        else:
            if low in lx.SOURCE_NOUNS and low.endswith("s") and low[:-1] in lx.SOURCE_NOUNS:
                low = low[:-1]  # a kind, as the parser writes it
            low = _KIND_WORDS.get(low, low)  # "keine Zeitungen" -> newspaper
            c = dataclasses.replace(c, value=low)
    if not c.negated and (
        _excluded(q, span[0])
        or (c.dimension in ("length", "audience", "format") and _negated_scope(q[: span[0]]))
    ):
        c = dataclasses.replace(c, negated=True)
    bound = re.fullmatch(r"([<>])\s*(\d+)", c.value.strip()) if c.dimension == "length" else None
    if bound and c.negated:
        # "omit documents exceeding 2,000 words": what is wanted is under 2,000
        flip = "<" if bound.group(1) == ">" else ">"
        c = dataclasses.replace(c, value=flip + bound.group(2), negated=False)
    return c


_SPELLED_HUNDREDS = re.compile(
    r"\b(?P<n>" + "|".join(_NUMBER_WORDS) + r"|a|one)\s+(?P<u>hundred|thousand)\b", re.I
)
_FEW = re.compile(
    r"\b(?:a couple of|a couple|couple of|a few|a handful of)"
    r"(?=\s+(?:pages?|minutes?|paragraphs?))",
    re.I,
)
# "pitched at children rather than adults", "html pages than anything else"
_RATHER_THAN = re.compile(
    r"\s*,?\s*(?:rather than|instead of|than|not|over) (?:the |any |anything |everything )?"
    r"(?:else|[\w\-]+(?: [\w\-]+)?)\s*[.!?]*\s*$",
    re.I,
)
# "My readers are kids, around 9 or 10", "our audience is mostly parents"
_READERS_ARE = re.compile(
    r"\b(?:my|our|the) (?:readers|readership|audience|class|students|listeners|viewers|"
    r"target audience|target group|kids|pupils) (?:are|is|will be) (?:(?:mostly|all|mainly|"
    r"largely|just|only)\s+)?(?:an?\s+|the\s+)?(?P<a>[\w\-]+(?: [\w\-]+)?)"
    r"(?P<age>,?\s*(?:around|about|aged|age|ages)?\s*\d{1,2}(?:\s*(?:or|to|-|and)\s*\d{1,2})?"
    r"(?: years old)?)?",
    re.I,
)


def _kind_as_source(c: Constraint, said: bool = False) -> Constraint:
    """A keyword that names a kind of document is a source ("without the forum posts",
    "minus the wiki stuff" -> forum, wiki), one that names a language a language
    ("everything except German"); "the word 'methane' explicitly" -> methane. ``said``:
    the keyword was said as a word ("mentioning Instagram"), and stays one."""
    if c.dimension != "keyword":
        return c
    v = re.sub(r"^(?:the\s+)?(?:word|term|phrase)\s+", "", c.value.strip(), flags=re.I)
    v = re.sub(r"\s+(?:explicitly|anywhere|at all|in (?:it|them))$", "", v, flags=re.I)
    v = v.strip("'\"‘’“” ")
    if said:
        return dataclasses.replace(c, value=v) if v else c
    kind = re.sub(
        r"\s+(?:stuff|ones|things|posts|content|material|pages|articles)$", "", v, flags=re.I
    )
    code = language_code(v) if " " not in v else None
    if code:  # "everything except German"
        return dataclasses.replace(c, dimension="language", value=code, hard=True)
    if _DOC_KIND.fullmatch(kind) or kind.lower() in lx.SOURCE_SITES:
        low = kind.lower()
        value = low[:-1] if low.endswith("s") and low[:-1] in _DOC_KINDS else low
        return dataclasses.replace(c, dimension="source", value=value)
    return dataclasses.replace(c, value=v) if v else c


_HEDGED_NUMBER = re.compile(
    r"\b(?P<op>under|over|below|above|less than|more than|fewer than|at most|at least|max|"
    r"maximum|min|minimum|no more than|no longer than|up to)\s+(?:like|maybe|around|about|"
    r"roughly|approx(?:imately)?|say|~)\s+(?=\d)",
    re.I,
)


def _spelled(q: str) -> str:
    """Numbers of a length written as words, as digits ("under five hundred words" ->
    "under 500 words", "a couple of pages" -> "2 pages"; "exceed 3,000 words" -> "over")."""

    def hundreds(m: re.Match[str]) -> str:
        n = m.group("n").lower()
        k = 1 if n in ("a", "one") else _NUMBER_WORDS[n]
        return str(k * (100 if m.group("u").lower() == "hundred" else 1000))

    q = _SPELLED_HUNDREDS.sub(hundreds, q)
    q = _FEW.sub(
        lambda m: "3" if "few" in m.group(0).lower() or "handful" in m.group(0) else "2", q
    )
    q = _HEDGED_NUMBER.sub(lambda m: m.group("op") + " ", q)
    return re.sub(r"\bexceeds?(?=\s+\d)", "over", q, flags=re.I)


_FORMAT_NAMES = frozenset(FORMATS)


def _same(c: Constraint) -> tuple[str, str, bool]:
    """What makes two constraints the same one."""
    return c.dimension, c.value.lower(), c.negated


# a keyword said as one ("mentioning Instagram", "with the word keto") stays a keyword
_MENTIONED = re.compile(
    r"^\s*(?:that\s+|which\s+)?(?:mention|mentions|mentioning|mentioned|with\s+the\s+(?:word|term)|"
    r"containing|contains|naming|that\s+names?|citing)\b",
    re.I,
)
_ASKS = frozenset(VOCAB.followup.asks)
# "cut everything that isn't in Spanish": an exclusion of what is not, a restriction
_EXCLUDE_WHAT_IS_NOT = re.compile(
    r"\b(?:cut|remove|drop|exclude|skip|filter\s+out|leave\s+out|get\s+rid\s+of|lose|ditch|"
    r"hide|toss|ignore)\s+(?:everything|anything|all|whatever|stuff|those|the\s+ones|ones|"
    r"documents|sources|articles|results)\s+(?:that|which|what)?\s*(?:is|are)(?:n['’]t|\s+not)\b",
    re.I,
)


def _constraint_edit(q: str, previous: QueryPlan, lenient: bool = False) -> FollowUp | None:
    """Rule 4. ``lenient`` (rule 9): words of the turn's own beside the constraints are
    allowed."""
    q = _spelled(q)
    cons, spans = find_constraints(q, wh_factual=False)
    more, more_spans = _bare_constraints(q, list(spans))
    cons, spans = [*cons, *more], [*spans, *more_spans]
    readers = _READERS_ARE.search(q)
    if readers and readers.group("a").lower() in _AUDIENCES:
        s0, e0 = readers.span()
        if not any(a < e0 and s0 < b for a, b in spans):
            cons.append(
                Constraint("audience", _AUDIENCES[readers.group("a").lower()], text=q[s0:e0])
            )
            spans.append((s0, e0))
    if not cons:
        return None
    # the operators' own words ("anything but", "I can't read", "nada") and a contrast at
    # the end ("rather than adults") are the constraint's frame
    frame = [m.span() for m in _EXCLUDE.finditer(q)] + [m.span() for m in _POSITIVE.finditer(q)]
    contrast = _RATHER_THAN.search(q)
    if contrast and not any(a < contrast.end() and contrast.start() < b for a, b in spans):
        frame.append(contrast.span())  # ", not doctors" after "just stuff for regular people"
    # a value word said twice over ("interview transcripts", "slides or a presentation")
    said = _FORMAT_NAMES if any(c.dimension == "format" for c in cons) else frozenset()
    if not lenient and _residue(q, [*spans, *frame], previous, also=_CONSTRAINT_RESIDUE | said):
        return None
    cons = [
        _kind_as_source(c, said=bool(_MENTIONED.match(q[a:b])))
        for c, (a, b) in zip(cons, spans, strict=True)
    ]
    # a generic document noun or a request verb is no source ("exclude opinion pieces from
    # the sources", "can you only show me sources from the European Commission")
    keep = [
        not (
            c.dimension == "source"
            and (c.value.lower() in _GENERIC_DOCS or (_words(c.value) or [""])[0] in _ASKS)
        )
        for c in cons
    ]
    if not all(keep) and any(keep):
        cons = [c for c, k in zip(cons, keep, strict=True) if k]
        spans = [sp for sp, k in zip(spans, keep, strict=True) if k]
    elif not any(keep) and lenient:
        return None
    if any(c.dimension == "keyword" and _FACET_MARK.search(c.value) for c in cons):
        return None  # "don't include the noise stuff": a facet to drop, not a word
    topic = _topic_stems(previous)
    for c, (s0, e0) in zip(cons, spans, strict=True):
        words = _content(q[s0:e0])
        if (
            c.dimension in ("audience", "length")
            and words
            and not _PREPOSITION.search(q[s0:e0])
            and {_stem(w) for w in words} <= topic
        ):
            return None  # "the trails need not be beginner-friendly": the topic's own
        if c.dimension == "source" and re.search(r"\bthe\s+$", q[:s0], re.I):
            mods = [w for w in words if not _DOC_KIND.fullmatch(w)]
            if mods and not set(mods) & _SOURCE_MODIFIERS and all(_is_facet(w) for w in mods):
                return None  # "leave out the productivity studies": a facet of the answer
    cons = [_normalised(q, c, span) for c, span in zip(cons, spans, strict=True)]
    twice = _EXCLUDE_WHAT_IS_NOT.search(q)
    if twice:
        cons = [
            dataclasses.replace(c, negated=False) if c.negated and sp[0] >= twice.start() else c
            for c, sp in zip(cons, spans, strict=True)
        ]
    # (a negation before a length, audience or format is read there, for both readers)
    # "only long ones, 2000+ words": the bare word and the number are one constraint
    cons = [c for c, keep in zip(cons, not_implied(cons), strict=True) if keep]
    # "the super technical stuff meant for specialists": one audience said twice
    once = {_same(c): c for c in reversed(cons)}
    cons = [c for c in cons if once[_same(c)] is c]
    have = {_same(c) for c in previous.constraints}
    new = [c for c in cons if _same(c) not in have]

    def apply(plan: QueryPlan) -> None:
        plan.constraints.extend(new)

    value = [_con(c) for c in cons]
    changes = [f"+ constraint {c.dimension} {'not ' if c.negated else ''}{c.value}" for c in new]
    return _edit(
        previous,
        "add_constraint",
        value[0] if len(value) == 1 else value,
        "4 constraints only",
        changes,
        apply,
    )


# --------------------------------------------------------------------------- 5 drop a facet

_DROP_VERB = re.compile(
    r"\b(?P<v>forget(?: about)?|drop|ignore|skip|leave out|leave aside|set aside|"
    r"lose|scrap|bin|scratch|ditch|nix|toss|get rid of|spike|kill|"
    r"take(?= (?:the |that |this )?[\w\- ]{1,40}? (?:back )?out\b)|"
    r"leave(?= (?:the |that |this )?[\w\- ]{1,40}? out of (?:it|this|that|the \w+)\b)|"
    r"(?:leave|set|put) (?:it|that|this|them) (?:out|aside)|"
    r"(?:leave|set|put|take|keep)(?= (?:the|that|this|those) (?:[\w\- ]{1,40}? )?(?:part|bit|stuff|"
    r"side|angle|aspect|thing) (?:out|aside)\b)|never ?mind|without(?= the [\w\- ]{1,40}? "
    r"(?:part|bit|stuff|side|angle|aspect|thing)s?\b)|"
    r"no longer (?:need|want|care about)|(?:do not|don't|dont) (?:need|want|care about)|"
    r"not interested in|(?:i'?m|i am) not interested in|remove|no more|"
    r"stop (?:with|focusing on|talking about)|disregard|omit|no need for|"
    r"(?:do not|don't|dont) (?:include|cover|discuss|bother with)|"
    r"(?:need|needs|have to|has to) not be|(?:do not|don't|does not|doesn't) (?:need|have) to be|"
    r"olvida(?:te)?(?: de)?|olvídate(?: de)?|quita|vergiss|oublie[z]?|laisse[z]? tomber|"
    r"lass|lasst|lascia(?:te)? (?:perdere|stare)|togli|esquece|deixa de lado|tira)\b"
    r"\s*(?P<x>.*)$",
    re.I,
)
_DROP_OBJECT_START = re.compile(
    r"^(?:(?:about|the|a|an|lo|del|de|la|el|los|las|die|der|das|den|le|les|l'|"
    r"discussion of|part about|stuff about|bit about|parte de|tema de|teil mit|partie sur)\s+)+",
    re.I,
)
_DROP_OBJECT_END = re.compile(
    r"(?:\s+(?:part|bit|aspect|angle|stuff|thing|question|considerations?|requirement|issue|"
    r"side|parte|tema|teil|partie|aspekt|discussion|studies|one))+$",
    re.I,
)
# words that mark a phrase as a facet of the answer ("the cost part", "the noise stuff")
_FACET_MARK = re.compile(
    r"\s(?:part|bit|aspect|angle|stuff|thing|side|question|considerations?|discussion)$", re.I
)
_PRONOUN_OBJECT = re.compile(r"^(?:it|that|this|them|those|lo|eso|das|ça|cela)?$", re.I)


def _drop_aspect(text: str, previous: QueryPlan) -> FollowUp | None:
    no = re.fullmatch(
        r"\s*(?:no|not|without|no more|less)\s+(?:the\s+)?"
        r"(?P<x>[^\W\d_][\w\-]*(?:\s+[\w\-]+){0,2}?)"
        r"(?:\s+(?:part|bit|stuff|angle|aspect|please|pls|after all|then))*\s*[?.!]*\s*",
        text,
        re.I,
    )
    if no:  # "no turnout" after "turnout?": a facet of the plan taken back
        stems = {_stem(w) for w in _content(no.group("x"))}
        for a in previous.aspects:
            if stems and stems <= {_stem(w) for w in _content(a.text)}:
                x = no.group("x")
                return _edit(
                    previous,
                    "drop_aspect",
                    x,
                    "5 drop a facet",
                    [f"- aspect {x}"],
                    lambda plan: _without(plan, stems),
                )
    t = re.sub(
        r"^\s*(?:never mind|nvm)[,.]?\s+(?=(?:skip|drop|forget|ignore|remove|leave|lose)\b)",
        "",
        text,
        flags=re.I,
    )
    m = _DROP_VERB.search(t)
    if m is None:
        return None
    obj = _DROP_REASON.split(m.group("x"))[0]  # "skip the pdfs my phone hates em"
    obj = re.sub(
        r"(?:\s+back)?\s+(?:out|aside|weg)(?:\s+of\s+(?:it|this|that|the \w+))?"
        r"(?:\s+(?:again|now|please|too))?\s*$",
        "",
        obj,
        flags=re.I,
    )
    obj = _DROP_OBJECT_START.sub("", obj.strip())
    marked = bool(_DROP_OBJECT_END.search(obj))  # "the academic results part": a facet
    while True:
        trimmed = _DROP_OBJECT_END.sub("", obj).strip(" .")
        trimmed = re.sub(
            r"\s+(?:now|please|pls|too|then|anymore|any more|thanks|again|after all|"
            r"altogether|entirely)$",
            "",
            trimmed,
        )
        if trimmed == obj:
            break
        obj = trimmed
    if re.search(r"\d", obj) or _CLAUSE.search(" " + obj):
        return None  # "forget that should libraries still charge fines": a new question
    value: str | None = None
    if _PRONOUN_OBJECT.match(obj) or "aside" in m.group("v").lower():
        # "leave it aside": the facet of the previous plan the turn names
        words = _tokens(t)
        for a in previous.aspects:
            stems = {_stem(w) for w in _content(a.text)}
            named = [(w, s, e) for w, s, e in words if _stem(w) in stems]
            if named:
                value = " ".join(w for w, _, _ in named)
                break
        if value is None and not _PRONOUN_OBJECT.match(obj):
            value = obj
        if value is None and previous.aspects and previous.derivation.startswith("add_aspect"):
            value = previous.aspects[-1].text  # "leave that part out": the facet just added
    else:
        value = obj
    if not value or not 1 <= len(_content(value)) <= 4:
        return None
    if not marked and _names_constraint(value.lower()):
        return None  # "leave out blogs": a source, not a facet (a capital is no sign of a
        # name here: "lass die Wirtschaft weg")
    # what comes before the verb may only name the facet and say why it goes ("the
    # accessibility question is a separate matter, so …")
    if _residue(t[: m.start()], previous=previous, also=_SIDE_RESIDUE | fw.DROP_REASONS):
        return None
    xw = {_stem(w) for w in _content(value)}
    return _edit(
        previous,
        "drop_aspect",
        value,
        "5 drop a facet",
        [f"- aspect {value}"],
        lambda plan: _without(plan, xw),
    )


def _without(plan: QueryPlan, stems: set[str]) -> None:
    """The plan's facets without those that share a stem with ``stems``."""
    plan.aspects = [a for a in plan.aspects if not ({_stem(w) for w in _content(a.text)} & stems)]


# --------------------------------------------------------------------------- 6 a group's view

_GROUP = r"(?P<x>[^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,3}?)"
_VIEW_NOUN = (
    r"(?:point of view|perspective|views?|viewpoint|takes?|position|opinion|opinions|stance|"
    r"side|angle|input|thoughts|reaction|standpoint)"
)
_VIEW_VERB = (
    r"(?:think|thinks|thnik|say|says|said|believe|believes|feel|feels|argue|argues|reckon|"
    r"make of (?:all\s+)?(?:it|this|that)|have to say|has to say|think of (?:it|this|that)|"
    r"recommend|recommends|suggest|advise|propose|agree|disagree|approve)"
)
_VIEWS = [
    re.compile(p, re.I)
    for p in (
        r"\bwhat\s+(?:(?:do|does|did|would|might|will|could)\s+)?"
        + _GROUP
        + r"\s+(?:themselves\s+)?"
        r"(?:really\s+|actually\s+)?" + _VIEW_VERB + r"\b",
        r"\bhow\s+(?:do|does|would|might|did)\s+" + _GROUP + r"\s+(?:see|view|regard|feel about|"
        r"look at|feel)\b",
        r"\bwhat\s+(?:are|is)\s+" + _GROUP + r"\s+saying\b",
        r"\bwhat\s+(?:think|thinks|say|says)\s+(?:the\s+)?" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:and\s+)?(?:do|does|would|will)\s+" + _GROUP + r"\s+(?:agree|disagree|approve|"
        r"support it|think so)\b",
        r"\bhear\s+(?:from|what)\s+(?:the\s+)?" + _GROUP + r"(?:\s+(?:think|say|have to say))?"
        r"\s*[?.!]*\s*$",
        r"\b(?:input|voices?|testimon(?:y|ies)|experiences?|quotes?|statements?|comments?|"
        r"words)\s+(?:of|from)\s+(?:the\s+)?" + _GROUP + r"\s*[?.!]*\s*$",
        r"\bwhat\s+(?:position|view|stance)\s+do(?:es)?\s+" + _GROUP + r"\s+take\b",
        r"^\s*(?:and\s+)?(?:do|does|did|would)\s+" + _GROUP + r"\s+have\s+(?:a|an|any)\s+"
        r"(?:view|opinion|position|take|stance|say|perspective)\b",
        _GROUP + r"(?:'s|’s|'|’)\s+(?:own\s+)?" + _VIEW_NOUN + r"\b",
        r"\b" + _VIEW_NOUN + r"\s+(?:of|from)\s+(?:the\s+|an?\s+)?" + _GROUP + r"\s*(?:[,.!?]|$|"
        r"\s+on\s+(?:this|that|it|the)\b)",
        r"\bfrom\s+(?:an?\s+|the\s+)?" + _GROUP + r"\s+(?:perspective|point of view|viewpoint|"
        r"standpoint|angle)\b",
        r"^\s*(?:and\s+)?" + _GROUP + r"\s+(?:view|take|perspective)\s*[?.!]*\s*$",
        r"\bqu[eé]\s+(?:opinan|piensan|dicen|creen|sostienen)\s+"
        + _GROUP
        + r"(?:\s+(?:about|on|de|sobre)\s+(?:this|it|that|esto|eso|ello))?\s*[?.!]*\s*$",
        r"\b" + _GROUP + r"\s+qu[eé]\s+(?:opinan|piensan|dicen|creen)\b",
        r"\bwas\s+(?:sagen|denken|meinen|halten)\s+" + _GROUP + r"(?:\s+(?:dazu|davon|darüber))?"
        r"\s*[?.!]*\s*$",
        r"\b(?:qu'en|que)\s+(?:pensent|disent|croient)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?" + _GROUP + r",?\s+(?:ils|elles)\s+en\s+pensent\s+quoi\b",
        r"\b(?:la opini[óo]n|el punto de vista|la postura|die sicht|die meinung|l'avis|"
        r"le point de vue)\s+(?:de|der|von|des|du)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"^\s*(?:et\s+)?(?:du|selon le)\s+point\s+de\s+vue\s+(?:des|du|de\s+la|de)\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\b(?:cosa|che\s+cosa|che)\s+(?:ne\s+)?(?:pensano|dicono|credono)\s+"
        + _GROUP
        + r"\s*[?.!]*\s*$",
        r"\bo\s+que\s+(?:dizem|pensam|acham)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"\bwie\s+(?:sehen|finden|beurteilen)\s+(?:das|es|dies)\s+" + _GROUP + r"\s*[?.!]*\s*$",
        r"\b(?:wat|what)\s+(?:vinden|zeggen|denken)\s+(?:de\s+)?"
        + _GROUP
        + r"(?:\s+(?:ervan|daarvan|erover|hiervan))?\s*[?.!]*\s*$",
        r"^\s*(?:and\s+|what about\s+)?(?:the\s+)?" + _GROUP + r"\s+themselves\s*[?.!]*\s*$",
        r"^\s*(?:(?:and|so|um|uh|okay|ok)\s+)*(?:what|how)\s+about\s+(?:the\s+)?"
        + _GROUP
        + r",?\s+(?:what|how)\s+do\s+they\s+(?:think|feel|see it|say)\b",
        # "where museum curators stand on this", "where do nurses stand?"
        r"\bwhere\s+(?:do\s+|does\s+)?(?:the\s+)?"
        + _GROUP
        + r"\s+stands?(?:\s+on\s+(?:this|that|it|the\s+\w+))?\s*[?.!,]*",
        # "e cosa ne pensa la Chiesa cattolica?", "o que acha a igreja?"
        r"\b(?:cosa|che\s+cosa|che)\s+(?:ne\s+)?(?:pensa|dice|crede)\s+(?:la\s+|il\s+|lo\s+|l')?"
        + _GROUP
        + r"\s*[?.!]*\s*$",
    )
]
_GROUP_LEAD = re.compile(
    r"^(?:(?:the|a|an|some|any|our|los|las|les|die|der|des|el|la|le|from|of)\s+)+", re.I
)
_VIEW_RESIDUE = frozenset(VOCAB.followup.view_residue)


def _clean_group(x: str) -> str:
    """The group's words: request verbs, determiners and courtesy before it, and
    "themselves" after it, taken off ("would welcome a journalist" -> "journalist")."""
    toks = _tokens(x)
    i = 0
    while i < len(toks) and (
        toks[i][0] in fw.FILLER or toks[i][0] in _VIEW_RESIDUE or toks[i][0] in fw.COURTESY
    ):
        i += 1
    x = x[toks[i][1] :] if i < len(toks) else ""
    x = _GROUP_LEAD.sub("", x.strip())
    x = re.split(r"\s+(?:would|will|should|could|might|is|are|was|were)\s+", x, maxsplit=1)[0]
    return re.sub(r"(?:\s+(?:themselves|own|dazu|really|actually))+$", "", x, flags=re.I).strip()


def _group_view(text: str, previous: QueryPlan) -> FollowUp | None:
    t = text.strip()
    for pat in _VIEWS:
        m = pat.search(t)
        if not m:
            continue
        x = _clean_group(m.group("x"))
        words = _words(x)
        if (
            not words
            or len(words) > 4
            or all(w in fw.FILLER or w in fw.POINTERS or w in _SIDE_WORDS for w in words)
            or re.search(r"\b(?:about|regarding|concerning|on|of)\b", x, re.I)
        ):
            continue
        if _residue(t, [m.span()], previous, also=_VIEW_RESIDUE):
            continue
        return _add_perspective(previous, x)
    m = re.fullmatch(
        r"\s*(?:(?:and|what about|how about)\s+)?(?:the\s+)?"
        r"(?P<x>[^\W\d_][\w\-]*(?:\s+[^\W\d_][\w\-]*)?)"
        r"\s+(?:opinion|opinions|view|views|perspective|take|side|stance)\s*[?.!]*\s*",
        t,
        re.I,
    )
    if m and _is_role(_words(m.group("x"))[-1]):
        return _add_perspective(previous, m.group("x"))
    # a group's name alone: "landlords?", "and the unions?", "marine biologists?"
    m = re.fullmatch(r"\s*(?:(?:and|also|y|und|et)\s+)?(?P<x>[^\W\d_][\w'’\- ]*?)\s*[?.!]*\s*", t)
    if m:
        x = _GROUP_LEAD.sub("", m.group("x").strip())
        words = _words(x)
        if 1 <= len(words) <= 3 and _is_role(words[-1]) and not set(words) & fw.FILLER:
            return _add_perspective(previous, x)
    return None


# --------------------------------------------------------------------------- 7 a facet

_WEAK_FRAME = re.compile(
    r"^\s*(?:(?:and|but|so|now|also|ok|okay|und|y|et|e)[,]?\s+)*(?:(?:and\s+)?what\s+about|how\s+about|"
    r"what\s+of|was\s+ist\s+mit|wie\s+sieht\s+es\s+mit(?=\s.+\saus\s*[?.!]*$)|qu'en\s+est-il\s+(?:de|du|des)|y\s+qu[ée]\s+hay\s+de|"
    r"y\s+qu[ée]\s+pasa\s+con|e\s+quanto\s+(?:a|ao|à|aos|às)|e\s+(?:per|riguardo\s+a)|"
    r"and|y|und|et|e)\s+(?P<x>.+)$",
    re.I,
)
_STRONG_FRAME = re.compile(
    r"^\s*(?:(?:and|but|so|now|also|ok|okay)[,]?\s+)*(?:also\s+)?(?:focus\s+(?:more\s+)?on|"
    r"concentrate\s+on|zoom\s+in\s+on|look\s+(?:more\s+)?(?:at|into)|cover(?:ing)?|include|"
    r"add(?:\s+(?:ones|those|options|places|results))?(?:\s+(?:with|that have|that are))?|"
    r"(?:ones|those|options|places|results)\s+(?:with|that have|that are)|"
    r"(?:confine|restrict|limit|narrow)\s+(?:(?:it|this|that|the\s+\w+)\s+)?(?:down\s+)?to|"
    r"(?:i'?m|i\s+am)\s+(?:mostly\s+|most\s+|more\s+|particularly\s+|especially\s+|also\s+)?"
    r"interested\s+in|more\s+on|go\s+deeper\s+(?:on|into)|expand\s+on|"
    r"tell\s+(?:me|us)\s+(?:more\s+|a\s+bit\s+)?about|dig\s+into|think\s+about|"
    r"(?:talk|speak|say\s+(?:something|more|a\s+bit))\s+(?:also\s+|more\s+)?about|discuss|"
    r"address|mention|"
    r"(?:(?:know|hear|learn|read|see|find\s+out)\s+)?more\s+about|"
    r"(?:hear|learn|read|know)\s+(?:a\s+(?:bit|little)\s+)?about|"
    r"(?:i|we)\s+(?:mostly\s+|mainly\s+|really\s+|only\s+|most\s+)?care\s+(?:most\s+)?about|"
    r"consider|about|"
    r"(?:is\s+there\s+)?(?:anything|something|any\s+(?:info|information|data|evidence))\s+"
    r"(?:on|about|regarding))\s+(?P<x>.+)$",
    re.I,
)
_EFFECT_FRAME = re.compile(
    r"^\s*(?:(?:and|but|so|now|also|ok|okay)[,]?\s+)*(?:how\s+(?:does|do|would|will|did|might|"
    r"could|is|are)\s+(?P<s>.+?)\s+(?:affect|affecting|impact|impacting|change|influence|hit|"
    r"help|hurt|harm)|(?:the\s+)?implications?\s+(?:for|of)|what\s+(?:would|will|does|could|might)\s+(?P<s6>it|that|this|they)\s+do\s+"
    r"(?:to|for)|(?:what(?:'s|\s+is|\s+are|\s+about)?\s+)?(?:the\s+)?(?:impacts?|effects?|"
    r"consequences)\s+(?:on|for)|(?:is|are)\s+(?P<s2>it|that|this|they)\s+(?:good|bad|safe|"
    r"harmful|ok|fair)\s+for|does\s+(?P<s3>it|that|this)\s+(?:affect|help|hurt|harm)|"
    r"(?:is|does)\s+(?P<s4>that|this|it)\s+(?:also\s+)?(?:true|apply|the same)\s+(?:for|to)|"
    r"what\s+(?:bearing|effect|impact|influence|difference)\s+(?:does|do|would|will|might|could)"
    r"\s+(?P<s5>it|this|that|they)\s+(?:have|make)\s+(?:on|to|for)|"
    # "what does the research say about older students?", "and if you've got young kids?"
    r"what\s+(?:does|do)\s+(?:the\s+)?(?:research|evidence|science|data|literature|studies)\s+"
    r"(?:say|show|suggest|tell us)\s+(?:about|on|for|regarding)|"
    r"(?:what\s+)?if\s+(?:you|i|we|one|they)(?:'ve|'re|'m|\s+have|\s+are|\s+am)?"
    r"(?:\s+got)?)"
    r"\s+(?P<x>.+)$",
    re.I,
)
_EFFECT_SUBJECT = frozenset(VOCAB.followup.effect_subject)
# "how it would affect waiting times", "what would this mean for rare disease research",
# "how does it work for children with dyslexia", "how the answer changes for smaller towns"
_EFFECT_CLAUSE = re.compile(
    r"^\s*(?:(?:and|but|so|now|also|ok|okay)[,]?\s+)*(?:how|what)\s+"
    r"(?:(?:does|do|would|will|did|might|could|is|are)\s+)?(?P<s>[\w'’\- ]+?)\s+"
    r"(?:(?:would|will|might|could|does|do|did)\s+)?(?:(?:play|plays|pan|pans|turn|turns|work|works)\s+out|"
    r"affects?|affecting|impacts?|changes?|"
    r"influences?|hits?|helps?|hurts?|harms?|means?|works?|applies|apply|looks?|goes|go)\s+"
    r"(?:(?:for|to|on|in)\s+)?(?P<x>.+)$",
    re.I,
)
# "what would it cost": the verb names the facet
_COST_CLAUSE = re.compile(
    r"^\s*(?:(?:and|but|so|ok)[,]?\s+)*(?:what|how\s+much)\s+(?:would|will|does|did|might|"
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
_ONES = re.compile(
    r"^\s*(?P<a>[\w\-]+)\s+(?:ones|options|alternatives|places|versions|models)\s*[?.!]*$", re.I
)
_CLAUSE = re.compile(
    r"(?:^|,|\s)(?:is|are|was|were|should|shall|would|could|can|do|does|did|will|has|have|"
    r"must|ought|who|whom|whose|why|where|when|which|whether|ist|sind|es|son|est|sont)\b"
    r"|\b(?:it|that|there|they|he|she|what|who|this|here)['’](?:s|re|ll|d|ve)\b"
    # a statement about the user ("I'm biased", "I live under a flight path")
    r"|\b(?:i|we|you)['’](?:m|re|ve|d|ll)\b|\b(?:i|we)\s+(?:am|have|live|work|need|want)\b",
    re.I,
)
_FACET_LEAD = re.compile(
    r"^(?:(?:the|a|an|its|their|it's|this|that|these|those|los|las|les|la|le|el|die|der|"
    r"das|den|des|dem|einem|einer|il|lo|gli|i|os|l'|any|some|more|like)\s+)+",
    re.I,
)
_FACET_TAIL = re.compile(
    r"(?:[,]?\s+(?:angle|side|issues?|aspect|part|dimension|question|element|factor|"
    r"then|too|as well|though|also|again|"
    r"stuff|thing|bit|aussi|también|auch|if that'?s (?:ok(?:ay)?|alright|all right)|"
    r"please|pls|thanks|in particular|especially))+\s*$",
    re.I,
)
_PREPOSITIONS = tuple(VOCAB.followup.facet_prepositions)
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
_MARKED_FACET = re.compile(r"\s(?:part|bit|aspect|angle|side|stuff|thing)s?\s*[?.!]*\s*$", re.I)
# a population named by what its members have or do ("people with diabetes")
_POPULATION_FRAME = re.compile(
    r"^(?:the\s+)?(?:people|persons|those|anyone|patients|families|households|kids|children|"
    r"adults|workers|students|women|men|residents|users)\s+(?:with|without|who|living|on|over|"
    r"under|from)\b",
    re.I,
)
# "are they expensive to run?", "is it legal though?": a question about the previous topic,
# its subject a pronoun, asks about a facet
_PRONOUN_QUESTION = re.compile(
    r"^\s*(?:(?:and|but|so|ok|okay|also)[,]?\s+)*(?:is|are|was|were|does|do|did|would|will|"
    r"can|could|isn't|aren't|doesn't|won't)\s+(?:it|they|this|that|these|those)\s+"
    r"(?:(?:really|actually|also|even|still)\s+)?(?P<x>[^,;:]+?)\s*[?.!]*\s*$",
    re.I,
)
_PRONOUN_VERBS = re.compile(
    r"^(?:hurt|harm|affect|help|improve|worsen|damage|raise|lower|increase|reduce|cut|boost|"
    r"change|cause|create|lead\s+to|make|have|need|require|cost|take|bring|mean\s+for)\s+",
    re.I,
)
# "does back pain come into it?": a facet as the subject, the topic as the object
_COMES_INTO_IT = re.compile(
    r"^\s*(?:(?:and|but|so|ok|okay)[,]?\s+)*(?:does|do|did|would|will|should|is|are)\s+"
    r"(?P<x>.+?)\s+(?:come\s+into\s+(?:it|this|that|play)|matter(?:\s+(?:here|at\s+all|much))?|"
    r"play\s+a\s+(?:role|part)|factor\s+in|figure\s+in(?:\s+(?:it|this))?|come\s+up|"
    r"count(?:\s+for\s+anything)?)\s*(?:here|at\s+all|though|too)?\s*[?.!]*\s*$",
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
    head_part = re.split(
        r"\s+(?:for|of|in|with|on|at|from|to|among|pour|de|para|für|von)\s+", x, maxsplit=1
    )[0]
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


def _names_constraint(phrase: str) -> bool:
    """Does the phrase name a constraint's value other than a keyword ("blogs", "pdfs")?"""
    cons, _ = find_constraints("no " + phrase, wh_factual=False)
    more, _ = _bare_constraints("no " + phrase, [])
    return any(c.dimension != "keyword" for c in (*cons, *more))


def _property(q: str, previous: QueryPlan) -> FollowUp | None:
    """ "with no ricotta", "without a garden": a property of what is wanted, unless what
    follows "with(out)" is a constraint's value ("without pdfs", "with no blogs")."""
    m = re.match(r"^\s*(?:(?:and|but|ok)\s+)?with(?:out)?\s+(?P<y>.+?)\s*[?.!]*$", q, re.I)
    if not m:
        return None
    if _names_constraint(re.sub(r"^(?:no|any)\s+", "", m.group("y"), flags=re.I)):
        return None
    if q.lower().lstrip().startswith("without") and _FACET_MARK.search(m.group("y")):
        return None  # "without the offside stuff": a facet of the answer dropped (rule 5)
    value = _clean_facet(re.sub(r"^\s*(?:(?:and|but|ok)\s+)?with\s+", "", q, flags=re.I))
    return _add_aspect(previous, value) if _content(value) else None


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
    if m and re.match(r"^\s*(?:\w+\s+)*?wie\s+sieht", q, re.I):
        x = re.sub(r"\s+aus\s*[?.!]*\s*$", "", x)  # "wie sieht es mit den Kosten aus?"
    if m is None and (_MORE_CUE.search(q) or len(_words(q)) > 5 or _DROP_VERB.match(q)):
        return None  # a facet alone is a short phrase, not a request to drop or page
    if m is None and len(_words(q)) > 3:
        judge = None  # the judge reads "what about bees?" and "pets?", not longer turns
    return _facet(
        x, previous, strong=False, back=False, perspective_next=perspective_next, judge=judge
    )


# --------------------------------------------------------------------------- the rule


def _read(text: str, previous: QueryPlan, judge: FacetJudge | None) -> FollowUp | None:
    """One request read against the previous plan (rules 1-7), or None: a topic of its own."""
    found = _reference(text, previous)
    if found:
        return found
    q = unwrap(text)
    found = _property(q, previous)
    if found:
        return found
    for rule in (_more, _one_side_edit, _constraint_edit):
        found = rule(q, previous)
        if found:
            return found
    found = _drop_aspect(text, previous) or _drop_aspect(q, previous)
    if found:
        return found
    return _group_view(q, previous) or _facet_edit(q, previous, judge)
    found = _group_view(q, previous) or _facet_edit(q, previous, judge)
    parts = [x for x in re.split(r"(?<=\?)\s+", q) if x.strip()]
    if found and len(parts) > 1:
        # the same request said twice, the second time in English ("y los ancianos? how
        # does it affect elderly people"): the last saying of it names the value
        last = _group_view(parts[-1], previous) or _facet_edit(parts[-1], previous, judge)
        if last and last.edit == found.edit:
            return last
    return found


# verbs of a request that names nothing itself ("Could you add that?")
_REQUEST_VERBS = frozenset(VOCAB.followup.request_verbs)

# a sentence that states a question of its own: "a friend and I were arguing about whether
# people should be allowed to sell a kidney. Could you look into that one as well?"
_OWN_QUESTION = re.compile(r"\b(?:whether|si|ob)\s+\w+", re.I)


# a label before the turn says nothing of whether it follows ("New question: what do
# psychologists think about it?" edits the plan; "next. should recess be longer" does not):
# the rest of the turn decides
_LABEL = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|right|alright|so|and|now|also|thanks|thank you)[,.!]?\s+)*"
    r"(?P<new>next(?: one| question| thing| topic)?|new (?:question|topic|assignment|one)|"
    r"(?:another|different|separate|other|unrelated) (?:question|topic|one)|"
    r"on (?:a|an|another) (?:separate|different|unrelated|other|new)? ?(?:matter|note|subject|"
    r"topic)|(?:quite |entirely )?separately|unrelatedly|changing (?:the )?subject|"
    r"switching (?:topics?|gears))?"
    r"(?(new)|(?:new request|(?:another|different|separate|other|related|follow-?up|last|"
    r"final|quick|small|short) (?:request|angle|thing|point|question)|"
    r"one (?:more|last|final) (?:thing|question)|question|request|follow-?up))"
    r"(?:,? if you (?:don't|do not) mind)?\s*(?:[:.\-–—!]+|,)\s+(?=\S)",
    re.I,
)


_POINTS_BACK = re.compile(
    r"\b(?:it|its|this|that|these|those|them|they|their|here|there|the (?:answer|results?|"
    r"sources?|summary|list|documents?|articles?)|ones|stuff|only|just|no|not|none|more|"
    r"can you|could you|would you|please|pls)\b|\[\d",
    re.I,
)


def resolve(
    text: object,
    previous: QueryPlan | None,
    judge: FacetJudge | None = None,
    asked: tuple[str, list[int]] | None = None,
) -> FollowUp:
    """Read ``text`` against the previous turn's plan (the module docstring's rule).

    ``judge`` (:class:`~assistant.understand.facet_judge.FacetJudge`): the embedder's
    reading of a short phrase that no lexicon knows, for rule 7; without it such a
    phrase is a topic of its own. ``asked``: when the turn just before was a question
    about the answer, its edit and reference numbers (``("explain_ref", [5])``), for a
    turn that points back at them ("drop it", "sorry, I meant 7")."""
    raw = check_question(text)
    if previous is None:
        return FollowUp(False, "new_topic", rule="first turn")
    turn = _Turn(judge, raw, previous)
    fixed = _repair(raw).replace("¿", "").replace("¡", "")
    if asked:
        found = _about_asked(fixed, asked)
        if found:
            return found
    label = _LABEL.match(fixed)
    if label:
        fixed = fixed[label.end() :]
        if label.group("new") and not _POINTS_BACK.search(fixed):
            # "next: vaping bans?": a label that announces something new, and nothing in
            # the rest that points back at the answer or asks to change it
            return FollowUp(False, "new_topic", rule="a topic of its own (announced)")
    found = _read(fixed, previous, judge)
    if found:
        return _second_opinion(found, fixed, previous, judge, turn)
    parts = [p for p in _SENTENCE.split(fixed) if p.strip()]
    requests = [p for p in parts if not _reaction(p)]
    if (requests and len(requests) < len(parts)) or len(requests) > 1:
        reads = [(_read(p, previous, judge), p) for p in requests]
        follow = [r for r, _ in reads if r is not None]
        asks = [
            p
            for r, p in reads
            if r is None and p.rstrip().endswith("?") and _residue(unwrap(p), also=_REQUEST_VERBS)
        ]
        own = [p for r, p in reads if r is None and _OWN_QUESTION.search(p)]
        if follow and not asks and not own:
            # "… aren't blogs? My teacher doesn't accept them."; a request that names its
            # edit outranks a phrase read as a facet
            found = sorted(follow, key=lambda r: r.rule.startswith("7"))[0]
            same = [r for r in follow if r.edit == found.edit]
            if found.edit in ("add_aspect", "add_perspective") and len(same) > 1:
                # the same request said twice, the second time in English ("y los
                # ancianos? how does it affect elderly people"): its last saying
                found = same[-1]
            return _second_opinion(found, fixed, previous, judge, turn)
    found = _comment_and_request(fixed, previous) or _restated(fixed, previous)
    if found:
        return _second_opinion(found, fixed, previous, judge, turn)
    return _learned_kind(fixed, previous, judge, turn) or FollowUp(
        False, "new_topic", rule="a topic of its own"
    )


def asked_about(follow: FollowUp) -> tuple[str, list[int]] | None:
    """What a question about the answer asked about, for the turn after it
    (:func:`resolve`'s ``asked``); None for any other turn."""
    if not follow.follows or follow.edit not in ("explain_ref", "compare_refs"):
        return None
    value = follow.value
    return follow.edit, [int(n) for n in (value if isinstance(value, list) else [value])]


# a turn that drops what the reference question before it pointed at ("drop it", "I'd
# rather you took it out altogether", "ok get rid of that one then")
_DROP_POINTED = re.compile(
    r"^(?:(?:ok(?:ay)?|right|then|so|in that case|fine|hm+|eh|yeah|yes|well|great|perhaps|"
    r"maybe)[,.!]?\s+)*"
    r"(?:(?:please|pls|just|then|i'?d rather|i would rather|i'?d prefer|can you|could you|"
    r"would you|you can|you could|let's|lets|go ahead and|you)\s+)*"
    r"(?:(?:drop|remove|delete|exclude|lose|ditch|scrap|bin|nix|toss|cut|discard|omit|"
    r"get rid of|take|took|leave|throw|pull|quita|elimina|borra|entferne|lösche|streiche|"
    r"supprime[rz]?|enl[eè]ve[rz]?|togli|rimuovi|remova|tira)\s+)"
    r"(?:it|that|this|that one|this one|them|the source|that source|this source|"
    r"the reference|that reference|lo|la|eso|das|es|ça|le)"
    r"(?:\s+(?:out|away|off))?(?:\s+(?:altogether|entirely|completely|then|too|please|pls|"
    r"as well|from the (?:answer|summary|list)|weg))*\s*(?:then|please|pls|thanks)?"
    r"(?:,?\s*if (?:that'?s|that is|it'?s) (?:ok(?:ay)?|alright|all right|fine))?\s*[.!?]*\s*$",
    re.I,
)
# "oops, I meant 7, not 2", "sorry, 7 not 2", "no wait, number 9"
_CORRECTION = re.compile(
    r"\b(?:i meant|i mean|meant|sorry|oops|wait|my bad|typo|rather|instead|not)\b", re.I
)


# a comparison with one number, after a question about another ("vs [9]", "and compared
# to 6?", "how does it compare with [3]?")
_COMPARE_ONE = re.compile(
    r"^\s*(?:(?:and|ok(?:ay)?|so|now)[,]?\s+)*(?:(?:vs\.?|versus|compared\s+(?:to|with)|"
    r"(?:how\s+does\s+it\s+)?compare\s+(?:it\s+|that\s+)?(?:to|with)|against)\s*)"
    r"(?:\[\s*\d{1,3}\s*\]|#?\d{1,3}|(?:source|reference|ref)\s*\d{1,3})\s*[?.!]*\s*$",
    re.I,
)


def _about_asked(text: str, asked: tuple[str, list[int]]) -> FollowUp | None:
    """A turn about the reference(s) the question before it asked about: a drop with a
    pronoun for object drops it; a correction ("I meant 7, not 2") asks the same question
    about the other number."""
    edit, numbers = asked
    sentences = [p for p in _SENTENCE.split(text) if p.strip() and not _courtesy(p)]
    for p in sentences or [text]:
        if len(numbers) == 1 and _DROP_POINTED.match(p.strip()):
            return FollowUp(True, "drop_ref", numbers[0], rule="1 reference (the one asked about)")
    if edit != "explain_ref":
        return None
    said = [int(m.group(1)) for m in _BARE_NUMBER.finditer(_digits(text))]
    said += [int(next(g for g in m.groups() if g)) for m in _EXPLICIT_REF.finditer(text)]
    other = [n for n in dict.fromkeys(said) if n not in numbers]
    if len(numbers) == 1 and len(other) == 1 and _COMPARE_ONE.match(text):
        # "vs [9]" after "why is [4] there?": the two side by side
        return FollowUp(True, "compare_refs", [numbers[0], other[0]], rule="1 reference (compared)")
    if not _CORRECTION.search(text):
        return None
    if len(other) == 1 and set(said) <= {other[0], *numbers}:
        return FollowUp(True, "explain_ref", other[0], rule="1 reference (corrected)")
    return None


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
        "7 a facet (the question restated)",
        [f"+ aspect {span}"],
        lambda plan: plan.aspects.append(Aspect(text=span)),
    )


# "for both positions", "from either camp", "on each side": no one side
_BOTH_SIDES = re.compile(
    r"\b(?:both|either|each)\s+(?:of\s+the\s+)?(?:sides?|positions?|camps?|stances?|views?|"
    r"perspectives?|viewpoints?|directions?|ways)\b|\bambos lados\b|\bdes deux c[ôo]t[ée]s\b|"
    r"\bbeide(?:n)? seiten\b",
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


# how sure the turn-kind model and the turn reader together (``_Turn.kind``) must be
# before rule 9 reads a turn the rules could not read as its kind (chosen on the
# development sets, each held out in turn: see assistant/understand/turn_kind.py; the
# facet's 0.7 became 0.6 with the turn reader, in the six-fold cross-validation of round 9)
LENIENT_P = {
    "add_constraint": 0.5,
    "add_aspect": 0.6,
    "add_aspect_unframed": 0.8,
    "add_perspective": 0.5,
    "drop_aspect": 0.5,
}


@dataclass
class ReaderUse:
    """How the resolver uses the fine-tuned turn reader (:mod:`assistant.understand.reader`),
    each setting chosen by grouped cross-validation over the development sets (every set
    read with fold models that never saw it; README "Follow-ups")."""

    #: the reader's share of the kind probability; the rest is the turn-kind model's
    weight: float = 0.5
    #: rule 9 takes a facet's, dropped facet's or group's value from the reader's span
    #: before the frame readers (False: only where they find nothing)
    span_first: bool = True
    #: how sure the span must be, P(start) · P(end)
    span_p: float = 0.0
    #: how sure the reader's side must be to name the side of a request that names none
    side_p: float = 0.5
    #: rule 9's constraint with no value the finders read: the reader's dimension, if at
    #: least this sure, with that dimension's value from the turn's words (above 1: never)
    dimension_p: float = 0.5
    #: a facet, dropped facet or group that rules 5-7 read is replaced by the reader's
    #: span when the reader reads the same kind at least this surely and the two share
    #: under half their content words (above 1: never)
    override_p: float = 1.01
    #: rule 9 takes the frame readers' value over the reader's span when it holds every
    #: content word of the span and more ("dentists" -> "dentists of the NHS")
    extend_span: bool = True
    #: when no kind is sure enough but the turn is an edit of some kind at least this
    #: surely (1 - P(new topic)), rule 9 tries the likeliest kinds' readers in turn
    #: (above 1: never)
    edit_sure_p: float = 1.01


READER = ReaderUse()
SPAN_KINDS = ("add_aspect", "drop_aspect", "add_perspective")


class _Turn:
    """One turn being resolved: its text as typed and the plan it would edit, with the
    turn reader's reading computed once, when a rule first asks for it."""

    def __init__(self, judge: FacetJudge | None, raw: str, previous: QueryPlan) -> None:
        self.judge, self.raw, self.previous = judge, raw, previous
        self._reading: Any = ...
        self._kinds: dict[str, dict[str, float] | None] = {}

    def reading(self) -> Any:
        if self._reading is ...:
            read = getattr(self.judge, "read", None)
            self._reading = read(self.raw, self.previous) if read is not None else None
        return self._reading

    def kind(self, text: str) -> tuple[str, float] | None:
        """The kind of the turn and its probability: the turn-kind model's distribution
        and the reader's, mixed by ``READER.weight`` (either alone when the other is
        missing)."""
        judge = self.judge
        if judge is None:
            return None
        mixed = self.kinds(text)
        if mixed is None:
            return judge.kind(text, self.previous.root_query or self.previous.question)
        best = max(mixed, key=mixed.__getitem__)
        return best, mixed[best]

    def kinds(self, text: str) -> dict[str, float] | None:
        """The mixed distribution over the edit kinds (:meth:`kind`), or None when neither
        model gives one; computed once per text."""
        if text not in self._kinds:
            self._kinds[text] = self._mixed(text)
        return self._kinds[text]

    def _mixed(self, text: str) -> dict[str, float] | None:
        judge = self.judge
        if judge is None:
            return None
        topic = self.previous.root_query or self.previous.question
        lr = judge.kind_probs(text, topic) if hasattr(judge, "kind_probs") else None
        reading = self.reading() if READER.weight > 0 else None
        if lr is None and reading is None:
            return None
        w = READER.weight if lr is not None and reading is not None else (reading is not None)
        return {
            k: (1 - w) * (lr.get(k, 0.0) if lr is not None else 0.0)
            + w * (reading.kinds.get(k, 0.0) if reading is not None else 0.0)
            for k in EDITS
        }


def _learned_kind(
    text: str, previous: QueryPlan, judge: FacetJudge | None, turn: _Turn | None = None
) -> FollowUp | None:
    """Rules 8 and 9: a turn the rules read as a topic of its own, which the trained
    turn-kind model (:mod:`assistant.understand.turn_kind`) and the turn reader
    (:mod:`assistant.understand.reader`) read as an edit.

    Rule 8: a request for more or for one side at P >= MIN_P is that edit when its words
    say the side (for "more", the side in force otherwise; for one side, else the side
    whose claim the turn states, as the stance model judges it, else the side the
    reader reads). Rule 9: a constraint, a facet, a group's view or a dropped facet at
    P >= ``LENIENT_P[kind]`` is that edit when a reader of the kind finds its value in
    the turn: the reader's span (the words it points at), the constraint finders with
    words of the turn's own allowed beside them, the group a view frame or a person noun
    names, the facet a frame names anywhere in the turn, the dropped facet the turn
    names."""
    if judge is None:
        return None
    q = unwrap(text)
    if not _residue(q, also=_REQUEST_VERBS):
        return None  # "Could you add that?": a request pointing back says nothing to read
    turn = turn or _Turn(judge, text, previous)
    read = turn.kind(text)
    if read is None:
        return None
    found = _as_kind(read[0], read[1], q, previous, judge, turn)
    if found is not None or READER.edit_sure_p > 1:
        return found
    mixed = turn.kinds(text)
    if mixed is None or 1 - mixed.get("new_topic", 0.0) < READER.edit_sure_p:
        return None
    # an edit, surely, of no kind surely ("skip the videos my laptop can't play them":
    # a constraint or a dropped facet): the likeliest kinds whose reader finds a value
    for kind in sorted(_LENIENT, key=lambda k: -mixed.get(k, 0.0))[:2]:
        if kind != read[0] and mixed.get(kind, 0.0) > 0:
            found = _as_kind(kind, max(mixed[kind], LENIENT_P[kind]), q, previous, judge, turn)
            if found is not None:
                return found
    return None


def _span_edit(kind: str, previous: QueryPlan, turn: _Turn | None) -> FollowUp | None:
    """The edit of a span kind with the reader's span as its value, or None when the
    reader found no span with a word of its own at ``READER.span_p``."""
    if kind not in SPAN_KINDS:
        return None
    reading = turn.reading() if turn is not None else None
    if reading is None or not reading.span or reading.span_p < READER.span_p:
        return None
    x = reading.span
    if not _content(x):
        return None
    if kind == "add_aspect" and turn is not None and _sibling_span(x, turn.raw, previous):
        return None
    if kind == "add_aspect":
        framed = _SPAN_FRAME.match(x)
        if framed:
            # "effects on breeding programmes": a frame's words, which the frame readers
            # read to the end of their clause ("… for rare species"); the span without
            # its frame only where they read nothing
            x = x[framed.end() :]
            if not _content(x):
                return None
            ruled = _lenient_facet(unwrap(turn.raw), previous) if turn is not None else None
            if ruled is not None and set(_content(x)) & set(_content(str(ruled.value))):
                return None
        return _add_aspect(previous, x)
    if kind == "add_perspective":
        return _add_perspective(previous, x)
    return _drop(previous, x)


_PLURAL_S = re.compile(r"(?<=[^s])s$")

# a reader's facet span that begins with a frame ("the effects on", "impact of")
_SPAN_FRAME = re.compile(
    r"^(?:the\s+)?(?:effects?|impacts?|consequences?|implications?|role|influence)\s+"
    r"(?:on|of|for|upon)\s+",
    re.I,
)


def _dimension_value(dimension: str, q: str, span: str | None) -> tuple[str, str] | None:
    """(value, the words it was read from) of a constraint of ``dimension`` in the turn:
    a language's name in any of the users' languages, inflected or not ("keine deutschen
    Quellen" -> de), an audience or a format the lexicons list (a plural for a singular:
    "slide format" -> slides), a length the finders read or a length word, a source's
    or keyword's words where the reader points; None when the turn has none."""
    low = q.lower()
    if dimension == "language":
        # the word, or its beginning: an inflection ("deutschen") or a compound
        # ("deutschsprachige", "spanischsprachig")
        for w in (part for word in _words(q) for part in word.split("-")):
            for end in range(len(w), 3, -1):
                code = language_code(w[:end])
                if code:
                    return code, w
        return None
    if dimension in ("audience", "format"):
        table = _AUDIENCES if dimension == "audience" else FORMATS
        best: tuple[int, str, str] | None = None
        for key, value in table.items():
            for form in {key, _PLURAL_S.sub("", key)}:
                m = re.search(r"(?<![\w\-])" + re.escape(form) + r"(?![\w\-])", low)
                if m and (best is None or len(form) > len(best[2])):
                    best = (m.start(), value, form)
        if best is None and dimension == "audience":
            aged = ages(q)
            if aged:
                audience, start, end = aged[0]
                return audience, q[start:end]
            return school_year(q)
        return (best[1], best[2]) if best else None
    if dimension == "length":
        cons, spans = find_constraints(_spelled(q), wh_factual=False)
        more, _ = _bare_constraints(_spelled(q), list(spans))
        for c in (*cons, *more):
            if c.dimension == "length":
                return c.value, c.text or c.value
        for w in _words(q):
            if w in _LENGTH_WORDS:
                return _LENGTH_WORDS[w], w
        return None
    if not span or not _content(span):
        return None
    if dimension == "source":
        value = span.lower()
        if value in _GENERIC_DOCS or (_words(value) or [""])[0] in _ASKS:
            return None
        return value, span
    return span.lower(), span


def _guided_constraint(q: str, previous: QueryPlan, turn: _Turn | None) -> FollowUp | None:
    """Rule 9's last constraint reader: the dimension and negation the turn reader reads,
    the value of that dimension from the turn's words (:func:`_dimension_value`), made a
    constraint the way rule 4 makes one (:func:`_normalised`); None when the reader is
    not ``READER.dimension_p`` sure of a dimension or the turn has no such value."""
    reading = turn.reading() if turn is not None else None
    if reading is None or not getattr(reading, "dimensions", None):
        return None
    dimension = max(reading.dimensions, key=reading.dimensions.__getitem__)
    if reading.dimensions[dimension] < READER.dimension_p:
        return None
    found = _dimension_value(dimension, q, reading.span)
    if found is None:
        return None
    value, said = found
    at = q.lower().find(said.lower())
    span = (at, at + len(said)) if at >= 0 else (0, 0)
    c = Constraint(
        dimension,
        value,
        negated=reading.negated_p >= 0.5,
        hard=dimension not in ("audience", "format"),
        text=said,
    )
    c = _kind_as_source(c) if dimension == "keyword" else c
    c = _normalised(q, c, span)
    if reading.negated_p < 0.5 and c.negated and dimension != "length":
        c = dataclasses.replace(c, negated=False)  # the reader reads the operators' scope
    have = {_same(x) for x in previous.constraints}

    def apply(plan: QueryPlan) -> None:
        if _same(c) not in have:
            plan.constraints.append(c)

    changes = [f"+ constraint {c.dimension} {'not ' if c.negated else ''}{c.value}"]
    return _edit(
        previous, "add_constraint", _con(c), "9 constraint by the turn reader", changes, apply
    )


def _sibling_span(x: str, raw: str, previous: QueryPlan) -> bool:
    """Rule 7's sibling tests on the reader's facet: a name where the topic has another
    ("rewilding in the Lake District" after "… in the Scottish Highlands"), or the slot
    of the preposition before it already filled ("in schools" after "… in train
    stations")."""
    names = [w for w in re.findall(r"[^\W\d_][\w'’\-]*", x) if w[:1].isupper()]
    if names and _name_for_name(" ".join(names), previous):
        return True
    at = raw.find(x)
    before = _words(raw[:at])[-1:] if at > 0 else []
    return (
        bool(before)
        and before[0] in _PREPOSITIONS
        and _slot_taken(before[0], _content(x), previous)
    )


def _as_kind(
    kind: str,
    p: float,
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    turn: _Turn | None = None,
) -> FollowUp | None:
    """The turn read as the edit the turn-kind model names, at probability ``p`` (rules 8
    and 9), or None when the kind's reader finds no value or the model is not sure
    enough."""
    from assistant.understand.turn_kind import MIN_P

    note = f"{'9' if kind in _LENIENT else '8'} turn-kind model ({kind} {p:.2f})"
    if kind in _LENIENT:
        if p < LENIENT_P[kind]:
            return None
        found = _span_edit(kind, previous, turn) if READER.span_first else None
        if found is not None and READER.extend_span and isinstance(found.value, str):
            ruled = _LENIENT[kind](q, previous, p)
            if ruled is not None and isinstance(ruled.value, str):
                mine, theirs = set(_content(found.value)), set(_content(ruled.value))
                if mine < theirs and len(_words(ruled.value)) <= 8:
                    found = ruled  # the clause the span begins: "dentists of the NHS"
        found = found or _LENIENT[kind](q, previous, p)
        if found is None and kind == "add_constraint":
            found = _guided_constraint(q, previous, turn)
        if found is None and not READER.span_first:
            found = _span_edit(kind, previous, turn)
        if (
            found is not None
            and found.edit == "add_aspect"
            and isinstance(found.value, str)
            and _sibling_span(found.value, turn.raw if turn is not None else q, previous)
        ):
            return None  # "what about rewilding in the Lake District?" after "… Highlands"
        if found is not None:
            found.rule = note
        return found
    if p < MIN_P or kind not in ("more", "one_side"):
        return None
    if kind == "one_side":
        # a statement of its own ("the arguments that zoos are essential for saving
        # endangered animals") is judged whole before its words are read one by one
        argued = _arguments_side(q, previous)
        side = argued[0] if argued else _side_by_claim(q, previous, judge)
        if side is not None and argued is None:
            note += " by the stance model"
        side = side or _side_named(q, previous)
        if side is None:
            side = _read_side(q, previous, judge, turn, ("pro", "con"))
            note += " side by the side reader" if side is not None else ""
        return _one_side(previous, side, note) if side is not None else None
    side = _side_named(q, previous) or _one_sided(previous)
    if side is None:
        side = _read_side(q, previous, judge, turn, ("pro", "con", "both"))
        note += " side by the side reader" if side is not None else ""
    return _page(previous, side or "both", note)


def _read_side(
    q: str,
    previous: QueryPlan,
    judge: FacetJudge,
    turn: _Turn | None,
    allowed: tuple[str, ...],
) -> Side | None:
    """The side a request names in words no rule knows: the turn reader's, at
    ``READER.side_p``, else the logistic side reader's (:func:`_learned_side`)."""
    reading = turn.reading() if turn is not None else None
    if reading is not None and reading.side in allowed and reading.side_p >= READER.side_p:
        return reading.side
    return _learned_side(q, previous, judge, allowed)


def _learned_side(
    q: str, previous: QueryPlan, judge: FacetJudge, allowed: tuple[str, ...]
) -> Side | None:
    """The side the trained side reader (:mod:`assistant.understand.turn_kind`) reads in a
    request whose words name none the rules know ("only the ban camp", "give me the 'yes,
    keep it' people only"), when it is at least ``SIDE_P`` sure and the side is one of
    ``allowed``; only after a two-sided turn, the context it was trained in."""
    from assistant.understand.turn_kind import SIDE_P

    if _one_sided(previous) or not hasattr(judge, "side"):
        return None
    read = judge.side(q, previous.root_query or previous.question)
    if read is None or read[1] < SIDE_P or read[0] not in allowed:
        return None
    return read[0]  # type: ignore[return-value]


# the rules whose reading the turn-kind model (with the turn reader, round 9) may
# overrule when it is sure of another kind (chosen on the development sets, each held out
# in turn: 0.9 in round 7, 0.8 with the turn reader)
SECOND_OPINION_RULES = frozenset("234567")
SECOND_OPINION_P = 0.8


def _overlap(a: str, b: str) -> float:
    """Content-word IoU of two phrases, on stems (as the eval compares values)."""
    sa, sb = {_stem(w) for w in _content(a)}, {_stem(w) for w in _content(b)}
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _second_opinion(
    found: FollowUp,
    text: str,
    previous: QueryPlan,
    judge: FacetJudge | None,
    turn: _Turn | None = None,
) -> FollowUp:
    """A reading of rules 2-7 stands unless the turn-kind model reads another kind at
    P >= ``SECOND_OPINION_P`` and that kind's reader finds its value ("focus on the
    arguments against it": a side, not a facet), or reads a new topic that sure ("buy a
    house or rent?"). A facet, dropped facet or group of rules 5-7 takes the reader's
    span instead when the reader reads the same kind at ``READER.override_p`` and points
    at other words ("What about children? Parents keep writing in.")."""
    if judge is None or not found.follows or found.rule[:1] not in SECOND_OPINION_RULES:
        return found
    turn = turn or _Turn(judge, text, previous)
    read = turn.kind(text)
    if read is None or read[0] == found.edit or read[1] < SECOND_OPINION_P:
        return _override_value(found, previous, turn)
    kind, p = read
    if kind == "new_topic":
        return FollowUp(False, "new_topic", rule=f"9 turn-kind model (new_topic {p:.2f})")
    other = _as_kind(kind, p, unwrap(text), previous, judge, turn)
    return other or _override_value(found, previous, turn)


def _override_value(found: FollowUp, previous: QueryPlan, turn: _Turn) -> FollowUp:
    if (
        READER.override_p > 1
        or found.edit not in SPAN_KINDS
        or found.rule[:1] not in "567"
        or not isinstance(found.value, str)
    ):
        return found
    reading = turn.reading()
    if reading is None or reading.kinds.get(found.edit, 0.0) < READER.override_p:
        return found
    other = _span_edit(found.edit, previous, turn)
    if other is None or _overlap(str(other.value), found.value) >= 0.5:
        return found
    other.rule = f"{found.rule}, value by the turn reader"
    return other


# a side named by what it claims ("only the ones saying servers would end up earning
# less", "the position that rejoining would strengthen the economy")
_CLAIMED = re.compile(
    r"\b(?:arguments?|case|side|ones|people|those|camp|view|position|folks|sources|stuff|"
    r"articles|evidence|reasons?|points?|material|voices|perspective|take|studies)\s+"
    r"(?:(?:from|of)\s+(?:people|those|folks)\s+)?(?:(?:(?:that|which|who)\s+)?"
    r"(?:say|says|saying|sayin|argue|argues|arguing|claim|claims|claiming|think|thinks|"
    r"believe|believes|feel|feels|insist|insists|insisting|assert|asserts|asserting|maintain|"
    r"maintains|stating|states|contend|contends|holding|hold|holds)\b\s*(?:that\s+)?|that\s+)"
    r"(?P<c>[^\W\d_].*?)\s*[?.!]*$",
    re.I,
)
# how sure the stance model must be of a claimed side (its share of P(A) + P(B)); chosen
# on the development dialogue sets (tests/data/conversation_dev*.jsonl)
CLAIMED_SIDE_P = 0.5


def _side_by_claim(q: str, previous: QueryPlan, judge: FacetJudge) -> Side | None:
    """The side whose claim the turn's own statement supports, as the stance model
    (:mod:`assistant.stance`) judges the statement against the previous plan's two claims;
    None when the turn states nothing, or the model is unsure."""
    if not all(previous.claims):
        return None
    m = _CLAIMED.search(q)
    if m is None or not _content(m.group("c")):
        return None
    p = judge.claim_side(previous.claims_question(), previous.claims, m.group("c"))
    if p is None:
        return None
    a, b = p[0], p[1]
    if max(a, b) < p[2] or max(a, b) / max(a + b, 1e-9) < CLAIMED_SIDE_P:
        return None
    return "pro" if a > b else "con"


def _own_phrase(
    x: str, previous: QueryPlan, also: Iterable[str] = (), limit: int = 6
) -> str | None:
    """The span of ``x`` from its first to its last word of its own (not filler, courtesy,
    a pointer, a request verb, a word of ``also`` or of the previous topic), at most
    ``limit`` such words, with the facet's lead and tail taken off; None when there is
    none."""
    own = _own_tokens(x, previous, _REQUEST_VERBS | set(also))
    if not own or len(own) > limit:
        return None
    end = own[-1][2]
    toks = _tokens(x)
    topic = _topic_stems(previous)
    at = next(i for i, t in enumerate(toks) if t[1] == own[-1][1])
    # a word of the topic right after the last word of its own is the phrase's head:
    # "rural schools" after a question on school uniforms, not "rural"
    if (
        at + 1 < len(toks)
        and _stem(toks[at + 1][0]) in topic
        and not x[end : toks[at + 1][1]].strip()
    ):
        end = toks[at + 1][2]
    span = _clean_facet(x[own[0][1] : end])
    return span if _content(span) else None


# a facet named anywhere in a request (rule 9): the phrase after a frame ("could you
# also look at how it would work in rural areas", "the effect on single parents")
_FACET_SEARCH = re.compile(
    r"\b(?:(?:what|wat|how)\s+(?:about|abt)|focus(?:ing)?\s+(?:more\s+)?on|concentrate\s+on|"
    r"zoom\s+in\s+on|look(?:ing)?\s+(?:more\s+|specifically\s+|closely\s+|more\s+closely\s+|"
    r"particularly\s+|especially\s+)?(?:at|into)|examine|examining|explore|"
    r"exploring|consider(?:ing)?|cover(?:ing)?|address(?:ing)?|discuss(?:ing)?|"
    # a facet the user is curious or worried about ("curious about the animal welfare
    # angle", "wondering whether it helps with burnout", "what does it do to traffic
    # accidents", "the dimension of reviewer bias")
    r"(?:curious|wondering|worried|concerned|interested)\s+(?:about|in|with)|"
    r"(?:do(?:es)?|did|would|will)\s+(?:it|this|that|they)\s+do\s+(?:to|for)|"
    r"(?:what|how)\s+(?:it|this|that|they)\s+(?:does|do|did|would\s+do)\s+(?:to|for)|"
    r"help(?:s|ing)?\s+with|"
    r"(?:the|this|that)\s+(?:dimension|aspect|angle|question|issue|matter|role)\s+of|"
    r"(?:effects?|impacts?|consequences|implications|influence|bearing)\s+(?:on|for|of)|"
    r"(?:evidence|research|data|anything|something|info(?:rmation)?|studies|material|more)\s+"
    r"(?:on|about|regarding|concerning)(?:\s+whether)?|"
    r"(?:affects?|affecting|impacts?|impacting|hits?|hurts?|disadvantages?|changes?\s+things\s+for|"
    r"influences?)(?:\s+on)?|"
    r"(?:works?|working|work(?:s|ed)?\s+out|plays?\s+out|applies|apply|meant|means|mean|looks?)"
    r"\s+(?:for|in|on|to|among)|cope\s+with|deal\s+with|"
    # the same in the other languages ("was ist mit den Unfallzahlen?", "e l'impatto sulla
    # biodiversità?", "l'effet sur les loyers")
    r"was\s+ist\s+mit|auswirkungen?\s+auf|einfluss\s+auf|impacto\s+(?:en|sobre|no|na|nos|nas)|"
    r"efecto\s+(?:en|sobre)|efeito\s+(?:no|na|nos|nas|sobre)|impatto\s+(?:su|sul|sulla|sui|"
    r"sulle|sugli)|effetto\s+(?:su|sul|sulla|sui|sulle)|(?:effet|impact)\s+sur|"
    r"(?:effect|invloed|impact)\s+op)\s+(?P<x>\S.*)$",
    re.I,
)
# a facet that is the subject of its own question ("how do pesticide residues compare?")
_FACET_SUBJECT = re.compile(
    r"\bhow\s+(?:do|does|would|will|did)\s+(?P<x>.+?)\s+(?:compare|factor|fit|figure|come)\b", re.I
)
# a facet asked to be covered ("I'd like the cost to schools covered")
_FACET_OBJECT = re.compile(
    r"\b(?:like|want|need|have|get)\s+(?P<x>.+?)\s+(?:covered|included|addressed|considered|"
    r"looked\s+at|discussed)\b",
    re.I,
)
# where a facet's phrase ends: a new clause, a reason, an aside
_FACET_END = re.compile(
    r"\s*(?:[,;:!?()]|\.(?:\s|$)|\s[-–—]\s|"
    r"\s(?:would|might|could|may)\s+be\s+(?:worth|good|useful|nice|interesting|helpful)|"
    r"\s(?:since|because|as\s+(?:that|this|it|i|we)|so|if|"
    r"do\s+you\s+(?:reckon|think)|tho|though|in\s+particular|specifically|specificaly|"
    r"especially|please|pls)\b)",
    re.I,
)


# a relative clause after a phrase of two or more words ends the facet (a population
# named by it, "people who rent", is kept whole)
_RELATIVE = re.compile(r"^(?P<h>\S+(?:\s+\S+)+?)\s+(?:who|which|whose)\s+\S", re.I)
_PLACES_LIKE = re.compile(
    r"^\s*(?:(?:um|uh|like)\s+)*(?:(?:in\s+)?(?:places|countries|cities|somewhere|towns|states|"
    r"regions)\s+like|such\s+as)\s+",
    re.I,
)


def _framed_facet(q: str, previous: QueryPlan) -> str | None:
    """The facet a frame names anywhere in the turn (the innermost frame: "look at how it
    would work in rural areas" -> "rural areas"), up to the end of its clause."""
    m = _FACET_SUBJECT.search(q)
    if m and not _PRONOUN_OBJECT.match(m.group("x")):
        found = _own_phrase(m.group("x"), previous, limit=8)
        if found:
            return found
    found = None
    text = q
    for _ in range(4):
        m = _FACET_SEARCH.search(text) or _FACET_OBJECT.search(text)
        if m is None:
            break
        x = _FACET_END.split(m.group("x"), maxsplit=1)[0]
        x = _PLACES_LIKE.sub("", x)  # "in places like Toronto" -> "Toronto"
        rel = _RELATIVE.match(x)
        if rel and not _POPULATION_FRAME.match(x):
            x = rel.group("h")  # "poor defendants who can't afford a lawyer"
        phrase = _own_phrase(x, previous, limit=8)
        if phrase is None:
            break
        found, text = phrase, m.group("x")
    return found


def _lenient_facet(q: str, previous: QueryPlan, p: float = 1.0) -> FollowUp | None:
    """Rule 9's facet: the phrase a facet frame names anywhere in the turn, read at
    ``LENIENT_P["add_aspect"]``; without a frame, the turn's own words at
    ``LENIENT_P["add_aspect_unframed"]``."""
    sentences = [x for x in _SENTENCE.split(q) if x.strip() and not _reaction(x)] or [q]
    for sentence in reversed(sentences):
        x = _framed_facet(sentence, previous)
        if x:
            return _add_aspect(previous, x)
    if p < LENIENT_P["add_aspect_unframed"] or len(sentences) > 1:
        return None
    x = _own_phrase(_FACET_END.split(q, maxsplit=1)[0], previous, also=_VIEW_RESIDUE)
    return _add_aspect(previous, x) if x else None


def _lenient_group(q: str, previous: QueryPlan, p: float = 1.0) -> FollowUp | None:
    """Rule 9's group: the one a view frame names ("what do X think"), else the phrase
    that ends in the last person noun of the turn ("rural nurses", "small landlords")."""
    for pat in _VIEWS:
        m = pat.search(q)
        if m:
            x = _clean_group(m.group("x"))
            if 1 <= len(_words(x)) <= 4 and not re.search(
                r"\b(?:about|regarding|on)\b|\bof\s+(?:it|this|that|them)\b", x
            ):
                return _add_perspective(previous, x)
    toks = _tokens(q)
    topic = _topic_stems(previous)
    for i in range(len(toks) - 1, -1, -1):
        if _is_person(toks[i][0]) and toks[i][0] not in fw.FILLER:
            j = i
            while (
                j > 0
                and i - j < 2
                and toks[j - 1][0] not in fw.FILLER
                and toks[j - 1][0] not in _VIEW_RESIDUE
                and toks[j - 1][0] not in fw.COURTESY
                and _stem(toks[j - 1][0]) not in topic
            ):
                j -= 1
            return _add_perspective(previous, q[toks[j][1] : toks[i][2]])
    return None


# where a dropped facet's words end: a reason or a new clause about the user
_DROP_REASON = re.compile(
    r"\s*(?:[,;:?!]|\.\s|\.$|\s(?:if|since|because|as|so)\s|"
    r"\s(?=(?:my|i|i'm|we|our|they|he|she)\s+\w+))",
    re.I,
)


def _lenient_drop(q: str, previous: QueryPlan, p: float = 1.0) -> FollowUp | None:
    """Rule 9's dropped facet: the words after a drop verb, or the facet of the plan the
    turn names."""
    m = _DROP_VERB.search(q)
    x = _own_phrase(_DROP_REASON.split(m.group("x"), maxsplit=1)[0], previous) if m else None
    if x and _names_constraint(x.lower()):
        # "skip the videos my laptop can't play them": a format, not a facet
        return _constraint_edit(q, previous, lenient=True)
    if x is None:
        for a in previous.aspects:
            stems = {_stem(w) for w in _content(a.text)}
            if stems & {_stem(w) for w in _content(q)}:
                x = a.text
                break
    if not x:
        return None
    return _drop(previous, x)


def _drop(previous: QueryPlan, x: str) -> FollowUp:
    stems = {_stem(w) for w in _content(x)}
    return _edit(
        previous,
        "drop_aspect",
        x,
        "5 drop a facet",
        [f"- aspect {x}"],
        lambda plan: _without(plan, stems),
    )


_LENIENT: dict[str, Callable[[str, QueryPlan, float], FollowUp | None]] = {
    "add_constraint": lambda q, previous, p: _constraint_edit(q, previous, lenient=True),
    "add_aspect": _lenient_facet,
    "add_perspective": _lenient_group,
    "drop_aspect": _lenient_drop,
}


def _comment_and_request(text: str, previous: QueryPlan) -> FollowUp | None:
    """ "those feel shallow, only the long ones", "only short stuff pls, i have like an
    hour": a request that names its edit, beside a short comment on the answer or on the
    user's needs (no question, at most four words of its own). A phrase read only as a
    facet is not enough here: "what about tea, should we tax it" is a question of its own."""
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if c.strip()]
    if len(clauses) < 2:
        return None
    # a clause read only as a facet is set aside below, so the facet judge is not asked
    reads = [(_read(c, previous, None), c) for c in clauses]
    follow = [r for r, _ in reads if r is not None and not r.rule.startswith("7")]
    rest = [c for r, c in reads if r is None or r.rule.startswith("7")]
    if len(follow) != 1:
        return None
    for c in rest:
        if c.rstrip().endswith("?") or _QUESTION_START.match(unwrap(c)) or _OWN_QUESTION.search(c):
            return None
        if len(_residue(c, previous=previous)) > 4:
            return None
    return follow[0]
