"""The stance model at run time: which claim a text supports, with a probability.

:class:`StanceModel` loads the bundled all-MiniLM-L6-v2 weights (the
embedder's package), applies the shipped artifact
(``assistant/stance/weights/stance-minilm.safetensors``,
:mod:`~assistant.stance.artifact`) and answers two questions:

* :meth:`StanceModel.claim_probs` — P(supports), P(opposes), P(neither) of a
  text for one claim;
* :meth:`StanceModel.sides` / :meth:`StanceModel.document_sides` — which of
  the plan's two claims a text (or a document, from its sentences) stands
  under, or neither, calibrated (:mod:`~assistant.stance.side`);
* :meth:`StanceModel.judge_documents` — the judgment the product uses: each
  document given as its passages, each passage judged by the model's unit
  (``unit`` in its card: a model trained on paragraphs reads a passage whole,
  up to its ``max_len`` tokens; a sentence model reads the passage's sentences
  and sums them), the document from its passages (:func:`document_sides`).

Judgments are cached by (claim, text), so the retriever, the summarizer and
the verifier of one answer pay for each sentence once. Inference runs in
float32 on every CPU; results agree across CPUs to float tolerance, not bit
for bit.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import ModelError
from assistant.stance.data import frame
from assistant.stance.side import document_sides, side_logits, softmax

ARTIFACT_NAME = "stance-minilm.safetensors"
SENTENCE_MAX_LEN = 96
DOCUMENT_MAX_LEN = 256
SIDE_LABELS = ("A", "B", "neither")
UNITS = ("sentence", "passage")


def bundled_artifact() -> Path:
    """The artifact shipped inside the package."""
    return Path(str(resources.files("assistant.stance") / "weights" / ARTIFACT_NAME))


@dataclass(frozen=True)
class DocumentJudgement:
    """A document's side from its passages, and each passage's own."""

    side: SideJudgement
    passages: list[SideJudgement]


@dataclass(frozen=True)
class SideJudgement:
    """Which claim a text stands under: ``side`` 0 = A, 1 = B, 2 = neither."""

    side: int
    p: tuple[float, float, float]  # (A, B, neither)

    @property
    def confidence(self) -> float:
        return self.p[self.side]

    def to_dict(self) -> dict[str, Any]:
        return {"side": SIDE_LABELS[self.side], "p": [round(x, 4) for x in self.p]}


class StanceModel:
    """The trained stance cross-encoder (see the module docstring)."""

    def __init__(self, net: Any, tokenizer: Any, card: dict[str, Any], path: Path) -> None:
        self.net = net
        self.tokenizer = tokenizer
        self.card = card
        self.path = path
        self.temperature = float(card.get("temperature", 1.0))
        self.sha256 = str(card.get("sha256", ""))
        config = card.get("config") or {}
        # what one judgment reads: a sentence (models trained on sentences, up to E3) or a
        # passage whole (round 10's paragraph model), and to how many tokens
        self.unit = str(config.get("unit") or "sentence")
        if self.unit not in UNITS:
            raise ModelError(f"{path}: unknown judgment unit {self.unit!r} in the model card")
        self.max_len = int(config.get("max_len") or DOCUMENT_MAX_LEN)
        self._cache: OrderedDict[tuple[str, str, int], np.ndarray] = OrderedDict()
        self._cache_size = 20000
        self._lock = threading.Lock()
        # seconds spent in the network and texts judged (cache misses), for benchmarks
        self.seconds = 0.0
        self.judged = 0

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: Path | None = None, base: Path | None = None) -> StanceModel:
        from assistant.embed import bundled_model_path
        from assistant.stance.artifact import apply_artifact, read_card
        from assistant.stance.net import load_base

        path = path or bundled_artifact()
        if not path.exists():
            raise ModelError(
                f"the stance model is missing: {path}",
                hint="reinstall Sphere, or train one with `sphere train stance`",
            )
        card = read_card(path)
        net, tok = load_base(base or bundled_model_path())
        apply_artifact(net, path, card)
        net.eval()
        return cls(net, tok, card, path)

    def info(self) -> dict[str, Any]:
        """What the session log records about the model."""
        return {
            "path": str(self.path),
            "sha256": self.sha256,
            "run_id": self.card.get("run_id", ""),
            "temperature": self.temperature,
            "unit": self.unit,
        }

    # ------------------------------------------------------------------ judgments
    def claim_probs(
        self, claims: Sequence[str], texts: Sequence[str], *, max_len: int = SENTENCE_MAX_LEN
    ) -> np.ndarray:
        """(n, 3) P(supports), P(opposes), P(neither) of ``texts[i]`` for ``claims[i]``."""
        from assistant.stance.net import predict

        n = len(texts)
        out = np.zeros((n, 3), np.float64)
        # each distinct pair not in the cache, once: key -> the rows that want it
        todo: dict[tuple[str, str, int], list[int]] = {}
        with self._lock:
            for i in range(n):
                key = (claims[i], texts[i], max_len)
                hit = self._cache.get(key)
                if hit is not None:
                    self._cache.move_to_end(key)
                    out[i] = hit
                else:
                    todo.setdefault(key, []).append(i)
        if todo:
            keys = list(todo)
            t0 = time.perf_counter()
            lp = predict(
                self.net,
                self.tokenizer,
                [k[0] for k in keys],
                [k[1] for k in keys],
                max_len=max_len,
                workers=self._batch_workers(),
            ).numpy()
            probs = np.exp(lp.astype(np.float64))
            self.seconds += time.perf_counter() - t0
            self.judged += len(keys)
            with self._lock:
                for j, key in enumerate(keys):
                    out[todo[key]] = probs[j]
                    self._cache[key] = probs[j]
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        return out

    def _batch_workers(self) -> Any:
        """One thread per usable core (at most eight), each running whole
        batches on one torch thread (:func:`~assistant.workers.shared_workers`).

        The count comes from the cores this process may run on, not from
        ``torch.get_num_threads()``: torch and FAISS share one OpenMP runtime, and
        the index sets FAISS (so torch) to one thread for its queries, which left
        the stance model on one core in the app (1.48 s for 170 demo pairs on
        2 cores; 0.8 s with two workers).
        """
        from assistant.workers import shared_workers

        return shared_workers()

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def side_logits(
        self,
        question: str,
        claims: tuple[str, str],
        texts: Sequence[str],
        *,
        max_len: int = SENTENCE_MAX_LEN,
    ) -> np.ndarray:
        """(n, 3) side scores (A, B, neither) of each text, before calibration."""
        a, b = (frame(question, c) for c in claims)
        n = len(texts)
        p = self.claim_probs([a] * n + [b] * n, [*texts, *texts], max_len=max_len)
        return side_logits(p[:n], p[n:])

    def sides(
        self,
        question: str,
        claims: tuple[str, str],
        texts: Sequence[str],
        *,
        max_len: int = DOCUMENT_MAX_LEN,
    ) -> list[SideJudgement]:
        """Each text judged as a whole against both claims."""
        p = softmax(self.side_logits(question, claims, texts, max_len=max_len), self.temperature)
        return [_judgement(row) for row in p]

    def sentence_sides(
        self, question: str, claims: tuple[str, str], sentences: Sequence[str]
    ) -> list[SideJudgement]:
        """Each sentence read alone against both claims (a quote: does it, on its own,
        argue the claim it is quoted under?), at the sentence window."""
        return self.sides(question, claims, sentences, max_len=SENTENCE_MAX_LEN)

    def document_sides(
        self,
        question: str,
        claims: tuple[str, str],
        sentences: Sequence[str],
        owner: Sequence[int],
        n_docs: int,
    ) -> tuple[list[SideJudgement], np.ndarray]:
        """(per document, per sentence (n, 3) probabilities) from sentence judgments."""
        z = self.side_logits(question, claims, sentences)
        docs = document_sides(z, np.asarray(owner, np.int64), n_docs, self.temperature)
        return [_judgement(row) for row in docs], softmax(z, self.temperature)

    def judge_documents(
        self, question: str, claims: tuple[str, str], docs: Sequence[Sequence[str]]
    ) -> list[DocumentJudgement]:
        """Each document (its passages' texts) placed under claim A, B or neither.

        A passage model judges every passage whole (:meth:`side_logits` at the
        card's ``max_len``); a sentence model judges the passage's sentences and
        a passage's side is theirs summed (:func:`document_sides`). A document's
        side sums its passages the same way: its log-odds are the passages'
        weighted by how much each takes a side, so a passage of background
        neither dilutes nor decides it.
        """
        from assistant.summarize.evidence import sentence_spans

        units: list[str] = []
        unit_owner: list[int] = []  # unit -> passage (global index)
        passage_owner: list[int] = []  # passage -> document
        for d, passages in enumerate(docs):
            for text in passages:
                k = len(passage_owner)
                passage_owner.append(d)
                if self.unit == "passage":
                    units.append(text)
                    unit_owner.append(k)
                    continue
                for s, e in sentence_spans(text) or [(0, len(text))]:
                    units.append(text[s:e])
                    unit_owner.append(k)
        max_len = self.max_len if self.unit == "passage" else SENTENCE_MAX_LEN
        z = self.side_logits(question, claims, units, max_len=max_len)
        t = self.temperature
        if self.unit == "passage":
            per_passage = softmax(z, t)
        else:
            per_passage = document_sides(z, np.asarray(unit_owner, np.int64), len(passage_owner), t)
        # a passage's logits, scaled so that softmax(zp / T) is its probabilities again
        zp = t * np.log(np.clip(per_passage, 1e-12, 1.0))
        out: list[DocumentJudgement] = []
        k = 0
        for passages in docs:
            n = len(passages)
            own = per_passage[k : k + n]
            if n == 1:
                whole = own[0]
            elif n == 0:
                whole = np.array([0.0, 0.0, 1.0])
            else:
                whole = document_sides(zp[k : k + n], np.zeros(n, np.int64), 1, t)[0]
            k += n
            out.append(DocumentJudgement(_judgement(whole), [_judgement(row) for row in own]))
        return out


def _judgement(p: np.ndarray) -> SideJudgement:
    return SideJudgement(int(np.argmax(p)), (float(p[0]), float(p[1]), float(p[2])))


_LOADED: dict[str, StanceModel] = {}
_LOAD_LOCK = threading.Lock()


def shared_model(path: Path | None = None) -> StanceModel:
    """One loaded model per artifact path in this process."""
    key = str(path or bundled_artifact())
    with _LOAD_LOCK:
        model = _LOADED.get(key)
        if model is None:
            model = StanceModel.load(Path(key))
            _LOADED[key] = model
        return model
