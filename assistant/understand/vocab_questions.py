"""The schema of ``words/questions.yaml``: the cue words the question parser's regexes are
built from, one section per module (:mod:`assistant.understand.intent`,
:mod:`assistant.understand.perspectives`, :mod:`assistant.understand.sources`). Read by
:mod:`assistant.understand.vocab` as ``VOCAB.questions``."""

from __future__ import annotations

from assistant.understand.vocab_types import Patterns, Words, _File


class SidePair(_File):
    """Words of each side, pro then con."""

    pro: Words
    con: Words


class IntentWords(_File):
    """The side cues, the debate cues and the lookup words of
    :mod:`assistant.understand.intent`."""

    facet_modifiers: Words
    facet_prepositions: Words
    verb_intensifiers: Words
    verb_particles: Words
    verb_subjects: Words
    eval_intensifiers: Words
    copula_first_intensifiers: Words
    about_eval: SidePair
    view_prepositions: Words
    side_copulas: Words
    side_negations: Words
    side_prepositions: Words
    topic_end_verbs: Words
    topic_end_formats: Words
    topic_end_audiences: Words
    topic_end_words: Words
    topic_end_patterns: Patterns
    leading_words: Words
    motion_openers: Words
    strong_debate_cues: Words
    info_openers: Words
    info_opener_patterns: Patterns
    info_noun_links: Words
    typo_wh_words: Words
    indefinite_articles: Words
    agent_of_words: Words
    agent_about_words: Words


class PerspectiveWords(_File):
    """The roles and sides of a viewpoint phrase and the request shapes of
    :mod:`assistant.understand.perspectives`."""

    pro_verbs: Words
    con_verbs: Words
    nei_phrases: Words
    verdict_determiners: Words
    verdict_nouns: Words
    location_verbs: Words
    subtopic_cues: Words
    subtopic_not_objects: Words
    neutral_stance_cues: Words
    neutral_stance_objects: Words
    pointer_adjectives: Words
    topic_tail_prepositions: Words
    topic_tail_nouns: Words
    topic_intros: Words
    stance_prep_verbs: Words
    stance_preps: Words
    viewpoint_nouns: Words
    viewpoint_of_nouns: Words
    both_sides: Words
    evidence_nouns: Words
    evidence_cues: Words
    ideology_tails: Words


class SourceWords(_File):
    """The cues of a source constraint (:mod:`assistant.understand.sources`)."""

    value_determiners: Words
    not_values: Words
    exclusions: Words
    exclusion_patterns: Patterns
    negated_from: Words
    negated_from_objects: Words
    negated_from_ends: Words
    unwanted_negations: Words
    unwanted_verbs: Words
    unwanted_objects: Words
    domain_endings: Words
    attributions: Words
    value_leads: Words
    value_ends: Words
    more_exclusions: Words
    more_exclusion_patterns: Patterns
    more_exclusion_objects: Words
    courtesy_ends: Words
    item_ends: Words
    only_cues: Words
    only_followers: Words
    only_nouns: Words
    not_only_values: Words
    not_only_value_patterns: Patterns
    not_only_words: Words
    adjective_forms: Words
    research_nouns: Words
    only_kind_cues: Words
    only_kind_verbs: Words


class Questions(_File):
    """``words/questions.yaml``."""

    intent: IntentWords
    perspectives: PerspectiveWords
    sources: SourceWords
