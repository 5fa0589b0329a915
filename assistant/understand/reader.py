"""The turn reader: a fine-tuned MiniLM that reads a follow-up beside the plan it would edit.

The follow-up rules (:mod:`assistant.understand.followup`) read cue words and take
an edit's value by patterns; the logistic turn-kind model
(:mod:`assistant.understand.turn_kind`) reads the kind of a turn from frozen
sentence vectors and hashed n-grams. Neither can *point at* the words of a long,
freely phrased turn that name the facet ("Several of our members are retirees who
worry about upkeep, so it would be really useful to see what the evidence says
about maintenance effort over the years." → "maintenance effort"), which is
where fresh dialogue sets kept failing. This model reads the turn as a pair with
its context,

    [CLS] context [SEP] turn [SEP],   context = "<the thread's question> Showing: <side>."

(the question as the parser's root: its constraint and side phrases taken out)

through the six layers of the bundled all-MiniLM-L6-v2 (fine-tuned; word,
position and token-type embeddings frozen), and has three heads:

* **kind**: softmax over the ten edit kinds
  (:data:`~assistant.understand.followup.EDITS`) of the mean-pooled token states;
* **side**: softmax over pro / con / both of the same pooled state, for a request
  for one side or for more (pro = for the proposition of the thread's question,
  as ``tests/data/CONVERSATION.md`` defines it; the context says which side the
  previous answer showed, so "more from the other side" can be read);
* **span**: start and end logits over the turn's tokens (extractive question
  answering, Devlin et al. 2019 §4.2: the span (i, j), i ≤ j < i + 12, maximising
  s_i + e_j), for the facet, the dropped facet or the group of a view, or the
  name of a source or keyword, widened to whole words;
* **constraint**: for a request that constrains the documents, softmax over the six
  InfoSearch dimensions (language, length, source, keyword, format, audience) and
  P(negated), from the pooled state; the resolver takes the value of that dimension
  from the turn's words (a lexicon for languages, audiences, formats and lengths,
  the span for a source or keyword).

Trained on the development dialogue sets only (``tests/data/conversation_dev*.jsonl``;
``sphere train turn-reader`` refuses a test set) with
:mod:`assistant.understand.reader_train`; every threshold the resolver applies to
it was chosen by grouped cross-validation over those sets (docs/CONVERSATION.md of
the eval results, docs/RESULTS.md "Follow-ups"). Shipped as int8 deltas on the base
weights plus the heads (:mod:`assistant.stance.artifact`, format
``sphere-turn-reader-1``), loaded offline on top of the embedder's package.

Inference runs in float32; its probabilities agree across CPUs to float
tolerance, not bit for bit, so a reading within ~1e-6 of a threshold may differ
between machines.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from assistant.errors import ModelError
from assistant.understand.followup import EDITS

if TYPE_CHECKING:
    from assistant.models import QueryPlan

FORMAT = "sphere-turn-reader-1"
ARTIFACT_NAME = "turn_reader.safetensors"
KINDS = EDITS
SIDES = ("pro", "con", "both")
DIMENSIONS = ("language", "length", "source", "keyword", "format", "audience")
SPAN_KINDS = ("add_aspect", "drop_aspect", "add_perspective")
MAX_LEN = 128
MAX_SPAN_TOKENS = 12
_SHOWING = {None: "both sides", "pro": "the side for only", "con": "the side against only"}


def bundled_artifact() -> Path:
    return Path(str(resources.files("assistant.understand") / "weights" / ARTIFACT_NAME))


def context_text(question: str, showing: str | None) -> str:
    """The first segment the reader sees: the thread's question and the side shown."""
    return f"{question.strip()} Showing: {_SHOWING.get(showing, _SHOWING[None])}."


def plan_context(plan: QueryPlan) -> str:
    """:func:`context_text` of a plan in force: the thread's question as the parser's root
    (what a follow-up's plan keeps; its ``question`` becomes the follow-up's words in the
    app) and the side shown when it is one-sided."""
    one = plan.target_side if plan.intent == "one_sided" else None
    return context_text(plan.root_query or plan.question, one)


def _net_class() -> Any:
    # torch loads only when the reader is first used (start-up time of the app)
    import torch
    from torch import nn

    from assistant.stance.net import FineTuned

    class ReaderNet(FineTuned):
        """Encoder + kind, side, span and constraint heads (the module docstring)."""

        def __init__(self, encoder: nn.Module, hidden: int, dropout: float = 0.1) -> None:
            super().__init__()
            self.encoder = encoder
            self.dropout = nn.Dropout(dropout)
            self.kind = nn.Linear(hidden, len(KINDS))
            self.side = nn.Linear(hidden, len(SIDES))
            self.span = nn.Linear(hidden, 2)
            self.dim = nn.Linear(hidden, len(DIMENSIONS))
            self.neg = nn.Linear(hidden, 2)

        def forward(
            self,
            input_ids: torch.Tensor,
            attention_mask: torch.Tensor,
            token_type_ids: torch.Tensor,
        ) -> tuple[torch.Tensor, ...]:
            """(kind, side, span start, span end, dimension, negated) logits."""
            h = self.encoder(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            m = attention_mask.unsqueeze(-1).to(h.dtype)
            pooled = self.dropout((h * m).sum(1) / m.sum(1).clamp_min(1.0))
            se = self.span(self.dropout(h))
            return (
                self.kind(pooled),
                self.side(pooled),
                se[..., 0],
                se[..., 1],
                self.dim(pooled),
                self.neg(pooled),
            )

    return ReaderNet


@functools.cache
def net_class() -> Any:
    """The network class (built on first use: importing this module does not load torch)."""
    return _net_class()


def load_base(path: Path) -> tuple[Any, Any]:
    """(network with fresh heads, tokenizer) on the base model in ``path``."""
    from assistant.stance.net import load_encoder  # imports torch: only when loading

    encoder, tokenizer = load_encoder(path)
    return net_class()(encoder, int(encoder.config.hidden_size)), tokenizer


def encode(
    tokenizer: Any, contexts: Sequence[str], turns: Sequence[str], max_len: int = MAX_LEN
) -> tuple[dict[str, Any], Any, Any]:
    """(token tensors, character offsets (n, L, 2), mask of the turn's tokens (n, L)) for
    (context, turn) pairs; the context is what gets truncated."""
    import torch  # only when the reader runs (start-up time)

    enc = tokenizer(
        list(contexts),
        list(turns),
        truncation="only_first",
        max_length=max_len,
        padding=True,
        return_offsets_mapping=True,
        return_tensors="pt",
    )
    offsets = enc.pop("offset_mapping")
    turn_mask = torch.tensor(
        [[s == 1 for s in enc.sequence_ids(i)] for i in range(len(turns))], dtype=torch.bool
    )
    if "token_type_ids" not in enc:
        enc["token_type_ids"] = torch.zeros_like(enc["input_ids"])
    tensors = {k: enc[k] for k in ("input_ids", "attention_mask", "token_type_ids")}
    return tensors, offsets, turn_mask


_WORD_CHAR = re.compile(r"[\w'’\-]")


def widen(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) grown to whole words and stripped of surrounding punctuation."""
    while start > 0 and _WORD_CHAR.match(text[start - 1]) and _WORD_CHAR.match(text[start]):
        start -= 1
    while end < len(text) and _WORD_CHAR.match(text[end]) and _WORD_CHAR.match(text[end - 1]):
        end += 1
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not text[end - 1].isalnum():
        end -= 1
    return start, end


def best_span(
    start_logits: np.ndarray, end_logits: np.ndarray, allowed: np.ndarray
) -> tuple[int, int, float] | None:
    """The token span (i, j), i ≤ j < i + MAX_SPAN_TOKENS, both allowed, maximising
    s_i + e_j, with P(start = i) · P(end = j) over the allowed tokens; None without any."""
    idx = np.flatnonzero(allowed)
    if not idx.size:
        return None
    s = start_logits[idx].astype(np.float64)
    e = end_logits[idx].astype(np.float64)
    ps = np.exp(s - s.max())
    ps /= ps.sum()
    pe = np.exp(e - e.max())
    pe /= pe.sum()
    pos = idx[:, None], idx[None, :]
    ok = (pos[1] >= pos[0]) & (pos[1] < pos[0] + MAX_SPAN_TOKENS)
    score = np.where(ok, s[:, None] + e[None, :], -np.inf)
    a, b = np.unravel_index(int(np.argmax(score)), score.shape)
    return int(idx[a]), int(idx[b]), float(ps[a] * pe[b])


@dataclass
class Reading:
    """What the reader makes of one turn."""

    kinds: dict[str, float]
    sides: dict[str, float]
    span: str | None = None
    span_p: float = 0.0
    dimensions: dict[str, float] = field(default_factory=dict)
    negated_p: float = 0.0

    @property
    def kind(self) -> str:
        return max(self.kinds, key=self.kinds.__getitem__)

    @property
    def kind_p(self) -> float:
        return self.kinds[self.kind]

    @property
    def side(self) -> str:
        return max(self.sides, key=self.sides.__getitem__)

    @property
    def side_p(self) -> float:
        return self.sides[self.side]


class TurnReader:
    """The trained reader at run time (:meth:`read`); thread-safe."""

    def __init__(self, net: Any, tokenizer: Any, card: dict[str, Any], path: Path) -> None:
        self.net = net
        self.tokenizer = tokenizer
        self.card = card
        self.path = path
        self.sha256 = str(card.get("sha256", ""))
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str], Reading] = {}

    @classmethod
    def load(cls, path: Path | None = None, base: Path | None = None) -> TurnReader:
        # the embedder's path and the artifact reader load torch: only when loading
        from assistant.embed import bundled_model_path
        from assistant.stance.artifact import apply_artifact, read_card

        path = path or bundled_artifact()
        if not path.exists():
            raise ModelError(
                f"the turn reader is missing: {path}",
                hint="reinstall Sphere, or train one with `sphere train turn-reader`",
            )
        card = read_card(path, FORMAT)
        net, tok = load_base(base or bundled_model_path())
        apply_artifact(net, path, card)
        net.eval()
        return cls(net, tok, card, path)

    def info(self) -> dict[str, Any]:
        return {"path": str(self.path), "sha256": self.sha256, "run_id": self.card.get("run_id")}

    def read_pairs(self, contexts: Sequence[str], turns: Sequence[str]) -> list[Reading]:
        """Readings of (context, turn) pairs, in batches (cached by pair)."""
        out: list[Reading | None] = []
        todo: list[int] = []
        with self._lock:
            for i, key in enumerate(zip(contexts, turns, strict=True)):
                hit = self._cache.get(key)
                out.append(hit)
                if hit is None:
                    todo.append(i)
        for s in range(0, len(todo), 64):
            part = todo[s : s + 64]
            got = read_batch(
                self.net, self.tokenizer, [contexts[i] for i in part], [turns[i] for i in part]
            )
            with self._lock:
                for i, r in zip(part, got, strict=True):
                    out[i] = r
                    if len(self._cache) < 4096:
                        self._cache[(contexts[i], turns[i])] = r
        return [r for r in out if r is not None]

    def read(self, turn: str, plan: QueryPlan) -> Reading:
        return self.read_pairs([plan_context(plan)], [turn])[0]


def read_batch(
    net: Any, tokenizer: Any, contexts: Sequence[str], turns: Sequence[str]
) -> list[Reading]:
    """One forward pass over the pairs (eval mode, float32, no autograd)."""
    import torch  # only when the reader runs (start-up time)

    tensors, offsets, turn_mask = encode(tokenizer, contexts, turns)
    was = net.training
    net.eval()
    try:
        with torch.inference_mode():
            k, sd, st, en, dim, neg = net(**tensors)
    finally:
        net.train(was)
    pk = torch.softmax(k.float(), -1).numpy().astype(np.float64)
    ps = torch.softmax(sd.float(), -1).numpy().astype(np.float64)
    pd = torch.softmax(dim.float(), -1).numpy().astype(np.float64)
    pn = torch.softmax(neg.float(), -1).numpy().astype(np.float64)
    st_np, en_np = st.float().numpy(), en.float().numpy()
    mask, off = turn_mask.numpy(), offsets.numpy()
    out = []
    for i, turn in enumerate(turns):
        span, span_p = None, 0.0
        found = best_span(st_np[i], en_np[i], mask[i])
        if found is not None:
            a, b, span_p = found
            cs, ce = widen(turn, int(off[i, a, 0]), int(off[i, b, 1]))
            span = turn[cs:ce] or None
        out.append(
            Reading(
                kinds={c: float(pk[i, j]) for j, c in enumerate(KINDS)},
                sides={c: float(ps[i, j]) for j, c in enumerate(SIDES)},
                span=span,
                span_p=span_p,
                dimensions={c: float(pd[i, j]) for j, c in enumerate(DIMENSIONS)},
                negated_p=float(pn[i, 1]),
            )
        )
    return out


_LOADED: dict[str, TurnReader] = {}
_LOAD_LOCK = threading.Lock()


def shared_reader(path: Path | None = None) -> TurnReader | None:
    """One loaded reader per artifact in this process; None when the shipped artifact is
    missing (the rules and the turn-kind model then work alone)."""
    target = path or bundled_artifact()
    key = str(target)
    with _LOAD_LOCK:
        reader = _LOADED.get(key)
        if reader is None:
            if path is None and not target.exists():
                return None
            reader = TurnReader.load(target)
            _LOADED[key] = reader
        return reader


def loaded_readers() -> list[dict[str, Any]]:
    """What the session log records of the readers loaded in this process."""
    with _LOAD_LOCK:
        return [r.info() for r in _LOADED.values()]
