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
from assistant.understand.vocab import VOCAB, alternation, every

# the words of a turn's wrapper, labels and sentence breaks (words/wrappers.yaml), each
# list read here once
_W = VOCAB.wrappers


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
    r"(?<=[.!?;])\s+(?=\S)|,\s+so\s+(?="
    + alternation(_W.so_requests, space=" ")
    + r"\b)|\s+and\s+(?=(?:i|she|he|we|they)(?:['’]d|\s+would|\s+want)\b)",
    re.I,
)


_CLAUSE_SPLIT = re.compile(r",\s+")


_QUESTION_START = re.compile(r"^\s*" + alternation(_W.question_starts) + r"\b", re.I)


def _courtesy(sentence: str) -> bool:
    words = _words(sentence)
    return bool(words) and all(w in fw.COURTESY for w in words)


def _reaction(sentence: str) -> bool:
    """A sentence of thanks or a reaction to the answer ("Love this.", "I see.")."""
    words = _words(sentence)
    return bool(words) and all(w in fw.REACTION for w in words)


# polite and conversational wrappers around a follow-up ("Could you …, please?")
_WRAP_START = re.compile(
    r"^\s*(?:"
    + alternation(every(_W.lead_marks), space=" ")
    + r"[,.!]\s*|"
    + alternation(every(_W.lead_words), _W.lead_patterns, space=" ")
    + r"\s+)*"
    # "I hope this isn't a silly question, but …", "not sure if this is allowed, but …"
    r"(?:[^.?!]{0,60}?\b"
    + alternation(_W.hedges)
    + r"\b[^.?!,]{0,40}?,?\s+but\s+)?(?:"
    + alternation(every(_W.requests), space=" ")
    + r"\s+|"
    # a request verb that names no edit of its own ("pull up only sources in French")
    + alternation(_W.fetch_verbs, space=" ")
    + r"\s+(?=\S)|"
    # "I was wondering whether you might be able to …", "if at all possible, …"
    + alternation(_W.indirect_requests, _W.indirect_request_patterns, space=" ")
    + r"(?:\s+(?:whether|if)\s+you\s+(?:might|could|would|can)(?:\s+possibly)?)?"
    r"(?:\s+be\s+able)?(?:\s+to)?[,]?\s+)*",
    re.I,
)


_COURTESY_END = (
    r"(?:[,.]?\s*(?<![\w'])"
    + alternation(every(_W.courtesy_ends), _W.courtesy_end_patterns, space=" ")
    + r")"
)


_WRAP_END = re.compile(
    # "interviews would be preferable, where available", "an FAQ would be even better"
    r"(?:\s+would be (?:"
    + alternation(_W.approval_intensifiers)
    + r" )?"
    + alternation(_W.approvals)
    + r"(?:,?\s+(?:where|if|when) "
    + alternation(_W.availability, space=" ")
    + r")?"
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
_OWN_QUESTION = re.compile(r"\b" + alternation(every(_W.whether_words)) + r"\s+\w+", re.I)


# a label before the turn says nothing of whether it follows ("New question: what do
# psychologists think about it?" edits the plan; "next. should recess be longer" does not):
# the rest of the turn decides
_LABEL = re.compile(
    r"^\s*(?:"
    + alternation(_W.label_openers, space=" ")
    + r"[,.!]?\s+)*(?P<new>"
    + alternation(_W.new_topic_labels, _W.new_topic_label_patterns, space=" ")
    + r")?(?(new)|"
    + alternation(_W.edit_labels, _W.edit_label_patterns, space=" ")
    + r")(?:,? "
    + alternation(_W.label_courtesy, space=" ")
    + r")?\s*(?:[:.\-–—!]+|,)\s+(?=\S)",
    re.I,
)


_POINTS_BACK = re.compile(r"\b" + alternation(_W.points_back, space=" ") + r"\b|\[\d", re.I)
