"""The follow-up lexicons as sets (the words live in ``assistant/understand/words/``:
``followup.yaml``, ``facets.yaml``, ``people.yaml``; :mod:`assistant.understand.vocab`)."""

from __future__ import annotations

from assistant.understand.vocab import VOCAB

_F, _P = VOCAB.followup, VOCAB.people

FILLER = frozenset(_F.filler_words)
COURTESY = frozenset(_F.courtesy)
REACTION = frozenset(_F.reaction_words)
DROP_REASONS = frozenset(_F.drop_reasons)
POINTERS = frozenset(_F.pointers)
CUE_WORDS = frozenset(_F.cue_words)
SLANG = dict(_F.slang)
FACET_NOUNS = frozenset(VOCAB.facets.nouns)
ROLES = frozenset(_P.role_words)
ANYONE = frozenset(_P.anyone)
ROLE_ENDINGS = tuple(_P.role_endings)
POPULATIONS = frozenset(_P.population_words)
