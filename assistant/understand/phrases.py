"""What the parse says about a topic phrase: its kind, its number, its article, its object.

The claim builder (:mod:`assistant.understand.claims`) writes a claim around a
topic; these read the topic with the English parse (Penn tags, ClearNLP
dependency labels as spaCy's English models use them).
"""

from __future__ import annotations

from typing import Any

from assistant.understand.claim_words import words
from assistant.understand.declarative import well_formed
from assistant.understand.language import english_adjective, english_verb, noun_lemma
from assistant.understand.parse import parse

# the head of a noun phrase: a noun, a gerund ("banning plastic straws"), a name, a number
_NOUN_HEADS = frozenset({"NN", "NNS", "NNP", "NNPS", "VBG", "FW", "CD"})
_FINITE = frozenset({"VBD", "VBP", "VBZ", "MD"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})


def root(doc: Any) -> Any:
    """The first root of a parse, or None."""
    return next((t for t in doc if t.dep_ == "ROOT"), None)


def plural(phrase: str) -> bool:
    """A plural noun phrase: two joined by "and", or a head noun in "-s" whose singular
    differs (lemminflect: "zoos", "crops"; not "news", "Comic Sans", "social media")."""
    head = root(parse(phrase))
    if head is None:
        return False
    if any(c.dep_ == "conj" for c in head.children):
        return True
    word = head.text
    if not head.tag_.startswith("NN") or not word.lower().endswith("s"):
        return False
    if head.tag_.startswith("NNP") and word[:1].isupper() and head.i > 0:
        return False  # a name
    singular = noun_lemma(word)
    if singular is None:  # not in the dictionary: the parse's plural tag and the rules' singular
        return head.tag_ in ("NNS", "NNPS") and noun_lemma(word, rules=True) != word.lower()
    return singular != word.lower()


def be_for(phrase: str) -> str:
    """ "is" or "are", agreeing with the phrase."""
    return "are" if plural(phrase) else "is"


def with_article(pred: str) -> str:
    """ "good idea or not" -> "a good idea or not", "hero or traitor" -> "a hero or a
    traitor": a singular noun after "is" needs its article, each alternative its own."""
    return " or ".join(_with_article(part) for part in pred.split(" or "))


def _with_article(part: str) -> str:
    doc = parse(part)
    if not len(doc):
        return part
    first = doc[0]
    if len(doc) == 1:  # one word, by the dictionary rather than the tagger ("curse", "linear")
        word = first.text
        singular = noun_lemma(word) == word.lower() and not english_adjective(word)
        return ("an " if first.lower_[0] in "aeiou" else "a ") + part if singular else part
    singular = first.tag_ == "NN" or (
        first.tag_ == "JJ" and any(t.tag_ == "NN" and t.dep_ != "compound" for t in doc[1:])
    )
    if not singular or any(t.tag_ in ("DT", "PRP$") for t in doc):
        return part
    return ("an " if first.lower_[0] in "aeiou" else "a ") + part


def object_after(t: str, end: int) -> str:
    """What a frame ending at ``end`` names: the rest of the text, less a clause after the
    preposition's object ("the debate over GM food teens can follow": "GM food")."""
    doc = parse(t)
    for tok in doc:
        if tok.idx + len(tok.text) == end and tok.tag_ == "IN":
            objs = [c for c in tok.children if c.dep_ in ("pobj", "pcomp")]
            if not objs:
                break
            after = doc[objs[0].right_edge.i + 1 :]
            if any(x.tag_ in _FINITE for x in after):
                return doc[objs[0].left_edge.i : objs[0].right_edge.i + 1].text
            break
    return t[end:].strip()


def phrase_kind(topic: str) -> str | None:
    """``verb_phrase`` (a bare verb and its objects: "adopt a rescue dog"),
    ``noun_phrase`` ("a land value tax", "banning plastic straws") or None (a clause,
    or words the parse cannot fit).

    The small tagger reads a capitalised imperative as a name ("Abolish statutes of
    limitations …", "Nationalise the railways" as noun phrases): a text that is no verb
    phrase as typed is read again with its first letter in lower case, unless its first
    word is an acronym or all capitals."""
    kind = _kind(topic)
    text = topic.lstrip()
    first = text.split(maxsplit=1)[0] if text else ""
    capitalised = first[:1].isupper() and first[1:].islower()
    if kind != "verb_phrase" and capitalised and _kind(text[0].lower() + text[1:]) == "verb_phrase":
        return "verb_phrase"
    return kind


def _kind(topic: str) -> str | None:
    doc = parse(topic)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or not well_formed(doc):
        return None
    head = roots[0]
    subject = any(c.dep_.startswith("nsubj") for c in head.children)
    if head.i == 0 and head.tag_ == "VB" and not subject and english_verb(head.text):
        return "verb_phrase"
    if len(doc) == 1 and head.is_alpha:
        return "noun_phrase"  # one word that is no verb ("homeopathy" tagged as one)
    # "the metaverse": a noun the tagger does not know, read as an adjective after its article
    unknown_noun = (
        head.tag_ == "JJ" and head.i == len(doc) - 1 and any(c.dep_ == "det" for c in head.children)
    )
    return "noun_phrase" if head.tag_ in _NOUN_HEADS or unknown_noun else None


def question_subject(question: str) -> str | None:
    """The subject of a wh-question's main verb ("What does the Fourth Amendment protect
    against?": "the Fourth Amendment"), not a wh-word or a pronoun; None when it has none."""
    doc = parse(question)
    head = root(doc)
    if head is None:
        return None
    wh = set(words().wh_words)
    for c in head.children:
        if c.dep_ not in _SUBJECTS or c.tag_ in ("PRP", "WP", "WDT", "EX"):
            continue
        span = doc[c.left_edge.i : c.right_edge.i + 1]
        if not any(t.lower_ in wh for t in span):
            return span.text
    return None


def without_tail_noun(topic: str) -> str:
    """ "the death penalty debate" -> "the death penalty" (the argument's name goes)."""
    tokens = list(parse(topic))
    last = tokens[-1] if tokens else None
    if last is None or len(tokens) < 2 or last.lower_ not in words().topic_tail_nouns:
        return topic
    return topic[: last.idx].strip()
