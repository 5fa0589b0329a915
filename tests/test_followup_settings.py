"""The follow-up resolver's tuning: one frozen object, changed only by making a copy."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from assistant.config import load_settings
from assistant.errors import ConfigError, InputError
from assistant.understand.facet_judge import FacetJudge
from assistant.understand.followup.settings import DEFAULTS, ResolverSettings


def test_the_defaults_cannot_be_changed_in_place() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULTS.min_p = 0.9  # type: ignore[misc]


def test_a_use_builds_a_changed_copy() -> None:
    changed = DEFAULTS.with_uses(["second_opinion_p=0.9", "span_first=false"])
    assert (changed.second_opinion_p, changed.span_first) == (0.9, False)
    assert (DEFAULTS.second_opinion_p, DEFAULTS.span_first) == (0.8, True)


@pytest.mark.parametrize(
    ("use", "field", "value"),
    [
        ("MIN_P=0.6", "min_p", 0.6),  # listed as allowed before issue 35, and refused
        ("min_p=0.6", "min_p", 0.6),
        ("LENIENT_P.add_aspect=0.7", "lenient_add_aspect", 0.7),
        ("CLAIMED_SIDE_P=0.55", "claimed_side_p", 0.55),
    ],
)
def test_the_old_names_still_work(use: str, field: str, value: float) -> None:
    assert getattr(DEFAULTS.with_uses([use]), field) == value


@pytest.mark.parametrize("use", ["min_pp=0.6", "min_p", "min_p=high", "span_first=maybe"])
def test_a_bad_use_is_refused_by_name(use: str) -> None:
    with pytest.raises(InputError):
        DEFAULTS.with_uses([use])


def test_lenient_thresholds_by_kind() -> None:
    assert DEFAULTS.lenient_p("add_aspect") < DEFAULTS.lenient_p("add_aspect_unframed")


def test_config_yaml_reaches_the_judge(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("followup:\n  tuning:\n    min_p: 0.7\n    span_first: false\n")
    settings = load_settings(cfg, environ={})
    judge = FacetJudge(embedder=None)
    judge.configure(settings)
    assert isinstance(judge.settings, ResolverSettings)
    assert (judge.settings.min_p, judge.settings.span_first) == (0.7, False)
    assert DEFAULTS.min_p == 0.5


def test_an_unknown_tuning_names_the_key_and_the_file(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("followup:\n  tuning:\n    min_pp: 0.7\n")
    with pytest.raises(ConfigError) as err:
        load_settings(cfg, environ={})
    assert "min_pp" in str(err.value) and str(cfg) in str(err.value)
