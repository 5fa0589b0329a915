"""Settings: ``config.yaml`` + ``SPHERE_…`` environment, one validated object.

Precedence (last wins): built-in defaults, one YAML file, environment
variables. The file is the first of: ``--config FILE``, ``$SPHERE_CONFIG``,
``./config.yaml`` in the current folder, ``$XDG_CONFIG_HOME/sphere/config.yaml``
(``~/.config/sphere/config.yaml``); with none, the defaults alone. Relative
paths in a file are relative to that file. Indexes live by default in
``$XDG_DATA_HOME/sphere/indexes`` (``~/.local/share/sphere/indexes``).

Environment variables: ``SPHERE_<KEY>`` for top-level keys
(``SPHERE_INDEX_DIR``) and ``SPHERE_<SECTION>__<KEY>`` for nested ones
(``SPHERE_LLM__MODEL``, ``SPHERE_RETRIEVAL__K``).

An unknown key is a :class:`~assistant.errors.ConfigError` naming the key and
the file it came from.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from assistant.errors import ConfigError
from assistant.ingest.chunk import DEFAULT_MAX_WORDS, DEFAULT_OVERLAP_WORDS

ENV_PREFIX = "SPHERE_"
DEFAULT_CONFIG_NAME = "config.yaml"
APP_DIR = "sphere"
CONFIG_SEARCH = "--config FILE, $SPHERE_CONFIG, ./config.yaml, $XDG_CONFIG_HOME/sphere/config.yaml"


def xdg_dir(variable: str, fallback: str, environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_…`` (when set to an absolute path, as the XDG spec asks) or ``~/fallback``."""
    value = (os.environ if environ is None else environ).get(variable, "")
    if value and Path(value).is_absolute():
        return Path(value)
    return Path.home() / fallback


def default_index_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where indexes live when no config file says: ``$XDG_DATA_HOME/sphere/indexes``."""
    return xdg_dir("XDG_DATA_HOME", ".local/share", environ) / APP_DIR / "indexes"


def user_config_file(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user settings file: ``$XDG_CONFIG_HOME/sphere/config.yaml``."""
    return xdg_dir("XDG_CONFIG_HOME", ".config", environ) / APP_DIR / DEFAULT_CONFIG_NAME


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class EmbedderSettings(_Section):
    model: str = Field("bundled", description="'bundled' (all-MiniLM-L6-v2) or a path")
    batch_size: int = Field(64, ge=1, le=4096)
    device: str = Field("cpu", description="torch device")
    max_seq_length: int = Field(256, ge=16, le=8192)


class LLMSettings(_Section):
    model: str = Field(
        "bundled",
        description="'bundled' (SmolLM2-135M GGUF), a GGUF path, or an http(s):// URL "
        "of an OpenAI-compatible server",
    )
    server_model: str = Field("", description="model name sent to an HTTP server")
    api_key: str = Field("", description="bearer token for an HTTP server")
    n_ctx: int = Field(4096, ge=256, le=262144)
    n_threads: int = Field(0, ge=0, description="0 = number of cores")
    max_tokens: int = Field(512, ge=1)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    seed: int = 0
    timeout: float = Field(60.0, gt=0, description="seconds per HTTP request")
    use: Literal["auto", "always", "never"] = Field(
        "auto",
        description="when to let the model refine the deterministic path: 'auto' uses it "
        "where the evaluation showed it helps",
    )


class ChunkSettings(_Section):
    max_words: int = Field(DEFAULT_MAX_WORDS, ge=8, le=4000)
    overlap_words: int = Field(DEFAULT_OVERLAP_WORDS, ge=0)

    @field_validator("overlap_words")
    @classmethod
    def _overlap_small(cls, v: int) -> int:
        return v


class RetrievalSettings(_Section):
    mode: Literal["sphere", "dense", "bm25", "hybrid"] = "sphere"
    k: int = Field(10, ge=1, le=1000, description="documents per side")
    candidates: int = Field(200, ge=1, le=100000, description="passages fetched per query")
    k_r: int = Field(1, ge=1, le=100, description="top-K_R passages averaged (late fusion)")
    pap_alpha: float = Field(1.0, ge=0.0, le=2.0)
    rrf_k: int = Field(60, ge=1)
    mmr_lambda: float = Field(0.7, ge=0.0, le=1.0)
    aspect_aggregator: Literal["amean", "gmean", "hmean", "min", "borda", "round_robin"] = "amean"


#: a summarized document is off-topic (not cited) when its best sentence's cosine with the
#: question is below this share of the best document's (HierSphere's relevance gate,
#: :func:`assistant.summarize.hiersphere.prepare`). Chosen among 0.4–0.8 by the F1 of
#: motion precision and recall on development pages where a question has several
#: relevant documents (ArguAna's debates, one page per argument); 0.8, chosen on pages
#: with one relevant page each, lost citation recall (docs/RETRIEVAL.md, "Relevance gate")
SUMMARY_RELEVANCE_RATIO = 0.4


class SummarySettings(_Section):
    documents: int = Field(20, ge=1, le=200, description="documents summarized")
    groups: int = Field(4, ge=1, le=50, description="local summarizers (HierSphere)")
    path: Literal["auto", "deterministic", "model"] = "auto"
    max_perspectives: int = Field(4, ge=1, le=20, description="per claim")
    relevance_ratio: float = Field(
        SUMMARY_RELEVANCE_RATIO,
        ge=0.0,
        le=1.0,
        description="a document whose best sentence's cosine with the question is below this "
        "share of the best document's is off-topic and not cited",
    )
    quote_relevance_ratio: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="experiment, off: a quoted sentence must itself reach this share of the "
        "best document's cosine with the question (docs/RETRIEVAL.md)",
    )


#: a document goes under a claim only at this probability or more: the value that placed
#: the most documents right minus wrong on the written corpus's dev split (round 13,
#: ``sphere eval stance --data tests/data/stance_corpus/dev.jsonl --split dev``, the
#: confidence table; docs/STANCE_MODEL.md); never chosen on an evaluation set
STANCE_MIN_CONFIDENCE = 0.50


class StanceSettings(_Section):
    model: str = Field(
        "bundled",
        description="'bundled' (the stance model shipped with Sphere), a .safetensors "
        "artifact from `sphere train stance`, or 'off' (sides from the claim margin)",
    )
    min_confidence: float = Field(
        STANCE_MIN_CONFIDENCE,
        ge=0.0,
        le=1.0,
        description="a document goes under a claim only when the model gives that claim "
        "at least this probability; below, its side is unclear and it is not cited",
    )
    documents: int = Field(20, ge=0, le=200, description="top documents retrieval judges")


class FollowupSettings(_Section):
    reader: str = Field(
        "bundled",
        description="the turn reader of follow-ups: 'bundled' (shipped with Sphere), a "
        ".safetensors artifact from `sphere train turn-reader`, or 'off' (the rules and the "
        "turn-kind model alone)",
    )
    tuning: dict[str, float | bool] = Field(
        default_factory=dict,
        description="thresholds of the follow-up resolver by name (min_p, second_opinion_p, "
        "lenient_add_aspect, side_p, …: assistant.understand.followup.settings); the "
        "defaults were chosen on the development dialogues",
    )

    @field_validator("tuning")
    @classmethod
    def _known_tuning(cls, value: dict[str, float | bool]) -> dict[str, float | bool]:
        if value:
            # imported only for a config that tunes the resolver: it loads the parser
            from assistant.errors import InputError
            from assistant.understand.followup.settings import DEFAULTS

            try:
                DEFAULTS.replaced(value)
            except InputError as exc:
                raise ValueError(f"{exc.message} ({exc.hint})") from None
        return value


class IndexSettings(_Section):
    flat_threshold: int = Field(
        200_000, ge=0, description="passages above which an approximate FAISS index is built"
    )
    approximate: Literal["ivf", "hnsw", "ivfpq"] = Field(
        "ivf", description="approximate FAISS index used above flat_threshold"
    )
    hnsw_m: int = Field(32, ge=4, le=256)
    ef_search: int = Field(128, ge=8)
    nprobe: int = Field(32, ge=1)
    pq_threshold: int = Field(
        5_000_000,
        ge=0,
        description="passages above which the compressed IVF-PQ index is built (0: only when "
        "approximate is ivfpq)",
    )
    pq_m: int = Field(48, ge=1, le=384, description="IVF-PQ code bytes a vector")
    opq: bool = Field(False, description="rotate vectors with OPQ before IVF-PQ")
    rescore: int = Field(
        1024, ge=1, description="IVF-PQ candidates re-scored exactly from the vector file"
    )
    ray_address: str = Field(
        "",
        description="Ray cluster for `sphere index build --ray` without an address "
        "('' = start a local one)",
    )
    max_file_mb: float = Field(
        200,
        gt=0,
        description="files larger than this (MB; a .gz: decompressed) are skipped with a message",
    )
    sentence_vectors_max_passages: int = Field(
        200_000,
        ge=0,
        description="an index of at most this many passages stores its sentences' vectors at "
        "build time, so an answer does not embed them (about 8 KB a passage; 0: never)",
    )


class LoggingSettings(_Section):
    """What ``sphere ask`` records in the session log, as the ``llm`` CLI logs prompts."""

    enabled: bool = Field(
        True,
        description="`sphere ask` records every answer in the session log (--no-log skips "
        "one; --log records one when this is false); the app always keeps its sessions",
    )


class UISettings(_Section):
    theme: str = "textual-dark"


class ModelsSettings(_Section):
    """Where ``sphere models list`` looks, besides the usual model folders."""

    servers: list[str] = Field(
        default_factory=lambda: ["http://127.0.0.1:8000/v1", "http://127.0.0.1:8080/v1"],
        description="OpenAI-compatible servers asked for GET /v1/models (loopback only)",
    )
    ollama: str = Field(
        "http://127.0.0.1:11434",
        description="Ollama's API, asked for GET /api/tags (loopback only); '' = do not ask",
    )
    folders: list[str] = Field(
        default_factory=list, description="more folders searched for .gguf files"
    )
    timeout: float = Field(0.5, gt=0, le=30, description="seconds per server asked")

    @field_validator("servers", "folders", mode="before")
    @classmethod
    def _comma_list(cls, v: Any) -> Any:
        # SPHERE_MODELS__SERVERS="http://127.0.0.1:8000/v1,http://127.0.0.1:9000/v1"
        if isinstance(v, str):
            return [x.strip() for x in v.split(",") if x.strip()]
        return v


class Settings(_Section):
    index_dir: Path = Field(
        default_factory=default_index_dir,
        description="where indexes live (default $XDG_DATA_HOME/sphere/indexes)",
    )
    default_index: str = Field("demo", description="index opened by `sphere`")
    session_db: Path = Field(
        Path("~/.local/share/sphere/sessions.db"), description="SQLite session log"
    )
    cache_dir: Path = Field(Path("~/.cache/sphere"), description="embedding cache (eval)")
    embedder: EmbedderSettings = Field(default_factory=EmbedderSettings)  # type: ignore[arg-type]
    llm: LLMSettings = Field(default_factory=LLMSettings)  # type: ignore[arg-type]
    chunking: ChunkSettings = Field(default_factory=ChunkSettings)  # type: ignore[arg-type]
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)  # type: ignore[arg-type]
    summary: SummarySettings = Field(default_factory=SummarySettings)  # type: ignore[arg-type]
    stance: StanceSettings = Field(default_factory=StanceSettings)  # type: ignore[arg-type]
    followup: FollowupSettings = Field(default_factory=FollowupSettings)  # type: ignore[arg-type]
    index: IndexSettings = Field(default_factory=IndexSettings)  # type: ignore[arg-type]
    logging: LoggingSettings = Field(default_factory=LoggingSettings)  # type: ignore[arg-type]
    ui: UISettings = Field(default_factory=UISettings)
    models: ModelsSettings = Field(default_factory=ModelsSettings)  # type: ignore[arg-type]

    # where the values came from, for messages; not settings
    source_file: Path | None = Field(None, exclude=True)
    source_how: str = Field("", exclude=True)  # how the file was found, e.g. "$SPHERE_CONFIG"
    source_empty: bool = Field(False, exclude=True)  # the file held no settings (/dev/null)

    def resolved(self) -> Settings:
        """Paths expanded (``~``) and made absolute against the config file's folder."""
        # a pipe's or /dev/null's folder is no place for the user's files
        here = self.source_file is not None and self.source_file.is_file()
        base = self.source_file.parent if self.source_file and here else Path.cwd()

        def fix(p: Path) -> Path:
            p = p.expanduser()
            return p if p.is_absolute() else (base / p).resolve()

        stance = self.stance
        if stance.model.strip().lower() not in ("bundled", "off"):
            stance = stance.model_copy(update={"model": str(fix(Path(stance.model.strip())))})
        followup = self.followup
        if followup.reader.strip().lower() not in ("bundled", "off"):
            followup = followup.model_copy(
                update={"reader": str(fix(Path(followup.reader.strip())))}
            )
        return self.model_copy(
            update={
                "index_dir": fix(self.index_dir),
                "session_db": fix(self.session_db),
                "cache_dir": fix(self.cache_dir),
                "stance": stance,
                "followup": followup,
            }
        )

    def public_dict(self) -> dict[str, Any]:
        d = self.model_dump(mode="json", exclude={"source_file", "source_how", "source_empty"})
        if d["llm"].get("api_key"):
            d["llm"]["api_key"] = "***"
        return d


def _env_overrides(environ: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in environ.items():
        if not key.startswith(ENV_PREFIX) or key == ENV_PREFIX + "CONFIG":
            continue
        name = key[len(ENV_PREFIX) :].lower()
        if "__" in name:
            section, sub = name.split("__", 1)
            out.setdefault(section, {})
            if isinstance(out[section], dict):
                out[section][sub] = value
        else:
            out[name] = value
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = _merge(merged[k], v)
        else:
            merged[k] = v
    return merged


def _describe(err: ValidationError, origin: str) -> str:
    lines = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"])
        if e["type"] == "extra_forbidden":
            lines.append(f"unknown key '{loc}' in {origin}")
        else:
            lines.append(f"'{loc}' in {origin}: {e['msg']}")
    return "; ".join(lines)


def find_config_file(
    explicit: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[Path | None, str]:
    """The settings file to read and how it was found (see the module docstring).

    A file named by ``--config`` or ``$SPHERE_CONFIG`` must exist; the other two
    places are looked at only if nothing was named.
    """
    environ = os.environ if environ is None else environ
    if explicit:
        return _named_file(Path(explicit).expanduser(), ""), "--config"
    env = environ.get(ENV_PREFIX + "CONFIG")
    if env:
        named = _named_file(Path(env).expanduser(), f" (from ${ENV_PREFIX}CONFIG)")
        return named, f"${ENV_PREFIX}CONFIG"
    here = Path.cwd() / DEFAULT_CONFIG_NAME
    if here.is_file():
        return here, f"./{DEFAULT_CONFIG_NAME} in the current folder"
    user = user_config_file(environ)
    if user.is_file():
        return user, "$XDG_CONFIG_HOME/sphere/config.yaml"
    return None, ""


def _named_file(p: Path, origin: str) -> Path:
    """A settings file the user named: a regular file, ``/dev/null`` (an empty file: the
    defaults) or a pipe (``--config <(…)``); anything else is an error saying what it is."""
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {p}{origin}") from None
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {p}{origin}: {exc}") from None
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or _is_devnull(p):
        return p
    if stat.S_ISDIR(mode):
        raise ConfigError(
            f"{p}{origin} is a folder, not a config file",
            hint=f"name the YAML file in it, e.g. {p / DEFAULT_CONFIG_NAME}",
        )
    kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket"
    raise ConfigError(f"{p}{origin} is {kind}, not a config file")


def _is_devnull(p: Path) -> bool:
    try:
        return os.path.samefile(p, os.devnull)
    except OSError:
        return False


def load_settings(
    path: str | os.PathLike[str] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Load, merge and validate settings; raise :class:`ConfigError` on any problem."""
    environ = dict(os.environ if environ is None else environ)
    file, how = find_config_file(path, environ)
    data: dict[str, Any] = {}
    if file is not None:
        try:
            loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read {file}: {exc}") from None
        except yaml.YAMLError as exc:
            raise ConfigError(f"{file} is not valid YAML: {exc}") from None
        if loaded is None:  # an empty file (or only comments): the defaults
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{file} must contain a mapping of settings at the top level")
        data = loaded
        try:
            Settings.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(_describe(exc, str(file))) from None
    env = _env_overrides(environ)
    merged = _merge(data, env)
    merged.setdefault("index_dir", default_index_dir(environ))
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, "the environment (SPHERE_… variables)")) from None
    settings.source_file = (file.resolve() if file.is_file() else file) if file else None
    settings.source_how = how
    settings.source_empty = file is not None and not data
    return settings.resolved()
