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
import re
import types
from typing import Any, Callable, Dict, FrozenSet, Iterable, Mapping, Optional

from ..errors import SandboxError

__all__ = ["CompiledExpression", "compile_expression", "evaluate_expression"]
from .runtime import (  # noqa: F401 - the limits are part of this module's documented API
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
from .validation import (  # the static checks of the tree
    _BINOP_HELPERS,
    _FORBIDDEN_OPCODE_PARTS,
    _HELPER_PREFIX,
    _ITERATE,
    _MODULE_CONSTANTS,
    _describe_names,
    _shorten,
    _Validator,
)

# ---------------------------------------------------------------------------
# rewriting (after validation): route guarded operations through trusted helpers
# ---------------------------------------------------------------------------


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
            raise SandboxError(  # Python's own words too ("name 'x' is not defined"): users match them
                f"unknown name '{name}' in expression {_shorten(self.expression)!r} (name '{name}' is not defined); "
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
    except (RecursionError, MemoryError):  # thousands of nested unary operators
        raise SandboxError(f"lambda {_shorten(text)!r} is nested too deeply") from None
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
