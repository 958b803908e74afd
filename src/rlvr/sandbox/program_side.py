"""The program's process: lock-down, then run the program and answer calls (harness text).

Read as text and joined with `codec.py` and `trusted_side.py` into the harness script (see
`rlvr.sandbox.runner`); never imported by rlvr. The trusted process forks this process
before it reads its own input, so this process never holds the tests, the prompt's code, the
expected values or the verdict nonce: there is nothing here to steal. What the program can
do in here (patch builtins, keep frames, load native code, run finalizers) changes only what
its own functions return, and only plain data leaves (see `codec.py`).

Order: stdin closed, stdout/stderr moved to the program's own files, resource limits, the
private root (when mounts are possible), privileges dropped, the system-call filter (both
in `lockdown.py`), audit hook, then `_serve`.
"""


STACK_MB = 64  # the main thread's stack (RLIMIT_STACK): deep recursion, as a thread of 32 MB had


def _program_main(config, rfd, wfd):
    """Lock this process down as `config` says, then serve the trusted process (no return).

    config: {"work", "memory_mb", "cpu_s", "file_mb", "nproc", "drop_to": [uid, gid] or
    None, "root": bool, "binds": [[source, target]], "hook": bool, "filter": bool (the
    system-call filter), "data": [folders the hook lets it read], "out": fd, "err": fd,
    "preload": [module names], "python": the interpreter, "harness": its script}. With the
    private root, the last lock-down step execs a fresh interpreter (`_program_serve`).
    """
    import os, resource, sys
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(config["out"], 1)
    os.dup2(config["err"], 2)
    for fd in range(3, 256):
        if fd not in (rfd, wfd):
            try:
                os.close(fd)
            except OSError:
                pass
    mb = 1024 * 1024
    limits = [("RLIMIT_AS", config["memory_mb"] * mb), ("RLIMIT_CORE", 0),
              ("RLIMIT_CPU", config["cpu_s"]), ("RLIMIT_FSIZE", config["file_mb"] * mb),
              ("RLIMIT_NOFILE", 256)]  # bounds pipe buffers, memory outside RLIMIT_AS
    if config["nproc"]:
        limits.append(("RLIMIT_NPROC", config["nproc"]))
    stack_hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
    stack = STACK_MB * mb if stack_hard == resource.RLIM_INFINITY else \
        min(STACK_MB * mb, stack_hard)
    resource.setrlimit(resource.RLIMIT_STACK, (stack, stack_hard))  # deep recursion
    for name, soft in limits:
        resource.setrlimit(getattr(resource, name), (soft, soft + (name == "RLIMIT_CPU")))
    work, drop = config["work"], config["drop_to"]
    for name in config["preload"]:  # fallback: the run's user cannot read the stdlib
        try:
            __import__(name)
        except BaseException:
            pass
    try:
        if config["root"]:
            _private_root(work, config["binds"], drop or (0, 0), config["file_mb"], 10000)
        else:
            os.chdir(work)
        import ctypes
        libc = ctypes.CDLL(None)
        if drop:
            os.setgroups([])
            os.setgid(drop[1])
            os.setuid(drop[0])
        elif config["root"] and libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER: mounts locked
            raise OSError("unshare(CLONE_NEWUSER)")
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError("prctl(PR_SET_NO_NEW_PRIVS)")
        if config["filter"]:
            _syscall_filter(ctypes, libc)
        if config["root"] and config["fresh"]:  # an interpreter that never loaded ctypes
            for fd in (rfd, wfd):
                os.set_inheritable(fd, True)
            fresh = dict(config, serve=[rfd, wfd], binds=[])
            os.execv(config["python"], [config["python"], "-I", "-S", "-B", config["harness"],
                                        dumps(fresh)])
    except BaseException as exc:
        os.write(2, ("rlvr-harness: cannot lock down: %r\n" % (exc,)).encode())
        os._exit(6)
    for name in [n for n in sys.modules if n.split(".")[0] in ("ctypes", "_ctypes")]:
        del sys.modules[name]
    _program_serve(config, rfd, wfd)


def _program_serve(config, rfd, wfd):
    """Serve the trusted process from this locked-down process (no return): the audit hook,
    then `_serve` in the main thread (its stack bounded by the raised RLIMIT_STACK). With the private root this runs in a fresh
    interpreter exec'd by `_program_main` (`config["serve"]` holds the two pipe ends): the
    interpreter that used ctypes for the lock-down, and holds it in its cache of extension
    modules, is gone, and the private root has no ctypes to load."""
    import sys
    mb = 1024 * 1024
    sys.pycache_prefix = "/proc/rlvr-no-pycache"  # nothing written, nothing stale loaded
    if config["hook"]:
        sys.addaudithook(_make_hook(config["work"], config["data"]))
    # The main thread serves: signal handlers (signal.signal, signal.alarm timeouts that
    # honest programs use) work only there. Its stack may grow to RLIMIT_STACK, which
    # `_program_main` raised to STACK_MB before the lock-down, for deep recursion.
    _serve_then_exit(rfd, wfd, config["memory_mb"] * mb)


def _serve_then_exit(rfd, wfd, limit):
    import os
    try:
        _serve(rfd, wfd, limit)
    finally:
        os._exit(0)


def _make_hook(work, data=()):
    """The audit hook of the program's process: a second layer under the OS-level one.

    Refuses processes (fork, exec, spawn, signals to others), sockets other than AF_UNIX
    (and any connect, bind or send to an address: a socket pair is all one can do), name
    lookups, ctypes, loading the blocked native modules under any name, /proc; file
    writes, renames, removals, links and mode changes outside `work`; reading outside the
    folder, the interpreter's sys.path, the time-zone database (`data`) and a few /dev
    nodes. Where the OS-level layer exists it already makes all of these impossible;
    without namespaces, this is what remains.
    """
    import _imp, os, sys
    inside = work + "/"
    readable = tuple(os.path.realpath(p) + "/" for p in [*sys.path, *data] if p) + (inside,)
    devices = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full")
    blocked = frozenset((
        "os.fork os.forkpty os.system os.exec os.posix_spawn os.spawn os.kill os.killpg "
        "signal.pthread_kill subprocess.Popen pty.spawn socket.connect socket.sendmsg "
        "socket.bind socket.getaddrinfo socket.gethostbyname socket.gethostbyaddr "
        "socket.sendto ctypes.dlopen ctypes.dlsym ctypes.cdata ctypes.addressof "
        "ctypes.call_function os.chdir os.symlink os.link").split())
    no_load = frozenset(("ctypes", "_ctypes", "_testcapi",
                         "_testinternalcapi", "_xxsubinterpreters"))
    changes = {"os.mkdir": 2, "os.rmdir": 1, "os.remove": 1, "os.chmod": 2, "os.chown": 3,
               "os.utime": 3, "os.truncate": None, "os.setxattr": None,
               "os.removexattr": None}
    writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def text(path):
        return path.decode("utf-8", "surrogateescape") if type(path) is bytes else \
            path if type(path) is str else None

    def inside_folder(path, dir_fd=None):
        path = text(path)
        if path is None:
            return False
        if not path.startswith("/") and dir_fd not in (-1, None):
            return ".." not in path.split("/")
        full = os.path.realpath(path if path.startswith("/") else inside + path)
        return full == work or full.startswith(inside)

    def check_open(path, mode, flags):
        if type(path) is int:
            return
        if text(path) is None:
            raise PermissionError("rlvr sandbox: open a str or bytes path")
        if mode is None and not text(path).startswith("/"):
            if ".." in text(path).split("/"):
                raise PermissionError("rlvr sandbox blocks '..' in os.open")
            return
        full = os.path.realpath(text(path) if text(path).startswith("/") else inside + text(path))
        if full == work or full.startswith(inside) or full in devices:
            return
        if flags & writing or mode is None or not full.startswith(readable):
            raise PermissionError("rlvr sandbox: files only inside its folder")

    def loader(real):  # a blocked native module under any module or file name
        def create(spec, *rest):
            names = (str(spec.name).rpartition(".")[2],
                     os.path.basename(str(spec.origin or "")).split(".")[0])
            if any(name in no_load for name in names):
                raise ImportError("rlvr sandbox blocks loading " + str(spec.name))
            return real(spec, *rest)
        return create

    _imp.create_builtin, _imp.create_dynamic = loader(_imp.create_builtin), \
        loader(_imp.create_dynamic)

    def hook(event, args):
        if event in blocked:
            raise PermissionError("rlvr sandbox blocks " + event)
        if event == "socket.__new__" and args[1] != 1:  # AF_UNIX pairs (asyncio's self-pipe)
            raise PermissionError("rlvr sandbox blocks sockets other than socket pairs")
        if event == "open":
            check_open(*args)
        elif event == "import" and args[0] in no_load:
            raise ImportError("rlvr sandbox blocks " + str(args[0]))
        elif event in changes:
            at = changes[event]
            if not (type(args[0]) is int and event == "os.truncate") and \
                    not inside_folder(args[0], None if at is None else args[at]):
                raise PermissionError("rlvr sandbox: changes only inside its folder")
        elif event == "os.rename" and not (inside_folder(args[0], args[2]) and
                                           inside_folder(args[1], args[3])):
            raise PermissionError("rlvr sandbox: renames only inside its folder")
        elif event == "sqlite3.connect" and text(args[0]) not in (":memory:", "") and (
                not inside_folder(args[0]) or str(text(args[0])).startswith("file:")):
            raise PermissionError("rlvr sandbox: databases only inside its folder")

    return hook


def _serve(rfd, wfd, limit):
    """Answer the trusted process: run the program, then calls, attribute reads and
    iteration on its objects; the program's calls to objects of the trusted side go back as
    callbacks. Every value leaves through `encode` (plain data or a handle number)."""
    import builtins, os, sys
    table = Table("h", TrustedObject)

    def send(message):
        data = pack(message)
        while data:
            data = data[os.write(wfd, data):]

    def proxy(n):
        return TrustedObject(n, callback)

    def callback(n, op, what):  # the program uses an object of the trusted side
        if op == "call":
            reply = exchange(["cb", "call", n, encode(what[0], table), encode(what[1], table)])
        else:
            reply = exchange(["cb", op, n, what])
        if reply[0] == "exc":
            kind = getattr(builtins, str(reply[1]), None)
            if not (isinstance(kind, type) and issubclass(kind, Exception)):
                kind = Exception
            raise kind(reply[2])
        return decode(reply[1], table, proxy)

    def exchange(message):  # send a request, serve nested requests until its answer
        send(message)
        while True:
            request = unpack(lambda size: os.read(rfd, size), limit)
            if request[0] in ("ret", "exc"):
                return request
            send(answer(request))

    def answer(request):
        op = request[0]
        try:
            if op == "program":  # a real module, as dataclasses and pickle expect
                module = type(sys)("solution")
                module.__builtins__ = builtins
                sys.modules["solution"] = module
                table.namespace = namespace = module.__dict__
                exec(compile(request[1], "<program>", "exec"), namespace)
                return ["ret", None, []]
            if op == "get":
                return ["ret", encode(table.namespace[request[1]], table), []]
            target = table.object(request[1])
            if op == "getattr":  # only of the task's objects: kept as they are
                return ["ret", kept(getattr(target, request[2])), []]
            if op == "setattr":
                setattr(target, request[2], decode(request[3], table, proxy))
                return ["ret", None, []]
            if op == "iter":
                return ["ret", encode(iter(target), table), []]
            if op == "next":
                return ["ret", encode(next(target), table), []]
            args = decode(request[2], table, proxy)
            kwargs = decode(request[3], table, proxy)
            mutable = [i for i, a in enumerate(args) if type(a) in (list, dict, set)]
            before = {i: encode(args[i], table) for i in mutable}
            result = target(*args, **kwargs)
            if request[4:5] == [True]:  # the tests build an object of the task's class
                return ["ret", kept(result), []]
            back = []  # in-place changes: every list/dict/set argument the call changed
            for i in mutable:
                after = encode(args[i], table)
                if result is None or after != before[i]:
                    back.append([i, after])
            return ["ret", encode(result, table), back]
        except BaseException as exc:
            return exception(exc)

    def kept(value):  # an object of the task stays one (a namedtuple Pair, not a tuple)
        if type(value) in _EXACT or type(value) is TrustedObject or type(value) in (
                _loaded("fractions", "Fraction"), _loaded("decimal", "Decimal")):
            return encode(value, table)
        return ["h", table.number(value)]

    def exception(exc):
        name = "Exception"
        for cls in type(exc).__mro__:  # the nearest builtin class: the trusted side's rule
            if getattr(cls, "__module__", None) == "builtins":
                name = cls.__name__
                break
        try:
            message = str(exc)[:1000] if type(exc).__str__ is BaseException.__str__ else ""
        except BaseException:
            message = ""
        return ["exc", name, message]

    def flushed(reply):  # the program's prints reach its files before the tests go on
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        return reply

    while True:
        send(flushed(answer(unpack(lambda size: os.read(rfd, size), limit))))


class TrustedObject:
    """The program's stand-in for an object of the trusted side (a function or object the
    tests passed in): calls, reads of public attributes and iteration are forwarded (the
    trusted side answers attribute reads only for instances of classes the tests define).
    An exception there comes back as the builtin exception of the same name."""

    __slots__ = ("_rlvr_n", "_callback")

    def __init__(self, n, callback):
        object.__setattr__(self, "_rlvr_n", n)
        object.__setattr__(self, "_callback", callback)

    def __call__(self, *args, **kwargs):
        return self._callback(self._rlvr_n, "call", (args, kwargs))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._callback(self._rlvr_n, "getattr", name)

    def __iter__(self):  # a generator or other iterable the tests pass in
        iterator = self._callback(self._rlvr_n, "iter", "")
        while True:
            try:
                yield self._callback(iterator._rlvr_n, "next", "")
            except StopIteration:
                return
