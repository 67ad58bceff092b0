"""`kata check` run as a program imports torch in a second process from its first moment.

A cold check used to do one thing after another: start Python, import typer and rich, parse the command
line, find the file, read it, and only then import torch (1.5-2 s, most of the check), run the learner's
file and render the report. torch's import does not depend on any of the steps before it. So `cli`,
before it imports typer, forks a worker that imports the engine (and torch with it) while the first
process imports typer, parses and finds the file on the other core. The first process then sends the
worker the request, the worker checks (its own children run the learner's file, as the engine always
did), sends back the result (plain data: checker.judge.results holds no tensors) and exits, and the first
process records and renders it as before. What the learner waits for is the longer of the two paths
(torch's), not their sum: 0.15-0.25 s less on every check.

The fork happens while the first process has only the standard library loaded (no threads, no torch), so
it is as safe as the engine's own forks. When the check needs no torch after all (`--help`, a usage error,
a file that cannot run: `checking.prejudge`), the worker is killed, still importing, before kata exits.

Only a program whose first argument is `check` forks (cli.py, the `kata` console script); `KATA_PREFORK=0`
turns it off. Anything else (tests calling the engine, `kata watch`, drills) checks in its own process.
"""
from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import traceback
from typing import Any

_worker: tuple[int, int, int] | None = None  # (pid, request pipe's write end, result pipe's read end)


def wanted(argv: list[str]) -> bool:
    """Is `argv` (sys.argv) `kata check …` run as a program, asking for a check (not its help)?"""
    if os.environ.get("KATA_PREFORK", "1") == "0" or not hasattr(os, "fork") or "_KATA_COMPLETE" in os.environ:
        return False
    if os.path.basename(argv[0]) not in ("kata", "cli.py"):
        return False
    words, rest = [], iter(argv[1:])
    for word in rest:
        if word == "--lang":
            next(rest, None)  # its value is no command
        elif not word.startswith("--lang="):
            words.append(word)
    return words[:1] == ["check"] and "--help" not in words and "-h" not in words


def start() -> None:
    """Fork the worker; it imports the engine and waits for one request."""
    global _worker
    if _worker is not None:
        return
    requests_r, requests_w = os.pipe()
    results_r, results_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process to spare: the check runs here, as it always could
        for fd in (requests_r, requests_w, results_r, results_w):
            os.close(fd)
        return
    if pid == 0:
        os.close(requests_w)
        os.close(results_r)
        code = 0
        try:
            _serve(requests_r, results_w)
        except BaseException:  # noqa: BLE001 — interrupted, or the first process went away: nothing to say
            code = 1
        finally:
            os._exit(code)
    os.close(requests_r)
    os.close(results_w)
    _worker = (pid, requests_w, results_r)
    import atexit

    atexit.register(stop)


def stop() -> None:
    """End a worker that was never asked (kata exits without a check): it is still importing torch."""
    global _worker
    if _worker is None:
        return
    pid, requests_w, results_r = _worker
    _worker = None
    for fd in (requests_w, results_r):
        _close(fd)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def check(request: dict[str, Any]) -> Any:
    """The engine's CheckResult for `request` (kata, path, device, seed, case, timeout, memory_gb, bench: a file
    `checking.prejudge` passed), from the worker when one was started, else from this process."""
    global _worker
    if _worker is None:
        return _run(request)
    from checker.text import i18n

    pid, requests_w, results_r = _worker
    _worker = None
    try:
        try:
            _write(requests_w, pickle.dumps((request, i18n.current()), protocol=pickle.HIGHEST_PROTOCOL))
        except BrokenPipeError:
            pass  # it has ended already: said below, from how it ended (not taken for a closed stdout)
        finally:
            os.close(requests_w)
        answer = _read(results_r)
    except BaseException:
        _end(pid)
        raise
    finally:
        os.close(results_r)
    _, status = os.waitpid(pid, 0)
    if not answer:
        raise RuntimeError(f"kata's checking process ended without an answer ({_said(status)})")
    kind, payload = pickle.loads(answer)
    if kind == "result":
        return payload
    if kind == "kata":
        from checker.errors import KataError

        raise KataError(*payload)
    name, message, trace = payload
    if os.environ.get("KATA_DEBUG"):
        sys.stderr.write(trace)
    raise type(name, (RuntimeError,), {})(message)


def _serve(requests_r: int, results_w: int) -> None:
    # Ctrl-C stops the check as it stops the first process (started with it ignored, as a background job is,
    # the first process turns it back on later; this one must too, or its learner's child outlives it).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    failed = None
    try:
        from checker.judge import check  # noqa: F401 — torch, while the first process parses the command line
    except Exception as exc:  # noqa: BLE001 — a broken torch: said when a check is asked for, as it would be there
        failed = _error(exc)
    # What the imports made lives as long as this one-check process: out of the collector's sight, so the first
    # full collection of the check (set off by the next few thousand allocations, whatever makes them) does not walk
    # torch's whole heap (36 ms on the critical path of every cold check; 0.8 ms frozen). The children forked later
    # inherit the frozen generation (the gc docs' advice before fork; checker.judge.engine freezes again there).
    gc.freeze()
    data = _read(requests_r)
    if not data:
        return  # the first process needed no check
    request, lang = pickle.loads(data)
    answer = failed
    if answer is None:
        from checker.text import i18n
        from checker.errors import KataError

        try:
            i18n.use(lang)
            answer = ("result", _run(request))
        except KataError as exc:
            answer = ("kata", (exc.message, exc.exit_code))
        except Exception as exc:  # noqa: BLE001 — sent back, raised there as the in-process check would raise it
            answer = _error(exc)
    _write(results_w, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))


def _error(exc: Exception) -> tuple:
    return ("error", (type(exc).__name__, str(exc), traceback.format_exc()))


def _run(request: dict[str, Any]) -> Any:
    from checker.judge import Limits, MiB, Request, check

    fields = dict(request)
    limits = Limits(seconds=fields.pop("timeout"), memory_bytes=int(fields.pop("memory_gb") * 1024 * MiB))
    return check(Request(**fields, limits=limits, inspected=True))


def _end(pid: int) -> None:
    """Stop a worker in the middle of a check (Ctrl-C): it stops the learner's children, then exits. Ctrl-C at a
    terminal reached it too; otherwise it is asked with the same signal, and killed if it does not end."""
    import time

    try:
        for sig, seconds in ((None, 0.5), (signal.SIGINT, 3.0), (signal.SIGKILL, None)):
            if sig is not None:
                os.kill(pid, sig)
            if seconds is None:
                os.waitpid(pid, 0)
                return
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    return
                time.sleep(0.01)
    except (ProcessLookupError, ChildProcessError):
        pass


def _said(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _write(fd: int, data: bytes) -> None:
    """One message: its length, then its bytes (no end of file needed: a child may hold the pipe open)."""
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read(fd: int) -> bytes:
    """One message, or b"" when the other side closed the pipe without sending one."""
    head = _exactly(fd, 8)
    return _exactly(fd, int.from_bytes(head, "little")) if len(head) == 8 else b""


def _exactly(fd: int, n: int) -> bytes:
    chunks, left = [], n
    while left and (chunk := os.read(fd, min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass
