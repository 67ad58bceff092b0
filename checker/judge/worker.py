"""The child side of a check: run one entry point over the cases and stream outcomes back.

Three roles share this code. The learner's child loads the learner's file in its own process
group, with its output captured, stdin closed and memory bounded. The reference child loads the
hidden reference and produces the accepted answers. The mistakes child runs a kata's known wrong
variants. Every child only *reports* values; all judging happens in the parent, whose torch the
learner's code never touches.
"""
from __future__ import annotations

import ast
import dis
import faulthandler
import functools
import importlib.machinery
import importlib.util
import os
import resource
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np
import torch

from checker.judge import codec, seal
from checker.text.i18n import tr
from checker.judge import spec as spec_api
from checker.judge.devices import DeviceProblem

MiB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    seconds: float = 30.0
    memory_bytes: int = 4096 * MiB  # on top of what the process already maps
    output_bytes: int = 64 * MiB


def load_entry(path: Path, name: str, module_name: str) -> Any:
    """Execute a file as a module and return its top-level `name`."""
    directory = str(path.resolve().parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)  # the learner's own helper modules import as in a script
    # An explicit source loader: a file whose name does not end in .py (a backup, gae.py.bak-1) is Python too.
    loader = importlib.machinery.SourceFileLoader(module_name, str(path))
    module_spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    seal.enter_learner(path)  # in a sealed (learner's) child, its frames are the learner's from here on
    module_spec.loader.exec_module(module)
    try:
        return getattr(module, name)
    except AttributeError:
        raise LookupError(tr("{file} does not define '{name}' once it has run", file=path.name, name=name)) from None


def isolate(capture_fd: int, limits: Limits, device: torch.device, channel_fd: int, keep: tuple = (),
            queue_fd: int | None = None) -> None:
    """Fence the learner's process: own process group, no stdin, captured output, bounded memory,
    no file descriptors but its own channel and the queue of its cases (whatever else the parent had open
    is not its to touch), and kata's solutions out of reach (checker.judge.seal; `keep`: kata's functions the
    child still calls)."""
    os.setpgid(0, 0)
    seal.seal(keep)
    faulthandler.disable()  # a crash is reported by the parent, not dumped onto the terminal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends us; Ctrl-C is the parent's to handle
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(capture_fd, 1)
    os.dup2(capture_fd, 2)
    start = 3
    for fd in sorted({channel_fd} | ({queue_fd} if queue_fd is not None else set())):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, 1 << 16)
    sys.stdin = open(os.devnull)  # noqa: SIM115 — lives as long as the process
    # Python-level streams may point elsewhere (pytest's capture, a rich console): rebind them too.
    sys.stdout = open(1, "w", buffering=1, errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, errors="replace", closefd=False)  # noqa: SIM115
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the output cap, writes fail instead of killing us
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes, limits.output_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if device.type == "cpu" and limits.memory_bytes > 0:  # CUDA maps huge address ranges: no AS cap there
        cap = _mapped_bytes() + limits.memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def quiet() -> None:
    """Send a child's output nowhere. kata's own children (the reference, the known mistakes, the
    bench) must print nothing: a variant that overflows on purpose would put NumPy's warning, quoting
    its line, above the report as if it were the learner's. The learner's child then gets its captured
    output from `isolate`."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 — lives as long as the process
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115


def _mapped_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def reset_global_state(seed: int) -> None:
    """Undo what earlier code may have changed globally, so one case cannot steer the next."""
    torch.set_default_dtype(torch.float32)
    torch.set_grad_enabled(True)
    torch.set_default_device(None)
    torch.default_generator.manual_seed(seed)  # the CPU generator: torch.manual_seed also queues every GPU's
    np.random.seed(seed % 2**32)


def serve(fd: int, run_case: Callable[[spec_api.Case], list[spec_api.Outcome]], cases: list[spec_api.Case],
          learner_path: Path | None = None, send_args: bool = False, indices: Iterable[int] | None = None,
          stub: tuple[frozenset[str], frozenset[str]] | None = None) -> None:
    """Run every case (or those at `indices`, in order: this child's share) and stream its outcomes; a case that
    raises is reported, and the next runs. A case is always numbered and seeded by its place in `cases`. `stub`:
    what the kata's stub raises (`stub_raises`), to tell its NotImplementedError from the learner's own."""
    if learner_path is not None:
        spec_api.is_stub = functools.partial(_is_stub, learner_path=learner_path, stub=stub)
    send(fd, {"m": "ready"})
    for i in range(len(cases)) if indices is None else indices:
        case = cases[i]
        send(fd, {"m": "start", "i": i, "at": _printed_so_far()})
        _large_calls.clear()
        started = time.perf_counter()
        try:
            reset_global_state(case.seed ^ i)
            outcomes = run_case(case)
        except BaseException as exc:  # noqa: BLE001 — SystemExit and friends are the learner's too
            if isinstance(exc, DeviceProblem) and learner_path is not None:
                # Code a real GPU (or meta) would reject, found by the simulation: a wrong answer, said once.
                problem = {"kind": "device", "item": "", "message": exc.problem}
                send(fd, {"m": "case", "i": i, "problems": [problem], "t": time.perf_counter() - started})
                continue
            error = refusal(describe_error(exc, learner_path))
            send(fd, {"m": "case", "i": i, "error": error, "t": time.perf_counter() - started})
            if i == 0 and isinstance(exc, NotImplementedError) and not error.get("refused") and _is_stub(exc, learner_path, stub):
                send(fd, {"m": "stub"})
                return
            if error["type"] == "MemoryError":  # every further case would fill memory again
                send(fd, {"m": "stopped", "i": i, "why": tr("your code ran out of memory")})
                return
            continue
        elapsed = time.perf_counter() - started
        refused = refusal(None)
        if refused is not None:  # it reached for kata's reference and caught the refusal: the case does not count
            send(fd, {"m": "case", "i": i, "error": refused, "t": elapsed})
            continue
        buffers: list[bytes] = []
        header = {"m": "case", "i": i, "t": elapsed, "outcomes": [encode_outcome(o, buffers) for o in outcomes]}
        if _large_calls:
            header["calls"] = list(_large_calls)
        if send_args and outcomes:
            header["after"] = {k: _safe_encode(v, buffers) for k, v in outcomes[0].args.items()
                               if isinstance(v, (torch.Tensor, np.ndarray))}
            relaid = _relaid(outcomes[0])
            if relaid:
                header["relaid"] = relaid
        codec.write_message(fd, header, buffers)
    send(fd, {"m": "done"})


# A call of the entry point with this many rows (the leading dimension of its first tensor or array) is timed, and
# announced to the parent before it runs: a check that times out inside it says how large it was and how long a row
# took (issue 31: a right sampler written for one row, called in a Python loop over thousands of rows).
LARGE_CALL_ROWS = 1000
_large_calls: list[dict] = []  # this case's large calls so far: {"name", "shape", "t"}


def timed(entry: Callable[..., Any], fd: int) -> Callable[..., Any]:
    """The entry point of a function kata, with its large calls timed (see LARGE_CALL_ROWS)."""
    def call(*args: Any, **kwargs: Any) -> Any:
        size = _leading(args, kwargs)
        if size is None:
            return entry(*args, **kwargs)
        send(fd, {"m": "call", "name": size[0], "shape": size[1]})
        started = time.perf_counter()
        try:
            return entry(*args, **kwargs)
        finally:
            _large_calls.append({"name": size[0], "shape": size[1], "t": time.perf_counter() - started})
    call.__wrapped__ = entry  # type: ignore[attr-defined] — a spec hook that looks at the learner's code finds it
    return call


def _leading(args: tuple, kwargs: dict) -> tuple[str, list[int]] | None:
    """(its name, or "" when passed by position; its shape) of the call's first tensor or array, when it has at least
    LARGE_CALL_ROWS rows."""
    for name, value in [("", a) for a in args] + list(kwargs.items()):
        if isinstance(value, (torch.Tensor, np.ndarray)):
            shape = [int(n) for n in value.shape]
            return (name, shape) if shape and shape[0] >= LARGE_CALL_ROWS else None
    return None


INDEX_BYTES = 2  # a case's number on a queue of cases


def queued(fd: int) -> Iterator[int]:
    """The numbers of the cases to run, taken one at a time from a pipe the parent filled before forking the
    children that share it (kata watch's spread re-check): whichever child is free takes the next case. A pipe
    read of a few bytes is atomic, so two children never take the same case, nor half of one."""
    while True:
        try:
            data = os.read(fd, INDEX_BYTES)
        except OSError:
            return
        if len(data) < INDEX_BYTES:
            return
        yield int.from_bytes(data, "little")


def refusal(error: dict[str, str] | None) -> dict[str, str] | None:
    """`error`, or the refusal the learner's code met since the last call (it takes precedence: the
    learner's code may have caught it and gone on)."""
    attempt = seal.take_attempt()
    if attempt is None:
        return error
    return {"type": "ImportError", "message": seal.attempt_message(attempt), "traceback": (error or {}).get("traceback", ""),
            "refused": "yes"}


def _raised_in(exc: BaseException, learner_path: Path | None) -> bool:
    """Whether `exc` was raised by a `raise` statement in the learner's file (the stub's), not by a
    library the learner's code called (torch raises NotImplementedError for an op a dtype lacks)."""
    tb = exc.__traceback__
    if tb is None or learner_path is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    if os.path.realpath(code.co_filename) != os.path.realpath(learner_path):
        return False
    return 0 <= tb.tb_lasti < len(code.co_code) and code.co_code[tb.tb_lasti] == dis.opmap["RAISE_VARARGS"]


# What a function that does nothing but raise compiles to (3.11 to 3.13): a docstring and `pass` add nothing.
_BARE_RAISE = frozenset({"RESUME", "NOP", "CACHE", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_CONST", "PUSH_NULL", "PRECALL",
                         "CALL", "RAISE_VARARGS"})


@functools.lru_cache(maxsize=64)
def stub_raises(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """The functions of a kata's stub (katas/<m>.py) that raise NotImplementedError, and their messages
    ("write kl_estimate"): read in the parent, before a child forks."""
    names, messages = set(), set()
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return frozenset(), frozenset()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            raised = node.exc if isinstance(node, ast.Raise) else None
            call = raised if isinstance(raised, ast.Call) else None
            target = call.func if call is not None else raised
            if isinstance(target, ast.Name) and target.id == "NotImplementedError":
                names.add(fn.name)
                if call is not None and call.args and isinstance(call.args[0], ast.Constant):
                    messages.add(str(call.args[0].value))
    return frozenset(names), frozenset(messages)


def _is_stub(exc: BaseException, learner_path: Path | None, stub: tuple[frozenset[str], frozenset[str]] | None) -> bool:
    """Whether the NotImplementedError is the untouched stub's, not one the learner's code raises on purpose
    (verl's `raise NotImplementedError(f"unknown kind {kind}")` for a kind it does not know): raised by the
    learner's file with the stub's message, or by one of the stub's functions whose body is still nothing but
    the raise."""
    if not _raised_in(exc, learner_path):
        return False
    if stub is None:
        return True
    names, messages = stub
    if _safe_str(exc) in messages:
        return True
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    ops = [i.opname for i in dis.get_instructions(code)]
    return code.co_name in names and set(ops) <= _BARE_RAISE and ops.count("RAISE_VARARGS") == 1


def _printed_so_far() -> int | None:
    """Where the captured output stands (its file offset), so the parent can tell which case printed what."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        return os.lseek(1, 0, os.SEEK_CUR)
    except (OSError, ValueError):
        return None


def encode_outcome(outcome: spec_api.Outcome, buffers: list[bytes]) -> dict:
    node = {"value": _safe_encode(outcome.value, buffers),
            "extras": {k: _safe_encode(v, buffers) for k, v in outcome.extras.items()}}
    if outcome.convention:
        node["convention"] = int(outcome.convention)
    return node


def _relaid(outcome: spec_api.Outcome) -> dict[str, list[str]]:
    """The inputs whose strides or offset the call changed (`t_`, `as_strided_`, `set_`): name -> [before, after]."""
    moved = {}
    for name, was in outcome.layout.items():
        t = outcome.args.get(name)
        if isinstance(t, torch.Tensor) and spec_api.layout(t) != was:
            moved[name] = [was, spec_api.layout(t)]
    return moved


def _safe_encode(value: Any, buffers: list[bytes]) -> Any:
    try:
        return codec.encode(value, buffers)
    except Exception:  # noqa: BLE001 — a value that cannot be encoded is reported as opaque
        return {"k": "other", "type": type(value).__name__, "repr": "<could not be read back>"}


def send(fd: int, header: dict) -> None:
    codec.write_message(fd, header, [])


def describe_error(exc: BaseException, learner_path: Path | None) -> dict[str, str]:
    if isinstance(exc, SystemExit):
        return {"type": "SystemExit", "message": tr("your code called sys.exit({code})", code=repr(exc.code)),
                "traceback": _frames(exc, learner_path)}
    message = _safe_str(exc)
    if isinstance(exc, MemoryError) or "can't allocate memory" in message or "not enough memory" in message:
        return {"type": "MemoryError", "message": tr("ran out of memory: it went past the memory limit for your code "
                                                     "(`kata check --memory-gb` raises it)"),
                "traceback": _frames(exc, learner_path)}
    return {"type": type(exc).__name__, "message": message + _known(message), "traceback": _frames(exc, learner_path)}


def _known(message: str) -> str:
    """What torch's message means in the learner's terms, for the errors interviews keep hitting."""
    if "without overflow" in message and ("Half" in message or "BFloat16" in message):
        return tr(" — a constant too large for a half-precision tensor, such as a fill of -1e9 (float16's largest value "
                  "is 65504): use torch.finfo(x.dtype).min")
    if ("same dtype" in message or "expected scalar type" in message or "but found" in message) and (
            "Half" in message or "BFloat16" in message):
        return tr(" — a float16/bfloat16 tensor met a float32 one: a tensor made without dtype= (torch.ones, torch.tensor, "
                  "a mask or a cache of another dtype) or a .float() result never cast back; make it with dtype=x.dtype, "
                  "or cast back with .to(x.dtype)")
    if " is out of bounds for dimension" in message and message.lstrip().startswith("index -"):
        return tr(" — a negative target such as ignore_index = -100 used as an index: rows whose target is "
                  "ignore_index must be masked before indexing (index with torch.where(keep, targets, 0), then "
                  "drop those rows)")
    if "Expected all tensors to be on the same device" in message:
        return tr(" — create tensors with device=x.device or torch.zeros_like(x), or move them with .to(x.device)")
    return ""


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)[:2000]
    except Exception:  # noqa: BLE001
        return f"<{type(exc).__name__} whose message cannot be printed>"


def _frames(exc: BaseException, learner_path: Path | None) -> str:
    """The traceback cut to the learner's own frames (kata's and torch's frames are noise)."""
    try:
        # Lines are read only for the frames shown: reading kata's own sources here would cache them where
        # the learner's next case could look.
        frames = traceback.StackSummary.extract(traceback.walk_tb(exc.__traceback__), lookup_lines=False)
        if learner_path is not None:
            target = os.path.realpath(learner_path)
            frames = [f for f in frames if os.path.realpath(f.filename) == target]  # the path may be relative
        else:
            frames = list(frames)[-3:]
        shown = "".join(traceback.format_list(frames))[-3000:]
        said = "".join(traceback.format_exception_only(type(exc), exc))
        # torch's messages run to thousands of characters (every backend an op lacks): cut the message,
        # never the learner's own lines above it.
        return shown + (said if len(said) <= 1000 else said[:1000].rstrip() + " …\n")
    except Exception:  # noqa: BLE001
        return ""


def child_main(fd: int, body: Callable[[], None]) -> None:
    """Run `body` in a forked child and leave without running the parent's cleanup."""
    try:
        body()
    except BaseException as exc:  # noqa: BLE001 — whatever happens, the parent hears of it
        try:
            send(fd, {"m": "fatal", "error": describe_error(exc, None)})
        except Exception:  # noqa: BLE001
            pass
    finally:
        os._exit(0)
