"""A turn made ready for the rules: slang spelled out and typing slips repaired
(:mod:`assistant.understand.spelling`), a polite or conversational wrapper and reactions
to the answer taken off, a label ("New question:") read, the turn cut into sentences.
"""

from __future__ import annotations

import difflib
import functools
import re

from assistant.understand import spelling
from assistant.understand.followup import words as fw
from assistant.understand.followup.words import _NUMBER_WORDS, _words


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
