"""`%%kata <id> [--drill] [--seed N] [--case NAME] [--device D] [--timeout S] [--memory-gb G] [--verbose]`: run
the cell as the notebook would, save it as the kata's file under KATA_HOME, and check it (front.check_cell)."""
from __future__ import annotations

import argparse
import shlex

from checker.errors import KataError
from checker.text.i18n import tr


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # a usage error is a sentence, never SystemExit in a kernel
        raise KataError(tr("%%kata: {message}. Write it as `%%kata gae` (options: --drill, --seed N, --case NAME, "
                           "--device cpu, --timeout S, --memory-gb G, --verbose).", message=message))


def _parser() -> _Parser:
    parser = _Parser(prog="%%kata", add_help=False)
    parser.add_argument("kata")
    parser.add_argument("--drill", action="store_true")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--case")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--memory-gb", dest="memory_gb", type=float, default=4.0)
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--bench", action="store_true")
    return parser


def kata_magic(line: str, cell: str | None = None):
    """The cell magic itself (registered by `import kata`)."""
    from checker.app.notebook import front

    @front._refusing
    def run():
        if cell is None:
            raise KataError(tr("%%kata goes at the top of a cell, with two percent signs: `%%kata gae`, then your "
                               "code below it."))
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise KataError(tr("%%kata: {message}.", message=exc)) from None
        args = _parser().parse_args(words)
        options = front.Options(seed=args.seed, case=args.case, device=args.device, timeout=args.timeout,
                                memory_gb=args.memory_gb, verbose=args.verbose, bench=args.bench)
        return front.check_cell(args.kata, cell, options, args.drill, front._shell())

    result = run()
    return None if result is None else front.Checked(result)


def register(shell) -> None:
    shell.register_magic_function(kata_magic, magic_kind="line_cell", magic_name="kata")
