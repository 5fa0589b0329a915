"""The typed model of ``words/references.yaml`` (:mod:`assistant.understand.vocab`): the
words of the follow-up rules that point at the answer's references
(:mod:`assistant.understand.followup.references`), ask for a group's view
(:mod:`assistant.understand.followup.group`) and drop a facet
(:mod:`assistant.understand.followup.drop`), one section per rule.
"""

from __future__ import annotations

from assistant.understand.vocab_types import Patterns, Words, _File


class ReferenceWords(_File):
    """Rule 1's words: reference nouns, units, remove and compare cues, ordinals, a drop
    of the reference asked about, a correction, a comparison with one number."""

    ref_nouns: Words
    units: Words
    quantity_before: Words
    remove_verbs: Words
    remove_verb_patterns: Patterns
    remove_without: Words
    compare_cues: Words
    pair_verbs: Words
    pair_links: Words
    pair_fillers: Words
    ordinal_nouns: Words
    ordinal_links: Words
    ordinal_verbs: Words
    ordinal_suffixes_en: Words
    ordinal_suffixes: Words
    number_nouns: Words
    number_blockers: Words
    pointed_openers: Words
    pointed_opener_patterns: Patterns
    pointed_requests: Words
    pointed_verbs: Words
    pointed_verb_patterns: Patterns
    pointed_objects: Words
    pointed_particles: Words
    pointed_tails: Words
    pointed_ends: Words
    pointed_if_subjects: Words
    pointed_if_approvals: Words
    corrections: Words
    compare_one_openers: Words
    compare_one_cues: Words
    compare_one_cue_patterns: Patterns
    compare_one_nouns: Words


class GroupWords(_File):
    """Rule 6's words: a group's view, the words around a group's name."""

    view_nouns: Words
    view_verbs: Words
    view_verb_patterns: Patterns
    group_leads: Words
    group_ends: Words
    group_tails: Words
    topic_links: Words
    role_view_openers: Words
    role_view_nouns: Words
    alone_openers: Words
    what_auxiliaries: Words
    view_adverbs: Words
    how_auxiliaries: Words
    how_verbs: Words
    inverted_verbs: Words
    yes_no_auxiliaries: Words
    assent_verbs: Words
    hear_verbs: Words
    voice_nouns: Words
    position_nouns: Words
    have_auxiliaries: Words
    have_nouns: Words
    from_view_nouns: Words
    bare_view_nouns: Words
    es_question_words: Words
    es_verbs: Words
    es_verbs_after: Words
    es_topic_prepositions: Words
    es_topic_pronouns: Words
    de_verbs: Words
    de_pronoun_adverbs: Words
    de_judge_verbs: Words
    de_pronouns: Words
    fr_question_words: Words
    fr_verbs: Words
    view_phrases: Words
    view_phrase_links: Words
    it_question_words: Words
    it_verbs: Words
    it_verbs_one: Words
    pt_verbs: Words
    nl_question_words: Words
    nl_verbs: Words
    nl_pronoun_adverbs: Words
    about_openers: Words
    they_verbs: Words


class DropWords(_File):
    """Rule 5's words: the drop verbs and the words around a dropped facet."""

    verbs: Words
    verb_patterns: Patterns
    object_starts: Words
    object_ends: Words
    reason_links: Words
    reason_subjects: Words
    never_minds: Words
    never_mind_verbs: Words
    taken_back: Words
    taken_back_tails: Words
    object_particles: Words
    object_particle_tails: Words
    object_tails: Words


class References(_File):
    """``words/references.yaml``: one section per rule."""

    references: ReferenceWords
    group: GroupWords
    drop: DropWords
