"""The stance network: a cross-encoder on the bundled all-MiniLM-L6-v2 weights.

Input ``[CLS] claim [SEP] text [SEP]`` (the claim framed with its question,
:func:`~assistant.stance.data.frame`); the six transformer layers read both
together, the token states are mean-pooled (the pooling the base model was
trained with) and a linear head gives three logits, P(supports), P(opposes),
P(neither) after a softmax.

Only the transformer layers and the head are trained; the embeddings (word,
position, token type) stay the base model's, so the shipped artifact
(:mod:`~assistant.stance.artifact`) holds the layers' changes and the head,
and is loaded on top of the bundled base.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch
from torch import nn

from assistant.workers import BATCH_OVERHEAD_TOKENS, Workers, length_batches

N_LABELS = 3


class FineTuned(nn.Module):
    """A network of Sphere's fine-tuned on the base MiniLM (``self.encoder``): its
    embeddings stay the base model's, the rest is trained and shipped as deltas
    (:mod:`assistant.stance.artifact`)."""

    encoder: nn.Module

    def freeze_embeddings(self) -> None:
        embeddings: nn.Module = self.encoder.embeddings  # type: ignore[assignment]
        for p in embeddings.parameters():
            p.requires_grad_(False)

    def trained_state(self) -> dict[str, torch.Tensor]:
        """The parameters that training changes (layers and heads), by name."""
        return {
            k: v
            for k, v in self.state_dict().items()
            if not k.startswith("encoder.embeddings.") and "position_ids" not in k
        }


class StanceNet(FineTuned):
    def __init__(self, encoder: nn.Module, hidden: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.encoder = encoder
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(hidden, N_LABELS)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        token_type_ids: torch.Tensor,
    ) -> torch.Tensor:
        h = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp_min(1.0)
        return self.head(self.dropout(pooled))


def load_encoder(path: Path, attention: str | None = None) -> tuple[Any, Any]:
    """(the base model's transformer without its pooler, its tokenizer), offline: the
    start of every fine-tuned MiniLM of Sphere's (this network and the follow-up turn
    reader, :mod:`assistant.understand.reader`).

    ``attention`` picks the attention kernel (transformers' ``attn_implementation``):
    the default (``sdpa``) is the faster one in float32 inference on CPU, ``eager`` the
    faster one for training under bf16 autocast (about twice as many sequences a second
    at 256-512 tokens on 2 cores); both compute the same function."""
    from assistant.offline import go_offline

    go_offline()
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    kwargs = {"attn_implementation": attention} if attention else {}
    encoder = AutoModel.from_pretrained(str(path), add_pooling_layer=False, **kwargs)
    return encoder, tokenizer


def load_base(path: Path, attention: str | None = None) -> tuple[StanceNet, Any]:
    """(network with a fresh head, tokenizer) on the base model in ``path``."""
    encoder, tokenizer = load_encoder(path, attention)
    net = StanceNet(encoder, int(encoder.config.hidden_size))
    return net, tokenizer


MAX_CLAIM_TOKENS = 64  # a claim framed with its question; longer ones are cut at the end
HEAD_SHARE = 0.25  # of a text that does not fit, the share kept from its start


def pair_ids(
    tokenizer: Any, claims: Sequence[str], texts: Sequence[str], max_len: int
) -> tuple[list[list[int]], list[list[int]]]:
    """Token ids and token types of ``[CLS] claim [SEP] text [SEP]`` for each pair.

    A text too long for ``max_len`` keeps its start and its end and loses its
    middle (head + tail truncation, Sun et al. 2019, "How to Fine-Tune BERT for
    Text Classification?", §5.3.1): an essay that opens with a story or a
    concession states its side at the end, which cutting the end would lose.
    """
    c_ids = tokenizer(list(claims), add_special_tokens=False)["input_ids"]
    t_ids = tokenizer(list(texts), add_special_tokens=False)["input_ids"]
    cls, sep = int(tokenizer.cls_token_id), int(tokenizer.sep_token_id)
    ids_out: list[list[int]] = []
    types_out: list[list[int]] = []
    for c, t in zip(c_ids, t_ids, strict=True):
        c = c[:MAX_CLAIM_TOKENS]
        budget = max(1, max_len - len(c) - 3)
        if len(t) > budget:
            head = int(budget * HEAD_SHARE)
            t = t[:head] + t[len(t) - (budget - head) :]
        ids_out.append([cls, *c, sep, *t, sep])
        types_out.append([0] * (len(c) + 2) + [1] * (len(t) + 1))
    return ids_out, types_out


def padded(
    ids: Sequence[Sequence[int]], types: Sequence[Sequence[int]], pad_id: int, multiple: int = 1
) -> dict[str, torch.Tensor]:
    """Tensors for a batch of sequences, padded to the longest (rounded up to ``multiple``)."""
    width = max(len(x) for x in ids)
    width = -(-width // multiple) * multiple
    input_ids = torch.full((len(ids), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(ids), width), dtype=torch.long)
    token_types = torch.zeros((len(ids), width), dtype=torch.long)
    for r, (x, t) in enumerate(zip(ids, types, strict=True)):
        input_ids[r, : len(x)] = torch.tensor(x)
        mask[r, : len(x)] = 1
        token_types[r, : len(t)] = torch.tensor(t)
    return {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": token_types}


def encode(
    tokenizer: Any, claims: Sequence[str], texts: Sequence[str], max_len: int
) -> dict[str, torch.Tensor]:
    """Token tensors for (claim, text) pairs (:func:`pair_ids`), padded to the longest
    in the batch, rounded up to a multiple of 16 (few distinct shapes: the CPU kernels
    are built once each)."""
    ids, types = pair_ids(tokenizer, claims, texts, max_len)
    return padded(ids, types, int(tokenizer.pad_token_id or 0), multiple=16)


def predict(
    net: StanceNet,
    tokenizer: Any,
    claims: Sequence[str],
    texts: Sequence[str],
    *,
    max_len: int,
    batch_size: int = 64,
    bf16: bool = False,
    workers: Workers | None = None,
) -> torch.Tensor:
    """(n, 3) log-probabilities for (claim, text) pairs (eval mode).

    The pairs are tokenized once, sorted by token count and cut into batches
    of similar lengths (:func:`length_batches`), each padded only to its own
    longest sequence: padding is masked out of attention and pooling, so the
    result is that of one pair at a time, to float tolerance, at a fraction of
    the padded tokens. With ``bf16`` lengths are padded to multiples of 16 (few
    distinct shapes: oneDNN's bf16 kernels are built once per shape). With
    ``workers`` the batches run on those threads, the longest first, and there
    are at least as many batches as threads when there are enough pairs.
    """
    n = len(texts)
    out = torch.zeros((n, N_LABELS), dtype=torch.float32)
    if not n:
        return out
    ids, types = pair_ids(tokenizer, claims, texts, max_len)
    step = 16 if bf16 else 1
    lengths = [-(-len(x) // step) * step for x in ids]
    order = sorted(range(n), key=lengths.__getitem__)
    pad_id = int(tokenizer.pad_token_id or 0)
    size = min(batch_size, -(-n // workers.n)) if workers else batch_size
    batches: list[tuple[list[int], dict[str, torch.Tensor]]] = []
    for s, e in length_batches([lengths[i] for i in order], size, BATCH_OVERHEAD_TOKENS):
        idx = order[s:e]
        batch = padded([ids[i] for i in idx], [types[i] for i in idx], pad_id, multiple=step)
        batches.append((idx, batch))
    batches.sort(key=lambda b: -b[1]["input_ids"].numel())  # longest first: the last are short

    def run(batch: tuple[list[int], dict[str, torch.Tensor]]) -> torch.Tensor:
        # inference mode and autocast are per thread: entered on the thread that runs
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            return torch.log_softmax(net(**batch[1]).float(), dim=-1)

    was_training = net.training
    net.eval()
    try:
        results = workers.map(run, batches) if workers else [run(b) for b in batches]
    finally:
        net.train(was_training)
    for (idx, _), lp in zip(batches, results, strict=True):
        out[idx] = lp
    return out


def predict_each(
    net: StanceNet, tokenizer: Any, claims: Sequence[str], texts: Sequence[str], *, max_len: int
) -> torch.Tensor:
    """(n, 3) log-probabilities one pair at a time, no padding: the reference
    :func:`predict` is tested against."""
    out = torch.zeros((len(texts), N_LABELS), dtype=torch.float32)
    was_training = net.training
    net.eval()
    ids, types = pair_ids(tokenizer, claims, texts, max_len)
    with torch.inference_mode():
        for i, (x, t) in enumerate(zip(ids, types, strict=True)):
            batch = padded([x], [t], int(tokenizer.pad_token_id or 0))
            out[i] = torch.log_softmax(net(**batch)[0].float(), dim=-1)
    net.train(was_training)
    return out
