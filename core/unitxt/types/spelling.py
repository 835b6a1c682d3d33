"""Type-string spelling: the original's canonical form of a type string — no spaces, no `typing.` prefix,
`list`/`dict`/`tuple` capitalised and `a|b` written `Union[a,b]` — so that type strings written either way parse."""

import re
from typing import List, Tuple, Union

from ..errors import UnitxtError


class TypeStringError(UnitxtError, ValueError, AssertionError):
    """A type string could not be parsed or names an unregistered type."""


class TypeStringSyntaxError(TypeStringError, SyntaxError):
    """A type string that is not well formed (a stray ',' or ']'): also a SyntaxError, as in the original."""

    def __str__(self) -> str:  # SyntaxError would otherwise print its (unset) `msg`
        return self.args[0] if self.args else ""


class TypeStringNestingError(TypeStringError, TypeError):
    """A '[' where a type name belongs (`List[[int]]`): also a TypeError, as in the original."""


_CAPITALISED = {"list": "List", "dict": "Dict", "tuple": "Tuple"}
_PIECE = re.compile(r"\s+|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[\[\],|]|[^\s\[\],|'\"]+")


def _pieces(text: str) -> List[str]:
    pieces, position = [], 0
    for match in _PIECE.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        if not match.group().isspace():
            pieces.append(match.group())
    if position != len(text):
        raise TypeStringSyntaxError(f"Malformed type string {text!r}: unexpected {text[position]!r} at {position}.")
    return pieces


Node = Union[str, Tuple[str, list]]


class _Reader:
    def __init__(self, text: str, pieces: List[str]):
        self.text, self.pieces, self.at = text, pieces, 0

    def peek(self) -> str:
        return self.pieces[self.at] if self.at < len(self.pieces) else ""

    def fail(self, what: str) -> SyntaxError:
        return TypeStringSyntaxError(f"Malformed type string {self.text!r}: {what}.")

    def sequence(self) -> list:
        items = [self.item()]
        while self.peek() == ",":
            self.at += 1
            items.append(self.item())
        return items

    def item(self) -> list:
        alternatives = [self.alternative()]
        while self.peek() == "|":
            self.at += 1
            alternatives.append(self.alternative())
        return alternatives

    def alternative(self) -> Node:
        piece = self.peek()
        if piece in ("", ",", "|", "]"):
            raise self.fail(f"expected a type at {piece or 'the end'!r}")
        name = ""
        if piece != "[":
            self.at += 1
            if piece[0] in "'\"":
                return piece
            name = piece[len("typing."):] if piece.startswith("typing.") else piece
            name = _CAPITALISED.get(name, name)
            if self.peek() != "[":
                return name
        self.at += 1
        inner = self.sequence()
        if self.peek() != "]":
            raise self.fail("a '[' is not closed")
        self.at += 1
        return (name, inner)


def _render(node: Node, literal_bars: bool) -> str:
    if isinstance(node, str):
        return node if not node or node[0] not in "'\"" or not literal_bars else node.replace("|", ",")
    name, items = node
    return f"{name}[{','.join(_render_item(item, literal_bars) for item in items)}]"


def _render_item(alternatives: list, literal_bars: bool) -> str:
    rendered = [_render(node, literal_bars) for node in alternatives]
    return rendered[0] if len(rendered) == 1 else f"Union[{','.join(rendered)}]"


def format_type_string(type_string: str, literal_bars: bool = True) -> str:
    """`typing.Tuple[int, str|None]` -> `Tuple[int,Union[str,None]]`. As in the original, a `|` inside a quoted
    Literal value also becomes `,` (pass literal_bars=False to keep quoted values intact)."""
    reader = _Reader(type_string, _pieces(type_string))
    items = reader.sequence()
    if reader.at != len(reader.pieces):
        raise reader.fail(f"unexpected {reader.peek()!r}")
    return ",".join(_render_item(item, literal_bars) for item in items)


def needs_formatting(type_string: str) -> bool:
    """Whether a type string uses the `|` or `typing.` spellings (outside quoted values)."""
    bare = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "", type_string)
    return "|" in bare or "typing." in bare
