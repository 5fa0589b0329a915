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

N_LABELS = 3


class StanceNet(nn.Module):
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

    def freeze_embeddings(self) -> None:
        embeddings: nn.Module = self.encoder.embeddings  # type: ignore[assignment]
        for p in embeddings.parameters():
            p.requires_grad_(False)

    def trained_state(self) -> dict[str, torch.Tensor]:
        """The parameters that training changes (layers and head), by name."""
        return {
            k: v
            for k, v in self.state_dict().items()
            if not k.startswith("encoder.embeddings.") and "position_ids" not in k
        }


def load_base(path: Path) -> tuple[StanceNet, Any]:
    """(network with a fresh head, tokenizer) on the base model in ``path``."""
    from assistant.offline import go_offline

    go_offline()
    from transformers import AutoModel, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    encoder = AutoModel.from_pretrained(str(path), add_pooling_layer=False)
    net = StanceNet(encoder, int(encoder.config.hidden_size))
    return net, tokenizer


def encode(
    tokenizer: Any, claims: Sequence[str], texts: Sequence[str], max_len: int
) -> dict[str, torch.Tensor]:
    """Token tensors for (claim, text) pairs, padded to the longest in the batch."""
    enc = tokenizer(
        list(claims),
        list(texts),
        truncation="longest_first",
        max_length=max_len,
        padding=True,
        pad_to_multiple_of=16,  # few distinct shapes: the CPU kernels are built once each
        return_tensors="pt",
    )
    if "token_type_ids" not in enc:
        enc["token_type_ids"] = torch.zeros_like(enc["input_ids"])
    return {k: enc[k] for k in ("input_ids", "attention_mask", "token_type_ids")}


def predict(
    net: StanceNet,
    tokenizer: Any,
    claims: Sequence[str],
    texts: Sequence[str],
    *,
    max_len: int,
    batch_size: int = 64,
    bf16: bool = False,
) -> torch.Tensor:
    """(n, 3) log-probabilities for (claim, text) pairs, batched by length (eval mode)."""
    n = len(texts)
    out = torch.zeros((n, N_LABELS), dtype=torch.float32)
    if not n:
        return out
    order = sorted(range(n), key=lambda i: len(claims[i]) + len(texts[i]))
    was_training = net.training
    net.eval()
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        for s in range(0, n, batch_size):
            idx = order[s : s + batch_size]
            enc = encode(tokenizer, [claims[i] for i in idx], [texts[i] for i in idx], max_len)
            out[idx] = torch.log_softmax(net(**enc).float(), dim=-1)
    net.train(was_training)
    return out
