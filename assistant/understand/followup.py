"""Follow-ups: a turn with no topic of its own is an edit of the previous turn's plan.

**The rule for "no topic of its own"** (tested in ``tests/test_followup.py``,
measured by ``sphere eval conversation``). A turn follows the previous one when
one of these holds, tried in this order:

1. it points at the answer: a reference number ("why is [8] under Claim B?",
   "compare [2] and [8]", "drop [5]");
2. it asks for more of the same ranking ("more from the other side", "show me
   more", "any more against?");
3. it narrows to one side of the previous claims ("just the case against",
   "only the pro arguments", "now only the critics");
4. it drops a facet ("forget the cost part");
5. it is made of constraint phrases only, once the filler words are gone
   ("only stuff in Spanish", "nothing from blogs");
6. it asks for a group's view of the same topic ("what do teachers say?"), the
   group being a short phrase with no topic after it ("…of nuclear power");
7. it asks about a facet ("what about the cost?", "and jobs?", "how does that
   affect students?") whose words are a facet noun, a word of the previous
   topic, or come with a pronoun pointing back ("that", "it", "this").

Everything else is a new topic: in particular "what about nuclear power then?"
after a question on coal, whose words are neither a facet nor the previous
topic's, starts a new thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assistant.models import Aspect, Constraint, QueryPerspective, QueryPlan, Side
from assistant.understand.constraints import find_constraints
from assistant.understand.cues import split_words
from assistant.understand.text import _words, check_question

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

# words that carry no topic in a follow-up
_FILLER = frozenset(
    split_words(
        "a an the and or but so then now ok okay also too please just only what about how "
        "and also me us i we you it that this those these them they there here any some "
        "stuff things docs documents articles sources results pages ones one can could would "
        "show give find get want need like prefer let's lets see more less is are do does "
        "of in on for from to with by as at bit part aspect side thanks thank pls plz yeah yes "
        "no not nothing anything something well hmm right restrict limit include provide "
        "present make answer material manner suitable keep set results result matter "
        "restrict restricting restricted confine confining limit limiting include including "
        "form way version stick level pls"
    )
)
# facets that a follow-up asks about without naming a topic of its own
FACET_NOUNS = frozenset(
    split_words(
        "cost costs price prices money budget expense expenses economy economics economic jobs "
        "employment wages safety risk risks health healthcare environment environmental climate "
        "emissions pollution privacy security freedom rights ethics morality law legality "
        "legal regulation effect effects impact impacts outcome outcomes results performance "
        "quality time speed efficiency productivity wellbeing well-being mental stress "
        "children kids students teachers parents families women men elderly workers "
        "employees business businesses small poor rich developing countries rural urban "
        "history evidence data research studies science scientists experts public opinion "
        "politics political education learning grades crime violence equality inequality "
        "fairness access accessibility availability maintenance durability reliability "
        "taste flavour flavor nutrition calories sugar salt price-wise long-term "
        "short-term future taxpayers government funding noise traffic congestion "
        "accidents air tourism tourists culture identity community innovation competition "
        "consumers customers users patients doctors nurses animals wildlife nature energy "
        "water food housing rent transport side-effects effectiveness cost-effectiveness "
        "waste welfare service socialization socialisation morale burnout wellness fairness "
        "recycling jobs-wise enforcement compliance"
    )
)
_REF = (
    r"(?:#\s*|no\.?\s*|number\s+|ref(?:erence)?\s+|source\s+|doc(?:ument)?\s+)?"
    r"\[?\s*(\d{1,3})\s*\]?"
)
_EXPLAIN = re.compile(
    r"\b(?:why|how come|explain|what makes|justify)\b.*?(?:\[(\d{1,3})\]|"
    r"\b(?:ref(?:erence)?|source|doc(?:ument)?|number|#)\s*(\d{1,3})\b|"
    r"\b(\d{1,3})\s+(?:there|here|under|in|listed|included|cited)\b)"
    r"|\b(?:ref(?:erence)?|source|doc(?:ument)?|#)\s*\[?(\d{1,3})\]?\s+doing\b",
    re.I,
)
_COMPARE = re.compile(
    r"\b(?:compare|contrast|difference between|side by side)\b.*?"
    + _REF
    + r"\s*(?:and|&|,|with|vs\.?|to)\s*"
    + _REF,
    re.I,
)
_DROP_REF = re.compile(
    r"\b(?:drop|remove|delete|exclude|get rid of|take out|lose|ignore|hide)\s+" + _REF + r"(?!\d)",
    re.I,
)
_REMOVE = re.compile(
    r"\b(?:drop|remove[ds]?|removing|delete|exclude|get rid of|take out|lose|ignore|hide|ditch|"
    r"strike|bin|leave out|cut|scrap|toss|kill|throw out|discard)\b",
    re.I,
)
_REF_MENTION = re.compile(
    r"\[(\d{1,3})\]|#\s*(\d{1,3})\b|\b(?:ref(?:erence)?|source|doc(?:ument)?|number|no\.)\s*"
    r"\[?(\d{1,3})\]?",
    re.I,
)


def _one_reference(text: str) -> int | None:
    """The one reference number a turn points at: "[8]", "#4", "ref 6", "source 2", or a bare
    number in a short turn ("why 3", "ditch 2", "why did you cite 7")."""
    found = {int(next(g for g in m.groups() if g)) for m in _REF_MENTION.finditer(text)}
    if not found:
        words = _words(text)
        bare = [w for w in words if w.isdigit() and len(w) <= 3]
        verbs = _REMOVE.search(text) or re.search(
            r"\b(?:why|cite[ds]?|cited|listed|there|doing)\b", text, re.I
        )
        if len(bare) == 1 and (len(words) <= 4 or verbs):
            found = {int(bare[0])}
    return found.pop() if len(found) == 1 else None


_MORE = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s+|please\s+|and\s+|now\s+|can you\s+|could you\s+)*"
    r"(?:show\s+(?:me\s+)?|give\s+(?:me\s+)?|any\s+|some\s+|find\s+|get\s+(?:me\s+)?|i want\s+|"
    r"i'd like\s+|see\s+|provide\s+|have\s+)?(?:a few\s+|some\s+)?(?:more|further|additional)\b"
    r"(?P<rest>.*)$",
    re.I,
)
_OTHER_SIDE = re.compile(r"\b(?:the\s+)?other\s+side\b|\bopposing\b|\bthe opposite\b", re.I)
_CON_WORDS = re.compile(
    r"\b(?:against|con|cons|critics?|critical|opponents?|opposing|negative|downsides?|sceptics?|"
    r"skeptics?|no side|anti)\b",
    re.I,
)
_PRO_WORDS = re.compile(
    r"\b(?:for|pro|pros|in favou?r|supporters?|proponents?|advocates?|positive|upsides?|benefits|"
    r"yes side)\b",
    re.I,
)
_ONE_SIDE = re.compile(
    r"\b(?:just|only|solely|exclusively|nothing but|now only|ok only|only show|just show|"
    r"just give|only give)\b",
    re.I,
)
_DROP_ASPECT = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s+|please\s+)*(?:forget|drop|ignore|skip|leave out|never ?mind|"
    r"remove|no more|stop (?:with|focusing on)|disregard|omit|don'?t care about|do not care about|"
    r"set aside)\s+(?:about\s+)?(?:the\s+)?(?:discussion of\s+|part about\s+)?(?:the\s+)?(?P<x>.+?)"
    r"(?:\s+(?:part|bit|aspect|angle|stuff|thing|question|considerations?|requirement|issue))?"
    r"\s*[.!?]*\s*$",
    re.I,
)
_PERSPECTIVE = re.compile(
    r"^\s*(?:and\s+|ok(?:ay)?[,.]?\s+|so\s+|now\s+)*(?:what\s+(?:(?:do|does|would|did)\s+)?(?P<a>.+?)\s+"
    r"(?:say|think|argue|believe|feel|make of (?:it|this|that))"
    r"|(?:and\s+)?(?:from\s+)?(?:the\s+)?(?P<b>.+?)(?:'s|’s|'|’)\s+(?:point of view|perspective|"
    r"view|side|take)"
    r"|(?:and\s+)?from\s+(?:the\s+)?(?:point of view|perspective|viewpoint)\s+of\s+"
    r"(?:the\s+)?(?P<c>.+?)"
    r"|how\s+do\s+(?P<d>.+?)\s+see\s+(?:it|this|that)"
    r"|what(?:'s|\s+is)\s+the\s+(?:view|position|take|opinion|stance|perspective)\s+of\s+"
    r"(?:the\s+)?(?P<e>.+?)(?:\s+on\s+(?:this|that|it)(?:\s+matter|\s+issue)?)?)"
    r"(?:\s+about\s+(?:it|this|that|them))?\s*[.!?]*\s*$",
    re.I,
)
_ASPECT = re.compile(
    r"^\s*(?:ok(?:ay)?[,.]?\s+|and\s+|but\s+|so\s+|now\s+)*(?:what\s+about|how\s+about|and\s+what\s+"
    r"about|what\s+of|focus\s+(?:on|more on)|more\s+on|tell\s+me\s+about|and|how\s+(?:does|do|"
    r"would|will|did)\s+(?:that|it|this|they|those)\s+(?:affect|impact|change|influence)|"
    r"look\s+at\s+how\s+(?:it|that|this|they)\s+(?:affects?|impacts?)|"
    r"(?:also\s+)?cover(?:ing)?\s+(?:the\s+)?|(?:i'?m|i am)\s+(?:mostly\s+|most\s+|more\s+)?"
    r"interested\s+in\s+(?:the\s+)?|(?:the\s+)?(?:impact|effect)s?\s+on|"
    r"how\s+does\s+(?:the\s+\w+\s+|this\s+\w+\s+)?(?:affect|impact)|"
    r"(?:add\s+)?(?:ones|those|options|places|results)\s+(?:with|that have|that are)|"
    r"what(?:'s| is| are)\s+the\s+(?:effect|impact)s?\s+on|(?:is|are)\s+(?:it|that|they)\s+"
    r"(?:good|bad)\s+for|does\s+(?:it|that|this)\s+(?:affect|help|hurt|harm))\s+"
    r"(?P<x>.+?)(?:\s+(?:angle|side|issues?|aspect|part))?\s*(?:then|too|as well|though)?"
    r"(?:,?\s+if that'?s (?:ok(?:ay)?|alright))?\s*[.!?]*\s*$",
    re.I,
)
_EXPLICIT_ASPECT = re.compile(
    r"^\s*(?:focus\s+(?:more\s+)?on|concentrate\s+on|zoom\s+in\s+on|look\s+(?:more\s+)?(?:at|into)|"
    r"(?:add\s+)?(?:ones|those|options|places|results)\s+(?:with|that have|that are)|"
    r"add\s+(?:ones\s+)?with)\s+(?:the\s+|a\s+|an\s+)?(?P<x>.+?)\s*[.!?]*\s*$",
    re.I,
)
_POINTER = re.compile(r"\b(?:that|it|its|this|these|those|them|their|there)\b", re.I)

# polite and conversational wrappers around a follow-up ("Could you …, please?")
_WRAP_START = re.compile(
    r"^\s*(?:(?:thanks|thank you|great|ok(?:ay)?|cool|nice|hmm|right|so|and|now|well|nvm|"
    r"never mind|on (?:second thought|reflection)|in that case|actually)[,.!]?\s+)*"
    r"(?:(?:please|kindly|would you be so kind as to|would you mind|could you(?: please)?|"
    r"can you(?: please)?|would you(?: please)?|i would like(?: to)?|i'd like(?: to)?|"
    r"could i(?: please)?|can i|could we|can we|let's|lets|i want(?: to)?|"
    r"tell me|gimme|give me)\s+)*",
    re.I,
)
_WRAP_END = re.compile(
    r"(?:[,.]?\s*(?:please|pls|if you (?:don't|do not) mind|if possible|thanks|thank you|"
    r"now|too|as well|though))+\s*[.!?]*\s*$",
    re.I,
)


def unwrap(text: str) -> str:
    """The follow-up without its polite or conversational wrapper."""
    t = _WRAP_START.sub("", text, count=1)
    t = _WRAP_END.sub("", t)
    return t.strip() or text.strip()


@dataclass
class FollowUp:
    """What a turn makes of the previous plan: the edit, its value, the plan to run."""

    follows: bool
    edit: str
    value: Any = None
    plan: QueryPlan | None = None
    rule: str = ""  # which step of the rule decided (for the session log)
    changes: list[str] = field(default_factory=list)  # "+ constraint language es"


def _content(text: str) -> list[str]:
    return [w for w in _words(text) if w not in _FILLER]


def _ref(m: re.Match[str]) -> int:
    return int(next(g for g in m.groups() if g))


def _side_named(text: str) -> Side | None:
    con, pro = bool(_CON_WORDS.search(text)), bool(_PRO_WORDS.search(text))
    if con and not pro:
        return "con"
    if pro and not con:
        return "pro"
    return None


def _related(words: list[str], previous: QueryPlan) -> bool:
    """Every word is one of the previous topic's (a shared head word alone, "inheritance
    tax" after "wealth tax", names a sibling topic, not a facet)."""
    prev = set(_words(" ".join((previous.root_query, previous.question, *previous.claims))))
    stems = {w[:5] for w in prev if len(w) > 3}
    return all(w in prev or (len(w) > 3 and w[:5] in stems) for w in words)


def resolve(text: object, previous: QueryPlan | None) -> FollowUp:
    """Read ``text`` against the previous turn's plan (the module docstring's rule)."""
    raw = check_question(text)
    if previous is None:
        return FollowUp(False, "new_topic", rule="first turn")
    q = unwrap(raw)
    two = re.findall(r"\[(\d{1,3})\]", raw) or re.findall(
        r"^(?:do|does|are|is|which|how do)\b.*?\b(\d{1,3})\s+(?:and|or|&)\s+(\d{1,3})\b", raw, re.I
    )
    if len(two) == 1 and isinstance(two[0], tuple):
        two = list(two[0])
    if len(two) == 2 and not _DROP_REF.search(raw):
        return FollowUp(True, "compare_refs", [int(two[0]), int(two[1])], rule="1 reference")
    m = _COMPARE.search(q)
    if m:
        a, b = (int(g) for g in m.groups() if g)
        return FollowUp(True, "compare_refs", [a, b], rule="1 reference")
    number = _one_reference(raw)
    if number is not None:
        edit = "drop_ref" if _REMOVE.search(raw) else "explain_ref"
        return FollowUp(True, edit, number, rule="1 reference")
    m = _MORE.match(q)
    if (
        m
        and len(
            _content(
                re.sub(
                    _CON_WORDS.pattern + "|" + _PRO_WORDS.pattern, " ", m.group("rest"), flags=re.I
                )
            )
        )
        <= 1
    ):
        rest = m.group("rest")
        side: str | None = None
        if _OTHER_SIDE.search(rest) and previous.target_side in ("pro", "con"):
            side = "con" if previous.target_side == "pro" else "pro"
        side = side or _side_named(rest) or "both"
        return FollowUp(
            True, "more", side, plan=previous.copy(), rule="2 more", changes=[f"+ page {side}"]
        )
    if _ONE_SIDE.search(q) and len(_content(_CON_WORDS.sub(" ", _PRO_WORDS.sub(" ", q)))) <= 2:
        named = _side_named(q)
        if named:
            return _one_side(previous, named)
    m = _DROP_ASPECT.match(q)
    if m and not re.search(r"\d", m.group("x")):
        x = m.group("x").strip()
        plan = previous.copy()
        xw = set(_content(x))
        plan.aspects = [a for a in plan.aspects if not (set(_content(a.text)) & xw)]
        return FollowUp(
            True, "drop_aspect", x, plan=plan, rule="4 drop a facet", changes=[f"- aspect {x}"]
        )
    if (
        previous.intent == "lookup"
        and re.match(r"^\s*(?:with|without|no)\s+\w", q, re.I)
        and not re.search(
            r"\b(?:sites?|blogs?|sources?|reviews?|forums?|websites?)\s*[.!?]*$", q, re.I
        )
    ):
        return _add_aspect(previous, q.strip(" ?.!"))  # "with no ricotta": a property
    cons, spans = find_constraints(q, wh_factual=False)
    if cons:
        rest = q
        for s, e in sorted(spans, reverse=True):
            rest = rest[:s] + " " + rest[e:]
        if not _content(rest):
            plan = previous.copy()
            have = {(c.dimension, c.value.lower(), c.negated) for c in plan.constraints}
            new = [c for c in cons if (c.dimension, c.value.lower(), c.negated) not in have]
            plan.constraints.extend(new)
            value = [_con(c) for c in cons]
            return FollowUp(
                True,
                "add_constraint",
                value[0] if len(value) == 1 else value,
                plan=plan,
                rule="5 constraints only",
                changes=[
                    f"+ constraint {c.dimension} {'not ' if c.negated else ''}{c.value}"
                    for c in new
                ],
            )
    who = _group_view(q)
    if who:
        return _add_perspective(previous, who)
    m = _PERSPECTIVE.match(q)
    if m:
        who = next(g for g in m.group("a", "b", "c", "d", "e") if g).strip()
        who = re.sub(r"^(?:the|a|an)\s+", "", who, flags=re.I)
        if (
            who
            and len(_words(who)) <= 4
            and not re.search(r"\b(?:of|about|on|regarding)\b", who, re.I)
        ):
            return _add_perspective(previous, who)
    m = _EXPLICIT_ASPECT.match(q)
    if m and len(_content(m.group("x"))) <= 5:
        return _add_aspect(previous, m.group("x").strip())
    side_only = _side_facets_only(q)
    if side_only is not None:
        return _one_side(previous, side_only)
    bare = re.sub(
        r"\s+(?:angle|side|issues?|aspect|part|too|as well)$", "", q.strip(" ?.!"), flags=re.I
    )
    bare = re.sub(r"^(?:what about|how about|and)\s+(?:the\s+)?", "", bare, flags=re.I)
    bw = _content(bare)
    if bw and len(bw) <= 2 and len(_words(bare)) <= 3 and bw[-1] in FACET_NOUNS:
        return _add_aspect(previous, bare)
    m = _ASPECT.match(raw) or _ASPECT.match(q)
    if m:
        x = re.sub(r"^(?:the|a|an)\s+", "", m.group("x").strip(), flags=re.I)
        pointer = re.match(r"(?:its|their|it's|this|that)\s+", x, re.I)
        if pointer:
            x = x[pointer.end() :]
        x = re.sub(r"\s+(?:angle|side|issues?|aspect|part)$", "", x, flags=re.I)
        words = _content(x)
        # the head: the last word before a preposition ("smartwatches for kids" -> smartwatches)
        head = _words(re.split(r"\s+(?:for|of|in|with|on|at|from)\s+", x, maxsplit=1)[0])
        head_word = head[-1] if head else ""
        facet = head_word in FACET_NOUNS or bool(_PERSON.search(head_word))
        back = bool(pointer) or bool(_POINTER.search(m.string[: m.start("x")]))
        if words and len(words) <= 4 and (facet or back or _related(words, previous)):
            return _add_aspect(previous, x)
    return FollowUp(False, "new_topic", rule="a topic of its own")


_PERSON = re.compile(
    r"(?:ists|ers|ors|ians|ants|ents|men|women|people|folks|officers|parents|children|kids|"
    r"staff|owners|users|voters|citizens|residents|patients|victims|families|athletes|"
    r"activists|experts|economists|scientists|doctors|nurses|teachers|students)$",
    re.I,
)
_VIEW_NOUN = r"(?:take|view|views|position|opinion|opinions|stance|perspective|point of view|side)"


def _group_view(q: str) -> str | None:
    """A group whose view is asked for, in the many ways people ask it."""
    pats = (
        r"^(?:what(?:'s|s| is| are)?\s+)?(?:the\s+)?" + _VIEW_NOUN + r"\s+(?:of|from)\s+(?:the\s+)?"
        r"(?P<x>.+?)(?:\s+on\s+(?:this|that|it|the)(?:\s+(?:matter|issue|question|topic))?)?$",
        r"^(?:i\s+(?:would|'d)\s+(?:like|be interested in|want)|include|add|give me|show me|"
        r"also include|please include)\s+(?:the\s+)?"
        + _VIEW_NOUN
        + r"\s+of\s+(?:the\s+)?(?P<x>.+?)$",
        r"^(?:any\s+)?" + _VIEW_NOUN + r"\s+from\s+(?:the\s+)?(?P<x>.+?)$",
        r"^how\s+do\s+(?:the\s+)?(?P<x>.+?)\s+feel(?:\s+about\s+(?:it|this|that|them))?$",
        r"^what\s+(?:are|is)\s+(?:the\s+)?(?P<x>.+?)\s+saying(?:\s+about\s+(?:it|this|that|them))?$",
        r"^what\s+(?:position|view|stance)\s+do\s+(?:the\s+)?(?P<x>.+?)\s+take$",
        r"^(?P<x>.+?)(?:'s|’s|'|’)?\s+" + _VIEW_NOUN + r"$",
        r"^(?P<x>[\w\- ]+?)$",
    )
    t = re.sub(r"^(?:and\s+)?(?:from\s+)?", "", q.strip(" ?.!,"), flags=re.I)
    for pat in pats:
        m = re.match(pat, t, re.I)
        if not m:
            continue
        x = re.sub(r"^(?:the|a|an)\s+", "", m.group("x").strip(), flags=re.I)
        words = _words(x)
        if not words or len(words) > 4 or re.search(r"\b(?:of|about|on|regarding)\b", x, re.I):
            continue
        if pat.endswith("(?P<x>[\\w\\- ]+?)$") and not _PERSON.search(x):
            continue  # a bare phrase is a view only if it names people ("marine biologists?")
        if _PERSON.search(words[-1]) or not pat.endswith("(?P<x>[\\w\\- ]+?)$"):
            return x
    return None


def _one_side(previous: QueryPlan, side: Side) -> FollowUp:
    plan = previous.copy()
    plan.intent, plan.target_side = "one_sided", side
    return FollowUp(
        True, "one_side", side, plan=plan, rule="3 one side", changes=[f"+ side {side}"]
    )


def _add_perspective(previous: QueryPlan, who: str) -> FollowUp:
    plan = previous.copy()
    plan.perspectives.append(QueryPerspective(text=who, role="entity"))
    return FollowUp(
        True,
        "add_perspective",
        who,
        plan=plan,
        rule="6 a group's view",
        changes=[f"+ perspective {who}"],
    )


def _add_aspect(previous: QueryPlan, x: str) -> FollowUp:
    plan = previous.copy()
    plan.aspects.append(Aspect(text=x))
    return FollowUp(True, "add_aspect", x, plan=plan, rule="7 a facet", changes=[f"+ aspect {x}"])


def _side_facets_only(text: str) -> Side | None:
    """ "any downsides?", "and the benefits?": facet nouns of one side and nothing else."""
    from assistant.understand.intent import _FACET

    found = {side for side, pat in _FACET.items() if pat.search(text)}
    if len(found) != 1:
        return None
    rest = text
    for pat in _FACET.values():
        rest = pat.sub(" ", rest)
    if _content(re.sub(r"\b(?:are|there|any|the|what|about|and)\b", " ", rest, flags=re.I)):
        return None
    return found.pop()


def _con(c: Constraint) -> dict[str, Any]:
    return {"dimension": c.dimension, "value": c.value, "negated": c.negated}
