"""Run untrusted code: the program alone in a locked-down process, the tests and the verdict
in a trusted one, plain data between them.

`runner` is the parent side (limits, namespaces, the verdict); `codec` the wire format;
`program_side` and `trusted_side` are the harness script's two halves (run as text in a
fresh interpreter, never imported). The design and what each fallback keeps are in
`rlvr.sandbox.runner`'s docstring.
"""

from rlvr.sandbox.runner import (HARNESS, NPROC, PRELOAD, UID_BASE, SandboxLimits,
                                 SandboxResult, filesystem_isolation, namespaces,
                                 network_isolation, process_isolation, run_many, run_tests)

__all__ = ["HARNESS", "NPROC", "PRELOAD", "UID_BASE", "SandboxLimits", "SandboxResult",
           "filesystem_isolation", "namespaces", "network_isolation", "process_isolation",
           "run_many", "run_tests"]
