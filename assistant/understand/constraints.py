"""InfoSearch constraints (paper 002 §3): language, length, source, keyword, format, audience."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from assistant import lexicon as lx
from assistant.models import Constraint
from assistant.understand.text import _alt, _scope, _span_text, _split_values, _trim
from assistant.understand.values import (
    AUDIENCE_ADJECTIVES,
    AUDIENCES,
    FORMATS,
    LENGTH_WORDS,
    SOURCE_ADJECTIVES,
    ages,
    language_code,
)
from assistant.understand.vocab import VOCAB

_SOURCE_NOUNS = _alt(lx.SOURCE_NOUNS)


_GOOD_FOR = re.compile(
    r"\b(?:good|bad|better|worse|best|worst|safe|unsafe|healthy|unhealthy|harmful|dangerous|"
    r"beneficial|helpful|important|necessary|appropriate|inappropriate|fine|fun|easy|hard|great|"
    r"useful|risky|right|wrong|enough)\s+$",
    re.I,
)


_DOMAIN_KINDS = dict(VOCAB.values.domain_kinds)


def _source_value(text: str) -> str:
    t = re.sub(r"^(?:the|a|an|any|some)\s+", "", text.strip(), flags=re.I)
    t = re.sub(r"\s+" + _SOURCE_NOUNS + r"$", "", t, flags=re.I).strip()
    t = re.sub(r"(?<=\w)['’]s?$", "", t)  # a possessive: "a lobby group's (website)"
    if t.lower() in _DOMAIN_KINDS:
        return _DOMAIN_KINDS[t.lower()]
    return _singular(SOURCE_ADJECTIVES.get(t.lower(), t) or text.strip())


_AT_MOST = frozenset(VOCAB.values.at_most)

_NAME_LANGS = tuple(VOCAB.values.name_languages)


def find_constraints(q: str, *, wh_factual: bool) -> tuple[list[Constraint], list[tuple[int, int]]]:
    """InfoSearch constraints (paper 002 §3) and the spans they came from."""
    cons: list[Constraint] = []
    spans: list[tuple[int, int]] = []

    def add(
        dim: str, value: str, span: tuple[int, int], *, negated: bool = False, hard: bool = True
    ) -> None:
        if dim != "keyword" and any(s[0] < span[1] and span[0] < s[1] and s != span for s in spans):
            return
        if any(
            (c.dimension, c.value.lower(), c.negated) == (dim, value.lower(), negated) for c in cons
        ):
            return
        # audience and format re-weight, never filter (retrieval.constraints.is_hard):
        # say so in the plan the user reads and edits
        hard = hard and dim not in ("audience", "format")
        cons.append(Constraint(dim, value, negated=negated, hard=hard, text=_span_text(q, span)))
        spans.append(span)

    # ---- source: "not from X sources", "from X sites", domains, "according to X"
    for m in re.finditer(
        r"\b(?P<neg>not\s+from|except\s+from|but not from|excluding|other than|apart from|"
        r"not\s+(?:published\s+)?(?:by|on|in))\s+",
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
        if re.search(
            r"\b(?:not|nothing|no|never|without|skip(?:ping)?|exclud(?:e|ing)|ignor(?:e|ing)|"
            r"avoid(?:ing)?|except|leav(?:e|ing) out)\s+(?:(?:anything|any|stuff|results|articles|"
            r"content)\s+)?$|\b(?:not|nothing|no|never|without|skip|exclude|ignore|avoid|except)\s*$"
            r"|\b(?:don'?t|do not|doesn'?t|does not)\s+(?:want|need|like)\s+(?:me\s+)?"
            r"(?:(?:any|anything|the|stuff|results|articles|content|documents|sources|things)\s+)"
            r"{0,3}$",
            q[: m.start()],
            re.I,
        ):
            continue  # "nothing from blogs" is the negated form, read below
        for v in _split_values(m.group("what")):
            value = _source_value(v)
            if value and value.lower() not in ("the", "other", "any", "some"):
                only = m.group(0).lower().startswith("only")
                add("source", value, _trim(q, m.start(), m.end()), hard=only)
    for m in re.finditer(
        r"\b(?P<neg>not\s+from\s+|except\s+|excluding\s+)?(?:from\s+|on\s+|site:)?(?P<d>[\w\-]+\.(?:com|org|net|gov|edu|io|co\.uk|ac\.uk|news|info))\b",
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
        r"\b(?:according to|published by|written by)\s+"
        r"(?P<who>[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,4})",
        q,
    ):
        add("source", m.group("who"), _trim(q, m.start(), m.end()), hard=False)

    # ---- language: any language name langcodes knows, in English or in that language
    for m in re.finditer(
        r"\b(?P<neg>(?:not|nothing|none|isn['’]?t|aren['’]?t|never)\s+)?"
        r"(?:(?:written|available|published|escritos?|écrits?|geschrieben)\s+)?"
        r"(?:in het|in|en|auf|em|op)\s+(?P<l>[^\W\d_]{3,})\b"
        r"|\b(?P<l2>[^\W\d_]{3,})[- ](?:language|speaking)\b",
        q,
        re.I,
    ):
        code = language_code(m.group("l") or m.group("l2"))
        if code is None:
            continue
        add("language", code, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))

    # ---- length
    for m in re.finditer(
        r"\b(?P<cmp>under|less than|fewer than|at most|no more than|up to|below|over|more than|"
        r"shorter than|longer than|exceeding|"
        r"at least|above|menos de|moins de|weniger als|meno di|minder dan|más de|plus de|"
        r"mehr als|più di|mais de|meer dan)\s+(?P<n>\d[\d,.]*)\s+"
        r"(?:words?|palabras|mots|w[öo]rter|parole|palavras|woorden)\b",
        q,
        re.I,
    ):
        if re.search(r"\b(?:nothing|none|no)\s*$", q[: m.start()], re.I):
            continue  # "nothing over 300 words" is the other way round (below)
        n = re.sub(r"[,.]", "", m.group("n"))
        op = "<" if m.group("cmp").lower() in _AT_MOST else ">"
        add("length", f"{op}{n}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:too\s+|very\s+|overly\s+)?)?(?P<w>" + _alt(LENGTH_WORDS) + r")\s+"
        r"(?P<n>"
        + _alt(
            (*lx.DOC_NOUNS, "reads", "read", "summaries", "overview", "overviews", "explanation")
        )
        + r")\b",
        q,
        re.I,
    ):
        w = m.group("w").lower()
        value = LENGTH_WORDS[w]
        add("length", value, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")), hard=False)

    # ---- format
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:as\s+|in\s+)?(?:an?\s+)?|no\s+|except\s+)?(?:as\s+|in\s+)?(?:an?\s+)?"
        r"(?P<f>" + _alt(FORMATS) + r")(?:\s+(?:format|files?|documents?))?\b",
        q,
        re.I,
    ):
        f = m.group("f").lower()
        # every format word is also a topic word ("PDF table extraction", "a list of"):
        # it names a format only with a cue near it
        ambiguous = True
        # "list" is also a request verb: only with a format word or "as/in" near it
        near = q[max(0, m.start() - 16) : m.end() + 20]
        if ambiguous and not re.search(
            r"\b(?:as|in|format|formatted|files?|documents?|only|prefer|preferably|ideally|"
            r"sous forme d[e']|en forma de|in form (?:von|eines)|sotto forma di|em forma de|"
            r"in de vorm van|en|als|come|como|"
            r"would be (?:ideal|great|best)|i'd like|please)\b",
            near,
            re.I,
        ):
            continue
        add("format", FORMATS[f], _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))

    # ---- audience
    aud = _alt(AUDIENCES)
    for m in re.finditer(
        r"\b(?P<neg>not\s+)?(?:for|aimed at|written for|suitable for|targeted at|"
        r"geared (?:toward|to)s?|"
        r"accessible to|understandable (?:by|to)|intended for|meant for)\s+"
        r"(?:an?\s+|the\s+|my\s+|our\s+)?"
        r"(?P<a>" + aud + r")\b",
        q,
        re.I,
    ):
        if re.match(r"(?:not\s+)?for\b", m.group(0), re.I) and _GOOD_FOR.search(q[: m.start()]):
            continue  # "good for children", "harmful for teens": content, not a reader
        add(
            "audience",
            AUDIENCES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )
    for m in re.finditer(
        r"\b(?P<neg>not\s+(?:too\s+)?)?(?:in\s+)?(?P<a>"
        + _alt(AUDIENCE_ADJECTIVES)
        + r")\b(?=\s+(?:"
        + _alt((*lx.DOC_NOUNS, "terms", "language", "explanation", "overview", "introduction"))
        + r")\b)",
        q,
        re.I,
    ):
        add(
            "audience",
            AUDIENCE_ADJECTIVES[m.group("a").lower()],
            _trim(q, m.start(), m.end()),
            negated=bool(m.group("neg")),
            hard=False,
        )

    # ---- keywords: must-not ("but not X", "except X", "without X"), must ("mentioning X", quotes)
    for m in re.finditer(
        r"\b(?P<cue>(?:exclude|excluding|omit|avoid|skip|ignore|drop|leave out)\s+"
        r"(?:any\s+|all\s+)?(?:\w+\s+)?(?:that|which)\s+(?:mention|contain|include|discuss)(?:e?s)?|"
        r"but not|except(?: for)?|excluding|other than|apart from|"
        r"(?:(?:that|which|it|they)\s+)?(?:do not|don't|does not|doesn't|must not|mustn't|"
        r"should not|shouldn't|may not|cannot|can't) "
        r"(?:mention|contain|include|discuss|talk about)|"
        r"not (?:mentioning|containing|including|about)|without(?: (?:mentioning|the words?|any))?|"
        r"with no|free of|minus)\s+",
        q,
        re.I,
    ):
        cue = m.group("cue").lower()
        if cue.startswith("without") and cue == "without" and wh_factual:
            continue  # "the legal age … without parental consent" is content, not a filter
        span = _scope(q, m.end())
        if span[1] <= span[0]:
            continue
        obj = _span_text(q, span)
        if re.match(r"^(?:from|by|in)\b", obj, re.I) or re.search(_SOURCE_NOUNS + r"$", obj, re.I):
            continue  # a source constraint, handled above
        explicit = "mention" in cue or "word" in cue or "contain" in cue or "include" in cue
        full = (m.start(), span[1])
        for v in _split_values(obj):
            v = re.sub(r"^(?:the|a|an|any)\s+", "", v, flags=re.I)
            if v:
                add("keyword", v, full, negated=True, hard=explicit)
    for m in re.finditer(
        r"\b(?:that|which)?\s*(?:mention(?:s|ing)?|contain(?:s|ing)? the (?:word|term|phrase)|"
        r"with the (?:word|term|keyword|phrase)s?|including the (?:word|term)s?|"
        r"must (?:mention|include))\s+",
        q,
        re.I,
    ):
        if (
            re.search(
                r"\b(?:not|n't|don't|doesn't)\s*$", q[max(0, m.start() - 12) : m.start() + 1], re.I
            )
            or re.search(  # "without mentioning X", "exclude documents that mention X"
                r"\b(?:not|never|without|exclude|excluding|omit|avoid|skip|ignore|drop|leave out|"
                r"nothing|none)\b"
                r"[^,;.?!]{0,30}$",
                q[max(0, m.start() - 40) : m.start() + 1],
                re.I,
            )
        ):
            continue
        span = _scope(q, m.end())
        if span[1] > span[0]:
            for v in _split_values(_span_text(q, span)):
                add("keyword", v.strip("\"'“”"), (m.start(), span[1]), hard=True)
    for m in re.finditer(r"[\"“](?P<k>[^\"”]{1,60})[\"”]", q):
        before = q[max(0, m.start() - 28) : m.start()].lower()
        neg = bool(re.search(r"\b(?:not|without|no|excluding|except)\b", before))
        add("keyword", m.group("k"), (m.start(), m.end()), negated=neg, hard=True)
    _language_adjectives(q, add)
    _more_sources(q, add)
    _named_sources(q, add)
    _more_audiences(q, add)
    _more_lengths(q, add)
    _more_keywords(q, add)
    _more_formats(q, add)
    keep = not_implied(cons)
    return [c for c, k in zip(cons, keep, strict=True) if k], [
        sp for sp, k in zip(spans, keep, strict=True) if k
    ]


def not_implied(cons: Sequence[Constraint]) -> list[bool]:
    """Which constraints to keep: a length word that a number of words for the same
    direction already says ("long pieces, over 2000 words") is dropped."""
    numeric = {c.value[0] for c in cons if c.dimension == "length" and c.value[:1] in "<>"}
    return [
        not (
            c.dimension == "length"
            and c.value in ("short", "long")
            and ("<" if c.value == "short" else ">") in numeric
        )
        for c in cons
    ]


_NOT_SOURCES = frozenset(VOCAB.values.not_sources)
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
            r"^(?:the|a|an|any|anything|stuff|results|articles|content)\s+(?:from\s+)?",
            "",
            v,
            flags=re.I,
        ).strip()
        v = re.sub(r"\s+(?:only|please)$", "", v, flags=re.I).strip()
        if not v or len(v.split()) > 4:
            continue
        low = v.lower()
        if language_code(low.split()[0]) is not None or low in _NOT_SOURCES:
            continue  # "Portuguese sources" name a language; "short" a length
        if low in SOURCE_ADJECTIVES or re.search(_SOURCE_NOUNS + r"$", v, re.I):
            out.append(_singular(_source_value(v)).lower())
        elif re.fullmatch(_NAME, v) or explicit or low in lx.SOURCE_SITES:
            out.append(low)
    return out


def _more_sources(q: str, add: Any) -> None:
    """ "no Reddit", "exclude anything from Fox News or CNN", "only from X", "X only",
    "use government sources", "only TripAdvisor reviews"."""
    for m in re.finditer(
        r"\b(?:no|exclude|excluding|leave out|leaving out|skip|skipping|avoid|avoiding|ignore|"
        r"ignoring|nothing|nada de|nada|sin|sans|"
        r"pas de|keine|niente|geen|(?:don'?t|do not) want(?:\s+(?:the|any))?"
        r"(?:\s+(?:documents|articles|sources|results|stuff|things))?)\s+"
        r"(?:anything\s+|any\s+|results\s+|articles\s+|"
        r"content\s+|stuff\s+)?(?:from\s+|on\s+)?(?:the\s+)?",
        q,
        re.I,
    ):
        span = _scope(q, m.end(), 50)
        text = re.sub(r"\s+(?:please|pls|thanks|thank you)$", "", _span_text(q, span), flags=re.I)
        text = re.sub(r"\s+(?:posts?|articles?|videos?|content|pages?|results?)$", "", text)
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
            or p.lower() in lx.SOURCE_SITES
            for p in _split_values(
                re.sub(
                    r"\s+(?:posts?|articles?|videos?|content|pages?|results?)$",
                    "",
                    re.sub(r"^(?:anything\s+|any\s+)?(?:from|on)\s+", "", text, flags=re.I),
                    flags=re.I,
                )
            )
        ):
            for v in values:
                add("source", v, (m.start(), span[1]), negated=True)
    for m in re.finditer(
        r"\b(?:(?:only|just|exclusively)\s+(?:from\s+|use\s+)?(?P<a>[\w&.\-]+(?:\s+[\w&.\-]+){0,2}?)"
        r"(?=\s+(?:" + _SOURCE_NOUNS + r"|reviews?|articles?|pages?)\b|[,.;?!]|$)"
        r"|(?:from|use|using)\s+(?P<b>[\w&.\-]+(?:\s+[\w&.\-]+){0,2}?)\s+(?:"
        + _SOURCE_NOUNS
        + r"\s+)?only\b"
        r"|(?P<c>[\w&.\-]+(?:\s+[\w&.\-]+){0,1}?)\s+(?:"
        + _SOURCE_NOUNS
        + r"|articles?|reviews?|pages?|posts?|videos?|coverage)\s+only\b"
        r"|\buse\s+(?P<d>[\w&.\-]+(?:\s+[\w&.\-]+){0,1}?)\s+(?:" + _SOURCE_NOUNS + r")\b)",
        q,
        re.I,
    ):
        text = next(g for g in m.group("a", "b", "c", "d") if g)
        if re.fullmatch(
            r"(?:documents?|articles?|pages?|sources?|results?|the|a|an|short|long|"
            r"in|from|one|two|\d+|use|using|include|including|show|find|give|want|need|read|get|"
            r"see|have|in[- ]depth|detailed|longer|shorter|lengthy|brief)",
            text,
            re.I,
        ):
            continue
        followed = (
            re.match(
                r"\s+(?:" + _SOURCE_NOUNS + r"|reviews?|articles?|pages?)\b", q[m.end("a") :], re.I
            )
            if m.group("a")
            else None
        )
        explicit = m.group("a") is None or followed is not None
        for v in _source_values(text, explicit=explicit):
            v = v.rstrip(".")
            if v in ("short", "long", "recent", "english") or language_code(v):
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
        if any(language_code(v) or v in lx.COUNTRIES for v in values):
            continue  # a place or a language, not a source
        for v in values:
            add("source", v.lower(), _trim(q, m.start(), m.end()))
    adj = _alt(
        (
            *SOURCE_ADJECTIVES,
            "wissenschaftlichen",
            "científicas",
            "científicos",
            "scientifiques",
            "scientifiche",
            "scientifici",
            "académicas",
            "akademischen",
        )
    )
    for m in re.finditer(
        r"\b(?P<a>" + adj + r")\s+(?:" + _SOURCE_NOUNS + r"|research|studies|literature|"
        r"fachzeitschriften|revistas|revues|riviste|zeitschriften|fuentes|quellen|fonti)\b",
        q,
        re.I,
    ):
        a = m.group("a").lower()
        value = SOURCE_ADJECTIVES.get(a, "academic")
        # "from academic sources" re-weights; "only official sources" filters, as "only
        # blogs" does above
        only = re.search(
            r"\b(?:only|just|solely|exclusively|nothing but)\s+(?:(?:use|show|include|cite|"
            r"give me|want)\s+)?$",
            q[: m.start()],
            re.I,
        )
        start = only.start() if only else m.start()
        add("source", value, _trim(q, start, m.end()), hard=bool(only))


def _more_audiences(q: str, add: Any) -> None:
    """ "explain to a teenager", "pitched to business leaders", "in a way teenagers can
    follow", "like I'm 10", "I'm a complete beginner"."""
    aud = _alt(AUDIENCES)
    for m in re.finditer(
        r"\b(?:explain(?:ed|ing)?|pitch(?:ed)?|present(?:ed)?|tailor(?:ed)?|simplif(?:y|ied)|"
        r"written|write|aimed|geared|in a way(?: that)?)\s+(?:it\s+|this\s+|them\s+)?"
        r"(?:to|at|for)?\s*(?:an?\s+|the\s+|my\s+)?(?:\w+\s+){0,2}?(?P<a>" + aud + r")\b",
        q,
        re.I,
    ):
        add("audience", AUDIENCES[m.group("a").lower()], _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(r"\beli5\b|\bexplain (?:it )?like i'?m (?:five|5)\b", q, re.I):
        add("audience", "child", _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b(?:for\s+)?(?:someone|somebody|people|readers)\s+with\s+(?:no|little|zero)\s+"
        r"(?:background|prior knowledge|experience)\b(?:\s+in\s+[\w\-]+)?",
        q,
        re.I,
    ):
        add("audience", "beginner", _trim(q, m.start(), m.end()), hard=False)
    for audience, start, end in ages(q):  # "a 10-year-old", "like I'm 10"
        add("audience", audience, _trim(q, start, end), hard=False)
    for m in re.finditer(
        r"\b(?P<a>beginner|novice|introductory|expert|advanced|general|child|kid|teen|student)s?"
        r"[- ]level\b",  # "kid-friendly hikes" is a property of the item, not a reader
        q,
        re.I,
    ):
        level = {
            "novice": "beginner",
            "introductory": "beginner",
            "advanced": "expert",
            "kid": "child",
        }.get(m.group("a").lower(), m.group("a").lower())
        add("audience", level, _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b(?:i'?m|i am)\s+(?:a\s+)?(?:complete\s+|total\s+|absolute\s+)?"
        r"(?:beginner|novice|newbie|new to)\b",
        q,
        re.I,
    ):
        add("audience", "beginner", _trim(q, m.start(), m.end()), hard=False)


def _more_lengths(q: str, add: Any) -> None:
    """ "nothing longer than 800 words", "something short to read", "a quick read"."""
    for m in re.finditer(r"\b(?P<n>\d[\d,]*)\s*\+\s*words?\b", q, re.I):  # "2000+ words"
        add("length", f">{m.group('n').replace(',', '')}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?:nothing|none|no(?:thing)? (?:article|document|piece)s?)\s+(?P<cmp>longer|shorter|"
        r"more|less|fewer|over|under)\s+(?:than\s+)?(?P<n>\d[\d,]*)\s+words?\b",
        q,
        re.I,
    ):
        op = "<" if m.group("cmp").lower() in ("longer", "more", "over") else ">"
        add("length", f"{op}{m.group('n').replace(',', '')}", _trim(q, m.start(), m.end()))
    for m in re.finditer(
        r"\b(?:an?\s+)?(?:quick\s+)?(?P<n>\d{1,2})[- ]?min(?:ute)?s?\s+read\b"
        r"|\b(?:no more than|at most|under|up to|max(?:imum)?)\s+(?P<p>one|two|three|\d)\s+pages?\b"
        r"|\btl;?dr\b|\bkeep (?:it|them|the \w+) (?:brief|short)\b",
        q,
        re.I,
    ):
        n = m.group("n")
        value = "short" if n is None or int(n) <= 10 else "long"
        add("length", value, _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(r"\b(?P<w>long|short)[- ]form\b", q, re.I):
        add("length", m.group("w").lower(), _trim(q, m.start(), m.end()), hard=False)
    for m in re.finditer(
        r"\b(?:something|anything|stuff|a|an)\s+(?P<w>short|quick|brief|long|lengthy)\s+"
        r"(?:(?:to\s+)?read|reads?)\b",
        q,
        re.I,
    ):
        w = m.group("w").lower()
        value = "long" if w in ("long", "lengthy") else "short"
        add("length", value, _trim(q, m.start(), m.end()), hard=False)


_DOC_WORDS = (
    r"(?:sources?|articles?|documents?|texts?|pages?|papers?|material|resources?|websites?|"
    r"sites?|results?|content|press|media|news|reports?|books?|fuentes|sources|quellen|fonti|"
    r"fontes|bronnen|artículos|articles|artikel|articoli|artigos)"
)


def _language_adjectives(q: str, add: Any) -> None:
    """ "no English sources", "German articles only", "fuentes en español"."""
    for m in re.finditer(
        r"\b(?P<neg>no|not|non|nothing in|sin|sans|keine|geen)?[\s-]*(?P<l>[^\W\d_]{4,})\s+"
        + _DOC_WORDS
        + r"\b",
        q,
        re.I,
    ):
        code = language_code(m.group("l"))
        word = m.group("l")
        if code is not None and (
            word[0].isupper()
            or word.lower() in ("español", "français", "deutsch")
            or m.group("neg")  # "non-english sources": a negated name is a language
        ):
            add("language", code, _trim(q, m.start(), m.end()), negated=bool(m.group("neg")))


def _more_formats(q: str, add: Any) -> None:
    """ "make it slides", "transcripts preferred", "step by step", "interviews with …"."""
    for m in re.finditer(r"\bstep[- ]by[- ]step\b", q, re.I):
        add("format", "tutorial", _trim(q, m.start(), m.end()), hard=False)
    fmt = _alt(FORMATS)
    for m in re.finditer(
        r"(?:^\s*(?:find\s+|show me\s+|give me\s+)?|\bmake it\s+(?:into\s+)?(?:an?\s+)?)"
        r"(?P<f>" + fmt + r")\b(?=\s+(?:with|of|on|about|from|where|by|preferred|please)\b|"
        r"\s+i can\b|\s*$|\s*[,.;])"
        r"|\b(?P<g>" + fmt + r")\s+(?:preferred|please|ideally|would be (?:ideal|great|best))\b",
        q,
        re.I,
    ):
        f = (m.group("f") or m.group("g")).lower()
        add("format", FORMATS[f], _trim(q, m.start(), m.end()))


def _more_keywords(q: str, add: Any) -> None:
    """ "leave out anything about X", "nothing that talks about X", "skip anything
    mentioning X"."""
    for m in re.finditer(
        r"\b(?:leave out|skip|ignore|exclude|avoid|drop|nothing|no)\s+(?:anything|everything|"
        r"stuff|articles|pages|documents|results)?\s*(?:that\s+)?(?:is\s+|are\s+)?"
        r"(?:about|mentioning|talks? about|talking about|mentions?|covering|discussing)\s+",
        q,
        re.I,
    ):
        span = _scope(q, m.end(), 50)
        for v in _split_values(_span_text(q, span)):
            v = re.sub(r"^(?:the|a|an)\s+", "", v, flags=re.I)
            if v:
                add("keyword", v, (m.start(), span[1]), negated=True, hard=True)
