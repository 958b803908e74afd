"""The program's process: lock-down, then run the program and answer calls (harness text).

Read as text and joined with `codec.py` and `trusted_side.py` into the harness script (see
`rlvr.sandbox.runner`); never imported by rlvr. The trusted process forks this process
before it reads its own input, so this process never holds the tests, the prompt's code, the
expected values or the verdict nonce: there is nothing here to steal. What the program can
do in here (patch builtins, keep frames, load native code, run finalizers) changes only what
its own functions return, and only plain data leaves (see `codec.py`).

Order: stdin closed, stdout/stderr moved to the program's own files, resource limits, the
private root (when mounts are possible), privileges dropped, audit hook, then `_serve`.
"""


def _private_root(work, binds, owner, folder_mb, inodes):
    """Make a new root that holds only `binds` (read-only) and the folder, and enter it.

    A tmpfs becomes `/`; each (source, target) in `binds` (the standard library, the
    shared libraries its extension modules load, a few /dev nodes) is bind-mounted
    read-only at target; the folder `work` is a tmpfs of `folder_mb` MiB and `inodes`
    files, owned by `owner` (uid, gid), noexec/nosuid/nodev. `pivot_root` then drops the old root, so no
    other file of the machine has a path. Needs CAP_SYS_ADMIN (root, or root in a user
    namespace). Raises OSError on any failure.
    """
    import ctypes, os, platform
    libc = ctypes.CDLL(None, use_errno=True)
    rdonly, nosuid, nodev, noexec, remount, bind = 1, 2, 4, 8, 32, 4096
    keep = {2: nosuid, 4: nodev, 8: noexec, 1024: 1024, 2048: 2048, 4096: 1 << 21}

    def call(result, what):
        if result != 0:
            raise OSError(ctypes.get_errno(), what)

    def mount(source, target, fstype, flags, data=None):
        call(libc.mount(source, target.encode(), fstype, flags, data), "mount " + target)

    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS: these mounts are this process's alone
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
    mount(None, "/", None, 16384 | (1 << 18))  # MS_REC | MS_PRIVATE: nothing propagates
    root = work  # an empty folder made for this run; the new root is mounted over it
    mount(b"rlvr-root", root, b"tmpfs", nosuid | nodev, b"size=1m,nr_inodes=4096,mode=755")
    for source, path in binds:
        target = root + path
        os.makedirs(target if os.path.isdir(source) else os.path.dirname(target), exist_ok=True)
        if not os.path.isdir(source):
            open(target, "a").close()
        mount(source.encode(), target, None, bind)
        flags = remount | bind | rdonly | nosuid
        for bit, flag in keep.items():  # flags a user namespace locks must be kept
            flags |= flag if os.statvfs(source).f_flag & bit else 0
        mount(None, target, None, flags)
        if os.path.isdir(source + "/site-packages"):  # third-party packages: hidden
            mount(b"none", target + "/site-packages", b"tmpfs", rdonly | nosuid | nodev,
                  b"size=4k,mode=555")
    os.makedirs(root + work, exist_ok=True)
    mount(b"rlvr-folder", root + work, b"tmpfs", nosuid | nodev | noexec, (
        "size=%dm,nr_inodes=%d,mode=700,uid=%d,gid=%d" % (folder_mb, inodes, *owner)).encode())
    os.mkdir(root + "/.old")
    number = {"x86_64": 155, "aarch64": 41, "arm64": 41}.get(platform.machine())
    if number is None:
        raise OSError("no pivot_root number for this machine")
    call(libc.syscall(number, root.encode(), (root + "/.old").encode()), "pivot_root")
    os.chdir("/")
    call(libc.umount2(b"/.old", 2), "umount /.old")  # MNT_DETACH: the old root is gone
    os.rmdir("/.old")
    mount(None, "/", None, remount | rdonly | nosuid | nodev)
    os.chdir(work)


def _program_main(config, rfd, wfd):
    """Lock this process down as `config` says, then serve the trusted process (no return).

    config: {"work", "memory_mb", "cpu_s", "file_mb", "nproc", "drop_to": [uid, gid] or
    None, "root": bool, "binds": [[source, target]], "hook": bool, "out": fd, "err": fd,
    "preload": [module names]}.
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
              ("RLIMIT_CPU", config["cpu_s"]), ("RLIMIT_FSIZE", config["file_mb"] * mb)]
    if config["nproc"]:
        limits.append(("RLIMIT_NPROC", config["nproc"]))
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
        libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    except BaseException as exc:
        os.write(2, ("rlvr-harness: cannot lock down: %r\n" % (exc,)).encode())
        os._exit(6)
    for name in [n for n in sys.modules if n.split(".")[0] in ("ctypes", "_ctypes")]:
        del sys.modules[name]
    sys.pycache_prefix = "/proc/rlvr-no-pycache"  # nothing written, nothing stale loaded
    if config["hook"]:
        sys.addaudithook(_make_hook(work))
    import _thread
    _thread.stack_size(32 * mb)  # deep recursion as in an ordinary main thread, and more
    done = _thread.allocate_lock()
    done.acquire()
    _thread.start_new_thread(_serve_then_exit, (rfd, wfd, config["memory_mb"] * mb))
    done.acquire()  # never released: the serving thread ends the process


def _serve_then_exit(rfd, wfd, limit):
    import os
    try:
        _serve(rfd, wfd, limit)
    finally:
        os._exit(0)


def _make_hook(work):
    """The audit hook of the program's process: a second layer under the OS-level one.

    Refuses processes (fork, exec, spawn, signals to others), sockets and name lookups,
    ctypes, loading the blocked native modules under any name, /proc; file writes,
    renames, removals, links and mode changes outside `work`; reading outside the folder,
    the interpreter's sys.path and a few /dev nodes. Where the OS-level layer exists it
    already makes all of these impossible; without namespaces, this is what remains.
    """
    import _imp, os, sys
    inside = work + "/"
    readable = tuple(os.path.realpath(p) + "/" for p in sys.path if p) + (inside,)
    devices = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full")
    blocked = frozenset((
        "os.fork os.forkpty os.system os.exec os.posix_spawn os.spawn os.kill os.killpg "
        "signal.pthread_kill subprocess.Popen pty.spawn socket.__new__ socket.connect "
        "socket.bind socket.getaddrinfo socket.gethostbyname socket.gethostbyaddr "
        "socket.sendto ctypes.dlopen ctypes.dlsym ctypes.cdata ctypes.addressof "
        "ctypes.call_function os.chdir os.symlink os.link").split())
    no_load = frozenset(("ctypes", "_ctypes", "_posixsubprocess", "_testcapi",
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
            if op == "program":
                namespace = {"__name__": "solution", "__builtins__": builtins}
                table.namespace = namespace
                exec(compile(request[1], "<program>", "exec"), namespace)
                return ["ret", None, []]
            if op == "get":
                return ["ret", encode(table.namespace[request[1]], table), []]
            target = table.object(request[1])
            if op == "getattr":
                return ["ret", encode(getattr(target, request[2]), table), []]
            if op == "setattr":
                setattr(target, request[2], decode(request[3], table, proxy))
                return ["ret", None, []]
            if op == "iter":
                return ["ret", encode(iter(target), table), []]
            if op == "next":
                return ["ret", encode(next(target), table), []]
            args = decode(request[2], table, proxy)
            kwargs = decode(request[3], table, proxy)
            result = target(*args, **kwargs)
            back = [[i, encode(a, table)] for i, a in enumerate(args)
                    if type(a) in (list, dict, set)]  # in-place changes to the arguments
            return ["ret", encode(result, table), back]
        except BaseException as exc:
            return exception(exc)

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
    tests passed in): calls, reads of public attributes and iteration are forwarded.
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
