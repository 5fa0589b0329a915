"""One typing slip in a word the rules key on, repaired.

The follow-up rules read closed vocabularies ("only", "exclude", "against",
"Spanish", "blogs", "beginners" …). One slip in such a word ("exlude",
"agianst", "Spnaish", "bolgs") made the turn unreadable: on the development
dialogues with one slip put in a random word of five letters or more of every
follow-up, the rules' resolved-plan accuracy fell from 98.6 % to 67.7 %.

A word is repaired when all of these hold:

* it is not an English word: not a whole word of the bundled embedder's
  WordPiece vocabulary (22,500 words) nor a regular inflection of one
  ("milks"), and not a key word itself;
* it is one edit (two adjacent letters swapped, a letter left out, a letter too
  many, a wrong letter that is a neighbour on the keyboard: Damerau's four, in
  that order of likelihood) from a key word, and that key word is the only word
  of the key and value lexicons that the likeliest such slip explains ("fuor"
  is "four", a swap, though the Italian "fuori" is one letter away; "thre"
  could be "there" or "three" and stays);
* that word is not a value word nor one of its inflections ("sources" stays);
* it has at least five letters, or four when the slip is a swap ("onyl").

The key words are the words of the rules' vocabulary files
(``assistant/understand/words/*.yaml``, :mod:`assistant.understand.vocab`) of four
letters or more, except the facet, population and role lexicons, whose words are values
the user's own spelling is copied into, and the cue phrases the rules' regexes are built
from (``vocab.REGEX_FILES``: they were no key words while written in the regexes).
(Until issue 35 they were read from the string constants of the rule modules' source,
error messages included.)
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterator
from typing import Any

from assistant.understand.vocab import REGEX_FILES, VOCAB

_WORD = re.compile(r"[a-zà-ÿ]{4,}")


def _strings(value: Any) -> Iterator[str]:
    """Every string of a vocabulary entry (a word list, a table's keys and values, a
    list by language or by group)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _strings(v)


def _value_entries() -> list[Any]:
    return [VOCAB.facets.facet_nouns, VOCAB.people.populations, VOCAB.people.roles]


@functools.cache
def value_words() -> frozenset[str]:
    return frozenset(w.lower() for entry in _value_entries() for w in _strings(entry))


@functools.cache
def key_words() -> frozenset[str]:
    values = [id(v) for v in _value_entries()]
    words: set[str] = set()
    for name in type(VOCAB).model_fields:
        if name in REGEX_FILES:
            continue  # the regexes' cue phrases (vocab.REGEX_FILES)
        part = getattr(VOCAB, name)
        for field in type(part).model_fields:
            entry = getattr(part, field)
            if id(entry) not in values:
                for s in _strings(entry):
                    words.update(_WORD.findall(s.lower()))
    return frozenset(words)


@functools.cache
def dictionary() -> frozenset[str]:
    """Whole words of the bundled embedder's WordPiece vocabulary (empty when the
    package is missing: then nothing is repaired)."""
    try:
        # the embedder package's folder, read when a word is first checked
        from assistant.embed import bundled_model_path

        path = bundled_model_path() / "vocab.txt"
        lines = path.read_text(encoding="utf-8").split()
    except Exception:  # no dictionary, no repair
        return frozenset()
    return frozenset(w for w in lines if w.isalpha())


# the slip each edit undoes, most likely first: two letters swapped, a letter left
# out, a letter too many, a wrong letter
_SWAP, _OMITTED, _EXTRA, _WRONG = range(4)


_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def _neighbours() -> dict[str, str]:
    """Letters next to each letter on a QWERTY keyboard (a wrong letter is a neighbour)."""
    at = {c: (r, i) for r, row in enumerate(_ROWS) for i, c in enumerate(row)}
    return {
        c: "".join(
            d for d, (r2, i2) in at.items() if d != c and abs(r2 - r) <= 1 and abs(i2 - i) <= 1
        )
        for c, (r, i) in at.items()
    }


_NEAR = _neighbours()


def _edits(word: str) -> dict[str, int]:
    """Every string one edit from ``word``, with the most likely slip that leads there."""
    letters = string.ascii_lowercase
    out: dict[str, int] = {}

    def put(w: str, slip: int) -> None:
        if w != word and slip < out.get(w, 9):
            out[w] = slip

    for i in range(len(word) + 1):
        a, b = word[:i], word[i:]
        if len(b) > 1:
            put(a + b[1] + b[0] + b[2:], _SWAP)
        for c in letters:
            put(a + c + b, _OMITTED)
        if b:
            put(a + b[1:], _EXTRA)
            for c in _NEAR.get(b[0], ""):
                put(a + c + b[1:], _WRONG)
    return out


def _known(low: str, vocab: frozenset[str]) -> bool:
    """An English word, or a regular inflection of one ("milks", "banned", "taxing")."""
    stems = [low]
    for end in ("s", "es", "ed", "d", "ing", "er", "ers"):
        if low.endswith(end):
            stems += [low[: -len(end)], low[: -len(end)] + "e"]
    return any(s in vocab for s in stems)


@functools.lru_cache(maxsize=8192)
def near_key(low: str) -> str | None:
    """The key word one slip from ``low`` (lower case), or None."""
    if len(low) < 4 or not low.isascii() or not low.isalpha():
        return None
    vocab = dictionary()
    keys = key_words()
    values = value_words()
    if not vocab or low in keys or low in values or _known(low, vocab):
        return None
    found = {w: slip for w, slip in _edits(low).items() if w in keys or w in values}
    if not found:
        return None
    likeliest = min(found.values())
    best = [w for w, slip in found.items() if slip == likeliest]
    if len(best) != 1:
        return None
    word = best[0]
    if word in values or word.startswith(low) or low.startswith(word):
        return None
    if len(low) < 5 and likeliest != _SWAP:
        return None
    return word
