"""Cue lexicons for the question's kind: stance words with their polarity, and the
words that mark a lookup or a factual request.

The side a one-sided request wants is read from a *stance cue* and the phrase
it scopes over (the topic that follows it), not from a fixed list of
phrasings. Cues come in five kinds, each a list with a polarity (``pro`` or
``con``), in English and the five other languages Sphere's users write most:

* agents — who holds a view ("supporters", "critics", "Befürworter");
* stance verbs — what they do with it ("defend", "oppose"), inflected by
  :func:`verb_forms`;
* facet nouns — the part of a debate asked for ("benefits of", "risks of",
  "objections to", "Nachteile");
* evaluative words — what a presupposing question takes for granted ("why is
  X *harmful*", "what makes X *cruel*");
* persuasion frames — "make the case that", "convince me (not) to".

A negation in the cue's scope ("reasons *not* to", "why *shouldn't* we")
flips its polarity; two cues of opposite polarity ("benefits and risks") make
the question two-sided.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from assistant.understand.vocab import VOCAB


def split_words(text: str) -> list[str]:
    return text.split()


# --------------------------------------------------------------------------- agents

PRO_AGENTS = list(VOCAB.stance.pro_agents)
CON_AGENTS = list(VOCAB.stance.con_agents)

# --------------------------------------------------------------------------- stance verbs

PRO_VERBS = list(VOCAB.stance.pro_verbs)
CON_VERBS = list(VOCAB.stance.con_verbs)


def verb_forms(verbs: Iterable[str]) -> list[str]:
    """Base, -s, -ed and -ing forms of regular English verbs ("praise" → "praising")."""
    out: set[str] = set()
    for v in verbs:
        out.add(v)
        if v.endswith("e"):
            out.update({v + "s", v + "d", v[:-1] + "ing"})
        elif v.endswith("y") and v[-2:-1] not in "aeiou":
            out.update({v[:-1] + "ies", v[:-1] + "ied", v + "ing"})
        elif re.search(r"(?:s|sh|ch|x|z)$", v):
            out.update({v + "es", v + "ed", v + "ing"})
        elif re.search(r"[^aeiou][aeiou][bgmnpt]$", v) and len(v) <= 4:
            out.update({v + "s", v + v[-1] + "ed", v + v[-1] + "ing"})
        else:
            out.update({v + "s", v + "ed", v + "ing"})
    return sorted(out)


# --------------------------------------------------------------------------- facet nouns

PRO_FACETS = VOCAB.stance.pro_facets
CON_FACETS = VOCAB.stance.con_facets

# --------------------------------------------------------------------------- evaluative words

PRO_EVALUATIVE = VOCAB.stance.pro_evaluative
CON_EVALUATIVE = VOCAB.stance.con_evaluative
# verbs of effect in "how does X benefit Y" / "how does X harm Y"
PRO_EFFECT_VERBS = VOCAB.stance.pro_effect_verbs
CON_EFFECT_VERBS = VOCAB.stance.con_effect_verbs

# --------------------------------------------------------------------------- persuasion

PRO_PERSUADE = VOCAB.stance.pro_persuade
CON_PERSUADE = VOCAB.stance.con_persuade
PRO_VIEWS = VOCAB.stance.pro_views
CON_VIEWS = VOCAB.stance.con_views
VIEW_NOUNS = VOCAB.stance.view_nouns

# copulas + "against/for" in other languages ("waarom zijn mensen tegen …")
CON_COPULA = VOCAB.stance.con_copula
PRO_COPULA = VOCAB.stance.pro_copula

NEGATIONS = VOCAB.stance.negations

# --------------------------------------------------------------------------- question kind

# wh-words in English and the five other languages (the first word of a question)
WH_WORDS = frozenset(VOCAB.grammar.question_words)
# "why" in the other languages: a why-question may presuppose a side
WHY_WORDS = frozenset(VOCAB.grammar.why_words)

# imperatives asking to be told something ("explain how vaccines work")
INFO_VERBS = list(VOCAB.requests.info_verbs)
# head nouns of an information request ("history of the minimum wage")
INFO_NOUNS = frozenset(VOCAB.requests.info_nouns)
# words that open a request for items
LOOKUP_OPENERS = re.compile(
    r"^\s*(?:(?:please\s+)?(?:can you\s+|could you\s+)?(?:find(?: me)?|search(?: for)?|"
    r"show me|give me|get me|recommend(?: me)?|suggest|i'?m looking for|i am looking for|"
    r"looking for|i need|i want|we need|need|want|any|busco|cherche|je cherche|ich suche|"
    r"cerco|procuro|ik zoek)\s+)?(?:(?:an?|some|the best|best|good|a good|any good|some good)\s+)?",
    re.I,
)
# words after which a lookup's wanted properties follow
PROPERTY_MARKERS = frozenset(VOCAB.requests.property_markers)
