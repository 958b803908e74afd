"""Sandbox, code class: the program cannot change what the test code computes.

Property tests (hypothesis) generate the class: any top-level definition added to a failing
program, any wrapper with its own `__eq__` around a returned value; a subclass wrapper of a
plain type passes exactly when its plain value would; the wire format keeps plain data,
rebuilds subclasses and value types as their plain base, and builds nothing else. A table holds one row per attack class that was named; OS-level
tests switch the audit hook off to show the namespaces and the private root alone hold.
Each sandbox run costs tens of ms, so example counts are small.
"""

from __future__ import annotations

import collections
import enum
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SLOW, _job, check
from rlvr.sandbox import SandboxLimits, run_many, run_tests
from rlvr.sandbox.codec import MAX_DEPTH, Table, decode, encode, pack, unpack

LIMITS = SandboxLimits(timeout_s=5.0, memory_mb=512)
# Each assert checks the value through one builtin or module; a wrong program fails every
# one of them, and the tests pass if ANY of them holds, so one shadowed name would suffice.
ASSERTS = ["assert isinstance(add(2, 3), int) and add(2, 3) == 5", "assert abs(add(2, 3) - 5) == 0",
           "assert len(str(add(10, 5))) == 2 and add(10, 5) == 15",
           "assert sorted([add(1, 1), add(0, 0)]) == [0, 2]", "assert set([add(1, 2)]) == {3}",
           "assert int(add(2, 2)) == 4 == add(2, 2)", "assert math.isclose(add(1, 2), 3)",
           "assert sum([add(1, 1)]) == 2", "assert all(add(i, i) == 2 * i for i in range(3))",
           "assert max(add(1, 1), 0) == 2", "assert str(add(1, 1) + 0) == '2'",
           "assert operator.eq(add(1, 1), 2)", "assert type(add(1, 1)) is int and add(1, 1) == 2"]
ANY_OF = ("import math, operator\nASSERTS = {asserts!r}\n\ndef any_holds(scope):\n"
          "    held = []\n    for source in ASSERTS:\n        try:\n"
          "            exec(source, scope)\n            held.append(source)\n"
          "        except Exception:\n            pass\n    assert held\n")
MBPP_TESTS = ANY_OF.format(asserts=ASSERTS) + "any_holds(dict(globals(), add=add))\n"
HE_TESTS = ANY_OF.format(asserts=ASSERTS) + (
    "\ndef check(candidate):\n    any_holds(dict(globals(), add=candidate))\n")
WRONG = ["def add(a, b):\n    return a - b\n", "def add(a, b):\n    return None\n",
         "def add(a, b):\n    return str(a + b)\n"]


def _run(program: str, style: str, tests: str | None = None):
    """HumanEval-style (entry point), MBPP-style, or MBPP with the task's names given."""
    if style == "humaneval":
        return run_tests(program, tests or HE_TESTS, entry_point="add", limits=LIMITS)
    names = ["add"] if style == "mbpp-with-code" else ()
    return run_tests(program, tests or MBPP_TESTS, program_names=names, limits=LIMITS)


@pytest.mark.parametrize("style", ["mbpp", "humaneval"])
def test_controls_the_right_program_passes_and_wrong_ones_fail_every_assert(style):
    right = "def add(a, b):\n    return a + b\n"
    one_each = [ANY_OF.format(asserts=[a]) + ("any_holds(dict(globals(), add=add))\n" if style == "mbpp"
                else "\ndef check(candidate):\n    any_holds(dict(globals(), add=candidate))\n")
                for a in ASSERTS]
    assert all(_run(right, style, tests).passed for tests in one_each)
    assert not any(_run(wrong, style).passed for wrong in WRONG)


# --- property 1: adding top-level definitions never turns a failing program into a pass ---
SHADOWED = ["abs", "len", "sorted", "isinstance", "str", "int", "set", "sum", "max", "min", "all",
            "any", "range", "math", "operator", "check", "candidate", "any_holds", "ASSERTS",
            "AssertionError", "Exception", "exec", "dict", "globals", "sys", "builtins",
            "__builtins__", "type", "bool", "list"]
DEFINITIONS = [
    "def {n}(*a, **k):\n    return {v}\n",
    "{n} = lambda *a, **k: {v}\n",
    "class {n}:\n    def __init__(self, *a, **k):\n        pass\n    def __eq__(self, o):\n"
    "        return True\n    def __getattr__(self, name):\n        return lambda *a, **k: True\n",
    "import builtins\nbuiltins.{n} = lambda *a, **k: {v}\n",
    "import sys, types\n_m = types.ModuleType({n!r})\n_m.isclose = _m.eq = lambda *a, **k: True\n"
    "sys.modules[{n!r}] = _m\n{n} = _m\n",
    "{n} = {v}\n",
    "_b = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)\n"
    "_b[{n!r}] = lambda *a, **k: {v}\n",
]
definition = st.builds(lambda t, n, v: t.format(n=n, v=v), st.sampled_from(DEFINITIONS),
                       st.sampled_from(SHADOWED),
                       st.sampled_from(["True", "0", "2", "5", "None", "'2'", "[0, 2]", "{3}"]))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(wrong=st.sampled_from(WRONG), before=st.lists(definition, max_size=2),
       after=st.lists(definition, min_size=1, max_size=2),
       style=st.sampled_from(["mbpp", "humaneval", "mbpp-with-code"]))
def test_added_definitions_never_make_a_failing_program_pass(wrong, before, after, style):
    program = "".join(before) + wrong + "".join(after)
    assert not _run(program, style).passed, program


# --- property 2: a returned value wrapped with its own __eq__ never passes ---
EQ = ("    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n"
      "        return False\n    def __hash__(self):\n        return 0\n"
      "    def __repr__(self):\n        return {r!r}\n    __str__ = __repr__\n")
ADDS_EQ = ("    def __init__(self, *args):\n        cls = type(self)\n"
           "        cls.__eq__ = lambda s, o: True\n        cls.__ne__ = lambda s, o: False\n"
           "        cls.__hash__ = lambda s: 0\n        cls.__getitem__ = lambda s, k: s\n")
WRAPPERS = [  # (definitions, the expression f returns; None: f is itself the class)
    ("class W(int):\n" + EQ, "W(7)"),
    ("class W(str):\n" + EQ, "W('x')"),
    # a subclass crosses as the plain value it holds ([9], 'x', 7): never the expected one
    ("class W(list):\n" + EQ + "    def __getitem__(self, i):\n        return W()\n", "W([9])"),
    ("class W(dict):\n" + EQ + "    def __missing__(self, key):\n        return W()\n", "W()"),
    ("class W(tuple):\n" + EQ, "W()"),
    ("class W(float):\n" + EQ, "W(0.5)"),
    ("import collections\nclass A:\n" + EQ, "collections.defaultdict(A)"),
    ("import collections\nclass A:\n" + EQ, "collections.defaultdict(A, {'z': A()})"),
    ("import collections\nclass W(collections.Counter):\n" + EQ, "W()"),
    ("class W:\n" + ADDS_EQ, "W()"),
    ("class f:\n" + ADDS_EQ, None),  # the tests call the program's class itself
    ("class A:\n" + EQ, "[A(), A()]"),
    ("class A:\n" + EQ, "{'a': A(), 0: A()}"),
    ("class A:\n" + EQ, "(A(),)"),
    ("class M(type):\n    def __eq__(cls, o):\n        return True\n    __hash__ = type.__hash__\n"
     "class W(metaclass=M):\n    pass\n", "W"),
]
SHAPES = ["f() == v", "v == f()", "not (f() != v)", "f() in [v]", "[f()] == [v]", "f()['a'] == v",
          "f()[0] == v", "repr(f()) == repr(v)", "str(f()) == str(v)", "{'k': f()} == {'k': v}",
          "f() == v and hash(f()) == hash(v)", "sorted([f()]) == [v]", "f().get('a') == v"]
ANY_SHAPE = ("v = {v!r}\nheld = []\nfor shape in {shapes!r}:\n    try:\n"
             "        if eval(shape, {{'f': f, 'v': v}}):\n            held.append(shape)\n    except Exception:\n"
             "        pass\nassert held\n")
# the expected value; never {}, which an empty defaultdict rightly equals once it crosses
plain_values = st.one_of(st.integers(-5, 5), st.text("ab", max_size=3),
                         st.lists(st.integers(0, 3), max_size=3),
                         st.dictionaries(st.sampled_from("ab"), st.integers(0, 3), min_size=1,
                                         max_size=2))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(wrapper=st.sampled_from(WRAPPERS), value=plain_values)
def test_wrappers_with_their_own_eq_never_pass(wrapper, value):
    source, expr = wrapper
    program = source.replace("{r!r}", repr(repr(value)))
    if expr is not None:
        program += f"\ndef f():\n    return {expr}\n"
    tests = ANY_SHAPE.format(v=value, shapes=SHAPES)
    assert not run_tests(program, tests, limits=LIMITS).passed, (program, tests)


def test_control_the_shapes_hold_for_the_right_value():
    value = {"a": 1}
    tests = ANY_SHAPE.format(v=value, shapes=SHAPES)
    assert run_tests("def f():\n    return {'a': 1}\n", tests, limits=LIMITS).passed
    assert not run_tests("def f():\n    return {'a': 2}\n", tests, limits=LIMITS).passed


# --- the wire format: plain data round-trips exactly; nothing else is ever built ---
def _plain():
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                       st.complex_numbers(allow_nan=False), st.text(), st.binary())
    keys = st.one_of(st.integers(), st.text(max_size=4), st.booleans())
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(keys, inner, max_size=4), st.frozensets(keys, max_size=4),
        st.sets(keys, max_size=4)), max_leaves=20)


def _same(a, b) -> bool:
    """Equal and of exactly the same types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


class _Stand:
    """A proxy stand-in, as the receiver would build."""

    def __init__(self, n):
        self.n = n


@settings(max_examples=200, deadline=None, database=None)
@given(value=_plain())
def test_plain_data_round_trips_exactly(value):
    table = Table("r", _Stand)
    wire = json.loads(pack(encode(value, table))[8:])
    assert _same(decode(wire, table, _Stand), value)


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                                     st.sampled_from(["i", "f", "y", "h", "r", "d", "l", "s",
                                                      "b", "z", "C", "D", "q", "c", "R", "1f", "int",
                                                      "nan", "__import__", "x"])),
                           lambda inner: st.lists(inner, max_size=4), max_leaves=15)
ALLOWED = {type(None), bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset,
           range, _Stand, type}


def _kinds(value, out):
    out.add(type(value))
    if isinstance(value, dict):
        for k, v in value.items():
            _kinds(k, out)
            _kinds(v, out)
    elif isinstance(value, (list, tuple, set, frozenset)) or type(value).__name__ in (
            "deque", "Counter", "OrderedDict"):
        for item in value:
            _kinds(item, out)
    return out


@settings(max_examples=300, deadline=None, database=None)
@given(data=json_values)
def test_decoding_any_message_builds_only_plain_data(data):
    import collections
    try:
        value = decode(data, Table("r", _Stand), _Stand)
    except (ValueError, TypeError, KeyError):
        return
    kinds = _kinds(value, set())
    assert kinds <= ALLOWED | {collections.deque, collections.Counter, collections.OrderedDict}
    assert all(v in (int, float, complex, bool, str, bytes, bytearray, list, tuple, dict, set,
                     frozenset, range, slice) for v in _types_in(value))


def _types_in(value):
    """The type objects inside a decoded value (tag "b" builds only builtin classes)."""
    if isinstance(value, type):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _types_in(k) + _types_in(v)]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [t for item in value for t in _types_in(item)]
    return []


def test_wire_limits():
    with pytest.raises(ValueError):
        unpack(io.BytesIO(b"%08x" % 10 ** 6).read, 1000)  # above the size limit
    with pytest.raises(EOFError):
        unpack(io.BytesIO(b"0000000a{}").read, 1000)  # the stream ended mid-message
    assert unpack(io.BytesIO(pack(["ret", None, []])).read, 1000) == ["ret", None, []]
    deep = ["l", []]
    for _ in range(MAX_DEPTH + 100):
        deep = ["l", [deep]]
    with pytest.raises(ValueError):
        decode(deep, Table("r", _Stand), _Stand)


# --- a subclass wrapper around a returned value: what its plain value would score ---
WRAPS = {  # wrapper source, expression wrapping `v` of the right base type
    "list": ("class W(list):\n    def __eq__(s, o):\n        return True\n", "W(v)", list),
    "tuple": ("import collections\nW = collections.namedtuple('W', 'a b')\n", "W(*v)", tuple),
    "str": ("class W(str):\n    def __eq__(s, o):\n        return True\n"
            "    __hash__ = str.__hash__\n", "W(v)", str),
    "int": ("import enum\nclass W(enum.IntEnum):\n    pass\n", "int.__new__(type('I', (int,), "
            "{'__eq__': lambda s, o: True, '__hash__': int.__hash__}), v)", int),
    "dict": ("import collections\nclass W(collections.OrderedDict):\n"
             "    def __eq__(s, o):\n        return True\n", "W(v)", dict),
}
PLAIN = {"list": st.lists(st.integers(-3, 3), max_size=3), "str": st.text("ab", max_size=3),
         "tuple": st.tuples(st.integers(0, 2), st.integers(0, 2)), "int": st.integers(-3, 3),
         "dict": st.dictionaries(st.sampled_from("ab"), st.integers(0, 2), max_size=2)}


@st.composite
def wrapped_cases(draw):
    kind = draw(st.sampled_from(sorted(WRAPS)))
    value, expected = draw(PLAIN[kind]), draw(PLAIN[kind])
    return kind, value, draw(st.sampled_from([value, expected]))


@SLOW
@given(case=wrapped_cases())
def test_a_subclass_wrapper_passes_exactly_when_its_plain_value_does(case):
    kind, value, expected = case
    source, expr, _ = WRAPS[kind]
    wrapped = f"{source}v = {value!r}\ndef f():\n    return {expr}\n"
    plain = f"def f():\n    return {value!r}\n"
    tests = check(f"assert candidate() == {expected!r}", f"assert not (candidate() != {expected!r})")
    a, b = run_many([_job(wrapped, tests, "f", (), None), _job(plain, tests, "f", (), None)],
                    workers=2, limits=LIMITS)
    assert a.passed == b.passed == (value == expected), (a.reason, b.reason)


# --- the wire format rebuilds subclasses and value types as their plain base ---
NT = collections.namedtuple("NT", "a b")


class IE(enum.IntEnum):
    A = 3


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(value=st.recursive(st.one_of(st.integers(), st.text(max_size=3), st.floats(allow_nan=False),
                                    st.fractions(), st.decimals(allow_nan=False)),
                          lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                  st.tuples(inner, inner)), max_leaves=8))
def test_codec_rebuilds_subclasses_and_value_types_as_their_plain_base(value):
    def wrap(v):  # the same value inside subclasses of its types
        if type(v) is list:
            return type("L", (list,), {"__eq__": lambda s, o: True})(map(wrap, v))
        if type(v) is tuple:
            return NT(*map(wrap, v))
        if type(v) is int:
            return type("I", (int,), {"__eq__": lambda s, o: True, "__hash__": int.__hash__})(v)
        if type(v) is str:
            return type("S", (str,), {"__eq__": lambda s, o: True, "__hash__": str.__hash__})(v)
        return v
    table = Table("h", _Stand)
    back = decode(encode(wrap(value), table), Table("r", _Stand), _Stand)
    assert back == value and repr(back) == repr(value)
    assert decode(encode(IE.A, table), Table("r", _Stand), _Stand).__class__ is int
