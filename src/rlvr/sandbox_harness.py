"""The harness that `rlvr.sandbox` runs in the child process (read as text, never
imported by rlvr: it executes inside the sandboxed interpreter started with -I -S -B).
The order of its steps is described in `rlvr.sandbox`'s docstring. Rule for all code that
runs once the program has started: it uses only names bound before (closure cells or
defaults), never a global or builtin lookup that the program could have patched.
"""


def _lock_files(work, own_userns):
    """Remount all read-only but `work`, cover /proc, cwd := work (as root, in a private mount
    namespace); `own_userns`: then enter a child user namespace, which locks the mounts."""
    import ctypes, os, re
    libc = ctypes.CDLL(None, use_errno=True)
    rdonly, nosuid, nodev, noexec, remount, bind = 1, 2, 4, 8, 32, 4096
    options = {"nosuid": nosuid, "nodev": nodev, "noexec": noexec, "noatime": 1024,
               "nodiratime": 2048, "relatime": 1 << 21, "strictatime": 1 << 24}

    def mount(source, target, fstype, flags, data=None):
        if libc.mount(source, target.encode(), fstype, flags, data) != 0:
            raise OSError(ctypes.get_errno(), "mount " + target)

    mount(None, "/", None, 16384 | (1 << 18))  # MS_REC | MS_PRIVATE: nothing propagates out
    mount(work.encode(), work, None, bind)  # its own mount: writable, nothing runs from it
    mount(None, work, None, remount | bind | nosuid | nodev | noexec)
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as handle:
        table, points = [line.split(" ") for line in handle.read().splitlines()], []
    for fields in table:
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        if point == work or point.startswith("/proc/") or point == "/proc":
            continue
        flags = remount | bind | rdonly  # keeping the flags a user namespace locks
        for option in fields[5].split(","):
            flags |= options.get(option, 0)
        mount(None, point, None, flags)
        points.append(point)
    mount(b"none", "/proc", b"tmpfs", rdonly | nosuid | nodev | noexec, b"size=4k,mode=555")
    if any(not os.statvfs(point).f_flag & os.ST_RDONLY for point in points):
        raise OSError("a mount is still writable")
    os.chdir(work)
    if own_userns and libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")


def _rlvr_main():
    import builtins, json, os, resource, sys
    payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    nonce = payload.pop("nonce")
    mb = 1024 * 1024
    for name, soft, extra in (("RLIMIT_AS", payload["memory_mb"] * mb, 0), ("RLIMIT_CORE", 0, 0),
                              ("RLIMIT_CPU", payload["cpu_s"], 1),
                              ("RLIMIT_FSIZE", payload["file_mb"] * mb, 0)):
        resource.setrlimit(getattr(resource, name), (soft, soft + extra))
    import _imp, _signal, _thread, bisect, collections, copy, copyreg, functools, gc, heapq, \
        itertools, math, operator, re, string, types
    for name in payload["preload"] + payload["imports"]:
        try:
            __import__(name)
        except BaseException:
            pass  # a missing module fails the tests that import it, as it would anyway
    write, exit_, exec_ = os.write, os._exit, builtins.exec
    flushes, caught = (sys.stdout.flush, sys.stderr.flush), BaseException

    def report(message=None):  # flush the program's prints; a note for humans (no verdict)
        note = ("rlvr-harness: " + message + "\n").encode("utf-8", "replace") if message else b""
        for action in (*flushes, lambda: write(2, note)):
            try:
                action()
            except caught:
                pass

    work = payload["work"]
    if payload["fs_lock"]:
        try:
            _lock_files(work, not payload.get("drop_to"))
        except BaseException as exc:
            report("cannot lock the file system: " + repr(exc))
            exit_(6)
    if payload.get("drop_to"):
        os.setgroups([])
        os.setgid(payload["drop_to"][1])
        os.setuid(payload["drop_to"][0])
    else:  # as a user: a process it would start must not read its memory (ptrace)
        __import__("ctypes").CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0
    for name in [n for n in sys.modules if n.split(".")[0] in ("ctypes", "_ctypes")]:
        del sys.modules[name]  # importing them again is blocked below
    # No cached bytecode: imports compile the source, as marshal.loads is blocked.
    sys.pycache_prefix = "/proc/rlvr-no-pycache"
    type_, id_, str_, int_, len_, map_, all_, any_, zip_, callable_, isinstance_ = (
        type, id, str, int, len, map, all, any, zip, callable, isinstance)
    dict_, list_, tuple_, vars_, bytes_ = dict, list, tuple, vars, bytes
    os_error, permission_error, value_error, import_error, base_exception = (
        OSError, PermissionError, ValueError, ImportError, BaseException)
    is_, repeat, missing = operator.is_, itertools.repeat, object()
    dict_items, cls_dict = dict.items, type.__dict__["__dict__"].__get__
    mro_of, flags_of = type.__dict__["__mro__"].__get__, type.__dict__["__flags__"].__get__
    module_type, object_ = types.ModuleType, object
    lstat, readlink, modules, modules_get = os.lstat, os.readlink, sys.modules, sys.modules.get
    gc_callbacks, re_purge, guard_ids, live = gc.callbacks, re.purge, set(), []
    start_worker = _thread.start_new_thread  # for the harness's own worker thread only
    ref_ns, stage = {"__name__": "rlvr_prompt"}, "does not compile: "
    try:  # the prompt (trusted) runs now, before the program, in its own namespace
        program, tests, reference = (compile(payload.get(key) or "", "<" + key + ">", "exec")
                                     for key in ("program", "tests", "reference"))
        stage = "task prompt raised "
        exec_(reference, ref_ns)
    except BaseException as exc:
        report(stage + type_(exc).__name__)
        exit_(3)
    entry = payload.get("entry_point")
    safe_builtins = dict_(vars_(builtins))

    # `live`: threads the program started, not finished (_thread._count() lags behind).
    def start_thread(function, args, kwargs=None, _start=_thread.start_new_thread, _live=live):
        def run_thread():
            try:
                function(*args, **(kwargs or {}))
            finally:
                _live.pop()
        _live.append(1)
        return _start(run_thread, ())

    def loader(real):  # _imp.create_*: no rebuilt _thread (an unwatched start), no blocked module
        def create(spec, *rest, _real=real, _ns=types.SimpleNamespace, _str=str_, _no=no_load):
            name, origin = spec.name, spec.origin
            if type_(name) is not _str or name in _no or type_(origin) not in (_str, type_(None)):
                raise import_error("rlvr sandbox blocks loading " + _str(name))
            return _real(_ns(name=name, origin=origin), *rest)
        guard_ids.add(id_(create))
        return create

    no_load = frozenset(("_thread", "ctypes", "_ctypes", "_posixsubprocess", "_testcapi",
                         "_testinternalcapi", "_xxsubinterpreters"))
    _thread.start_new_thread = _thread.start_new = start_thread
    _imp.create_builtin = loader(_imp.create_builtin)
    _imp.create_dynamic = loader(_imp.create_dynamic)
    if "threading" in modules:
        modules["threading"]._start_new_thread = start_thread
    guard_ids.add(id_(start_thread))
    real_modules = dict_(modules)

    # Snapshot of what the tests may read (the module doc lists it), compared by identity.
    tracked, seen, protected, function_type = [], set(), set(), types.FunctionType
    data = (int, float, bool, str, bytes, type(None), tuple, frozenset)  # class-level flags...
    lazy = ("tempfile.tempdir", "tempfile._name_sequence", "_strptime._TimeRE_cache")

    def track(label, mapping, skip=()):  # ... and these globals change in normal use
        items = [(k, v) for k, v in list_(mapping.items()) if type_(v) not in skip
                 and label + "." + str_(k) not in lazy]
        tracked.append((label, mapping, tuple_(k for k, _ in items), tuple_(v for _, v in items)))
        protected.update(id_(v) for _, v in items if type_(v) is function_type)

    for name, module in list_(modules.items()):
        if not isinstance_(module, module_type):
            continue
        track(name, vars_(module))
        for value in list_(vars_(module).values()):
            if isinstance_(value, type_) and id_(value) not in seen and \
                    flags_of(value) & (1 << 9) and not flags_of(value) & (1 << 8):
                seen.add(id_(value))  # a heap type that is not immutable: patchable
                track(name + "." + str_(value.__qualname__), cls_dict(value), data)
    track("copy._deepcopy_dispatch", copy._deepcopy_dispatch)
    track("copyreg.dispatch_table", copyreg.dispatch_table)
    track("the task prompt", ref_ns)

    def fail_if_changed(what=None):  # ends the run (exit code 5) if anything watched changed
        for name, module in list_(real_modules.items()):
            if modules_get(name, missing) is not module:
                what = "sys.modules[" + name + "]"
        for label, mapping, keys, values in tracked:
            if not all_(map_(is_, map_(mapping.get, keys, repeat(missing)), values)):
                what = label + "." + str_([k for k, v in zip_(keys, values)
                                           if mapping.get(k, missing) is not v][0])
        if live or gc_callbacks:
            what = "threads or gc.callbacks (one is still running or set)"
        if what is not None:
            report("program replaced " + what)
            exit_(5)
        re_purge()  # compiled patterns the program may have planted in re's cache

    plain_types = frozenset(id_(t) for t in (int, float, complex, bool, str, bytes, type_(None)))
    seq_types = frozenset(id_(t) for t in (list, tuple, set, frozenset, collections.deque))
    map_types = frozenset(id_(t) for t in (dict, collections.Counter, collections.OrderedDict,
                                           collections.defaultdict))

    def plain(value):  # exact builtin data types only, nested at most 40 deep
        stack = [(value, 0)]
        while stack:
            value, depth = stack.pop()
            kind = id_(type_(value))
            if kind in seq_types and depth < 40:
                stack.extend([(item, depth + 1) for item in value])
            elif kind in map_types and depth < 40:
                stack.extend([(item, depth + 1) for pair in dict_items(value) for item in pair])
            elif kind not in plain_types:
                return False
        return True

    dishonest = ("__new__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
                 "__hash__", "__bool__", "__len__", "__getattr__", "__getattribute__",
                 "__class__", "__del__", "__init_subclass__")

    def honest(cls):  # calling it yields a plain object of exactly this class: metaclass
        return type_(cls) is type_ and all_(  # type, no builtin base, none of `dishonest`
            flags_of(base) & (1 << 9) and not any_(n in cls_dict(base) for n in dishonest)
            for base in mro_of(cls)[:-1])  # all but `object`

    namespaces = []  # [test_ns, its builtins], filled in before the tests run

    def call_checked(fn, cls, args, kwargs):
        ns, tb = namespaces
        keys, values, b_values = tuple_(ns), tuple_(ns.values()), tuple_(tb.values())
        result = fn(*args, **kwargs)
        if len_(ns) != len_(keys) or len_(tb) != len_(b_values) or not all_(map_(
                is_, map_(ns.get, keys, repeat(missing)), values)) or not all_(map_(
                is_, tb.values(), b_values)):
            report("program changed the tests' namespace")
            exit_(5)
        fail_if_changed()
        if (cls is not None and type_(result) is cls) or plain(result):
            return result
        report("program returned a non-plain value: " + str_(type_(result).__name__))
        exit_(1)

    def guard(fn, cls):  # the wrapper has no closure; the hook hides its defaults
        def guarded(*args, _call=call_checked, _fn=fn, _cls=cls, **kwargs):
            return _call(_fn, _cls, args, kwargs)
        guard_ids.add(id_(guarded))
        return guarded

    def test_namespace(user_ns):
        test_ns = {}
        for name, value in list_(user_ns.items()):
            if type_(name) is not str_ or name == "__builtins__":
                continue
            if isinstance_(value, type_):
                test_ns[name] = guard(value, value if honest(value) else None)
            elif callable_(value):
                test_ns[name] = guard(value, None)
            elif plain(value) or (type_(value) is module_type
                                  and modules_get(vars_(value).get("__name__")) is value):
                test_ns[name] = value
        for name, value in list_(ref_ns.items()):
            if name != entry and not name.startswith("__"):
                test_ns[name] = value  # the prompt's own helpers, not the response's
        for name in payload["test_modules"]:  # e.g. `sys` used by the tests, not imported
            if name in real_modules and name in user_ns and not (
                    callable_(user_ns[name]) and type_(user_ns[name]) is not module_type):
                test_ns[name] = real_modules[name]
        if entry and entry in user_ns:
            test_ns[entry] = guard(user_ns[entry], None)  # whatever its type: plain results
        test_ns.update(__builtins__=dict_(safe_builtins), __name__="rlvr_tests")
        return test_ns

    fs_hook = payload["fs_hook"]
    inside_prefix = work + "/"
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
    link_mask, link_kind, dir_kind = 0o170000, 0o120000, 0o040000

    def text(path):  # refuses path-like objects: they could answer differently twice
        return path.decode("utf-8", "surrogateescape") if type_(path) is bytes_ else \
            path if type_(path) is str_ else None

    def resolve(path):  # absolute, `..` folded, symlinks followed (like realpath)
        pending = ((path if path.startswith("/") else inside_prefix + path).split("/"))[::-1]
        parts, hops = [], 0
        while pending:
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                parts[-1:] = []
                continue
            parts.append(part)
            try:
                mode = lstat("/" + "/".join(parts)).st_mode
            except os_error:
                continue
            if mode & link_mask == link_kind and hops < 40:  # past 40 the kernel says ELOOP
                hops, target = hops + 1, readlink("/" + "/".join(parts))
                parts[:] = [] if target.startswith("/") else parts[:-1]
                pending.extend(target.split("/")[::-1])
        return "/" + "/".join(parts)

    def is_dir(path):
        try:
            return lstat(path).st_mode & link_mask == dir_kind
        except os_error:
            return False

    def may_change(path, dir_fd=-1):  # path where the program may create/change/remove
        path = text(path)
        if path is None:
            return False
        if not path.startswith("/") and dir_fd not in (-1, None):
            return ".." not in path.split("/")  # dir fds exist only inside the folder
        return resolve(path).startswith(inside_prefix)

    def check_open(path, mode, flags):
        if type_(path) is int_:
            return  # an fd that is already open
        path = text(path)
        if path is None:
            raise permission_error("rlvr sandbox: open a str or bytes path")
        if mode is None and not path.startswith("/"):
            if ".." in path.split("/"):  # os.open: relative to an unknown dir_fd
                raise permission_error("rlvr sandbox blocks '..' in os.open")
            return
        full = resolve(path)
        if full == "/proc" or full.startswith("/proc/"):
            raise permission_error("rlvr sandbox blocks /proc")
        if full == work or full.startswith(inside_prefix):
            return
        if mode is None and is_dir(full):
            raise permission_error("rlvr sandbox blocks directory fds outside its folder")
        if fs_hook and flags & write_flags and full != "/dev/null":
            raise permission_error("rlvr sandbox: writes only inside its folder")

    changes = {"os.mkdir": 2, "os.rmdir": 1, "os.remove": 1, "os.chmod": 2, "os.chown": 3,
               "os.utime": 3, "os.truncate": None, "os.setxattr": None, "os.removexattr": None}
    blocked = frozenset((  # audit events refused outright
        "sys._current_frames sys.settrace sys.setprofile gc.get_objects gc.get_referrers "
        "gc.get_referents code.__new__ marshal.loads marshal.load os.fork os.forkpty os.system "
        "os.exec os.posix_spawn os.spawn os.kill os.killpg signal.pthread_kill subprocess.Popen "
        "pty.spawn socket.__new__ socket.connect socket.bind socket.getaddrinfo "
        "socket.gethostbyname socket.gethostbyaddr socket.sendto ctypes.dlopen ctypes.dlsym "
        "ctypes.cdata ctypes.addressof ctypes.call_function sys.addaudithook os.chdir "
        "os.symlink os.link").split())
    frame_attrs = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"))
    no_set, defaults = frozenset(("__code__", "__class__")), ("__defaults__", "__kwdefaults__")

    def hook(event, args):
        if event in blocked:
            raise permission_error("rlvr sandbox blocks " + event)
        if event == "open":
            check_open(*args)
        elif event == "object.__getattr__":
            if args[1] in frame_attrs or (args[1] in defaults and id_(args[0]) in guard_ids):
                raise permission_error("rlvr sandbox blocks " + str_(args[1]))
        elif event == "object.__setattr__" and (args[1] in no_set or (
                args[1] in defaults and id_(args[0]) in protected)):
            raise permission_error("rlvr sandbox blocks setting " + str_(args[1]))
        elif event == "sys._getframe":
            raise value_error("rlvr sandbox blocks frame access")
        elif event == "import" and args[0] in no_load:
            raise import_error("rlvr sandbox blocks " + str_(args[0]))
        elif fs_hook and event in changes:  # args: path first, dir_fd at changes[event]
            if type_(args[0]) is int_ and event == "os.truncate":
                return  # needs an fd opened for writing, which was checked
            at = changes[event]
            if not may_change(args[0], -1 if at is None else args[at]):
                raise permission_error("rlvr sandbox: changes only inside its folder")
        elif fs_hook and event == "os.rename":
            if not (may_change(args[0], args[2]) and may_change(args[1], args[3])):
                raise permission_error("rlvr sandbox: renames only inside its folder")
        elif fs_hook and event == "sqlite3.connect" and text(args[0]) not in (":memory:", ""):
            if not may_change(args[0]) or text(args[0]).startswith("file:"):
                raise permission_error("rlvr sandbox: databases only inside its folder")

    def run():
        user_ns = {"__name__": "solution", "__builtins__": builtins}
        try:
            exec_(program, user_ns)
        except base_exception as exc:
            report("program raised " + type_(exc).__name__)
            exit_(4)
        fail_if_changed()  # before any test code runs
        test_ns = test_namespace(user_ns)
        namespaces.extend((test_ns, test_ns["__builtins__"]))
        try:
            candidate = test_ns[entry] if entry else None
            exec_(tests, test_ns)
            if entry:
                test_ns["check"](candidate)
        except base_exception as exc:
            report("tests failed: " + type_(exc).__name__)
            exit_(1)
        fail_if_changed()
        report()
        write(1, ("\n" + nonce + "\n").encode("ascii"))
        exit_(0)

    def body():
        try:
            run()
        finally:
            exit_(8)  # run() ends with its own exit code unless the harness itself failed

    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)  # no Python-level handler remains
    sys.addaudithook(hook)
    _thread.stack_size(32 * mb)
    done = _thread.allocate_lock()
    done.acquire()
    start_worker(body, ())
    done.acquire()  # never released: the worker ends the process with os._exit


if __name__ == "__main__":  # run with `python -c`; importing it does nothing
    _rlvr_main()
