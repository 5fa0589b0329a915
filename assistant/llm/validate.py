"""Validate a parsed model answer against its JSON schema.

Uses ``jsonschema`` when it is installed; otherwise a small validator for the
subset of JSON Schema the prompt files use (type, enum, const, properties,
required, additionalProperties, items, min/maxItems, min/maxLength, anyOf).
Either way a failure is a :class:`SchemaValidationError` naming the path.
"""

from __future__ import annotations

from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


class SchemaValidationError(ValueError):
    pass


def _is_type(value: Any, name: str) -> bool:
    if name in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES.get(name, (object,)))


def _check(value: Any, schema: dict[str, Any], path: str) -> None:
    if not isinstance(schema, dict):
        return
    if "anyOf" in schema:
        errors = []
        for sub in schema["anyOf"]:
            try:
                _check(value, sub, path)
                break
            except SchemaValidationError as exc:
                errors.append(str(exc))
        else:
            raise SchemaValidationError(f"{path}: matches no alternative ({'; '.join(errors)})")
    t = schema.get("type")
    if t is not None:
        names = t if isinstance(t, list) else [t]
        if not any(_is_type(value, n) for n in names):
            raise SchemaValidationError(f"{path}: expected {t}, got {type(value).__name__}")
    if "enum" in schema and value not in schema["enum"]:
        raise SchemaValidationError(f"{path}: {value!r} is not one of {schema['enum']!r}")
    if "const" in schema and value != schema["const"]:
        raise SchemaValidationError(f"{path}: expected {schema['const']!r}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            raise SchemaValidationError(f"{path}: string shorter than {schema['minLength']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise SchemaValidationError(f"{path}: string longer than {schema['maxLength']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            raise SchemaValidationError(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise SchemaValidationError(f"{path}: more than {schema['maxItems']} items")
        items = schema.get("items")
        if isinstance(items, dict):
            for i, v in enumerate(value):
                _check(v, items, f"{path}[{i}]")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                raise SchemaValidationError(f"{path}: missing required key '{key}'")
        if schema.get("additionalProperties") is False:
            extra = sorted(set(value) - set(props))
            if extra:
                raise SchemaValidationError(f"{path}: unexpected keys {extra}")
        for key, sub in props.items():
            if key in value:
                _check(value[key], sub, f"{path}.{key}")


def validate_json(value: Any, schema: dict[str, Any]) -> None:
    """Raise :class:`SchemaValidationError` unless ``value`` satisfies ``schema``."""
    try:
        import jsonschema
    except ImportError:
        _check(value, schema, "$")
        return
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError as exc:
        where = "$" + "".join(f"[{p!r}]" for p in exc.absolute_path)
        raise SchemaValidationError(f"{where}: {exc.message}") from None
