"""The three word lists ``assistant/understand/claims.py`` reads under their old names, until
the claims work (another branch) lands; the lists live in ``assistant/understand/words/``
(:mod:`assistant.understand.vocab`)."""

from __future__ import annotations

from assistant.understand.vocab import VOCAB

AUXILIARIES = VOCAB.grammar.auxiliaries
PREDICATE_STARTERS = VOCAB.grammar.predicate_starters
COMMON_VERBS = VOCAB.grammar.common_verbs
