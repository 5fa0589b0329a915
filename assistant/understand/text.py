"""Text helpers shared by the parser: the input check, words, spans and scopes."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

from assistant.errors import InputError
from assistant.understand.vocab import VOCAB

MAX_QUESTION_CHARS = 2000
UseLLM = Literal["auto", "always", "never"] | bool

_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)


# --------------------------------------------------------------------------- input


def check_question(question: object) -> str:
    """The question stripped, or :class:`InputError` if it is empty, huge or binary."""
    if isinstance(question, bytes):
        try:
            question = question.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("the question is binary data, not text") from None
    if not isinstance(question, str):
        raise InputError(f"the question must be text, not {type(question).__name__}")
    q = question.strip()
    if not q:
        raise InputError(
            "the question is empty",
            hint='ask a question, e.g. "Should school uniforms be mandatory?"',
        )
    if len(q) > MAX_QUESTION_CHARS:
        raise InputError(
            f"the question is too long ({len(q)} characters; at most {MAX_QUESTION_CHARS})",
            hint="put long text in a document, index it, and ask a short question about it",
        )
    bad = sum(
        1 for ch in q if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\n\t\r"
    )
    if "\x00" in q or "\ufffd" in q or bad > 0:
        raise InputError("the question contains binary or control characters, not text")
    return q


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of phrases, longest first, word-bounded."""
    ws = sorted({re.escape(w) for w in words}, key=len, reverse=True)
    return r"(?:" + "|".join(ws) + r")"


def _span_text(q: str, span: tuple[int, int]) -> str:
    return q[span[0] : span[1]]


def _trim(q: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span to drop surrounding whitespace and punctuation."""
    while start < end and (q[start].isspace() or q[start] in ",;:.!?\"'()[]"):
        start += 1
    while end > start and (q[end - 1].isspace() or q[end - 1] in ",;:.!?\"'()[]"):
        end -= 1
    return start, end


def _words(text: str) -> list[str]:
    return [m.group(0).lower() for m in _WORD.finditer(text)]


_NEG_SCOPE_END = re.compile(
    r"[,;.?!:]|\s(?:and|but|that|which|who|so|because|while|if|please)\s", re.I
)


def _scope(q: str, start: int, limit: int = 80) -> tuple[int, int]:
    """Negation / object scope: from ``start`` to the next clause boundary."""
    m = _NEG_SCOPE_END.search(q, start)
    end = m.start() if m else len(q)
    return _trim(q, start, min(end, start + limit))


def _split_values(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\bor\b|\band\b|\bnor\b|/)\s*", text)
    return [p.strip() for p in parts if p.strip()]


def as_typed(text: str, phrase: str) -> str:
    """``phrase`` as ``text`` spells it (its case), or ``phrase`` when ``text`` lacks it
    (a subject the parser gave in lower case: "homeopathy" of "What harm can Homeopathy
    do?")."""
    at = text.lower().find(phrase.lower())
    return text[at : at + len(phrase)] if at >= 0 else phrase


def phrase_at_start(t: str, phrases: Iterable[str]) -> str | None:
    """The longest of ``phrases`` that opens ``t`` as whole words."""
    low = t.lower()
    for p in sorted(phrases, key=len, reverse=True):
        if low.startswith(p) and (len(low) == len(p) or not low[len(p)].isalnum()):
            return p
    return None


def leading_clause(q: str) -> tuple[str, str] | None:
    """A yes/no question set behind a clause: (the clause, the question after it) for
    "If a drug is legal, should it be advertised?" (a subordinator of ``clause_openers``
    opens it, and the first comma followed by an auxiliary ends it); else None."""
    claims = VOCAB.claims
    if phrase_at_start(q, claims.clause_openers) is None:
        return None
    for comma in re.finditer(r",\s*", q):
        rest = q[comma.end() :].split()
        if len(rest) >= 2 and claims.aux_kind(rest[0]) is not None:
            return q[: comma.start()], q[comma.end() :]
    return None


def found_content(text: str) -> bool:
    return any(w not in VOCAB.grammar.aspect_stopwords for w in _words(text))
