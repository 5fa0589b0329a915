"""Two opposing claims for the root text (paper 004; PerSphere's template as fallback)."""

from __future__ import annotations

import re

from assistant import lexicon as lx
from assistant.models import Intent

_AUX_Q = re.compile(
    r"^\s*(?P<aux>" + "|".join(lx.AUXILIARIES) + r")\b\s+(?P<rest>.+?)\s*[?.!]*\s*$", re.I | re.S
)
_BASE_VERBS = ("be", "become", "have", "get", "remain", "stay", "go", "continue", "keep")
_ADJ_SUFFIX = re.compile(r"(?:ful|ous|ive|able|ible|ic|al|less|ant|ent|ary|ory|ed|ing|ish)$", re.I)


def _third_person(verb: str) -> str:
    v = verb.lower()
    if v == "have":
        return "has"
    if v in ("do", "go"):
        return verb + "es"
    if re.search(r"(?:s|sh|ch|x|z|o)$", v):
        return verb + "es"
    if re.search(r"[^aeiou]y$", v):
        return verb[:-1] + "ies"
    return verb + "s"


def _sentence(text: str) -> str:
    t = re.sub(r"\s+", " ", text).strip().rstrip("?.!:;, ")
    if not t:
        return ""
    return t[0].upper() + t[1:] + "."


def _plural(subject: str) -> bool:
    words = subject.split()
    if not words:
        return False
    if re.search(r"\band\b", subject, re.I):
        return True
    head = words[0]
    for i, w in enumerate(words):
        if w.lower() in ("of", "in", "for", "on", "with", "from", "to") and i > 0:
            head = words[i - 1]
            break
    else:
        head = words[-1]
    h = head.lower()
    return h.endswith("s") and not h.endswith(("ss", "us", "is", "ics")) and len(h) > 3


def _split_subject(words: list[str], aux: str) -> int | None:
    """Index where the predicate starts in ``<aux> <subject> <predicate>``."""
    aux = aux.lower()
    for i, w in enumerate(words[1:], start=1):
        lw = w.lower().strip(",")
        if aux in ("is", "are", "was", "were"):
            if lw in lx.PREDICATE_STARTERS or (_ADJ_SUFFIX.search(lw) and len(lw) > 4 and i >= 1):
                return i
        elif aux in ("do", "does", "did"):
            if lw in lx.COMMON_VERBS or lw in _BASE_VERBS:
                return i
        elif aux in ("has", "have", "had"):
            if re.search(r"(?:ed|en|wn|ne|ght)$", lw) or lw in (
                "been",
                "made",
                "done",
                "gone",
                "become",
            ):
                return i
        elif lw in _BASE_VERBS or lw in lx.COMMON_VERBS:
            return i
    return None


def _yes_no_claims(text: str) -> tuple[str, str] | None:
    m = _AUX_Q.match(text)
    if not m:
        return None
    aux = m.group("aux")
    rest = m.group("rest")
    words = rest.split()
    if len(words) < 2:
        return None
    la = aux.lower()
    # "<aux> S A or B O?": two alternatives, each a claim
    ors = [i for i, w in enumerate(words) if w.lower() == "or"]
    if ors and 1 <= ors[0] < len(words) - 1:
        k = ors[0]
        a, b = words[k - 1], words[k + 1]
        tail = " ".join(words[k + 2 :])
        pre = words[: k - 1]
        cut = _split_subject([*pre, a], la)
        if cut is None or cut > len(pre):
            cut = len(pre)
        subject = " ".join(pre[:cut])
        middle = " ".join(pre[cut:])
        if not subject:
            return None
        if la in ("do", "does", "did"):
            if la == "does":
                a, b = _third_person(a), _third_person(b)
            elif la == "did":
                return None
            return (
                _sentence(f"{subject} {middle} {a} {tail}"),
                _sentence(f"{subject} {middle} {b} {tail}"),
            )
        verb = la if la not in ("is", "are") else ("are" if _plural(subject) else "is")
        return (
            _sentence(f"{subject} {verb} {middle} {a} {tail}"),
            _sentence(f"{subject} {verb} {middle} {b} {tail}"),
        )
    cut = _split_subject(words, la)
    if cut is None:
        return None
    subject = " ".join(words[:cut])
    pred = " ".join(words[cut:])
    if la in ("does", "do"):
        v, *obj = pred.split(" ", 1)
        obj_s = obj[0] if obj else ""
        pos = f"{subject} {_third_person(v) if la == 'does' else v} {obj_s}"
        neg = f"{subject} {la} not {v} {obj_s}"
        return _sentence(pos), _sentence(neg)
    if la == "did":
        return None
    neg_aux = "cannot" if la == "can" else f"{la} not"
    return _sentence(f"{subject} {la} {pred}"), _sentence(f"{subject} {neg_aux} {pred}")


_STATEMENT_AUX = re.compile(
    r"\b(?P<aux>should|must|can|will|would|could|is|are|was|were|may|might|has|have|had|does|do)\b(?P<after>\s+\S+)?",
    re.I,
)


def negate_statement(statement: str) -> str | None:
    """The statement with its first auxiliary negated, or None if it has none."""
    m = _STATEMENT_AUX.search(statement)
    if not m or m.start() == 0:
        return None
    aux = m.group("aux")
    la = aux.lower()
    after = (m.group("after") or "").strip().lower()
    if after in ("not", "n't", "never"):
        return statement[: m.start()] + aux + statement[m.end("aux") :].replace(" not", "", 1)
    if la in ("has", "have", "had") and not re.search(r"(?:ed|en|wn|ne|been|ght)$", after):
        # main verb "have": "Animals have rights" -> "Animals do not have rights"
        do = "does" if la == "has" else "did" if la == "had" else "do"
        return statement[: m.start()] + f"{do} not have" + statement[m.end("aux") :]
    neg = "cannot" if la == "can" else f"{aux} not"
    return statement[: m.start()] + neg + statement[m.end("aux") :]


def persphere_claims(statement: str) -> tuple[str, str]:
    """PerSphere's fallback template (paper 004, App. H)."""
    s = re.sub(r"\s+", " ", statement).strip().rstrip("?.!")
    s = s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s
    return (f"We support the claim that {s}.", f"We undermine the claim that {s}.")


# a title's lead-in before its topic ("The Perspective on Ayahuasca", "Debate: …")
_TITLE_LEAD = re.compile(r"^(?:the perspective on|the debate (?:on|over|about)|debate:)\s+", re.I)


def make_claims(text: str, intent: Intent) -> tuple[str, str]:
    """Two opposing claims for the root text (pro first)."""
    t = re.sub(r"\s+", " ", text).strip()
    if not t or intent == "factual":
        return ("", "")
    # several sentences (context, or text aimed at the model): claim the last question
    sentences = [x for x in re.split(r"(?<!\bvs\.)(?<![A-Z]\.)(?<=[.!?])\s+", t) if x.strip()]
    if len(sentences) > 1:
        asked = [x for x in sentences if x.endswith("?")]
        t = asked[-1] if asked else sentences[-1]
    # "A vs. B – which/who is better?"
    m = re.match(
        r"^(?P<a>.+?)\s+(?:vs\.?|versus)\s+(?P<b>.+?)(?:\s*[:\-–—,]\s*(?:which|who)\s+(?:is|are)\s+(?P<p>[^?]+))?\??$",
        t,
        re.I,
    )
    if m:
        a, b = m.group("a").strip(), m.group("b").strip()
        pred = (m.group("p") or "better").strip()
        if len(a.split()) == 1 and len(b.split()) > 1:
            a = a + " " + " ".join(b.split()[1:])
        return (
            _sentence(f"{a} {'are' if _plural(a) else 'is'} {pred}"),
            _sentence(f"{b} {'are' if _plural(b) else 'is'} {pred}"),
        )
    # "Which is better, A or B?"
    m = re.match(
        r"^(?:which|who)\s+(?:is|are)\s+(?P<p>[^,?]+?),?\s+(?P<a>[^,?]+?)\s+or\s+(?P<b>[^?]+)\??$",
        t,
        re.I,
    )
    if m:
        p = m.group("p").strip()
        return (_sentence(f"{m.group('a')} is {p}"), _sentence(f"{m.group('b')} is {p}"))
    # "Topic: A or B?"
    m = re.match(r"^(?P<topic>[^:?]{2,80}):\s*(?P<a>[^?]+?)\s+or\s+(?P<b>[^?]+?)\??$", t)
    if m and not _AUX_Q.match(m.group("a")):
        topic = m.group("topic").strip()
        verb = "are" if _plural(topic) else "is"
        return (
            _sentence(f"{topic} {verb} {m.group('a')}"),
            _sentence(f"{topic} {verb} {m.group('b')}"),
        )
    # "Nuclear power, is it safe?", "Social media: are they bad for teens?": a topic set
    # before a yes/no question whose subject points back at it is that question's subject
    m = re.match(
        r"^(?:(?:and|so|but|ok|okay|now|what about|how about)[,]?\s+)*(?P<x>[^,:;?]{2,80}?)\s*"
        r"[,:;\-–—]\s*(?P<aux>is|are|was|were|does|do|should|can|will|would|could)\s+"
        r"(?:it|they|this|that|these|those)\b\s*(?P<rest>[^?]*)\??$",
        t,
        re.I,
    )
    if m and m.group("rest").strip():
        x = _TITLE_LEAD.sub("", m.group("x").strip())
        aux, rest = m.group("aux").lower(), m.group("rest").strip()
        if re.search(r"\bor\b", rest):
            yn = _yes_no_claims(f"{aux} {x} {rest}?")  # "Time – is it linear or cyclical?"
            if yn:
                return yn
        elif aux in ("is", "are", "was", "were"):
            verb = {"is": "are", "are": "are", "was": "were", "were": "were"}[aux]
            if not _plural(x):
                verb = "is" if aux in ("is", "are") else "was"
            return _sentence(f"{x} {verb} {rest}"), _sentence(f"{x} {verb} not {rest}")
        elif aux in ("does", "do"):
            v, *obj = rest.split(" ", 1)
            tail = f" {obj[0]}" if obj else ""
            third = _third_person(v) if not _plural(x) else v
            do = "does" if not _plural(x) else "do"
            return _sentence(f"{x} {third}{tail}"), _sentence(f"{x} {do} not {v}{tail}")
        else:
            neg_aux = "cannot" if aux == "can" else f"{aux} not"
            return _sentence(f"{x} {aux} {rest}"), _sentence(f"{x} {neg_aux} {rest}")
    # "…: <yes/no question>?" — the part after a title colon
    tail = (
        t.split(":", 1)[1].strip()
        if ":" in t and _AUX_Q.match(t.split(":", 1)[1].strip() or "")
        else t
    )
    yn = _yes_no_claims(tail)
    if yn:
        return yn
    if t.endswith("?"):
        return persphere_claims(t)
    neg = negate_statement(t)
    if neg:
        return (_sentence(t), _sentence(neg))
    if not _STATEMENT_AUX.search(t) and len(t.split()) <= 12:
        topic = _TITLE_LEAD.sub("", t)
        return (
            _sentence(f"Arguments in favour of {topic}"),
            _sentence(f"Arguments against {topic}"),
        )
    return persphere_claims(t)
