"""JSON Schema checks, on the `jsonschema` library (imported on first use).

    schema_problem(schema)      why `schema` is not a usable JSON Schema (None: it is)
    mismatches(schema, value)   what in `value` breaks `schema`, one line each (none: it
                                conforms), each saying where as a JSON pointer

A schema is read in the draft its `$schema` names, 2020-12 when it names none or one
unknown here. A reference that cannot be resolved (a remote `$ref`: nothing is fetched) is reported as a
mismatch, so a caller that bounds its retries always comes to an end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.exceptions import SchemaError, ValidationError
    from jsonschema.protocols import Validator

#: At most this many problems are listed, each cut to MAX_PROBLEM_CHARS.
MAX_PROBLEMS = 10
MAX_PROBLEM_CHARS = 300


def schema_problem(schema: dict[str, Any]) -> str | None:
    """Why `schema` cannot be used to check answers, in a line; None if it can."""
    from jsonschema.exceptions import SchemaError

    cls = _validator_class(schema)
    if isinstance(cls, str):
        return cls
    try:
        cls.check_schema(schema)
    except SchemaError as error:
        return _line(error)
    return None


def mismatches(schema: dict[str, Any], value: Any) -> list[str]:
    """What in `value` does not conform to `schema` (a schema `schema_problem` passed)."""
    from referencing.exceptions import Unresolvable

    cls = _validator_class(schema)
    if isinstance(cls, str):
        return [cls]
    try:
        errors = sorted(cls(schema).iter_errors(value), key=lambda e: (_pointer(e), e.message))
    except Unresolvable as exc:
        return [f"the schema cannot be applied: {type(exc).__name__}: {exc}"[:MAX_PROBLEM_CHARS]]
    lines = [_line(e) for e in errors[:MAX_PROBLEMS]]
    if len(errors) > MAX_PROBLEMS:
        lines.append(f"… and {len(errors) - MAX_PROBLEMS} more")
    return lines


def _validator_class(schema: dict[str, Any]) -> type[Validator] | str:
    """The validator for the draft `schema` names; a problem if `$schema` is no URI."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import validator_for

    if not isinstance(schema.get("$schema", ""), str):
        return "at /$schema: it is not a string"
    return validator_for(schema, default=Draft202012Validator)


def _pointer(error: ValidationError | SchemaError) -> str:
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}"
                   for p in error.absolute_path)


def _line(error: ValidationError | SchemaError) -> str:
    where = _pointer(error) or "(root)"
    return f"at {where}: {error.message}"[:MAX_PROBLEM_CHARS]
