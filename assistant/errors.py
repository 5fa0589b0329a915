"""One family of user-facing errors.

Every error a person can cause (bad path, unknown index, bad config key, empty
question, missing model) is a :class:`SphereError` with a title and a message
that says what to do. The CLI prints ``title: message`` and exits with
``exit_code``; it never shows a traceback for these.
"""

from __future__ import annotations


class SphereError(Exception):
    """Base class: something the user can fix."""

    title = "Error"
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class ConfigError(SphereError):
    title = "Configuration error"
    exit_code = 2


class InputError(SphereError):
    """A bad argument: empty question, missing path, bad option value."""

    title = "Input error"
    exit_code = 2


class IndexNotFoundError(SphereError):
    title = "Index not found"
    exit_code = 3

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        index_name: str | None = None,
        available: list[str] | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.index_name = index_name
        self.available = list(available or [])


class IndexCorruptError(SphereError):
    title = "Index damaged"
    exit_code = 3


class IndexIncompleteError(SphereError):
    """A build of the index was interrupted; running it again resumes it."""

    title = "Index incomplete"
    exit_code = 3


class IndexMismatchError(SphereError):
    """The index was built with another embedder or settings."""

    title = "Index mismatch"
    exit_code = 3


class IngestError(SphereError):
    title = "Ingestion error"
    exit_code = 4


class ModelError(SphereError):
    """The language model or embedder could not be loaded or answered badly."""

    title = "Model error"
    exit_code = 5


class BackendUnavailableError(ModelError):
    title = "Model server unavailable"


class PromptError(SphereError):
    title = "Prompt error"
    exit_code = 5


class MissingVariableError(PromptError):
    title = "Prompt variable missing"


class StoreError(SphereError):
    title = "Session database error"
    exit_code = 6


class CancelledError(SphereError):
    title = "Cancelled"
    exit_code = 130


class DataError(SphereError):
    """A benchmark data file is missing or not in the expected format."""

    title = "Data error"
    exit_code = 2
