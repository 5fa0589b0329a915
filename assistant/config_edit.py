"""Change one setting in a settings file and keep the rest of it as it was.

``sphere models use`` (and the app's model picker) set ``llm.model``. Re-dumping
the YAML would lose every comment the checkout's ``config.yaml`` carries, so
:func:`set_keys` edits the lines themselves: the ``model:`` line inside the
top-level ``llm:`` block gets the new value and keeps its comment; a missing
key is added under ``llm:``, a missing section at the end. The edited text is
parsed again and must give the old settings with only the changed keys
changed; when it does not (flow-style ``llm: {…}``, a block scalar, anything
unusual) the file is re-written from the parsed data instead, and the caller
is told the comments were lost. The file is replaced atomically (a temporary
file in the same folder, then ``os.replace``), keeping its permissions.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from assistant.errors import ConfigError

_SECTION = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?P<rest>.*)$")
_KEY = re.compile(r"^(?P<indent>[ \t]+)(?P<key>[A-Za-z_][\w-]*)\s*:(?P<sp>[ \t]*)(?P<rest>.*)$")


@dataclass
class EditResult:
    path: Path
    old: dict[str, Any]  # previous values of the keys (absent: not in the file)
    created: bool = False  # the file did not exist
    comments_kept: bool = True


def yaml_scalar(value: str) -> str:
    """``value`` as a YAML scalar: plain when that reads back unchanged, else quoted."""
    if value and value.strip() == value:
        try:
            if yaml.safe_load(f"k: {value}") == {"k": value} and "#" not in value:
                return value
        except yaml.YAMLError:
            pass
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML double-quoted one


def _split_comment(rest: str) -> tuple[str, str]:
    """``'value   # note'`` → (``'value'``, ``'   # note'``), quotes respected."""
    s = rest.rstrip("\n")
    i = 0
    if s[:1] in ("'", '"'):
        q = s[0]
        i = 1
        while i < len(s):
            if s[i] == "\\" and q == '"':
                i += 2
                continue
            if s[i] == q:
                if q == "'" and s[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                i += 1
                break
            i += 1
    m = re.search(r"[ \t]+#", s[i:])
    if m is None:
        return s, ""
    cut = i + m.start()
    return s[:cut], s[cut:]


def _line_edit(text: str, section: str, values: dict[str, str]) -> str:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    start = None
    for i, line in enumerate(lines):
        m = _SECTION.match(line.rstrip("\n"))
        if m and m.group("key") == section:
            rest = m.group("rest").strip()
            if rest and not rest.startswith("#"):
                raise ValueError("flow-style section")  # llm: {model: …}: re-dump instead
            start = i
            break
    if start is None:
        if lines and lines[-1].strip():
            lines.append("\n")
        lines.append(f"{section}:\n")
        lines += [f"  {k}: {yaml_scalar(v)}\n" for k, v in values.items()]
        return "".join(lines)
    end = len(lines)
    indent = ""
    for j in range(start + 1, len(lines)):
        raw = lines[j].rstrip("\n")
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if not raw[0].isspace():
            end = j
            break
        if not indent:
            indent = raw[: len(raw) - len(raw.lstrip())]
    indent = indent or "  "
    columns: list[int] = []  # where the block's other comments start, to line up with them
    for j in range(start + 1, end):
        m = _KEY.match(lines[j].rstrip("\n"))
        if m and m.group("indent") == indent and m.group("key") not in values:
            _value, comment = _split_comment(m.group("rest"))
            if comment:
                columns.append(len(lines[j].rstrip("\n")) - len(comment.lstrip(" \t")))
    column = max(set(columns), key=columns.count) if columns else None
    missing = dict(values)
    for j in range(start + 1, end):
        m = _KEY.match(lines[j].rstrip("\n"))
        if not m or m.group("indent") != indent or m.group("key") not in missing:
            continue
        key = m.group("key")
        old_value, comment = _split_comment(m.group("rest"))
        if old_value.strip()[:1] in ("|", ">") or not old_value.strip():
            raise ValueError("block scalar")  # a value on the lines below: re-dump instead
        new_value = yaml_scalar(missing.pop(key))
        sp = m.group("sp") or " "
        head = f"{indent}{key}:{sp}{new_value}"
        if comment:
            # in line with the block's other comments (or where it was) when the value fits
            at = column if column is not None else len(lines[j]) - len(comment.lstrip(" \t")) - 1
            comment = " " * max(at - len(head), 1) + comment.lstrip(" \t")
        lines[j] = f"{head}{comment}\n"
    insert = [f"{indent}{k}: {yaml_scalar(v)}\n" for k, v in missing.items()]
    lines[start + 1 : start + 1] = insert
    return "".join(lines)


def _expected(data: dict[str, Any], section: str, values: dict[str, str]) -> dict[str, Any]:
    out = dict(data)
    sec = dict(out.get(section) or {})
    sec.update(values)
    out[section] = sec
    return out


def set_keys(
    path: Path, section: str, values: dict[str, str], *, if_present: tuple[str, ...] = ()
) -> EditResult:
    """Set ``section.key: value`` for each of ``values`` in the YAML file at ``path``.

    Keys named in ``if_present`` are set only when the file has them already
    (``llm.server_model: ""`` need not be added to a file that never had it).
    The file is created (with its folder) when it does not exist. Raises
    :class:`ConfigError` when it cannot be read, parsed or written.
    """
    if path.is_symlink():
        path = path.resolve()  # edit the file a link points at, keep the link
    created = not path.exists()
    try:
        text = "" if created else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    try:
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path} is not valid YAML: {exc}") from None
    data = data or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must contain a mapping of settings at the top level")
    current = data.get(section)
    if current is not None and not isinstance(current, dict):
        raise ConfigError(f"'{section}' in {path} is not a mapping of settings")
    values = {k: v for k, v in values.items() if k not in if_present or k in (current or {})}
    old = {k: (current or {})[k] for k in values if k in (current or {})}
    want = _expected(data, section, values)
    kept = True
    try:
        new_text = _line_edit(text, section, values)
        if yaml.safe_load(new_text) != want:
            raise ValueError("the line edit did not give the expected settings")
    except (ValueError, yaml.YAMLError):
        kept = not text.strip()  # nothing to lose in an empty file
        new_text = yaml.safe_dump(want, sort_keys=False, allow_unicode=True)
    write_atomic(path, new_text)
    return EditResult(path=path, old=old, created=created, comments_kept=kept)


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a reader sees the old or the new file)."""
    if path.exists() and not os.access(path, os.W_OK):
        # replacing it would succeed (the folder is writable) and defeat its protection
        raise ConfigError(f"cannot write {path}: the file is read-only")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o7777 if path.exists() else None
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
