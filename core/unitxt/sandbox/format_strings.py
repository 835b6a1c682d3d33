r"""Safe, precompiled string formatting for templates and formats that come from catalog JSON.

Format strings support `{name}` placeholders, `{{` / `}}` for literal braces, the conversions `!s` / `!r` and simple
format specs (`{x:>5}`, `{score:.2f}`). Everything that would let data reach into Python objects is refused when the
string is compiled: attribute access (`{a.b}`), indexing (`{a[0]}`), positional fields (`{}`, `{0}`), other
conversions (`!a`) and nested fields inside a spec (`{x:>{width}}`).

Each distinct string is compiled once (cached) into a `CompiledFormat`; rendering a string without `\N` markers is a
single `str.format_map` call on the validated text, which is what makes templates fast.

The newline marker `\N` (the two characters backslash and capital N; write `"\\N"` or `r"\N"` in Python, `"\\N"` in
JSON) is only recognised when compiling with `allow_newline_marker=True` (formats do, templates do not). It renders as
exactly one newline after the text this format string has produced so far (every literal and substituted value
before the marker), merging the newlines that text already ends with into it (as the original's capital-newline
notation does: "a\n\n" + marker gives "a\n"); when that text is empty or only newlines, the marker and those newlines
render as nothing. So `"{system_prompt}\N{instruction}"` puts the instruction on its own line after a system prompt,
adds nothing when there is no system prompt, and never doubles a newline the system prompt already ends with.
Consecutive markers therefore yield at most one newline. The decision is local to one rendering of one format string (for a demo format: the demo's
own text, not the demos before it). There is no escape for a literal backslash-N in a string compiled with markers.
"""

import operator
import re
import string
from typing import Any, Callable, Collection, Dict, List, Mapping, Optional, Tuple, Union

from ..errors import MissingFieldError, UnitxtError

NEWLINE_MARKER = "\\N"
_ALLOWED_CONVERSIONS = (None, "s", "r")
# A placeholder name: word characters (any script), with inner hyphens or spaces allowed ("sentence-1", "text a").
_NAME = re.compile(r"^\w(?:[\w\- ]*\w)?$")
_PARSER = string.Formatter()


class FormatStringError(UnitxtError, ValueError):
    """A format string is malformed or uses a construct that is not allowed (attribute access, nesting, ...)."""


class MissingPlaceholderError(MissingFieldError):
    """A placeholder of a format string has no value among the fields given to it."""


class FormatValueError(UnitxtError, ValueError):
    """A value could not be formatted with the format spec of its placeholder (e.g. `{x:.2f}` given text)."""


def _short(text: str, limit: int = 120) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _escape(literal: str) -> str:
    return literal.replace("{", "{{").replace("}", "}}")


class Placeholder:
    """One `{name!conversion:spec}` of a compiled format string."""

    __slots__ = ("name", "conversion", "spec")

    def __init__(self, name: str, conversion: Optional[str], spec: str):
        self.name = name
        self.conversion = conversion
        self.spec = spec

    def source(self) -> str:
        """The placeholder written back as format syntax."""
        conversion = f"!{self.conversion}" if self.conversion else ""
        return "{" + self.name + conversion + (f":{self.spec}" if self.spec else "") + "}"

    def __repr__(self) -> str:
        return f"Placeholder({self.source()})"


class _Marker:
    """The `\\N` conditional newline (a singleton part)."""

    def __repr__(self) -> str:
        return "NEWLINE_MARKER"


MARKER = _Marker()
Part = Union[str, Placeholder, _Marker]


class CompiledFormat:
    """A validated format string: its parts (literal text, placeholders, markers) and a fast renderer."""

    __slots__ = ("text", "parts", "fields", "spec_fields", "has_marker", "_chunks", "_format_map", "_constant", "_only")

    def __init__(self, text: str, parts: List[Part]):
        self.text = text
        self.parts: Tuple[Part, ...] = tuple(parts)
        placeholders = [part for part in parts if isinstance(part, Placeholder)]
        self.fields: Tuple[str, ...] = tuple(dict.fromkeys(part.name for part in placeholders))
        # fields formatted with a spec: callers pass numbers unserialised to them so "{x:.2f}" works.
        self.spec_fields: Tuple[str, ...] = tuple(dict.fromkeys(p.name for p in placeholders if p.spec))
        self.has_marker = any(part is MARKER for part in parts)
        # chunks: the parts between markers (MARKER objects kept in place), each as (name, None) when it is just one
        # plain `{name}` (rendered by a lookup) or else (None, its format_map-ready text).
        chunks: List[Union[Tuple[Optional[str], Optional[str]], _Marker]] = []
        current: List[Part] = []
        for part in parts:
            if part is MARKER:
                chunks.append(_chunk(current))
                chunks.append(MARKER)
                current = []
            else:
                current.append(part)
        chunks.append(_chunk(current))
        self._chunks = tuple(chunks)
        self._format_map = _format_text(parts).format_map if not self.has_marker else None
        # a string that is just one plain `{name}` (output formats such as "{label}"): a text value is the result
        self._only = self._chunks[0][0] if len(self._chunks) == 1 else None
        self._constant: Optional[str] = None
        if not placeholders and not self.has_marker:
            self._constant = "".join(parts)

    @property
    def is_constant(self) -> bool:
        """True when the string has no placeholders and no markers (renders to the same text every time)."""
        return self._constant is not None

    def render(self, values: Mapping[str, Any], where: str = "format string") -> str:
        """Substitute `values` (a mapping name -> value); `where` names the string in error messages."""
        if self._constant is not None:
            return self._constant
        if self._only is not None:
            value = values.get(self._only)
            if type(value) is str:
                return value
        try:
            if self._format_map is not None:
                return self._format_map(values)
            return self._render_with_markers(values)
        except KeyError:
            missing = [name for name in self.fields if name not in values]
            if not missing:
                raise
            raise MissingPlaceholderError(
                f"Placeholder '{{{missing[0]}}}' in {where} {_short(self.text)} has no value. "
                f"Available fields: {', '.join(sorted(map(str, values))) or '(none)'}.",
                field=missing[0],
            ) from None
        except (ValueError, TypeError) as error:
            raise self._value_error(values, where, error) from None

    def _render_with_markers(self, values: Mapping[str, Any], chunks: Optional[tuple] = None, start: str = "") -> str:
        """The rendering of the chunks (all by default) after the text `start` (the rendering of the chunks before)."""
        pieces: List[str] = [start] if start else []
        append = pieces.append
        needs_newline = bool(start) and start[-1] != "\n"  # the text so far is non-empty and does not end with one
        for chunk in self._chunks if chunks is None else chunks:
            if chunk is MARKER:
                if needs_newline:
                    append("\n")
                    needs_newline = False
                elif pieces:  # the text so far ends with newlines (or is only newlines): keep at most one
                    text = "".join(pieces).rstrip("\n")
                    pieces[:] = [text + "\n"] if text else []
                continue
            name, text = chunk
            if name is not None:
                text = values[name]
                if type(text) is not str:
                    text = format(text)  # what format_map does for a plain `{name}`
            elif text:
                text = text.format_map(values)
            if text:
                append(text)
                needs_newline = text[-1] != "\n"
        return "".join(pieces)

    def head_memo(self, varying: Collection[str]) -> Optional[Callable[[Mapping[str, Any]], str]]:
        """For calls whose values repeat for the leading marker-delimited chunks (a system prompt and an instruction
        before each row's demos and source): a `render` that keeps those chunks' text per tuple of their values (a
        RepeatMemo) and renders the rest after it. None when the first chunk already uses a `varying` name."""
        if not self.has_marker:
            return None
        end = markers = 0  # the parts up to the marker closing the last leading chunk free of `varying` names
        for index, part in enumerate(self.parts):
            if part is MARKER:
                end, markers = index + 1, markers + 1
            elif isinstance(part, Placeholder) and part.name in varying:
                break
        if not markers:
            return None
        head = RepeatMemo(CompiledFormat(self.text, list(self.parts[:end])))
        rest, render_rest = self._chunks[2 * markers:], self._render_with_markers  # a chunk precedes every marker

        def render(values: Mapping[str, Any]) -> str:
            return render_rest(values, rest, head.render(values))

        return render

    def _value_error(self, values: Mapping[str, Any], where: str, error: Exception) -> UnitxtError:
        for part in self.parts:
            if isinstance(part, Placeholder) and part.name in values:
                try:
                    part.source().format_map(values)
                except (ValueError, TypeError) as inner:
                    value = values[part.name]
                    return FormatValueError(
                        f"Can not format placeholder '{part.source()}' in {where} {_short(self.text)} with value "
                        f"{_short(str(value), 60)} of type {type(value).__name__}: {inner}.",
                        field=part.name,
                    )
        return FormatValueError(f"Can not render {where} {_short(self.text)}: {error}.")

    def __repr__(self) -> str:
        return f"CompiledFormat({self.text!r})"


class RepeatMemo:
    """Renders a compiled format string, remembering the text per tuple of its placeholders' values.

    For strings whose inputs repeat across instances (an instruction filled with the task's class list, a target
    prefix naming a relation): a lookup costs a fraction of a `format_map`. Only all-`str` value tuples are stored
    (equal numbers of different types, such as 1 and 1.0, format differently). The memo holds at most `max_size`
    entries; when it fills up having served fewer hits than it holds, the values evidently do not repeat and it
    switches itself off, so strings filled with per-instance text pay only one lookup per render.
    """

    __slots__ = ("compiled", "max_size", "_key", "_single", "_texts", "_hits")

    def __init__(self, compiled: CompiledFormat, max_size: int = 4096):
        self.compiled = compiled
        self.max_size = max_size
        fields = compiled.fields
        self._key = operator.itemgetter(*fields) if fields else None  # one field: the value itself, else a tuple
        self._single = len(fields) == 1
        self._texts: Optional[Dict[Any, str]] = {} if fields else None
        self._hits = 0

    def render(self, values: Mapping[str, Any], where: str = "format string") -> str:
        texts = self._texts
        if texts is None:
            return self.compiled.render(values, where)
        try:
            key = self._key(values)
        except KeyError:
            return self.compiled.render(values, where)  # raises the error naming the missing placeholder
        try:
            text = texts.get(key)
        except TypeError:  # an unhashable value (only a custom serializer could produce one)
            return self.compiled.render(values, where)
        if text is not None:
            self._hits += 1
            return text
        text = self.compiled.render(values, where)
        self._remember(key, text)
        return text

    def _remember(self, key: Any, text: str) -> None:
        texts = self._texts
        if len(texts) >= self.max_size:
            if self._hits < len(texts):
                self._texts = None  # the values do not repeat: stop paying for lookups
            return
        if all(type(value) is str for value in ((key,) if self._single else key)):
            texts[key] = text


def _format_text(parts: List[Part]) -> str:
    """Literal text and placeholders (no markers) written back as a format_map-ready string."""
    return "".join(part.source() if isinstance(part, Placeholder) else _escape(part) for part in parts)


def _chunk(parts: List[Part]) -> Tuple[Optional[str], Optional[str]]:
    """A marker-free run of parts as (name, None) when it is one plain `{name}`, else (None, format_map text)."""
    if len(parts) == 1 and isinstance(parts[0], Placeholder) and not parts[0].conversion and not parts[0].spec:
        return parts[0].name, None
    return None, _format_text(parts)


_cache: Dict[Tuple[str, bool], CompiledFormat] = {}


def compile_format(
    text: str,
    artifact: Optional[str] = None,
    where: str = "format string",
    allow_newline_marker: bool = False,
) -> CompiledFormat:
    """Validate and compile a format string (cached); errors name `artifact` and `where` (e.g. "input_format")."""
    if not isinstance(text, str):
        raise FormatStringError(f"{where} must be a string, got {type(text).__name__}.", artifact=artifact)
    key = (text, allow_newline_marker)
    compiled = _cache.get(key)
    if compiled is None:
        compiled = CompiledFormat(text, _parse(text, artifact, where, allow_newline_marker))
        if len(_cache) < 100_000:
            _cache[key] = compiled
    return compiled


def _parse(text: str, artifact: Optional[str], where: str, allow_newline_marker: bool) -> List[Part]:
    def fail(message: str, brace_hint: bool = False) -> FormatStringError:
        hint = " Write '{{' and '}}' for literal braces." if brace_hint else ""
        return FormatStringError(f"{where} {_short(text)}: {message}.{hint}", artifact=artifact)

    try:
        parsed = list(_PARSER.parse(text))
    except ValueError as error:
        raise fail(f"malformed braces ({error})", brace_hint=True) from None
    parts: List[Part] = []
    literal: List[str] = []

    def flush_literal() -> None:
        joined = "".join(literal)
        literal.clear()
        if not joined:
            return
        if not allow_newline_marker:
            parts.append(joined)
            return
        for index, piece in enumerate(joined.split(NEWLINE_MARKER)):
            if index:
                parts.append(MARKER)
            if piece:
                parts.append(piece)

    for literal_text, name, spec, conversion in parsed:
        if literal_text:
            literal.append(literal_text)
        if name is None:
            continue
        shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
        if name == "" or name.isdigit():
            raise fail(f"placeholder '{shown}' is positional; placeholders must name a field, e.g. '{{text}}'", True)
        if "." in name or "[" in name:
            raise fail(
                f"placeholder '{shown}' uses attribute or index access, which is not allowed; "
                "only plain field names can be used"
            )
        if not _NAME.match(name):
            raise fail(f"placeholder '{shown}' is not a valid field name", brace_hint=True)
        if conversion not in _ALLOWED_CONVERSIONS:
            raise fail(f"placeholder '{shown}' uses conversion '!{conversion}'; only !s and !r are allowed")
        if "{" in spec or "}" in spec:
            raise fail(f"placeholder '{shown}' nests a field inside its format spec, which is not allowed")
        if spec and any(int(number) > MAX_FORMAT_WIDTH for number in re.findall(r"\d+", spec)):
            raise fail(f"placeholder '{shown}' asks for a width or precision above {MAX_FORMAT_WIDTH}")
        if spec and not _valid_spec(spec):
            raise fail(f"placeholder '{shown}' has an invalid format spec '{spec}'")
        flush_literal()
        parts.append(Placeholder(name, conversion, spec))
    flush_literal()
    return parts


MAX_FORMAT_WIDTH = 10_000  # widths/precisions in format specs: "{text:>2147483647}" would build a 2 GB string


def _valid_spec(spec: str) -> bool:
    """Whether a format spec suits text or numbers (the value's type is only known at render time)."""
    for sample in ("", 0, 0.0):
        try:
            format(sample, spec)
            return True
        except (ValueError, TypeError):
            continue
    return False


def format_text(
    text: str,
    values: Mapping[str, Any],
    artifact: Optional[str] = None,
    where: str = "format string",
    allow_newline_marker: bool = False,
) -> str:
    """Compile (cached) and render in one call; errors carry `artifact`."""
    try:
        return compile_format(text, artifact, where, allow_newline_marker).render(values, where)
    except UnitxtError as error:
        raise error.with_context(artifact=artifact) from None


def check_placeholders(
    compiled: CompiledFormat, allowed: List[str], artifact: Optional[str] = None, where: str = "format string"
) -> None:
    """Raise FormatStringError when the string uses a placeholder outside `allowed` (checked at construction)."""
    unknown = [name for name in compiled.fields if name not in allowed]
    if unknown:
        raise FormatStringError(
            f"{where} {_short(compiled.text)} uses unknown placeholder '{{{unknown[0]}}}'. "
            f"Available placeholders: {', '.join('{' + name + '}' for name in allowed)}.",
            artifact=artifact,
            field=unknown[0],
        )


__all__ = [
    "NEWLINE_MARKER",
    "CompiledFormat",
    "RepeatMemo",
    "Placeholder",
    "FormatStringError",
    "FormatValueError",
    "MissingPlaceholderError",
    "compile_format",
    "format_text",
    "check_placeholders",
]
