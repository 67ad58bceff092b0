"""What a check of a Triton kernel kata (`needs = "triton"` in its kata.toml) adds around the engine.

The kernels run under Triton's interpreter in the learner's child, under the guards of `checker.judge.kernels`
(the spec hooks of `checker/specs/_kernels.py` call them): this module is the parent's side of it.

- `unavailable`: without a triton in the supported range, the check says how to install it (exit 2) before
  anything is drawn; `kata list` greys the family out and `kata start` still writes the stub.
- `enter`: the checker process imports triton, interpreted, once before it forks (0.3-0.7 s a check otherwise,
  in every child, every `kata watch` re-check included). Nothing in this process ever launches or compiles a
  kernel: the references are torch, the learner's kernels and the known mistakes run in children.
- `Compile`: once per check, when every case passed, each kernel a case launched is compiled for a GPU
  (the frontend, to TTIR) in a fresh process that never imported triton interpreted (`kernel_compile`): what the
  interpreter accepts and a GPU rejects (a `tl.dot` with an inner dimension under 16, an accumulator whose type a
  loop changes) fails there. `finish` adds its verdict and the report's line on the passes ("checked under
  Triton's interpreter; no GPU pass").
- `announce_launches`, `timeout_message`: what a case that ran out of time launched, for the time limit's message.

The GPU pass (the same cases on CUDA tensors with the compiled kernels, in a fresh child that initialises CUDA) is
not built yet: a kernel kata is checked on the CPU on every machine.
"""
from __future__ import annotations

import atexit
import gc
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from checker.errors import KataError
from checker.judge.results import CheckResult, Status
from checker.text.i18n import tr

GUARD = "guard"  # the Outcome.extras key under which a kernel kata's call hook sends what the guards saw
COMPILE_SECONDS = 60.0  # the fresh process's import of triton and the frontend compiles, on a loaded machine
SIGNATURES_PER_KERNEL = 4  # float32 and float16 launches differ; constexprs (the blocks) make more


def is_kernel(kata: Any) -> bool:
    return getattr(kata, "needs", None) == "triton"


def unavailable(kata: Any) -> str | None:
    """Why this kata cannot be checked here (how to install triton, or the range a triton outside it must be in),
    or None. Reads installed metadata only: no triton import."""
    from checker.judge import static

    return static.missing_library(getattr(kata, "needs", None))


def enter() -> None:
    """This process imports triton under its interpreter, with the guards installed (idempotent): the children it
    forks (the learner's, the known mistakes') then start with it loaded."""
    global _unfreezes
    from checker.judge import kernels

    kernels.enter_interpreter()
    _no_overflow_checks()
    if not _unfreezes:
        # The engine freezes what is alive before it forks (gc.freeze): triton's nanobind objects frozen at exit are
        # never freed, and nanobind then prints "leaked 4 instances!" under the report. Unfrozen at exit, they are.
        atexit.register(gc.unfreeze)
        _unfreezes = True


_unfreezes = False


def _no_overflow_checks() -> None:
    """The interpreter's integer overflow check off where it can say nothing: with `debug` off (no TRITON_DEBUG=1) the
    `tl.device_assert` it ends in is inert, yet every int32 add, sub and mul of a kernel (`pid * BLOCK + offsets`) is
    first redone in int64 and compared with the int32 bounds for it: a third of a vector add's time under the
    interpreter, for no verdict. Results are the same; a triton without these options is left as it is."""
    import dataclasses

    from triton.runtime import interpreter

    builder = getattr(interpreter, "interpreter_builder", None)
    options = getattr(builder, "options", None)
    if options is None or not dataclasses.is_dataclass(options) or getattr(options, "debug", True):
        return
    if getattr(options, "sanitize_overflow", False):
        builder.options = dataclasses.replace(options, sanitize_overflow=False)


def device(asked: str, resolved: Any) -> Any:
    """The device the cases run on: the CPU (the interpreter pass). `--device cuda` would be the GPU pass alone,
    which is not built yet: said, not run on the CPU instead."""
    import torch

    if asked.lower() == "cuda":
        raise KataError(tr("The GPU pass of the kernel katas is not built yet: `kata check` runs your kernels under "
                           "Triton's interpreter on the CPU (leave out --device cuda)."))
    return torch.device("cpu")


def finish(result: CheckResult, path: Path, outcomes: Iterable[Any], early: "Compile | None" = None) -> CheckResult:
    """The result with the GPU frontend's verdict (once every case passed) and the line on how it was checked.
    `early`: the compile started while the cases ran (`Compile`), whose answer is taken here."""
    if result.cases:  # not for a file that ran no case (the stub, a file that does not load)
        result = replace(result, note=tr("checked under Triton's interpreter; no GPU pass"))
    if not result.passed:
        return result
    errors = (early or Compile(path, [])).problems([o for o in outcomes if o is not None])
    if errors:
        return replace(result, status=Status.FAIL, message=compile_message(errors))
    return result


class Compile:
    """The GPU frontend compile of one check, started on another core while the random draws still run.

    The compile's process imports triton afresh (never interpreted) before it compiles a few kernels: most of its
    ~0.5 s. The named cases come first in every run and make most of a kernel's distinct signatures (float32 and
    float16, each block the cases pass): once they have all passed, their launches are compiled in a thread while
    the learner's child works through the draws. At the end, any launch of the later cases among the ones to compile
    (at most SIGNATURES_PER_KERNEL a kernel, in launch order: the same set as compiling at the end) is compiled too.
    A file that fails a case is never compiled: its answer is thrown away."""

    def __init__(self, path: Path, cases: list[Any]) -> None:
        self.path = path
        self.named = [i for i, case in enumerate(cases) if not case.family.name.startswith("random")]
        self.started: list[Any] | None = None  # the launches the thread compiles
        self.found: list[str] = []
        self.thread: threading.Thread | None = None

    def feed(self, judged: dict[int, Any], got: dict[str, Any], cases: list[Any]) -> None:
        """Start the compile once every named case has passed (called as the learner's answers come in)."""
        if self.started is not None or not self.named or any(i not in judged for i in self.named):
            return
        if any(judged[i].status is not Status.PASS for i in self.named):
            self.started = []
            return
        self.started = launches(got.get(cases[i].name) for i in self.named)
        if self.started:
            self.thread = threading.Thread(target=self._run, args=(self.started,), daemon=True)
            self.thread.start()

    def _run(self, found: list[Any]) -> None:
        self.found = _compiled(self.path, found)

    def problems(self, outcomes: list[Any]) -> list[str]:
        """The frontend's errors for every launch the cases made ([] when all compile): the early compile's, then
        the later launches'."""
        every = launches(outcomes)
        done = set()
        if self.thread is not None:
            self.thread.join()
            done = {_key(launch) for launch in self.started or ()}
        rest = [launch for launch in every if _key(launch) not in done]
        return self.found + (_compiled(self.path, rest) if rest else [])


def _key(launch: Any) -> str:
    return launch.kernel + repr(sorted(launch.signature.items(), key=repr))


def launches(outcomes: Iterable[Any]) -> list[Any]:
    """The distinct launches (kernel and signature) the learner's outcomes recorded, at most SIGNATURES_PER_KERNEL
    per kernel: first one of each distinct set of argument types (a float16 launch compiles what a float32 one does
    not: an accumulator whose type `acc += tl.dot` changes), then the others in the order the cases made them."""
    from checker.judge import kernels

    candidates: dict[str, dict[str, kernels.Launch]] = {}  # kernel -> signature key -> its first launch, in order
    for outcome in outcomes:
        record = outcome.extras.get(GUARD) if outcome is not None else None
        if not isinstance(record, dict):
            continue
        for launch in record.get("kernels") or ():
            if not isinstance(launch, dict) or not isinstance(launch.get("kernel"), str):
                continue
            signature = launch.get("signature") if isinstance(launch.get("signature"), dict) else {}
            kinds = candidates.setdefault(launch["kernel"], {})
            key = repr(sorted(signature.items(), key=repr))
            if key not in kinds:
                grid = tuple(int(g) for g in launch.get("grid") or (1, 1, 1))
                kinds[key] = kernels.Launch(kernel=launch["kernel"], grid=grid, signature=signature)
    found = []
    for kinds in candidates.values():
        chosen: list[kernels.Launch] = []
        types: set[str] = set()
        for launch in kinds.values():  # one of each set of argument types first
            typed = repr(sorted((k, v) for k, v in launch.signature.items() if not isinstance(v, dict)))
            if typed not in types and len(chosen) < SIGNATURES_PER_KERNEL:
                types.add(typed)
                chosen.append(launch)
        for launch in kinds.values():
            if launch not in chosen and len(chosen) < SIGNATURES_PER_KERNEL:
                chosen.append(launch)
        found += chosen
    return found


# The frontend's answers in this process (kata watch re-checks one file again and again): (the file's kernels and
# module-level statements, the launches) -> the errors. A save that changes only the wrapper, or a comment, compiles
# nothing again: the compile reads only the @jit functions, the module's constants and imports, and the signatures.
_COMPILED: dict[tuple, list[str]] = {}


def _compiled(path: Path, found: list[Any]) -> list[str]:
    """The GPU frontend's errors for `found` launches ([] when they all compile)."""
    if not found:
        return []
    key = (_kernel_source(path), tuple(_key(launch) for launch in found))
    if key[0] is not None and key in _COMPILED:
        return list(_COMPILED[key])
    from checker.judge import kernel_compile

    errors = list(kernel_compile.compile_check(path, found, COMPILE_SECONDS))
    if key[0] is not None:
        _COMPILED[key] = errors
        while len(_COMPILED) > 8:
            _COMPILED.pop(next(iter(_COMPILED)))
    return errors


def _kernel_source(path: Path) -> str | None:
    """What the compile of a learner's file reads, as its syntax tree (comments and layout left out): every
    decorated top-level function (the kernels, with their decorators), every top-level import and assignment; None
    when the file cannot be read or parsed. (A module of the learner's own beside the file is not looked at: a kernel
    imported from one is compiled again only when this file's own kernels, imports or constants change.)"""
    import ast

    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    kept = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign))
            or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list]
    return "\n".join(ast.dump(node) for node in kept)


def compile_message(errors: list[str]) -> str:
    return tr("Every case passed under Triton's interpreter, but your kernel does not compile for a GPU: {error}",
              error=errors[0])


def announce_launches(send: Any) -> None:
    """In the learner's child: tell the parent each launch's program count as it starts (`send(header)`), so that a
    case which runs out of time says what it launched."""
    from triton.runtime import interpreter

    builder = interpreter.InterpreterBuilder
    hooked = builder.set_grid_dim

    def set_grid_dim(self: Any, nx: Any, ny: Any, nz: Any) -> Any:
        send({"m": "launch", "programs": int(nx) * int(ny) * int(nz)})
        return hooked(self, nx, ny, nz)

    builder.set_grid_dim = set_grid_dim


def timeout_message(messages: list, seconds: str, case: str) -> str | None:
    """The time limit's message for a kernel kata whose case was launching kernels when it ran out of time ("your
    kernel launched 4,096 programs for this case"), from the launches the child announced since that case began;
    None when it announced none."""
    launches = []
    for header, _ in reversed(messages):
        kind = header.get("m")
        if kind == "start":
            break
        if kind == "launch" and isinstance(header.get("programs"), int):
            launches.append(header["programs"])
    if not launches:
        return None
    return tr("Timed out after {seconds} s in case {case}: your kernel launched {n} programs for this case (each runs "
              "one after another under Triton's interpreter, a few milliseconds apiece). A grid of one program per "
              "element instead of per block, or a loop in the kernel that never ends? (`kata check --timeout` gives "
              "it longer.)", seconds=seconds, case=case, n=f"{sum(launches):,}")
