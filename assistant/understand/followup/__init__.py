"""Follow-ups: a turn with no topic of its own is an edit of the previous turn's plan.

The rules, their order and what each reads are in docs/ARCHITECTURE.md ("Follow-ups: the
rules"); :func:`resolve` applies them in that order (:mod:`.resolve`), one module per
rule, the learned readers in :mod:`.readers`, the tuning in one frozen
:class:`~.settings.ResolverSettings`.
"""

from __future__ import annotations

from assistant.understand.followup.edits import EDITS, FollowUp, Rule
from assistant.understand.followup.normalise import unwrap
from assistant.understand.followup.references import asked_about
from assistant.understand.followup.resolve import resolve

__all__ = ["EDITS", "FollowUp", "Rule", "asked_about", "resolve", "unwrap"]
