"""Error types that the CLI turns into one clear message (no traceback)."""

from __future__ import annotations


class RlvrError(Exception):
    """A user-facing error: bad input, missing file or model, invalid config.

    The message must say what is wrong, where (file and line when known) and the fix.
    """


class DataError(RlvrError):
    """A data file or row is malformed.

    Attributes:
        path: the file that holds the bad row (str), or None.
        line: 1-based line number in that file, or None.
        reason: the message without the file and line.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.reason = message
        self.path = path
        self.line = line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)


class ConfigError(RlvrError):
    """A configuration key or value is invalid."""


class ModelNotFoundError(RlvrError):
    """A model spec resolves to nothing loadable."""
