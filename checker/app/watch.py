"""`kata watch`: re-check the learner's file each time it is saved, with a warm checker.

The watcher imports torch and the kata's spec once; every re-check then costs only the forks
and the cases (checker.judge.engine forks the learner's and the reference's children after torch is
imported), so a save shows its verdict in a fraction of a second. The learner's code never runs
in this process: a hang or a crash ends a child, the report says so, and the next save re-checks.

Saves are noticed two ways: file events (watchfiles, on the file's directory, so editors that
save by renaming a temporary file are seen) and a stat poll on every turn of the loop, which is
what remains when events are unreliable (network or container file systems) or watchfiles fails.

Keys come from a `KeyReader` over a file descriptor: the terminal in cbreak mode, or a pipe in
tests and scripts. torch is imported only when a `Watcher` is built, never at import time.
"""
from __future__ import annotations

import os
import random
import selectors
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from checker.app import commands
from checker.text.catalog import Kata
from checker.errors import KATA_FAILED, OK, KataError
from checker.text.i18n import plural, tr
from checker.app.state import Store

POLL_SECONDS = 0.25  # the stat poll: the longest a save can go unnoticed without file events
# A verdict is shown once the file has stood still for the whole check, and for at least this long: an editor
# may still be writing. The check starts at once; a file that changed meanwhile is checked again.
SETTLE_SECONDS = 0.02
SETTLE_TRIES = 20  # checks of a file that keeps changing before its latest verdict is shown anyway
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
                tty.setcbreak(self.fd, termios.TCSADRAIN)  # not TCSAFLUSH: a key pressed a moment ago is kept
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
            self.problem = tr("file events unavailable ({why}); polling", why=exc)
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
                self.mode, self.problem = "polling", tr("file events stopped ({type}: {why}); polling",
                                                        type=type(exc).__name__, why=exc)
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
        """The file's new signature when it differs from the last checked one (None: unchanged, or no file just
        now, as in the middle of a save that renames a new file over it). Whether it has settled is the check's
        to see: `Watcher.recheck`."""
        now = signature(self.path)
        if now is None or now == self.seen:
            return None
        return now

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for fd in (self.wake_fd, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass


# ---------------------------------------------------------------- fitting the screen


FIRST_LINES = 5  # of the first failure when the screen is short: its border, what the case is, the first ✗ (2)


def screen_size(console: Console) -> tuple[int, int]:
    """The terminal's real (width, height): rich's console believes LINES and COLUMNS when they are set, and a
    stale LINES exported by a shell would let the report scroll its verdict off a shorter screen."""
    try:
        size = os.get_terminal_size(console.file.fileno())
    except (AttributeError, ValueError, OSError):
        return console.width, console.height
    return (size.columns or console.width), (size.lines or console.height)


def fit(console: Console, top: list[RenderableType], middle: list[RenderableType], bottom: list[RenderableType],
        height: int, *, brief: list[RenderableType] | None = None, whole: str | None = None, context: int = 0,
        spare: int = 0, width: int | None = None) -> RenderableType:
    """top, middle and bottom in `height` lines of `width` cells. The verdict, the mistake it looks like (the
    end of `top`) and the first failing item always show; when the whole does not fit, the middle is cut after
    its first part (the first failure) or, when even that is too tall, gives way to `brief` (the first failure,
    shorter; cropped if it must be), and one line says how to see the rest (with
    `whole`, the command that prints it). On a very short screen the first `context` parts of `top` (the
    header) and then the first `spare` parts of `bottom` (the reproduce line: `whole` says as much) go too."""
    from rich.segment import Segment

    options = console.options if width is None else console.options.update_width(width)

    def render(parts: list[RenderableType], height: int | None = None) -> list[list[Segment]]:
        if not parts:
            return []
        shown = parts[0] if len(parts) == 1 else Group(*parts)  # a lone panel, given a height, keeps its border
        return console.render_lines(shown, options if height is None else options.update(height=height), pad=False)

    lines = {"top": render(top), "middle": render(middle), "bottom": render(bottom)}
    every = lines["top"] + lines["middle"] + lines["bottom"]
    if len(every) > height:
        small = render(brief) if brief else lines["middle"]
        least = min(len(small), FIRST_LINES)

        def note(hidden: int) -> list[list[Segment]]:
            if whole:
                said = tr("… {n} more lines: `{command}` shows the whole report", n=hidden, command=whole)
            else:
                said = tr("… {n} more lines: a taller terminal, or `kata check` in another, shows them", n=hidden)
            return render([_styled(said, "dim")])

        notes = note(len(lines["middle"]))
        if height - len(lines["top"]) - len(lines["bottom"]) - len(notes) < least and context:
            lines["top"] = render(top[context:])
        if height - len(lines["top"]) - len(lines["bottom"]) - len(notes) < least and spare:
            lines["bottom"] = render(bottom[spare:])
        room = max(height - len(lines["top"]) - len(lines["bottom"]) - len(notes), 0)
        if brief and middle and len(render(middle[:1])) <= room:  # the first failure whole, inputs too, and more
            shown = lines["middle"][:room]
        else:
            shown = small if len(small) <= room else (render(brief, room) if brief and room >= 3 else small[:room])
        every = lines["top"] + shown + note(max(len(lines["middle"]) - len(shown), 1)) + lines["bottom"]

    class _Lines:
        def __rich_console__(self, _console: Console, _options: Any):
            for line in every[:max(height, 1)]:
                yield from line
                yield Segment.line()

    return _Lines()


def _folding(part: RenderableType) -> RenderableType:
    """A command printed on one unwrapped line (for copy-paste) would be cropped by the screen: fold it instead."""
    if isinstance(part, Text) and part.no_wrap:
        part = part.copy()
        part.no_wrap, part.overflow = False, "fold"
    return part


def _styled(message: str, style: str) -> Text:
    from checker.app.views import say

    return say(message, style)


def status_line(parts: list[str], width: int) -> str:
    """Parts joined by ' · ', the last ones dropped (then the rest cut) so the line fits in `width` cells."""
    from rich.cells import cell_len, set_cell_size

    while len(parts) > 1 and cell_len(" · ".join(parts)) > width:
        parts = parts[:-1]
    line = " · ".join(parts)
    return set_cell_size(line, width).rstrip() if cell_len(line) > width else line


def elide(name: str, width: int) -> str:
    """A file name in at most `width` cells, its middle replaced by "…" (its start and its .py stay)."""
    from rich.cells import cell_len

    if cell_len(name) <= width:
        return name
    _, dot, ext = name.rpartition(".")
    tail = dot + ext if dot and cell_len(dot + ext) + 2 <= width else ""
    head = name[:len(name) - len(tail)]
    while head and cell_len(head + "…" + tail) > width:
        head = head[:-1]
    return head + "…" + tail


def watch_status(file: str, seed: int | None, width: int, left: str | None = None) -> str:
    """The watch's bottom line in `width` cells. The key legend is what a newcomer cannot guess (that r draws a
    new seed least of all), so the other parts shorten first: the seed goes, "save to re-check" shortens, the
    file name is elided, then "save" and the file go; then the legend shortens, and only on a screen narrower
    than the short legend is the line cut."""
    from rich.cells import cell_len

    clock = [left] if left is not None else []
    tries = [[tr("watching {file} (seed {seed})", file=file, seed=seed), tr("save to re-check")],
             [tr("watching {file}", file=file), tr("save to re-check")],
             [tr("watching {file}", file=file), tr("save → check")],
             [file, tr("save → check")],
             [file]]
    short = tr("h hint · r re-run · q quit")
    for keys in (tr("h hint · r re-run, new seed · q quit"), short):
        for middle in tries:
            line = " · ".join(clock + middle + [keys])
            if cell_len(line) <= width:
                return line
        room = width - cell_len(" · ".join(clock + ["", keys]))
        if room >= 8:
            return " · ".join(clock + [elide(file, room), keys])
    return status_line(clock + [short], width)


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
    result: Any = None  # the latest CheckResult, as the report shows it
    checked: Any = None  # the latest checking.Checked
    prompt: str | None = None  # what an interview says before the first save (default: write the entry point)
    checks: int = 0
    hints: list[RenderableType] = field(default_factory=list)
    outcome: str | None = None  # pass | timeout | quit, once the loop has ended
    session: str = field(default_factory=lambda: uuid.uuid4().hex[:8])  # counts as one check in `kata stats`
    _status_shown: str = ""

    def __post_init__(self) -> None:
        from checker.judge import Limits, MiB, warm_up  # the warm checker: torch and the spec are imported once, here

        warm_up(self.kata, self.device)  # a bad --device is a usage error before anything is drawn
        self.limits = Limits(seconds=self.seconds, memory_bytes=int(self.memory_gb * 1024 * MiB))
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(1, 100_000)
        self.files = FileWatch(self.path, events=self.events)

    # ------------------------------------------------------------ checking

    def recheck(self, new_seed: bool = False) -> Any:
        """Check the file now, redraw, record it. Never raises for the learner's faults."""
        from checker.app import checking

        if new_seed:
            self.seed = random.SystemRandom().randrange(1, 100_000)
        self.hints = []  # a hint answers the verdict it was asked under: the next verdict clears it
        for _ in range(SETTLE_TRIES):
            started, self.files.seen = time.monotonic(), signature(self.path)
            failure: Exception | None = None
            try:
                checked = checking.check(self.kata, self.path, self.store, device=self.device, seed=self.seed,
                                         timeout=self.seconds, memory_gb=self.memory_gb, session=self.session,
                                         record=False, spread=True)
            except Exception as exc:  # noqa: BLE001 — said below; the checker's own failure must not end watching
                failure = exc
            time.sleep(max(0.0, SETTLE_SECONDS - (time.monotonic() - started)))
            if signature(self.path) == self.files.seen:
                break  # what was checked is what stands on disk: an editor that was still writing changed it
        if isinstance(failure, KataError):
            self.result = None
            self.draw(Text(tr("kata: {message}", message=failure.message), style="bold red"))
            return None
        if failure is not None:
            self.result = None
            self.draw(Text(tr("kata's checker failed: {type}: {message}\nSave again to retry.", type=type(failure).__name__,
                              message=failure), style="bold red"))
            return None
        self.checks += 1
        self.checked, self.result = checked, checking.shown(checked)  # a drill's report does not name its mistake
        self.draw()  # the verdict first; the history write (an fsync) after
        checking.record(self.store, checked)
        return checked.result

    def next_hint(self) -> None:
        from checker.app import drilling

        # a drill has its own ladder; `watching`: before any check it says to press r, not to run kata check
        self.hints.append(drilling.next_hint(self.kata, self.path, self.store, watching=True))
        self.draw()

    # ------------------------------------------------------------ drawing

    def draw(self, body: RenderableType | None = None) -> None:
        """Redraw the screen: the report, cropped in its middle to fit the terminal, hints, the status line."""
        from checker.app.render import report

        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print(Rule(style="dim"))
        from checker.app.render import brief, whole_command

        top: list[RenderableType] = [Text(f"kata watch · {self.path.name} · {time.strftime('%H:%M:%S')}", style="dim")]
        middle: list[RenderableType] = []
        bottom: list[RenderableType] = []
        short: dict[str, Any] = {"context": 1}  # what fit() may leave out on a short screen
        if body is not None:
            middle.append(body)
        elif self.result is not None:
            parts = report(self.result, after=self._after())
            top += parts.top
            middle += parts.body
            bottom += [_folding(part) for part in parts.bottom]
            if not self.result.passed:
                short = {"brief": brief(self.result), "whole": whole_command(self.result), "context": 2,
                         "spare": len(parts.bottom)}  # the header; the reproduce line (`whole` says as much)
        bottom += self.hints[-2:]
        if self.files.problem:
            bottom.append(Text(self.files.problem, style="dim"))
        for warning in dict.fromkeys(self.store.warnings):
            bottom.append(Text(tr("warning: {warning}", warning=warning), style="yellow"))
        if self.console.is_terminal:
            width, height = screen_size(self.console)
            self.console.print(fit(self.console, top, middle, bottom, height - 1, width=width, **short))
        else:
            self.console.print(Group(*top, *middle, *bottom))
        self._status_shown = ""
        self.status(force=True)

    def _after(self) -> RenderableType | None:
        if self.checked is None or self.interview is not None:
            return None
        from checker.app.checking import after

        return after(self.checked, self.store)

    def status(self, force: bool = False) -> None:
        """The bottom line: the countdown in an interview, what is watched, the keys — cut to the terminal's
        width, so that redrawing it every second never leaves a wrapped line behind."""
        left = None
        if self.interview is not None:
            seconds = max(0.0, self.interview.deadline - self.clock())
            left = tr("{time} left", time=f"{int(seconds // 60):02d}:{int(seconds % 60):02d}")
        line = watch_status(self.path.name, self.seed, screen_size(self.console)[0] - 1, left)
        if line == self._status_shown and not force:
            return
        if self.console.is_terminal:
            self.console.file.write("\r\x1b[2K" + line)
            self.console.file.flush()
        elif force:
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
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
                    self.draw(Text(self.prompt or tr("Write {entry} in {file} and save it: each save is checked.",
                                                     entry=self.kata.entry, file=self.path.name), style="bold"))
                while (outcome := self.step()) is None:
                    pass
                return outcome
        except KeyboardInterrupt:
            return self._end("quit")
        finally:
            self.files.close()
            if self.console.is_terminal:  # the countdown and the keys are over: what is printed next takes their line
                self.console.file.write("\r\x1b[2K")
                self.console.file.flush()


def watch(kata: Kata, path: Path, store: Store, console: Console, *, device: str = "auto", seed: int | None = None,
          seconds: float = 10.0, memory_gb: float = 4.0, poll: bool = False) -> int:
    """`kata watch`: returns the exit code (0 when the last check passed)."""
    if seconds <= 0 or memory_gb <= 0:
        raise KataError(tr("--timeout and --memory-gb must be positive."))
    if not path.is_file():
        raise KataError(tr("No file at {path}. Run `kata start {id}` first, or give your file's path.", path=path, id=kata.id))
    commands.remember(store, kata, path)
    watcher = Watcher(kata, path, store, console, KeyReader.from_stdin(), device=device, seed=seed,
                      seconds=seconds, memory_gb=memory_gb, events=not poll)
    watcher.run()
    return OK if watcher.result is not None and watcher.result.passed else KATA_FAILED


def interview(store: Store, console: Console, *, minutes: float = 30.0, topic: str | None = None,
              directory: Path = Path("."), device: str = "auto", seconds: float = 10.0, poll: bool = False,
              now: float | None = None, keys: "KeyReader | None" = None) -> int:
    """`kata interview`: pick a kata not mastered, write its stub, watch it against the clock, then ask the
    follow-up questions an interviewer would."""
    from checker.app import practice
    from checker.app.views import say

    kata, why = practice.pick_for_interview(store.events(), topic, now)
    running = commands.begin_interview(kata, store, directory, minutes, now)
    path = Path(running["path"])
    console.print(say(tr("Interview: `{id}` — {title} ({level}; {why}).", id=kata.id, title=kata.title,
                         level=practice.difficulty_word(kata.difficulty), why=why)))
    wrote = tr("Wrote {file}", file=os.path.relpath(path))
    if running["saved"]:
        wrote += tr(" (your previous file is kept as {file})", file=os.path.relpath(running["saved"]))
    console.print(say(wrote + tr(". You have {minutes} minutes: write `{entry}` and save; each save is checked.",
                                 minutes=f"{minutes:g}", entry=kata.entry)))
    keys = keys or KeyReader.from_stdin()
    watcher = Watcher(kata, path, store, console, keys, device=device, seconds=seconds, events=not poll,
                      interview=Interview(running["id"], running["deadline"], running["started"]))
    outcome = watcher.run()
    took = commands.end_interview(store, running, outcome)
    used = practice.interview_summary(store.events(kata.id), running["id"])
    helped = tr("{hints}, {reveals}, {checks}", hints=plural(used["hint"], "{n} hint", "{n} hints"),
                reveals=plural(used["reveal"], "{n} reveal", "{n} reveals"), checks=plural(used["check"], "{n} check", "{n} checks"))
    if outcome == "pass":
        console.print(Text(tr("Passed {id} in {time} ({helped}).", id=kata.id, time=practice.duration(took), helped=helped),
                           style="bold green"))
        ask_followups(kata, store, console, keys)
        return OK
    if outcome == "timeout":
        console.print(say(tr("Time's up after {minutes} minutes ({helped}). Keep going with `kata watch {id}`, or see "
                             "the answer with `kata reveal {id} --diff --yes` (recorded as a reveal).",
                             minutes=f"{minutes:g}", helped=helped, id=kata.id), "bold red"))
    else:
        console.print(say(tr("Interview stopped after {time} ({helped}); it is recorded as not passed.",
                             time=practice.duration(took), helped=helped)))
    return KATA_FAILED


def ask_followups(kata: Kata, store: Store, console: Console, keys: KeyReader) -> None:
    """After a pass, the interviewer's questions; the answers only when asked for (and that is recorded)."""
    from checker.app import views

    if not kata.text().followups:
        return
    console.print()
    console.print(views.followups(kata, answers=False))
    wants = False
    if not keys.closed and keys.fd is not None and os.isatty(keys.fd):
        with keys:  # keys are read one by one before the prompt shows, so a key pressed as it appears counts
            console.print(views.say(tr("Answer them aloud, as you would to an interviewer. Press `a` for the model "
                                       "answers, any other key to finish."), "bold"))
            selector = selectors.DefaultSelector()
            selector.register(keys.fd, selectors.EVENT_READ)
            pressed = keys.read() if selector.select(timeout=600) else []
            selector.close()
        wants = "a" in pressed
    commands.followups(kata, store, answers=wants)
    if wants:
        console.print(views.followups(kata, answers=True))
