"""Is a claim a claim? A check of the two claims a plan shows, by the English parse.

A claim passes when it is

* **declarative**: one sentence ending in a full stop, not a question mark, whose
  parse has a finite main verb (or a modal or auxiliary on it) with a subject
  before that verb, and no auxiliary before the subject (the word order of a
  question: "Should we ban …");
* free of **template words** (``words/claims.yaml``: "We support the claim that",
  "Arguments in favour of", …);
* **not the question repeated**: a question (it ends in "?" or opens with an
  auxiliary or a wh-word) is not held whole in the claim.

The never-wrong form for text no rule reads ("Yes — ¿Debería …?", "For —
vaping") is reported as **labelled**: it is not declarative, and it is what
another language gets by design (the parser reads English only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from assistant.understand.claim_words import words
from assistant.understand.declarative import SUBJECT_DEPS, auxiliaries
from assistant.understand.parse import parse

_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_WH = frozenset({"what", "why", "how", "who", "whom", "which", "when", "where", "whose"})
_LABEL = re.compile(r"^\s*[^\W\d_][^—]{0,20}\s—\s", re.UNICODE)
_FRAME = "They say that "
_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)


@dataclass(frozen=True)
class ClaimCheck:
    claim: str
    declarative: bool
    template: bool
    repeats_question: bool
    labelled: bool
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.declarative and not self.template and not self.repeats_question

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


def _norm(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def is_question(text: str) -> bool:
    """A question by its form: a question mark, or an opening auxiliary or wh-word."""
    t = text.strip().lstrip("¿¡")
    if t.endswith("?"):
        return True
    first = t.split()[0].lower() if t.split() else ""
    return first in _WH or words().aux_kind(first) is not None


def is_labelled(claim: str) -> bool:
    """The never-wrong form: a short label, a dash, the text ("Yes — …", "A favor — …")."""
    return bool(_LABEL.match(claim))


def _clause(root: Any, start: int = 0) -> tuple[bool, str]:
    """Is ``root`` the verb of a declarative clause: finite, its subject before it, no
    auxiliary or verb before the subject? Only tokens from ``start`` on count as its
    subject (in the framed reading, not a word of the frame)."""
    auxes = auxiliaries(root)
    subjects = [
        c for c in root.children if c.dep_ in SUBJECT_DEPS and start <= c.left_edge.i < root.i
    ]
    finite = root.tag_ in _FINITE or any(a.tag_ in _FINITE for a in auxes)
    # a present-tense verb tagged as a base form ("… that zoos protect species")
    finite = finite or (root.tag_ == "VB" and not auxes and bool(subjects))
    if not finite:
        return False, f"no finite verb (root {root.text!r} is {root.tag_})"
    if not subjects:
        return False, "no subject before the verb"
    if min(t.i for t in (*auxes, root)) < subjects[0].left_edge.i:
        return False, "a question's word order"  # "Should we ban cars."
    return True, ""


def _declarative(claim: str) -> tuple[bool, str]:
    """The claim read alone, and, when that fails, as the clause of "They say that …": a
    sentence's first word is misread more often (the small model tags "Zoos" in "Zoos
    protect endangered species." as an adjective)."""
    t = claim.strip()
    if not t:
        return False, "empty"
    if t.endswith("?"):
        return False, "a question mark"
    if not t.endswith("."):
        return False, "no full stop"
    doc = parse(t)
    if len(list(doc.sents)) > 1:
        return False, "more than one sentence"
    roots = [tok for tok in doc if tok.dep_ == "ROOT"]
    if len(roots) != 1:
        return False, "no single root"
    ok, reason = _clause(roots[0])
    if ok:
        return True, ""
    framed = parse(_FRAME + t[:1].lower() + t[1:])
    clauses = [c for r in framed if r.dep_ == "ROOT" for c in r.children if c.dep_ == "ccomp"]
    # the frame's "that" read as the subject would hide a question's word order
    # ("They say that should child performers be banned.")
    start = sum(1 for tok in framed if tok.idx < len(_FRAME))
    if clauses and _clause(clauses[0], start)[0]:
        return True, ""
    return False, reason


def check_claim(claim: str, question: str) -> ClaimCheck:
    """The three checks of the module docstring for one claim."""
    low = " ".join(claim.lower().split())
    template = any(p in low for p in words().template_words)
    labelled = is_labelled(claim)
    q = _norm(question)
    # the labelled form holds its text by design: it is judged as labelled, not as a repeat
    repeats = not labelled and is_question(question) and len(q.split()) >= 2 and q in _norm(claim)
    if labelled:
        declarative, reason = False, "labelled (no rule read it)"
    else:
        declarative, reason = _declarative(claim)
    if template:
        reason = reason or "template words"
    if repeats:
        reason = reason or "the question repeated"
    return ClaimCheck(claim, declarative, template, repeats, labelled, reason)


def check_claims(question: str, claims: Sequence[str]) -> list[ClaimCheck]:
    """Each claim of a plan checked against its question."""
    return [check_claim(c, question) for c in claims]
