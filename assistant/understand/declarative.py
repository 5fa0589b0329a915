"""A yes/no question or a statement turned into two opposing declaratives by its parse.

**Questions** ("Is writing unsafe Rust a good idea?", "Should Rust code panic on
errors instead of returning Result?"). The small English model misparses
questions (it reads "panic" after "Should Rust code" as a noun), but it parses
declaratives well. So the subject is found by trying every place the opening
auxiliary could go back to: "Writing is unsafe Rust a good idea.", "Writing
unsafe is Rust …", "Writing unsafe Rust is a good idea.", … Each candidate is
parsed, and kept when the parser reads it as a well-formed declarative whose
subject is exactly the moved span: the auxiliary heads the clause (a copula) or
is the auxiliary of the verb that follows it (a base verb after "do" and a
modal), the clause has one subject, its subtree is exactly the tokens before
the auxiliary, and no word crosses the boundary (quotation marks around a name
aside). Of the candidates kept, the subject may hold no finite verb, modal or
"to" but in a clause on one of its nouns (a relative clause, "Drivers who text
should …"; an infinitive, "The right to strike should …", kept only from the
negated candidate) and ends in a noun, pronoun, number or gerund, or that
clause's last word; a pronoun ("Is it ethical to …") is a subject alone. A
modal of ``to_modals`` ("Ought schools to teach logic?") keeps its "to" after it.
The longest subject left wins ("Daylight saving time is worth keeping"), unless
the question's parse, or where it read no verb its tagger, thought one
candidate's verb likelier a verb ("Should the government cap drug prices?").

The negation goes after the auxiliary ("… is not a good idea", "… should not
panic …", "cannot"); "do" moves into the verb for the positive claim
("Homework helps children learn." / "Homework does not help children learn.",
inflected by lemminflect). Two alternatives joined by "or" in the predicate
give one claim each ("Is globalisation good or bad for developing countries?"),
their shared words copied to the first; "…, or not?" and "… or is it hype?"
are the negative answer said again, and read as a yes/no question.

**Statements** ("Cities should ban cars") are negated the same way: after the
first auxiliary of the main verb, after a copula, or by "do"-support on a
finite main verb ("Homework improves grades." -> "Homework does not improve
grades."); a statement that is negated already loses its negation instead.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any

from assistant.understand.claim_words import words
from assistant.understand.parse import parse, parse_many, verb_probabilities

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
# Penn tags a subject may not hold: a finite verb, a modal, "to" (a clause, not a noun
# phrase: the auxiliary went back too far)
_CLAUSE_TAGS = frozenset({"VB", "VBD", "VBP", "VBZ", "MD", "TO"})
# Penn tags a subject may end in
_HEAD_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "PRP", "CD", "VBG", "EX", "FW"})
_PRONOUN_TAGS = frozenset({"PRP", "EX"})
# what the question's own parse tags a subject's last word as when it is not one: the
# small model mistakes verbs for nouns in questions, rarely an adjective, determiner,
# adverb or preposition for a noun ("Is AI-generated art real art?": "real")
_NOT_LAST = frozenset({"JJ", "JJR", "JJS", "DT", "RB", "RBR", "RBS", "IN", "CC", "TO"})
_NEGATIONS = frozenset({"not", "n't", "never"})
# the longest subject tried, in tokens (each candidate costs a parse)
_MAX_SUBJECT = 16
# a noun's dependents that are clauses of their own: a relative clause ("drivers who
# text"), an infinitive with its "to" ("the right to strike"; not a bare participle,
# "music hurt"); inside a subject they may hold a finite verb, a modal or "to"
_RELATIVE, _INFINITIVE = "relcl", "acl"
# what such a clause hangs on: a noun, pronoun, number, or "those" ("those who …")
_CLAUSE_HOSTS = frozenset({"NN", "NNS", "NNP", "NNPS", "PRP", "CD", "DT"})
_COMPARATIVE = frozenset({"RBR", "JJR"})
# tags a subject's clause does not end in (it stops mid-phrase)
_OPEN_END = frozenset({"CC", "TO", "IN", "MD", "PRP$", "WDT", "WP", "WP$", "POS", "HYPH"})
# dependents a word has at most once
_ONCE = ("dobj", "nsubj", "nsubjpass")
_COORDINATORS = frozenset({"and", "or", "nor", "but"})
_MODIFIER_TAGS = frozenset({"JJ", "JJR", "JJS", "DT", "PRP$", "HYPH"})
_BASE_VERB = "VB"
_BETWEEN = frozenset({"aux", "auxpass", "neg", "advmod"})


@dataclass(frozen=True)
class Moved:
    """A question with its auxiliary moved back after the subject."""

    kind: str  # be | do | have | modal
    aux: str  # as it is written in a claim ("can", "does", "is")
    doc: Any  # the parse of "subject aux [not] predicate."
    aux_i: int  # the auxiliary's token in ``doc``
    negated: bool  # the candidate was parsed with "not" after the auxiliary


def sentence(text: str) -> str:
    """``text`` as one sentence: spaces folded, first letter raised, one full stop."""
    t = " ".join(text.split()).strip().rstrip("?.!:;,–—- ").strip()
    if not t:
        return ""
    i = len(t) - len(t.lstrip("'\"“‘(["))  # after an opening quote ("'The Spear' …")
    return t[:i] + t[i : i + 1].upper() + t[i + 1 :] + "."


def _raise_first(word: str) -> str:
    # "writing" -> "Writing", but "iPhone" and "eBay" keep their case
    if word[:1].islower() and not any(c.isupper() for c in word[1:]):
        return word[0].upper() + word[1:]
    return word


@functools.cache
def _inflect(verb: str, tag: str) -> str:
    """``verb`` (a base form) inflected for ``tag`` (VBZ, VBD); as typed when unknown."""
    # lazy: importing lemminflect takes seconds and only the claims need it
    import lemminflect

    forms = lemminflect.getInflection(verb.lower(), tag=tag)
    if not forms:
        return verb
    out = str(forms[0])
    return _raise_first(out) if verb[:1].isupper() else out


@functools.cache
def verb_lemma(verb: str) -> str:
    # lazy: importing lemminflect takes seconds and only the claims need it
    import lemminflect

    forms = lemminflect.getLemma(verb.lower(), upos="VERB")
    return str(forms[0]) if forms else verb.lower()


def _text(tokens: Any) -> str:
    return "".join(t.text_with_ws for t in tokens).strip()


# --------------------------------------------------------------------------- questions


def _opening(doc: Any) -> tuple[str, str, int] | None:
    """(kind, auxiliary, index of the first subject token) of a question that opens with
    an auxiliary ("Isn't it …": the negation is dropped, the claims are positive first)."""
    if len(doc) < 3:
        return None
    w = words()
    kind = w.aux_kind(doc[0].text)
    if kind is None:
        return None
    start = 2 if doc[1].lower_ in _NEGATIONS else 1
    return kind, w.aux_word(doc[0].text), start


def _candidates(doc: Any, start: int, aux: str, negated: bool) -> list[tuple[int, str, int]]:
    """(subject length k, candidate text, auxiliary's char offset) for k = 1 … n - 1."""
    end = len(doc)
    while end > start and doc[end - 1].is_punct:
        end -= 1
    rest = list(doc[start:end])
    out = []
    for k in range(1, min(len(rest), _MAX_SUBJECT + 1)):
        if not rest[k - 1].whitespace_:
            continue  # never inside a word written as one ("AI-generated", "don't")
        subject = _text(rest[:k])
        predicate = _text(rest[k:])
        if not subject or not predicate:
            continue
        subject = _raise_first(subject)
        verb = _with_not(aux) if negated else aux
        out.append((k, f"{subject} {verb} {predicate}.", len(subject) + 1))
    return out


def _aux_token(doc: Any, offset: int) -> Any:
    for t in doc:
        if t.idx == offset:
            return t
    return None


def _aux_fits(a: Any, kind: str) -> Any:
    """The clause head the moved auxiliary belongs to, or None when it does not fit."""
    if a.dep_ == "ROOT":
        if kind == "modal" and _to_verb(a) is not None:
            return a  # "Schools ought to teach logic": "ought" heads the clause
        return a if kind in ("be", "have") else None
    head = a.head
    while head.dep_ in ("aux", "auxpass") and head.head.i != head.i:
        head = head.head  # "should" hangs on "be" in "should be legalised"
    if a.dep_ not in ("aux", "auxpass") or head.i <= a.i or head.dep_ != "ROOT":
        return None
    # between "does"/"should" and its verb: adverbs, a negation, the verb's own "be"/"have"
    between = a.doc[a.i + 1 : head.i]
    if any(t.dep_ not in _BETWEEN for t in between):
        return None
    # "to" follows only a modal like "ought" ("The right should to strike …" splits wrong)
    if any(t.tag_ == "TO" for t in between) and a.lower_ not in words().to_modals:
        return None
    if kind == "do" and head.tag_ != _BASE_VERB:
        return None
    if kind == "modal" and head.tag_ != _BASE_VERB:
        # a participle only after the verb's own "be" or "have" ("should be banned")
        chain = [t for t in a.doc[a.i + 1 : head.i] if t.dep_ in ("aux", "auxpass")]
        if head.tag_ != "VBN" or not chain:
            return None
    if kind in ("be", "have") and head.tag_ not in ("VBG", "VBN"):
        return None
    return head


def _to_verb(a: Any) -> Any:
    """The verb a modal like "ought" heads as its complement, "to" before it ("ought (not)
    to teach", "ought to be banned"), or None."""
    if a.lower_ not in words().to_modals:
        return None
    for x in a.children:
        between = a.doc[a.i + 1 : x.i]
        if x.dep_ != "xcomp" or x.i <= a.i or x.tag_ not in (_BASE_VERB, "VBN"):
            continue
        if any(t.tag_ == "TO" for t in between) and all(t.dep_ in _BETWEEN for t in between):
            return x
    return None


def _marks(tokens: Any) -> set[int]:
    """The quotation marks around names among ``tokens``, in pairs: a mark opens unless it
    is the apostrophe of "parents' rights" and closes whatever the tagger calls it (the
    possessive in "'Mein Kampf'"); one left open is a word like the others."""
    out: set[int] = set()
    opened = None
    for t in tokens:
        if not t.is_quote:
            continue
        if opened is not None:
            out |= {opened, t.i}
            opened = None
        elif t.tag_ != "POS":
            opened = t.i
    return out


def _unquoted(tokens: Any) -> list[Any]:
    """``tokens`` less the quotation marks around a name ("'Lolita'")."""
    marks = _marks(tokens)
    return [t for t in tokens if t.i not in marks]


def _subject_fits(doc: Any, a: Any, head: Any) -> bool:
    """One subject, whose subtree is exactly the tokens before the auxiliary (the
    quotation marks around a name in it hang where the parser likes, in pairs)."""
    subjects = [c for c in head.children if c.dep_ in SUBJECT_DEPS]
    if len(subjects) != 1:
        return False
    s = subjects[0]
    marks = _marks(doc[: a.i])
    words_ = [t for t in doc[: a.i] if t.i not in marks]
    if not words_ or s.left_edge.i > words_[0].i or not words_[-1].i <= s.right_edge.i < a.i:
        return False
    inside_out = any(t.i != s.i and not 0 <= t.head.i < a.i for t in words_)
    outside_in = any(t.head.i < a.i for t in doc[a.i + 1 :])
    return not inside_out and not outside_in


def _clause_tokens(span: Any) -> set[int]:
    """The tokens of the clauses that hang on a noun of the subject (``_RELATIVE``,
    ``_INFINITIVE``)."""
    out: set[int] = set()
    for t in span:
        if t.head.i >= t.i or t.head.tag_ not in _CLAUSE_HOSTS:
            continue
        to = any(c.tag_ == "TO" for c in t.children)
        if t.dep_ == _RELATIVE or (t.dep_ == _INFINITIVE and to):
            out.update(x.i for x in t.subtree)
    return out


def _noun_phrase(doc: Any, a: Any, clause: set[int]) -> bool:
    """The subject (the tokens before the auxiliary) is a noun phrase: no finite verb,
    modal or "to" in it but in a clause on one of its nouns (``clause``), and it ends in
    a noun, pronoun or number, or in a gerund that is the subject itself ("Is fasting
    healthy?", not "… instead of returning"), or in such a clause's last word."""
    span = [t for t in doc[: a.i] if t.i not in clause]
    if any(t.tag_ in _CLAUSE_TAGS for t in span):
        return False
    # a determiner right after a noun starts another noun phrase ("Banks a force are …",
    # "'Citizen Kane' the greatest film is …")
    seq = _unquoted(doc[: a.i])
    pairs = itertools.pairwise(seq)
    if any(t.tag_ == "DT" and t.i not in clause and p.tag_.startswith("NN") for p, t in pairs):
        return False
    last = seq[-1]
    if last.i in clause:
        return last.tag_ not in _OPEN_END
    if last.tag_ == "VBG":
        # a gerund ends a subject only as its head noun ("intermittent fasting"), not
        # after a noun of its own ("AI going", "Brexit working") nor inside a phrase
        return last.dep_ in SUBJECT_DEPS and all(t.tag_ in _MODIFIER_TAGS for t in span[:-1])
    return last.tag_ in _HEAD_TAGS


def anomalies(doc: Any) -> list[Any]:
    """Tokens the parse could not fit: an unlabelled arc, a coordinator ("and", "or")
    without its conjunct, a second direct object or subject of one word ("Learning
    Esperanto a waste is …")."""
    dangling = (t for t in doc if t.dep_ == "cc" and t.lower_ in _COORDINATORS)
    out = [t for t in doc if t.dep_ == "dep"] + [t for t in dangling if not _has_conjunct(t)]
    for t in doc:
        for dep in _ONCE:
            twice = [c for c in t.children if c.dep_ == dep]
            out += twice[1:]
    return out


def _has_conjunct(cc: Any) -> bool:
    return any(c.dep_ == "conj" for c in cc.head.children)


def well_formed(doc: Any) -> bool:
    return not anomalies(doc)


def move_auxiliary(question: str) -> Moved | None:
    """The question's declarative with its subject found by the parse (module docstring).

    Each candidate is parsed negated first ("Video calls do not help or harm …": after
    "do not" or "should not" the parser reads a base verb as a verb, where without
    "not" it reads "help" as a noun), and as it is where the negated one does not read.
    """
    qdoc = parse(question)
    opening = _opening(qdoc)
    if opening is None:
        return None
    kind, aux, start = opening
    verbiness = verb_probabilities(question) if kind in ("do", "modal") else []
    best: tuple[tuple[bool, int, float, int], Moved] | None = None
    failed: set[int] = set()
    for negated in (True, False):
        cands = _candidates(qdoc, start, aux, negated)
        # a pronoun ("Is it ethical to …", "Should we …") is a subject alone
        if qdoc[start].tag_ in _PRONOUN_TAGS:
            cands = cands[:1]
        if not negated:
            cands = [c for c in cands if c[0] in failed]
        for (k, _, offset), doc in zip(cands, parse_many(c[1] for c in cands), strict=True):
            a = _aux_token(doc, offset)
            score = (
                _score(qdoc, verbiness, start, k, kind, doc, a, negated) if a is not None else None
            )
            if score is None:
                failed.add(k)
            elif best is None or score >= best[0]:
                best = (score, Moved(kind, aux, doc, a.i, negated))
    return best[1] if best else None


def _score(
    qdoc: Any,
    verbiness: list[float],
    start: int,
    k: int,
    kind: str,
    doc: Any,
    a: Any,
    negated: bool,
) -> tuple[bool, int, float, int] | None:
    """How well the candidate with a ``k``-token subject reads, None when it does not.

    First, the verb a "do" or modal governs is read as a verb by the question's own
    parse too; then the parse with fewer arcs it could not fit; then, where the
    question's parse read no candidate's verb as a verb ("Should the government cap
    drug prices?" is all nouns to it), the verb its tagger thought likelier a verb
    ("cap", not "drug"); then the longest subject."""
    head = _aux_fits(a, kind)
    if head is None or not _subject_fits(doc, a, head):
        return None
    clause = _clause_tokens(doc[: a.i])
    # a subject with a clause of its own is trusted where "not" lets its verb read as one
    if clause and not negated:
        return None
    last = _unquoted(qdoc[start : start + k])[-1]
    if last.i - start in clause:
        # a comparative before an adjective is its degree ("… video games | more aggressive")
        after = qdoc[start + k] if start + k < len(qdoc) else None
        if last.tag_ in _COMPARATIVE and after is not None and after.tag_ == "JJ":
            return None
        # an adjective the question's parse gives the noun after it ("for bad | governments")
        if last.tag_ in _OPEN_END | {"JJ"} and last.head.i >= start + k:
            return None
    elif last.tag_ in _NOT_LAST and last.dep_ not in SUBJECT_DEPS:
        return None
    odd = anomalies(doc)
    if not _noun_phrase(doc, a, clause) or any(t.i < a.i for t in odd):
        return None
    # a subject holding "or" is rarer than a predicate offering two alternatives
    odd += [t for t in doc[: a.i] if t.lower_ == "or"]
    # an adjective after its noun in the subject ("Podcasts better than videos are …")
    if any(t.dep_ == "amod" and t.head.i < t.i for t in doc[: a.i]):
        return None
    # a predicate opens with a word, not with "or" ("… exploitative are not or a …")
    first = a.i + (2 if negated else 1)
    after = a.doc[first] if first < len(a.doc) else None
    if after is None or after.is_punct or after.dep_ == "cc":
        return None
    verb = _to_verb(a) if head.i == a.i else head
    shift = start + k - first
    agree = kind in ("do", "modal") and _question_verb(qdoc, shift, verb)
    likely = 0.0
    if not agree and kind in ("do", "modal") and 0 <= verb.i + shift < len(verbiness):
        likely = verbiness[verb.i + shift]
    return (agree, -len(odd), likely, k)


def _question_verb(qdoc: Any, shift: int, head: Any) -> bool:
    """Does the question's parse tag the candidate's main verb as a verb? (``shift``: the
    question's token index less the candidate's, for the predicate's tokens)"""
    i = head.i + shift
    return 0 <= i < len(qdoc) and qdoc[i].text == head.text and qdoc[i].tag_.startswith("VB")


def subject_of(question: str) -> str | None:
    """The subject of a yes/no question as the parse finds it ("does the spec define" ->
    "The spec"), or None."""
    m = move_auxiliary(question)
    return _text(m.doc[: m.aux_i]) if m is not None else None


def _with_not(aux: str) -> str:
    return "cannot" if aux == "can" else f"{aux} not"


def _verb_after(m: Moved) -> Any:
    """The main verb that the moved "do" or modal governs."""
    a = m.doc[m.aux_i]
    return a.head if a.dep_ != "ROOT" else None


def _positive(m: Moved, tokens: list[Any], verb_i: int | None = None) -> str:
    """The subject, the auxiliary and ``tokens``; for "do", the verb (token ``verb_i``,
    else the one "do" governs) takes its tense and person instead ("Homework helps …")."""
    subject = _text(m.doc[: m.aux_i])
    if m.kind != "do" or (tokens and tokens[0].lower_ in ("not", "n't")):  # "Zoos do not help"
        return sentence(f"{subject} {m.aux} {_text(tokens)}")
    tag = {"does": "VBZ", "did": "VBD"}.get(m.aux)
    if verb_i is None:
        verb_i = m.doc[m.aux_i].head.i
    parts = [
        (_inflect(t.text, tag) if tag and t.i == verb_i else t.text) + t.whitespace_ for t in tokens
    ]
    return sentence(f"{subject} {''.join(parts)}")


def _alternatives(m: Moved, pred: list[Any]) -> tuple[list[Any], list[Any]] | None:
    """The two alternatives of "… A or B …" in the predicate, each with the words they share;
    None when there is no "or" or it only says the negative answer again."""
    ors = [i for i, t in enumerate(pred) if t.lower_ == "or"]
    if not ors:
        return None
    o = ors[0]
    left, right = list(pred[:o]), list(pred[o + 1 :])
    while left and left[-1].is_punct:
        left = left[:-1]
    if not left or not right:
        return None
    w = words()
    if right[0].lower_ in _NEGATIONS or w.aux_kind(right[0].text) is not None:
        return None  # "…, or not?", "… or is that just hype?"
    # the words before the first alternative belong to both ("be honored or renounced",
    # "better off divided or together"): the first alternative is the coordinated word's
    # own phrase, less its auxiliaries
    first = pred[o].head
    own = {t.i for t in first.subtree if t.dep_ not in ("aux", "auxpass", "neg")}
    start = next((j for j, t in enumerate(left) if t.i in own), 0)
    if right[0].tag_ == "DT":
        # "a welcome form of self-expression or a cause of regret": two noun phrases,
        # each opening with its determiner, whatever the parse attached "or" to
        start = next((j for j, t in enumerate(left) if t.tag_ == "DT"), start)
    shared, left = left[:start], left[start:]
    head, other = left[-1], right[0]
    # "help or hurt tenants" (after "do" or a modal, each alternative opens with its verb),
    # "(actually) good or bad for developing countries": the words after the second
    # alternative's first word belong to both (not "Daniel Craig or Sean Connery")
    verbs = m.kind in ("do", "modal") and len(left) == 1
    one_word = all(t.tag_.startswith("RB") for t in left[:-1]) and head.tag_[:2] == other.tag_[:2]
    if len(right) > 1 and (verbs or one_word):
        left = [*left, *right[1:]]
    return [*shared, *left], [*shared, *right]


def _first_verb(tokens: list[Any]) -> int:
    """The alternative's verb: its first word not an adverb."""
    return next((t.i for t in tokens if not t.tag_.startswith("RB")), tokens[0].i)


def _predicate(m: Moved) -> list[Any]:
    """The words after the auxiliary (and the "not" the candidate was parsed with)."""
    first = m.aux_i + (2 if m.negated else 1)
    return [t for t in m.doc[first:] if not (t.is_punct and t.i == len(m.doc) - 1)]


def question_claims(question: str) -> tuple[str, str] | None:
    """Two opposing declaratives of a yes/no or modal question, or None."""
    m = move_auxiliary(question)
    if m is None:
        return None
    pred = _predicate(m)
    alt = _alternatives(m, pred)
    if alt is not None:
        # after "do", each alternative opens with its verb
        a = _positive(m, alt[0], _first_verb(alt[0]))
        b = _positive(m, alt[1], _first_verb(alt[1]))
        return (a, b) if a and b and a != b else None
    ors = [i for i, t in enumerate(pred) if t.lower_ == "or"]
    if ors:  # "…, or not?": the second half says the negative answer again
        pred = pred[: ors[0]]
        while pred and pred[-1].is_punct:
            pred = pred[:-1]
    if not pred:
        return None
    subject = _text(m.doc[: m.aux_i])
    pro = _positive(m, pred)
    con = sentence(f"{subject} {_with_not(m.aux)} {_text(pred)}")
    return (pro, con) if pro != con else None


# --------------------------------------------------------------------------- statements


def auxiliaries(root: Any) -> list[Any]:
    """The auxiliaries before a verb, its own and those hanging on them ("should" on "be"
    in "should be legalised")."""
    out = []
    for t in root.doc[: root.i]:
        if t.dep_ not in ("aux", "auxpass"):
            continue
        h = t.head
        while h.dep_ in ("aux", "auxpass") and h.head.i != h.i:
            h = h.head
        if h.i == root.i:
            out.append(t)
    return out


def is_clause(doc: Any) -> bool:
    """A statement: its root is a finite verb (or copula) whose subject opens the text
    ("Cities should ban cars"; not "What does X protect against", not "X — I want Y")."""
    root = _root(doc)
    if root is None or not root.tag_.startswith(("VB", "MD")):
        return False
    finite = root.tag_ in ("VBZ", "VBP", "VBD", "MD") or bool(auxiliaries(root))
    subjects = [c for c in root.children if c.dep_ in SUBJECT_DEPS and c.i < root.i]
    if not finite or not subjects or subjects[0].left_edge.i != 0:
        return False
    return not subjects[0].tag_.startswith("W")  # "Who invented …" asks, it does not state


def _root(doc: Any) -> Any:
    roots = [t for t in doc if t.dep_ == "ROOT"]
    return roots[0] if roots else None


def _replace(doc: Any, edits: dict[int, str]) -> str:
    """``doc``'s text with tokens replaced; ``""`` drops one, keeping the space of one
    glued to the token before ("can|not be" -> "can be", not "canbe")."""
    parts: list[str] = []
    for t in doc:
        if t.i not in edits:
            parts.append(t.text_with_ws)
        elif edits[t.i] or (parts and not parts[-1][-1:].isspace()):
            parts.append(edits[t.i] + t.whitespace_)
    return "".join(parts)


def _unnegate(doc: Any, root: Any, neg: Any) -> str:
    """The statement without its negation ("Zoos do not help." -> "Zoos help.")."""
    auxes = [t for t in auxiliaries(root) if t.i < neg.i]
    edits = {neg.i: ""}
    if auxes and words().aux_kind(auxes[-1].text) == "do":
        aux = auxes[-1]
        tag = {"does": "VBZ", "did": "VBD"}.get(aux.lower_)
        edits[aux.i] = ""
        edits[root.i] = _inflect(root.text, tag) if tag else root.text
    elif neg.lower_ == "n't" and auxes:
        edits[auxes[-1].i] = words().aux_word(auxes[-1].text)
    return _replace(doc, edits)


def negate(statement: str) -> str | None:
    """The statement negated by its parse (module docstring), or None if it is no clause."""
    doc = parse(statement)
    if not is_clause(doc):
        return None
    root = _root(doc)
    neg = [c for c in root.children if c.dep_ == "neg"]
    if neg:
        return _unnegate(doc, root, neg[0])
    auxes = auxiliaries(root)
    w = words()
    if auxes:
        first = auxes[0]
        return _replace(doc, {first.i: _with_not(first.text.lower())})
    if w.aux_kind(root.text) == "be" or root.tag_ == "MD":  # "Schools ought (not) to …"
        return _replace(doc, {root.i: _with_not(root.text)})
    if not root.text.isalpha() or (root.i > 0 and not doc[root.i - 1].whitespace_):
        return None  # a verb glued to the word before it ("Whats") cannot take "do" apart
    do = {"VBZ": "does", "VBD": "did"}.get(root.tag_, "do")
    return _replace(doc, {root.i: f"{do} not {verb_lemma(root.text)}"})
