"""Rule 1: a turn that points at the answer by a reference number ("why is [8] under
Claim B?", "compare [2] and [8]", "drop [5]"), and a turn about the reference the
question before it asked about ("drop it", "sorry, I meant 7").
"""

from __future__ import annotations

import re

from assistant.models import QueryPlan
from assistant.understand.followup import words as fw
from assistant.understand.followup.edits import FollowUp, Rule
from assistant.understand.followup.normalise import _SENTENCE, _courtesy
from assistant.understand.followup.words import _NUMBER_WORDS, _residue, _words
from assistant.understand.vocab import VOCAB

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
            return FollowUp(True, "compare_refs", numbers, by=Rule.REFERENCE)
        return None
    if len(numbers) != 1:
        return None
    if not explicit and not remove:
        spans = [(s, e) for _, s, e in bare]
        if _residue(text, spans, also=_REF_QUESTION):
            return None  # "is 5 a prime number?": a number in a question of its own
    edit = "drop_ref" if remove else "explain_ref"
    return FollowUp(True, edit, numbers[0], by=Rule.REFERENCE)


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
            return FollowUp(True, "drop_ref", numbers[0], by=Rule.REFERENCE_ASKED)
    if edit != "explain_ref":
        return None
    said = [int(m.group(1)) for m in _BARE_NUMBER.finditer(_digits(text))]
    said += [int(next(g for g in m.groups() if g)) for m in _EXPLICIT_REF.finditer(text)]
    other = [n for n in dict.fromkeys(said) if n not in numbers]
    if len(numbers) == 1 and len(other) == 1 and _COMPARE_ONE.match(text):
        # "vs [9]" after "why is [4] there?": the two side by side
        return FollowUp(True, "compare_refs", [numbers[0], other[0]], by=Rule.REFERENCE_COMPARED)
    if not _CORRECTION.search(text):
        return None
    if len(other) == 1 and set(said) <= {other[0], *numbers}:
        return FollowUp(True, "explain_ref", other[0], by=Rule.REFERENCE_CORRECTED)
    return None
