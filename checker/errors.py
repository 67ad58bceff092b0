"""The one application exception and the exit codes the CLI turns results into."""
from __future__ import annotations

OK = 0
KATA_FAILED = 1
USAGE = 2
INTERNAL = 3  # a bug in kata itself (never the learner's code)
INTERRUPTED = 130


class KataError(Exception):
    """A problem the user can fix, reported as one message without a traceback."""

    def __init__(self, message: str, exit_code: int = USAGE):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
