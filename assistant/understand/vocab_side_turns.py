"""The schema of ``words/side_turns.yaml``: the cue phrases of rule 3's requests for one
side and for more (:mod:`assistant.understand.followup.sides`) and of rule 9's lenient
value readers (:mod:`assistant.understand.followup.lenient`). Read with the other
vocabulary files by :mod:`assistant.understand.vocab` (``VOCAB.side_turns``).
"""

from __future__ import annotations

from assistant.understand.vocab_types import ByLanguage, Patterns, Words, _File


class SideRequests(_File):
    """Rule 3's cues (:mod:`assistant.understand.followup.sides`)."""

    more_cues: Words
    more_cue_patterns: Patterns
    other_side_nouns: Words
    other_side_phrases: Words
    other_side_patterns: Patterns
    restrict_words: Words
    terse_pro: Words
    terse_pro_patterns: Patterns
    terse_pro_after_space: Words
    terse_con: Words
    terse_con_patterns: Patterns
    terse_side_nouns: Words
    restriction_verbs: Words
    claim_holders: Words
    claim_verbs: Words
    claim_participles: Words
    claim_intensifiers: Words
    claim_beneficiaries: Words
    claim_beneficiary_patterns: Patterns
    answer_verbs: Words
    yes_answers: Words
    no_answers: Words
    case_for_holders: Words
    case_for_links: Words
    says_verb_holders: Words
    says_verbs: Words
    object_negations: Words
    both_words: Words
    both_nouns: Words
    both_sides_phrases: Words
    both_sides_patterns: Patterns


class LenientReaders(_File):
    """Rule 9's facet frames and phrase ends (:mod:`assistant.understand.followup.lenient`)."""

    span_frame_nouns: Words
    span_frame_links: Words
    facet_cues: Words
    facet_cue_patterns: Patterns
    concern_words: Words
    facet_nouns: Words
    effect_nouns: Words
    evidence_nouns: Words
    effect_verbs: Words
    apply_verbs: Words
    effect_cues: ByLanguage
    subject_verbs: Words
    wish_verbs: Words
    covered_words: Words
    aside_words: Words
    clause_breaks: Words
    clause_break_patterns: Patterns
    hesitations: Words
    place_nouns: Words
    group_topic_links: Words


class SideTurns(_File):
    """``words/side_turns.yaml``: one section per module."""

    sides: SideRequests
    lenient: LenientReaders
