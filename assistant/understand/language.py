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
# a title in Title Case: at least this many words after the first of four letters or
# more, and this share of them capitalised
_TITLE_WORDS = 3
_TITLE_SHARE = 0.75


@functools.cache
def _identifier() -> Any:
    with _LOCK:
        # lazy: the identifier's model is read only when a text needs its language
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        ident.set_languages(list(words().languages))
        return ident


@functools.cache
def english_word(word: str) -> bool:
    """A word of lemminflect's English dictionary, or an English stop word."""
    # lazy: importing lemminflect and spaCy takes seconds and only the claims need them
    import lemminflect
    from spacy.lang.en.stop_words import STOP_WORDS

    w = word.lower()
    return w in STOP_WORDS or bool(lemminflect.getAllLemmas(w))


def english_stop_word(text: str) -> bool:
    """One English stop word ("we", "it", "this")."""
    # lazy: importing spaCy takes seconds (a loaded machine: 24 s) and only the claims need it
    from spacy.lang.en.stop_words import STOP_WORDS

    return text.strip().lower() in STOP_WORDS


@functools.cache
def english_verb(word: str) -> bool:
    """A verb of lemminflect's English dictionary."""
    # lazy: importing lemminflect takes seconds and only the claims need it
    import lemminflect

    return bool(lemminflect.getAllLemmas(word.lower(), upos="VERB"))


@functools.cache
def english_adjective(word: str) -> bool:
    """An adjective of lemminflect's English dictionary."""
    # lazy: importing lemminflect takes seconds and only the claims need it
    import lemminflect

    return bool(lemminflect.getAllLemmas(word.lower(), upos="ADJ"))


@functools.cache
def noun_lemma(word: str, rules: bool = False) -> str | None:
    """The singular of an English noun in lemminflect's dictionary, None when unknown;
    with ``rules``, lemminflect's guess for an unknown word ("tabs" -> "tab")."""
    # lazy: importing lemminflect takes seconds and only the claims need it
    import lemminflect

    w = word.lower()
    found = lemminflect.getAllLemmas(w, upos="NOUN").get("NOUN")
    if not found and rules:
        found = lemminflect.getLemma(w, upos="NOUN")
    return str(found[0]) if found else None


def sentence_case(text: str) -> str:
    """A title in Title Case ("Are Banks a Force of Good or Evil?") in sentence case: the
    capital goes from each word after the first that is an English word in lower case
    ("banks", "force"), and stays on the others ("Washington", "NFL"). The small tagger
    reads every capitalised word as a name. Text that is not in Title Case is returned
    as it is."""
    found = list(re.finditer(r"[^\W\d_]+", text))
    # the words after the first that Title Case capitalises: four letters or more (short
    # function words are often left small), not acronyms
    later = [m for m in found[1:] if len(m.group()) >= 4 and not m.group().isupper()]
    capitals = [m for m in later if m.group()[0].isupper()]
    if len(later) < _TITLE_WORDS or len(capitals) < _TITLE_SHARE * len(later):
        return text  # a sentence, perhaps with a name in it ("abolishing the Electoral College")
    # Title Case leaves only function words small ("from", "with"); a content word in lower
    # case makes it a sentence with a name of several words ("Should Lesotho be annexed by
    # South Africa?")
    if any(not m.group()[0].isupper() and not english_stop_word(m.group()) for m in later):
        return text
    out = list(text)
    for m in found[1:]:
        if not m.group()[0].isupper() or m.group().isupper():
            continue
        word = m.group()
        if english_word(word) and word[1:].islower():
            out[m.start()] = word[0].lower()
    return "".join(out)


def _latin(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    latin = sum(1 for c in letters if unicodedata.name(c, "").startswith("LATIN"))
    return not letters or latin >= len(letters) / 2


def _words(text: str) -> list[str]:
    # acronyms ("GMO", "EU") are English or nothing: they do not tell
    return [w for w in _WORD.findall(text) if not (len(w) > 1 and w.isupper())]


def claim_language(text: str) -> str:
    """``"en"``, another of the users' languages (``vocab.LANGUAGES``), or ``""`` (unsure)."""
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
