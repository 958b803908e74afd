"""The `code` reward finds the program however the response fences it, and takes an entry
point however the program binds it.

The class: only ```` ```python ```` / ```` ```py ```` / bare backtick fences with LF line
endings were recognised (tilde fences, longer fences, CRLF line endings and info strings
such as `python3 title=x` were missed), and a HumanEval response was unwrapped from its
fence only when it contained `def <entry_point>(`, so an entry point bound by assignment
(`add = _impl`) or a fenced body sent raw Markdown to the interpreter and failed an honest
program. Properties generate the fence forms; rows run real programs in the sandbox.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rlvr.rewards import score_rows
from rlvr.rewards.code import binds, build_job, extract_code, fenced_blocks

FAST = settings(max_examples=150, deadline=None)
SANDBOX = {"timeout_s": 5.0, "memory_mb": 512}

PROGRAMS = ["def f(x):\n    return x + 1", "import math\n\ndef f(x):\n    return math.sqrt(x)",
            "f = lambda x: x * 2", "class f:\n    pass", "def g():\n    '''```'''\n    return 1"]
INFOS = ["", "python", "Python", "py", "python3", "py3", "{.python}", "python title=\"a.py\"",
         "ipython"]


@FAST
@given(st.sampled_from(PROGRAMS), st.sampled_from(["`", "~"]), st.integers(3, 6),
       st.sampled_from(INFOS), st.sampled_from(["\n", "\r\n", "\r"]),
       st.sampled_from(["", "Here is the code:", "Sure!\n\nThe function:"]),
       st.booleans(), st.integers(0, 3))
def test_any_fence_form_gives_the_program(program, char, length, info, eol, lead, closed,
                                          indent):
    fence = " " * indent + char * length
    body = program.replace("\n", eol)
    text = f"{lead}{eol}{fence}{info}{eol}{body}{eol}" + (f"{fence}{eol}Done." if closed else "")
    got = extract_code(text, "f")
    assert got.rstrip("\n") == program.rstrip("\n")


@pytest.mark.parametrize("text,expected", [
    ("```text\nout\n```\n```python\ndef f(): pass\n```", [("text", "out"),
                                                          ("python", "def f(): pass")]),
    ("````\na\n```\nstill a\n````", [("", "a\n```\nstill a")]),   # a shorter fence is text
    ("~~~\na\n```\n~~~", [("", "a\n```")]),                          # another fence char too
    ("inline ```x``` only", []),
    ("```py\nopen to the end", [("py", "open to the end")]),
])
def test_fenced_blocks_rows(text, expected):
    assert fenced_blocks(text) == expected


def test_a_block_in_another_language_is_not_the_program():
    text = "```bash\npython run.py\n```\nno python block"
    assert extract_code(text, "f") == text      # nothing fenced as Python: the whole text


@pytest.mark.parametrize("code,name,expected", [
    ("def f(): pass", "f", True), ("async def f(): pass", "f", True),
    ("class f: pass", "f", True), ("f = g", "f", True), ("f: int = 3", "f", True),
    ("f, g = 1, 2", "f", True), ("from m import g as f", "f", True), ("import f", "f", True),
    ("def g():\n    f = 1", "f", False),        # not at the top level
    ("f == 3", "f", False), ("print(f)", "f", False),
    ("def f(:\n  broken", "f", True),           # does not parse: the line forms still count
])
def test_binds_rows(code, name, expected):
    assert binds(code, name) is expected


# a HumanEval-shaped task: the prompt is the stub, the test calls check(candidate)
TASK = {"prompt": 'def add(a, b):\n    """Return a + b."""\n',
        "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n"
                "    assert candidate(-1, 1) == 0\n",
        "entry_point": "add"}


@pytest.mark.parametrize("completion,score", [
    # honest programs that used to fail: bound by assignment, a fenced body, CRLF, tildes
    ("```python\ndef _impl(a, b):\n    return a + b\n\nadd = _impl\n```", 1.0),
    ("```python\n    return a + b\n```", 1.0),
    ("Sure:\r\n```python\r\ndef add(a, b):\r\n    return a + b\r\n```\r\n", 1.0),
    ("~~~py\ndef add(a, b):\n    return a + b\n~~~", 1.0),
    ("````python3\nadd = lambda a, b: a + b\n````", 1.0),
    ("    return a + b\n", 1.0),                        # an unfenced body, as before
    # wrong programs still fail in every form
    ("```python\nadd = lambda a, b: a - b\n```", 0.0),
    ("~~~\ndef add(a, b):\n    return 3\n~~~", 0.0),
    ("```python\n    return a - b\n```", 0.0),
])
def test_humaneval_fences_and_bindings_in_the_sandbox(completion, score):
    result = score_rows("code", [{"completion": completion, **TASK}], **SANDBOX)[0]
    assert result.score == score, (result.outcome, result.details)


def test_the_program_never_holds_a_fence():
    job = build_job("Sure:\n~~~python\nadd = lambda a, b: a + b\n~~~\nDone.", TASK)
    assert "~~~" not in job["program"] and "Sure:" not in job["program"]


@FAST
@given(st.sampled_from(PROGRAMS[:4]), st.sampled_from(["`", "~"]), st.integers(1, 8),
       st.sampled_from(["", "python"]), st.sampled_from(["\n", "\r\n"]),
       st.sampled_from(["Steps:\n\n1. Write it:\n", "Here you go:\n", ""]))
def test_a_fence_indented_with_its_code_gives_the_program(program, char, indent, info, eol,
                                                           lead):
    """A fence inside a list item or indented with its prose: the code lines carry the
    fence's indentation, which is not the program's (CommonMark removes it)."""
    pad = " " * indent
    body = eol.join(pad + line if line else line for line in program.split("\n"))
    text = f"{lead}{eol}{pad}{char * 3}{info}{eol}{body}{eol}{pad}{char * 3}{eol}2. Done."
    assert extract_code(text, "f").rstrip("\n") == program


@FAST
@given(st.sampled_from(PROGRAMS[:4]),
       st.sampled_from(["Here is the function:", "To do this we add one.\nThe code:",
                        "Sure! This works:"]),
       st.sampled_from(["", "This returns the result.", "Hope this helps!"]),
       st.sampled_from(["\n", "\n\n"]))
def test_unfenced_code_after_prose_gives_the_program(program, lead, tail, gap):
    text = f"{lead}{gap}{program}\n" + (f"{gap}{tail}\n" if tail else "")
    assert extract_code(text, "f").rstrip("\n") == program


@pytest.mark.parametrize("text", [
    "Here is the idea:\n\ndef g(x):\n    return x\n",   # binds another name: left as written
    "    return x + 1\n",                                 # a body that continues the prompt
    "I cannot write this function.",                      # no code at all
])
def test_text_without_a_program_for_the_entry_point_is_left_as_written(text):
    assert extract_code(text, "f") == text


# Stray, nested and unbalanced fences around a correct program. Each response is built
# from a lead, an optional wrong first draft, the program in one of the forms below, and
# what trails it; the program must come back whole. (Before: the first block the fences
# were read as -- a block run on past the program, an outer block holding the inner
# fences, a fenced "Hope this helps!" -- was taken instead.)
_DOCSTRING_FENCE = ('def f(x):\n    """Add one.\n\n    ```\n    >>> f(1)\n    2\n    ```\n'
                    '    """\n    return x + 1')
_MODULE_DOCSTRING_FENCE = '"""Usage:\n```\nf(1)\n```\n"""\n\n\ndef f(x):\n    return x + 1'
_TUPLE_PROGRAM = "def g(x):\n    return x\n\n\ndef f(x):\n    return g(x) + 1"
_STRAY_PROGRAMS = [("def f(x):\n    return x + 1", "f"),
                   ("import math\n\n\ndef f(x):\n    return math.floor(x)", "f"),
                   ("f = lambda x: x * 2", "f"), (_DOCSTRING_FENCE, "f"),
                   (_MODULE_DOCSTRING_FENCE, "f"), (_TUPLE_PROGRAM, ("f", "g")),
                   (_TUPLE_PROGRAM, ("g", "f"))]
_FORMS = ["closed", "bare", "long_open_short_close", "mixed", "nested", "nested_markdown",
          "unclosed", "unfenced"]
_LEADS = ["", "Here is the code:", "Input and output:\n```text\nInput: 1\n```\n\nThe function:"]
_DRAFTS = ["", "```python\ndef f(x):\n    # TODO\n```\nThat is incomplete. Final version:",
           "~~~python\ndef f(x):\n    return 0\n~~~\nThat is wrong; fixed:",
           "```python\ndef f(x):\n    return (\n\nLet me redo it."]      # a draft never closed
_TRAILERS = ["```", "```\nHope this helps!", "```text\nOutput: 2\n```", "~~~", "This prints 2.",
             "```\n```"]


def _wrapped(form: str, program: str, char: str, ws: str) -> str:
    """The program in one fence form; `ws` trails the opening fence line."""
    f3, other = char * 3, "~~~" if char == "`" else "```"
    return {
        "closed": f"{f3}python{ws}\n{program}\n{f3}",
        "bare": f"{f3}{ws}\n{program}\n{f3}",
        "long_open_short_close": f"{char * 4}python{ws}\n{program}\n{f3}",  # runs to the end
        "mixed": f"{f3}python{ws}\n{program}\n{other}",                  # closed by the other char
        "nested": f"{char * 4}{ws}\n```python\n{program}\n```\n{char * 4}",
        "nested_markdown": f"{char * 4}markdown{ws}\n```python\n{program}\n```\n{char * 4}",
        "unclosed": f"{f3}python{ws}\n{program}",
        "unfenced": f"{program}\n```",                                  # a stray closing fence
    }[form]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_STRAY_PROGRAMS), st.sampled_from(_FORMS), st.sampled_from(["`", "~"]),
       st.sampled_from(_LEADS), st.sampled_from(_DRAFTS),
       st.lists(st.sampled_from(_TRAILERS), max_size=2),
       st.sampled_from(["\n", "\n\n", "  \n", " \t\n\n"]), st.sampled_from(["", "  ", "\t"]))
def test_stray_nested_and_unbalanced_fences_give_the_program(case, form, char, lead, draft,
                                                             trailers, gap, ws):
    program, entry_point = case
    if form == "unfenced":
        # unfenced code is found from its first statement line (a module docstring is
        # read as prose), and a fenced draft before it would be a fenced program
        assume(program != _MODULE_DOCSTRING_FENCE and not draft)
    if form == "unclosed":
        trailers = []          # open to the end: nothing may follow but blank lines
    parts = [lead, draft, _wrapped(form, program, char, ws), *trailers]
    text = gap.join(p for p in parts if p) + "\n"   # (a gap there would pad the open program)
    got = extract_code(text, entry_point)
    assert got.rstrip("\n") == program, text


# The nastiest forms, run through the reward on real programs (MBPP and HumanEval shapes).
_NASTY = [
    "Sure:\n\n````\n```python\n{program}\n```\n````\n```\n```\nHope this helps!\n",
    "````python\n{program}\n```\n\nThis adds the numbers.\n```text\n3\n```\n",
    "```python\ndef add(a, b):\n    return (\n\nLet me redo it.\n\n```python\n{program}\n```\n"
    "Hope this helps!",
]
_MBPP_ADD = {"test_list": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"],
             "test_setup_code": "", "code": "def add(a, b):\n    return a + b"}


@pytest.mark.parametrize("form", _NASTY, ids=["nested-then-stray", "long-open-short-close",
                                              "draft-never-closed"])
@pytest.mark.parametrize("row", [_MBPP_ADD, TASK], ids=["mbpp", "humaneval"])
@pytest.mark.parametrize("result_expr,score", [("a + b", 1.0), ("a - b", 0.0)])
def test_nasty_fences_in_the_sandbox(form, row, result_expr, score):
    program = ('def add(a, b):\n    """Sum.\n\n    ```\n    >>> add(1, 2)\n    3\n    ```\n'
               f'    """\n    return {result_expr}')
    result = score_rows("code", [{"completion": form.format(program=program), **row}],
                        **SANDBOX)[0]
    assert result.score == score, (result.outcome, result.details)
