"""The errors of the library: every one is a ``ValueError`` whose message says what was wrong."""

from __future__ import annotations


class RiskError(ValueError):
    """Base class of the library's errors."""


class NotationError(RiskError):
    """Text that is not a well-formed action (unknown verb, unknown territory, bad number)."""


class IllegalActionError(RiskError):
    """A well-formed action that the rules do not allow now. The game is left unchanged."""


class GameOverError(IllegalActionError):
    """An action sent after the game has ended."""


class RulesError(RiskError):
    """An unknown preset or option, or an option value that is not allowed."""


class FileInputError(RiskError):
    """A file named by the user that cannot be used: missing, a folder, unreadable, not UTF-8 text,
    empty or too large. The message starts with the file's name."""


class RecordError(RiskError):
    """A game record that is malformed or does not follow the rules; says the line number."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
