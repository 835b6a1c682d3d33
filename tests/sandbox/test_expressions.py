"""Tests of the sandboxed expression evaluator (unitxt.expressions)."""

import json
import math
import os
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unitxt import expressions
from unitxt.errors import SandboxError
from unitxt.expressions import CompiledExpression, compile_expression, evaluate_expression

INSTANCE = {
    "question": "What is 2+2?",
    "answer": "4",
    "choices": ["1", "2", "4"],
    "label": 2,
    "score": 0.75,
    "meta": {"source": "unit", "count": 3},
    "empty": "",
}


# ---------------------------------------------------------------------------
# the documented language works
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression, expected",
    [
        ('question + "?"', "What is 2+2??"),
        ("len(question) == 0", False),
        ("len(empty) == 0", True),
        ("label + 1", 3),
        ("score * 2 >= 1.5 and label in [1, 2]", True),
        ("answer not in choices", False),
        ("meta is not None", True),
        ("choices[label]", "4"),
        ("question[:4]", "What"),
        ("question[::-1][:3]", "?2+"),
        ("choices[-1] if label > 1 else choices[0]", "4"),
        ("[c.upper() for c in choices if c != '2']", ["1", "4"]),
        ("{c: i for i, c in enumerate(choices)}", {"1": 0, "2": 1, "4": 2}),
        ("{len(c) for c in choices}", {1}),
        ("sum(int(c) for c in choices)", 7),
        ("any(c == answer for c in choices)", True),
        ("all(c.isdigit() for c in choices)", True),
        ('f"{question} Answer: {answer!r}"', "What is 2+2? Answer: '4'"),
        ('f"{score:.1f}|{label:>3}|{answer:{label}}"', "0.8|  2|4 "),
        ("sorted(choices, key=int, reverse=True)", ["4", "2", "1"]),
        ("max(choices, key=len)", "1"),
        ("min([], default=0)", 0),
        ("abs(-3) + round(2.567, 2)", 5.57),
        ("list(zip(choices, range(3)))", [("1", 0), ("2", 1), ("4", 2)]),
        ("list(reversed(choices))", ["4", "2", "1"]),
        ("tuple(choices) + (1,)", ("1", "2", "4", 1)),
        ("set(choices) == {'1', '2', '4'}", True),
        ("dict(a=1, b=label)", {"a": 1, "b": 2}),
        ("[*choices, *range(2)]", ["1", "2", "4", 0, 1]),
        ("{**meta, 'extra': True}", {"source": "unit", "count": 3, "extra": True}),
        ("meta.get('source') + meta.get('missing', '!')", "unit!"),
        ("sorted(meta.keys()) + sorted(str(v) for v in meta.values())", ["count", "source", "3", "unit"]),
        ("[k for k, v in meta.items() if v == 3]", ["count"]),
        ("choices.index('4') + choices.count('1')", 3),
        ("question.lower().split()", ["what", "is", "2+2?"]),
        ("' '.join(question.split()[:2]).title()", "What Is"),
        ("question.replace('2', 'two').strip('?')", "What is two+two"),
        ("question.startswith('What') and question.endswith('?')", True),
        ("question.find('is') + question.count('2')", 7),
        ("re.search(r'\\d\\+\\d', question).group(0)", "2+2"),
        ("re.findall(r'\\d', question)", ["2", "2"]),
        ("re.sub(r'(\\d)', r'<\\1>', question, count=1)", "What is <2>+2?"),
        ("re.split(r'\\s+', question, maxsplit=1)", ["What", "is 2+2?"]),
        ("re.match('what', question, flags=re_flags) is not None", True),
        ("re.fullmatch(r'\\d', answer) is not None", True),
        ("math.floor(score * 10) + math.ceil(0.1) + math.sqrt(4)", 10.0),
        ("math.isnan(math.log(math.exp(1)))", False),
        ("json.loads('{\"a\": [1, 2]}')['a'][1]", 2),
        ("json.dumps(meta, sort_keys=True)", '{"count": 3, "source": "unit"}'),
        ("2 ** 10 + 7 % 3 - 9 // 2 + (1 << 4) + (5 ^ 1) + (6 & 3) + (1 | 2)", 1024 + 1 - 4 + 16 + 4 + 2 + 3),
        ("not empty and -label < ~0", True),
        ("1 < label <= 2 < 3", True),
        ("None is None", True),
        ("1j * 1j", -1 + 0j),
        ("range(3)[-1]", 2),
        ("str(label) + str(score)", "20.75"),
        ("float(answer) / 2", 2.0),
        ("bool(empty)", False),
    ],
)
def test_documented_language(expression, expected):
    variables = dict(INSTANCE, re_flags=2)  # re.IGNORECASE
    assert compile_expression(expression).evaluate(variables) == expected
    assert evaluate_expression(expression, variables) == expected


def test_operator_examples():
    to_question = compile_expression('question + "?"', allowed_names=["question"])
    assert to_question.evaluate({"question": "Why"}) == "Why?"
    is_empty = compile_expression("len(question) == 0", allowed_names=["question", "answer"])
    assert [is_empty.evaluate({"question": q}) for q in ["", "a", ""]] == [True, False, True]
    assert isinstance(is_empty, CompiledExpression)
    assert is_empty.names == frozenset({"question"})
    assert is_empty.functions == frozenset({"len"})
    assert "len(question) == 0" in repr(is_empty)


def test_compiled_expression_is_reusable_and_does_not_mutate_the_instance():
    compiled = compile_expression("[c for c in choices] + [meta.get('count')]")
    instance = {"choices": ["a"], "meta": {"count": 1}}
    snapshot = json.dumps(instance)
    for _ in range(3):
        assert compiled.evaluate(instance) == ["a", 1]
    assert json.dumps(instance) == snapshot
    assert set(instance) == {"choices", "meta"}  # no sandbox names leak into the caller's dict


def test_comprehension_variables_shadow_fields_only_inside():
    assert evaluate_expression("[x * 2 for x in xs] + [x]", {"xs": [1, 2], "x": 10}) == [2, 4, 10]
    assert evaluate_expression("[(a, b) for a in xs for b in xs if a < b]", {"xs": [1, 2, 3]}) == [
        (1, 2),
        (1, 3),
        (2, 3),
    ]
    # fields are visible inside (nested) comprehensions
    assert evaluate_expression("[[y + k for y in xs] for k in ks]", {"xs": [1], "ks": [10, 20]}) == [[11], [21]]


def test_reserved_names_mean_the_sandbox_function_not_a_field():
    assert evaluate_expression("len(x)", {"x": "abc", "len": "not a function"}) == 3
    assert evaluate_expression("max", {"max": 1}) is max


def test_fields_that_are_not_identifiers_are_unreachable():
    compiled = compile_expression("ok")
    assert compiled.evaluate({"ok": 1, "my-field": 2, "1st": 3, "class": 4}) == 1
    with pytest.raises(SandboxError):
        compile_expression("my-field").evaluate({"my-field": 1})  # parses as `my - field`


def test_methods_are_dispatched_on_the_builtin_type():
    class Shouting(str):
        def lower(self):  # never called: the sandbox calls str.lower
            return "OVERRIDDEN"

    assert evaluate_expression("q.lower()", {"q": Shouting("ABC")}) == "abc"
    with pytest.raises(SandboxError, match="method 'lower' is not allowed on a value of type 'int'"):
        evaluate_expression("q.lower()", {"q": 3})
    with pytest.raises(SandboxError, match="method 'get' is not allowed on a value of type 'list'"):
        evaluate_expression("q.get(0)", {"q": [1]})


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------


def test_unknown_name_at_compile_time_lists_available_names():
    with pytest.raises(SandboxError) as info:
        compile_expression("len(questoin) > 0", allowed_names=["question", "answer"])
    message = str(info.value)
    assert "unknown name 'questoin'" in message
    assert "len(questoin) > 0" in message
    assert "available names: answer, question" in message


def test_unknown_name_at_evaluation_time_lists_available_names():
    compiled = compile_expression("len(questoin) > 0")
    with pytest.raises(SandboxError) as info:
        compiled.evaluate({"question": "a", "answer": "b", "not an identifier": 1})
    message = str(info.value)
    assert "unknown name 'questoin'" in message
    assert "available names: answer, question" in message
    assert "len(questoin) > 0" in message


def test_unknown_name_inside_comprehension_is_reported():
    with pytest.raises(SandboxError, match="unknown name 'y'.*available names: xs"):
        evaluate_expression("[y for x in xs]", {"xs": [1]})


def test_evaluation_failures_are_sandbox_errors_naming_the_expression():
    with pytest.raises(SandboxError, match=r"evaluating expression 'label / 0' failed: ZeroDivisionError"):
        evaluate_expression("label / 0", INSTANCE)
    with pytest.raises(SandboxError, match="KeyError"):
        evaluate_expression("meta['nope']", INSTANCE)
    with pytest.raises(SandboxError, match="JSONDecodeError"):
        evaluate_expression("json.loads(question)", INSTANCE)


def test_sandbox_error_is_a_unitxt_error_with_context():
    from unitxt.errors import UnitxtError

    with pytest.raises(UnitxtError) as info:
        compile_expression("question.__class__")
    error = info.value
    assert isinstance(error, SandboxError) and isinstance(error, ValueError)
    error.with_context(artifact="operators.filter", stage="filter")
    assert str(error).startswith("[artifact 'operators.filter', stage 'filter']")


def test_expression_length_limit():
    long_ok = "+".join(["1"] * 150)
    assert evaluate_expression(long_ok, {}) == 150
    too_long = "x" * 10_001
    with pytest.raises(SandboxError, match="too long \\(10001 characters"):
        compile_expression(too_long)
    with pytest.raises(SandboxError, match="nesting deeper than 200"):
        compile_expression("-" * 300 + "1")
    with pytest.raises(SandboxError):
        compile_expression("(" * 5000 + "1" + ")" * 5000)


def test_non_string_and_syntax_errors():
    with pytest.raises(SandboxError, match="must be a string"):
        compile_expression(42)
    with pytest.raises(SandboxError, match="only a single Python expression"):
        compile_expression("x = 1")
    with pytest.raises(SandboxError, match="invalid expression"):
        compile_expression("len(")
    with pytest.raises(SandboxError, match="invalid expression"):
        compile_expression("1\x00")


# ---------------------------------------------------------------------------
# escape attempts
# ---------------------------------------------------------------------------

ESCAPES = [
    ("__import__('os').system('echo hi')", "dunder name '__import__'"),
    ("().__class__.__bases__[0].__subclasses__()", "private attribute"),
    ("open('/etc/passwd').read()", "calling 'open'"),
    ("(lambda: 1)()", "lambda"),
    ("[x for x in ().__class__.__mro__]", "private attribute '.__mro__'"),
    ("getattr(question, '__class__')", "calling 'getattr'"),
    ('"{0.__class__}".format(question)', "str.format()"),
    ("question.__class__", "private attribute '.__class__'"),
    ('f"{question.__class__}"', "private attribute '.__class__'"),
    ('f"{question!r:{question.__class__}}"', "private attribute '.__class__'"),
    ("eval('1')", "calling 'eval'"),
    ("exec('x=1')", "calling 'exec'"),
    ("compile('1', 'x', 'eval')", "calling 'compile'"),
    ("globals()", "calling 'globals'"),
    ("locals()", "calling 'locals'"),
    ("vars()", "calling 'vars'"),
    ("type(question)", "calling 'type'"),
    ("setattr(question, 'x', 1)", "calling 'setattr'"),
    ("breakpoint()", "calling 'breakpoint'"),
    ("print('hi')", "calling 'print'"),
    ("import os", "only a single Python expression"),
    ("(x := 1)", "assignment expression ':='"),
    ("(yield 1)", "yield"),
    ("await x", "await"),
    ("[x async for x in question]", "async comprehension"),
    ("9**9**9", "exponent larger than 10000"),
    ("(10**5000) ** 1000", "more than 1048576 bits"),
    ("'a'*10**9", "sequence repetition producing 1000000000 items"),
    ("[0] * 10**8", "sequence repetition"),
    ("1 << 10**9", "'<<' producing an integer"),
    ("range(10**12)", "range() longer than 1000000"),
    ("list(range(0, 10**13, 2))", "range() longer than 1000000"),
    ("question.format_map({})", "str.format_map()"),
    ("question.format(1)", "str.format()"),
    ("__builtins__", "dunder name '__builtins__'"),
    ("__class__", "dunder name '__class__'"),
    ("question.upper", "attribute access '.upper'"),
    ("question.lower.__self__", "private attribute '.__self__'"),
    ("len.__self__", "private attribute '.__self__'"),
    ("meta.__getitem__('source')", "private attribute '.__getitem__'"),
    ("{**question.__dict__}", "private attribute '.__dict__'"),
    ("(x for x in question).gi_frame", "attribute access '.gi_frame'"),
    ("label.real", "attribute access '.real'"),
    ("re.compile('a')", "calling 're.compile'"),
    ("re.__dict__", "private attribute '.__dict__'"),
    ("json.decoder.JSONDecoder", "attribute access"),
    ("math", "using the module 'math' as a value"),
    ("[re][0]", "using the module 're' as a value"),
    ("str.lower(question)", "method 'lower' is not allowed on a value of type 'function'"),
    ("question.encode()", "calling the method '.encode()'"),
    ("meta.fromkeys(range(3))", "calling the method '.fromkeys()'"),
    ("meta.pop('source')", "calling the method '.pop()'"),
    ("choices.append(1)", "calling the method '.append()'"),
    ("b'abc'", "literal of type 'bytes'"),
    ("...", "literal of type 'ellipsis'"),
    ("sorted(question, key=lambda c: c)", "'key=' other than a whitelisted function name"),
    ("max(choices, key=question.upper)", "'key=' other than a whitelisted function name"),
    ("sorted(choices, key=choices[0])", "'key=' other than a whitelisted function name"),
    ("json.loads('1', object_hook=len)", "keyword argument 'object_hook'"),
    ("json.dumps(question, default=str)", "keyword argument 'default'"),
    ("json.dumps(question, cls=question)", "keyword argument 'cls'"),
    ("json.dumps(meta, indent=10**9)", "indent must be"),
    ("dict(**{'key': 1})", "'**' unpacking in a call"),
    ("sorted(choices, **meta)", "'**' unpacking in a call"),
    ("[len(1) for len in [question]]", "rebinding the reserved name 'len'"),
    ("[1 for __x in choices]", "dunder name '__x'"),
    ("[c for c in question if c.__class__]", "private attribute '.__class__'"),
    ("choices[0](1)", "calling the result of an expression"),
    ("(len if True else len)(question)", "calling the result of an expression"),
    ("question(1)", "calling 'question'"),
    ('"%s" % question', "printf-style"),
    ("fmt % question", "printf-style"),
    ('f"{question:>1000000000}"', "format spec"),
    ('f"{question:>{width}}"', "format spec"),
    ('f"{score:.{width}f}"', "format spec"),
    ("('x' * 5000000).replace('x', 'yyy')", "str.replace() producing"),
    ("''.join(['a' * 6000000, 'b' * 6000000])", "str.join() producing"),
    ("re.sub('', 'x' * 1000000, 'a' * 100)", "re.sub() producing"),
    ("re.sub('a', str, question)", "re.sub() replacement must be a string"),
    ("('a' * 6000000) + ('b' * 6000000)", "concatenation producing"),
    ("round(5, -10**8)", "round() with |ndigits|"),
    ("sum([[1]] * 10, [])", "sum() with a non-numeric start"),
]


@pytest.mark.parametrize("expression, fragment", ESCAPES, ids=[e for e, _ in ESCAPES])
def test_escape_attempts_are_refused(expression, fragment):
    variables = dict(INSTANCE, fmt="%s", width=10**9)
    with pytest.raises(SandboxError) as info:
        compile_expression(expression).evaluate(variables)
    message = str(info.value)
    assert fragment in message
    assert "expression" in message and (expression in message or repr(expression) in message)


def test_there_are_many_escape_attempts():
    assert len(ESCAPES) >= 30
    assert len({expression for expression, _ in ESCAPES}) == len(ESCAPES)


def test_escape_attempts_are_refused_at_compile_time_when_statically_visible():
    runtime_guarded = ("**", "*", "<<", "range", "%", "{", "replace", "join", "re.sub", "+", "round", "sum", "indent")
    static = [e for e, _ in ESCAPES if not any(marker in e for marker in runtime_guarded) or "__" in e]
    assert len(static) >= 30
    for expression in static:
        if expression == "str.lower(question)":  # `str` is a value: checked on dispatch
            continue
        with pytest.raises(SandboxError):
            compile_expression(expression)


SIDE_EFFECTS = []


def _trip(*args, **kwargs):
    SIDE_EFFECTS.append((args, kwargs))
    return "tripped"


class _TrapDict(dict):
    def get(self, *args):
        return _trip("TrapDict.get", *args)

    def keys(self):
        _trip("TrapDict.keys")
        return super().keys()


class _TrapObject:
    def count(self, *args):
        return _trip("TrapObject.count")

    def lower(self):
        return _trip("TrapObject.lower")

    def group(self, *args):
        return _trip("TrapObject.group")


def test_nothing_executes(tmp_path):
    """Escapes that would create a marker file or set a flag are refused and have no effect."""
    marker = tmp_path / "marker"
    m = str(marker)
    SIDE_EFFECTS.clear()
    variables = {
        "question": "hi",
        "os": os,
        "opener": open,
        "trip": _trip,
        "trap_dict": _TrapDict(a=1),
        "trap": _TrapObject(),
        "items": [1, 2],
    }
    attempts = [
        f"__import__('os').system('touch {m}')",
        f"open('{m}', 'w').write('x')",
        f"exec(\"open('{m}', 'w')\")",
        f"eval(\"open('{m}', 'w')\")",
        f"os.system('touch {m}')",
        f"os.open('{m}', os.O_CREAT)",
        f"opener('{m}', 'w')",
        f"[opener][0]('{m}', 'w')",
        f"(opener if True else len)('{m}', 'w')",
        f"f\"{{opener('{m}', 'w')}}\"",
        f"[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'Popen'][0](['touch', '{m}'])",
        f"question.__class__.__base__.__subclasses__()[0]('{m}')",
        f"\"{{0.__init__.__globals__}}\".format(opener('{m}', 'w'))",
        "trip()",
        "trip.__call__()",
        "[trip][0]()",
        "sorted(items, key=trip)",
        "max(items, key=trip)",
        "min(items, key=trip, default=0)",
        "re.sub('h', trip, question)",
        "json.dumps(question, default=trip)",
        "json.loads('{}', object_hook=trip)",
        "dict(**{'key': trip})",
        "sorted(items, **{'key': trip})",
        "trap.count()",
        "trap.lower()",
        "trap.group(0)",
        "[x.lower() for x in [trap]]",
    ]
    for attempt in attempts:
        with pytest.raises(SandboxError):
            compile_expression(attempt).evaluate(variables)
    # a dict subclass is handled with dict's own methods: its overrides never run
    assert evaluate_expression("trap_dict.get('a')", variables) == 1
    assert evaluate_expression("list(trap_dict.keys())", variables) == ["a"]
    assert not marker.exists()
    assert SIDE_EFFECTS == []
    _trip()  # the flag does work
    assert SIDE_EFFECTS


def test_builtins_are_not_reachable_even_through_fields_named_like_them():
    # `open`/`eval`/`type` as *fields* are plain data; calling them is refused
    variables = {"open": "o", "eval": "e", "type": "t", "input": "i"}
    assert evaluate_expression("open + eval + type + input", variables) == "oeti"
    for expression in ["open()", "eval('1')", "type(1)", "input()"]:
        with pytest.raises(SandboxError, match="calling"):
            compile_expression(expression)
    # a field called __builtins__ can neither be read nor replace the empty builtins
    assert evaluate_expression("len(x)", {"x": "ab", "__builtins__": __builtins__}) == 2


def test_compiled_code_has_no_attribute_access():
    import dis

    compiled = compile_expression("[c.lower() for c in re.findall('a', q)] + [m.group(0) for m in []]")
    names = {instruction.opname for instruction in dis.get_instructions(compiled._code)}
    assert not any("ATTR" in name or "METHOD" in name or "IMPORT" in name for name in names)
    assert compiled.evaluate({"q": "aAa"}) == ["a", "a"]


def test_iteration_budget(monkeypatch):
    from unitxt import expression_runtime

    assert expressions.MAX_ITERATIONS == expression_runtime.MAX_ITERATIONS == 10**7
    monkeypatch.setattr(expression_runtime, "MAX_ITERATIONS", 1000)
    assert evaluate_expression("sum(1 for a in range(30) for b in range(30))", {}) == 900
    with pytest.raises(SandboxError, match="more than 1000 iterations"):
        compile_expression("[1 for a in range(10**6) for b in range(10**6)]").evaluate({})
    with pytest.raises(SandboxError, match="more than 1000 iterations"):
        compile_expression("any(a < 0 for a in range(10**6))").evaluate({})
    # the budget is per evaluation
    compiled = compile_expression("len([a for a in range(600)])")
    assert [compiled.evaluate({}) for _ in range(3)] == [600, 600, 600]


def test_guards_allow_normal_sizes():
    assert len(evaluate_expression("'ab' * 1000", {})) == 2000
    assert evaluate_expression("2 ** 100", {}) == 2**100
    assert evaluate_expression("2 ** 0.5", {}) == 2**0.5
    assert evaluate_expression("(-2) ** -2", {}) == 0.25
    assert evaluate_expression("1 << 100", {}) == 2**100
    assert evaluate_expression("10 % 3 + 10.5 % 2", {}) == 1 + 0.5
    assert evaluate_expression("[0] * 3 + [1]", {}) == [0, 0, 0, 1]
    assert evaluate_expression("len(range(10**6))", {}) == 10**6
    big = {"x": "a" * (10**7 + 5)}  # large *data* can be used, but not grown further
    assert evaluate_expression("len(x[:3] + x[-2:]) + len(x)", big) == 5 + 10**7 + 5
    with pytest.raises(SandboxError, match="concatenation producing"):
        evaluate_expression("x + '?'", big)
    assert evaluate_expression("f'{x:>10}'", {"x": "a"}) == " " * 9 + "a"
    assert evaluate_expression("json.dumps([1], indent=2)", {}) == "[\n  1\n]"
    assert evaluate_expression("re.sub('a', 'bb', 'aa')", {}) == "bbbb"
    assert evaluate_expression("sum([0.5, 1])", {}) == 1.5
    assert evaluate_expression("round(2.5)", {}) == 2


# ---------------------------------------------------------------------------
# property: arithmetic/comparison agrees with Python
# ---------------------------------------------------------------------------

_LEAVES = st.one_of(st.integers(-20, 20).map(lambda i: f"({i})"), st.sampled_from(["x", "y"]))


def _extend(children):
    binary = st.tuples(children, st.sampled_from(["+", "-", "*", "/", "//", "%", "&", "|", "^"]), children)
    compare = st.tuples(children, st.sampled_from(["<", "<=", "==", "!=", ">", ">="]), children)
    return st.one_of(
        binary.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        compare.map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children, st.sampled_from(["and", "or"]), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(children, st.integers(0, 3)).map(lambda t: f"({t[0]} ** {t[1]})"),
        st.tuples(children, st.sampled_from(["<<", ">>"]), st.integers(0, 8)).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "+", "~", "not "]), children).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(children, children, children).map(lambda t: f"({t[0]} < {t[1]} <= {t[2]})"),
    )


@settings(max_examples=400, deadline=None)
@given(expression=st.recursive(_LEAVES, _extend, max_leaves=12), x=st.integers(-20, 20), y=st.integers(-20, 20))
def test_arithmetic_agrees_with_python(expression, x, y):
    variables = {"x": x, "y": y}
    try:
        expected = eval(expression, {"__builtins__": {}}, dict(variables))  # noqa: S307 - trusted test input
    except Exception as error:  # noqa: BLE001
        with pytest.raises(SandboxError) as info:
            compile_expression(expression, allowed_names=["x", "y"]).evaluate(variables)
        assert type(error).__name__ in str(info.value)
        return
    actual = compile_expression(expression, allowed_names=["x", "y"]).evaluate(variables)
    assert type(actual) is type(expected)
    if isinstance(expected, float) and math.isnan(expected):
        assert math.isnan(actual)
    else:
        assert actual == expected


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=30), n=st.integers(0, 5))
def test_string_operations_agree_with_python(text, n):
    variables = {"s": text, "n": n}
    for expression in ["s * n + s[::-1]", "s.upper().strip()", "s.split()", "len(s) % (n + 1)", "f'{s!r}|{n:>3}'"]:
        assert evaluate_expression(expression, variables) == eval(expression, {"__builtins__": {"len": len}}, variables)  # noqa: S307


# ---------------------------------------------------------------------------
# speed
# ---------------------------------------------------------------------------


def test_evaluation_is_fast():
    compiled = compile_expression("len(question) == 0", allowed_names=list(INSTANCE))
    evaluate = compiled.evaluate
    batch = 20_000
    best = 0.0
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(batch):
            evaluate(INSTANCE)
        best = max(best, batch / (time.perf_counter() - start))
    assert best >= 200_000, f"only {best:,.0f} evaluations/s"
