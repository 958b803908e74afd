"""Named grader rules and the evidence a verdict carries (`why`).

A rule is a registered value, as rewards and tasks are: an id whose first part names its
family (`decline.phrase`, `candidates.or_alternative`, `forms.bound_before`), one line saying
what it decides, examples on which it must fire and near-misses on which it must spare, and
optionally where it came from. The modules that decide register their rules beside their
code (`register_rule`), so a rule and its pattern live together.

While a grader decides, each rule that decides something notes it (`note`): the rule id,
the span it read ("i don't know", "after george best") and, where there is one, what it
read there (the items of a list, the rival numbers). A verdict's `why` is that ordered
list, ending with the reward table's cell that priced the outcome; `rlvr score --explain`
prints it in words (`explain_lines`).

Notes go to the trace of the innermost `tracing()` block and cost one context-variable
read when none is open. A probe a grader runs only to decide something about the gold
answer (is the gold itself an uncertainty word?) runs under `quiet()`, so it leaves no
note; cached helpers must not note (a cache hit would leave none), so notes sit in the
deciding functions. The context variable keeps traces of threads and tasks apart.

Examples are probes of one reward, the rule's `grader`: `(completion, question, gold)`.
For `selfaware` (the default; its `strict` preset; `selfaware_seed`: its `seed` preset)
gold None marks an unanswerable question; `qa` reads gold as the aliases and the question slot as its mode (None:
`contains`), `math` as the solution,
`gsm8k_correctness` as the final answer (the question slot "fallback" turns its fallback
on), `abstention` reads the completion and the question
only (`abstention_head`: the same with a stub head the gold slot names, "declining" or
"answering"), `code` reads gold as a task ({"test", "entry_point"}). `tests/test_rulebook.py` runs
every rule's examples and fails when a rule lacks either kind, fires on a spare or spares
a fire. A reward core decorated with `explained(rule_id)` gets a `why` ending with its
table cell. Standard library only.
"""

from __future__ import annotations

import contextlib
import functools
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from rlvr.errors import RlvrError

Probe = tuple[str, str, "str | list[str] | None"]


@dataclass(frozen=True)
class Rule:
    """One named decision of a grader.

    Attributes:
        id: "family.name", e.g. "decline.phrase"; the family is the part before the dot.
        decides: one line: what the rule decides when it fires.
        fires: probes (completion, question, gold; gold None = unanswerable) whose verdict
            must note this rule.
        spares: near-misses whose verdict must not note it.
        source: where the rule came from (a red-team round, a paper, a dataset), or "".
        grader: the reward the probes run through (module docstring).
    """

    id: str
    decides: str
    fires: tuple[Probe, ...]
    spares: tuple[Probe, ...]
    source: str = ""
    grader: str = "selfaware"

    @property
    def family(self) -> str:
        """The family: the id before its first dot ("decline" for "decline.phrase")."""
        return self.id.split(".", 1)[0]


RULES: dict[str, Rule] = {}


def register_rule(rule_id: str, decides: str, *, fires: list[Probe] | tuple[Probe, ...],
                  spares: list[Probe] | tuple[Probe, ...], source: str = "",
                  grader: str = "selfaware") -> str:
    """Register a rule; returns its id (for the module's `note` calls).

    Raises:
        RlvrError: an id without a family ("phrase"), an id registered twice, an empty
            `decides` line.
    """
    if "." not in rule_id or not all(rule_id.split(".")):
        raise RlvrError(f"rule id {rule_id!r} needs a family: 'family.name'")
    if rule_id in RULES:
        raise RlvrError(f"rule {rule_id!r} is registered twice")
    if not decides.strip():
        raise RlvrError(f"rule {rule_id!r} needs a `decides` line")
    RULES[rule_id] = Rule(rule_id, decides.strip(), tuple(fires), tuple(spares), source,
                          grader)
    return rule_id


def get_rule(rule_id: str) -> Rule:
    """The registered rule `rule_id`.

    Raises:
        RlvrError: an unknown id (the message names the family's known ids).
    """
    try:
        return RULES[rule_id]
    except KeyError:
        family = rule_id.split(".", 1)[0]
        known = sorted(r for r in RULES if r.startswith(family + ".")) or sorted(RULES)
        raise RlvrError(f"unknown rule {rule_id!r}; known: {', '.join(known)}") from None


@dataclass(frozen=True)
class Evidence:
    """One rule's note on one verdict.

    Attributes:
        rule: the rule id (`RULES`).
        read: the span of the response (folded, lower-cased) the rule read; "" when the rule
            reads the whole response.
        value: what the rule read there, when that is more than the span: the items of a
            list, the rival numbers, the table cell's reward; None otherwise.
    """

    rule: str
    read: str = ""
    value: Any = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for `RewardResult.details["why"]`: {"rule", "read"[, "value"]}."""
        out: dict[str, Any] = {"rule": self.rule, "read": self.read}
        if self.value is not None:
            out["value"] = list(self.value) if isinstance(self.value, tuple) else self.value
        return out


_TRACE: ContextVar[list[Evidence] | None] = ContextVar("rlvr_rule_trace", default=None)


def note(rule_id: str, read: str = "", value: Any = None) -> None:
    """Record that `rule_id` decided something, in the open trace (nothing when none is).

    Raises:
        RlvrError: while tracing, an unregistered rule id (a grader bug, found by the tests).
    """
    trace = _TRACE.get()
    if trace is None:
        return
    if rule_id not in RULES:
        get_rule(rule_id)
    trace.append(Evidence(rule_id, str(read).strip(), value))  # a number read is its text


def noted(rule_id: str, read: str = "", value: Any = None) -> bool:
    """`note` and return True: for deciding functions that return a flag
    (`return noted("forms.retracted", span)`)."""
    note(rule_id, read, value)
    return True


@contextlib.contextmanager
def tracing() -> Iterator[list[Evidence]]:
    """Collect the notes made inside the block into the list it yields (nested blocks each
    get their own)."""
    trace: list[Evidence] = []
    token = _TRACE.set(trace)
    try:
        yield trace
    finally:
        _TRACE.reset(token)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Suspend tracing inside the block: a probe of the gold answer is no evidence about
    the response."""
    token = _TRACE.set(None)
    try:
        yield
    finally:
        _TRACE.reset(token)


_PLAIN = (str, int, float, bool, type(None))


def why(trace: list[Evidence]) -> list[dict[str, Any]]:
    """A trace as `details["why"]`: each note as a dict, repeats of one note dropped."""
    seen, out = set(), []
    for evidence in trace:
        value = evidence.value
        key = (evidence.rule, evidence.read,
               value if isinstance(value, _PLAIN) else repr(value))
        if key not in seen:
            seen.add(key)
            out.append(evidence.as_dict())
    return out


def traced(core: Callable, *args: Any, **kwargs: Any) -> tuple[Any, list[Evidence]]:
    """`core(*args, **kwargs)` and the notes made while it ran (what `tracing()` collects,
    without a context manager's cost on the scoring path)."""
    trace: list[Evidence] = []
    token = _TRACE.set(trace)
    try:
        return core(*args, **kwargs), trace
    finally:
        _TRACE.reset(token)


def explained(rule_id: str | None) -> Callable[[Callable], Callable]:
    """Decorator for a reward core `(completion, **fields) -> RewardResult`: the core runs
    inside a trace, and its verdict comes back with `details["why"]`: the notes made while
    it decided, then `rule_id` (the reward's table cell: read = the outcome, value = the
    score) when the verdict has a score and `rule_id` is not None (a reward whose every
    verdict is priced by its label alone, `abstention`, names no cell). The wrapped core
    keeps the core's signature."""
    def wrap(core: Callable) -> Callable:
        @functools.wraps(core)
        def explained_core(*args: Any, **kwargs: Any):
            result, trace = traced(core, *args, **kwargs)
            if result.score is not None and rule_id is not None:
                trace.append(Evidence(rule_id, result.outcome, result.score))
            details = dict(result.details)
            details["why"] = why(trace)
            return type(result)(result.score, result.outcome, details)
        return explained_core
    return wrap


def explain_lines(why_list: list[dict[str, Any]]) -> list[str]:
    """`details["why"]` in words, one line per note: the rule id, the span it read, what it
    read there, and what the rule decides.

    Raises:
        RlvrError: a note whose rule is not registered.
    """
    lines = []
    for item in why_list:
        rule = get_rule(item["rule"])
        read = f' "{item["read"]}"' if item.get("read") else ""
        value = f" -> {item['value']}" if item.get("value") is not None else ""
        lines.append(f"{rule.id}{read}{value}: {rule.decides}")
    return lines
