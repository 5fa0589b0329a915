"""The claim builder's words and forms (``claims.yaml``), loaded once and validated.

Every phrase is lower case and no list repeats one; every language of the labels
is a known one; each form names the slots the builder fills. A bad file is a
:class:`~assistant.errors.DataError` naming the field, raised on first use.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from assistant.errors import DataError

_FILE = "claims.yaml"


def _phrases(value: list[str]) -> list[str]:
    cleaned = [" ".join(v.split()) for v in value]
    for v in cleaned:
        if not v or v != v.lower():
            raise ValueError(f"{v!r} must be a non-empty lower-case phrase")
    seen: set[str] = set()
    for v in cleaned:
        if v in seen:
            raise ValueError(f"{v!r} is listed twice")
        seen.add(v)
    return cleaned


class Auxiliaries(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    be: list[str]
    do: list[str]
    have: list[str]
    modal: list[str]

    _check = field_validator("be", "do", "have", "modal")(_phrases)

    def kind(self, word: str) -> str | None:
        """``be``, ``do``, ``have`` or ``modal`` for an auxiliary, else None."""
        w = word.lower()
        for name in ("be", "do", "have", "modal"):
            if w in getattr(self, name):
                return name
        return None


class Form(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    pro: str
    con: str


class Forms(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    noun_phrase: Form
    verb_phrase: Form

    @model_validator(mode="after")
    def _slots(self) -> Forms:
        for name, slot in (("noun_phrase", "{topic}"), ("verb_phrase", "{vp}")):
            form: Form = getattr(self, name)
            for side in (form.pro, form.con):
                if slot not in side:
                    raise ValueError(f"forms.{name}: {side!r} has no {slot}")
        return self


class Labels(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    yes: str
    no: str
    pro: str
    con: str


class ClaimWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    template_words: list[str]
    auxiliaries: Auxiliaries
    contraction_stems: dict[str, str]
    lead_ins: list[str]
    topic_frames: list[str]
    topic_tail_nouns: list[str]
    topic_tails: list[str]
    request_verbs: list[str]
    request_objects: list[str]
    wh_words: list[str]
    statement_leads: list[str]
    forms: Forms
    languages: list[str]
    labels: dict[str, Labels]

    _check = field_validator(
        "template_words",
        "lead_ins",
        "topic_frames",
        "topic_tail_nouns",
        "topic_tails",
        "request_verbs",
        "request_objects",
        "wh_words",
        "statement_leads",
    )(_phrases)

    @model_validator(mode="after")
    def _known(self) -> ClaimWords:
        unknown = sorted(set(self.labels) - set(self.languages))
        if unknown:
            raise ValueError(f"labels for unknown language {unknown[0]!r}")
        if "en" not in self.labels:
            raise ValueError("labels need English (en), the fallback")
        for stem, aux in self.contraction_stems.items():
            if self.auxiliaries.kind(aux) is None:
                raise ValueError(f"contraction_stems: {stem!r} maps to {aux!r}, not an auxiliary")
        return self

    def aux_kind(self, word: str) -> str | None:
        """The kind of an auxiliary as typed ("shouldn't") or as spaCy tokenizes it (``ca``
        of "can't" is ``can``)."""
        return self.auxiliaries.kind(self.aux_word(word))

    def aux_word(self, word: str) -> str:
        """The auxiliary itself (``ca`` -> ``can``, "shouldn't" -> ``should``), lower case."""
        w = word.lower().replace("’", "'")
        if w.endswith("n't") and len(w) > 3:
            w = w[:-3]
        return self.contraction_stems.get(w, w)

    def label(self, language: str) -> Labels:
        return self.labels.get(language) or self.labels["en"]


def read_words(data: Any, where: str = _FILE) -> ClaimWords:
    """Validate already-loaded YAML data (a :class:`DataError` names the field)."""
    try:
        return ClaimWords.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(file)"
        raise DataError(f"{where}: {field}: {err['msg']}") from None


@functools.cache
def words() -> ClaimWords:
    """The bundled ``claims.yaml`` (read once)."""
    text = resources.files("assistant.understand").joinpath(_FILE).read_text(encoding="utf-8")
    return read_words(yaml.safe_load(text))
