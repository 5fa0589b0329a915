"""The bundled demo corpus (fictional documents written for the demo) and its index.

The corpus ships inside the package, so ``sphere index demo`` (and the app's
"no index" screen) can build the demo index on any machine, from any folder.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from assistant.errors import IndexNotFoundError

DEMO_INDEX = "demo"
DEMO_FIELDS: dict[str, Any] = {
    "id_field": "id",
    "text_field": "text",
    "title_field": "title",
    "source_field": "source",
}


def explain_missing(exc: IndexNotFoundError) -> IndexNotFoundError:
    """A missing demo index is built from the corpus that ships with Sphere: the error's
    hint says so (the index layer knows no demo)."""
    if exc.index_name != DEMO_INDEX:
        return exc
    have = exc.available
    hint = (f"available: {', '.join(have)}; " if have else "") + (
        "build it from the demo corpus that ships with Sphere: `sphere index demo`"
    )
    return IndexNotFoundError(exc.message, hint=hint, index_name=exc.index_name, available=have)


def demo_corpus_path() -> Path:
    """The packaged ``corpus.jsonl`` (a real file: the package is installed unzipped)."""
    return Path(str(resources.files(__name__).joinpath("corpus.jsonl")))


def build_demo_index(
    settings: Any,
    *,
    name: str = DEMO_INDEX,
    rebuild: bool = False,
    embedder: Any = None,
    progress: Any = None,
) -> Any:
    """Build (or bring up to date) the demo index in ``settings.index_dir``.

    Returns the :class:`~assistant.index.build.BuildReport`. ``embedder``
    defaults to the configured one, loaded only if something needs embedding.
    """
    from assistant.embed import lazy_embedder_from_settings
    from assistant.index.build import build_index, options_from_settings
    from assistant.ingest.loaders import FieldMapping

    options = options_from_settings(settings, FieldMapping(**DEMO_FIELDS), rebuild=rebuild)
    if name == DEMO_INDEX:
        options.resume = "sphere index demo"
    return build_index(
        settings.index_dir,
        name,
        [demo_corpus_path()],
        embedder or lazy_embedder_from_settings(settings),
        options,
        progress,
    )
