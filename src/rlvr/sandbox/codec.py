"""The wire format between the program's process and the trusted process: plain data only.

A value crosses as JSON of tagged lists, never as pickle or marshal. Both harness sides are
built from this file's text (the harness is one script; see `rlvr.sandbox.runner`), and rlvr
imports it only to test it. The encoder runs in either process; the decoder that matters is
the trusted process's, which trusts nothing in the bytes: it rebuilds exact builtin types
from tags, refuses anything else and never calls code named by the message.

Tags (a JSON value on the left, what it is rebuilt as on the right):

    null, true, false, "text"    None, True, False, str (lone surrogates kept)
    ["i", hex]                   int (hex: exact at any size, no digit limit)
    ["f", float.hex()]           float (nan, inf and -0.0 kept)
    ["c", re_hex, im_hex]        complex
    ["y", hex]                   bytes
    ["l"|"t"|"s"|"z", [items]]   list, tuple, set, frozenset
    ["d", [[key, value], ...]]   dict (insertion order kept)
    ["C"|"O", [[k, v], ...]]     collections.Counter, OrderedDict (rebuilt by the receiver)
    ["D", [[k, v], ...]]         collections.defaultdict: rebuilt as a plain dict (its
                                 default factory is code and does not cross)
    ["q", [items]]               collections.deque (no maxlen)
    ["R", start, stop, step]     range (hex ints)
    ["b", name]                  one of the builtin classes int, float, complex, bool, str,
                                 bytes, bytearray, list, tuple, dict, set, frozenset, range,
                                 slice, as the receiver's own (MBPP 533 passes `int`)
    ["h", n]                     an object that is not plain data, living in the program's
                                 process: the trusted side holds an opaque handle to it
    ["r", n]                     an object of the trusted side (a function or an object the
                                 tests pass in): the program holds a proxy to it

    ["F", num_hex, den_hex]      fractions.Fraction
    ["E", text]                  decimal.Decimal (its string form)
    ["a", hex]                   bytearray
    ["K"|"I", [items]]           a dict's keys() or items() view (rebuilt from a new dict)

From the program, a subclass of one of these types crosses as its plain base value (a
namedtuple as a tuple, an IntEnum member as an int, a `class S(str)` as the str it holds):
the receiver rebuilds the base type from the data alone, so whatever `__eq__`, `__hash__`,
methods or attributes the subclass defines stay in the sender's process, and a wrapper can
never carry more than the plain value it holds. From the tests, such an object (a
namedtuple the tests build) reaches the program as a proxy, whose public attributes it may
read. Nesting is limited to `MAX_DEPTH` levels (`ValueError` beyond).
"""

import _json
import collections
import sys

MAX_DEPTH = 300


def encode(value, table, depth=0):
    """A JSON-ready tagged form of `value`.

    Args:
        value: any object.
        table: the sender's object table: `table.tag` ("h" on the program's side, "r" on
            the trusted side) and `table.number(obj) -> int`, which keeps `obj` alive and
            returns its number; used for every object that is not plain data.
        depth: current nesting (internal).
    Raises:
        ValueError: nested deeper than MAX_DEPTH.
    """
    if depth > MAX_DEPTH:
        raise ValueError("value nested too deep")
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if table.tag == "h" and kind is not table.remote_type and kind not in _EXACT:
        kind, value = _plain_base(kind, value)  # the program's wrappers: their plain value
    if kind is str:
        return value
    if kind is int:
        return ["i", format(value, "x")]
    if kind is float:
        return ["f", value.hex()]
    if kind is complex:
        return ["c", value.real.hex(), value.imag.hex()]
    if kind is bytes:
        return ["y", value.hex()]
    seq = _SEQ_TAGS.get(kind)
    if seq is not None:
        return [seq, [encode(item, table, depth + 1) for item in value]]
    pairs = _MAP_TAGS.get(kind)
    if pairs is not None:
        return [pairs, [[encode(k, table, depth + 1), encode(v, table, depth + 1)]
                        for k, v in dict.items(value)]]
    fraction, decimal = _loaded("fractions", "Fraction"), _loaded("decimal", "Decimal")
    if kind is fraction is not None:
        return ["F", format(value.numerator, "x"), format(value.denominator, "x")]
    if kind is decimal is not None:
        return ["E", str(value)]
    if kind is bytearray:
        return ["a", value.hex()]
    if kind in _VIEW_TAGS:
        return [_VIEW_TAGS[kind], [encode(item, table, depth + 1) for item in value]]
    if kind is range:
        return ["R", format(value.start, "x"), format(value.stop, "x"), format(value.step, "x")]
    if kind is type and _TYPE_NAMES.get(value) is not None:
        return ["b", _TYPE_NAMES[value]]
    if kind is table.remote_type:
        return [table.other, value._rlvr_n]
    return [table.tag, table.number(value)]


def _loaded(module, name):
    """`module.name` when the module is already imported, else None: fractions and decimal
    are imported only by a side that holds such a value (they cost two interpreters'
    start-up otherwise), so a value of their type implies they are loaded."""
    return getattr(sys.modules.get(module), name, None)


def _decimal(text):
    """A Decimal from its string form; ValueError (not InvalidOperation) when malformed."""
    import decimal
    try:
        return decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise ValueError("malformed decimal") from None


def _plain_base(kind, value):
    """(base type, exact value of that type) for an instance of a plain type or of its
    subclass (the nearest one in its MRO), read through the base type's own slots; (kind,
    value) unchanged for anything else."""
    fraction, decimal = _loaded("fractions", "Fraction"), _loaded("decimal", "Decimal")
    for base in kind.__mro__:
        if base in _UNWRAP:
            return base, _UNWRAP[base](value)
        if base is fraction is not None:
            return base, fraction(int.__index__(value.numerator), int.__index__(value.denominator))
        if base is decimal is not None:
            return base, decimal(decimal.__str__(value))
    return kind, value


_SEQ_TAGS = {list: "l", tuple: "t", set: "s", frozenset: "z", collections.deque: "q"}
_MAP_TAGS = {dict: "d", collections.Counter: "C", collections.OrderedDict: "O",
             collections.defaultdict: "D"}
_SEQ_BUILD = {"l": list, "t": tuple, "s": set, "z": frozenset, "q": collections.deque}
_MAP_BUILD = {"d": dict, "C": collections.Counter, "O": collections.OrderedDict, "D": dict}
_TYPES = (int, float, complex, bool, str, bytes, bytearray, list, tuple, dict, set, frozenset,
          range, slice)
_TYPE_NAMES = {t: t.__name__ for t in _TYPES}
_TEXT_TAGS = {"i": lambda t: int(t, 16), "f": float.fromhex, "y": bytes.fromhex,
              "a": bytearray.fromhex, "E": lambda t: _decimal(t),
              "b": {t.__name__: t for t in _TYPES}.__getitem__}
_VIEW_TAGS = {type({}.keys()): "K", type({}.items()): "I"}
_UNWRAP = {  # base type -> its exact value, read through the base type's own methods
    bool: bool, int: int.__index__, float: float.__float__, complex: complex.__complex__,
    str: str.__str__, bytes: lambda v: bytes(memoryview(v)), bytearray: bytearray,
    list: lambda v: list(list.__iter__(v)), tuple: lambda v: tuple(tuple.__iter__(v)),
    set: lambda v: set(set.__iter__(v)), frozenset: lambda v: frozenset(frozenset.__iter__(v)),
    collections.deque: lambda v: collections.deque(collections.deque.__iter__(v)),
    collections.Counter: lambda v: collections.Counter(dict(dict.items(v))),
    collections.OrderedDict: lambda v: collections.OrderedDict(dict.items(v)),
    collections.defaultdict: lambda v: dict(dict.items(v)), dict: lambda v: dict(dict.items(v))}
_EXACT = frozenset(_UNWRAP) | frozenset(_VIEW_TAGS) | {type(None), range, type}


def decode(data, table, proxy, depth=0):
    """Rebuild a value from its tagged form; strict about every shape, runs no sent code.

    Args:
        data: the JSON-decoded tagged form (from `unpack`).
        table: the receiver's own object table: `table.tag` and `table.object(n)` (the
            receiver's object n, which the sender got earlier as a reference).
        proxy: callable(n) -> a local stand-in for the sender's object n (the other tag).
        depth: current nesting (internal).
    Raises:
        ValueError: an unknown tag, a wrong shape, bad hex, or nesting beyond MAX_DEPTH.
        TypeError: an unhashable key or set item (a list inside a set).
        KeyError: a reference to an object the receiver never sent.
    """
    if depth > MAX_DEPTH:
        raise ValueError("value nested too deep")
    kind = type(data)
    if data is None or kind is bool or kind is str:
        return data
    if kind is not list or len(data) < 2 or type(data[0]) is not str:
        raise ValueError("malformed value")
    tag, first = data[0], data[1]
    if tag in _TEXT_TAGS and len(data) == 2 and type(first) is str:
        return _TEXT_TAGS[tag](first)
    if tag == "c" and len(data) == 3 and type(first) is str and type(data[2]) is str:
        return complex(float.fromhex(first), float.fromhex(data[2]))
    if tag == "F" and len(data) == 3 and type(first) is str and type(data[2]) is str:
        numerator, denominator = int(first, 16), int(data[2], 16)
        if denominator <= 0:
            raise ValueError("malformed fraction")
        import fractions
        return fractions.Fraction(numerator, denominator)
    if tag == "R" and len(data) == 4 and all(type(x) is str for x in data[1:]):
        return range(*(int(x, 16) for x in data[1:]))
    if tag in ("h", "r") and len(data) == 2 and type(first) is int:
        return table.object(first) if tag == table.tag else proxy(first)
    if len(data) != 2 or type(first) is not list:
        raise ValueError("malformed value with tag " + tag[:8])
    if tag in _SEQ_BUILD:
        return _SEQ_BUILD[tag]([decode(item, table, proxy, depth + 1) for item in first])
    if tag == "K":
        return dict.fromkeys(decode(item, table, proxy, depth + 1) for item in first).keys()
    if tag == "I":
        pairs = [decode(item, table, proxy, depth + 1) for item in first]
        if any(type(p) is not tuple or len(p) != 2 for p in pairs):
            raise ValueError("malformed items view")
        return dict(pairs).items()
    if tag in _MAP_BUILD:
        out = _MAP_BUILD[tag]()
        for pair in first:
            if type(pair) is not list or len(pair) != 2:
                raise ValueError("malformed pair")
            key = decode(pair[0], table, proxy, depth + 1)
            out[key] = decode(pair[1], table, proxy, depth + 1)
        return out
    raise ValueError("unknown tag " + tag[:8])


class Table:
    """Objects one side has sent by reference, numbered from 1 (kept alive until the end).

    Attributes:
        tag: "h" (the program's side) or "r" (the trusted side); `other` is the other one.
        remote_type: this side's stand-in class for the other side's objects (its number
            in the `_rlvr_n` slot); an instance is sent back as the other side's reference.
    """

    def __init__(self, tag, remote_type):
        self.tag, self.other, self.remote_type = tag, "r" if tag == "h" else "h", remote_type
        self._objects, self._numbers = {}, {}

    def number(self, obj):
        """The number of `obj`, registering it on first sight (identity, not equality)."""
        n = self._numbers.get(id(obj))
        if n is None:
            n = len(self._objects) + 1
            self._objects[n], self._numbers[id(obj)] = obj, n
        return n

    def object(self, n):
        """Object number `n`; KeyError if this side never sent it."""
        return self._objects[n]


class _Settings:
    """What the C JSON scanner reads: plain JSON only (no NaN or Infinity tokens)."""

    strict, object_hook, object_pairs_hook, parse_float, parse_int = True, None, None, float, int

    @staticmethod
    def parse_constant(name):
        raise ValueError("JSON constant " + name)


def _refuse(value):
    raise TypeError("not JSON: " + type(value).__name__)


# The C halves of the json module, used directly: `import json` would import `re` and
# `enum` in every interpreter a run starts (about 7 ms each); these are already built in.
_SCAN = _json.make_scanner(_Settings())
_ENCODE = _json.make_encoder(None, _refuse, _json.encode_basestring_ascii, None, ":", ",",
                             False, False, False)


def dumps(value):
    """Compact JSON text of `value` (ASCII, lone surrogates escaped, as `json.dumps`)."""
    return "".join(_ENCODE(value, 0))


def loads(text):
    """The value of one JSON text; ValueError when it is not exactly one JSON value."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        raise ValueError("invalid JSON") from None
    if end != len(text):
        raise ValueError("extra data after the JSON value")
    return value


def pack(message):
    """Bytes on the wire for one message: 8-digit hex length, then compact JSON (UTF-8)."""
    body = dumps(message).encode("utf-8", "surrogatepass")
    return b"%08x" % len(body) + body


def unpack(read, limit):
    """Read one message with `read(n) -> bytes` (b"" at end of stream).

    Raises:
        EOFError: the stream ended (the other process is gone).
        ValueError: a malformed length, a message above `limit` bytes, or invalid JSON.
    """
    head = _exactly(read, 8)
    try:
        size = int(head, 16)
    except ValueError:
        raise ValueError("malformed message length") from None
    if size < 0 or size > limit:
        raise ValueError("message too large")
    return loads(_exactly(read, size).decode("utf-8", "surrogatepass"))


def _exactly(read, size):
    chunks, got = [], 0
    while got < size:
        chunk = read(min(size - got, 1 << 20))
        if not chunk:
            raise EOFError("stream ended")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
