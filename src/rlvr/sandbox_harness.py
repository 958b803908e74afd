"""The harness that `rlvr.sandbox` runs in the child process (read as text, never
imported by rlvr: it executes inside the sandboxed interpreter started with -I -S -B).
"""

def _rlvr_main():
    import builtins, json, os, resource, sys, types
    payload = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    nonce = payload.pop("nonce")
    mb = 1024 * 1024
    limits = (("RLIMIT_AS", payload["memory_mb"] * mb, 0), ("RLIMIT_CPU", payload["cpu_s"], 1),
              ("RLIMIT_FSIZE", payload["file_mb"] * mb, 0), ("RLIMIT_CORE", 0, 0))
    for name, soft, extra in limits:
        resource.setrlimit(getattr(resource, name), (soft, soft + extra))
    import bisect, collections, copy, functools, heapq, itertools, math, operator, re, string
    for name in payload["preload"]:
        try:
            __import__(name)
        except ImportError:
            pass
    if payload.get("drop_to"):
        os.setgroups([])
        os.setgid(payload["drop_to"][1])
        os.setuid(payload["drop_to"][0])
    write, exit_, exec_, type_, callable_, isinstance_ = (
        os.write, os._exit, builtins.exec, builtins.type, builtins.callable, builtins.isinstance)
    # Everything the harness calls after the program has run is bound here, before it
    # runs, so patching builtins cannot change the harness's own checks.
    dict_, list_, id_, all_, vars_ = builtins.dict, builtins.list, builtins.id, builtins.all, builtins.vars
    type_error, dict_items = builtins.TypeError, builtins.dict.items

    def report(message):  # a note for humans; never part of the verdict
        flush()
        try:
            write(2, ("rlvr-harness: " + message + "\n").encode("utf-8", "replace"))
        except BaseException:
            pass

    def flush():  # the program's buffered prints, for the result's stdout/stderr tails
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass

    try:
        program = compile(payload["program"], "<solution>", "exec")
        tests = compile(payload["tests"], "<tests>", "exec")
    except BaseException as exc:
        report("does not compile: " + type_(exc).__name__)
        exit_(3)
    watched = [(m.__name__, m, dict_(vars_(m))) for m in (
        builtins, bisect, collections, copy, functools, heapq, itertools, math, operator, re,
        string)]
    modules = sys.modules
    safe_builtins = dict_(vars_(builtins))
    plain_types = {id_(t) for t in (int, float, complex, bool, str, bytes, type_(None))}
    seq_types = {id_(t) for t in (list, tuple, set, frozenset, collections.deque)}
    map_types = {id_(t) for t in (dict, collections.Counter, collections.OrderedDict,
                                  collections.defaultdict)}
    counter = collections.Counter  # a Python class: its methods could be replaced
    counter_dict = dict_(vars_(counter))

    def plain(value, depth=0):
        kind = id_(type_(value))
        if kind in plain_types:
            return True
        if depth > 40:
            return False
        if kind in seq_types:
            return all_(plain(v, depth + 1) for v in value)
        if kind in map_types:
            return all_(plain(k, depth + 1) and plain(v, depth + 1)
                        for k, v in dict_items(value))
        return False

    def guard(fn):
        def guarded(*args, **kwargs):
            result = fn(*args, **kwargs)
            if not plain(result):
                raise type_error("rlvr sandbox: returned a non-plain value")
            return result
        return guarded

    def tampered():
        for name, module, snapshot in watched:
            if modules.get(name) is not module:
                return name
            current = vars_(module)
            for key, value in snapshot.items():
                if current.get(key, guarded_missing) is not value:
                    return name + "." + key
        for key, value in counter_dict.items():
            if vars_(counter).get(key, guarded_missing) is not value:
                return "collections.Counter." + key
        return None

    guarded_missing = object()
    blocked = frozenset((
        "sys._current_frames", "sys.settrace", "sys.setprofile", "gc.get_objects",
        "gc.get_referrers", "gc.get_referents", "code.__new__", "marshal.loads", "marshal.load",
        "os.fork", "os.forkpty", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.kill",
        "os.killpg", "signal.pthread_kill", "subprocess.Popen", "pty.spawn", "socket.__new__",
        "socket.connect", "socket.bind", "socket.getaddrinfo", "socket.gethostbyname",
        "socket.gethostbyaddr", "socket.sendto", "ctypes.dlopen", "ctypes.dlsym", "ctypes.cdata",
        "ctypes.addressof", "ctypes.call_function", "sys.addaudithook"))
    frame_attrs = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"))
    no_imports = ("ctypes", "_ctypes", "_testcapi", "_testinternalcapi", "_xxsubinterpreters")

    def hook(event, args):
        if event in blocked:
            raise PermissionError("rlvr sandbox blocks " + event)
        if event == "sys._getframe":
            raise ValueError("rlvr sandbox blocks frame access")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise PermissionError("rlvr sandbox blocks " + args[1])
        if event == "object.__setattr__" and args[1] == "__code__":
            raise PermissionError("rlvr sandbox blocks __code__ replacement")
        if event == "import" and args[0] in no_imports:
            raise ImportError("rlvr sandbox blocks " + args[0])
        if event == "open" and isinstance_(args[0], (str, bytes)):
            path = args[0] if isinstance_(args[0], str) else args[0].decode("utf-8", "replace")
            if path.startswith("/proc"):
                raise PermissionError("rlvr sandbox blocks /proc")

    sys.addaudithook(hook)
    user_ns = {"__name__": "solution", "__builtins__": builtins}
    try:
        exec_(program, user_ns)
    except BaseException as exc:
        report("program raised " + type_(exc).__name__)
        exit_(4)
    changed = tampered()
    if changed:
        report("program replaced " + changed)
        exit_(5)
    test_ns = {}
    for name, value in list_(user_ns.items()):
        if type_(name) is str and name != "__builtins__":
            wrap = callable_(value) and not isinstance_(value, type_)
            test_ns[name] = guard(value) if wrap else value
    test_ns["__builtins__"] = dict_(safe_builtins)
    test_ns["__name__"] = "rlvr_tests"
    try:
        exec_(tests, test_ns)
        entry = payload.get("entry_point")
        if entry:
            check = test_ns["check"]
            check(test_ns[entry])
    except BaseException as exc:
        report("tests failed: " + type_(exc).__name__)
        exit_(1)
    changed = tampered()
    if changed:
        report("program replaced " + changed)
        exit_(5)
    flush()
    write(1, ("\n" + nonce + "\n").encode("ascii"))
    exit_(0)


if __name__ == "__main__":  # run with `python -c`; importing it does nothing
    _rlvr_main()
