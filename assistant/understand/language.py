"""Which language a question's claims are written in (English, or another one).

The claims' rules read English only (the parser is English). A text is English
when langid.py (py3langid, restricted to the languages the question parser
reads) says so, or when at least 60 % of its words are English words
(lemminflect's dictionary or spaCy's English stop words): a short topic such as
"rent control" or "zoos" is too short for langid.py, which reads them as French
and Dutch. A text mostly in another script than the Latin one is not English.
Otherwise the language is langid.py's when it is sure (a probability of 0.9 or
more over three words or more), else unknown ("").
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from typing import Any

from assistant.understand.claim_words import words

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_LOCK = threading.Lock()
_SURE = 0.9
_SURE_WORDS = 3
_ENGLISH_SHARE = 0.6


@functools.cache
def _identifier() -> Any:
    with _LOCK:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        ident.set_languages(list(words().languages))
        return ident


@functools.cache
def english_word(word: str) -> bool:
    """A word of lemminflect's English dictionary, or an English stop word."""
    import lemminflect
    from spacy.lang.en.stop_words import STOP_WORDS

    w = word.lower()
    return w in STOP_WORDS or bool(lemminflect.getAllLemmas(w))


@functools.cache
def english_verb(word: str) -> bool:
    """A verb of lemminflect's English dictionary."""
    import lemminflect

    return bool(lemminflect.getAllLemmas(word.lower(), upos="VERB"))


@functools.cache
def noun_lemma(word: str, rules: bool = False) -> str | None:
    """The singular of an English noun in lemminflect's dictionary, None when unknown;
    with ``rules``, lemminflect's guess for an unknown word ("tabs" -> "tab")."""
    import lemminflect

    w = word.lower()
    found = lemminflect.getAllLemmas(w, upos="NOUN").get("NOUN")
    if not found and rules:
        found = lemminflect.getLemma(w, upos="NOUN")
    return str(found[0]) if found else None


def _latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    latin = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
    return not letters or latin >= len(letters) / 2


def _words(text: str) -> list[str]:
    # acronyms ("GMO", "EU") are English or nothing: they do not tell
    return [w for w in _WORD.findall(text) if not (len(w) > 1 and w.isupper())]


def claim_language(text: str) -> str:
    """``"en"``, another code of ``claims.yaml``'s ``languages``, or ``""`` (unsure)."""
    if not _latin(text):
        return ""
    found = _words(text)
    if not found:
        return "en"
    code, prob = _identifier().classify(text)
    known = sum(1 for w in found if english_word(w)) / len(found)
    if code == "en" or known >= _ENGLISH_SHARE:
        return "en"
    return str(code) if prob >= _SURE and len(found) >= _SURE_WORDS else ""
