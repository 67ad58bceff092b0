"""kata in a notebook: `import kata`, then `kata.start("gae")`, a cell under `%%kata gae`, `kata.check("gae")`.

Importing this costs nothing (no torch, no typer) and prints nothing; inside IPython it registers the `%%kata`
cell magic. The functions are those of checker/app/notebook/front.py; checks run in a warm checker process the
first check starts (checker/app/notebook/client.py), never in the kernel itself.
"""
from __future__ import annotations

from typing import Any

__all__ = ["bug", "cases", "check", "followup", "hint", "home", "lang", "list", "reveal", "start", "stats"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from checker.app.notebook import front

        return getattr(front, name)
    raise AttributeError(f"module 'kata' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


def load_ipython_extension(shell) -> None:
    """`%load_ext kata`: the same as `import kata` inside IPython."""
    from checker.app.notebook import magic

    magic.register(shell)


def _register() -> None:
    import sys

    ipython = sys.modules.get("IPython")  # only a running IPython has it imported: never imported here
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        load_ipython_extension(shell)


_register()
