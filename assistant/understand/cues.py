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


def split_words(text: str) -> list[str]:
    return text.split()


# --------------------------------------------------------------------------- agents

PRO_AGENTS = split_words(
    "supporter supporters proponent proponents advocate advocates defender "
    "defenders champion champions backer backers fan fans believer believers "
    "enthusiast enthusiasts partisans defensores partidarios simpatizantes "
    "défenseurs partisans befürworter anhänger sostenitori fautori apoiadores "
    "voorstanders"
)
CON_AGENTS = split_words(
    "critic critics opponent opponents sceptic sceptics skeptic skeptics detractor "
    "detractors objector objectors hater haters naysayer naysayers abolitionist "
    "abolitionists críticos opositores detractores critiques opposants kritiker "
    "gegner critici oppositori tegenstanders criticasters"
)

# --------------------------------------------------------------------------- stance verbs

PRO_VERBS = split_words(
    "support favour favor defend justify advocate champion praise endorse love "
    "recommend welcome celebrate applaud admire"
)
CON_VERBS = split_words(
    "oppose object criticise criticize attack reject hate dislike condemn resist "
    "distrust mistrust denounce slam blame complain warn worry"
)


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

PRO_FACETS = (
    "benefits",
    "advantages",
    "advantage",
    "pros",
    "upsides",
    "upside",
    "merits",
    "strengths",
    "virtues",
    "positives",
    "positive aspects",
    "positive side",
    "positive effects",
    "positive impact",
    "good things about",
    "good side",
    "bright side",
    "case for",
    "reasons for",
    "reasons to",
    "arguments for",
    "argument for",
    "arguments in favour of",
    "arguments in favor of",
    "case in favour of",
    "case in favor of",
    "evidence for",
    "evidence supporting",
    "evidence that",
    "proof that",
    "studies showing",
    "studies that show",
    "research showing",
    "research that shows",
    "evidence in favour of",
    "evidence in favor of",
    "defence of",
    "defense of",
    "praise for",
    "benifits",
    "benfits",
    "ventajas",
    "beneficios",
    "argumentos a favor",
    "avantages",
    "bienfaits",
    "arguments pour",
    "arguments en faveur",
    "vorteile",
    "argumente für",
    "vantaggi",
    "benefici",
    "argomenti a favore",
    "vantagens",
    "benefícios",
    "voordelen",
    "argumenten voor",
    "sprechen für",
    "spricht für",
)
CON_FACETS = (
    "drawbacks",
    "drawback",
    "disadvantages",
    "disadvantage",
    "cons",
    "downsides",
    "downside",
    "risks",
    "dangers",
    "harms",
    "what harm",
    "the harm",
    "problems with",
    "problem with",
    "issues with",
    "criticism of",
    "criticisms of",
    "criticisms",
    "objections",
    "counterarguments",
    "counter-arguments",
    "gegenargumente",
    "contraargumentos",
    "contre-arguments",
    "critique of",
    "weaknesses",
    "flaws",
    "pitfalls",
    "negatives",
    "negative aspects",
    "negative side",
    "negative effects",
    "negative impact",
    "dark side",
    "downfalls",
    "objections to",
    "objection to",
    "case against",
    "reasons against",
    "reasons not to",
    "arguments against",
    "argument against",
    "evidence against",
    "opposition arguments to",
    "opposition to",
    "desventajas",
    "inconvenientes",
    "riesgos",
    "peligros",
    "argumentos en contra",
    "inconvénients",
    "risques",
    "dangers",
    "arguments contre",
    "nachteile",
    "risiken",
    "gefahren",
    "argumente gegen",
    "svantaggi",
    "rischi",
    "pericoli",
    "argomenti contro",
    "desvantagens",
    "riscos",
    "perigos",
    "argumentos contra",
    "nadelen",
    "risico's",
    "gevaren",
    "argumenten tegen",
    "sprechen gegen",
    "spricht gegen",
)

# --------------------------------------------------------------------------- evaluative words

PRO_EVALUATIVE = (
    "good",
    "great",
    "beneficial",
    "helpful",
    "useful",
    "important",
    "valuable",
    "worth it",
    "worthwhile",
    "worth doing",
    "a good thing",
    "a good idea",
    "necessary",
    "essential",
    "positive",
    "healthy",
    "safe",
    "effective",
    "smart",
    "wise",
    "fair",
    "justified",
    "better",
    "the best",
    "so popular",
    "successful",
)
CON_EVALUATIVE = (
    "bad",
    "harmful",
    "dangerous",
    "cruel",
    "wrong",
    "a bad idea",
    "a bad thing",
    "unfair",
    "unhealthy",
    "unsafe",
    "risky",
    "overrated",
    "pointless",
    "useless",
    "toxic",
    "problematic",
    "unethical",
    "immoral",
    "worse",
    "ineffective",
    "damaging",
    "destructive",
    "evil",
    "a mistake",
    "a waste",
    "a scam",
    "a failure",
    "failing",
    "controversial",
    "hated",
    "criticised",
    "criticized",
)
# verbs of effect in "how does X benefit Y" / "how does X harm Y"
PRO_EFFECT_VERBS = ("benefit", "help", "improve", "boost", "strengthen", "protect")
CON_EFFECT_VERBS = ("harm", "hurt", "damage", "ruin", "threaten", "undermine", "endanger", "worsen")

# --------------------------------------------------------------------------- persuasion

PRO_PERSUADE = (
    "make the case that",
    "make the case for",
    "make a case for",
    "make a case that",
    "convince me that",
    "convince me to",
    "persuade me that",
    "persuade me to",
    "help me argue that",
    "help me argue for",
    "help me defend",
    "argue that",
    "argue for",
    "prove that",
    "show that",
    "explain why we should",
    "why we should",
    "why you should",
    "why i should",
    "why people should",
)
CON_PERSUADE = (
    "make the case against",
    "make a case against",
    "convince me not to",
    "convince me that we shouldn't",
    "persuade me not to",
    "talk me out of",
    "help me argue against",
    "argue against",
    "why we shouldn't",
    "why we should not",
    "why you shouldn't",
    "why i shouldn't",
    "why people shouldn't",
)
PRO_VIEWS = ("positive", "optimistic", "supportive", "favourable", "favorable", "enthusiastic")
CON_VIEWS = ("skeptical", "sceptical", "critical", "negative", "pessimistic", "hostile")
VIEW_NOUNS = ("view", "views", "take", "takes", "perspective", "perspectives", "side", "case")

# copulas + "against/for" in other languages ("waarom zijn mensen tegen …")
CON_COPULA = (
    "are against",
    "is against",
    "son contra",
    "están en contra",
    "están contra",
    "sont contre",
    "sind gegen",
    "sono contro",
    "são contra",
    "zijn tegen",
    "is tegen",
)
PRO_COPULA = (
    "are for",
    "are in favour of",
    "are in favor of",
    "son a favor",
    "sont pour",
    "sind für",
    "sono a favore",
    "são a favor",
    "zijn voor",
)

NEGATIONS = ("not", "n't", "never", "no", "nicht", "pas", "no", "non", "não", "niet", "kein")

# --------------------------------------------------------------------------- question kind

# wh-words in English and the five other languages (the first word of a question)
WH_WORDS = frozenset(
    split_words(
        "what whats what's who whom whose when where which how why qué que quién quien "
        "cuándo cuando dónde donde cómo como cuál cual cuánto cuántos qui quoi quand où "
        "comment quel quelle quels quelles combien pourquoi wer was wann wo wie welche "
        "welcher welches wieviel warum chi cosa quando dove come quale quali quanto "
        "quanti perché quem quando onde como qual quais quanto quantos porque wie wat "
        "wanneer waar hoe welke hoeveel waarom"
    )
)
# "why" in the other languages: a why-question may presuppose a side
WHY_WORDS = frozenset(["why", "pourquoi", "warum", "perché", "porque", "waarom"])

# imperatives asking to be told something ("explain how vaccines work")
INFO_VERBS = split_words(
    "explain explain to describe summarise summarize summarize tell define compare "
    "outline walk list overview history timeline"
)
# head nouns of an information request ("history of the minimum wage")
INFO_NOUNS = frozenset(
    split_words(
        "history overview explanation definition summary timeline difference "
        "differences meaning origin origins cause causes introduction basics background "
        "chronology comparison breakdown impact effects"
    )
)
# words that open a request for items
LOOKUP_OPENERS = re.compile(
    r"^\s*(?:(?:please\s+)?(?:can you\s+|could you\s+)?(?:find(?: me)?|search(?: for)?|"
    r"show me|give me|get me|recommend(?: me)?|suggest|i'?m looking for|i am looking for|"
    r"looking for|i need|i want|we need|need|want|any|busco|cherche|je cherche|ich suche|"
    r"cerco|procuro|ik zoek)\s+)?(?:(?:an?|some|the best|best|good|a good|any good|some good)\s+)?",
    re.I,
)
# words after which a lookup's wanted properties follow
PROPERTY_MARKERS = frozenset(
    split_words(
        "with without that which who near under over below above less more least within "
        "praising criticising criticizing focusing covering describing comparing "
        "including allowing containing contains using topped served "
        "con sin avec sans mit ohne senza com sem met zonder cerca près bei vicino perto bij"
    )
)
