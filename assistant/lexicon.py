"""The parser's cue lexicons under their old names, for modules not yet moved to
:mod:`assistant.understand.vocab` (the lists live in ``assistant/understand/words/``)."""

from __future__ import annotations

from assistant.understand.vocab import VOCAB

_G, _R, _S, _V = VOCAB.grammar, VOCAB.requests, VOCAB.stance, VOCAB.values

DOC_NOUNS = _R.doc_nouns
PRO_FACETS = _S.pro_facet_phrases
CON_FACETS = _S.con_facet_phrases
IDEOLOGY = _S.ideology
ANALOGY_CUES = _S.analogy_cues
ENTITY_CUES = _S.entity_cues
COUNTRIES = VOCAB.places.places
SOURCE_NOUNS = _V.source_nouns
LANGUAGE_NAMES = _V.language_names
SOURCE_SITES = _V.source_sites
NEGATIONS = _G.negations
WH_WORDS = _G.wh_words
AUXILIARIES = _G.auxiliaries
DEBATE_CUES = _R.debate_cues
PREDICATE_STARTERS = _G.predicate_starters
COMMON_VERBS = _G.common_verbs
ASPECT_STOPWORDS = _G.aspect_stopwords
ASPECT_BREAKS = _G.aspect_breaks
