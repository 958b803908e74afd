"""The trusted process: the tests, the task's prompt and the verdict (harness text).

Joined after `codec.py` and `program_side.py` into the harness script that `rlvr.sandbox`
starts (never imported by rlvr). It forks the program's process first, before reading its
own input from stdin, then runs the prompt's code and the tests in an interpreter where no
program code ever runs. Each program name the tests use is a `ProgramObject`, a stub that
forwards calls (arguments encoded by `codec.encode`) and returns the rebuilt plain value.

Rules (stated once here, repeated in docs/rewards.md):
* A value the program returns is plain data rebuilt here, or, when it is not plain data, an
  opaque `ProgramObject`: it compares, hashes and tests true by identity only (a handle
  never equals an expected value) and forwards calls and iteration (each item is again
  plain data or a handle). Attributes (reads and writes, never dunder names) are forwarded
  only on the task's own objects: those the tests build by calling a class the task names
  (`classes`: the classes of MBPP's reference code; without reference code, the names
  `names.kept_names` finds), and the handles read from their attributes; those objects
  stay handles even when they are of a plain type's subclass (a namedtuple `Pair`). A
  function's result is data, not an object whose methods the tests may call:
  `f(x).startswith('a')` on a handle raises AttributeError.
* An exception the program raises comes back as its name and message. It is raised here as
  the builtin exception class that is its nearest builtin ancestor (a `class E(ValueError)`
  is raised as ValueError), or `ProgramError` when that class cannot be built. SystemExit,
  KeyboardInterrupt and GeneratorExit end the run without a verdict, as they would in one
  interpreter. StopIteration and StopAsyncIteration are control flow here: from anything
  but a step of an iteration they arrive as `ProgramError` (as PEP 479 does for
  generators), so a call cannot end the tests' `map`, `filter` or `max(..., default=)`.
* In-place changes the program makes to a list, dict or set argument are copied back into
  the tests' object (as plain data) when the call returns None, as tests of in-place
  functions (`xs.sort()`-like: they return None) expect. A function that returns a value
  leaves the tests' arguments as they were, so it cannot change an expected value the
  tests compute from them afterwards (`candidate(xs) == sorted(xs)`). When such a call
  did change an argument, the tests run a second time with every change copied back
  (`strict`), and the program passes only if both runs pass: a test that checks the
  argument is left alone ("xs itself must not be modified") sees the change.
* A malformed message, a dead program process or data nested too deep ends the run, failed.
* Objects of the tests that are not plain data (a lambda, a generator) reach the program as
  proxies that forward calls and iteration. The program may read public attributes only
  of instances of classes the tests or the prompt define (a node built by setup code);
  never of a generator, frame, module, function or any other object, so no attribute
  chain (`gen.gi_frame.f_builtins['exec']`) leads into this interpreter.
"""


class ProgramError(Exception):
    """An exception raised by the program whose class has no builtin counterpart here."""


class ProgramObject:
    """A handle to an object of the program's process (see the module doc for its rules)."""

    __slots__ = ("_rlvr_n", "_rlvr_link")

    def __init__(self, n, link):
        object.__setattr__(self, "_rlvr_n", n)
        object.__setattr__(self, "_rlvr_link", link)

    def __call__(self, *args, **kwargs):
        return self._rlvr_link.call(self._rlvr_n, args, kwargs)

    def __getattr__(self, name):
        link = self._rlvr_link
        if name.startswith("__") and name.endswith("__") or self._rlvr_n not in link.built:
            raise AttributeError(name)
        value = link.request(["getattr", self._rlvr_n, name], ())
        if type(value) is ProgramObject:  # root.left: another node of the task's objects
            link.built.add(value._rlvr_n)
        return value

    def __setattr__(self, name, value):  # MBPP 367's setup links the program's Nodes
        link = self._rlvr_link
        if name.startswith("__") and name.endswith("__") or self._rlvr_n not in link.built:
            raise AttributeError(name)
        link.request(["setattr", self._rlvr_n, name, encode(value, link.table)], ())

    def __iter__(self):
        link = self._rlvr_link
        iterator = link.request(["iter", self._rlvr_n], ())
        if type(iterator) is not ProgramObject:
            raise TypeError("the program's iterator is not an object")
        while True:
            try:
                item = link.request(["next", iterator._rlvr_n], ())
            except StopIteration:
                return
            yield item

    def __repr__(self):
        return "<object of the program #%d>" % self._rlvr_n


class Link:
    """The trusted end of the two pipes to the program's process."""

    def __init__(self, wfd, rfd, limit, fail, module="rlvr_tests"):
        self.wfd, self.rfd, self.limit, self.fail = wfd, rfd, limit, fail
        self.table, self.handles = Table("r", ProgramObject), {}
        self.classes, self.built, self.module = set(), set(), module  # handle numbers
        self.strict, self.changed_and_returned = False, False  # in-place changes (module doc)

    def proxy(self, n):
        """The one `ProgramObject` for the program's object number n."""
        if n not in self.handles:
            self.handles[n] = ProgramObject(n, self)
        return self.handles[n]

    def send(self, message):
        """Write one message (encoded values inside are already tagged)."""
        import os
        data = pack(message)
        try:
            while data:
                data = data[os.write(self.wfd, data):]
        except OSError:
            self.fail("the program's process ended", 1)

    def call(self, n, args, kwargs):
        """Call the program's object n; returns the rebuilt result."""
        try:
            message = ["call", n, encode(args, self.table), encode(kwargs, self.table),
                       n in self.classes]
        except RecursionError:
            raise ValueError("argument nested too deep") from None
        value = self.request(message, args)
        if n in self.classes and type(value) is ProgramObject:  # Node(1): a task object
            self.built.add(value._rlvr_n)
        return value

    def request(self, message, args):
        """Send `message`, answer the program's callbacks until its reply; returns the
        rebuilt value or raises the rebuilt exception (see the module doc)."""
        import os
        self.send(message)
        while True:
            try:
                reply = unpack(lambda size: os.read(self.rfd, size), self.limit)
                op = reply[0] if type(reply) is list and reply else None
                if op == "cb":
                    self.send(self.callback(reply))
                    continue
                if op == "ret" and len(reply) == 3 and type(reply[2]) is list:
                    value = decode(reply[1], self.table, self.proxy)
                    if value is not None and reply[2]:
                        self.changed_and_returned = True  # decides the strict second run
                    for i, data in reply[2] if value is None or self.strict else ():
                        self.copy_back(args[i], decode(data, self.table, self.proxy))
                    return value
                ok = op == "exc" and len(reply) == 3 and type(reply[1]) is type(reply[2]) is str
            except (EOFError, OSError):
                self.fail("the program's process ended", 1)
            except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
                self.fail("malformed message from the program: " + type(exc).__name__, 1)
            if not ok:
                self.fail("malformed message from the program", 1)
            raise self.rebuilt(reply[1], reply[2], message[0] == "next")

    @staticmethod
    def copy_back(arg, value):
        """Put the program's final state of a list/dict/set argument into the tests' one."""
        kind = type(arg)
        if kind in (list, dict, set) and type(value) is kind:
            if kind is list:
                arg[:] = value
            else:
                arg.clear()
                arg.update(value)

    def rebuilt(self, name, message, step=False):
        """The exception to raise here for the program's exception `name`; `step`: the
        request was a step of an iteration, the one place StopIteration may end."""
        import builtins
        if name in ("SystemExit", "KeyboardInterrupt", "GeneratorExit"):
            self.fail("program raised " + name + " during the tests", 1)
        if name in ("StopIteration", "StopAsyncIteration") and not step:
            return ProgramError(name + " outside an iteration: " + message)
        kind = getattr(builtins, name, None)
        if isinstance(kind, type) and issubclass(kind, Exception):
            try:
                return kind(message)
            except Exception:
                pass
        return ProgramError(name + ": " + message)

    def callback(self, request):
        """Run the program's use of an object of the tests; returns the reply message."""
        if len(request) == 5 and request[1] == "call":
            target = self.table.object(request[2])
            args = decode(request[3], self.table, self.proxy)
            kwargs = decode(request[4], self.table, self.proxy)
            if type(args) is not tuple or type(kwargs) is not dict or \
                    any(type(k) is not str for k in kwargs):
                raise ValueError("malformed callback")
            action = lambda: target(*args, **kwargs)  # noqa: E731
        elif len(request) == 4 and request[1] == "getattr" and type(request[3]) is str \
                and not request[3].startswith("_"):
            target, name = self.table.object(request[2]), request[3]
            if getattr(type(target), "__module__", None) != self.module:
                return ["exc", "AttributeError", "the program reads attributes only of "
                        "objects of classes the tests define"]
            action = lambda: getattr(target, name)  # noqa: E731
        elif len(request) == 4 and request[1] in ("iter", "next"):
            target = self.table.object(request[2])
            action = (lambda: iter(target)) if request[1] == "iter" else (  # noqa: E731
                lambda: next(target))
        else:
            raise ValueError("malformed callback")
        try:
            return ["ret", encode(action(), self.table)]
        except Exception as exc:
            name = next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
            return ["exc", name, str(exc)[:1000]]


def _rlvr_main():
    import os, resource, signal, sys
    config = loads(sys.argv[1])
    if "serve" in config:  # the program's process, exec'd after its lock-down
        _program_serve(config, *config["serve"])
    to_program, from_trusted = os.pipe()
    to_trusted, from_program = os.pipe()
    child = os.fork()  # before anything secret is read: the program's process holds none
    if child == 0:
        os.close(from_trusted)
        os.close(to_trusted)
        try:
            _program_main(config, to_program, from_program)
        finally:
            os._exit(7)
    for fd in (to_program, from_program, config["out"], config["err"]):
        os.close(fd)
    if not config["drop_to"]:  # the program runs as this user: no ptrace, no /proc/pid/mem
        try:
            import ctypes
            ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
        except (ImportError, OSError):
            pass
    payload = loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * MAX_DEPTH + 1000))
    mb = 1024 * 1024
    for name, soft in (("RLIMIT_AS", config["memory_mb"] * mb), ("RLIMIT_CPU", config["cpu_s"])):
        resource.setrlimit(getattr(resource, name), (soft, soft + 1))

    def fail(note, code):
        os.write(2, ("rlvr-harness: " + note + "\n").encode("utf-8", "replace"))
        try:
            sys.stdout.flush()
            os.kill(child, signal.SIGKILL)
        except BaseException:
            pass
        os._exit(code)

    link = Link(from_trusted, to_trusted, config["memory_mb"] * mb, fail)
    link.strict = bool(payload.get("strict"))
    ns, stage = {"__name__": "rlvr_tests"}, "does not compile: "
    try:
        tests = compile(payload["tests"], "<tests>", "exec")
        reference = compile(payload["reference"] or "", "<reference>", "exec")
        stage = "task prompt raised "
        exec(reference, ns)
    except BaseException as exc:
        fail(stage + type(exc).__name__, 3)
    try:
        link.request(["program", payload["program"]], ())
    except BaseException as exc:
        fail("program raised " + type(exc).__name__, 4)
    for name in payload["modules"]:  # standard modules the tests use without importing
        try:
            ns[name] = __import__(name)
        except ImportError:
            pass
    classes = payload["classes"]
    for name in payload["names"]:
        try:
            ns[name] = link.request(["get", name], ())
        except KeyError:
            continue  # not defined by the program: the tests fail with NameError if they use it
        if type(ns[name]) is ProgramObject and name in classes:
            link.classes.add(ns[name]._rlvr_n)
    entry = payload["entry_point"]
    try:
        exec(tests, ns)
        if entry:
            ns["check"](ns[entry])
    except BaseException as exc:
        fail("tests failed: " + type(exc).__name__, 1)
    sys.stdout.flush()
    if link.changed_and_returned and not link.strict:  # the runner runs the tests again
        os.write(1, ("\n" + payload["nonce"] + "-strict\n").encode("ascii"))
    os.write(1, ("\n" + payload["nonce"] + "\n").encode("ascii"))
    try:
        os.kill(child, signal.SIGKILL)
    except OSError:
        pass
    os._exit(0)


if __name__ == "__main__":  # run with `python -c`; importing it does nothing
    _rlvr_main()
