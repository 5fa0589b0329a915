"""Prompt files: every prompt is a YAML file in ``prompts/`` (the package ``assistant.prompts``).

A prompt file holds::

    description: what the step does
    source: the paper and figure the wording comes from
    system: system message (optional; may use {variables})
    template: the user message, with {variable} placeholders
    schema: JSON schema of the answer (optional); a string "{var}" anywhere in
            it is replaced at call time by that variable's value (a list, e.g.
            the enum of reference ids the model may cite)
    max_tokens: answer budget
    output: json | span | spans | text   (how the answer is constrained)

All files are loaded and checked at start (:func:`load_prompts`): YAML shape,
known keys, and that every schema can be turned into a grammar, so a bad file
fails at once. Rendering substitutes ``{name}`` placeholders in one pass (a
value that itself contains ``{x}`` is never re-expanded, so text in a question
or document cannot inject new variables); a placeholder with no value raises
:class:`MissingVariableError` naming it; ``{{`` and ``}}`` are literal braces.
"""

from __future__ import annotations

import copy
import os
import re
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from assistant.errors import MissingVariableError, PromptError

_VAR = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KEYS = {"description", "source", "system", "template", "schema", "max_tokens", "output"}
_OUTPUTS = {"json", "span", "spans", "text"}
PROMPTS_ENV = "SPHERE_PROMPTS_DIR"


def placeholders(text: str) -> set[str]:
    return {m.group(1) for m in _VAR.finditer(text) if m.group(1)}


def substitute(text: str, values: dict[str, Any], *, prompt: str = "") -> str:
    """Replace ``{name}`` by ``values[name]`` in one pass."""

    def repl(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok == "{{":
            return "{"
        if tok == "}}":
            return "}"
        name = m.group(1)
        if name not in values or values[name] is None:
            where = f" in prompt '{prompt}'" if prompt else ""
            raise MissingVariableError(
                f"missing variable '{name}'{where}",
                hint=f"pass {name}=… when rendering the prompt",
            )
        return str(values[name])

    return _VAR.sub(repl, text)


def _schema_vars(node: Any) -> set[str]:
    if isinstance(node, str):
        m = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", node)
        return {m.group(1)} if m else set()
    if isinstance(node, dict):
        return set().union(*(_schema_vars(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_schema_vars(v) for v in node)) if node else set()
    return set()


def _fill_schema(node: Any, values: dict[str, Any], prompt: str) -> Any:
    if isinstance(node, str):
        m = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", node)
        if not m:
            return node
        name = m.group(1)
        if name not in values:
            raise MissingVariableError(f"missing schema variable '{name}' in prompt '{prompt}'")
        return copy.deepcopy(values[name])
    if isinstance(node, dict):
        return {k: _fill_schema(v, values, prompt) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill_schema(v, values, prompt) for v in node]
    return node


@dataclass(frozen=True)
class Prompt:
    name: str
    template: str
    system: str = ""
    schema: dict[str, Any] | None = None
    max_tokens: int = 256
    output: str = "text"
    description: str = ""
    source: str = ""
    path: str = ""
    variables: frozenset[str] = field(default_factory=frozenset)
    schema_variables: frozenset[str] = field(default_factory=frozenset)

    def render(self, **values: Any) -> str:
        """The user message with ``values`` substituted."""
        return substitute(self.template, values, prompt=self.name)

    def messages(self, **values: Any) -> list[dict[str, str]]:
        """Chat messages (system + user) with ``values`` substituted."""
        out = []
        if self.system:
            out.append(
                {"role": "system", "content": substitute(self.system, values, prompt=self.name)}
            )
        out.append({"role": "user", "content": self.render(**values)})
        return out

    def schema_for(self, **values: Any) -> dict[str, Any]:
        """The answer schema with call-time variables (e.g. enums of ids) filled in."""
        if self.schema is None:
            raise PromptError(f"prompt '{self.name}' has no answer schema")
        filled = _fill_schema(self.schema, values, self.name)
        assert isinstance(filled, dict)
        return filled


def _parse(path: Path) -> Prompt:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PromptError(f"cannot read prompt file {path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise PromptError(f"prompt file {path} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise PromptError(f"prompt file {path} must hold a mapping")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise PromptError(f"unknown key(s) {unknown} in prompt file {path}")
    template = data.get("template")
    if not isinstance(template, str) or not template.strip():
        raise PromptError(f"prompt file {path} needs a non-empty 'template'")
    system = data.get("system") or ""
    if not isinstance(system, str):
        raise PromptError(f"'system' in {path} must be text")
    schema = data.get("schema")
    if schema is not None and not isinstance(schema, dict):
        raise PromptError(f"'schema' in {path} must be a mapping (a JSON schema)")
    output = str(data.get("output") or ("json" if schema else "text"))
    if output not in _OUTPUTS:
        raise PromptError(f"'output' in {path} must be one of {sorted(_OUTPUTS)}")
    if output == "json" and schema is None:
        raise PromptError(f"prompt file {path} has output: json but no schema")
    try:
        max_tokens = int(data.get("max_tokens", 256))
    except (TypeError, ValueError):
        raise PromptError(f"'max_tokens' in {path} must be an integer") from None
    if max_tokens < 1:
        raise PromptError(f"'max_tokens' in {path} must be positive")
    return Prompt(
        name=path.stem,
        template=template,
        system=system,
        schema=schema,
        max_tokens=max_tokens,
        output=output,
        description=str(data.get("description") or ""),
        source=str(data.get("source") or ""),
        path=str(path),
        variables=frozenset(placeholders(template) | placeholders(system)),
        schema_variables=frozenset(_schema_vars(schema) if schema else set()),
    )


def _check_schema(prompt: Prompt) -> None:
    """Build the schema's grammar now (with placeholder values) so a bad schema fails here."""
    if prompt.schema is None:
        return
    from assistant.llm.grammar import schema_grammar

    dummy = {v: ["x"] for v in prompt.schema_variables}
    try:
        schema_grammar(prompt.schema_for(**dummy))
    except PromptError as exc:
        raise PromptError(f"prompt file {prompt.path}: {exc.message}") from None


class PromptSet:
    """The loaded prompt files, by name."""

    def __init__(self, prompts: dict[str, Prompt], directory: Path) -> None:
        self._prompts = prompts
        self.directory = directory

    def get(self, name: str) -> Prompt:
        try:
            return self._prompts[name]
        except KeyError:
            raise PromptError(
                f"unknown prompt '{name}'",
                hint=f"prompts in {self.directory}: {', '.join(sorted(self._prompts))}",
            ) from None

    __getitem__ = get

    def __contains__(self, name: object) -> bool:
        return name in self._prompts

    @property
    def names(self) -> list[str]:
        return sorted(self._prompts)


def prompts_dir() -> Path:
    """``$SPHERE_PROMPTS_DIR``, else the package ``assistant.prompts``.

    That package is the checkout's top-level ``prompts/`` (pyproject.toml maps it):
    the folder itself in an editable install, a copy inside the installed
    package otherwise. Run from a checkout that is not installed, it is found
    beside the ``assistant`` folder.
    """
    env = os.environ.get(PROMPTS_ENV)
    if env:
        return Path(env).expanduser()
    try:
        return Path(str(resources.files("assistant.prompts")))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "prompts"


_CACHE: dict[tuple[str, bool], PromptSet] = {}
_LOCK = threading.Lock()


def load_prompts(
    directory: str | os.PathLike[str] | None = None, *, check: bool = True
) -> PromptSet:
    """Load and validate every ``*.yaml`` in the prompts folder (cached per folder)."""
    folder = Path(directory).expanduser() if directory else prompts_dir()
    key = (str(folder.resolve()), check)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    if not folder.is_dir():
        raise PromptError(
            f"prompts folder not found: {folder}",
            hint=f"run from the repository, or set ${PROMPTS_ENV}",
        )
    prompts: dict[str, Prompt] = {}
    for path in sorted(folder.glob("*.yaml")):
        prompt = _parse(path)
        if check:
            _check_schema(prompt)
        prompts[prompt.name] = prompt
    if not prompts:
        raise PromptError(f"no prompt files (*.yaml) in {folder}")
    result = PromptSet(prompts, folder)
    with _LOCK:
        _CACHE[key] = result
    return result
