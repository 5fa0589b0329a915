"""Source constraints (paper 002 §3): kinds of source ("blogs", "peer-reviewed journals"),
names ("from the BBC", "no Reddit"), domains and "according to X", as the question
parser reads them (:func:`assistant.understand.constraints.find_constraints`)."""

from __future__ import annotations

import re
from typing import Any

from assistant.understand.text import _alt, _scope, _span_text, _split_values, _trim
from assistant.understand.values import (
    SOURCE_ADJECTIVES,
    language_code,
)
from assistant.understand.vocab import VOCAB, alternation

# the question cues of this module (words/questions.yaml), each list read here once
_W = VOCAB.questions.sources
_SOURCE_NOUNS = _alt(VOCAB.values.source_nouns)


_DOMAIN_KINDS = dict(VOCAB.values.domain_kinds)


def _source_value(text: str) -> str:
    t = re.sub(r"^" + alternation(_W.value_determiners) + r"\s+", "", text.strip(), flags=re.I)
    t = re.sub(r"\s+" + _SOURCE_NOUNS + r"$", "", t, flags=re.I).strip()
    t = re.sub(r"(?<=\w)['’]s?$", "", t)  # a possessive: "a lobby group's (website)"
    if t.lower() in _DOMAIN_KINDS:
        return _DOMAIN_KINDS[t.lower()]
    return _singular(SOURCE_ADJECTIVES.get(t.lower(), t) or text.strip())


def _sources(q: str, add: Any) -> None:
    """Source: "not from X sources", "from X sites", domains, "according to X"."""
    for m in re.finditer(
        r"\b(?P<neg>" + alternation(_W.exclusions, _W.exclusion_patterns, space=" ") + r")\s+",
        q,
        re.I,
    ):
        span = _scope(q, m.end())
        values = _split_values(_span_text(q, span))
        cue_from = "from" in m.group("neg").lower() or " by" in m.group("neg").lower()
        if not values or not (
            cue_from or any(re.search(_SOURCE_NOUNS + r"$|\.\w{2,4}$", v, re.I) for v in values)
        ):
            continue
        for v in values:
            add("source", _source_value(v), (m.start(), span[1]), negated=True)
    for m in re.finditer(
        r"\b(?:only\s+)?(?:from|by|in|on)\s+(?P<what>(?:[\w\-.&']+\s+){0,3}?"
        + _SOURCE_NOUNS
        + r")\b",
        q,
        re.I,
    ):
        if _NEGATED_FROM.search(q[: m.start()]):
            continue  # "nothing from blogs" is the negated form, read below
        for v in _split_values(m.group("what")):
            value = _source_value(v)
            if value and value.lower() not in _W.not_values:
                only = m.group(0).lower().startswith("only")
                add("source", value, _trim(q, m.start(), m.end()), hard=only)
    for m in re.finditer(
        r"\b(?P<neg>not\s+from\s+|except\s+|excluding\s+)?(?:from\s+|on\s+|site:)?"
        r"(?P<d>[\w\-]+\." + alternation(_W.domain_endings) + r")\b",
        q,
        re.I,
    ):
        add(
            "source",
            m.group("d").lower(),
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
        )
    for m in re.finditer(
        r"\b" + alternation(_W.attributions, space=" ") + r"\s+"
        r"(?P<who>[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,4})",
        q,
    ):
        add("source", m.group("who"), _trim(q, m.start(), m.end()), hard=False)


_NOT_SOURCES = frozenset(VOCAB.values.not_sources)
# "nothing from blogs", "I don't want results from blogs": a negation before "from"
_NEGATED_FROM = re.compile(
    r"\b"
    + alternation(_W.negated_from, space=" ")
    + r"\s+(?:"
    + alternation(_W.negated_from_objects)
    + r"\s+)?$|\b"
    + alternation(_W.negated_from_ends)
    + r"\s*$|\b"
    + alternation(_W.unwanted_negations, space=" ")
    + r"\s+"
    + alternation(_W.unwanted_verbs)
    + r"\s+(?:me\s+)?(?:"
    + alternation(_W.unwanted_objects)
    + r"\s+){0,3}$",
    re.I,
)
# the end of an excluded source: courtesy, then the kind of item ("no Reddit posts please")
_COURTESY_END = alternation(_W.courtesy_ends, space=" ")
_ITEM_END = alternation(_W.item_ends)
_NOT_ONLY_VALUE = alternation(_W.not_only_values, _W.not_only_value_patterns, space=" ")


_SOURCE_WORD = re.compile(r"^(?:" + _SOURCE_NOUNS + r")$", re.I)


_NAME = r"[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3}"


def _singular(value: str) -> str:
    """ "blogs" -> "blog", "think tanks" -> "think tank": a kind of source in the plural is
    matched as a substring, so its singular finds both; names ("CNN") stay as they are."""
    words = value.split()
    if not words:
        return value
    last = words[-1]
    if (
        last.islower()
        and len(last) > 3
        and last.endswith("s")
        and not last.endswith(("ss", "us", "is", "news", "press", "media", "ics"))
    ):
        words[-1] = last[:-1]
    return " ".join(words)


def _source_values(text: str, *, explicit: bool) -> list[str]:
    """Source names in a phrase: source kinds ("blogs"), adjectives ("academic") and
    capitalised names ("Fox News"); any short value when the cue is explicit ("only")."""
    out = []
    for v in _split_values(text):
        v = re.sub(
            r"^" + alternation(_W.value_leads) + r"\s+(?:from\s+)?",
            "",
            v,
            flags=re.I,
        ).strip()
        v = re.sub(r"\s+" + alternation(_W.value_ends) + r"$", "", v, flags=re.I).strip()
        if not v or len(v.split()) > 4:
            continue
        low = v.lower()
        if language_code(low.split()[0]) is not None or low in _NOT_SOURCES:
            continue  # "Portuguese sources" name a language; "short" a length
        if low in SOURCE_ADJECTIVES or re.search(_SOURCE_NOUNS + r"$", v, re.I):
            out.append(_singular(_source_value(v)).lower())
        elif re.fullmatch(_NAME, v) or explicit or low in VOCAB.values.source_sites:
            out.append(low)
    return out


def _more_sources(q: str, add: Any) -> None:
    """ "no Reddit", "exclude anything from Fox News or CNN", "only from X", "X only",
    "use government sources", "only TripAdvisor reviews"."""
    for m in re.finditer(
        r"\b"
        + alternation(_W.more_exclusions, _W.more_exclusion_patterns, space=" ")
        + r"\s+(?:"
        + alternation(_W.more_exclusion_objects)
        + r"\s+)?(?:from\s+|on\s+)?(?:the\s+)?",
        q,
        re.I,
    ):
        span = _scope(q, m.end(), 50)
        text = re.sub(r"\s+" + _COURTESY_END + r"$", "", _span_text(q, span), flags=re.I)
        text = re.sub(r"\s+" + _ITEM_END + r"$", "", text)
        bare_no = m.group(0).lower().startswith("no ")
        if (
            bare_no
            and not re.search(r"(?:^|[,.;:!?]|\band|\bbut)\s*$", q[: m.start()], re.I)
            and not any(re.search(_SOURCE_NOUNS + r"$", p, re.I) for p in _split_values(text))
        ):
            continue  # "no" inside a clause ("abolida no Brasil") is not an exclusion
        values = [
            v
            for v in _source_values(text, explicit=False)
            if re.search(r"\b" + re.escape(v.split()[0][:4]), text, re.I)
        ]
        if values and all(
            re.match(_NAME, p)
            or re.search(_SOURCE_NOUNS + r"$", p, re.I)
            or p.lower() in VOCAB.values.source_sites
            for p in _split_values(
                re.sub(
                    r"\s+" + _ITEM_END + r"$",
                    "",
                    re.sub(r"^(?:anything\s+|any\s+)?(?:from|on)\s+", "", text, flags=re.I),
                    flags=re.I,
                )
            )
        ):
            for v in values:
                add("source", v, (m.start(), span[1]), negated=True)
    for m in re.finditer(
        r"\b(?:" + alternation(_W.only_cues) + r"\s+(?:from\s+|use\s+)?"
        r"(?P<a>[\w&.\-]+(?:\s+[\w&.\-]+){0,2}?)"
        r"(?=\s+(?:" + _SOURCE_NOUNS + r"|" + alternation(_W.only_followers) + r")\b|[,.;?!]|$)"
        r"|(?:from|use|using)\s+(?P<b>[\w&.\-]+(?:\s+[\w&.\-]+){0,2}?)\s+(?:"
        + _SOURCE_NOUNS
        + r"\s+)?only\b"
        r"|(?P<c>[\w&.\-]+(?:\s+[\w&.\-]+){0,1}?)\s+(?:"
        + _SOURCE_NOUNS
        + r"|"
        + alternation(_W.only_nouns)
        + r")\s+only\b"
        r"|\buse\s+(?P<d>[\w&.\-]+(?:\s+[\w&.\-]+){0,1}?)\s+(?:" + _SOURCE_NOUNS + r")\b)",
        q,
        re.I,
    ):
        text = next(g for g in m.group("a", "b", "c", "d") if g)
        if re.fullmatch(_NOT_ONLY_VALUE, text, re.I):
            continue
        followed = (
            re.match(
                r"\s+(?:" + _SOURCE_NOUNS + r"|" + alternation(_W.only_followers) + r")\b",
                q[m.end("a") :],
                re.I,
            )
            if m.group("a")
            else None
        )
        explicit = m.group("a") is None or followed is not None
        for v in _source_values(text, explicit=explicit):
            v = v.rstrip(".")
            if v in _W.not_only_words or language_code(v):
                continue  # "Only Spanish.": a language, read as one
            add("source", v, _trim(q, m.start(), m.end()))


def _named_sources(q: str, add: Any) -> None:
    """ "from the BBC or the Guardian" (capitalised names at the end of a clause) and
    "scientific journals", "peer-reviewed research" (a kind of source)."""
    name = r"(?:the\s+)?[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,2}"
    for m in re.finditer(
        r"\b(?:only\s+)?from\s+(?P<x>" + name + r"(?:\s*(?:,|\bor\b|\band\b)\s*" + name + r")*)"
        r"(?=\s*(?:[,.;?!]|$|only\b))",
        q,
    ):
        values = [re.sub(r"^the\s+", "", v, flags=re.I) for v in _split_values(m.group("x"))]
        if any(language_code(v) or v in VOCAB.places.places for v in values):
            continue  # a place or a language, not a source
        for v in values:
            add("source", v.lower(), _trim(q, m.start(), m.end()))
    adj = _alt((*SOURCE_ADJECTIVES, *_W.adjective_forms))
    for m in re.finditer(
        r"\b(?P<a>"
        + adj
        + r")\s+(?:"
        + _SOURCE_NOUNS
        + r"|"
        + alternation(_W.research_nouns)
        + r")\b",
        q,
        re.I,
    ):
        a = m.group("a").lower()
        value = SOURCE_ADJECTIVES.get(a, "academic")
        # "from academic sources" re-weights; "only official sources" filters, as "only
        # blogs" does above
        only = re.search(
            r"\b"
            + alternation(_W.only_kind_cues, space=" ")
            + r"\s+(?:"
            + alternation(_W.only_kind_verbs, space=" ")
            + r"\s+)?$",
            q[: m.start()],
            re.I,
        )
        start = only.start() if only else m.start()
        add("source", value, _trim(q, start, m.end()), hard=bool(only))
