"""Operators that read outside data or fix tool definitions: ReadFile (a local file or URL), WikipediaFetcher (a page
through the optional Wikipedia-API package) and FixJsonSchemaOfParameterTypes (tool parameter types written as
Python/Java names turned into JSON-schema types).
"""

import re
from typing import Any, ClassVar, Dict, Optional

from ..errors import InstanceTypeError, UnitxtError
from ..operator import FieldOperator, InstanceOperator, PackageRequirementsMixin



class DownloadError(UnitxtError):
    """A file could not be downloaded (the original's error of its download step)."""

    def __init__(self, message: str):
        super().__init__(message)


class UnexpectedHttpCodeError(UnitxtError):
    """A server answered a download with an HTTP status other than success."""

    def __init__(self, http_code: Any):
        super().__init__(f"unexpected http code {http_code}")
        self.http_code = http_code


class ReadFile(FieldOperator):
    """The text of the file (or http(s) URL) named by the value, decoded with `encoding` (bad bytes replaced)."""

    encoding: str = "utf-8"

    def process_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise InstanceTypeError(f"ReadFile needs a path or URL, got {type(value).__name__}.",
                                    artifact=self.artifact_name, field=self.field)
        if value.startswith(("http://", "https://")):
            from urllib import request

            with request.urlopen(value) as response:  # noqa: S310 - http(s) only, checked above
                return response.read().decode(self.encoding, errors="replace")
        with open(value, encoding=self.encoding, errors="replace") as handle:
            return handle.read()


class WikipediaFetcher(PackageRequirementsMixin, FieldOperator):
    """A Wikipedia page named by the last path part of the value (a URL or title) -> {"title", "body"}, the body
    being the page's text or summary (`mode`). Needs the Wikipedia-API package."""

    mode: str = "text"
    _requirements_list = {"wikipediaapi": "pip install Wikipedia-API"}

    def process_value(self, value: Any) -> Any:
        self.check_missing_requirements()
        import wikipediaapi

        if "_wikipedia" not in self.__dict__:
            self.__dict__["_wikipedia"] = wikipediaapi.Wikipedia("Unitxt")
        page = self.__dict__["_wikipedia"].page(str(value).split("/")[-1])
        return {"title": page.title, "body": getattr(page, "summary" if self.mode == "summary" else "text")}


_SIMPLE_TYPES = {
    "": "object", "any": "object", "Any": "object", "dict": "object", "Dict": "object", "HashMap": "object",
    "Hashtable": "object", "Array": "array", "ArrayList": "array", "list": "array", "List": "array", "Queue": "array",
    "Stack": "array", "tuple": "array", "Set": "array", "set": "array", "Bigint": "integer", "byte": "integer",
    "int": "integer", "long": "integer", "short": "integer", "bool": "boolean", "Boolean": "boolean",
    "char": "string", "str": "string", "String": "string", "double": "number", "float": "number",
}


def type_name_to_schema(name: str) -> Dict[str, Any]:
    """A parameter type as written in tool definitions ("List[int]", "str, optional", "Union[int, str]") -> a
    JSON-schema fragment ({"type": "array", "items": {"type": "integer"}}, ...); unknown names are kept as types."""
    return FixJsonSchemaOfParameterTypes.type_str_to_jsonschema_dict(_SCHEMA_DEFAULTS, name)


class FixJsonSchemaOfParameterTypes(InstanceOperator):
    """Rewrite every `type` string inside `main_field` (tool definitions) as a JSON-schema type."""

    main_field: str

    simple_mapping: ClassVar[Dict[str, str]] = _SIMPLE_TYPES  # plain type names -> JSON-schema type names

    def dict_type_of(self, type_str: str) -> Dict[str, Any]:
        """Hook: the schema fragment of one JSON-schema type name."""
        return {"type": type_str}

    def type_str_to_jsonschema_dict(self, type_str: str) -> Dict[str, Any]:
        """Hook: one type string of a tool definition -> its JSON-schema fragment (recursing into List/Union)."""
        if type_str in self.simple_mapping:
            return self.dict_type_of(self.simple_mapping[type_str])
        match = re.match(r"^(List|Tuple)\[(.*?)\]$", type_str)
        if match:
            inner = match.group(2) if match.group(1) == "List" else match.group(2).split(",")[0].strip()
            return {**self.dict_type_of("array"), "items": self.type_str_to_jsonschema_dict(inner)}
        match = re.match(r"^Union\[(.*?)\]$", type_str)
        if match:
            return {"anyOf": [self.type_str_to_jsonschema_dict(part.strip()) for part in match.group(1).split(",")]}
        if re.match(r"^Callable\[(.*?)\]$", type_str):
            return self.dict_type_of("object")
        if "," in type_str:
            first, *rest = [part.strip() for part in type_str.split(",")]
            schema = self.type_str_to_jsonschema_dict(first)
            for part in rest:
                if part.lower().startswith("default"):
                    pieces = re.split(r"[= ]", part, maxsplit=1)
                    if len(pieces) == 2:
                        schema["default"] = pieces[1]
            if any(part.lower().startswith("optional") for part in rest):
                return {"anyOf": [schema, self.dict_type_of("null")]}
            return schema
        return self.dict_type_of(type_str)

    def recursive_trace_for_type_fields(self, containing_element: Any) -> None:
        """Replace, in place, each `type` string found in nested dicts and lists by its schema fragment."""
        if isinstance(containing_element, dict):
            for key in list(containing_element):
                if key == "type" and isinstance(containing_element[key], str):
                    containing_element.update(self.type_str_to_jsonschema_dict(containing_element.pop("type")))
                else:
                    self.recursive_trace_for_type_fields(containing_element[key])
        elif isinstance(containing_element, list):
            for item in containing_element:
                self.recursive_trace_for_type_fields(item)

    def process(self, instance: Dict[str, Any], stream_name: Optional[str] = None) -> Dict[str, Any]:
        if self.main_field not in instance:
            raise InstanceTypeError(f"Field '{self.main_field}' is missing.", artifact=self.artifact_name,
                                    field=self.main_field)
        self.recursive_trace_for_type_fields(instance[self.main_field])
        return instance


class _SchemaDefaults:
    """The plain rewriting of `type_name_to_schema`: FixJsonSchemaOfParameterTypes' hooks without an instance."""

    simple_mapping = _SIMPLE_TYPES
    dict_type_of = FixJsonSchemaOfParameterTypes.dict_type_of
    type_str_to_jsonschema_dict = FixJsonSchemaOfParameterTypes.type_str_to_jsonschema_dict


_SCHEMA_DEFAULTS = _SchemaDefaults()


__all__ = ["ReadFile", "WikipediaFetcher", "FixJsonSchemaOfParameterTypes", "type_name_to_schema"]
