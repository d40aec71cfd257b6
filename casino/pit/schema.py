"""The pit's part of the API's OpenAPI schema (drf-spectacular): the portable record, as the
`Record` component, generated from the engine's own msgspec structs (regulation/record.py) rather
than written out again. Every operation's errors are documented project-wide (casino/api_schema.py).
"""
from __future__ import annotations

import json

import msgspec
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent

from regulation.record import MAX_AMOUNT, _Record

from .serializers import RecordSerializer

RECORD = "Record"
RECORD_HELP = (
    "The portable record of one jogo, as the engine reads it (regulation/record.py). Seats are seat winds "
    "E, S, W, N (Art. 3), not chairs. Amounts are whole currency units, as integers or plain decimal strings, "
    f"at most {MAX_AMOUNT}. `capital` is each seated seat's capital at stake before the jogo (Art. 9(a)(4), "
    "9(b)(3)) and must be what the ledger has; GET /api/v1/tables/{id}/ gives it, with the round wind.")


def record_components() -> dict[str, dict]:
    """The JSON Schemas of the record and its parts, named Record, RecordHand, RecordMeld, ...,
    written in OpenAPI 3.0's dialect (nullable rather than a null type)."""
    _, components = msgspec.json.schema_components([_Record], ref_template="#/components/schemas/{name}")
    names = {name: RECORD + name.lstrip("_").removeprefix(RECORD) for name in components}
    text = json.dumps(components)
    for old, new in names.items():
        text = text.replace(f'"#/components/schemas/{old}"', f'"#/components/schemas/{new}"')
    found = {names[name]: _openapi_30({**schema, "title": names[name]}) for name, schema in json.loads(text).items()}
    found[RECORD]["description"] = RECORD_HELP
    return found


def _openapi_30(schema):
    """JSON Schema (2020-12, as msgspec writes it) in OpenAPI 3.0's terms: `anyOf [X, null]` is X
    with `nullable`; an enumeration of texts says it is a string; no empty `required`."""
    if isinstance(schema, list):
        return [_openapi_30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: _openapi_30(value) for key, value in schema.items()}
    options = schema.get("anyOf")
    if options and {"type": "null"} in options:
        rest = [option for option in options if option != {"type": "null"}]
        del schema["anyOf"]
        if len(rest) == 1 and "$ref" in rest[0]:
            schema.update({"allOf": rest, "nullable": True})
        elif len(rest) == 1:
            schema.update({**rest[0], "nullable": True})
        else:
            schema.update({"anyOf": rest, "nullable": True})
    if "enum" in schema and "type" not in schema and all(isinstance(v, str) for v in schema["enum"]):
        schema["type"] = "string"
    if schema.get("required") == []:
        del schema["required"]
    return schema


class RecordSerializerExtension(OpenApiSerializerExtension):
    """`RecordSerializer` (a request body) is the `Record` component, with its parts."""

    target_class = "casino.pit.serializers.RecordSerializer"

    def get_name(self, auto_schema, direction):
        return RECORD

    def map_serializer(self, auto_schema, direction):
        components = record_components()
        for name, schema in components.items():
            if name != RECORD:
                auto_schema.registry.register_on_missing(
                    ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name, schema=schema))
        return components[RECORD]


class RecordFieldExtension(OpenApiSerializerFieldExtension):
    """A `RecordField` (a field of a jogo or an amendment) is the `Record` component."""

    target_class = "casino.pit.serializers.RecordField"

    def map_serializer_field(self, auto_schema, direction):
        return auto_schema.resolve_serializer(RecordSerializer(), direction).ref
