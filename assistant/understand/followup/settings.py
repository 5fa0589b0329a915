"""The resolver's tuning: one frozen object, every threshold of the learned readers.

Every value was chosen on the development dialogue sets, each set held out in turn and
read with models trained on the others (``eval-results/2026-11-26/
rule9_leave_one_set_out.txt``, ``eval-results/2026-11-27/
turn_reader_resolver_cross_validation.txt``). ``config.yaml`` can change them
(``followup.tuning``) and so can ``sphere eval conversation --use NAME=VALUE``: both
build a changed copy (:meth:`ResolverSettings.replaced`); nothing changes the defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from assistant.errors import InputError

#: the kinds whose value is a span of the turn (a facet, a dropped facet, a group)
SPAN_KINDS = ("add_aspect", "drop_aspect", "add_perspective")
#: the rules whose reading the learned readers may overrule when sure of another kind
SECOND_OPINION_RULES = frozenset((2, 3, 4, 5, 6, 7))


@dataclass(frozen=True)
class ResolverSettings:
    """How the resolver uses the turn-kind model, the side reader, the stance model and the
    fine-tuned turn reader (:mod:`assistant.understand.followup.readers`)."""

    #: rule 8: how sure the kind must be of a request for more or for one side
    min_p: float = 0.5
    #: rule 8: how sure the logistic side reader must be of pro or con (round 8)
    side_reader_p: float = 0.5
    #: rule 8: how sure the stance model must be of a claimed side (its share of P(A) + P(B))
    claimed_side_p: float = 0.5
    #: rule 9: how sure the kind must be before a lenient reader of that kind reads the turn
    #: (the facet's 0.7 became 0.6 with the turn reader, in round 9's cross-validation)
    lenient_add_constraint: float = 0.5
    lenient_add_aspect: float = 0.6
    #: rule 9: a facet with no frame, the turn's own words
    lenient_add_aspect_unframed: float = 0.8
    lenient_add_perspective: float = 0.5
    lenient_drop_aspect: float = 0.5
    #: a reading of rules 2-7 is overruled by another kind at least this sure (0.9 in round
    #: 7, 0.8 with the turn reader)
    second_opinion_p: float = 0.8
    #: the turn reader's share of the kind probability; the rest is the turn-kind model's
    weight: float = 0.5
    #: rule 9 takes a facet's, dropped facet's or group's value from the reader's span
    #: before the frame readers (False: only where they find nothing)
    span_first: bool = True
    #: how sure the span must be, P(start) · P(end)
    span_p: float = 0.0
    #: how sure the reader's side must be to name the side of a request that names none
    side_p: float = 0.5
    #: rule 9's constraint with no value the finders read: the reader's dimension, if at
    #: least this sure, with that dimension's value from the turn's words (above 1: never)
    dimension_p: float = 0.5
    #: a facet, dropped facet or group that rules 5-7 read is replaced by the reader's
    #: span when the reader reads the same kind at least this surely and the two share
    #: under half their content words (above 1: never)
    override_p: float = 1.01
    #: rule 9 takes the frame readers' value over the reader's span when it holds every
    #: content word of the span and more ("dentists" -> "dentists of the NHS")
    extend_span: bool = True
    #: when no kind is sure enough but the turn is an edit of some kind at least this
    #: surely (1 - P(new topic)), rule 9 tries the likeliest kinds' readers in turn
    #: (above 1: never)
    edit_sure_p: float = 1.01

    def lenient_p(self, kind: str) -> float:
        """Rule 9's threshold for ``kind`` (``add_aspect_unframed`` included)."""
        return float(getattr(self, f"lenient_{kind}"))

    def replaced(self, changes: Mapping[str, Any]) -> ResolverSettings:
        """A copy with ``changes`` (name -> value, a value as typed is converted);
        :class:`InputError` names an unknown setting or a value of the wrong kind."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        typed: dict[str, Any] = {}
        for raw_name, value in changes.items():
            name = _ALIASES.get(raw_name.strip(), raw_name.strip().lower())
            f = fields.get(name)
            if f is None:
                raise InputError(
                    f"{raw_name!r} is not a setting of the follow-up resolver",
                    hint="one of " + ", ".join(sorted(fields)),
                )
            typed[name] = _convert(name, f.type, value)
        return dataclasses.replace(self, **typed)

    def with_uses(self, uses: Iterable[str]) -> ResolverSettings:
        """A copy with ``NAME=VALUE`` settings (``sphere eval conversation --use``)."""
        changes: dict[str, str] = {}
        for use in uses:
            name, sep, value = use.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise InputError(f"--use {use!r}: expected NAME=VALUE")
            changes[name] = value
        return self.replaced(changes)


def _convert(name: str, kind: Any, value: Any) -> float | bool:
    if kind in (bool, "bool"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise InputError(f"{name}: {value!r} is not true or false")
        return text in ("1", "true", "yes", "on")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name}: {value!r} is not a number") from None


# the names the settings had as module globals before issue 35 (--use accepted them)
_ALIASES = {
    "MIN_P": "min_p",
    "SIDE_P": "side_reader_p",
    "CLAIMED_SIDE_P": "claimed_side_p",
    "SECOND_OPINION_P": "second_opinion_p",
    **{
        f"LENIENT_P.{k}": f"lenient_{k}"
        for k in (
            "add_constraint",
            "add_aspect",
            "add_aspect_unframed",
            "add_perspective",
            "drop_aspect",
        )
    },
}

DEFAULTS = ResolverSettings()
