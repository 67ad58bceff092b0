"""`kata watch`: re-check the learner's file each time it is saved, with a warm checker.

The watcher imports torch and the kata's spec once; every re-check then costs only the forks
and the cases (checker.engine forks the learner's and the reference's children after torch is
imported), so a save shows its verdict in a fraction of a second. The learner's code never runs
in this process: a hang or a crash ends a child, the report says so, and the next save re-checks.

Saves are noticed two ways: file events (watchfiles, on the file's directory, so editors that
save by renaming a temporary file are seen) and a stat poll on every turn of the loop, which is
what remains when events are unreliable (network or container file systems) or watchfiles fails.

Keys come from a `KeyReader` over a file descriptor: the terminal in cbreak mode, or a pipe in
tests and scripts. torch is imported only when a `Watcher` is built, never at import time.
"""
from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import random
import selectors
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from checker import commands
from checker.catalog import Kata
from checker.errors import KATA_FAILED, OK, KataError
from checker.state import Event, Store

POLL_SECONDS = 0.25  # the stat poll: the longest a save can go unnoticed without file events
SETTLE_SECONDS = 0.02  # a save is checked once the file has stopped changing for this long
QUIT_KEYS = ("q", "\x04")  # q, or Ctrl-D
Signature = tuple[int, int, int]  # (mtime_ns, size, inode)


# ---------------------------------------------------------------- keys


class KeyReader:
    """Single key presses from a file descriptor.

    On a terminal the descriptor is put in cbreak mode (keys arrive without Enter, Ctrl-C still
    interrupts) and restored on exit. On a pipe, bytes are read as they come; at end of input the
    reader goes quiet and watching goes on.
    """

    def __init__(self, fd: int | None):
        self.fd = fd
        self.closed = fd is None
        self._saved: Any = None

    @classmethod
    def from_stdin(cls) -> "KeyReader":
        try:
            return cls(sys.stdin.fileno())
        except (AttributeError, ValueError, OSError):  # no real stdin (embedded, CliRunner)
            return cls(None)

    def __enter__(self) -> "KeyReader":
        if self.fd is not None and os.isatty(self.fd):
            import termios
            import tty

            try:
                self._saved = termios.tcgetattr(self.fd)
                tty.setcbreak(self.fd)
            except termios.error:
                self._saved = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def read(self) -> list[str]:
        """The keys waiting now (call when the descriptor is readable); [] at end of input."""
        if self.closed:
            return []
        try:
            data = os.read(self.fd, 256)
        except (BlockingIOError, InterruptedError):
            return []
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return []
        return [ch.lower() for ch in data.decode("utf-8", "replace") if not ch.isspace()]


# ---------------------------------------------------------------- saves


def signature(path: Path) -> Signature | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class FileWatch:
    """Tells when a file has changed: file events when they work, a stat poll always.

    `wake_fd` becomes readable when watchfiles reports an event for the file; `changed()` is the
    single source of truth (it compares the file's signature with the last one checked), so a
    missed, duplicated or spurious event can delay a re-check by at most `POLL_SECONDS`.
    """

    def __init__(self, path: Path, events: bool = True):
        self.path = path
        self.seen: Signature | None = None
        self.mode = "polling"
        self.problem: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.wake_fd, self._wake_w = os.pipe()
        os.set_blocking(self.wake_fd, False)
        if events:
            self._start_events()

    def _start_events(self) -> None:
        try:
            import watchfiles  # noqa: F401 — fail here, not in the thread, when it is missing
        except ImportError as exc:
            self.problem = f"file events unavailable ({exc}); polling"
            return
        self.mode = "events"
        self._thread = threading.Thread(target=self._events, name="kata-watch-events", daemon=True)
        self._thread.start()

    def _events(self) -> None:
        import watchfiles

        name = self.path.name
        try:
            for _ in watchfiles.watch(self.path.parent, watch_filter=lambda _c, p: os.path.basename(p) == name,
                                      stop_event=self._stop, step=10, debounce=200, rust_timeout=1000,
                                      recursive=False, raise_interrupt=False):
                self._wake()
        except Exception as exc:  # noqa: BLE001 — any failure of the event source leaves polling
            if not self._stop.is_set():
                self.mode, self.problem = "polling", f"file events stopped ({type(exc).__name__}: {exc}); polling"
                self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    def drain(self) -> None:
        try:
            while os.read(self.wake_fd, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def changed(self) -> Signature | None:
        """The file's new signature once it differs from the last checked one and has settled."""
        now = signature(self.path)
        if now is None or now == self.seen:
            return None
        while True:  # an editor may still be writing: wait until two looks agree
            time.sleep(SETTLE_SECONDS)
            again = signature(self.path)
            if again is None:
                return None
            if again == now:
                return now
            now = again

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for fd in (self.wake_fd, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


# ---------------------------------------------------------------- the warm checker


def warm_up(kata: Kata, spec: Any, cases: int = 200) -> None:
    """Run the reference (and the known mistakes) over one seed's cases in this process, once.

    torch loads much of itself on first use: lazily imported modules, decompositions, kernel
    registrations. A forked child pays that again on every check unless the parent already has,
    so the watcher pays it once here. Only the kata's own trusted code runs; its outputs are thrown away, and
    sys.path, sys.modules and torch's random state are left as they were. Always on the CPU:
    CUDA initialised in the parent could not be used by the forked children.
    """
    import torch

    from checker import spec as spec_api

    module_spec = importlib.util.spec_from_file_location(f"kata_warm_{kata.module}", kata.reference_path)
    module = importlib.util.module_from_spec(module_spec)
    saved_path = list(sys.path)
    try:
        module_spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved_path
    entry = getattr(module, kata.entry)
    expected = getattr(spec, "expected", None)
    call = getattr(spec, "call", spec_api.call)
    variants = [m.fn for m in getattr(spec, "MISTAKES", ())]
    with torch.random.fork_rng(devices=[]):
        for i, case in enumerate(spec_api.build_cases(spec, 1)[:cases]):
            on = torch.device("cpu")
            runs = [lambda: call(kata, entry, case.inputs, on, track_device=case.family.track_device)]
            runs += [lambda: expected(kata, entry, case.inputs, on)] if expected else []
            runs += [lambda fn=fn: call(kata, fn, case.inputs, on) for fn in variants] if i < 8 else []
            for run in runs:
                try:
                    run()
                except Exception:  # noqa: BLE001 — a variant may raise on a case; warming is best effort
                    pass


# ---------------------------------------------------------------- the loop


@dataclass
class Interview:
    """A running interview as the watcher sees it: a deadline, and stop at the first pass."""

    id: str
    deadline: float
    started: float


@dataclass
class Watcher:
    """Re-check `path` on every save and redraw; `h` next hint, `r` re-run with a new seed, `q` quit."""

    kata: Kata
    path: Path
    store: Store
    console: Console
    keys: KeyReader
    device: str = "auto"
    seed: int | None = None
    seconds: float = 10.0
    memory_gb: float = 4.0
    events: bool = True
    interview: Interview | None = None
    clock: Callable[[], float] = time.time
    result: Any = None  # the latest CheckResult
    checks: int = 0
    hints: list[str] = field(default_factory=list)
    outcome: str | None = None  # pass | timeout | quit, once the loop has ended
    _status_shown: str = ""

    def __post_init__(self) -> None:
        from checker import engine  # the warm checker: torch and the spec are imported once, here
        from checker.worker import MiB, Limits

        self._engine = engine
        # The parent only draws cases and compares small tensors: one intra-op thread keeps OpenMP's
        # spinning workers from competing with the learner's and the reference's children for the cores.
        engine.torch.set_num_threads(1)
        engine.resolve_device(self.device)  # a bad --device is a usage error before anything is drawn
        warm_up(self.kata, importlib.import_module(self.kata.spec_module))
        # What is alive now lives as long as the watcher: keep the children's garbage collector off
        # it, so they neither walk it nor copy its pages on write (the gc docs' advice before fork).
        gc.collect()
        gc.freeze()
        self.limits = Limits(seconds=self.seconds, memory_bytes=int(self.memory_gb * 1024 * MiB))
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(1, 100_000)
        self.files = FileWatch(self.path, events=self.events)

    # ------------------------------------------------------------ checking

    def recheck(self, new_seed: bool = False) -> Any:
        """Check the file now, record it, redraw. Never raises for the learner's faults."""
        if new_seed:
            self.seed = random.SystemRandom().randrange(1, 100_000)
        self.files.seen = signature(self.path)
        request = self._engine.Request(self.kata, self.path, device=self.device, seed=self.seed, limits=self.limits)
        try:
            self.result = self._engine.check(request)
        except KataError as exc:
            self.result = None
            self.draw(Text(f"kata: {exc.message}", style="bold red"))
            return None
        except Exception as exc:  # noqa: BLE001 — the checker's own failure must not end watching
            self.result = None
            self.draw(Text(f"kata's checker failed: {type(exc).__name__}: {exc}\nSave again to retry.", style="bold red"))
            return None
        self.checks += 1
        r = self.result
        self.draw()  # the verdict first; the history write (an fsync) after
        self.store.record(Event(r.kata, "check", self.clock(), verdict=r.status.value,
                                passed=sum(c.status.value == "pass" for c in r.cases), total=len(r.cases),
                                seconds=r.seconds, detail=f"seed {r.seed}; watch"))
        return r

    def next_hint(self) -> None:
        number, text = commands.next_hint(self.kata, self.store)
        self.hints.append(f"Hint {number}/{len(self.kata.hints)}: {text}")
        self.draw()

    # ------------------------------------------------------------ drawing

    def draw(self, body: RenderableType | None = None) -> None:
        from checker.render import report

        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print(Rule(style="dim"))
        parts: list[RenderableType] = [Text(f"kata watch · {self.path.name} · {time.strftime('%H:%M:%S')}", style="dim")]
        if body is not None:
            parts.append(body)
        elif self.result is not None:
            parts.append(report(self.result))
        for hint in self.hints:
            parts.append(Text(hint, style="cyan"))
        if self.files.problem:
            parts.append(Text(self.files.problem, style="dim"))
        for warning in dict.fromkeys(self.store.warnings):
            parts.append(Text(f"warning: {warning}", style="yellow"))
        self.console.print(Group(*parts))
        self._status_shown = ""
        self.status(force=True)

    def status(self, force: bool = False) -> None:
        """The bottom line: what is watched, the keys, and the countdown in an interview."""
        line = f"watching {self.path.name} (seed {self.seed}) · save to re-check · h hint · r re-run · q quit"
        if self.interview is not None:
            left = max(0.0, self.interview.deadline - self.clock())
            line = f"⏱ {int(left // 60):02d}:{int(left % 60):02d} left · " + line
        if line == self._status_shown and not force:
            return
        if self.console.is_terminal:
            self.console.file.write("\r\x1b[2K" + line)
            self.console.file.flush()
        elif force:
            self.console.print(line, markup=False, highlight=False)
        self._status_shown = line

    # ------------------------------------------------------------ the loop

    def step(self, timeout: float = POLL_SECONDS) -> str | None:
        """One turn: wait for a key, a file event or the poll; act on it. Returns the outcome once done."""
        selector = selectors.DefaultSelector()
        try:
            selector.register(self.files.wake_fd, selectors.EVENT_READ, "file")
            if not self.keys.closed:
                try:
                    selector.register(self.keys.fd, selectors.EVENT_READ, "keys")
                except (OSError, ValueError):  # e.g. stdin is /dev/null or a regular file: no keys
                    self.keys.closed = True
            ready = {key.data for key, _ in selector.select(self._wait(timeout))}
        finally:
            selector.close()
        if "file" in ready:
            self.files.drain()
        for key in self.keys.read() if "keys" in ready else []:
            if key in QUIT_KEYS:
                return self._end("quit")
            if key == "h":
                self.next_hint()
            elif key == "r":
                self.recheck(new_seed=True)
                if self._passed_interview():
                    return self._end("pass")
        if self.files.changed() is not None:
            self.recheck()
            if self._passed_interview():
                return self._end("pass")
        if self.interview is not None and self.clock() >= self.interview.deadline:
            return self._end("timeout")
        self.status()
        return None

    def _wait(self, timeout: float) -> float:
        if self.interview is None:
            return timeout
        return max(0.0, min(timeout, self.interview.deadline - self.clock()))

    def _passed_interview(self) -> bool:
        return self.interview is not None and self.result is not None and self.result.passed

    def _end(self, outcome: str) -> str:
        self.outcome = outcome
        return outcome

    def run(self) -> str:
        """Check once, then until q (or, in an interview, a pass or the deadline); Ctrl-C quits too."""
        try:
            with self.keys:
                if self.interview is None:
                    self.recheck()
                else:  # the file is the stub just written: wait for the first save
                    self.files.seen = signature(self.path)
                    self.draw(Text(f"Write {self.kata.entry} in {self.path.name} and save it: each save is checked.",
                                   style="bold"))
                while (outcome := self.step()) is None:
                    pass
                return outcome
        except KeyboardInterrupt:
            return self._end("quit")
        finally:
            self.files.close()
            if self.console.is_terminal:
                self.console.file.write("\n")


def watch(kata: Kata, path: Path, store: Store, console: Console, *, device: str = "auto", seed: int | None = None,
          seconds: float = 10.0, memory_gb: float = 4.0, poll: bool = False) -> int:
    """`kata watch`: returns the exit code (0 when the last check passed)."""
    if seconds <= 0 or memory_gb <= 0:
        raise KataError("--timeout and --memory-gb must be positive.")
    if not path.is_file():
        raise KataError(f"No file at {path}. Run 'kata start {kata.id}' first, or give the file's path.")
    commands.remember(store, kata, path)
    watcher = Watcher(kata, path, store, console, KeyReader.from_stdin(), device=device, seed=seed,
                      seconds=seconds, memory_gb=memory_gb, events=not poll)
    watcher.run()
    return OK if watcher.result is not None and watcher.result.passed else KATA_FAILED


def interview(store: Store, console: Console, *, minutes: float = 30.0, topic: str | None = None,
              directory: Path = Path("."), device: str = "auto", seconds: float = 10.0, poll: bool = False,
              now: float | None = None) -> int:
    """`kata interview`: pick a kata not mastered, write its stub, watch it against the clock."""
    from checker import catalog, practice

    kata, why = practice.pick_for_interview(store.events(), topic, now)
    running = practice.begin_interview(kata, store, directory, minutes, now)
    path = Path(running["path"])
    console.print(f"[bold]Interview:[/] {kata.id} — {kata.title} ({kata.difficulty}; {why}).")
    console.print(f"Wrote [bold]{path}[/]" + (f" (your previous file is kept as {running['saved']})" if running["saved"] else "")
                  + f". You have {minutes:g} minutes: write [bold]{kata.entry}[/] and save; each save is checked.")
    watcher = Watcher(catalog.get(kata.id), path, store, console, KeyReader.from_stdin(), device=device,
                      seconds=seconds, events=not poll,
                      interview=Interview(running["id"], running["deadline"], running["started"]))
    outcome = watcher.run()
    took = practice.end_interview(store, running, outcome)
    used = practice.interview_summary(store.events(kata.id), running["id"])
    helped = f"{used['hint']} hint(s), {used['reveal']} reveal(s), {used['check']} check(s)"
    if outcome == "pass":
        console.print(f"[bold green]Passed {kata.id} in {practice.duration(took)}[/] ({helped}).")
        return OK
    if outcome == "timeout":
        console.print(f"[bold red]Time's up[/] after {minutes:g} minutes ({helped}). "
                      f"Keep going with 'kata watch {path.name}', or see the answer with 'kata reveal {kata.id} --diff'.")
    else:
        console.print(f"Interview stopped after {practice.duration(took)} ({helped}); it is recorded as not passed.")
    return KATA_FAILED
