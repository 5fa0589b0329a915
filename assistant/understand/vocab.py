"""The vocabulary of the question parser and the follow-up rules, read from data files.

Every hand-written word list the rules apply lives in ``assistant/understand/words/*.yaml``,
grouped by what the words mean (stance cues, constraint values, constraint cues,
request words, follow-up words, facet frames, a follow-up's wrappers, sides, people,
facets, grammar words, places), each list with a comment saying where it is used. This
module reads them once, at first import, and checks them against a schema
(:class:`Vocabulary`): every word lower case and stripped (place names keep their
capitals), no word twice in one list, no key twice in one table, lists by language only
under a known language code, and no key the schema does not name. A file that breaks a
rule is a :class:`VocabularyError` naming the file and the entry. The patterns that apply
the words (regex skeletons) stay in the code that uses them, built from these lists with
:func:`alternation`; the lists themselves are never written in Python. A list named
``*_patterns`` holds regex fragments (optional parts, lookaheads) where a plain phrase
cannot say it: each must compile.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Annotated, Any

import yaml
from pydantic import AfterValidator, ValidationError, model_validator

from assistant.understand.vocab_questions import Questions
from assistant.understand.vocab_references import References
from assistant.understand.vocab_side_turns import SideTurns

# (WordList, alternation, every and inverse are imported from here by the modules that read
# the vocabulary)
from assistant.understand.vocab_types import (
    LANGUAGES,
    Bands,
    ByLanguage,
    Groups,
    Language,
    Names,
    Patterns,
    Table,
    Words,
    _File,
)
from assistant.understand.vocab_types import WordList as WordList
from assistant.understand.vocab_types import alternation as alternation
from assistant.understand.vocab_types import every as every
from assistant.understand.vocab_types import inverse as inverse

FILES = (
    "claims",
    "constraints",
    "facets",
    "followup",
    "frames",
    "grammar",
    "people",
    "places",
    "questions",
    "references",
    "requests",
    "side_turns",
    "sides",
    "stance",
    "values",
    "wrappers",
)


#: the files of cue phrases the rules' regexes are built from; their words are no keys of
#: the spelling repair (:func:`assistant.understand.spelling.key_words`), as they were not
#: while they were written in the regexes: reading them would repair slips towards 90
#: more words ("mnetion" -> "mention"), a change of behaviour to measure on its own
REGEX_FILES = ("constraints", "frames", "questions", "references", "side_turns", "wrappers")


class VocabularyError(ValueError):
    """A vocabulary file breaks the schema (a packaging error, not a user's)."""


class Facets(_File):
    facet_nouns: ByLanguage

    @functools.cached_property
    def nouns(self) -> WordList:
        """The facet nouns of every language."""
        return every(self.facet_nouns)


class People(_File):
    roles: ByLanguage
    populations: ByLanguage
    anyone: Words
    role_endings: Words

    @functools.cached_property
    def role_words(self) -> WordList:
        return every(self.roles)

    @functools.cached_property
    def population_words(self) -> WordList:
        return every(self.populations)


class Followup(_File):
    filler: ByLanguage
    courtesy: Words
    reaction: Words
    drop_reasons: Words
    pointers: Words
    cue_words: Words
    slang: Table
    request_verbs: Words
    asks: Words
    reference_question: Words
    more_words: Words
    view_residue: Words
    effect_subject: Words
    facet_prepositions: Words
    constraint_residue: Words
    value_next: Words

    @functools.cached_property
    def filler_words(self) -> WordList:
        return every(self.filler)

    @functools.cached_property
    def reaction_words(self) -> WordList:
        """A reaction is courtesy or one of the reaction words."""
        return WordList((*self.courtesy, *(w for w in self.reaction if w not in self.courtesy)))


class Openers(_File):
    """The words a turn may open with before a facet's frame, by the frame."""

    frames: Words
    pronoun_question: Words
    comes_into_it: Words
    cost: Words
    with_phrase: Words


class Circumfix(_File):
    """A cue around the facet ("wie sieht es mit den Kosten aus?")."""

    open: str
    starts: str
    close: str


class Frames(_File):
    """The words of rule 7's frames (``words/frames.yaml``,
    :mod:`assistant.understand.followup.facet`)."""

    openers: Openers
    and_words: ByLanguage
    weak_cues: ByLanguage
    circumfix: Circumfix
    strong_cues: Words
    strong_cue_patterns: Patterns
    effect_verbs: Words
    effect_pronoun_verbs: Words
    implications: Words
    effect_nouns: Words
    effect_judgements: Words
    sameness: Words
    bearing_nouns: Words
    evidence_nouns: Words
    evidence_verbs: Words
    effect_clause_verbs: Words
    item_nouns: Words
    facet_leads: ByLanguage
    facet_tails: ByLanguage
    facet_tail_patterns: Patterns
    marked_facet_nouns: Words
    population_heads: Words
    population_links: Words
    pronoun_question_adverbs: Words
    pronoun_verbs: Words
    subject_cues: Words
    subject_cue_tails: Words
    head_prepositions: ByLanguage


class Wrappers(_File):
    """The words of a follow-up's wrapper, labels and sentence breaks
    (``words/wrappers.yaml``, :mod:`assistant.understand.followup.normalise`)."""

    so_requests: Words
    question_starts: Words
    lead_marks: ByLanguage
    lead_words: ByLanguage
    lead_patterns: Patterns
    hedges: Words
    requests: ByLanguage
    fetch_verbs: Words
    indirect_requests: Words
    indirect_request_patterns: Patterns
    courtesy_ends: ByLanguage
    courtesy_end_patterns: Patterns
    approval_intensifiers: Words
    approvals: Words
    availability: Words
    whether_words: ByLanguage
    label_openers: Words
    new_topic_labels: Words
    new_topic_label_patterns: Patterns
    edit_labels: Words
    edit_label_patterns: Patterns
    label_courtesy: Words
    points_back: Words


class FollowupConstraints(_File):
    """Rule 4's operators and cues (:mod:`assistant.understand.followup.constraint_words`)."""

    negations: ByLanguage
    negation_scope: Words
    exclusions: ByLanguage
    exclusion_patterns: Patterns
    positives: ByLanguage
    bounds: Words
    not_excluding: Words
    clause_breaks: Words
    clause_break_exceptions: Words
    positive_sources: ByLanguage
    positive_source_patterns: Patterns
    audience_prepositions: ByLanguage
    audience_phrases: Words
    audience_hedges: Words
    audience_fields: Words
    audience_participles: ByLanguage
    audience_articles: ByLanguage
    audience_scope_nouns: ByLanguage
    value_prepositions: ByLanguage
    keyword_nouns: Words
    keyword_verbs: Words
    keyword_leads: Words
    keyword_cues: ByLanguage
    keyword_cue_patterns: Patterns
    keyword_articles: ByLanguage
    keyword_tails: Words
    keyword_ends: Words
    read_limits: Words
    source_cues: Words
    source_tails: Words
    time_words: Words
    praise_intensifiers: Words


class QuestionConstraints(_File):
    """The question parser's constraint cues (:mod:`assistant.understand.constraints`)."""

    language_negations: Words
    language_participles: ByLanguage
    language_prepositions: ByLanguage
    language_suffixes: Words
    language_doc_nouns: ByLanguage
    language_adjective_negations: ByLanguage
    word_nouns: ByLanguage
    length_intensifiers: Words
    length_nouns: Words
    length_doc_nouns: Words
    nothing_over: Words
    nothing_under: Words
    page_limits: Words
    keep_brief: Words
    read_subjects: Words
    read_lengths: Groups
    format_nouns: Words
    format_cues: ByLanguage
    format_openers: Words
    format_followers: Words
    format_approvals: Words
    audience_cues: Words
    audience_cue_patterns: Patterns
    good_for_words: Words
    audience_nouns: Words
    audience_verbs: Words
    child_audience: Words
    child_audience_patterns: Patterns
    novice_people: Words
    novice_amounts: Words
    novice_lacks: Words
    novice_intensifiers: Words
    novice_words: Words
    audience_levels: Table
    exclusion_verbs: Words
    mention_verbs: Words
    exclusion_cues: Words
    negated_modals: Words
    negated_mention_verbs: Words
    keyword_cues: Words
    keyword_cue_patterns: Patterns
    keyword_negators: Words
    content_cues: Words
    quote_negators: Words
    exclusion_leads: Words
    exclusion_objects: Words
    about_words: Words


class Constraints(_File):
    """The words around a constraint's value (``words/constraints.yaml``)."""

    question: QuestionConstraints
    followup: FollowupConstraints


class Sides(_File):
    con_words: Words
    pro_words: Words
    side_words: Words
    side_residue: Words
    keep_verbs: Words
    end_verbs: Words
    bad: Words
    good: Words


class Values(_File):
    formats: Table
    audiences: Table
    audience_adjectives: Table
    age_bands: Bands
    school_year_bands: Bands
    length_words: Groups
    length_phrases: Table
    at_most: Words
    at_least: Words
    source_nouns: Words
    source_sites: Words
    source_adjectives: Table
    source_kind_marks: Groups
    domain_kinds: dict[str, str]
    not_sources: Words
    doc_kinds: Words
    kind_words: Groups
    generic_docs: Words
    source_modifiers: Words
    org_nouns: Words
    doc_singular: Words
    language_names: Words
    name_languages: tuple[Language, ...]


class Grammar(_File):
    auxiliaries: Words
    addressees: Words
    wh_words: Words
    question_words: Words
    why_words: Words
    fact_wh: Words
    finite_verbs: Words
    negations: Words
    negated_auxiliaries: Words
    common_verbs: Words
    aspect_stopwords: Words
    aspect_breaks: Words
    common_adjectives: Words
    number_words: Words
    ordinals: Words
    articles: Words
    judge_stopwords: Words
    rewrite_short: Words
    instruction_filler: Words
    instruction_openers: Words


class Stance(_File):
    pro_agents: Words
    con_agents: Words
    pro_verbs: Words
    con_verbs: Words
    pro_facets: Words
    con_facets: Words
    pro_evaluative: Words
    con_evaluative: Words
    pro_effect_verbs: Words
    con_effect_verbs: Words
    pro_persuade: Words
    con_persuade: Words
    pro_views: Words
    con_views: Words
    view_nouns: Words
    pro_copula: Words
    con_copula: Words
    pro_prepositions: Words
    good_bad: Words
    negations: Words
    pro_facet_phrases: Words
    con_facet_phrases: Words
    ideology: Groups
    analogy_cues: Words
    entity_cues: Words


class Requests(_File):
    request_openers: Words
    doc_nouns: Words
    debate_cues: Words
    info_verbs: Words
    info_nouns: Words
    property_markers: Words
    lookup_heads: Words


class Places(_File):
    places: Names


class Auxiliaries(_File):
    """A question's opening auxiliary, by how its declarative is made."""

    be: Words
    do: Words
    have: Words
    modal: Words

    def kind(self, word: str) -> str | None:
        """``be``, ``do``, ``have`` or ``modal`` for an auxiliary, else None."""
        w = word.lower()
        for name in ("be", "do", "have", "modal"):
            if w in getattr(self, name):
                return name
        return None


class Form(_File):
    pro: str
    con: str


class Forms(_File):
    noun_phrase: Form
    verb_phrase: Form

    @model_validator(mode="after")
    def _slots(self) -> Forms:
        for name, slot in (("noun_phrase", "{topic}"), ("verb_phrase", "{vp}")):
            form: Form = getattr(self, name)
            for side in (form.pro, form.con):
                if slot not in side:
                    raise ValueError(f"forms.{name}: {side!r} has no {slot}")
        return self


class Labels(_File):
    yes: str
    no: str
    pro: str
    con: str


def _known_labels(labels: dict[str, Labels]) -> dict[str, Labels]:
    unknown = sorted(set(labels) - set(LANGUAGES))
    if unknown:
        raise ValueError(f"labels for unknown language {unknown[0]!r}")
    if "en" not in labels:
        raise ValueError("labels need English (en), the fallback")
    return labels


class Claims(_File):
    """The claim builder's words and forms (``words/claims.yaml``,
    :mod:`assistant.understand.claim_words`)."""

    template_words: Words
    auxiliaries: Auxiliaries
    to_modals: Words
    clause_openers: Words
    negative_words: Table
    contraction_stems: Table
    lead_ins: Words
    topic_frames: Words
    topic_tail_nouns: Words
    topic_tails: Words
    request_verbs: Words
    request_objects: Words
    wh_words: Words
    opinion_verbs: Words
    own_view_holders: Words
    motion_abbreviations: Table
    statement_leads: Words
    forms: Forms
    labels: Annotated[dict[str, Labels], AfterValidator(_known_labels)]

    @model_validator(mode="after")
    def _stems(self) -> Claims:
        for modal in self.to_modals:
            if self.auxiliaries.kind(modal) != "modal":
                raise ValueError(f"to_modals: {modal!r} is not a modal auxiliary")
        for stem, aux in self.contraction_stems.items():
            if self.auxiliaries.kind(aux) is None:
                raise ValueError(f"contraction_stems: {stem!r} maps to {aux!r}, not an auxiliary")
        return self

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages a text is identified among: the users' languages."""
        return LANGUAGES

    def aux_kind(self, word: str) -> str | None:
        """The kind of an auxiliary as typed ("shouldn't") or as spaCy tokenizes it (``ca``
        of "can't" is ``can``)."""
        return self.auxiliaries.kind(self.aux_word(word))

    def aux_word(self, word: str) -> str:
        """The auxiliary itself (``ca`` -> ``can``, "shouldn't" -> ``should``), lower case."""
        w = word.lower().replace("’", "'")
        if w.endswith("n't") and len(w) > 3:
            w = w[:-3]
        return self.contraction_stems.get(w, w)

    def label(self, language: str) -> Labels:
        return self.labels.get(language) or self.labels["en"]


class Vocabulary(_File):
    """All the vocabulary files, one attribute per file."""

    claims: Claims
    constraints: Constraints
    facets: Facets
    followup: Followup
    frames: Frames
    grammar: Grammar
    people: People
    places: Places
    questions: Questions
    references: References
    requests: Requests
    side_turns: SideTurns
    sides: Sides
    stance: Stance
    values: Values
    wrappers: Wrappers


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a mapping with a key twice (PyYAML keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        for key in keys:
            if keys.count(key) > 1:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice", node.start_mark
                )
        return super().construct_mapping(node, deep=deep)


def _read(name: str) -> Any:
    path = resources.files("assistant.understand") / "words" / f"{name}.yaml"
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except (OSError, yaml.YAMLError) as exc:
        raise VocabularyError(f"{name}.yaml: {exc}") from None


def load() -> Vocabulary:
    """Read and check every vocabulary file (:class:`VocabularyError` names the first bad
    entry)."""
    data = {name: _read(name) for name in FILES}
    try:
        return Vocabulary.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise VocabularyError(f"words/{where.replace('.', '.yaml: ', 1)}: {err['msg']}") from None


@functools.cache
def vocabulary() -> Vocabulary:
    """The vocabulary, read once per process."""
    return load()


VOCAB = vocabulary()
