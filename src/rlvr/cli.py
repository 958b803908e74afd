"""Command-line entry point: `rlvr <command> ...`.

Each subcommand lives in its own module under `rlvr.commands` and exposes
`register(subparsers)`, which adds its parser and sets `func` to a handler taking the
parsed namespace and returning an exit code (a flag may name another module's handler in
`delegate`: {flag: module}, when that flag is given). Command modules must import cheaply (no
torch at module level), so `rlvr score` and `rlvr calc` run without the training stack.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from rlvr import __version__
from rlvr.errors import RlvrError

# Order here is the order in `rlvr --help`.
COMMAND_MODULES = (
    "rlvr.commands.train",
    "rlvr.commands.compare",
    "rlvr.commands.eval",
    "rlvr.commands.report",
    "rlvr.commands.plot",
    "rlvr.commands.export",
    "rlvr.commands.handoff",
    "rlvr.commands.data",
    "rlvr.commands.score",
    "rlvr.commands.calc",
    "rlvr.commands.observe",
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (`rlvr eval: error: argument --limit: invalid int
    value: 'abc' (see `rlvr eval --help`)`), like rlvr's own errors; exit code 2 as argparse.
    Subcommand parsers inherit the class."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the top-level parser with every registered subcommand."""
    parser = _Parser(
        prog="rlvr",
        description="GRPO on verifiable rewards: train, score, evaluate, explain.",
    )
    parser.add_argument("--version", action="version", version=f"rlvr {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: sys.argv[1:]), run the command, return its exit code.

    User errors (`RlvrError`) print one clear message to stderr and return 2.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    func = args.func
    for flag, module in (getattr(args, "delegate", None) or {}).items():
        if getattr(args, flag, None):  # `rlvr eval --trained`: another module's handler
            func = importlib.import_module(module).run
    try:
        return int(func(args) or 0)
    except RlvrError as exc:
        print(f"rlvr {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
