"""Two opposing claims for the root text (paper 004), built from its own syntax.

Every claim is a declarative sentence a reader can agree or disagree with; no
template words ("We support the claim that …") reach the screen. The text's
shape decides the form (docs/UNDERSTAND.md "Claims"), each read by the English
dependency parse (:mod:`assistant.understand.declarative`):

* a yes/no or modal question becomes a statement and its negation ("Is writing
  unsafe Rust a good idea?" -> "Writing unsafe Rust is a good idea." / "Writing
  unsafe Rust is not a good idea."), two alternatives one claim each ("Does rent
  control help or hurt tenants?"), a topic set before its question its subject
  ("Monarchy: should it be abolished?");
* "A vs B", "which is better, A or B?", "X: A or B?", "X - good idea or not?";
* a statement ("Cities should ban cars") and its negation by the parse; "the
  claim that …", "whether …" are statements;
* a request for a debate names its topic ("pros and cons of fracking", "the
  arguments on both sides of the death penalty debate"), and a topic that is not
  a clause gets the two never-wrong forms of ``words/claims.yaml``: a noun phrase
  ("a land value tax"), a bare verb phrase ("adopt a rescue dog");
* text in another language, or English that no rule reads: the question or
  topic labelled with the answer ("Sí — ¿Debería legalizarse la eutanasia?" /
  "No — …"), which is never wrong.

PerSphere's template (:func:`persphere_claims`) stays for evaluation against
PerSphere's own claims and for training pairs, never for a plan.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.models import Intent
from assistant.understand.claim_words import words
from assistant.understand.declarative import (
    is_clause,
    negate,
    question_claims,
    sentence,
    subject_of,
    verb_lemma,
)
from assistant.understand.intent import _edit1
from assistant.understand.language import (
    claim_language,
    english_stop_word,
    english_word,
    sentence_case,
)
from assistant.understand.parse import hyphens_whole, parse
from assistant.understand.phrases import (
    be_for,
    object_after,
    phrase_kind,
    plural,
    question_subject,
    with_article,
    without_tail_noun,
)
from assistant.understand.polarity import opposed
from assistant.understand.text import as_typed, leading_clause
from assistant.understand.text import phrase_at_start as _phrase_at_start
from assistant.understand.vocab import VOCAB, alternation

Claims = tuple[str, str]

# "A vs. B – which/who is better (for X)?"
_VERSUS = re.compile(
    r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)"
    r"(?:\s*[:\-–—,]\s*(?:which|who)(?:\s+one)?\s+(?:is|are)\s+(?P<p>[^?]+))?\??$",
    re.I,
)
# "Which is better, A or B?"
_WHICH = re.compile(
    r"^(?:which|who)\s+(?:is|are)\s+(?P<p>[^,?]+?),?\s+(?P<a>[^,?]+?)\s+or\s+(?P<b>[^?]+)\??$",
    re.I,
)
# "X: A or B?", "X - good idea or not?": a topic, a separator, a predicate with "or"
_TOPIC_OR = re.compile(r"^(?P<topic>[^:?]{2,80}?)\s*(?::|\s[\-–—])\s*(?P<p>[^?]+?\bor\b[^?]*?)\??$")
# "Nuclear power, is it safe?", "School uniforms - should they be mandatory?": a topic
# set before a yes/no question whose subject points back at it
_TOPIC_Q = re.compile(
    r"^(?P<x>[^,:;?]{2,80}?)\s*[,:;\-–—]\s*(?P<aux>[a-z]+)\s+"
    r"(?:it|they|this|that|these|those)\b\s*(?P<rest>[^?]*)\??$",
    re.I,
)
# sentences of a longer text (the last question is the one claimed)
_SENTENCES = re.compile(r"(?<!\bvs\.)(?<![A-Z]\.)(?<=[.!?])\s+")
# where a label or the context before a question ends ("Debate: …", "… lol — should …")
_CONTEXT_BREAK = re.compile(r":\s+|\s[-–—]\s+|[–—]\s*")
# a word with a hyphen between letters ("e-cigarettes", "pre-K")
_HYPHENATED = re.compile(r"[^\W\d_]-[^\W\d_]")
_HYPHENATED_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")
# a sentence wholly in brackets: an aside
_ASIDE = re.compile(r"\([^()]*\)[.!?]?|\[[^\[\]]*\][.!?]?")
# where a topic phrase ends: the clause punctuation after it ("fracking, only PDFs")
_TOPIC_END = re.compile(r"\s*(?:[,;:(]|\s[\-–—]\s|\s[\-–—]$|[–—])")


def persphere_claims(statement: str) -> Claims:
    """PerSphere's fallback template (paper 004, App. H): for evaluation only."""
    s = re.sub(r"\s+", " ", statement).strip().rstrip("?.!")
    s = s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s
    return (f"We support the claim that {s}.", f"We undermine the claim that {s}.")


def negate_statement(statement: str) -> str | None:
    """The statement negated by its parse, or None if it is no clause."""
    out = negate(statement)
    return " ".join(out.split()) if out else None


def make_claims(text: str, intent: Intent, question: str = "", *, whole: bool = False) -> Claims:
    """Two opposing claims for the root text (pro first); ``("", "")`` for a factual one.

    ``question``: the whole question the root text was cut from, whose language counts
    when the root alone is too short to tell ("vaping", cut from "Explain to a teenager
    why vaping is harmful"). Where no rule reads a yes/no question, it is read once more
    with its hyphenated words whole (``whole``; :func:`.parse.hyphens_whole`)."""
    t = " ".join(text.split())
    if not t or intent == "factual":
        return ("", "")
    t = _spelled_out(asked_sentence(t))
    language = claim_language(t) or (claim_language(question) if question else "")
    if language != "en":
        return labelled(t, language)
    t = _repair_opening(sentence_case(t))
    if question:
        # a question about a view ("Why do brexiteers think EU membership was bad for
        # Britain?") debates the view's clause, which the root text may have lost to the
        # perspective and the aspects
        q = " ".join(question.split())
        q = _repair_opening(sentence_case(_spelled_out(asked_sentence(q))))
        found = _reported(_without_lead_in(q))
        if found and found[0] and found[1] and found[0] != found[1]:
            return opposed(found)
    rules: tuple[Callable[[str], Claims | None], ...] = (
        _leading_clause,
        _versus,
        _which,
        _topic_question,
        _topic_alternatives,
        _after_label,
        _reported,
        _question,
        _verbless,
        _why,
        _framed,
        _wh_subject,
        _statement,
        _topic_claims,
    )
    for rule in rules:
        found = rule(_without_lead_in(t))
        if found and found[0] and found[1] and found[0] != found[1]:
            return opposed(found)
    opening = (_without_lead_in(t).split() or [""])[0]
    if _HYPHENATED.search(t) and words().aux_kind(opening) is not None and not whole:
        # a yes/no question ("Should e-cigarettes be banned?") read once more
        with hyphens_whole():
            again = make_claims(text, intent, question, whole=True)
        # a reading that alters a hyphenated word ("long-term" as "long-terms") is none
        kept = all(
            re.search(r"(?<![\w-])" + re.escape(w) + r"(?![\w-])", c, re.I)
            for w in _HYPHENATED_WORD.findall(t)
            for c in again
        )
        if again != labelled(t, "en") and kept:
            return again
    return labelled(t, "en")


def labelled(text: str, language: str) -> Claims:
    """The never-wrong form: the text labelled with its answer ("Yes — …?" / "No — …?");
    a topic, or an English question that is no yes/no question, "For — …" / "Against — …"."""
    lab = words().label(language)
    t = " ".join(text.split()).strip()
    yes_no = t.endswith("?") and (
        language != "en" or words().aux_kind(t.split()[0].lstrip("¿¡")) is not None
    )
    if yes_no:
        return (f"{lab.yes} — {t}", f"{lab.no} — {t}")
    return (f"{lab.pro} — {t}", f"{lab.con} — {t}")


# --------------------------------------------------------------------------- the text


def asked_sentence(t: str) -> str:
    """Of several sentences (context, instructions), the last question, or the last one;
    a question ends at its question mark ("… farm animals?, please")."""
    # an aside wholly in brackets ("Every child should have a mobile phone. (Junior)") is
    # a note on the question, never the question
    parts = [x for x in _SENTENCES.split(t) if x.strip()]
    sentences = [x for x in parts if not _ASIDE.fullmatch(x.strip())] or parts
    if len(parts) > 1:
        asked = [x for x in sentences if x.endswith("?")]
        t = asked[-1] if asked else sentences[-1]
    mark = t.find("?")
    return t[: mark + 1] if 0 < mark < len(t) - 1 else t


def _spelled_out(t: str) -> str:
    """A motion's abbreviated formula spelled out ("THW ban …" -> "this house would ban …";
    ``motion_abbreviations``)."""
    first, sep, rest = t.partition(" ")
    full = words().motion_abbreviations.get(first.lower())
    return f"{full} {rest}" if full and sep else t


def _repair_opening(t: str) -> str:
    """One typing slip in an opening auxiliary ("shoud we ban …"): a word that is not
    English and is one edit from exactly one auxiliary of four letters or more."""
    first, sep, rest = t.partition(" ")
    w = first.lower()
    if not sep or len(w) < 4 or not w.isalpha() or english_word(w):
        return t
    aux = words().auxiliaries
    near = [a for a in (*aux.be, *aux.do, *aux.have, *aux.modal) if len(a) >= 4 and _edit1(w, a)]
    return f"{near[0]} {rest}" if len(near) == 1 else t


def _without_lead_in(t: str) -> str:
    """``t`` without the words that open it before its topic ("what about", "Debate:"),
    and without spoken fillers before a question (:func:`_without_fillers`)."""
    lead_ins = words().lead_ins
    for _ in range(3):
        p = _phrase_at_start(t, lead_ins)
        if p is None:
            break
        rest = t[len(p) :].lstrip(" ,:;-–—")
        if not rest:
            break
        t = rest
    return _without_fillers(t)


# the spoken fillers a follow-up's wrapper may open with ("um", "so", "hey", "okay, …")
_FILLER = re.compile(
    r"(?:"
    + alternation(
        (*VOCAB.wrappers.lead_words.get("en", ()), *VOCAB.wrappers.lead_marks.get("en", ())),
        space=" ",
    )
    + r")\b[,.!]?\s+",
    re.I,
)


def _without_fillers(t: str) -> str:
    """ "um so should public schools have armed guards", "hey, is it okay …": the question
    after the fillers that open it (``words/wrappers.yaml`` lead words), where what
    follows opens with an auxiliary or a wh-word; ``t`` itself otherwise ("Right to
    repair laws: good or bad?" keeps its "Right")."""
    rest = t
    for _ in range(4):
        m = _FILLER.match(rest)
        if m is None or m.end() >= len(rest):
            break
        rest = rest[m.end() :]
    if rest == t:
        return t
    first = rest.split()[0]
    w = words()
    if w.aux_kind(first) is None and first.lower() not in w.wh_words:
        return t
    return rest[0].upper() + rest[1:]


# --------------------------------------------------------------------------- rules


def _versus(t: str) -> Claims | None:
    m = _VERSUS.match(t)
    if not m:
        return None
    a, b = m.group("a").strip(), m.group("b").strip(" ,")
    a = re.split(r"\s*:\s*|\s[-–—]\s", a)[-1]  # "Battle of the consoles: Xbox vs. …"
    if not m.group("p"):
        # "homeschooling vs traditional school - what does each side say": B ends where
        # the words about the question begin
        b = _TOPIC_END.split(b, maxsplit=1)[0].strip() or b
    pred = (m.group("p") or "better").strip()
    if len(a.split()) == 1 and len(b.split()) > 1 and not m.group("p") and _modifier(a, b):
        # "Breast vs. Bottle feeding": the words after B's first belong to both
        a = a + " " + " ".join(b.split()[1:])
    return sentence(f"{a} {be_for(a)} {pred}"), sentence(f"{b} {be_for(b)} {pred}")


def _modifier(a: str, b: str) -> bool:
    """A alone modifies B's head as B's first word does ("Public vs private schools",
    "Breast vs. Bottle feeding"), by the parse of "A vs B"; "homeschooling vs
    traditional school" and "iPhone vs Android phones" name two things."""
    doc = parse(f"{a} vs {b}")
    first = doc[0]
    return first.pos_ == "ADJ" or first.dep_ in ("amod", "nmod", "compound")


def _which(t: str) -> Claims | None:
    m = _WHICH.match(t)
    if not m:
        return None
    a, b, p = m.group("a").strip(), m.group("b").strip(), m.group("p").strip()
    return sentence(f"{a} {be_for(a)} {p}"), sentence(f"{b} {be_for(b)} {p}")


def _leading_clause(t: str) -> Claims | None:
    """ "If a drug is legal, should it be advertised?": the claims of the question after the
    clause set before it (``clause_openers``, :func:`leading_clause`), each behind the
    clause ("If a drug is legal, it should be advertised." / "If a drug is legal, it
    should not be advertised.")."""
    split = leading_clause(t)
    if split is None:
        return None
    clause, after = split
    rest = after.split()
    question = " ".join(rest)
    found = question_claims(question[0].upper() + question[1:])
    if not found:
        return labelled(t, "en")  # no other rule reads a question behind a clause
    # the subject as it is typed ("it", not the "It" that opens a claim alone)
    typed = rest[2] if rest[1].lower() == "not" and len(rest) > 2 else rest[1]
    return (_after_clause(clause, found[0], typed), _after_clause(clause, found[1], typed))


def _after_clause(clause: str, claim: str, typed: str) -> str:
    first, _, rest = claim.partition(" ")
    if first.lower() == typed.lower() and typed[:1].islower():
        first = typed
    return f"{clause}, {first} {rest}"


def _topic_question(t: str) -> Claims | None:
    """ "Nuclear power, is it safe?" -> "Is nuclear power safe?" read as a question."""
    m = _TOPIC_Q.match(t)
    if not m or words().aux_kind(m.group("aux")) is None or not m.group("rest").strip():
        return None
    x = _without_lead_in(m.group("x").strip())
    return question_claims(f"{m.group('aux')} {x} {m.group('rest').strip()}?")


def _topic_alternatives(t: str) -> Claims | None:
    """ "Time: linear or cyclical?", "basic income - good idea or not?": "Is X A or B?"."""
    m = _TOPIC_OR.match(t)
    if not m:
        return None
    topic, pred = m.group("topic").strip(), m.group("p").strip()
    if words().aux_kind(pred.split()[0]) is not None:
        return None
    return question_claims(f"{be_for(topic)} {topic} {with_article(pred)}?")


def _after_label(t: str) -> Claims | None:
    """ "Debate: is space exploration worth the money?", "Been arguing with my roommate
    all night lol — should hate speech be a crime?": the question after a label or the
    context set before it, at the last colon or dash after which a question opens with an
    auxiliary (fillers aside)."""
    for m in reversed(list(_CONTEXT_BREAK.finditer(t))):
        rest = _without_fillers(t[m.end() :].strip())
        if rest and words().aux_kind(rest.split()[0]):
            return question_claims(rest[0].upper() + rest[1:])
    return None


def _reported(t: str) -> Claims | None:
    """ "Why do critics say nuclear power is too expensive?", "Do you think homework
    should be banned?": a question about someone's view of a claim debates the claim,
    the complement clause of its opinion verb (``opinion_verbs``), and its negation."""
    w = words()
    first, _, rest = t.partition(" ")
    q = rest if first.lower() == "why" else t
    # a statement of the asker's own view ("I think …", "This House believes that …")
    holder = _phrase_at_start(q, w.own_view_holders)
    if holder is not None:
        q = q[len(holder) :].lstrip()
    if not q:
        return None
    # a question from its auxiliary, or what is left of one once the holders of the view
    # are taken as its perspective ("say nuclear power is too expensive")
    if not (w.aux_kind(q.split()[0]) or verb_lemma(q.split()[0]) in w.opinion_verbs):
        return None
    doc = parse(q.rstrip("?.! "))
    root = next((tok for tok in doc if tok.dep_ == "ROOT"), None)
    if root is None or verb_lemma(root.text) not in w.opinion_verbs:
        return None
    clause = next((c for c in root.children if c.dep_ == "ccomp" and c.i > root.i), None)
    if clause is None:
        return None
    tokens = [tok for tok in clause.subtree if not (tok.dep_ == "mark" and tok.head == clause)]
    span = doc[tokens[0].i : tokens[-1].i + 1].text if tokens else ""
    return _statement(span) if span else None


def _verbless(t: str) -> Claims | None:
    """ "Password managers safe?", "Nuclear power safe?": a subject and an adjective with
    no verb, asked as "Are password managers safe?"."""
    if not t.rstrip().endswith("?"):
        return None
    doc = parse(t.rstrip("?! "))
    if any(tok.tag_.startswith("VB") or tok.tag_ == "MD" for tok in doc):
        return None
    roots = [tok for tok in doc if tok.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].tag_ != "JJ":
        return None
    head = roots[0]
    subjects = [c for c in head.children if c.dep_.startswith("nsubj") and c.i < head.i]
    if len(subjects) != 1 or subjects[0].left_edge.i != 0:
        return None
    subject = doc[: subjects[0].right_edge.i + 1].text
    rest = doc[subjects[0].right_edge.i + 1 :].text
    lead = subject[0].lower() + subject[1:] if subject[1:2].islower() else subject
    return question_claims(f"{be_for(subject).capitalize()} {lead} {rest}?")


def _question(t: str) -> Claims | None:
    return question_claims(t) if words().aux_kind(t.split()[0]) else None


def _why(t: str) -> Claims | None:
    """ "Why is fast fashion harmful?": the statement the question takes for granted."""
    first, _, rest = t.partition(" ")
    if first.lower() != "why" or not rest or not words().aux_kind(rest.split()[0]):
        return None
    return question_claims(rest)


def _wh_subject(t: str) -> Claims | None:
    """ "What is a four-day week?", "What harm can homeopathy do?" argued from both sides:
    the claims of the question's subject."""
    w = words()
    tokens = t.split()
    if not tokens or tokens[0].lower() not in w.wh_words:
        return None
    subject = None
    # "What does X define?", "What harm can X do?": the question from its auxiliary on,
    # read as the yes/no questions are (the small model misreads the verb as a noun)
    at = next((i for i, x in enumerate(tokens[1:5], 1) if w.aux_kind(x)), None)
    if at is not None and w.aux_kind(tokens[at]) != "be":
        subject = subject_of(" ".join(tokens[at:]))
    subject = subject or question_subject(t)  # "What is a four-day week?": the copula's
    if not subject or english_stop_word(subject):
        return None  # "How should we view …": a pronoun is no topic
    return _topic_claims(as_typed(t, subject), request=False)


def _framed(t: str) -> Claims | None:
    """ "pros and cons of fracking", "… on both sides of the death penalty debate": the
    claims of the topic the frame names."""
    low = t.lower()
    best: tuple[int, int, str] | None = None  # the frame that ends last, the longest
    for frame in words().topic_frames:
        for m in re.finditer(r"(?<!\w)" + re.escape(frame) + r"(?!\w)", low):
            if best is None or (m.end(), len(frame)) > best[:2]:
                best = (m.end(), len(frame), frame)
    if best is None:
        return None
    topic = object_after(t, best[0])
    if not topic:
        return None
    if best[2] == "whether":
        return _statement(topic)
    return _statement(topic) or _topic_claims(topic)


def _statement(t: str) -> Claims | None:
    """A statement and its negation ("the claim that X": X)."""
    lead = _phrase_at_start(t, words().statement_leads)
    s = t[len(lead) :].strip() if lead else t
    s = s.rstrip("?.! ")
    if not s or not is_clause(parse(s)):
        return None
    neg = negate_statement(s)
    return (sentence(s), sentence(neg)) if neg else None


def _topic_claims(t: str, request: bool = True) -> Claims | None:
    """A topic that is not a clause: a bare verb phrase or a noun phrase (``words/claims.yaml``).
    A request verb before it ("list …", "make the case …") is not part of it."""
    topic = _without_tails(_TOPIC_END.split(t, maxsplit=1)[0].strip().rstrip("?.!"))
    if not topic:
        return None
    w = words()
    verb = _phrase_at_start(topic, w.request_verbs)
    if verb and request:
        rest = topic[len(verb) :].strip()
        obj = _phrase_at_start(rest, w.request_objects)
        rest = rest[len(obj) :].strip() if obj else rest
        return (_framed(rest) or _topic_claims(rest, request=False)) if rest else None
    first = topic.split()[0].lower()
    if w.aux_kind(first) is not None or first in w.wh_words:
        return None  # a question no rule read is no topic
    kind = phrase_kind(topic)
    if kind == "verb_phrase":
        vp = topic[0].lower() + topic[1:] if topic[1:2].islower() else topic
        form = w.forms.verb_phrase
        return sentence(form.pro.format(vp=vp)), sentence(form.con.format(vp=vp))
    if kind != "noun_phrase":
        return None  # a clause the statement rule could not read, or no phrase at all
    topic = without_tail_noun(topic)
    slots = {"topic": topic, "is": be_for(topic), "does": "do" if plural(topic) else "does"}
    form = w.forms.noun_phrase
    return sentence(form.pro.format_map(slots)), sentence(form.con.format_map(slots))


def _without_tails(topic: str) -> str:
    """ "gun control arguments on both sides" -> "gun control"."""
    low = topic.lower()
    for tail in sorted(words().topic_tails, key=len, reverse=True):
        if low.endswith(" " + tail):
            return topic[: -len(tail)].strip(" ,:;-–—")
    return topic
