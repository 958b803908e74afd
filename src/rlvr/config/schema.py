"""JSON Schema of the training config, generated from `TrainConfig` (never written twice).

`json_schema()` reads each field's type annotation, default and help text; the schema
rejects unknown keys (`additionalProperties: false`), as `load_config` does. The file
`configs/config.schema.json` is this output (`rlvr train --print-schema > ...`; a test
keeps the two equal), and the configs point editors at it with a
`# yaml-language-server: $schema=config.schema.json` line.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rlvr.config import TrainConfig

_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
          "list": "array", "dict": "object", "None": "null", "Any": None}


def _field_schema(field: dataclasses.Field) -> dict[str, Any]:
    """The schema of one field: its JSON types (from the annotation), default and help."""
    names = [part.strip() for part in str(field.type).split("|")]
    types = [_TYPES.get(name.split("[")[0]) for name in names]
    schema: dict[str, Any] = {"description": field.metadata.get("help", "")}
    if None not in types:
        kinds = sorted(set(types), key=types.index)  # "number" also takes integers
        schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    if field.default is not dataclasses.MISSING:
        schema["default"] = field.default
    elif field.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        schema["default"] = field.default_factory()  # type: ignore[misc]
    return schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a `rlvr train` config file."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "rlvr train config",
        "description": "Keys of rlvr.config.TrainConfig; unknown keys are errors.",
        "type": "object",
        "additionalProperties": False,
        "properties": {f.name: _field_schema(f) for f in dataclasses.fields(TrainConfig)},
    }


def schema_text() -> str:
    """`json_schema()` as the indented JSON text of `configs/config.schema.json`."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
