"""Is an unknown phrase a facet of the previous topic or a topic of its own?

"what about bees?" after "ban glyphosate?" narrows the answer to a facet;
"what about tea?" after "Is coffee bad for you?" starts a new thread. The
follow-up rules (:mod:`assistant.understand.followup`) know a facet when its
head is in the facet, role or population lexicons of
:mod:`assistant.understand.followup.words`; every word they do not list used
to be read as a new topic. This module generalises the lexicons with the
bundled embedder, as a nearest-neighbour classifier whose labelled examples are
the lexicons themselves:

    margin(x, T) = mean of the 3 largest cos(x, w), w in the facet/role/population words
                   − max cos(x, g), g in the previous topic's content words and word pairs

A sibling topic ("tea" after coffee, "Barcelona" after Paris, "rabbits" after
"cats better pets than dogs") is closest to a word of the previous topic; a
facet ("bees", "eye strain", "car prices") is closer to the lexicons' facets
and affected groups than to anything the topic names. A phrase is read as a
facet when ``margin ≥ FACET_MARGIN``. The threshold was chosen on the
development dialogues only (``tests/data/conversation_dev*.jsonl``; the
test sets were not looked at): 0.18 is the lowest value at which no gold new
topic of the three development sets reads as a facet.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import ModelError
from assistant.understand import turn_kind
from assistant.understand.followup import words as fw
from assistant.understand.followup.settings import DEFAULTS, ResolverSettings
from assistant.understand.reader import shared_reader
from assistant.understand.vocab import VOCAB

FACET_MARGIN = 0.18
_STOP = frozenset(VOCAB.grammar.judge_stopwords)
_WORD = re.compile(r"[\w'-]+")


def _content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP and w not in fw.FILLER]


class FacetJudge:
    """``margin(phrase, topic)`` with the given embedder (the pipeline's; loaded lazily:
    nothing is encoded until a follow-up reaches the one rule that asks)."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        #: the stance model that reads a side named by its claim (:meth:`claim_side`):
        #: ``settings.stance.model`` ("bundled", "off" or a file); the app and ``sphere
        #: ask --session`` set it from the user's config
        self.stance_choice = "bundled"
        #: the follow-up turn reader (:mod:`assistant.understand.reader`): "bundled", "off"
        #: or an artifact's path; :attr:`reader` may also be set to a loaded reader
        self.reader_choice = "bundled"
        self.reader: Any = None
        #: the turn-kind model to use instead of the shipped one (cross-validation)
        self.turn_kind: Any = None
        #: how the follow-up resolver uses these readers (config.yaml ``followup.tuning``,
        #: ``sphere eval conversation --use``: a changed copy, never the defaults changed)
        self.settings: ResolverSettings = DEFAULTS
        self._lexicon: np.ndarray | None = None
        self._lock = threading.Lock()

    def configure(self, settings: Any) -> None:
        """Take the user's choices from the app's settings (:class:`assistant.config.Settings`):
        the stance model, the turn reader and the resolver's tuning."""
        self.stance_choice = settings.stance.model  # a side named by its claim
        self.reader_choice = settings.followup.reader
        self.settings = DEFAULTS.replaced(settings.followup.tuning)

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder.encode(list(texts)), dtype=np.float32)

    def lexicon(self) -> np.ndarray:
        with self._lock:
            if self._lexicon is None:
                words = sorted(fw.FACET_NOUNS | fw.POPULATIONS | fw.ROLES)
                self._lexicon = self._encode(words)
            return self._lexicon

    def margin(self, phrase: str, topic: str) -> float | None:
        """The margin above, or None when the phrase or the topic has no content word."""
        words = _content(topic)
        grams = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
        x = " ".join(_content(phrase))
        if not grams or not x:
            return None
        vecs = self._encode([x, *grams])
        lex = self.lexicon() @ vecs[0]
        k = min(3, lex.shape[0])
        facet = float(np.sort(lex)[-k:].mean())
        sibling = float((vecs[1:] @ vecs[0]).max())
        return facet - sibling

    def is_facet(self, phrase: str, topic: str) -> bool:
        m = self.margin(phrase, topic)
        return m is not None and m >= FACET_MARGIN

    def kind(self, turn: str, topic: str) -> tuple[str, float] | None:
        """The edit kind the trained turn-kind model reads in ``turn`` beside the topic it
        would edit, and its probability (:mod:`assistant.understand.turn_kind`), or None
        without the model."""
        model = self.turn_kind or turn_kind.shipped()
        if model is None:
            return None
        text = turn_kind.turn_text(turn)
        vecs = self._encode([text, topic])
        return model.predict(turn_kind.features([text], vecs[1:], vecs[:1]))

    def kind_probs(self, turn: str, topic: str) -> dict[str, float] | None:
        """The turn-kind model's whole distribution over the edit kinds, or None without
        the model."""
        model = self.turn_kind or turn_kind.shipped()
        if model is None:
            return None
        text = turn_kind.turn_text(turn)
        vecs = self._encode([text, topic])
        p = model.proba(turn_kind.features([text], vecs[1:], vecs[:1]))[0]
        return {c: float(p[i]) for i, c in enumerate(model.classes)}

    def read(self, turn: str, previous: Any) -> Any:
        """The turn reader's :class:`~assistant.understand.reader.Reading` of ``turn`` (as
        typed) beside the plan it would edit; None when the reader is off or missing."""
        reader = self._turn_reader()
        return reader.read(turn, previous) if reader is not None else None

    def warm(self) -> None:
        """Load the turn reader now (the app calls this on a worker thread after its first
        answer, so that the first follow-up does not wait for it)."""
        self._turn_reader()

    def _turn_reader(self) -> Any:
        if self.reader is not None:
            return self.reader
        choice = self.reader_choice.strip()
        if choice.lower() == "off":
            return None
        if choice.lower() != "bundled":
            # a reader the user named (followup.reader, --reader): one that cannot load is
            # an error to show, not a silent fall-back to the rules
            try:
                return shared_reader(Path(choice).expanduser())
            except ModelError as exc:
                raise ModelError(
                    exc.message,
                    hint="followup.reader in config.yaml (or --reader) names this file; set "
                    "it to `bundled`, to `off`, or to a reader `sphere train turn-reader` wrote",
                ) from None
        try:
            return shared_reader(None)
        except ModelError:
            return None  # the rules and the turn-kind model read alone

    def side(self, turn: str, topic: str) -> tuple[str, float] | None:
        """The side (pro, con or both) the trained side reader reads in a request for one
        side or for more, beside the topic (:mod:`assistant.understand.turn_kind`), and
        its probability; None without the model."""
        model = self.turn_kind or turn_kind.shipped()
        if model is None or model.side is None:
            return None
        text = turn_kind.turn_text(turn)
        vecs = self._encode([text, topic])
        return model.side.predict(turn_kind.features([text], vecs[1:], vecs[:1]))

    def claim_side(
        self, question: str, claims: tuple[str, str], statement: str
    ) -> tuple[float, float, float] | None:
        """P(A), P(B), P(neither) of a statement against the plan's two claims, by the
        configured stance model (:attr:`stance_choice`, :mod:`assistant.stance.model`);
        None when it is off or cannot load (the side is then not read from a claim)."""
        from assistant.stance.model import shared_model  # loads torch: only when a side is claimed

        choice = self.stance_choice.strip()
        if choice.lower() == "off":
            return None
        try:
            model = shared_model(None if choice.lower() == "bundled" else Path(choice).expanduser())
        except ModelError:
            return None
        return model.sides(question, claims, [statement])[0].p


@functools.cache
def shared_judge() -> FacetJudge:
    """The judge the app and ``sphere ask --session`` use: on the bundled MiniLM (the model
    the margin was chosen with, whatever embedder the user's index has), loaded the first
    time a follow-up needs it, once per process."""
    from assistant.embed import LazyEmbedder  # the embedder module: when a follow-up first asks

    return FacetJudge(LazyEmbedder())
