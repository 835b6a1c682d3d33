"""Sandboxed evaluation of the small Python expressions written in catalog JSON.

Operators such as ``ExecuteExpression('question + "?"', to_field="question")`` and
``FilterByExpression('len(question) == 0')`` take an expression *string* from a
catalog entry, i.e. from a possibly untrusted source.  This module turns such a
string into a :class:`CompiledExpression` whose :meth:`~CompiledExpression.evaluate`
is cheap enough to be called once per instance::

    compiled = compile_expression('len(question) == 0', allowed_names=["question"])
    compiled.evaluate({"question": ""})          # -> True

Public API
----------
``compile_expression(expression, allowed_names=None) -> CompiledExpression``
    Parse once, validate the whole tree, compile it.  Raises :class:`SandboxError`
    for anything outside the language below (the message names the construct and
    the expression).  If ``allowed_names`` is given, unknown names are refused
    here, otherwise when evaluating.
``CompiledExpression.evaluate(variables) -> Any``
    Evaluate with the instance fields of ``variables`` bound as names.  Any failure
    (unknown name - the message lists the available names -, a runtime guard, or an
    ordinary error such as ``ZeroDivisionError``) is raised as :class:`SandboxError`.
``evaluate_expression(expression, variables) -> Any``
    Convenience wrapper around an LRU cache of compiled expressions.

The language
------------
* literals: ``str``, ``int``, ``float``, ``complex``, ``True``/``False``/``None``
  (no ``bytes``, no ``...``); list / tuple / dict / set displays, including ``*x`` and
  ``**x`` unpacking inside displays;
* list / set / dict comprehensions and generator expressions (with ``if``);
* arithmetic, bitwise, boolean and comparison operators (``in``, ``not in``, ``is``,
  ``is not``, chained comparisons), conditional expressions, subscripts and slices;
* f-strings (conversions ``!s``/``!r``/``!a`` and format specs; nested parts of the
  spec are validated like any other expression);
* names: the instance fields, the variables of enclosing comprehensions, and the
  whitelisted functions ``len str int float bool abs min max sum round sorted any
  all list dict tuple set range enumerate zip reversed``;
* calls of ``re.search/match/fullmatch/sub/findall/split``, ``math.floor/ceil/
  sqrt/log/log2/log10/exp/isnan/isinf/fabs`` and ``json.loads/dumps``;
* method calls ``value.m(...)`` where ``m`` is one of the read-only methods of
  ``str`` (``lower upper strip lstrip rstrip split rsplit splitlines join replace
  startswith endswith capitalize title casefold find rfind index count
  removeprefix removesuffix isdigit isalpha isalnum isspace isnumeric islower
  isupper``), of ``list``/``tuple`` (``index count``), of ``dict`` (``get keys values
  items``) or of a regular expression match (``group groups groupdict start end
  span``).  The method is looked up at run time on the *builtin type* of the value
  (``str.lower(value)``, never ``value.lower``), so it is refused on any other type
  and an overriding subclass method is never run.

Everything else is refused at compile time: attribute access other than such a
method call (in particular any name or attribute starting with ``_``/``__``, and
``str.format``/``format_map`` whose format strings can reach attributes), calls of
anything but the whitelist (``eval``, ``exec``, ``open``, ``getattr``, ``type``,
``globals``, ``vars``, ``__import__``, instance fields, results of expressions,
...), ``lambda``, ``:=``, ``await``/``yield``, async comprehensions, ``**kwargs`` in
calls, keyword arguments that a function does not whitelist (``json.dumps(x,
default=f)``, ``json.loads(s, object_hook=f)``, ...), a ``key=`` that is not a
whitelisted function name, statements (``import os`` is not an expression),
expressions longer than 10,000 characters or nested deeper than 200 levels.

Names
-----
Instance fields are bound by name.  Fields whose names are not valid Python
identifiers (``"my-field"``, ``"1st"``), are keywords (``"class"``), or start with
``__`` are not reachable from an expression.  The names of the whitelisted
functions and of ``re``/``math``/``json`` are reserved: they always mean the
sandbox function/module, so a field called ``len`` is not reachable either, and
comprehension variables may not rebind them.  Fields are read-only: no whitelisted
construct mutates a value.

Why this is safe (no code of the expression's author can run)
------------------------------------------------------------------
1. The source is parsed with ``ast.parse(mode="eval")`` (a single expression, no
   statements) and *every* node is checked against a whitelist of node types; an
   unknown node type (including ones added by future Pythons) is refused.
2. Escapes out of a Python sandbox need either a builtin (``__import__``, ``open``,
   ``getattr``, ``type`` ...) or attribute access to introspection attributes
   (``__class__``, ``__globals__``, ``gi_frame``, ``format`` strings ...).  Builtins
   are unreachable: the code runs with ``{"__builtins__": {}}`` and the only
   callables it can call are the whitelisted functions, named statically.
   Attribute access is only possible as ``value.m(...)`` with ``m`` from a fixed
   set of method names, and even those calls are rewritten to a dispatcher that
   calls the builtin ``str``/``list``/``tuple``/``dict``/``re.Match`` method for the
   value's builtin type; so no attribute of any other object is ever looked up.
   As a second line of defence, the compiled byte code is checked to contain no
   attribute, import, store-global or delete instruction and to name no global
   outside the validated set.
3. The callables reachable are pure functions over data; none of them takes a
   callable from the expression except ``key=`` (statically a whitelisted
   function) and ``re.sub``'s replacement (refused at run time unless a ``str``).
   Instance fields are never called by the sandbox; a field value's *own* special
   methods (``__len__``, ``__add__``, ``__format__`` ...) do run, as with any code
   handling the data: the sandbox protects against the expression, not against
   the (trusted) objects put in instances by Python code.

Resource guards (best effort) and their design choice
-----------------------------------------------------
Operators whose result size depends on operand *values* are rewritten into
calls of run-time guards (the operand types are not known statically):

* ``a ** b``: refused if ``b`` is a number > 10,000 (``9**9**9``), or if both are
  ``int`` and the result would exceed 2**20 bits; ``a << b`` likewise;
* ``a * b``: sequence repetition (``str``/``list``/``tuple``) producing more than
  10**7 items is refused (``'a'*10**9``); so are ``int`` products above 2**20 bits;
* ``a + b``: concatenations growing a sequence beyond 10**7 items are refused;
* ``a % b`` with a ``str`` left operand (printf formatting, which has unbounded
  widths) is refused - use an f-string;
* ``range`` longer than 10**6, ``str.replace``/``str.join``/``re.sub`` results
  longer than 10**7 characters, f-string format specs with a number > 10,000
  (``f"{x:>1000000000}"``), ``round`` with ``|ndigits|`` > 10,000, ``sum`` with a
  non-numeric start (quadratic concatenation) and ``json.dumps`` with a large
  ``indent`` are refused;
* comprehensions may run at most 10**7 iterations in total per evaluation.

A ``SandboxError`` from a guard names the expression.  These guards stop the
obvious blow-ups; they are not a hard CPU/memory quota (an expression can still
build a list of 10**7 large strings, or use a catastrophically backtracking
regular expression).  Catalogs from untrusted sources should additionally be
run under an OS-level time/memory limit.
"""

import ast
import dis
import functools
import keyword
import math
import re
import types
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set

from .errors import SandboxError

__all__ = ["CompiledExpression", "compile_expression", "evaluate_expression"]
from .expression_runtime import (  # noqa: F401 - the limits are part of this module's documented API
    MAX_EXPRESSION_LENGTH,
    MAX_FORMAT_NUMBER,
    MAX_INT_BITS,
    MAX_ITERATIONS,
    MAX_JSON_INDENT,
    MAX_NESTING_DEPTH,
    MAX_POWER_EXPONENT,
    MAX_RANGE_LENGTH,
    MAX_SEQUENCE_LENGTH,
    _CALLABLE_KEYWORDS,
    _FORMAT_METHODS,
    _FUNCTIONS,
    _Function,
    _GuardError,
    _IterationBudget,
    _METHOD_NAMES,
    _MODULES,
    _RESERVED_NAMES,
    _call_method,
    _check_format_spec,
    _format_value,
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


# ---------------------------------------------------------------------------
# rewriting (after validation): route guarded operations through trusted helpers
# ---------------------------------------------------------------------------


# constants of the sandbox's modules an expression may read (compiled in as their values)
_MODULE_CONSTANTS: Dict[str, Dict[str, Any]] = {
    "re": {name: int(getattr(re, name)) for name in ("DOTALL", "IGNORECASE", "MULTILINE", "VERBOSE", "ASCII",
                                                     "S", "I", "M", "X", "A")},
    "math": {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan},
}


class _Rewriter(ast.NodeTransformer):
    def __init__(self) -> None:
        self.helpers: Dict[str, Any] = {}
        self.uses_iteration_budget = False

    def _helper(self, name: str, implementation: Any) -> ast.Name:
        self.helpers[name] = implementation
        return ast.Name(id=name, ctx=ast.Load())

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        helper = _BINOP_HELPERS.get(type(node.op))
        if helper is None:
            return node
        return ast.copy_location(ast.Call(func=self._helper(*helper), args=[node.left, node.right], keywords=[]), node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id in _MODULES:
                name = f"{_HELPER_PREFIX}{func.value.id}_{func.attr}"
                node.func = self._helper(name, _MODULES[func.value.id][func.attr].implementation)
            else:
                node.func = self._helper(_HELPER_PREFIX + "method", _call_method)
                node.args = [func.value, ast.Constant(value=func.attr), *node.args]
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.attr in _MODULE_CONSTANTS.get(node.value.id, {}):
            return ast.copy_location(ast.Constant(value=_MODULE_CONSTANTS[node.value.id][node.attr]), node)
        return self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        self.generic_visit(node)
        self.uses_iteration_budget = True
        node.iter = ast.Call(func=ast.Name(id=_ITERATE, ctx=ast.Load()), args=[node.iter], keywords=[])
        return node

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.AST:
        self.generic_visit(node)
        if node.format_spec is not None:
            node.value = ast.Call(
                func=self._helper(_HELPER_PREFIX + "format", _format_value),
                args=[node.value, node.format_spec, ast.Constant(value=node.conversion)],
                keywords=[],
            )
            node.conversion = -1
            node.format_spec = None
        return node


def _check_bytecode(code: types.CodeType, allowed_globals: FrozenSet[str], expression: str) -> None:
    """Second line of defence: no attribute/import/store-global byte code, no unexpected global names."""
    for instruction in dis.get_instructions(code):
        if any(part in instruction.opname for part in _FORBIDDEN_OPCODE_PARTS):
            raise SandboxError(
                f"internal sandbox check failed: instruction {instruction.opname} "
                f"in expression {_shorten(expression)!r}"
            )
    unexpected = set(code.co_names) - allowed_globals
    if unexpected:
        raise SandboxError(
            f"internal sandbox check failed: unexpected names {sorted(unexpected)} in expression {_shorten(expression)!r}"
        )
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            _check_bytecode(constant, allowed_globals, expression)


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------


class CompiledExpression:
    """A validated, compiled expression; `evaluate` it once per instance."""

    __slots__ = ("expression", "names", "functions", "_code", "_namespace", "_uses_iteration_budget")

    def __init__(
        self,
        expression: str,
        code: types.CodeType,
        names: FrozenSet[str],
        functions: FrozenSet[str],
        namespace: Dict[str, Any],
        uses_iteration_budget: bool,
    ):
        self.expression = expression
        #: names of instance fields the expression reads (comprehension variables excluded)
        self.names = names
        #: whitelisted functions the expression refers to by name
        self.functions = functions
        self._code = code
        self._namespace = namespace
        self._uses_iteration_budget = uses_iteration_budget

    def __repr__(self) -> str:
        return f"CompiledExpression({self.expression!r})"

    def evaluate(self, variables: Mapping[str, Any]) -> Any:
        """Evaluate with `variables` (an instance's fields) bound as names."""
        scope = {**variables, **self._namespace}  # the sandbox names always win over fields
        if self._uses_iteration_budget:
            scope[_ITERATE] = _IterationBudget().iterate
        try:
            return eval(self._code, scope)  # noqa: S307 - validated and rewritten, see module docstring
        except _GuardError as error:
            raise SandboxError(f"{error.message} in expression {_shorten(self.expression)!r}") from None
        except SandboxError:
            raise
        except NameError as error:
            name = getattr(error, "name", None)
            if name is None:
                found = re.search(r"name '([^']+)'", str(error))
                name = found.group(1) if found else str(error)
            raise SandboxError(
                f"unknown name '{name}' in expression {_shorten(self.expression)!r}; "
                f"available names: {_describe_names(variables)}"
            ) from None
        except RecursionError:
            raise SandboxError(f"evaluating expression {_shorten(self.expression)!r} recursed too deeply") from None
        except Exception as error:
            raise SandboxError(
                f"evaluating expression {_shorten(self.expression)!r} failed: {type(error).__name__}: {error}"
            ) from error


def compile_expression(expression: str, allowed_names: Optional[Iterable[str]] = None) -> CompiledExpression:
    """Parse, validate and compile `expression` (see the module docstring for the language).

    If `allowed_names` is given, names other than those, the whitelisted functions and
    comprehension variables are refused here; otherwise at evaluation time.
    """
    if not isinstance(expression, str):
        raise SandboxError(f"an expression must be a string, got {type(expression).__name__}")
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise SandboxError(
            f"expression {_shorten(expression, 60)!r} is too long "
            f"({len(expression)} characters, at most {MAX_EXPRESSION_LENGTH} are allowed)"
        )
    allowed = frozenset(allowed_names) if allowed_names is not None else None
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as error:
        raise SandboxError(
            f"invalid expression {_shorten(expression)!r}: {error.msg} "
            f"(only a single Python expression is allowed, no statements)"
        ) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise SandboxError(f"invalid expression {_shorten(expression)!r}: {type(error).__name__}: {error}") from None

    validator = _Validator(expression.strip(), allowed)
    try:
        validator.visit(tree, frozenset())
    except RecursionError:
        raise SandboxError(f"expression {_shorten(expression)!r} is nested too deeply") from None

    rewriter = _Rewriter()
    tree = ast.fix_missing_locations(rewriter.visit(tree))
    namespace: Dict[str, Any] = {"__builtins__": {}}
    for name in sorted(validator.functions):
        namespace[name] = _FUNCTIONS[name].implementation
    namespace.update(rewriter.helpers)
    try:
        code = compile(tree, "<unitxt expression>", "eval", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        raise SandboxError(f"invalid expression {_shorten(expression)!r}: {type(error).__name__}: {error}") from None

    allowed_globals = frozenset(namespace) | validator.variables | {_ITERATE} | _every_bound_name(tree)
    _check_bytecode(code, allowed_globals, expression)
    return CompiledExpression(
        expression=expression,
        code=code,
        names=frozenset(validator.variables),
        functions=frozenset(validator.functions),
        namespace=namespace,
        uses_iteration_budget=rewriter.uses_iteration_budget,
    )


def _every_bound_name(tree: ast.AST) -> FrozenSet[str]:
    """Comprehension variables (they appear in co_names on Pythons that inline comprehensions)."""
    return frozenset(
        node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    )


@functools.lru_cache(maxsize=1024)
def _cached_compile(expression: str) -> CompiledExpression:
    return compile_expression(expression)


def evaluate_expression(expression: str, variables: Mapping[str, Any]) -> Any:
    """Compile (cached) and evaluate `expression` over `variables`."""
    if not isinstance(expression, str):
        raise SandboxError(f"an expression must be a string, got {type(expression).__name__}")
    return _cached_compile(expression).evaluate(variables)


def compile_lambda(text: str) -> Callable[[Any], Any]:
    """Compile a one-argument lambda string (`"lambda x: x['label'] != -1"`, as catalogs write row filters) into a
    callable whose body runs in this sandbox with the argument bound to its name. Nothing else is accepted: no
    defaults, no second argument, no nested lambda (the body is validated like any other expression)."""
    if not isinstance(text, str):
        raise SandboxError(f"a lambda must be a string, got {type(text).__name__}")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise SandboxError(f"lambda {_shorten(text, 60)!r} is too long ({len(text)} characters)")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        raise SandboxError(f"invalid lambda {_shorten(text)!r}: {error.msg}") from None
    node = tree.body
    arguments = getattr(node, "args", None)
    if (not isinstance(node, ast.Lambda) or arguments.posonlyargs or arguments.kwonlyargs or arguments.vararg
            or arguments.kwarg or arguments.defaults or len(arguments.args) != 1):
        raise SandboxError(f"expected 'lambda <name>: <expression>' with exactly one argument, got {_shorten(text)!r}")
    name = arguments.args[0].arg
    body = ast.get_source_segment(text.strip(), node.body)
    compiled = compile_expression(body, allowed_names=[name])

    def call(value: Any) -> Any:
        return compiled.evaluate({name: value})

    call.expression = compiled  # type: ignore[attr-defined]
    return call
