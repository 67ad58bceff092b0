"""The learner's child cannot reach kata's solutions: not by import, not by reading the files.

The learner's process is forked from a checker that has already imported kata's own code: the
kata's spec (whose known-mistake variants, with every switch off, *are* solutions), and in `kata
watch` the reference too. The static check bans `import reference` and `import checker`, but
`importlib.import_module("chec" + "ker.specs.gae")`, `runpy.run_path(...)` or `open(...).read()`
do not show in the syntax tree. So before the learner's file runs, `seal()`:

- takes every module that holds solution code out of `sys.modules` (the spec packages, the
  reference, the names kata loaded it under) and puts a guard in its place, also as the attribute
  of its parent package (`checker.specs`): any import of it, by any mechanism, and any attribute
  read from it fails with a message that says why;
- empties the classes those modules define (a module kata's switchable class is, with every switch
  off, the reference; `nn.Module.__subclasses__()` lists it whatever `sys.modules` says);
- installs an audit hook (`sys.addaudithook`: it cannot be removed) that refuses to open a file
  under reference/, content/ (a drill's file with its bugs.toml undo is a right answer too),
  checker/specs/ or the test corpus (which holds right answers), or under kata's home (its
  history), whoever asks; and, while the learner's code is on the stack, any other file of kata's
  own code, an import of `checker`, `reference` or `content`, a change to a file or folder of kata's
  home, any SQLite database (an ATTACH opens a file unheard), and a search of memory
  (`gc.get_objects`, `gc.get_referrers`). The .py, its __pycache__, a symlink to it, a path
  relative to a folder descriptor: each is refused;
- points KATA_HOME away from kata's home, and, just before the learner's file runs, restricts the
  process and all it will start with Linux's Landlock where there is one (checker.judge.fence): no
  process the learner's code starts can read the answers or write kata's home either.

A refusal while the learner's code is on the stack is also *recorded*; the worker reports the case
(or the loading) as an error with a clear message even when the learner's code catches the
exception. kata's own code in the child (the serve loop, the spec's call hook) keeps working: it
holds direct references to what it uses and imports nothing from the sealed places.

What this does not stop: without Landlock (macOS, older Linux), a process the learner starts (it
does not inherit the hook); anywhere, walking the stack's frames (`sys._getframe().f_back…`) up
to kata's own locals, or ctypes within the learner's own process. It keeps an honest practice tool
honest; it is not a sandbox against a determined attacker.
"""
from __future__ import annotations

import errno
import os
import sys
import types
import warnings
from pathlib import Path

from checker import places
from checker.judge import fence
from checker.text.i18n import tr

ROOT = Path(__file__).resolve().parents[2]
KATA_CODE = (str(ROOT / "checker"), str(ROOT / "cli.py"))
SOLUTIONS = (str(ROOT / "reference"), str(ROOT / "checker" / "specs"), str(ROOT / "tests" / "corpus"), str(ROOT / "content"))
FOLDERS = {os.path.basename(folder) for folder in SOLUTIONS} | {"bugs"}  # content/<kata>/bugs/: a drill's file
SEALED_MODULES = ("reference", "checker.specs")  # and their submodules
ANSWERS = ("reference", "content")  # packages whose import is refused whoever asks (kata's own code in the child needs neither)
# What changes a file or folder (the path arguments of each audit event): kata's home is not the learner's to change.
CHANGES = {"os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1), "os.link": (0, 1),
           "os.symlink": (1,), "os.truncate": (0,), "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,),
           "shutil.rmtree": (0,), "shutil.copyfile": (1,), "shutil.copytree": (1,), "shutil.move": (0, 1)}
SEALED_PREFIXES = ("kata_reference_", "kata_warm_")  # the names kata loads the reference under
STDLIB = os.path.dirname(os.path.realpath(os.__file__))  # importlib, runpy, pathlib, io: they act for their caller
WARNINGS = os.path.realpath(warnings.__file__)  # its frames read source lines to quote a warning, for whoever warned

_state: "_Seal | None" = None


class Refused(AttributeError):
    """An attribute of a sealed module: a subclass of AttributeError, so `hasattr()` and
    `getattr(m, name, default)` in libraries keep working; the attempt is recorded anyway."""


class _Sealed(types.ModuleType):
    """Stands in `sys.modules` for a module that holds solution code."""

    def __getattr__(self, name: str) -> object:
        if name == "__path__":  # the import system looking for a submodule: say which
            caller = sys._getframe(1)
            wanted = caller.f_locals.get("name") if caller.f_code.co_filename.startswith("<frozen importlib") else None
            what = wanted if isinstance(wanted, str) and wanted.startswith(self.__name__ + ".") else self.__name__
            _attempt("import", what)
            raise ImportError(import_message(what), name=what)
        if name.startswith("__") and name.endswith("__"):  # libraries asking any module for __file__, __wrapped__…
            raise AttributeError(name)
        _attempt("import", f"{self.__name__}.{name}")
        raise Refused(import_message(f"{self.__name__}.{name}"))


def import_message(what: str) -> str:
    return tr("your code tried to import kata's reference: {what}. The file kata checks may not use kata's own "
              "code; write the solution yourself.", what=what)


def read_message(what: str) -> str:
    return tr("your code tried to read kata's reference: {what}. The file kata checks may not read kata's own "
              "code; write the solution yourself.", what=what)


def home_message(what: str) -> str:
    return tr("your code tried to reach kata's history: {what}. The file kata checks may not read or change what "
              "kata keeps for you; write the solution yourself.", what=what)


def objects_message(what: str) -> str:
    return tr("your code tried to search kata's objects in memory: {what}. The file kata checks may not use kata's "
              "own code; write the solution yourself.", what=what)


class _Seal:
    def __init__(self) -> None:
        self.learner: str | None = None  # the learner's file, once it is being loaded
        self.attempts: list[tuple[str, str]] = []  # (kind, what) tried while the learner's code ran
        self.folder: str | None = None  # its folder: modules beside it are the learner's too
        self._real: dict[str, str] = {}  # a frame's co_filename -> the real path of its file
        self.home = os.path.realpath(places.home())  # kata's home, before KATA_HOME points elsewhere

    def learner_on_stack(self, reading: str | None = None) -> bool:
        """Whether the learner's code is behind what happens now: a frame of its file (or of a module
        beside it) is on the stack."""
        return self._ask(reading)[1]

    def learner_asks(self, reading: str | None = None) -> bool:
        """Whether the learner's code asked itself: the nearest frame outside the standard library is
        the learner's (not kata's own code importing lazily while the learner's function runs below)."""
        return self._ask(reading)[0]

    def _ask(self, reading: str | None) -> tuple[bool, bool]:
        """(asks, on the stack). Neither while the warnings machinery runs, nor when the file being
        read (`reading`) is the code of a frame on the stack: a library quoting the stack (a warning,
        `traceback.extract_stack`, `inspect.stack()`) reads those for whoever called it."""
        if self.learner is None:
            return False, False
        frame, nearest, found = sys._getframe(3), None, False
        while frame is not None:
            real = self._real.get(frame.f_code.co_filename)
            if real is None:
                real = self._real[frame.f_code.co_filename] = _real(frame.f_code.co_filename)
            if real == WARNINGS or real == reading:
                return False, False
            mine = real == self.learner or (os.path.dirname(real) == self.folder and not _under(real, KATA_CODE))
            found = found or mine
            if nearest is None and not _stdlib(real):
                nearest = mine
            frame = frame.f_back
        return bool(nearest), found


def _stdlib(real: str) -> bool:
    return real.startswith("<frozen") or (_under(real, (STDLIB,)) and "-packages" + os.sep not in real)


def _real(filename: str) -> str:
    return filename if filename.startswith("<") else os.path.realpath(filename)


def _attempt(kind: str, what: str) -> None:
    if _state is not None and _state.learner_on_stack():
        _state.attempts.append((kind, what))


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def _where(raw: object) -> tuple[str, str] | None:
    """('solution' | 'kata', its real path) when `raw` names a file kata keeps from the learner."""
    if isinstance(raw, int) or raw is None:
        return None
    try:
        path = os.fsdecode(os.fspath(raw))
    except TypeError:
        return None
    candidates = [os.path.realpath(path)]
    if not os.path.isabs(path):  # os.open(relative, dir_fd=...): try it from kata's own folders
        candidates += [os.path.realpath(os.path.join(base, path)) for base in (str(ROOT), *map(str, ROOT.parents))]
    for real in candidates:
        if _under(real, SOLUTIONS):
            return "solution", real
        if _under(real, KATA_CODE):
            return "kata", real
        if _state is not None and _under(real, (_state.home,)):
            return "home", real
    return None


def _audit(event: str, args: tuple) -> None:
    if event == "open":
        where = _where(args[0])
        if where is None:
            return
        kind, real = where
        if real == _state.learner:  # kata's own test corpus is checked where it lies, like any learner's file
            return
        shown = os.path.relpath(real, ROOT)
        if kind == "home":  # refused whoever asks: kata's own code in the child has KATA_HOME elsewhere
            if _state.learner_on_stack(reading=real):
                _state.attempts.append(("home", real))
            raise PermissionError(errno.EACCES, home_message(real))
        if kind == "solution":  # refused whoever asks; the learner's attempt if its code is behind it
            if _state.learner_on_stack(reading=real):
                _state.attempts.append(("read", shown))
            raise PermissionError(errno.EACCES, read_message(shown))
        if _state.learner_asks(reading=real):  # kata's other code: its own lazy imports go on
            _state.attempts.append(("read", shown))
            raise PermissionError(errno.EACCES, read_message(shown))
    elif event in ("gc.get_objects", "gc.get_referrers", "gc.get_referents"):
        if _state.learner_on_stack():  # a search of memory finds kata's objects: its classes, its answers
            _state.attempts.append(("objects", event))
            raise PermissionError(errno.EACCES, objects_message(event))
    elif event in CHANGES:
        for n in CHANGES[event]:
            where = _where(args[n]) if n < len(args) else None
            if where is not None and where[0] == "home" and _state.learner_on_stack():
                _state.attempts.append(("home", where[1]))
                raise PermissionError(errno.EACCES, home_message(where[1]))
    elif event == "sqlite3.connect":
        if _state.learner_on_stack():  # kata's history is SQLite; a database opened here can ATTACH it unheard
            what = os.fsdecode(args[0]) if args and isinstance(args[0], (str, bytes, os.PathLike)) else "sqlite3"
            _state.attempts.append(("home", what))
            raise PermissionError(errno.EACCES, home_message(what))
    elif event == "import":
        name = args[0] if args and isinstance(args[0], str) else ""
        if name.split(".")[0] in ("checker", *ANSWERS) and _state.learner_asks():
            _state.attempts.append(("import", name))
            raise ImportError(import_message(name), name=name)


class _Finder:
    """First on `sys.meta_path`: an import of a name kata keeps from the learner, not loaded (or
    sealed) here, is refused with the reason instead of "No module named …"."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if name.startswith(SEALED_PREFIXES) or name.split(".")[0] in ANSWERS:
            _attempt("import", name)
        elif name.split(".")[0] == "checker" and _state.learner_asks():
            _state.attempts.append(("import", name))
        else:
            return None
        raise ImportError(import_message(name), name=name)


def seal(keep: tuple[object, ...] = ()) -> None:
    """Seal this process (a learner's child, before its file runs). `keep`: functions of kata's own
    the child still calls (the spec's call hook): the classes they use are left whole."""
    global _state
    if _state is not None:
        return
    _state = _Seal()
    import_message("")  # the language's messages are read now: content/ is sealed from here on
    fence.enter()  # KATA_HOME points nowhere; the temporary folder is the check's own where it has one
    _forget_sources()
    names, classes = _solutions()
    kept = _classes_used(keep)
    for cls in classes:
        if cls not in kept:
            _empty(cls)
    for name in {*names, *SEALED_MODULES}:
        guard = _Sealed(name)
        sys.modules[name] = guard
        parent, _, child = name.rpartition(".")
        if parent and parent in sys.modules and not isinstance(sys.modules[parent], _Sealed):
            setattr(sys.modules[parent], child, guard)
    sys.meta_path.insert(0, _Finder)
    sys.addaudithook(_audit)


_found: tuple[int, list[str], list[type]] = (-1, [], [])


def solution_modules() -> None:
    """Find the loaded modules that hold solution code, and the classes they define. The parent calls
    this before it forks: in a forked child, going over every module (torch has thousands) copies the
    pages they sit on, some ten milliseconds; the child then finds the answer ready."""
    global _found
    if _found[0] == len(sys.modules):
        return
    names = [name for name in list(sys.modules) if _holds_solutions(name)]
    classes = []
    for name in names:
        module = sys.modules[name]
        if isinstance(module, types.ModuleType) and not isinstance(module, _Sealed):
            # Only modules can be found whatever sys.modules says (nn.Module.__subclasses__()); the specs'
            # other classes (a dispatch mode that watches memory, a schedule runner) are kata's machinery.
            classes += [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == name
                        and _is_module_class(v)]
    _found = (len(sys.modules), names, classes)


def _is_module_class(cls: type) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and issubclass(cls, torch.nn.Module)


def _solutions() -> tuple[list[str], list[type]]:
    solution_modules()
    return [name for name in _found[1] if name in sys.modules], _found[2]


def _forget_sources() -> None:
    """Drop solution sources the parent may have cached (a traceback, `kata demo`'s variants) from linecache."""
    import linecache

    for filename in [f for f in linecache.cache if isinstance(f, str) and os.path.basename(os.path.dirname(f)) in FOLDERS]:
        if _under(os.path.realpath(filename), SOLUTIONS):
            del linecache.cache[filename]


def enter_learner(path: Path) -> None:
    """The learner's file is about to run: its frames are the learner's from now on."""
    if _state is not None:
        fence.restrict(str(path), _state.home)  # Landlock, where there is one: for every process it starts too
        _state.learner = os.path.realpath(path)
        _state.folder = os.path.dirname(_state.learner)


def take_attempt() -> tuple[str, str] | None:
    """The first attempt recorded since the last call, and forget them all."""
    if _state is None or not _state.attempts:
        return None
    first = _state.attempts[0]
    _state.attempts.clear()
    return first


def attempt_message(attempt: tuple[str, str]) -> str:
    kind, what = attempt
    return {"read": read_message, "objects": objects_message, "home": home_message}.get(kind, import_message)(what)


def _holds_solutions(name: str) -> bool:
    return name.startswith(SEALED_PREFIXES) or any(name == m or name.startswith(m + ".") for m in SEALED_MODULES)


def _classes_used(keep: tuple[object, ...]) -> set[type]:
    """The classes that the kept functions name, following the functions they call in turn."""
    found: set[type] = set()
    todo = [f for f in keep if isinstance(f, types.FunctionType)]
    seen: set[int] = set()
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        codes, names = [fn.__code__], set()
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        for name in names:
            value = fn.__globals__.get(name)
            if isinstance(value, types.FunctionType):
                todo.append(value)
            elif isinstance(value, type):
                found.add(value)
    return found


def _empty(cls: type) -> None:
    """Take the methods out of a class of kata's (a module kata's switchable class is, with every
    switch off, the reference): `type.__subclasses__()` lists it whatever `sys.modules` says."""
    for sub in cls.__subclasses__():
        if sub.__module__ == cls.__module__:
            _empty(sub)
    for name, value in list(vars(cls).items()):
        if isinstance(value, (types.FunctionType, classmethod, staticmethod, property)):
            try:
                delattr(cls, name)
            except (AttributeError, TypeError):
                pass
