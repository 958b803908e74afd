"""`code` reward: run the response's program against the task's tests in the sandbox.

Two task formats:

* HumanEval (fields `prompt`, `test`, `entry_point`): when the response's code binds
  the entry point (`def`, `class`, an assignment or an import: `binds`), the program is the
  prompt followed by the response's code (the
  prompt's imports and helpers stay available; the new definition replaces the stub);
  otherwise the response is taken as the body that continues the prompt. The test code
  defines `check(candidate)`, which the harness calls with the entry point. The prompt
  also goes to the sandbox as the trusted `reference`: the tests see the prompt's own
  helpers (HumanEval/50's `encode_shift`), not versions the response redefined.
* MBPP (fields `test_list`, `test_setup_code`, and the reference `code` when present): the
  program is the response's code; the tests are the setup code followed by the asserts.
  The tests take from the program the names they read and do not define, never a builtin
  or a standard module unless the reference `code` defines that name (`task_functions`).

Code inside Markdown fences is extracted (`extract_code`): the fences are read as CommonMark
reads them (`fenced_blocks`: backtick or tilde fences of any length and indentation, any
line endings, the last block open to the end), blocks with a Python or empty info string
count (one labelled Markdown is read as a document in its turn), and the program is the
last block that binds the entry point, else the last that parses. When that block does
not parse, the fences were misread (a ```` block closed by ```, ``` closed by ~~~, a
fence nested in another or in a docstring, a draft never closed) and the code between any
two fence lines that parses and binds is taken; without a fence, or after a stray one,
code after a line of prose (`_after_prose`). This holds for a whole program and for a body
that continues the prompt alike. The program never runs in this process, nor in the
process that runs the tests: see `rlvr.sandbox` (two processes, plain data between them)
and docs/rewards.md for what crosses. Batches (the TRL adapter, `rlvr score`) run in
parallel workers.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Callable

from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import register_reward
from rlvr.rewards.rulebook import Evidence, register_rule, why
from rlvr.sandbox import SandboxLimits, SandboxResult, run_many

# A fenced code block as CommonMark reads one: an opening line of 3+ backticks or 3+ tildes
# with an optional info string, the code, then a closing line of the same character at
# least as long; a block never closed runs to the end of the text (cut at the token cap).
# Line endings CRLF and CR read as LF. A fence may be indented (inside a list item, or
# indented with the prose around it): the closing line may be indented up to 3 spaces more
# than the opening one, and the indentation all code lines share is removed up to the
# opening line's (`_dedent`).
_OPENING = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*?)[ \t]*$")
# info strings of Python code ("python", "py3", "{.python}", "python title=x"); an empty
# one counts as Python, a block labelled another language ("text", "bash") does not
_PYTHON_INFO = re.compile(r"^\{?\.?(?:python[23]?|py[23]?|ipython[23]?)\b", re.IGNORECASE)


def fenced_blocks(completion: str) -> list[tuple[str, str]]:
    """Every fenced block of a response, in order, as CommonMark reads them (see
    `_OPENING`: a block runs to the first closing fence of its character at least as long,
    else to the end of the text).

    Args:
        completion: the response text (any line endings).
    Returns:
        [(info, code)]; [] when the text has no fence.
    """
    return [(info, code) for info, code, _, _ in _blocks(_lines(completion))]


def _lines(text: str) -> list[str]:
    """The text's lines, CRLF and CR line endings read as LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _opening(line: str) -> re.Match[str] | None:
    """The line as an opening fence, or None (a backtick fence's info holds no backtick)."""
    opening = _OPENING.match(line)
    if opening and opening.group(2)[0] == "`" and "`" in opening.group(3):
        return None
    return opening


def _blocks(lines: list[str]) -> list[tuple[str, str, int, int]]:
    """`fenced_blocks` with where each block lies: (info, code, index of the opening line,
    index of the closing line or len(lines) for a block open to the end)."""
    blocks, i = [], 0
    while i < len(lines):
        opening = _opening(lines[i])
        if not opening:
            i += 1
            continue
        indent = len(opening.group(1).expandtabs(4))
        fence = opening.group(2)
        closing = re.compile(rf"^ {{0,{indent + 3}}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines))
                    if closing.match(lines[j].expandtabs(4))), len(lines))
        blocks.append((opening.group(3), _dedent(lines[i + 1:end], indent), i, end))
        i = end + 1
    return blocks


def _dedent(lines: list[str], indent: int) -> str:
    """The code lines of a block whose opening fence is indented by `indent` columns,
    joined, with the indentation they all share removed up to `indent` (a fence in a list
    item indents its code with it). Code written at the margin under an indented fence
    keeps its own indentation, which is Python's."""
    if indent:
        lines = [line.expandtabs(4) if line[:1] == "\t" else line for line in lines]
        shared = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()),
                     default=0)
        lines = [line[min(shared, indent):] for line in lines]
    return "\n".join(lines)


def binds(code: str, name: str) -> bool:
    """True when `code` binds `name` at its top level: `def`, `class`, an assignment
    (`name = ...`, `name: T = ...`, a tuple target), or an import (`import x as name`,
    `from m import name`). Code that does not parse is searched line by line for the same
    forms."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return bool(re.search(
            rf"^[ \t]*(?:(?:async[ \t]+)?def[ \t]+{re.escape(name)}[ \t]*\(|class[ \t]+"
            rf"{re.escape(name)}\b|{re.escape(name)}[ \t]*(?::[^=\n]*)?=(?!=))", code, re.M))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name
                   for target in targets for t in ast.walk(target)):
                return True
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((alias.asname or alias.name.split(".")[0]) == name for alias in node.names):
                return True
    return False


def extract_code(completion: str, entry_point: str | tuple[str, ...] | None = None) -> str:
    """The program in a response.

    Args:
        completion: the response text.
        entry_point: the name the program must bind (`binds`), a tuple of names of which
            it must bind one (an MBPP task's functions), or None.
    Returns:
        The code, in this order of preference:
        1. The Python blocks (`fenced_blocks`, CommonMark; an info string of Python or
           none) that hold code: the last one that binds the entry point, else the last
           one that parses, else the last one -- when that block parses (and binds).
           A later block that is empty (a stray fence) or prose ("Hope this helps!")
           never displaces an earlier program.
        2. When that block does not parse or bind, the fences were likely misread (a
           block opened with ```` and closed with ```, ``` closed by ~~~, one fence nested
           in another, a fence inside a docstring, a draft never closed): the code between
           any two fence lines, or a fence line and the end, that parses and binds and
           ends past that block's opening line (`_between_fences`: the last such, the
           widest from one start; an earlier draft does not replace a later program).
        3. When no block binds the entry point (or none is given): unfenced code after
           prose (`_after_prose`) that parses and binds it (a program followed by a stray
           fence that opens a block of prose).
        4. Else the block of step 1 as it is (a program that fails as written); with no
           Python block at all, `_after_prose`'s answer (the whole text when it finds no
           code).
    """
    lines = _lines(completion)
    names = (entry_point,) if isinstance(entry_point, str) else tuple(entry_point or ())

    def wanted(code: str) -> bool:
        return _parses(code) and (not names or any(binds(code, name) for name in names))

    blocks = _python_blocks(lines)
    defining = [b for b in blocks if any(binds(b[0], name) for name in names)]
    chosen = (defining or [b for b in blocks if _parses(b[0])] or blocks or [None])[-1]
    if chosen and wanted(chosen[0]):
        return chosen[0]
    between = _between_fences(lines, chosen[1] if chosen else 0, wanted)
    if between is not None:
        return between
    unfenced = _after_prose(completion, names[0] if len(names) == 1 else None)
    if not chosen or (not defining and wanted(unfenced)):
        return unfenced
    return chosen[0]


# info strings of a block that holds a Markdown document (its own fenced blocks count)
_MARKDOWN_INFO = re.compile(r"^\{?\.?(?:markdown|md)\b", re.IGNORECASE)


def _python_blocks(lines: list[str], offset: int = 0,
                   depth: int = 0) -> list[tuple[str, int, int]]:
    """The blocks of `_blocks` that hold Python code (a Python or empty info string, not
    only blank lines), as (code, opening line, closing line), the lines counted from
    `offset`; a block labelled Markdown is read as a document in its turn (a few levels)."""
    found = []
    for info, code, start, end in _blocks(lines):
        if _MARKDOWN_INFO.match(info) and depth < 4:
            found += _python_blocks(lines[start + 1:end], offset + start + 1, depth + 1)
        elif (not info or _PYTHON_INFO.match(info)) and code.strip():
            found.append((code, offset + start, offset + end))
    return found


# a text with more fence lines than this is not re-read (each pair costs a parse)
_MAX_FENCE_LINES = 64


def _between_fences(lines: list[str], after: int,
                    wanted: Callable[[str], bool]) -> str | None:
    """The code between an opening fence line (Python or no info string) and a later fence
    line of any kind, or the end of the text, for which `wanted` holds and which ends past
    line `after` (a block's opening line: code before that block does not replace it):
    the last such by start, the widest from that start. None when there is none."""
    fences = [i for i, line in enumerate(lines) if _OPENING.match(line)]
    if len(fences) > _MAX_FENCE_LINES:
        return None
    for start in reversed(fences):
        opening = _opening(lines[start])
        if not opening or (opening.group(3) and not _PYTHON_INFO.match(opening.group(3))):
            continue
        indent = len(opening.group(1).expandtabs(4))
        for end in reversed([i for i in fences if i > max(start, after)] + [len(lines)]):
            code = _dedent(lines[start + 1:end], indent)
            if code.strip() and wanted(code):
                return code
    return None


def _parses(code: str) -> bool:
    """True when `code` is a Python module the compiler accepts."""
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


# a line that starts a top-level Python statement a program opens with
_CODE_START = re.compile(r"^(?:(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(|class[ \t]+\w+|import[ \t]+\w|"
                         r"from[ \t]+[\w.]+[ \t]+import[ \t]|@\w)", re.MULTILINE)


def _after_prose(completion: str, entry_point: str | None) -> str:
    """Unfenced code after a line of prose ("Here is the function:\n\ndef add(a, b): ...").

    Args:
        completion: the response text.
        entry_point: the name the code must bind, or None.
    Returns:
        When the whole text is not Python: the text from the first line that opens a
        top-level statement (`def`, `class`, `import`, `from ... import`, a decorator, an
        assignment to the entry point), with the lines after the code dropped (prose, a
        stray fence), provided that parses and binds the entry point (when one is given).
        A text that opens with code loses only a tail that starts at a fence line (the
        program then ends at a stray "```"), so a program that fails as written is not
        cut to a prefix that runs. Otherwise the text as it is (a body that continues the
        prompt, or a program that fails as written).
    """
    text = completion.replace("\r\n", "\n").replace("\r", "\n")
    try:
        ast.parse(text)
        return completion
    except (SyntaxError, ValueError):
        pass
    starts = [m.start() for m in [_CODE_START.search(text)] if m] + ([
        m.start() for m in [re.search(rf"^{re.escape(entry_point)}[ \t]*(?::[^=\n]*)?=(?!=)",
                                      text, re.MULTILINE)] if m] if entry_point else [])
    start = min(starts, default=None)
    if start is None:  # no code line
        return completion
    lines = text[start:].rstrip().split("\n")
    for end in range(len(lines), 0, -1):  # what follows the code: drop trailing lines
        if start == 0 and end < len(lines) and not _OPENING.match(lines[end]):
            continue  # the text opens with code: cut only at a stray fence
        code = "\n".join(lines[:end])
        try:
            ast.parse(code)
        except (SyntaxError, ValueError):
            continue
        return code if entry_point is None or binds(code, entry_point) else completion
    return completion


def prompt_reference(prompt: str) -> str | None:
    """The task prompt as a module that compiles (a `pass` body added to a bare stub), or
    None when it does not compile either way (nothing is then restored for the tests)."""
    if not prompt.strip():
        return None
    for source in (prompt, f"{prompt}\n    pass\n"):
        try:
            compile(source, "<prompt>", "exec")
            return source
        except (SyntaxError, ValueError):
            continue
    return None


def task_functions(fields: dict[str, Any]) -> list[str]:
    """Top-level names the MBPP task's reference `code` defines (its functions and classes),
    or `entry_point` when given; empty without either. The tests take these names from the
    program even when they are builtins (MBPP 126 defines `sum`); every other builtin the
    tests use stays the real one, whatever the program defines."""
    names = [fields["entry_point"]] if fields.get("entry_point") else []
    try:
        tree = ast.parse(fields.get("code") or "")
    except (SyntaxError, ValueError):
        return names
    return names + [node.name for node in tree.body if isinstance(
        node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def task_classes(fields: dict[str, Any]) -> list[str] | None:
    """The classes among `task_functions` (MBPP 367's `Node`, 601's `Pair`): objects the
    tests build from them are the only program objects whose attributes the tests may
    read or write. None when the row has no reference `code` (then any name may be)."""
    if not fields.get("code"):
        return None
    try:
        tree = ast.parse(fields["code"])
    except (SyntaxError, ValueError):
        return []
    return [node.name for node in tree.body if isinstance(node, ast.ClassDef)]


def build_job(completion: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The program, tests, entry point and prompt reference to run for one response.

    Returns:
        dict with `program`, `tests`, `entry_point`, `reference` (None for MBPP tasks,
        which have no prompt code) and, for MBPP, `program_names` (`task_functions`) and
        `program_classes` (`task_classes`); see `rlvr.sandbox.run_tests`.
    Raises:
        ValueError: the fields hold neither HumanEval `test` nor MBPP `test_list`.
    """
    entry_point = fields.get("entry_point")
    if fields.get("test"):
        prompt = fields.get("prompt") or ""
        code = extract_code(completion, entry_point)
        if entry_point and binds(code, entry_point):  # def, assignment or import: replaces
            program = f"{prompt}\n    pass\n\n{code}\n" if prompt.rstrip().endswith(":") else \
                f"{prompt}\n\n{code}\n"
        else:  # the body that continues the prompt, unwrapped from its fence if fenced
            program = prompt + (code if prompt.endswith("\n") or code is completion
                                else "\n" + code)
        return {"program": program, "tests": fields["test"], "entry_point": entry_point,
                "reference": prompt_reference(prompt)}
    tests = fields.get("test_list")
    if tests:
        if isinstance(tests, str):
            tests = [tests]
        setup = fields.get("test_setup_code") or ""
        return {"program": extract_code(completion, entry_point or tuple(task_functions(fields))),
                "tests": setup + "\n" + "\n".join(tests) + "\n", "entry_point": None,
                "reference": None, "program_names": task_functions(fields),
                "program_classes": task_classes(fields)}
    raise ValueError("code reward needs HumanEval `test` (+ `entry_point`) or MBPP `test_list`")


def _result(res: SandboxResult, passed: float, failed: float) -> RewardResult:
    details = {"reason": res.reason, "duration_s": round(res.duration_s, 4)}
    return RewardResult(passed if res.passed else failed, res.status, details)


def code_batch(completions: list[str], rows: list[dict[str, Any]], *, timeout_s: float = 5.0,
               memory_mb: int = 1024, workers: int | None = None, passed: float = 1.0,
               failed: float = 0.0) -> list[RewardResult]:
    """Score a batch of responses in parallel sandboxed workers (see `code_reward`)."""
    limits = SandboxLimits(timeout_s=timeout_s, memory_mb=memory_mb)
    results: list[RewardResult | None] = [None] * len(completions)
    jobs, where = [], []
    for i, (completion, fields) in enumerate(zip(completions, rows)):
        if not (completion or "").strip():
            results[i] = RewardResult(failed, "no_code", {"reason": "empty response"})
            continue
        try:
            jobs.append(build_job(completion, fields))
        except ValueError as exc:
            results[i] = RewardResult(None, "bad_task", {"reason": str(exc)})
            continue
        where.append(i)
    for i, res in zip(where, run_many(jobs, workers=workers, limits=limits)):
        results[i] = _result(res, passed, failed)
    return [_explained(r) for r in results]  # type: ignore[arg-type]


def _explained(result: RewardResult) -> RewardResult:
    """The verdict with its `why`: the sandbox's reason when the sandbox ran the program
    (`code.sandbox`), then the table cell (`code.table`) when the verdict has a score."""
    notes = ([Evidence(SANDBOX, str(result.details.get("reason", "")))]
             if "duration_s" in result.details else [])  # the sandbox ran the program
    if result.score is not None:
        notes.append(Evidence(TABLE, result.outcome, result.score))
    return RewardResult(result.score, result.outcome, {**result.details, "why": why(notes)})


_TASK = {"test": "def check(f):\n    assert f(2) == 4\n", "entry_point": "double"}
SANDBOX = register_rule(
    "code.sandbox", "the sandbox's verdict on the program against the task's tests; read = "
    "its reason (\"tests failed: AssertionError\", \"program raised NameError\")",
    grader="code", fires=[("def double(x):\n    return 2 * x\n", None, _TASK)],
    spares=[("", None, {"entry_point": "double"})])
TABLE = register_rule(
    "code.table", "the `code` reward's value for the outcome (`passed` 1.0, else 0.0); read = "
    "the outcome", grader="code",
    fires=[("def double(x):\n    return 2 * x\n", None, _TASK),
           ("def double(x):\n    return x\n", None, _TASK)],
    spares=[("def double(x):\n    return x\n", None, {"entry_point": "double"})])


@register_reward("code", fields=(), required_any=("test", "test_list"),
                 optional_fields=("prompt", "entry_point", "test_setup_code", "code"),
                 score_range=(0.0, 1.0), batch_core=code_batch,
                 outcomes=("passed", "failed", "timeout", "error", "no_code", "bad_task"))
def code_reward(completion: str, *, timeout_s: float = 5.0, memory_mb: int = 1024,
                workers: int | None = None, passed: float = 1.0, failed: float = 0.0,
                **fields: Any) -> RewardResult:
    """1.0 when the response's program passes every test of its task, else 0.0.

    Args:
        completion: the response (code, possibly in Markdown fences).
        timeout_s: wall-clock seconds per program (CPU limit ceil(timeout_s) + 1 s).
        memory_mb: address-space limit per program, in MiB.
        workers: parallel programs in a batch (default: number of CPUs).
        passed, failed: the two scores (kept within [0, 1]).
        **fields: HumanEval `prompt`, `test`, `entry_point`, or MBPP `test_list`,
            `test_setup_code` and optionally `code` (the reference solution: only the
            names it defines are read, see `task_functions`).
    Returns:
        RewardResult with outcome `passed`, `failed`, `timeout`, `error` (the sandbox
        could not run), `no_code` (empty response) or `bad_task` (score None: no tests).
        Details: `reason` (the trusted process's note: "tests failed: AssertionError",
        "program raised NameError", ...), `duration_s`.
    Source: HumanEval (Chen et al., 2021) and MBPP (Austin et al., 2021) task formats;
        the verdict protocol is rlvr's (`rlvr.sandbox`).
    """
    return code_batch([completion], [fields], timeout_s=timeout_s, memory_mb=memory_mb,
                      workers=1, passed=passed, failed=failed)[0]
