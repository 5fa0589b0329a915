"""Document attributes for instruction-following retrieval (paper 002, §3 dimensions).

Computed once at indexing time and stored with the document:

* ``language`` — ISO 639-1 code from py3langid (langid.py's model, shipped in
  the package) with normalised probability; ``""`` when the text is too short
  or the model is unsure (p < 0.5).
* ``n_words`` — whitespace words (the ``length`` dimension).
* ``structure`` — ``prose``, ``list``, ``qa``, ``table`` or ``code``, from the
  shape of the lines (the ``format`` dimension).
* ``reading_grade`` — Flesch–Kincaid grade level (Kincaid et al. 1975:
  0.39·words/sentences + 11.8·syllables/words − 15.59), and ``audience`` from
  it: ``general`` (≤ 9), ``informed`` (≤ 13), ``expert`` (> 13).
* ``domain`` — the host of a ``url`` field, when there is one (``source``).
"""

from __future__ import annotations

import re
import threading
from typing import Any
from urllib.parse import urlparse

_IDENTIFIER: Any = None
_LOCK = threading.Lock()

_BULLET = re.compile(r"^\s*(?:[-*•·▪◦]|\d{1,3}[.)]|[a-zA-Z][.)])\s+\S")
_QA = re.compile(r"^\s*(?:Q|A|Question|Answer|P|R|Pregunta|Respuesta)\s*[:.)-]\s*", re.I)
_CODE = re.compile(
    r"[;{}]\s*$|^\s*(?:def |class |import |from \S+ import|function |#include|return\b)"
)
_SENT = re.compile(r"[.!?]+(?=\s|$)")
_VOWELS = re.compile(r"[aeiouy]+")
_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")


def _identifier() -> Any:
    global _IDENTIFIER
    with _LOCK:
        if _IDENTIFIER is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            _IDENTIFIER = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        return _IDENTIFIER


def detect_language(text: str, *, min_words: int = 3, min_prob: float = 0.5) -> tuple[str, float]:
    """(ISO 639-1 code, probability), or ("", p) when too short or unsure."""
    sample = text[:1000]
    if len(sample.split()) < min_words:
        return "", 0.0
    code, prob = _identifier().classify(sample)
    prob = float(prob)
    return (str(code), prob) if prob >= min_prob else ("", prob)


def structure(text: str) -> str:
    """Shape of a document: prose, list, qa, table or code."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) < 3:
        return "prose"
    n = len(lines)
    bullets = sum(1 for ln in lines if _BULLET.match(ln))
    qa = sum(1 for ln in lines if _QA.match(ln))
    piped = sum(1 for ln in lines if ln.count("|") >= 2 or ln.count("\t") >= 2)
    code = sum(1 for ln in lines if _CODE.search(ln))
    if qa >= 2 and qa / n >= 0.3:
        return "qa"
    if piped / n >= 0.5:
        return "table"
    if code / n >= 0.4:
        return "code"
    if bullets >= 3 and bullets / n >= 0.4:
        return "list"
    questions = sum(1 for ln in lines if ln.rstrip().endswith("?"))
    if questions >= 2 and questions / n >= 0.25:
        return "qa"
    return "prose"


def _syllables(word: str) -> int:
    w = word.lower()
    groups = len(_VOWELS.findall(w))
    if w.endswith("e") and not w.endswith(("le", "ee")) and groups > 1:
        groups -= 1
    return max(1, groups)


def reading_grade(text: str) -> float:
    """Flesch–Kincaid grade level (Kincaid et al. 1975)."""
    words = _WORD.findall(text)
    if not words:
        return 0.0
    sentences = max(1, len(_SENT.findall(text)))
    syllables = sum(_syllables(w) for w in words)
    grade = 0.39 * len(words) / sentences + 11.8 * syllables / len(words) - 15.59
    return round(max(0.0, min(grade, 30.0)), 1)


def audience(grade: float) -> str:
    if grade <= 9:
        return "general"
    if grade <= 13:
        return "informed"
    return "expert"


def domain_of(url: str) -> str:
    try:
        host = urlparse(url if "//" in url else f"//{url}").hostname or ""
    except ValueError:
        return ""
    return host[4:] if host.startswith("www.") else host


def document_attributes(text: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """All attributes of one document text (see module docstring)."""
    lang, prob = detect_language(text)
    grade = reading_grade(text)
    attrs: dict[str, Any] = {
        "language": lang,
        "language_prob": round(prob, 3),
        "n_words": len(text.split()),
        "structure": structure(text),
        "reading_grade": grade,
        "audience": audience(grade),
    }
    url = (meta or {}).get("url")
    if isinstance(url, str) and url:
        attrs["domain"] = domain_of(url)
    return attrs
