"""Static validation of sandboxed expressions (expressions.py): the whole syntax tree is checked against the
expression language before anything is compiled; anything outside it is a SandboxError naming the construct."""

import ast
import keyword
import math
import re
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Set

from ..errors import SandboxError

from .runtime import (
    MAX_NESTING_DEPTH,
    _CALLABLE_KEYWORDS,
    _FORMAT_METHODS,
    _FUNCTIONS,
    _Function,
    _GuardError,
    _METHOD_NAMES,
    _MODULES,
    _RESERVED_NAMES,
    _call_method,
    _check_format_spec,
    _guarded_add,
    _guarded_lshift,
    _guarded_mod,
    _guarded_mul,
    _guarded_pow,
)

_ALLOWED_CONSTANT_TYPES = (str, int, float, complex, bool, type(None))

_BINARY_OPERATORS = (
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.LShift, ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd,
)  # fmt: skip
_UNARY_OPERATORS = (ast.Not, ast.USub, ast.UAdd, ast.Invert)

_REFUSED_DESCRIPTIONS = {
    "Lambda": "lambda",
    "NamedExpr": "assignment expression ':='",
    "Await": "await",
    "Yield": "yield",
    "YieldFrom": "yield from",
    "MatMult": "operator '@'",
}

# helpers the rewritten tree refers to; user names starting with "__" are refused, so these are unforgeable
_HELPER_PREFIX = "__sandbox_"
_ITERATE = _HELPER_PREFIX + "iterate"
_BINOP_HELPERS: Dict[type, Any] = {
    ast.Add: (_HELPER_PREFIX + "add", _guarded_add),
    ast.Mult: (_HELPER_PREFIX + "mul", _guarded_mul),
    ast.Pow: (_HELPER_PREFIX + "pow", _guarded_pow),
    ast.LShift: (_HELPER_PREFIX + "lshift", _guarded_lshift),
    ast.Mod: (_HELPER_PREFIX + "mod", _guarded_mod),
}

# byte code that must never appear in a compiled expression (second line of defence)
_FORBIDDEN_OPCODE_PARTS = ("ATTR", "METHOD", "IMPORT", "DELETE", "STORE_GLOBAL", "STORE_SUBSCR", "SUPER")


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


class _Validator:
    """Checks a parsed expression against the whitelist; records the names it uses."""

    def __init__(self, expression: str, allowed_names: Optional[FrozenSet[str]]):
        self.expression = expression
        self.allowed_names = allowed_names
        self.variables: Set[str] = set()
        self.functions: Set[str] = set()
        self.depth = 0

    # -- errors --------------------------------------------------------------
    def refuse(self, construct: str, node: Optional[ast.AST] = None, hint: str = "") -> SandboxError:
        message = f"{construct} is not allowed"
        segment = None
        if node is not None and getattr(node, "end_col_offset", None) is not None:
            segment = ast.get_source_segment(self.expression, node)
        if segment and segment.strip() != self.expression.strip():
            message += f" (in {_shorten(segment, 80)!r})"
        message += f" in expression {_shorten(self.expression)!r}"
        if hint:
            message += f"; {hint}"
        return SandboxError(message)

    # -- traversal -------------------------------------------------------------
    def visit(self, node: ast.AST, bound: FrozenSet[str]) -> None:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING_DEPTH:
                raise self.refuse(f"nesting deeper than {MAX_NESTING_DEPTH} levels")
            method = getattr(self, "visit_" + type(node).__name__, None)
            if method is None:
                name = type(node).__name__
                raise self.refuse(_REFUSED_DESCRIPTIONS.get(name, f"the construct '{name}'"), node)
            method(node, bound)
        finally:
            self.depth -= 1

    def visit_Expression(self, node: ast.Expression, bound: FrozenSet[str]) -> None:
        self.visit(node.body, bound)

    def visit_Constant(self, node: ast.Constant, bound: FrozenSet[str]) -> None:
        if type(node.value) not in _ALLOWED_CONSTANT_TYPES:
            raise self.refuse(f"a literal of type '{type(node.value).__name__}'", node)

    def visit_Name(self, node: ast.Name, bound: FrozenSet[str]) -> None:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse(f"assigning to '{node.id}'", node)
        name = node.id
        if name.startswith("__"):
            raise self.refuse(f"the dunder name '{name}'", node)
        if name in bound:
            return
        if name in _MODULES:
            raise self.refuse(
                f"using the module '{name}' as a value", node, hint=f"only calls like {name}.<function>(...) are allowed"
            )
        if name in _FUNCTIONS:
            self.functions.add(name)
            return
        if self.allowed_names is not None and name not in self.allowed_names:
            raise SandboxError(
                f"unknown name '{name}' in expression {_shorten(self.expression)!r}; "
                f"available names: {_describe_names(self.allowed_names)}"
            )
        self.variables.add(name)

    def visit_BinOp(self, node: ast.BinOp, bound: FrozenSet[str]) -> None:
        if not isinstance(node.op, _BINARY_OPERATORS):
            name = type(node.op).__name__
            raise self.refuse(_REFUSED_DESCRIPTIONS.get(name, f"operator '{name}'"), node)
        if isinstance(node.op, ast.Mod) and (
            isinstance(node.left, ast.JoinedStr)
            or (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str))
        ):
            raise self.refuse("printf-style '%' string formatting", node, hint="use an f-string")
        self.visit(node.left, bound)
        self.visit(node.right, bound)

    def visit_UnaryOp(self, node: ast.UnaryOp, bound: FrozenSet[str]) -> None:
        if not isinstance(node.op, _UNARY_OPERATORS):
            raise self.refuse(f"operator '{type(node.op).__name__}'", node)
        self.visit(node.operand, bound)

    def visit_BoolOp(self, node: ast.BoolOp, bound: FrozenSet[str]) -> None:
        for value in node.values:
            self.visit(value, bound)

    def visit_Compare(self, node: ast.Compare, bound: FrozenSet[str]) -> None:
        self.visit(node.left, bound)
        for comparator in node.comparators:
            self.visit(comparator, bound)

    def visit_IfExp(self, node: ast.IfExp, bound: FrozenSet[str]) -> None:
        self.visit(node.test, bound)
        self.visit(node.body, bound)
        self.visit(node.orelse, bound)

    def _visit_display(self, node: Any, bound: FrozenSet[str]) -> None:
        if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            raise self.refuse("assignment", node)
        for element in node.elts:
            self.visit(element, bound)

    visit_List = visit_Tuple = visit_Set = _visit_display

    def visit_Dict(self, node: ast.Dict, bound: FrozenSet[str]) -> None:
        for key in node.keys:
            if key is not None:  # None: `**mapping` unpacking
                self.visit(key, bound)
        for value in node.values:
            self.visit(value, bound)

    def visit_Starred(self, node: ast.Starred, bound: FrozenSet[str]) -> None:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse("starred assignment", node)
        self.visit(node.value, bound)

    def visit_Subscript(self, node: ast.Subscript, bound: FrozenSet[str]) -> None:
        if not isinstance(node.ctx, ast.Load):
            raise self.refuse("assignment to a subscript", node)
        self.visit(node.value, bound)
        self.visit(node.slice, bound)

    def visit_Slice(self, node: ast.Slice, bound: FrozenSet[str]) -> None:
        for part in (node.lower, node.upper, node.step):
            if part is not None:
                self.visit(part, bound)

    def visit_JoinedStr(self, node: ast.JoinedStr, bound: FrozenSet[str]) -> None:
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue
            if not isinstance(value, ast.FormattedValue):
                raise self.refuse(f"the f-string part '{type(value).__name__}'", node)
            self.visit(value, bound)

    def visit_FormattedValue(self, node: ast.FormattedValue, bound: FrozenSet[str]) -> None:
        if node.conversion not in (-1, ord("s"), ord("r"), ord("a")):
            raise self.refuse(f"the f-string conversion {node.conversion!r}", node)
        self.visit(node.value, bound)
        if node.format_spec is not None:
            if not isinstance(node.format_spec, ast.JoinedStr):
                raise self.refuse("this f-string format spec", node)
            for part in node.format_spec.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    try:
                        _check_format_spec(part.value)
                    except _GuardError as error:
                        raise self.refuse(error.message.replace(" is not allowed", ""), node) from None
            self.visit(node.format_spec, bound)

    # -- comprehensions --------------------------------------------------------
    def _visit_comprehension(self, node: Any, elements: List[ast.AST], bound: FrozenSet[str]) -> None:
        inner = set(bound)
        for generator in node.generators:
            if generator.is_async:
                raise self.refuse("an async comprehension", node)
            self.visit(generator.iter, frozenset(inner))
            self._bind(generator.target, inner)
            for condition in generator.ifs:
                self.visit(condition, frozenset(inner))
        for element in elements:
            self.visit(element, frozenset(inner))

    def visit_ListComp(self, node: ast.ListComp, bound: FrozenSet[str]) -> None:
        self._visit_comprehension(node, [node.elt], bound)

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp, bound: FrozenSet[str]) -> None:
        self._visit_comprehension(node, [node.key, node.value], bound)

    def _bind(self, target: ast.AST, names: Set[str]) -> None:
        if isinstance(target, ast.Name):
            if target.id.startswith("__"):
                raise self.refuse(f"the dunder name '{target.id}'", target)
            if target.id in _RESERVED_NAMES:
                raise self.refuse(f"rebinding the reserved name '{target.id}'", target)
            names.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._bind(element, names)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, names)
        else:
            raise self.refuse(f"a comprehension target of type '{type(target).__name__}'", target)

    # -- attributes and calls ----------------------------------------------------
    def _check_attribute_name(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_"):
            raise self.refuse(f"access to the private attribute '.{node.attr}'", node)
        if node.attr in _FORMAT_METHODS:
            raise self.refuse(
                f"str.{node.attr}() (format strings can reach attributes)", node, hint="use an f-string instead"
            )

    def visit_Attribute(self, node: ast.Attribute, bound: FrozenSet[str]) -> None:
        self._check_attribute_name(node)
        if isinstance(node.value, ast.Name) and node.value.id not in bound \
                and node.attr in _MODULE_CONSTANTS.get(node.value.id, {}):
            return  # a module constant (re.DOTALL, math.pi): replaced by its value when compiling
        raise self.refuse(
            f"attribute access '.{node.attr}'", node, hint="only calls of whitelisted methods like x.lower() are allowed"
        )

    def visit_Call(self, node: ast.Call, bound: FrozenSet[str]) -> None:
        func = node.func
        spec: Optional[_Function]
        if isinstance(func, ast.Name):
            name = func.id
            if name.startswith("__"):
                raise self.refuse(f"calling the dunder name '{name}'", node)
            if name not in _FUNCTIONS or name in bound:
                raise self.refuse(
                    f"calling '{name}'", node, hint=f"callable functions are: {', '.join(sorted(_FUNCTIONS))}"
                )
            self.functions.add(name)
            spec = _FUNCTIONS[name]
        elif isinstance(func, ast.Attribute):
            self._check_attribute_name(func)
            if isinstance(func.value, ast.Name) and func.value.id in _MODULES and func.value.id not in bound:
                module = _MODULES[func.value.id]
                if func.attr not in module:
                    raise self.refuse(
                        f"calling '{func.value.id}.{func.attr}'",
                        node,
                        hint=f"allowed: {', '.join(func.value.id + '.' + name for name in sorted(module))}",
                    )
                spec = module[func.attr]
            else:
                self.visit(func.value, bound)  # report the innermost problem first: __import__('os').system
                if func.attr not in _METHOD_NAMES:
                    raise self.refuse(
                        f"calling the method '.{func.attr}()'",
                        node,
                        hint=f"allowed methods: {', '.join(sorted(_METHOD_NAMES))}",
                    )
                spec = _Function(_call_method, None)
        else:
            self.visit(func, bound)  # reports e.g. a lambda precisely
            raise self.refuse("calling the result of an expression", node)

        for argument in node.args:
            self.visit(argument, bound)
        for item in node.keywords:
            if item.arg is None:
                raise self.refuse("'**' unpacking in a call", item.value)
            if item.arg.startswith("_"):
                raise self.refuse(f"the keyword argument '{item.arg}'", item.value)
            if spec.keywords is not None and item.arg not in spec.keywords:
                allowed = ", ".join(sorted(spec.keywords)) or "none"
                raise self.refuse(f"the keyword argument '{item.arg}'", node, hint=f"allowed keywords: {allowed}")
            if item.arg in _CALLABLE_KEYWORDS and spec.keywords is not None:
                value = item.value
                is_function = isinstance(value, ast.Name) and value.id in _FUNCTIONS and value.id not in bound
                if not (is_function or (isinstance(value, ast.Constant) and value.value is None)):
                    raise self.refuse(
                        f"'{item.arg}=' other than a whitelisted function name", item.value,
                        hint=f"use one of: {', '.join(sorted(_FUNCTIONS))}",
                    )  # fmt: skip
            self.visit(item.value, bound)


def _describe_names(names: Iterable[Any]) -> str:
    shown = sorted(
        name for name in names if isinstance(name, str) and name.isidentifier() and not keyword.iskeyword(name)
        and not name.startswith("__") and name not in _RESERVED_NAMES
    )  # fmt: skip
    return ", ".join(shown) if shown else "(none)"


# constants of the sandbox's modules an expression may read (compiled in as their values)
_MODULE_CONSTANTS: Dict[str, Dict[str, Any]] = {
    "re": {name: int(getattr(re, name)) for name in ("DOTALL", "IGNORECASE", "MULTILINE", "VERBOSE", "ASCII",
                                                     "S", "I", "M", "X", "A")},
    "math": {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan},
}
