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

The key words are the words the rules themselves are written with: every word
of four letters or more in the string constants of the rule modules (their
patterns and word lists), except the facet, population and role lexicons,
whose words are values the user's own spelling is copied into.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import string

# the modules whose string constants are the rules' vocabulary
_RULE_MODULES = (
    "assistant.lexicon",
    "assistant.understand.aspects",
    "assistant.understand.claims",
    "assistant.understand.constraints",
    "assistant.understand.cues",
    "assistant.understand.followup",
    "assistant.understand.followup_words",
    "assistant.understand.intent",
    "assistant.understand.perspectives",
    "assistant.understand.text",
)
_VALUE_SETS = ("FACET_NOUNS", "POPULATIONS", "ROLES")
_WORD = re.compile(r"[a-zà-ÿ]{4,}")


def _constants(module: str) -> list[str]:
    """The module's string constants that are not docstrings nor the value lexicons."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module)))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in _VALUE_SETS for t in node.targets
        ):
            skip.update(id(n) for n in ast.walk(node.value))
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip
    ]


@functools.cache
def value_words() -> frozenset[str]:
    from assistant.understand import followup_words as fw

    return frozenset(w.lower() for name in _VALUE_SETS for w in getattr(fw, name))


@functools.cache
def key_words() -> frozenset[str]:
    words: set[str] = set()
    for module in _RULE_MODULES:
        for s in _constants(module):
            # regex escapes (\b, \s, \w) are not letters of the word that follows
            words.update(_WORD.findall(re.sub(r"\\[A-Za-z]", " ", s).lower()))
    return frozenset(words)


@functools.cache
def dictionary() -> frozenset[str]:
    """Whole words of the bundled embedder's WordPiece vocabulary (empty when the
    package is missing: then nothing is repaired)."""
    try:
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
