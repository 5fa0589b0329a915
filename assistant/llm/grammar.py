"""GBNF grammars for constrained decoding (DESIGN §5: never trust free text).

* :func:`schema_grammar` — the GBNF of a JSON schema (llama.cpp's converter),
  so a bad schema fails when the backend starts, not mid-answer;
* :func:`span_grammar` — an answer that can only be a span of a given text: a
  trie over the word n-grams (up to ``max_words`` words) of the text, whose
  edges carry the exact characters between words, so every accepted string is
  a substring of the input;
* :func:`choice_grammar` — one of a fixed list of strings.
"""

from __future__ import annotations

import json
import re
from typing import Any

from assistant.errors import PromptError
from assistant.llm.base import GrammarSpec

# words and single punctuation marks; the text between two tokens is kept
# verbatim on the edge so spans stay exact substrings
_TOKEN = re.compile(r"\w+(?:['’\-]\w+)*|[^\w\s]", re.UNICODE)
NONE_ANSWER = "NONE"


def gbnf_literal(text: str) -> str:
    """``text`` as a GBNF double-quoted literal."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def schema_grammar(schema: dict[str, Any]) -> str:
    """GBNF for JSON values matching ``schema`` (raises PromptError if it cannot be built)."""
    try:
        from llama_cpp.llama_grammar import json_schema_to_gbnf
    except ImportError as exc:  # pragma: no cover - install problem
        raise PromptError("llama-cpp-python is needed to build grammars") from exc
    try:
        return str(json_schema_to_gbnf(json.dumps(schema)))
    except Exception as exc:  # the converter raises bare Exceptions / KeyErrors
        raise PromptError(f"cannot turn the JSON schema into a grammar: {exc!r}") from None


def choice_grammar(options: list[str]) -> GrammarSpec:
    if not options:
        raise PromptError("a choice grammar needs at least one option")
    alts = " | ".join(gbnf_literal(o) for o in dict.fromkeys(options))
    return GrammarSpec(gbnf=f"root ::= {alts}\n")


def tokens_with_offsets(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def span_candidates(text: str, max_words: int) -> list[tuple[int, int]]:
    """Character spans of every token n-gram (n ≤ ``max_words``) of ``text``."""
    toks = tokens_with_offsets(text)
    out = []
    for i in range(len(toks)):
        for j in range(i, min(len(toks), i + max_words)):
            out.append((toks[i][1], toks[j][2]))
    return out


def span_grammar(
    text: str, *, max_words: int = 24, max_tokens: int = 400, allow_none: bool = True
) -> GrammarSpec:
    """A grammar whose sentences are exactly the n-gram spans of ``text``.

    The trie has one node per distinct n-gram prefix; a node's rule lists its
    next tokens, each optionally followed by the child's rule, so the answer
    may end after any token. ``max_tokens`` caps the text considered (a huge
    input would make a huge grammar). ``allow_none`` adds the answer ``NONE``.
    """
    toks = tokens_with_offsets(text)[:max_tokens]
    if not toks:
        raise PromptError("a span grammar needs a text with at least one word")
    # trie: node id -> {edge literal: child node id}
    trie: list[dict[str, int]] = [{}]
    for i in range(len(toks)):
        node = 0
        for j in range(i, min(len(toks), i + max_words)):
            # after the first token an edge is the separator + token, verbatim
            edge = toks[j][0] if j == i else text[toks[j - 1][2] : toks[j][2]]
            child = trie[node].get(edge)
            if child is None:
                child = len(trie)
                trie[node][edge] = child
                trie.append({})
            node = child
    lines = []
    root_alts = ["n0"] + ([gbnf_literal(NONE_ANSWER)] if allow_none else [])
    lines.append("root ::= " + " | ".join(root_alts))
    for nid, children in enumerate(trie):
        if not children:
            continue
        alts = []
        for edge, child in children.items():
            lit = gbnf_literal(edge)
            alts.append(f"{lit} n{child}?" if trie[child] else lit)
        lines.append(f"n{nid} ::= " + " | ".join(alts))
    return GrammarSpec(gbnf="\n".join(lines) + "\n")


def locate_span(text: str, answer: str, near: int = 0) -> tuple[int, int] | None:
    """Character offsets of ``answer`` in ``text`` (the occurrence nearest ``near``)."""
    answer = answer.strip()
    if not answer:
        return None
    hits = [m.start() for m in re.finditer(re.escape(answer), text)]
    if not hits:
        low = text.lower()
        hits = [m.start() for m in re.finditer(re.escape(answer.lower()), low)]
    if not hits:
        return None
    start = min(hits, key=lambda h: abs(h - near))
    return (start, start + len(answer))
