"""`kata solutions`: right answers written in other styles than the reference, to compare with your own.

Each kata ships two or three, chosen from the corpus of right answers (content/<kata>/solutions/<name>.py;
tests/katas/test_corpus.py checks each through the real checker, as it checks the corpus), and one line per
solution, in every language, on what it does differently ([solutions] in content/<kata>/<lang>.toml). Seeing
them before a pass is recorded as a reveal, as `kata reveal` is. Import-light: rich, no torch.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text

from checker.app import views
from checker.text.catalog import Kata
from checker.text.i18n import tr
from checker.app.state import Event, Store

FOLDER = "solutions"


@dataclass(frozen=True)
class Solution:
    name: str  # the file's stem: "discount_matrix"
    path: Path
    about: str  # what it does differently, in the language kata speaks

    def code(self) -> str:
        """The file without its `# kata:` line (the learner's header, not part of the answer)."""
        lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        return "".join(lines[1:] if lines and lines[0].startswith("# kata:") else lines)


def of(kata: Kata) -> list[Solution]:
    """The kata's shipped solutions, in the order its text lists them."""
    folder = kata.content_dir / FOLDER
    about = kata.text().solutions
    return [Solution(name, folder / f"{name}.py", line) for name, line in about.items() if (folder / f"{name}.py").is_file()]


def show(kata: Kata, store: Store) -> RenderableType:
    """Every solution of `kata`, each with its line and its numbered code; recorded as a reveal."""
    shipped = of(kata)
    store.record(Event(kata.id, "reveal", time.time(), detail=FOLDER))
    parts: list[RenderableType] = [Text(tr("{id} — {title}: {n} right answers in other styles than the reference",
                                           id=kata.id, title=kata.title, n=len(shipped)), style="bold")]
    for n, solution in enumerate(shipped, 1):
        parts.append(Text(""))
        parts.append(Text(f"{n}. {solution.name}: ", style="bold") + Text(solution.about))
        parts.append(views.code_lines(solution.code()))
    parts.append(Text(""))
    parts.append(views.say(tr("Yours against the reference: `kata reveal {id} --diff`.", id=kata.id), "dim"))
    return Group(*parts)
