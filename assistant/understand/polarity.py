"""The opposite of a claim that already says "no": swap its negative word, never add "not".

"Innocent people have nothing to fear from surveillance." is opposed by "Innocent
people have something to fear from surveillance.", not by "… do not have nothing
to fear …"; "There is no alternative to austerity." by "There is some alternative
…"; "We should never negotiate with terrorists." by "We should sometimes …". The
negative words and their positive counterparts are data (``negative_words`` of
``words/claims.yaml``). Only a word of the main clause counts, found by the
parse: the path from it to the clause's root crosses no subordinate clause and no
other verb, so "If you have done nothing wrong, …" keeps its condition and "It is
better to have no elections than sham ones." is opposed with "not".
"""

from __future__ import annotations

from typing import Any

from assistant.understand.claim_words import words
from assistant.understand.declarative import _root, negate
from assistant.understand.parse import parse

# dependencies that open a clause of its own below the main verb: a negative word under
# one of them ("If you have done nothing wrong", "people who never vote") is not the claim's
_SUBORDINATE = frozenset({"advcl", "relcl", "acl", "ccomp", "csubj", "csubjpass", "pcomp"})


def _nots(root: Any) -> int:
    """How often the verb is negated by a word of its own ("not", "n't"; "never" is a
    negative word, which the parse also calls a negation)."""
    table = words().negative_words
    return sum(c.dep_ == "neg" and c.lower_ not in table for c in root.children)


def _in_main_clause(t: Any, root: Any) -> bool:
    """Whether ``t`` hangs on the root through no clause and no other verb: "nothing" of
    "have nothing to fear" does, "no" of "better to have no elections than …" does not
    (it is the infinitive's)."""
    while t.i != root.i:
        if t.dep_ in _SUBORDINATE or t.head.i == t.i:
            return False
        t = t.head
        if t.i != root.i and t.tag_.startswith(("VB", "MD")):
            return False
    return True


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def negative_word(doc: Any) -> tuple[int, int, str] | None:
    """(first token, token count, its positive counterpart) of the main clause's first
    negative word or phrase ("no one", "nothing", "never"), or None."""
    root = _root(doc)
    if root is None:
        return None
    table = words().negative_words
    longest = max((len(k.split()) for k in table), default=1)
    for t in doc:
        for n in range(longest, 0, -1):
            if t.i + n > len(doc):
                continue
            phrase = " ".join(x.lower_ for x in doc[t.i : t.i + n])
            if phrase in table and _in_main_clause(t, root):
                return t.i, n, table[phrase]
    return None


def swap_negative(statement: str) -> str | None:
    """The statement with its main clause's negative word made positive, or None when
    it has none (or its verb is negated with "not" as well)."""
    doc = parse(statement)
    root = _root(doc)
    if root is None or _nots(root):
        return None
    found = negative_word(doc)
    if found is None:
        return None
    i, n, positive = found
    span = doc[i : i + n]
    return (
        doc[:i].text_with_ws
        + _cased(positive, span[0].text)
        + span[-1].whitespace_
        + doc[i + n :].text_with_ws
    ).strip()


def opposed(claims: tuple[str, str]) -> tuple[str, str]:
    """``claims`` with a double negative mended: where the second claim negated the
    first with "not" while the first already says "no" ("… do not have nothing …"),
    the second is the first with its negative word swapped; where the first says
    "not" already ("Should schools not ban phones?"), the second is the first without
    it ("Schools should ban phones.")."""
    pro, con = claims
    doc = parse(con)
    root = _root(doc)
    if root is None or not _nots(root):
        return claims
    if _nots(root) > 1:  # "Schools should not not ban phones.": the first's "not" taken away
        out = negate(pro)
        plain = " ".join(out.split()) if out else ""
        return (pro, plain) if plain and plain != pro else claims
    if negative_word(doc) is None:
        return claims
    swapped = swap_negative(pro)
    return (pro, swapped) if swapped and swapped != pro else claims
