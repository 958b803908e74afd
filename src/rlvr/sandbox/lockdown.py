"""Lock-down steps of the program's process that need the kernel's own interfaces (harness text).

Joined with `codec.py`, `program_side.py` and `trusted_side.py` into the harness script (see
`rlvr.sandbox.runner`); never imported by rlvr. `_private_root` builds the new root;
`_syscall_filter` installs the seccomp filter. Both run in the program's process before any
program code, through ctypes, which is then dropped from `sys.modules` and absent from the
private root.
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


# System calls the program's process may not make (x86_64, aarch64 numbers): new processes
# (clone without CLONE_THREAD, fork, vfork), execveat (execve stays: the lock-down ends by
# exec'ing a fresh interpreter, the only program the private root holds), namespaces,
# mounts, tracing and other processes' memory or descriptors, memory outside RLIMIT_AS (memfd_create), kernel
# interfaces a program never needs (bpf, perf, userfaultfd, keys, io_uring, modules).
_DENIED = {
    0xC000003E: dict(fork=57, vfork=58, execveat=322, unshare=272, setns=308,
                     mount=165, umount2=166, pivot_root=155, chroot=161, ptrace=101,
                     process_vm_readv=310, process_vm_writev=311, pidfd_getfd=438, kcmp=312,
                     memfd_create=319, bpf=321, perf_event_open=298, userfaultfd=323,
                     add_key=248, request_key=249, keyctl=250, io_uring_setup=425,
                     io_uring_enter=426, io_uring_register=427, kexec_load=246,
                     init_module=175, finit_module=313, delete_module=176,
                     open_by_handle_at=304, open_tree=428, move_mount=429, fsopen=430,
                     fsmount=432, mount_setattr=442, personality=135),
    0xC00000B7: dict(execveat=281, unshare=97, setns=268, mount=40, umount2=39,
                     pivot_root=41, chroot=51, ptrace=117, process_vm_readv=270,
                     process_vm_writev=271, pidfd_getfd=438, kcmp=272, memfd_create=279,
                     bpf=280, perf_event_open=241, userfaultfd=282, add_key=217,
                     request_key=218, keyctl=219, io_uring_setup=425, io_uring_enter=426,
                     io_uring_register=427, kexec_load=104, init_module=105,
                     finit_module=273, delete_module=106, open_by_handle_at=265,
                     open_tree=428, move_mount=429, fsopen=430, fsmount=432,
                     mount_setattr=442, personality=92)}
_CLONE = {0xC000003E: (56, 435), 0xC00000B7: (220, 435)}  # clone, clone3
_SOCKET = {0xC000003E: 41, 0xC00000B7: 198}  # socket: only AF_UNIX (socket pairs)


def _syscall_filter(ctypes, libc):
    """Install a seccomp filter on this thread (inherited by every thread it starts): the
    `_DENIED` calls fail with EPERM, clone only makes threads (CLONE_THREAD), clone3 fails
    with ENOSYS (the C library then uses clone), socket makes only AF_UNIX sockets, and a
    call of another architecture's ABI (x86_64's i386 entry) fails. The operating-system layer under the audit hook: a program
    that disarms the hook (its state is Python objects) and loads native code still cannot
    start a process, leave its namespaces, trace the trusted process or hold memory outside
    its limit. Raises OSError when the kernel refuses the filter."""
    import os  # no other import: as root without a private root, the stdlib is unreadable now
    machine = os.uname().machine
    arch = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7, "arm64": 0xC00000B7}.get(machine)
    if arch is None:
        raise OSError("no system call table for " + machine)
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    ld, jeq, jset, ret = 0x20, 0x15, 0x45, 0x06  # BPF_LD|W|ABS, JMP|JEQ|K, JMP|JSET|K, RET|K
    clone, clone3 = _CLONE[arch]
    socket = _SOCKET[arch]
    # A = arch; other ABI: EPERM. A = number; clone3: ENOSYS; clone: a thread (CLONE_THREAD
    # in its first argument) or EPERM; socket: AF_UNIX (1) or EPERM; then the table.
    prog = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, eperm), (ld, 0, 0, 0),
            (jeq, 0, 1, clone3), (ret, 0, 0, enosys),
            (jeq, 0, 4, clone), (ld, 0, 0, 16), (jset, 1, 0, 0x00010000), (ret, 0, 0, eperm),
            (ret, 0, 0, allow),
            (jeq, 0, 4, socket), (ld, 0, 0, 16), (jeq, 0, 1, 1), (ret, 0, 0, allow),
            (ret, 0, 0, eperm)]
    for number in sorted(set(_DENIED[arch].values())):
        prog += [(jeq, 0, 1, number), (ret, 0, 0, eperm)]
    prog.append((ret, 0, 0, allow))

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                    ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

    filters = (Filter * len(prog))(*[Filter(*f) for f in prog])
    program = Program(len(prog), filters)
    if libc.prctl(22, 2, ctypes.byref(program), 0, 0) != 0:  # PR_SET_SECCOMP, FILTER
        raise OSError("prctl(PR_SET_SECCOMP)")
