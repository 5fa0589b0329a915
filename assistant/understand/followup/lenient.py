"""Rule 9's value readers: once the learned readers are sure of a kind the rules could not
read, the value is taken leniently (the turn reader's span, a facet a frame names
anywhere in the turn, the group a view frame or a person noun names, the facet a drop
names, the constraint finders with words of the turn's own allowed, a constraint's
dimension from the reader and its value from the turn's words).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from assistant.models import Constraint, QueryPlan
from assistant.understand.constraints import find_constraints
from assistant.understand.followup import words as fw
from assistant.understand.followup.bare import _bare_constraints
from assistant.understand.followup.constraint import (
    _constraint_edit,
    _kind_as_source,
    _names_constraint,
    _normalised,
    _same,
    _spelled,
)
from assistant.understand.followup.constraint_words import (
    _ASKS,
    _AUDIENCES,
    _GENERIC_DOCS,
    _LENGTH_WORDS,
)
from assistant.understand.followup.drop import _DROP_REASON, _DROP_VERB
from assistant.understand.followup.edits import (
    FollowUp,
    Rule,
    _add_aspect,
    _add_perspective,
    _con,
    _drop,
    _edit,
)
from assistant.understand.followup.facet import (
    _POPULATION_FRAME,
    _clean_facet,
    _name_for_name,
    _slot_taken,
)
from assistant.understand.followup.group import _VIEW_RESIDUE, _VIEWS, _clean_group
from assistant.understand.followup.normalise import _SENTENCE, _reaction, unwrap
from assistant.understand.followup.readers import _Turn
from assistant.understand.followup.settings import DEFAULTS, SPAN_KINDS, ResolverSettings
from assistant.understand.followup.words import (
    _PREPOSITIONS,
    _PRONOUN_OBJECT,
    _REQUEST_VERBS,
    _content,
    _is_person,
    _own_tokens,
    _stem,
    _tokens,
    _topic_stems,
    _words,
)
from assistant.understand.values import (
    FORMATS,
    ages,
    language_code,
    school_year,
)
from assistant.understand.vocab import VOCAB, alternation, every

# the cue words of rule 9's readers (words/side_turns.yaml, section lenient), each list
# read here once
_L = VOCAB.side_turns.lenient


def _span_edit(kind: str, previous: QueryPlan, turn: _Turn | None) -> FollowUp | None:
    """The edit of a span kind with the reader's span as its value, or None when the
    reader found no span with a word of its own at ``settings.span_p``."""
    if kind not in SPAN_KINDS:
        return None
    reading = turn.reading() if turn is not None else None
    span_p = turn.settings.span_p if turn is not None else DEFAULTS.span_p
    if reading is None or not reading.span or reading.span_p < span_p:
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
    r"^(?:the\s+)?"
    + alternation(_L.span_frame_nouns)
    + r"\s+"
    + alternation(_L.span_frame_links)
    + r"\s+",
    re.I,
)


def _dimension_value(dimension: str, q: str, span: str | None) -> tuple[str, str] | None:
    """(value, the words it was read from) of a constraint of ``dimension`` in the turn:
    a language's name in any of the users' languages, inflected or not ("keine deutschen
    Quellen" -> de), an audience or a format the lexicons list (a plural for a singular:
    "slide format" -> slides), a length the finders read or a length word, a source's
    or keyword's words where the reader points; None when the turn has none."""
    if dimension == "language":
        return _language_value(q)
    if dimension in ("audience", "format"):
        found = _table_value(_AUDIENCES if dimension == "audience" else FORMATS, q)
        if found is None and dimension == "audience":
            aged = ages(q)
            if aged:
                audience, start, end = aged[0]
                return audience, q[start:end]
            return school_year(q)
        return found
    if dimension == "length":
        return _length_value(q)
    if not span or not _content(span):
        return None
    if dimension == "source":
        value = span.lower()
        if value in _GENERIC_DOCS or (_words(value) or [""])[0] in _ASKS:
            return None
        return value, span
    return span.lower(), span


def _language_value(q: str) -> tuple[str, str] | None:
    """A language's name, or its beginning: an inflection ("deutschen") or a compound
    ("deutschsprachige", "spanischsprachig")."""
    for w in (part for word in _words(q) for part in word.split("-")):
        for end in range(len(w), 3, -1):
            code = language_code(w[:end])
            if code:
                return code, w
    return None


def _table_value(table: dict[str, str], q: str) -> tuple[str, str] | None:
    """The longest key of ``table`` (or its singular) the turn says, and its value."""
    low = q.lower()
    best: tuple[int, str, str] | None = None
    for key, value in table.items():
        for form in {key, _PLURAL_S.sub("", key)}:
            m = re.search(r"(?<![\w\-])" + re.escape(form) + r"(?![\w\-])", low)
            if m and (best is None or len(form) > len(best[2])):
                best = (m.start(), value, form)
    return (best[1], best[2]) if best else None


def _length_value(q: str) -> tuple[str, str] | None:
    """A length the constraint finders read, or a length word."""
    cons, spans = find_constraints(_spelled(q), wh_factual=False)
    more, _ = _bare_constraints(_spelled(q), list(spans))
    for c in (*cons, *more):
        if c.dimension == "length":
            return c.value, c.text or c.value
    for w in _words(q):
        if w in _LENGTH_WORDS:
            return _LENGTH_WORDS[w], w
    return None


def _guided_constraint(q: str, previous: QueryPlan, turn: _Turn | None) -> FollowUp | None:
    """Rule 9's last constraint reader: the dimension and negation the turn reader reads,
    the value of that dimension from the turn's words (:func:`_dimension_value`), made a
    constraint the way rule 4 makes one (:func:`_normalised`); None when the reader is
    not ``settings.dimension_p`` sure of a dimension or the turn has no such value."""
    reading = turn.reading() if turn is not None else None
    if reading is None or not getattr(reading, "dimensions", None):
        return None
    dimension = max(reading.dimensions, key=reading.dimensions.__getitem__)
    if turn is None or reading.dimensions[dimension] < turn.settings.dimension_p:
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
    return _edit(previous, "add_constraint", _con(c), Rule.GUIDED_CONSTRAINT, changes, apply)


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
    r"\b(?:"
    + alternation(_L.facet_cues, _L.facet_cue_patterns)
    + "|"
    # a facet the user is curious or worried about ("curious about the animal welfare
    # angle", "wondering whether it helps with burnout", "what does it do to traffic
    # accidents", "the dimension of reviewer bias")
    + alternation(_L.concern_words)
    + r"\s+(?:about|in|with)|"
    r"(?:do(?:es)?|did|would|will)\s+(?:it|this|that|they)\s+do\s+(?:to|for)|"
    r"(?:what|how)\s+(?:it|this|that|they)\s+(?:does|do|did|would\s+do)\s+(?:to|for)|"
    r"(?:the|this|that)\s+"
    + alternation(_L.facet_nouns)
    + r"\s+of|"
    + alternation(_L.effect_nouns)
    + r"\s+(?:on|for|of)|"
    + alternation(_L.evidence_nouns)
    + r"\s+(?:on|about|regarding|concerning)(?:\s+whether)?|"
    + alternation(_L.effect_verbs)
    + r"(?:\s+on)?|"
    + alternation(_L.apply_verbs)
    + r"\s+(?:for|in|on|to|among)|"
    # the same in the other languages ("was ist mit den Unfallzahlen?", "e l'impatto sulla
    # biodiversità?", "l'effet sur les loyers")
    + alternation(every(_L.effect_cues))
    + r")\s+(?P<x>\S.*)$",
    re.I,
)


# a facet that is the subject of its own question ("how do pesticide residues compare?")
_FACET_SUBJECT = re.compile(
    r"\bhow\s+(?:do|does|would|will|did)\s+(?P<x>.+?)\s+" + alternation(_L.subject_verbs) + r"\b",
    re.I,
)


# a facet asked to be covered ("I'd like the cost to schools covered")
_FACET_OBJECT = re.compile(
    r"\b"
    + alternation(_L.wish_verbs)
    + r"\s+(?P<x>.+?)\s+"
    + alternation(_L.covered_words)
    + r"\b",
    re.I,
)


# where a facet's phrase ends: a new clause, a reason, an aside
_FACET_END = re.compile(
    r"\s*(?:[,;:!?()]|\.(?:\s|$)|\s[-–—]\s|"
    r"\s(?:would|might|could|may)\s+be\s+"
    + alternation(_L.aside_words)
    + r"|\s"
    + alternation(_L.clause_breaks, _L.clause_break_patterns)
    + r"\b)",
    re.I,
)


# a relative clause after a phrase of two or more words ends the facet (a population
# named by it, "people who rent", is kept whole)
_RELATIVE = re.compile(r"^(?P<h>\S+(?:\s+\S+)+?)\s+(?:who|which|whose)\s+\S", re.I)


_PLACES_LIKE = re.compile(
    r"^\s*(?:"
    + alternation(_L.hesitations)
    + r"\s+)*(?:(?:in\s+)?"
    + alternation(_L.place_nouns)
    + r"\s+like|such\s+as)\s+",
    re.I,
)

# a group that holds one of these words speaks of a topic ("what do they think about it")
_ABOUT_TOPIC = re.compile(
    r"\b" + alternation(_L.group_topic_links) + r"\b|\bof\s+(?:it|this|that|them)\b"
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


def _lenient_facet(
    q: str, previous: QueryPlan, p: float = 1.0, settings: ResolverSettings = DEFAULTS
) -> FollowUp | None:
    """Rule 9's facet: the phrase a facet frame names anywhere in the turn, read at
    ``lenient_add_aspect``; without a frame, the turn's own words at
    ``lenient_add_aspect_unframed``."""
    sentences = [x for x in _SENTENCE.split(q) if x.strip() and not _reaction(x)] or [q]
    for sentence in reversed(sentences):
        x = _framed_facet(sentence, previous)
        if x:
            return _add_aspect(previous, x)
    if p < settings.lenient_p("add_aspect_unframed") or len(sentences) > 1:
        return None
    x = _own_phrase(_FACET_END.split(q, maxsplit=1)[0], previous, also=_VIEW_RESIDUE)
    return _add_aspect(previous, x) if x else None


def _lenient_group(
    q: str, previous: QueryPlan, p: float = 1.0, settings: ResolverSettings = DEFAULTS
) -> FollowUp | None:
    """Rule 9's group: the one a view frame names ("what do X think"), else the phrase
    that ends in the last person noun of the turn ("rural nurses", "small landlords")."""
    for pat in _VIEWS:
        m = pat.search(q)
        if m:
            x = _clean_group(m.group("x"))
            if 1 <= len(_words(x)) <= 4 and not _ABOUT_TOPIC.search(x):
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


def _lenient_drop(
    q: str, previous: QueryPlan, p: float = 1.0, settings: ResolverSettings = DEFAULTS
) -> FollowUp | None:
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


def _lenient_constraint(
    q: str, previous: QueryPlan, p: float = 1.0, settings: ResolverSettings = DEFAULTS
) -> FollowUp | None:
    """Rule 9's constraint: the constraint finders with words of the turn's own allowed."""
    return _constraint_edit(q, previous, lenient=True)


# rule 9's reader of each kind: (turn, previous plan, P(kind), settings) -> the edit or None
_LENIENT: dict[str, Callable[[str, QueryPlan, float, ResolverSettings], FollowUp | None]] = {
    "add_constraint": _lenient_constraint,
    "add_aspect": _lenient_facet,
    "add_perspective": _lenient_group,
    "drop_aspect": _lenient_drop,
}
