"""What the commands do, without the command line: files, targets, hints, history.

Import-light on purpose (no torch, no numpy): `kata list`, `start`, `hint` and `reveal` must
start as fast as `python -c "import typer, rich"`.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from checker import catalog, i18n, static
from checker.catalog import Kata
from checker.errors import KataError
from checker.state import Event, Store, hints_taken, status_of

CURRENT_FILE = "current_file"
CURRENT_KATA = "current_kata"


def backup(path: Path) -> Path:
    """Copy `path` to the first free `<name>.bak-N` beside it; the learner's work is never lost."""
    n = 1
    while (candidate := path.with_name(f"{path.name}.bak-{n}")).exists():
        n += 1
    candidate.write_bytes(path.read_bytes())
    return candidate


def start(kata: Kata, directory: Path, force: bool, store: Store) -> tuple[Path, Path | None]:
    """Write the stub; an existing file is kept unless --force, and then backed up first."""
    directory = directory.expanduser()
    if directory.exists() and not directory.is_dir():
        raise KataError(f"{directory} is not a directory.")
    target = directory / kata.filename
    saved = None
    if target.exists():
        if not force:
            raise KataError(f"{target} already exists; kata keeps your work. Use --force to start over "
                            f"(the old file is kept as a numbered backup), or check it with 'kata check {kata.id}'.")
        try:
            saved = backup(target)
        except OSError as exc:
            raise KataError(f"Cannot back up {target} ({exc.strerror or exc}); nothing was overwritten.") from exc
    write_stub(kata, target)
    remember(store, kata, target)
    store.record(Event(kata.id, "start", time.time(), detail=str(target.resolve())))
    return target, saved


def write_stub(kata: Kata, target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.kata-tmp")
        tmp.write_text(kata.stub(), encoding="utf-8")
        os.replace(tmp, target)  # atomic: the old file or the new one, never half of each
    except OSError as exc:
        raise KataError(f"Cannot write {target}: {exc.strerror or exc}. Choose another place with --dir.") from exc


def restart(kata: Kata, target: Path) -> Path | None:
    """Put the stub at `target`, backing up what is there first (unless it is the stub already)."""
    saved = None
    if target.exists():
        try:
            if target.read_text(encoding="utf-8", errors="replace") not in (kata.stub(lang) for lang in i18n.LANGS):
                saved = backup(target)
        except OSError as exc:
            raise KataError(f"Cannot back up {target} ({exc.strerror or exc}); nothing was overwritten.") from exc
    write_stub(kata, target)
    return saved


def attempt_path(kata: Kata, store: Store) -> Path | None:
    """Where the learner's file for `kata` is: here, where it was last started, or the current file."""
    candidates = [Path(kata.filename)]
    candidates += [Path(e.detail) for e in reversed(store.events(kata.id, "start")) if e.detail]
    if store.get(CURRENT_KATA) == kata.id and store.get(CURRENT_FILE):
        candidates.append(Path(store.get(CURRENT_FILE)))
    return next((path for path in candidates if path.is_file()), None)


@dataclass(frozen=True)
class Reset:
    kata: Kata
    path: Path
    saved: Path | None


def reset(katas: list[Kata], store: Store, every: bool = False) -> list[Reset]:
    """Restore the stubs of `katas`; with `every`, only those with a file to restore (the rest are skipped)."""
    done = []
    for kata in katas:
        path = attempt_path(kata, store)
        if path is None:
            if every:
                continue
            path = Path(kata.filename)
        saved = restart(kata, path)
        store.record(Event(kata.id, "reset", time.time(), detail=str(path.resolve())))
        done.append(Reset(kata, path, saved))
    return done


def ever_passed(kata: Kata, store: Store) -> bool:
    return any(e.verdict == "pass" for e in store.events(kata.id, "check"))


def remember(store: Store, kata: Kata, path: Path) -> None:
    store.set(CURRENT_KATA, kata.id)
    store.set(CURRENT_FILE, str(path.resolve()))


@dataclass(frozen=True)
class Target:
    kata: Kata
    path: Path


def resolve_target(target: str | None, kata_id: str | None, store: Store) -> Target:
    """A kata id (its file in the current directory), a path, or the current kata's file."""
    if target is None:
        current = store.get(CURRENT_FILE)
        if not current:
            raise KataError("No current kata. Run 'kata start NAME' first, or give a kata id or a file: 'kata check gae'.")
        path = Path(current)
    elif _looks_like_path(target):
        path = Path(target).expanduser()
    else:
        path = Path(catalog.get(target).filename)  # raises with a did-you-mean for unknown ids
        if not path.exists():
            raise KataError(f"No {path} here ({Path.cwd()}). Run 'kata start {target}' first, or give the file's path.")
    kata = catalog.get(kata_id) if kata_id else _kata_of(path)
    return Target(kata, path)


def _looks_like_path(target: str) -> bool:
    return target.endswith(".py") or os.sep in target or "/" in target or Path(target).exists()


def _kata_of(path: Path) -> Kata:
    """The kata named by the file's '# kata:' line, else by its file name."""
    try:
        with path.open("rb") as handle:
            head = handle.read(2048).decode("utf-8", "replace")
    except OSError:
        head = ""  # the checker reports unreadable files itself
    declared = static.kata_line(head)
    if declared:
        return catalog.get(declared)
    by_name = catalog.find(path.stem)
    if by_name is None:
        if not path.exists():
            raise KataError(f"No file at {path}.")
        raise KataError(f"Cannot tell which kata {path.name} is for: add '# kata: <id>' as its first line, "
                        "or pass --kata ID.")
    return by_name


def next_hint(kata: Kata, store: Store) -> tuple[int, str]:
    """The next hint on the ladder (the last one repeats), recorded in the history."""
    taken = hints_taken(store.events(kata.id))
    index = min(taken, len(kata.hints) - 1)
    store.record(Event(kata.id, "hint", time.time(), detail=str(index + 1)))
    return index + 1, kata.hints[index]


def reveal(kata: Kata, store: Store) -> str:
    store.record(Event(kata.id, "reveal", time.time()))
    return kata.reference_path.read_text(encoding="utf-8")


def statuses(store: Store) -> dict[str, str]:
    events = store.events()
    return {kata.id: status_of([e for e in events if e.kata == kata.id]) for kata in catalog.KATAS}
