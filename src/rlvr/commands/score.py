"""`rlvr score`: score completions offline with a registered reward (no torch import).

`rlvr score --reward NAME [--preset P] --input FILE.jsonl [--output FILE.jsonl]` scores
rows that hold a `completion` plus the reward's fields and prints counts per outcome.
NAME may be your own function, `module:function` or `path/to/file.py:function` (a relative
path read from the working directory; `rlvr.rewards.user`).
`--reward-model PATH_OR_ID` scores with a reward model instead (`rlvr.rewards.model_reward`;
it loads torch); `--reward llm_judge --param 'judge={...}'` asks an LLM judge.
`--explain` prints, per row, the named rules that decided the verdict (`details["why"]`,
`rlvr.rewards.rulebook`) and writes them to the output rows.
`rlvr score --preflight --reward NAME [--preset P] --data FILE.jsonl` scores the dataset's
gold answers and degenerate policies (always abstain, always hedge, empty, repeat the
question, tags only) and warns when one comes close to the gold answers' reward.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter


def register(subparsers) -> None:
    """Add the `score` subcommand."""
    p = subparsers.add_parser(
        "score", help="score completions in a JSONL file with a reward",
        description="Read JSONL rows with `completion` plus the reward's fields, add "
                    "`reward` and `outcome`, and print counts per outcome. With "
                    "--preflight, score gold answers and degenerate policies on --data.")
    from rlvr.rewards import REWARDS  # pure: no torch

    builtin = sorted(n for n, spec in REWARDS.items() if not spec.source)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--reward",
                       help=f"registered reward name: {', '.join(builtin)}; or your own "
                            "function: module:function or path/to/file.py:function (per "
                            "sample (completion, **fields) or TRL-style (completions, "
                            "**kwargs)); llm_judge takes its endpoint as --param "
                            "'judge={\"base_url\": ...}'")
    which.add_argument("--reward-model", metavar="PATH_OR_ID",
                       help="score with a reward model instead of --reward: a one-label "
                            "sequence-classification model folder or hub id (its logit)")
    p.add_argument("--preset", help="reward preset, e.g. seed or strict")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="reward parameter override (VALUE parsed as JSON when it can be), "
                        "e.g. --param fallback=true; repeatable")
    p.add_argument("--input", help="JSONL file with completion + fields")
    p.add_argument("--output", help="JSONL file to write the scored rows to")
    p.add_argument("--preflight", action="store_true",
                   help="score gold answers and degenerate policies on --data instead")
    p.add_argument("--data", help="dataset JSONL for --preflight (e.g. a v3 SelfAware split)")
    p.add_argument("--limit", type=int, help="score only the first N rows")
    p.add_argument("--explain", action="store_true",
                   help="print, per row, the named rules that decided its verdict and the "
                        "table cell that priced it (details['why'], rlvr.rewards.rulebook), "
                        "and write them to --output as `why`")
    p.add_argument("--on-error", choices=("stop", "skip"), default="stop",
                   help="a bad row (missing field, null completion, is_unanswerable not "
                        "true/false, ...): stop with its file:line (default, exit 2), or "
                        "skip: report it, mark it `bad_row` and score the others (a line "
                        "that is not a JSON object too: in --output it is "
                        "{line, outcome: bad_row, error})")
    p.add_argument("--margin", type=float, default=0.1,
                   help="--preflight: warn when a policy is within this fraction of the "
                        "score range of gold (default 0.1)")
    p.set_defaults(func=run)


def _params(pairs: list[str]) -> dict:
    from rlvr.errors import RlvrError

    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise RlvrError(f"--param expects KEY=VALUE, got {pair!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def _read_rows(path: str, limit: int | None,
               bad: list[tuple[int, str]] | None = None) -> tuple[list[dict], list[int]]:
    """The JSON objects of `path` and their line numbers (at most `limit` rows). A line that
    is not UTF-8, not JSON or not an object raises DataError naming the file and line, or,
    with `bad` given (--on-error skip), is appended to it as (line, reason) and left out. A
    file without a line of text raises DataError."""
    from rlvr.errors import DataError
    from rlvr.io import iter_jsonl

    rows, lines = [], []
    for line, obj in iter_jsonl(path, tolerant=bad is not None):
        if isinstance(obj, DataError) or not isinstance(obj, dict):
            reason = obj.reason if isinstance(obj, DataError) else "expected a JSON object per line"
            if bad is None:
                raise DataError(reason, path, line)
            bad.append((line, reason))
            continue
        rows.append(obj)
        lines.append(line)
        if limit is not None and len(rows) >= limit:
            break
    if not rows and not bad:
        raise DataError("no rows: the file is empty; write one JSON object per line (the "
                        "reward's fields: docs/rewards.md)", path)
    return rows, lines


def _check_output(path: str) -> None:
    """Refuse an --output that is a folder or sits in a folder that does not exist."""
    from pathlib import Path

    from rlvr.errors import RlvrError

    out = Path(path)
    if out.is_dir():
        raise RlvrError(f"--output {path} is a folder; give a file name such as "
                        f"{out / 'scored.jsonl'}")
    if not out.parent.is_dir():
        raise RlvrError(f"--output {path}: folder {out.parent} does not exist; create it first")


def _line_error(exc: Exception, path: str, lines: list[int]):
    """Turn a "row N ..." error into one that names the file line."""
    from rlvr.errors import DataError

    msg = str(exc)
    if msg.startswith("row ") and msg.split()[1].isdigit():
        index = int(msg.split()[1]) - 1
        return DataError(msg.split(" ", 2)[2], path, lines[index])
    return exc


def _reward_name(args: argparse.Namespace) -> str:
    """`--reward`, or the name a `--reward-model` is registered under (checked first: a
    missing folder or an unreachable hub id is one line, before any row is read)."""
    if getattr(args, "reward_model", None) is None:
        return args.reward
    from rlvr.models.reward import check_reward_model
    from rlvr.rewards import register_user_rewards

    check_reward_model(args.reward_model, hub=True)
    return register_user_rewards([{"reward_model": args.reward_model}])[0]["name"]


def _reward_text(score) -> str:
    return "no score" if score is None else f"reward {score:+.2f}"


_PATTERN_SHOWN = 160  # characters of an abstention pattern's regex shown under its rule


def _why_lines(why: list, described: set[str], error: str | None = None) -> list[str]:
    """A verdict's `why` in words: each rule with the span it read and what it read there,
    its description the first time the rule appears in `described` (updated), an abstention
    pattern's regex under the rule that used it; for a verdict without rules, the row's
    error, or a line saying the reward records none."""
    from rlvr.rewards.abstention_detection import ROBUST_PATTERNS
    from rlvr.rewards.rulebook import explain_lines, get_rule

    if not why:
        if error:
            return [f"(no rule decided: {error})"]
        return ["(this reward records no named rules for its verdicts)"]
    table = ROBUST_PATTERNS.pattern_table()
    lines = []
    for item, said in zip(why, explain_lines(why)):
        if item["rule"] in described:  # the id, span and value, without the description
            said = said[:len(said) - len(get_rule(item["rule"]).decides) - 2]
        described.add(item["rule"])
        lines.append(said)
        if isinstance(item.get("value"), str) and item["value"] in table:
            pattern = table[item["value"]]
            if len(pattern) > _PATTERN_SHOWN:
                pattern = pattern[:_PATTERN_SHOWN] + " ..."
            lines.append(f"    pattern {item['value']}: {pattern}")
    return lines


def run(args: argparse.Namespace) -> int:
    """Score the rows (or run the preflight) and print a summary table."""
    from rlvr.errors import RlvrError
    from rlvr.io import write_jsonl
    from rlvr.rewards import get_reward, score_rows

    spec = get_reward(_reward_name(args))
    params = _params(args.param)
    spec.params(args.preset, **params)  # unknown preset or bad --param: refused before reading
    if args.limit is not None and args.limit < 1:
        raise RlvrError(f"--limit must be >= 1, got {args.limit}")
    if args.output:
        _check_output(args.output)
    if args.preflight:
        from rlvr.rewards.preflight import format_preflight, preflight

        if not args.data:
            raise RlvrError("--preflight needs --data FILE.jsonl (the dataset to check)")
        rows, lines = _read_rows(args.data, args.limit)
        try:
            report = preflight(spec.name, rows, args.preset, margin=args.margin, **params)
        except RlvrError as exc:
            raise _line_error(exc, args.data, lines) from None
        print(f"data: {args.data}")
        print(format_preflight(report))
        return 0
    if not args.input:
        raise RlvrError("--input FILE.jsonl is required (or use --preflight --data FILE)")
    unread: list[tuple[int, str]] | None = [] if args.on_error == "skip" else None
    rows, lines = _read_rows(args.input, args.limit, unread)
    for line, reason in unread or ():
        print(f"{args.input}:{line}: skipped: {reason}", file=sys.stderr)
    on_error = "raise" if args.on_error == "stop" else "skip"
    try:
        results = score_rows(spec.name, rows, args.preset, on_error=on_error, **params)
    except RlvrError as exc:  # name the file line, not the row index
        raise _line_error(exc, args.input, lines) from None
    for line, result in zip(lines, results):
        if result.outcome == "bad_row":
            print(f"{args.input}:{line}: skipped: {result.details['error']}", file=sys.stderr)
    scored = [{**row, "reward": r.score, "outcome": r.outcome,
               **({"line": line, "error": r.details.get("error")}
                  if r.outcome == "bad_row" else {})}
              for row, line, r in zip(rows, lines, results)]
    if args.explain:
        described: set[str] = set()  # a rule's description is printed once
        for row, line, r in zip(scored, lines, results):
            row["why"] = r.details.get("why", [])
            print(f"{args.input}:{line}: {r.outcome} ({_reward_text(r.score)})")
            for said in _why_lines(row["why"], described, r.details.get("error")):
                print(f"    {said}")
    if args.output:  # a line that was no JSON object stays in its place, as its text's error
        placed = sorted([(line, row) for line, row in zip(lines, scored)]
                        + [(line, {"line": line, "reward": None, "outcome": "bad_row",
                                   "error": reason}) for line, reason in unread or ()],
                        key=lambda pair: pair[0])
        write_jsonl(args.output, [row for _, row in placed])
    counts = Counter(r.outcome for r in results)
    if unread:
        counts["bad_row"] += len(unread)  # lines that were not a JSON object: not scored
    values = [r.score for r in results if r.score is not None]
    skipped = sum(r.outcome == "bad_row" for r in results)
    print(f"{len(results) - skipped} rows scored with {spec.name}"
          + (f", {skipped} rows skipped" if skipped else "")
          + (f", {len(unread)} unreadable lines skipped" if unread else "")
          + (f" (preset {args.preset})" if args.preset else ""))
    for outcome, n in counts.most_common():
        print(f"  {outcome:26} {n}")
    if values:
        print(f"  mean reward {sum(values) / len(values):+.4f} over {len(values)} scored rows")
    if args.output:
        print(f"wrote {args.output}")
    if len(results) == skipped:
        print(f"{args.input}: no row could be scored (every one was skipped)", file=sys.stderr)
        return 2
    return 0
