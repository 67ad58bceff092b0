"""What the commands do, without the command line: files, targets, hints, history.

Import-light on purpose (no torch, no numpy): `kata list`, `start`, `hint` and `reveal` must
start as fast as `python -c "import typer, rich"`, and every usage error of `kata check` — an
unknown kata, a missing file, a bad --case, --seed or --device — is found here, before torch loads.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING

from checker.text import catalog, i18n
from checker.text.catalog import Kata
from checker.errors import KataError
from checker.text.i18n import tr
from checker.app.state import INTERVIEW, Event, Store

if TYPE_CHECKING:
    from checker.app import practice

CURRENT_FILE = "current_file"
CURRENT_KATA = "current_kata"
FILE_OF = "file:"  # settings key prefix: the learner's file for each kata (the one written or last checked)
SEED_LIMIT = 2**63  # seeds are 0 <= seed < 2**63 (torch's generators take 64-bit seeds)
DEVICES = ("auto", "cpu", "cuda", "mps")


def backup(path: Path) -> Path:
    """Copy `path` to the first free `<name>.bak-N` beside it; the learner's work is never lost."""
    n = 1
    while (candidate := path.with_name(f"{path.name}.bak-{n}")).exists():
        n += 1
    candidate.write_bytes(path.read_bytes())
    return candidate


@dataclass(frozen=True)
class Started:
    path: Path
    saved: Path | None  # the backup of what --force replaced
    resumed: bool  # the learner's file was there already: kept, made current


def start(kata: Kata, directory: Path, force: bool, store: Store) -> Started:
    """Write the stub, or resume the learner's file if it is there (unless --force: back it up, rewrite)."""
    directory = directory.expanduser()
    if directory.exists() and not directory.is_dir():
        raise KataError(tr("{path} is not a directory.", path=directory))
    target = directory / kata.filename
    saved = None
    if target.exists() and not force:
        if target.is_dir():
            raise KataError(tr("{path} is a directory; choose another place with `--dir`.", path=target))
        remember(store, kata, target)
        store.record(Event(kata.id, "resume", time.time(), file=str(target.resolve())))
        return Started(target, None, resumed=True)
    if target.exists():
        try:
            saved = backup(target)
        except OSError as exc:
            raise KataError(tr("Cannot back up {path} ({why}); nothing was overwritten.", path=target,
                               why=exc.strerror or exc)) from exc
    write_stub(kata, target)
    remember(store, kata, target)
    store.record(Event(kata.id, "start", time.time(), detail=str(target.resolve()), file=str(target.resolve())))
    return Started(target, saved, resumed=False)


def write_stub(kata: Kata, target: Path) -> None:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.kata-tmp")
        tmp.write_text(kata.stub(), encoding="utf-8")
        os.replace(tmp, target)  # atomic: the old file or the new one, never half of each
    except OSError as exc:
        raise KataError(tr("Cannot write {path}: {why}. Choose another place with `--dir`.", path=target,
                           why=exc.strerror or exc)) from exc


def restart(kata: Kata, target: Path) -> Path | None:
    """Put the stub at `target`, backing up what is there first (unless it is the stub already)."""
    saved = None
    if target.exists():
        try:
            if target.read_text(encoding="utf-8", errors="replace") not in (kata.stub(lang) for lang in i18n.LANGS):
                saved = backup(target)
        except OSError as exc:
            raise KataError(tr("Cannot back up {path} ({why}); nothing was overwritten.", path=target,
                               why=exc.strerror or exc)) from exc
    write_stub(kata, target)
    return saved


# ---------------------------------------------------------------- which file is the learner's


def remember(store: Store, kata: Kata, path: Path) -> None:
    """`path` is the learner's file for `kata`, and `kata` the current one."""
    resolved = str(path.resolve())
    store.set(CURRENT_KATA, kata.id)
    store.set(CURRENT_FILE, resolved)
    from checker.app import drills

    if drills.at(store, path) is None:  # a drill is current, but never the kata's own file (check gae, reset gae)
        store.set(FILE_OF + kata.id, resolved)


@dataclass(frozen=True)
class Found:
    """Where a kata id leads: the file, and why that one."""

    path: Path
    why: str  # "here" (<module>.py in the current directory), "wrote" (kata start/reset wrote it), "checked"


def find(kata: Kata, store: Store, here: Path | None = None) -> Found | None:
    """The learner's file for `kata`, in this order: its `<module>.py` in the current directory, the file kata
    wrote for it (`start --dir`, reset, interview), the file last checked for it. A file whose `# kata:` line now
    names another kata is never taken for this one."""
    local = (Path.cwd() if here is None else here) / kata.filename
    if local.is_file() and declares(local, kata):
        return Found(local, "here")
    written = wrote(kata, store)
    if written is not None and declares(written, kata):
        return Found(written, "wrote")
    for path in _remembered(kata, store):
        if declares(path, kata):
            checked = any(e.file == str(path.resolve()) for e in store.events(kata.id) if e.kind in ("check", "replay"))
            return Found(path, "checked" if checked else "wrote")
    return None


def _remembered(kata: Kata, store: Store):
    """The files last written or checked for `kata`, latest first: the one the settings remember, then the
    history's (stores from before files were remembered per kata)."""
    remembered = store.get(FILE_OF + kata.id)
    if remembered and Path(remembered).is_file():
        yield Path(remembered)
    for event in reversed(store.events(kata.id)):
        if event.kind in ("start", "resume", "reset", "interview", "check") and (event.file or event.detail):
            path = Path(event.file or event.detail)
            if path.is_absolute() and path.is_file() and str(path) != remembered:
                yield path


def declares(path: Path, kata: Kata) -> bool:
    """The file is for `kata` as far as its `# kata:` line says: that line names it, or there is none."""
    declared = _declared(path)
    return declared is None or catalog.find(declared) is kata


def file_of(kata: Kata, store: Store) -> Path | None:
    """The learner's file for `kata`, as `kata check <id>` finds it from here (see `find`)."""
    found = find(kata, store)
    return found.path if found else None


def found_note(kata: Kata, found: Found, command: str = "check") -> str:
    """Said before a check (or a watch) when the id led away from the current directory: which file, and why."""
    if found.why == "here":
        return ""
    file = _rel(found.path)
    if command == "watch":
        if found.why == "wrote":
            return tr("watching {file}, the file kata start wrote for {id}", file=file, id=kata.id)
        return tr("watching {file}, the file you last checked for {id}", file=file, id=kata.id)
    if found.why == "wrote":
        return tr("checking {file}, the file kata start wrote for {id}", file=file, id=kata.id)
    return tr("checking {file}, the file you last checked for {id}", file=file, id=kata.id)


def _rel(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)


def resume_current(kata: Kata, directory: Path, force: bool, store: Store) -> Started:
    """`kata start` with no name: the current kata's file, resumed where `kata check` finds it; with --force or
    when there is none, what `kata start <current>` does."""
    found = None if force else find(kata, store)
    if found is None:
        return start(kata, directory, force, store)
    remember(store, kata, found.path)
    store.record(Event(kata.id, "resume", time.time(), file=str(found.path.resolve())))
    return Started(found.path, None, resumed=True)


def next_step(kata: Kata, p: practice.Progress, store: Store) -> str:
    """What `kata next` advises for `kata`: "start" (never practised, or no file of it left), "reset" (redo from the
    stub a kata passed before or looked up in the reference), or "watch" (carry on with its file: an attempt under
    way, or a stub nobody has touched yet)."""
    if p.status == "new":
        return "start"
    path = file_of(kata, store)
    if p.needs_redo or (p.opened_at is None and p.last_pass_at is not None):
        try:
            fresh = path is not None and path.read_text(encoding="utf-8") in (kata.stub(lang) for lang in i18n.LANGS)
        except (OSError, UnicodeDecodeError):
            fresh = False
        return "watch" if fresh else "reset"
    return "watch" if path is not None else "start"


def current(store: Store) -> Kata | None:
    name = store.get(CURRENT_KATA)
    return catalog.find(name) if name else None


def kata_or_current(name: str | None, store: Store, command: str) -> Kata:
    """The kata named, or the current one (`kata hint`, `kata reveal` with no name)."""
    if name is not None:
        return catalog.get(name)
    kata = current(store)
    if kata is None:
        raise KataError(tr("No current kata. Name one: `kata {command} gae` (`kata list` shows them all).",
                           command=command))
    return kata


def wrote(kata: Kata, store: Store) -> Path | None:
    """The file kata itself wrote for `kata` (start, reset, interview), if it is still there: what reset restores."""
    for event in reversed(store.events(kata.id)):
        if event.kind in ("start", "reset", "interview") and event.verdict is None:
            path = event.file or event.detail
            if path and Path(path).is_absolute():
                return Path(path) if Path(path).is_file() else None
    return None


@dataclass(frozen=True)
class Reset:
    kata: Kata
    path: Path
    saved: Path | None
    wrote_new: bool = False  # no file was there: the stub is written, nothing restored


def reset(katas: list[Kata], store: Store, every: bool = False) -> list[Reset]:
    """Restore the stubs of `katas` where kata wrote them; with `every`, skip katas kata never wrote a file for.

    A file the learner named themselves (one only ever checked) is never rewritten by `--all`.
    """
    done = []
    for kata in katas:
        path = wrote(kata, store)
        if path is None:
            if every:
                continue
            path = file_of(kata, store) or Path(kata.filename)
        wrote_new = not path.exists()
        saved = restart(kata, path)
        remember(store, kata, path)
        store.record(Event(kata.id, "reset", time.time(), detail=str(path.resolve()), file=str(path.resolve())))
        done.append(Reset(kata, path, saved, wrote_new))
    return done


def ever_passed(kata: Kata, store: Store) -> bool:
    from checker.app import practice

    return practice.progress(kata.id, store.events(kata.id)).status in ("passed", "mastered")


def passed_file(kata: Kata, store: Store) -> Path | None:
    """The file of the latest passing check (what `reveal --diff` compares), if it is still there."""
    for event in reversed(store.events(kata.id, "check")):
        if event.verdict == "pass" and event.file and Path(event.file).is_file() and declares(Path(event.file), kata):
            return Path(event.file)
    return None


# ---------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    kata: Kata
    path: Path
    note: str = ""  # said before checking, e.g. that --kata overrides the file's own line


def resolve_target(target: str | None, kata_id: str | None, store: Store, command: str = "check") -> Target:
    """A kata id (its file: see `find`), a path, or the current kata's file; `--kata` names the kata outright.

    An id fixes the kata whatever file it leads to (a scratch file checked with --kata has no `# kata:` line)."""
    named = None  # the kata the command line or the current kata fixes, if any
    note = ""
    if target is None:
        current_file = store.get(CURRENT_FILE)
        if not current_file:
            raise KataError(tr("No current kata. Run `kata start NAME` first, or give a kata id or a file: "
                               "`kata {command} gae`.", command=command))
        path = Path(current_file)
        named = current(store)
    elif target.strip() in ("", "."):
        raise KataError(tr("Give a kata id or the path to your .py file: `kata {command} gae` or "
                           "`kata {command} path/to/gae.py`.", command=command))
    elif _looks_like_path(target):
        path = Path(target).expanduser()
    else:
        named = catalog.get(target)  # raises with a did-you-mean for unknown ids
        found = find(named, store)
        if found is None:
            raise KataError(tr("No file for {id} yet: run `kata start {id}` first, or give your file's path.",
                               id=named.id))
        path, note = found.path, found_note(named, found, command)
    if path.is_dir():
        raise KataError(tr("{path} is a directory; give the path to your .py file.", path=path))
    if not path.exists():
        raise KataError(tr("No file at {path}.", path=path))
    declared = _declared(path)
    if kata_id:
        kata = catalog.get(kata_id)
        if declared and catalog.find(declared) not in (None, kata):
            note = _join(note, tr("the header says {declared}; checking as {id}", declared=declared, id=kata.id))
        return Target(kata, path, note)
    if declared and (named is None or catalog.find(declared) is not named):
        return Target(catalog.get(declared), path, note)  # the file's own line (for the current file: edited since)
    if named is not None:
        return Target(named, path, note)
    from checker.app import drills

    drill = drills.at(store, path)
    if drill is not None:  # a drill `kata bug` wrote here, its `# kata:` line since deleted: the record says which
        return Target(drill.kata, path, note)
    by_name = catalog.find(path.stem)
    if by_name is None:
        raise KataError(tr("Cannot tell which kata {file} is for: add `# kata: <id>` as its first line, or pass "
                           "`--kata ID`.", file=path.name))
    return Target(by_name, path, note)


def _join(first: str, second: str) -> str:
    return tr("{first}; {second}", first=first, second=second) if first else second


def kata_for(target: str | None, kata_id: str | None, store: Store) -> Kata | None:
    """Which kata a command line is about, without raising (for shell completion): --kata, the id typed, the
    typed file's `# kata:` line or name, else the current kata."""
    if kata_id:
        return catalog.find(kata_id)
    if target:
        if not _looks_like_path(target):
            return catalog.find(target)
        path = Path(target).expanduser()
        declared = _declared(path) if path.is_file() else None
        return catalog.find(declared) if declared else catalog.find(path.stem)
    return current(store)


def _looks_like_path(target: str) -> bool:
    return target.endswith(".py") or os.sep in target or "/" in target or Path(target).exists()


def _declared(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            head = handle.read(2048).decode("utf-8-sig", "replace")
    except OSError:
        return None  # the checker reports unreadable files itself
    from checker.judge import static

    return static.kata_line(head)


# ---------------------------------------------------------------- options checked before torch loads


def check_seed(seed: int | None) -> None:
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise KataError(tr("--seed must be a whole number from 0 to {limit}.", limit=SEED_LIMIT - 1))


def check_case(kata: Kata, case: str | None) -> None:
    """A case is a family name ("done_in_middle") or one of its draws ("random.3"); the draw's number is
    checked once the spec is loaded."""
    if case is None:
        return
    families = list(kata.text("en").families)
    family, _, draw = case.partition(".")
    if family in families and (not draw or draw.isdigit()):
        return
    import difflib

    close = difflib.get_close_matches(family, families, n=3, cutoff=0.4)
    hint = tr(" Did you mean {names}?", names=tr(" or ").join(f"'{c}'" for c in close)) if close else ""
    raise KataError(tr("No case named '{case}' in {id}.", case=case, id=kata.id) + hint
                    + tr(" `kata cases {id}` lists them.", id=kata.id))


def check_device(name: str) -> str:
    """auto, cpu, cuda or mps; a GPU this torch cannot use is refused here when that shows without torch."""
    name = name.strip().lower()
    if name not in DEVICES:
        raise KataError(tr("Unknown device '{name}': use auto, cpu, cuda or mps.", name=name))
    if name == "cuda" and _torch_cuda_version() is None:
        raise KataError(tr("--device cuda was asked for, but this torch is a CPU-only build (no CUDA)."))
    import platform

    if name == "mps" and platform.system() != "Darwin":
        raise KataError(tr("--device mps was asked for, but MPS exists only on Apple computers."))
    return name


def device_name(name: str) -> str:
    """The device a check with --device `name` runs on, named without importing torch when torch is not loaded
    yet (the rule of engine.resolve_device: CUDA, then MPS, else the CPU), for reports judged before torch loads."""
    if name != "auto":
        return name
    if "torch" in sys.modules:  # loaded already (watch, interview): ask it
        from checker.judge import resolve_device

        return resolve_device("auto").type
    import platform

    if platform.system() == "Darwin":
        return "mps" if platform.machine() == "arm64" else "cpu"
    if _torch_cuda_version() is None or os.environ.get("CUDA_VISIBLE_DEVICES", "0").strip() in ("", "-1"):
        return "cpu"
    return "cuda" if Path("/dev/nvidiactl").exists() or Path("/proc/driver/nvidia/version").exists() else "cpu"


def _torch_cuda_version() -> str | None:
    """The CUDA version torch was built with, read from torch/version.py without importing torch."""
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        text = (Path(next(iter(spec.submodule_search_locations))) / "version.py").read_text(encoding="utf-8")
    except OSError:
        return "unknown"  # cannot tell: let torch decide
    match = re.search(r"^cuda\s*(?::[^=]*)?=\s*(.+)$", text, re.MULTILINE)
    return None if match is None or match.group(1).strip() == "None" else match.group(1).strip()


# ---------------------------------------------------------------- interviews


def begin_interview(kata: Kata, store: Store, directory: Path, minutes: float, now: float | None = None) -> dict:
    """Write a fresh stub (backing up any file there) and start the clock; returns the interview."""
    if minutes <= 0:
        raise KataError(tr("--minutes must be positive."))
    now = time.time() if now is None else now
    directory = directory.expanduser()
    if directory.exists() and not directory.is_dir():
        raise KataError(tr("{path} is not a directory.", path=directory))
    path = directory / kata.filename
    saved = restart(kata, path)
    import uuid

    running = {"id": uuid.uuid4().hex[:12], "kata": kata.id, "started": now, "deadline": now + minutes * 60,
               "minutes": minutes, "path": str(path.resolve()), "saved": str(saved) if saved else None}
    remember(store, kata, path)
    store.set(INTERVIEW, json.dumps(running))
    store.record(Event(kata.id, "interview", now, detail=f"{minutes:g} min", session=running["id"],
                       file=str(path.resolve())))
    return running


def end_interview(store: Store, running: dict, outcome: str, now: float | None = None) -> float:
    """Close the interview with pass | timeout | quit; returns the seconds it took."""
    now = time.time() if now is None else now
    seconds = now - running["started"]
    store.record(Event(running["kata"], "interview", now, verdict=outcome, seconds=seconds,
                       detail=f"{outcome} after {seconds:.0f} s", session=running["id"]))
    current = store.interview()
    if current and current.get("id") == running["id"]:
        store.delete(INTERVIEW)
    return seconds


# ---------------------------------------------------------------- hints and the reference


def next_hint(kata: Kata, store: Store) -> tuple[int, str]:
    """The next hint on the ladder (the last one repeats), recorded in the history."""
    number, text, _ = hint_step(kata, store)
    return number, text


def hint_step(kata: Kata, store: Store) -> tuple[int, str, bool]:
    """The next hint on the ladder, recorded: (its number, its text, whether the ladder had already ended and
    this is the last one again). Aimed first at what the last check failed (checker/app/aiming.py)."""
    from checker.app import aiming

    return aiming.step(kata, store)


def reveal(kata: Kata, store: Store) -> str:
    store.record(Event(kata.id, "reveal", time.time()))
    return kata.reference_path.read_text(encoding="utf-8")


def followups(kata: Kata, store: Store, answers: bool) -> None:
    store.record(Event(kata.id, "followup", time.time(), detail="answers" if answers else "questions"))
