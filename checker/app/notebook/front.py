"""kata in a notebook: the CLI's commands as functions, and the `%%kata` cell magic (magic.py) on top of them.

Every check goes to the kernel's warm checker (client.py), with the CLI's judge, limits and history: a cell under
`%%kata gae` is saved as a file under KATA_HOME (KATA_HOME/notebook/gae.py), so `kata check gae` in a terminal,
`kata reveal gae --diff` and `kata stats` see it as they see a file `kata start` wrote. `check("gae")` without the
magic builds the file from the cells that define the entry point and what it uses (cells.py), and refuses rather
than guess. Views are the CLI's renderables, printed through rich (HTML in Jupyter and Colab).
"""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from checker.app import commands
from checker.errors import KataError
from checker.places import home as kata_home
from checker.text import catalog, i18n
from checker.text.i18n import tr

NOTEBOOK_DIR = "notebook"  # KATA_HOME/notebook/: the files the notebook's cells are saved as
WRITTEN = "notebook-wrote:"  # settings key prefix: the sha256 of what the notebook last wrote at a path
_from_magic: dict[str, tuple[int, Path, bool]] = {}  # kata id -> (id() of the entry a %%kata cell defined, its file, drill)
_said_home = False
_spoken: str | None = None  # the language kata.lang() chose in this kernel: it wins over KATA_LANG, as a --lang flag does


class Refused(Exception):
    """A one-line refusal shown as such in a notebook (IPython prints `_render_traceback_`, not a traceback), and
    an error status, so a notebook run top to bottom stops there."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def _render_traceback_(self) -> list[str]:
        return [self.message]


def _refusing(function):
    """Turn kata's usage errors into Refused (one line, no traceback) for the learner."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except KataError as exc:
            raise Refused(tr("kata: {message}", message=exc.message)) from None

    return wrapper


# ---------------------------------------------------------------- where things live


def _store():
    from checker.app.state import Store

    return Store()


def _console():
    from rich.console import Console

    return Console(highlight=False, emoji=False)


def _print(*renderables: Any) -> None:
    out = _console()
    for renderable in renderables:
        out.print(renderable, crop=False)


def _say(message: str, style: str = "") -> None:
    from checker.app.views import say

    _print(say(message, style))


def notebook_dir() -> Path:
    return kata_home() / NOTEBOOK_DIR


def _kata(name: str | None, store, command: str):
    if name is not None and not isinstance(name, str):
        raise KataError(tr("Give a kata id as a string: kata.{command}(\"gae\").", command=command))
    return commands.kata_or_current(name, store, command)


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def _frontend_takes_new_cells() -> bool:
    """Jupyter's frontends (Notebook, Lab, VS Code) put `set_next_input`'s text in a new cell; Colab ignores it."""
    shell = _shell()
    return shell is not None and "google.colab" not in sys.modules and type(shell).__name__ == "ZMQInteractiveShell"


def _new_cell(text: str) -> bool:
    shell = _shell()
    if not _frontend_takes_new_cells():
        return False
    shell.set_next_input(text, replace=False)
    return True


def _block(text: str) -> None:
    from rich.syntax import Syntax

    _print(Syntax(text, "python", theme="ansi_light", word_wrap=False))


# ---------------------------------------------------------------- settings


@_refusing
def home(path: str | os.PathLike | None = None) -> Path:
    """Where kata keeps your history and your notebook files (KATA_HOME). `kata.home("/content/drive/MyDrive/kata")`
    keeps them on a mounted Google Drive, which outlives a recycled Colab runtime."""
    global _said_home
    if path is not None:
        target = Path(path).expanduser()
        if target.exists() and not target.is_dir():
            raise KataError(tr("{path} is not a directory.", path=target))
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise KataError(tr("Cannot write {path}: {why}.", path=target, why=exc.strerror or exc)) from exc
        os.environ["KATA_HOME"] = str(target.resolve())
        _said_home = True
        _say(tr("kata keeps your history and notebook files in {path} from now on.", path=target.resolve()))
    return kata_home()


@_refusing
def lang(language: str | None = None) -> str:
    """The language kata speaks: "en" or "zh" (saved, as `kata config lang`; in this kernel it wins over KATA_LANG)."""
    global _spoken
    if language is not None:
        if language not in i18n.LANGS:
            raise KataError(tr("lang is one of: {choices}.", choices=", ".join(i18n.LANGS)))
        _store().set("lang", language)
        _spoken = language
        i18n.use(language)
    return i18n.current()


def _choose_language() -> None:
    """What every function does first: the language kata speaks, and commands in messages as a notebook calls them."""
    from checker.app import views

    views.spoken_command = as_call
    if _spoken is not None:
        i18n.use(_spoken)
    elif os.environ.get("KATA_LANG"):
        i18n.use(i18n.resolve(None, None))
    else:
        i18n.use(i18n.resolve(None, _store().get("lang")))


# ---------------------------------------------------------------- the views


@_refusing
def list(topic: str | None = None) -> None:  # noqa: A001 — kata.list(), as `kata list`
    from checker.app import practice, views

    _choose_language()
    store = _store()
    topic = practice.topic_id(topic) if topic is not None else None
    _print(views.kata_list(store.events(), _console().width, commands.current(store), topic))


@_refusing
def hint(name: str | None = None) -> None:
    from checker.app import drilling

    _choose_language()
    store = _store()
    kata = _kata(name, store, "hint")
    _print(drilling.next_hint(kata, store.get(commands.CURRENT_FILE), store))


@_refusing
def followup(name: str | None = None, answers: bool = False) -> None:
    from checker.app import views

    _choose_language()
    store = _store()
    kata = _kata(name, store, "followup")
    commands.followups(kata, store, answers)
    _print(views.followups(kata, answers))


@_refusing
def cases(name: str | None = None) -> None:
    from rich.table import Table
    from rich.text import Text

    _choose_language()
    kata = _kata(name, _store(), "cases")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for family, about in kata.text().families.items():
        table.add_row(Text(family), Text(about))
    _print(table)
    _say(tr("Run one with `kata.check(\"{id}\", case=\"NAME\")` (a family's draws are NAME.0, NAME.1, …).",
            id=kata.id), "dim")


@_refusing
def stats() -> None:
    from checker.app import drilling, views

    _choose_language()
    events = _store().events()
    _print(views.stats(events), drilling.stats_line(events))


@_refusing
def reveal(name: str | None = None, yes: bool = False, diff: bool = False) -> None:
    """The reference (recorded). Before you pass, only with `yes=True`; `diff=True` compares your notebook file."""
    from checker.app import drilling, views

    _choose_language()
    store = _store()
    kata = _kata(name, store, "reveal")
    drill = drilling.current(kata, store)
    if drill is not None:
        _print(drilling.reveal(drill, store))
        return
    attempt = None
    if diff:
        attempt = commands.passed_file(kata, store) or commands.file_of(kata, store)
        if attempt is None or not Path(attempt).is_file():
            raise KataError(tr("No file of yours for {id} to compare yet: check it first, or call "
                               "`kata.reveal(\"{id}\")` without diff.", id=kata.id))
    if not yes and not commands.ever_passed(kata, store):
        raise KataError(tr("You have not passed {id} yet, and revealing it is recorded. Call "
                           "`kata.reveal(\"{id}\", yes=True)` to see it anyway.", id=kata.id))
    source = commands.reveal(kata, store)
    if attempt is not None:
        _print(views.unified_diff(Path(attempt).read_text(encoding="utf-8", errors="replace"), source,
                                  left=tr("yours: {file}", file=Path(attempt).name),
                                  right=tr("reference: {file}", file=kata.filename)))
    else:
        _print(views.reference(kata, source))


# ---------------------------------------------------------------- writing cells


@_refusing
def start(name: str, force: bool = False) -> None:
    """The contract, and the stub in a new cell under `%%kata <id>` (printed to copy where no new cell can be made).
    Your saved work for the kata comes back instead of the stub, unless `force=True` (then it is backed up)."""
    _choose_language()
    store = _store()
    kata = _kata(name, store, "start")
    started = commands.start(kata, notebook_dir(), force, store)
    text = started.path.read_text(encoding="utf-8")
    _remember_written(store, started.path, text)
    from checker.app.notebook.client import CHECKER

    CHECKER.warm(kata.id, "auto")  # torch and the reference load while the learner reads the contract
    if started.resumed:
        _say(tr("Your saved {id} ({file}) is back: it goes on where you left off (`kata.start(\"{id}\", force=True)` "
                "starts over from the stub).", id=kata.id, file=started.path))
    elif started.saved:
        _say(tr("Kept your previous file as {file}.", file=started.saved))
    _say(tr("{title}: {summary}.", title=kata.title, summary=kata.summary), "bold")
    cell = f"%%kata {kata.id}\n{text}"
    if _new_cell(cell):
        _say(tr("The stub is in a new cell below: write {entry} there and run the cell to check it. Stuck? "
                "`kata.hint(\"{id}\")`.", entry=kata.entry, id=kata.id))
    else:
        _say(tr("Copy this into a new cell, write {entry}, and run the cell to check it. Stuck? `kata.hint(\"{id}\")`.",
                entry=kata.entry, id=kata.id))
        _block(cell)


@_refusing
def bug(name: str | None = None, force: bool = False) -> None:
    """A whole solution with one realistic bug, in a new cell under `%%kata <id> --drill`: find it and fix it."""
    from checker.app import drilling

    _choose_language()
    store = _store()
    kata = _kata(name, store, "bug")
    wrote = drilling.write(kata, notebook_dir(), force, store)
    path = wrote.written.path
    _remember_written(store, path, wrote.written.text)
    from checker.app.notebook.client import CHECKER

    CHECKER.warm(kata.id, "auto")
    if wrote.saved:
        _say(tr("Kept your previous file as {file}.", file=wrote.saved))
    cell = f"%%kata {kata.id} --drill\n{wrote.written.text}"
    line = tr("A whole {id} with one bug in it. Find it and fix it, then run the cell; stuck? `kata.hint(\"{id}\")`.",
              id=kata.id)
    if _new_cell(cell):
        _say(line + " " + tr("It is in a new cell below."))
    else:
        _say(line + " " + tr("Copy it into a new cell:"))
        _block(cell)


# ---------------------------------------------------------------- checking


@dataclass(frozen=True)
class Options:
    seed: int | None = None
    case: str | None = None
    device: str = "auto"
    timeout: float = 30.0
    memory_gb: float = 4.0
    verbose: bool = False
    bench: bool = False


def _options(options: Options, kata) -> Options:
    commands.check_seed(options.seed)
    commands.check_case(kata, options.case)
    device = commands.check_device(options.device)
    if not (isinstance(options.timeout, (int, float)) and isinstance(options.memory_gb, (int, float))) \
            or options.timeout <= 0 or options.memory_gb <= 0:
        raise KataError(tr("timeout and memory_gb must be positive numbers."))
    return replace(options, device=device)


@_refusing
def check(name: str | None = None, *, seed: int | None = None, case: str | None = None, device: str = "auto",
          timeout: float = 30.0, memory_gb: float = 4.0, verbose: bool = False, bench: bool = False,
          file: str | os.PathLike | None = None):
    """Check your code for a kata, as `kata check` does: the code of the last `%%kata <id>` cell if that cell
    defines what the notebook's entry point is now, else a file built from the cells that define it and what it
    uses (the report's first line says which), or `file=` a file of yours. Returns the CheckResult."""
    _choose_language()
    store = _store()
    kata = _kata(name, store, "check")
    options = _options(Options(seed, case, device, timeout, memory_gb, verbose, bench), kata)
    drill = False
    if file is not None:
        path = Path(file).expanduser()
        said = None
    else:
        path, said, drill = _current_code(kata, store)
    return Checked(_check(kata, path, store, options, said=said, drill=drill))


def _current_code(kata, store) -> tuple[Path, str | None, bool]:
    """The file that holds what the notebook runs as `kata`'s entry point now."""
    shell = _shell()
    entry = shell.user_ns.get(kata.entry) if shell is not None else None
    known = _from_magic.get(kata.id)
    if known is not None and entry is not None and id(entry) == known[0] and known[1].is_file():
        return known[1], None, known[2]
    if shell is None:
        raise KataError(tr("kata.check(\"{id}\") reads the notebook's cells, and this is no notebook: give the file, "
                           "kata.check(\"{id}\", file=\"{name}\"), or run `kata check {id}` in a terminal.",
                           id=kata.id, name=kata.filename))
    from checker.app.notebook import cells

    try:
        built = cells.build(kata.entry, shell)
    except cells.Refusal as refusal:
        raise KataError(refusal.message) from None
    path = notebook_dir() / kata.filename
    source = built.source if built.source.startswith("# kata:") else f"# kata: {kata.id}\n{built.source}"
    _save(store, path, source)
    return path, built.said, False


def _save(store, path: Path, text: str) -> Path | None:
    """Write `text` to `path` (atomically). What is there is backed up first when the notebook did not write it
    (edited in a terminal, or written by `kata start` elsewhere): nothing of the learner's is lost."""
    saved = None
    if path.exists():
        try:
            current = path.read_bytes()
        except OSError as exc:
            raise KataError(tr("Cannot read {path}: {why}.", path=path, why=exc.strerror or exc)) from exc
        if current == text.encode("utf-8"):
            return None
        if store.get(WRITTEN + str(path.resolve())) != hashlib.sha256(current).hexdigest():
            try:
                saved = commands.backup(path)
            except OSError as exc:
                raise KataError(tr("Cannot back up {path} ({why}); nothing was overwritten.", path=path,
                                   why=exc.strerror or exc)) from exc
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.kata-tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise KataError(tr("Cannot write {path}: {why}.", path=path, why=exc.strerror or exc)) from exc
    _remember_written(store, path, text)
    if saved is not None:
        _say(tr("{file} had changed outside this notebook: kept it as {saved}.", file=path, saved=saved), "yellow")
    return saved


def _remember_written(store, path: Path, text: str) -> None:
    store.set(WRITTEN + str(path.resolve()), hashlib.sha256(text.encode("utf-8")).hexdigest())


def check_cell(kata_id: str, body: str, options: Options, drill: bool, shell) -> Any:
    """`%%kata <id>`: run the cell as the notebook would, save it, check it."""
    _choose_language()
    store = _store()
    kata = _kata(kata_id, store, "check")
    options = _options(options, kata)
    if drill:
        from checker.app import drilling

        path = drilling.target(kata, notebook_dir())
        if not path.exists():
            raise KataError(tr("No drill of {id} was written in this KATA_HOME: `kata.bug(\"{id}\")` writes one.",
                               id=kata.id))
    else:
        path = notebook_dir() / kata.filename
    _save(store, path, body)
    if shell is not None:
        ran = shell.run_cell(body, store_history=False)
        entry = shell.user_ns.get(kata.entry)
        if entry is not None:
            _from_magic[kata.id] = (id(entry), path, drill)
        del ran  # an error in the cell is shown above; the check judges the file all the same
    return _check(kata, path, store, options, said=None, drill=drill)


def _check(kata, path: Path, store, options: Options, said: str | None, drill: bool) -> Any:
    global _said_home
    from checker.app import checking
    from checker.app.notebook.client import CHECKER

    if not path.is_file():
        raise KataError(tr("{path} is not there.", path=path))
    lines = [said] if said else []
    if not _said_home:
        _said_home = True
        lines.append(tr("kata keeps your history in {home} (`kata.home(path)` moves it, e.g. to a mounted Drive).",
                        home=kata_home()))
    for line in lines:
        _say(line, "dim")
    outcome = checking.check(kata, path, store, device=options.device, seed=options.seed, case=options.case,
                             timeout=options.timeout, memory_gb=options.memory_gb, bench=options.bench,
                             explicit_kata=True, judge=CHECKER.check)
    outcome = _notebook_reproducers(outcome)
    _print(checking.report_for(outcome, store, verbose=options.verbose))
    if options.bench and outcome.result.bench is None:
        _say(tr("bench: runs only once every case passes.") if not outcome.result.passed
             else tr("bench: {id} has no benchmark input.", id=kata.id), "dim")
    return outcome.result


class Checked:
    """What kata.check and `%%kata` return: the CheckResult (`r.passed`, `r.cases`), shown as nothing under the
    report it already printed (a cell ending in `kata.check("gae")` would otherwise print the whole dataclass)."""

    def __init__(self, result):
        self.result = result

    def __getattr__(self, name):
        return getattr(self.result, name)

    def __repr__(self) -> str:
        return ""

    def _repr_pretty_(self, p, cycle) -> None:
        pass


def _notebook_reproducers(outcome):
    """A failing case's reproduce line as a notebook call (`kata check …` in a terminal finds the same file)."""
    from checker.judge.results import Status

    cases = tuple(replace(c, reproduce=_call(outcome.kata.id, outcome.result.seed, c.name, c.reproduce))
                  if c.status is not Status.PASS and c.reproduce else c for c in outcome.result.cases)
    return replace(outcome, result=replace(outcome.result, cases=cases))


def _call(kata_id: str, seed: int, case: str, command: str) -> str:
    extra = ""
    for flag, name in (("--device", "device"), ("--timeout", "timeout"), ("--memory-gb", "memory_gb")):
        if flag in command:
            value = command.split(flag, 1)[1].split()[0]
            extra += f", {name}={value!r}" if name == "device" else f", {name}={value}"
    return f'kata.check("{kata_id}", seed={seed}, case="{case}"{extra})'


def warm(kata_id: str, device: str = "auto") -> None:
    from checker.app.notebook.client import CHECKER

    CHECKER.warm(kata_id, device)


# ---------------------------------------------------------------- commands, as a notebook types them

_CALLS = {"check", "hint", "followup", "cases", "reveal", "start", "bug", "stats", "list"}
_FLAGS = {"--answers": "answers", "--diff": "diff", "--yes": "yes", "-y": "yes", "--force": "force",
          "--verbose": "verbose", "-v": "verbose", "--bench": "bench"}
_VALUED = {"--seed": ("seed", int), "--case": ("case", str), "--topic": ("topic", str), "--device": ("device", str),
           "--timeout": ("timeout", float), "--memory-gb": ("memory_gb", float), "--file": ("file", str)}


def as_call(command: str) -> str:
    """`kata hint gae` as a notebook cell would say it: `kata.hint("gae")`; `kata watch gae` is `%%kata gae`
    (run the cell again); a command with no notebook function, or an option it lacks, stays a shell command
    (`!kata next`), which a notebook runs too."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) < 2 or words[0] != "kata":
        return command
    name, rest = words[1], words[2:]
    if name == "watch" and all(not w.startswith("-") for w in rest) and len(rest) <= 1:
        return "%%kata " + (rest[0] if rest else "<id>")
    if name not in _CALLS:
        return "!" + command
    arguments: list[str] = []
    keywords: list[str] = []
    words_left = iter(rest)
    for word in words_left:
        if word in _FLAGS:
            keywords.append(f"{_FLAGS[word]}=True")
        elif word in _VALUED:
            value = next(words_left, None)
            if value is None or value.startswith("-"):
                return "!" + command
            key, kind = _VALUED[word]
            try:
                keywords.append(f"{key}={kind(value)!r}" if kind is not str else f'{key}="{value}"')
            except ValueError:
                return command  # a placeholder (--seed N): the command as written reads best
        elif word.startswith("-") or arguments:
            return "!" + command
        elif name == "check" and (word.endswith(".py") or "/" in word):
            keywords.insert(0, f'file="{word}"')
        else:
            arguments.append(f'"{word}"')
    return f"kata.{name}({', '.join(arguments + keywords)})"
