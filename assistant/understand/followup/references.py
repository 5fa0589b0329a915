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
from assistant.understand.vocab import VOCAB, alternation

# the words of rule 1 (words/references.yaml), each list read here once
_W = VOCAB.references.references

_REF_NOUN = alternation(_W.ref_nouns)


_EXPLICIT_REF = re.compile(
    r"\[\s*(\d{1,3})\s*\]|#\s*(\d{1,3})\b|\b" + _REF_NOUN + r"\s*\[?\s*(\d{1,3})\b\]?", re.I
)


_BARE_NUMBER = re.compile(r"(?<![\w/.\-\[#])(\d{1,3})(?![\w/\]]|[.,]\d)")


# a number with a unit or a comparison is a quantity, not a reference ("under 800 words")
_UNIT_AFTER = re.compile(r"^\s*" + alternation(_W.units), re.I)


_QUANTITY_BEFORE = re.compile(alternation(_W.quantity_before, space=" ") + r"\s*$", re.I)


_REMOVE = re.compile(
    r"\b"
    + alternation(_W.remove_verbs, _W.remove_verb_patterns, space=" ")
    + r"\b|\b"
    + alternation(_W.remove_without)
    + r"(?=\s+(?:\[|#|ref(?:erence)?\s*\[?\d|source\s*\[?\d|number\s*\d))",
    re.I,
)


_COMPARE_CUE = re.compile(r"\b" + alternation(_W.compare_cues, space=" ") + r"\b", re.I)


_PAIR_LINK = re.compile(
    r"^\s*\]?\s*(?:"
    + alternation(_W.pair_verbs, space=" ")
    + r"\s+)?"
    # a link word, or nothing but a space after a word ("2 5")
    + alternation(_W.pair_links, [r"(?<=[a-z] )"])
    + r"\s*(?:"
    + alternation(_W.pair_fillers)
    + r"\s+)?"
    r"(?:\[|#|" + _REF_NOUN + r"\s*)?\s*$",
    re.I,
)


# the words a question about one bare reference number is made of ("why did you cite 7")
_REF_QUESTION = fw.FILLER | frozenset(VOCAB.followup.reference_question)


_ORDINALS = {w: i for i, w in enumerate(VOCAB.grammar.ordinals, start=1)}


_ORDINAL = (
    r"(?:"
    + "|".join(_ORDINALS)
    + r"|\d{1,2}"
    + alternation(_W.ordinal_suffixes_en)
    + r"|\d{1,2}\.?"
    + alternation(_W.ordinal_suffixes)
    + ")"
)


def _after(words: tuple[str, ...], space: str) -> str:
    """Lookbehinds for each word and the space after it (a word boundary before a word)."""
    return "|".join(
        "(?<=" + (r"\b" if w[0].isalnum() else "") + re.escape(w) + space + ")" for w in words
    )


# "the fifth source", "the 3rd one", "lose the 5th", "the third and seventh sources"
_ORDINAL_REF = re.compile(
    r"(?:\bthe\s+|"
    + _after(_W.ordinal_links, r"\s")
    + r"|(?<=,\s))(?P<o>"
    + _ORDINAL
    + r")(?=\s+"
    + alternation(_W.ordinal_nouns)
    + r"\b|\s+"
    + alternation(_W.ordinal_links)
    + r"\s+(?:the\s+)?"
    + _ORDINAL
    + r"\b|\s+"
    + alternation(_W.ordinal_verbs)
    + r"\b|"
    r"\s*(?:[?.!,;]|$))",
    re.I,
)


def _ordinal_number(word: str) -> int:
    low = word.lower()
    return _ORDINALS.get(low) or int(re.sub(r"\D", "", low))  # "3rd", "3.º" -> 3


def _quantity(text: str, start: int, end: int) -> bool:
    return bool(_UNIT_AFTER.match(text[end:]) or _QUANTITY_BEFORE.search(text[:start]))


_NUMBER_WORD = re.compile(
    r"(?:" + _after(_W.number_nouns, " ") + r")"
    r"one\b|\b(?:" + "|".join(w for w in _NUMBER_WORDS if w != "one") + r")\b",
    re.I,
)


_NUMBER_BLOCKER = re.compile(r"\b" + alternation(_W.number_blockers) + r"\s+$", re.I)


def _digits(text: str) -> str:
    """Reference numbers spelled out as digits ("compare three and seven", "why is number
    six there"); "one" only after a reference noun ("the other one" is no reference)."""

    def digit(m: re.Match[str]) -> str:
        if _NUMBER_BLOCKER.search(text[: m.start()]):
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
    r"^(?:"
    + alternation(_W.pointed_openers, _W.pointed_opener_patterns, space=" ")
    + r"[,.!]?\s+)*(?:"
    + alternation(_W.pointed_requests, space=" ")
    + r"\s+)*(?:"
    + alternation(_W.pointed_verbs, _W.pointed_verb_patterns, space=" ")
    + r"\s+)"
    + alternation(_W.pointed_objects, space=" ")
    + r"(?:\s+"
    + alternation(_W.pointed_particles)
    + r")?(?:\s+"
    + alternation(_W.pointed_tails, space=" ")
    + r")*\s*"
    + alternation(_W.pointed_ends)
    + r"?(?:,?\s*if "
    + alternation(_W.pointed_if_subjects, space=" ")
    + " "
    + alternation(_W.pointed_if_approvals, space=" ")
    + r")?\s*[.!?]*\s*$",
    re.I,
)


# "oops, I meant 7, not 2", "sorry, 7 not 2", "no wait, number 9"
_CORRECTION = re.compile(r"\b" + alternation(_W.corrections, space=" ") + r"\b", re.I)


# a comparison with one number, after a question about another ("vs [9]", "and compared
# to 6?", "how does it compare with [3]?")
_COMPARE_ONE = re.compile(
    r"^\s*(?:"
    + alternation(_W.compare_one_openers)
    + r"[,]?\s+)*(?:"
    + alternation(_W.compare_one_cues, _W.compare_one_cue_patterns)
    + r"\s*)(?:\[\s*\d{1,3}\s*\]|#?\d{1,3}|"
    + alternation(_W.compare_one_nouns)
    + r"\s*\d{1,3})\s*[?.!]*\s*$",
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
