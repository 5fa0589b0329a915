"""The learned readers of one turn: the turn-kind regression
(:mod:`assistant.understand.turn_kind`) and the fine-tuned turn reader
(:mod:`assistant.understand.reader`), each computed once, their kind distributions
mixed by the settings' ``weight``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.models import QueryPlan
from assistant.understand.followup.edits import EDITS
from assistant.understand.followup.settings import DEFAULTS, ResolverSettings

if TYPE_CHECKING:  # the judge imports the resolver settings: no import cycle at run time
    from assistant.understand.facet_judge import FacetJudge


def settings_of(judge: object) -> ResolverSettings:
    """The resolver settings a judge carries (``FacetJudge.settings``), else the defaults."""
    settings = getattr(judge, "settings", None)
    return settings if isinstance(settings, ResolverSettings) else DEFAULTS


class _Turn:
    """One turn being resolved: its text as typed and the plan it would edit, with the
    turn reader's reading computed once, when a rule first asks for it."""

    def __init__(self, judge: FacetJudge | None, raw: str, previous: QueryPlan) -> None:
        self.judge, self.raw, self.previous = judge, raw, previous
        self.settings = settings_of(judge)
        self._reading: Any = ...
        self._kinds: dict[str, dict[str, float] | None] = {}

    def reading(self) -> Any:
        if self._reading is ...:
            read = getattr(self.judge, "read", None)
            self._reading = read(self.raw, self.previous) if read is not None else None
        return self._reading

    def kind(self, text: str) -> tuple[str, float] | None:
        """The kind of the turn and its probability: the turn-kind model's distribution
        and the reader's, mixed by ``settings.weight`` (either alone when the other is
        missing)."""
        judge = self.judge
        if judge is None:
            return None
        mixed = self.kinds(text)
        if mixed is None:
            return judge.kind(text, self.previous.root_query or self.previous.question)
        best = max(mixed, key=mixed.__getitem__)
        return best, mixed[best]

    def kinds(self, text: str) -> dict[str, float] | None:
        """The mixed distribution over the edit kinds (:meth:`kind`), or None when neither
        model gives one; computed once per text."""
        if text not in self._kinds:
            self._kinds[text] = self._mixed(text)
        return self._kinds[text]

    def _mixed(self, text: str) -> dict[str, float] | None:
        judge = self.judge
        if judge is None:
            return None
        topic = self.previous.root_query or self.previous.question
        lr = judge.kind_probs(text, topic) if hasattr(judge, "kind_probs") else None
        reading = self.reading() if self.settings.weight > 0 else None
        if lr is None and reading is None:
            return None
        w = (
            self.settings.weight
            if lr is not None and reading is not None
            else (reading is not None)
        )
        return {
            k: (1 - w) * (lr.get(k, 0.0) if lr is not None else 0.0)
            + w * (reading.kinds.get(k, 0.0) if reading is not None else 0.0)
            for k in EDITS
        }
