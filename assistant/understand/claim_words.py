"""The claim builder's words and forms (``words/claims.yaml``), checked by the vocabulary's
schema (:class:`assistant.understand.vocab.Claims`): every phrase lower case, no list
repeats one, labels only for a known language, each form with the slot the builder fills.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from assistant.errors import DataError
from assistant.understand.vocab import VOCAB, Claims

ClaimWords = Claims


def read_words(data: Any, where: str = "words/claims.yaml") -> Claims:
    """Validate already-loaded YAML data (a :class:`DataError` names the field)."""
    try:
        return Claims.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(file)"
        raise DataError(f"{where}: {field}: {err['msg']}") from None


def words() -> Claims:
    """The bundled claim words (read once, with the rest of the vocabulary)."""
    return VOCAB.claims
