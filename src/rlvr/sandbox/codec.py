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

Exact types only: a subclass of int, str, list, dict, ... is not plain data and crosses as a
handle, so whatever `__eq__`, `__hash__` or `__bool__` it defines stays in the program's
process. Nesting is limited to `MAX_DEPTH` levels (`ValueError` beyond).
"""

import collections
import json

MAX_DEPTH = 100


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
    if kind is range:
        return ["R", format(value.start, "x"), format(value.stop, "x"), format(value.step, "x")]
    if kind is type and _TYPE_NAMES.get(value) is not None:
        return ["b", _TYPE_NAMES[value]]
    if kind is table.remote_type:
        return [table.other, value._rlvr_n]
    return [table.tag, table.number(value)]


_SEQ_TAGS = {list: "l", tuple: "t", set: "s", frozenset: "z", collections.deque: "q"}
_MAP_TAGS = {dict: "d", collections.Counter: "C", collections.OrderedDict: "O",
             collections.defaultdict: "D"}
_SEQ_BUILD = {"l": list, "t": tuple, "s": set, "z": frozenset, "q": collections.deque}
_MAP_BUILD = {"d": dict, "C": collections.Counter, "O": collections.OrderedDict, "D": dict}
_TYPES = (int, float, complex, bool, str, bytes, bytearray, list, tuple, dict, set, frozenset,
          range, slice)
_TYPE_NAMES = {t: t.__name__ for t in _TYPES}
_TEXT_TAGS = {"i": lambda t: int(t, 16), "f": float.fromhex, "y": bytes.fromhex,
              "b": {t.__name__: t for t in _TYPES}.__getitem__}


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
    if tag == "R" and len(data) == 4 and all(type(x) is str for x in data[1:]):
        return range(*(int(x, 16) for x in data[1:]))
    if tag in ("h", "r") and len(data) == 2 and type(first) is int:
        return table.object(first) if tag == table.tag else proxy(first)
    if len(data) != 2 or type(first) is not list:
        raise ValueError("malformed value with tag " + tag[:8])
    if tag in _SEQ_BUILD:
        return _SEQ_BUILD[tag]([decode(item, table, proxy, depth + 1) for item in first])
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


def pack(message):
    """Bytes on the wire for one message: 8-digit hex length, then compact JSON (UTF-8)."""
    body = json.dumps(message, separators=(",", ":")).encode("utf-8", "surrogatepass")
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
    return json.loads(_exactly(read, size).decode("utf-8", "surrogatepass"))


def _exactly(read, size):
    chunks, got = [], 0
    while got < size:
        chunk = read(min(size - got, 1 << 20))
        if not chunk:
            raise EOFError("stream ended")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
