"""The parent's side of the child processes: fork them, read their streams (merge two into one), end them.

Below the engine, the mistake namer and the bench (all three fork children through `Children`),
above the worker (what runs inside a child) and the codec (the wire format). Nothing here judges:
it only moves messages from children to whoever asked for them.
"""
from __future__ import annotations

import fcntl
import os
import selectors
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

import torch

from checker.judge import codec, fence, seal
from checker.judge import spec as spec_api
from checker.text.i18n import tr
from checker.judge.worker import Limits, child_main, quiet

OUTPUT_TAIL = 4000


@dataclass
class Stream:
    """One child's channel: the messages it sent, and how it ended."""

    child: int
    fd: int
    reader: codec.MessageReader = field(default_factory=codec.MessageReader)
    messages: list[tuple[dict, list[bytes]]] = field(default_factory=list)
    status: int | None = None  # its wait status, once reaped
    garbled: bool = False
    current: int | None = None  # the case that has started and not finished
    printed_at: dict[int, int] = field(default_factory=dict)  # case -> where the captured output stood when it began
    started: list[int] = field(default_factory=list)  # the cases it began, in its order
    calling: tuple[dict, float] | None = None  # the large call of the current case not yet returned, and when it began
    _by_case: dict = field(default_factory=dict)
    _counted: int = 0
    _first: dict = field(default_factory=dict)  # message kind -> the first message of that kind
    _scanned: int = 0

    def by_case(self) -> dict[int, tuple[dict, list[bytes]]]:
        # Asked after every read while the cases stream in: only the messages since the last call are looked at.
        for h, b in self.messages[self._counted:]:
            if h.get("m") == "case":
                self._by_case[h["i"]] = (h, b)
        self._counted = len(self.messages)
        return self._by_case

    def has(self, kind: str) -> tuple[dict, list[bytes]] | None:
        # Asked several times per message while a spread run's children stream in: messages are only appended.
        for message in self.messages[self._scanned:]:
            self._first.setdefault(message[0].get("m"), message)
        self._scanned = len(self.messages)
        return self._first.get(kind)


def decode_outcome(node: dict, buffers: list[bytes]) -> spec_api.Outcome:
    value = codec.decode(node["value"], buffers)
    extras = {k: codec.decode(v, buffers) for k, v in node.get("extras", {}).items()}
    return spec_api.Outcome(value, extras, convention=int(node.get("convention", 0)))


def merge(streams: list[Stream], captures: list, cases: int, stopped: set[int]) -> tuple[Stream, object]:
    """Two learner's children's messages and printing (`captures`, in the order of `streams`) as one child running
    all `cases` in order would have sent them, with the file its printing would be in.

    The cases in order, up to the first one its child did not finish (the stub's first case, running out of memory,
    a crash, a timeout): that child's ending becomes the whole run's, and what another child ran past it is dropped,
    as one child would never have run it. A case's printing is its own child's, from that case's start to the start
    of the next case the same child took; what the file printed while loading is said once. `stopped`: the ids of
    the streams ended here because another had ended the run (so not taken for a child that could not load)."""
    merged = Stream(streams[0].child, -1)
    merged.garbled = any(s.garbled for s in streams)
    out = tempfile.TemporaryFile()
    files = dict(zip(map(id, streams), captures))

    def copy(stream: Stream, start: int | None, end: int | None) -> None:
        capture = files[id(stream)]
        size = capture.seek(0, os.SEEK_END)
        start, end = start or 0, size if end is None else min(end, size)
        capture.seek(start)
        while start < end:
            chunk = capture.read(min(end - start, 1 << 20))
            if not chunk:
                break
            out.write(chunk)
            start += len(chunk)

    # A child that did not load, the one that said why first; not one stopped here before it had loaded, another
    # child having ended the run in its first case (then that child's ending is the run's).
    unloaded = [s for s in streams if (s.has("fatal") or not s.has("ready")) and id(s) not in stopped]
    failed = min(unloaded, key=lambda s: not s.has("fatal"), default=None)
    if failed is not None:  # it did not load (each child loaded the same file): its ending is the run's
        merged.messages, merged.status, merged.current = list(failed.messages), failed.status, failed.current
        copy(failed, 0, None)
        return merged, out
    owner = {i: s for s in streams for i in s.started}
    after = {(id(s), i): j for s in streams for i, j in zip(s.started, s.started[1:])}  # its next case
    merged.messages.append(({"m": "ready"}, []))
    first = min(streams, key=lambda s: s.started[0] if s.started else cases)
    copy(first, 0, first.printed_at.get(first.started[0]) if first.started else None)
    for i in range(cases):
        stream = owner.get(i)
        if stream is None:  # no child began it: one ended between two cases, or the time ran out first
            ended = [s for s in streams if s.status is not None and not s.has("done") and id(s) not in stopped]
            merged.status = ended[0].status if ended else None
            merged.garbled |= all(s.has("done") for s in streams)  # both ran to the end: a case was taken away
            return merged, out
        if i in stream.printed_at:
            merged.printed_at[i] = out.tell()
            copy(stream, stream.printed_at[i], stream.printed_at.get(after.get((id(stream), i), -1)))
        got = stream.by_case().get(i)
        if got is None:  # its child ended in this case: so does the run
            merged.current, merged.status = (i if stream.current == i else None), stream.status
            merged.calling = stream.calling if stream.current == i else None
            return merged, out
        merged.messages.append(got)
        ending = stream.has("stub") or stream.has("stopped")
        if ending is not None and i == max(stream.by_case()):
            merged.messages.append(ending)
            merged.status = stream.status
            return merged, out
    merged.messages.append(({"m": "done"}, []))
    merged.status = streams[0].status
    return merged, out


_F_SETPIPE_SZ = getattr(fcntl, "F_SETPIPE_SZ", 1031)


def _widen(fd: int) -> None:
    """A 1 MiB pipe where Linux allows it (its default unprivileged limit; 64 KiB otherwise): a statistical case's
    outputs are megabytes (dropout's: ~20 MB a check), and each 64 KiB pipeful cost the parent a wake-up and a
    read and the child a wait (a sixth of dropout's watch re-check)."""
    if sys.platform != "linux":
        return
    try:
        fcntl.fcntl(fd, _F_SETPIPE_SZ, 1 << 20)
    except OSError:
        pass


class Children:
    """The children of one check (or bench, or mistake run), and the file their output goes to.

    While it lives, this process is a child subreaper (Linux): a process the learner's code starts
    and orphans (a double fork, `os.setsid()`) is re-parented here instead of to init, so `cleanup`
    finds and ends it with every other descendant the check left. Processes that were already this
    process's children when the check began are not touched (one that another thread started
    during the check would be taken for an orphan: kata starts none). Elsewhere only the learner's
    process group is ended.
    """

    def __init__(self, limits: Limits):
        self.limits = limits
        self.capture = tempfile.TemporaryFile()
        self.pids: list[int] = []
        self.timed_out = False
        self.scratch: str | None = None  # the learner's children's temporary folder (checker.judge.fence)
        self._unreaped: set[int] = set()
        _subreaper(True)
        self._before = set(_children_of(os.getpid()))

    def fork(self, body: Callable[[int], None]) -> Stream:
        """Run `body(channel_fd)` in a forked child; returns the stream to read its messages from."""
        read_fd, write_fd = os.pipe()
        _widen(read_fd)
        sys.stdout.flush()  # or the child would print the parent's buffered output again
        sys.stderr.flush()
        seal.solution_modules()  # what a learner's child will seal, found here where it copies no pages
        self.scratch = self.scratch or fence.scratch()
        fence.prepare(self.scratch)
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # pragma: no cover — runs in the child
            # Killed with its parent, whatever ends the parent (SIGKILL, OOM): a learner's endless loop must not
            # outlive the check, orphaned.
            if _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL) and os.getppid() != parent:
                os._exit(1)
            os.close(read_fd)
            quiet()
            torch.set_num_threads(1)  # forked after torch: one thread avoids OpenMP's fork hang
            child_main(write_fd, lambda: body(write_fd))
        os.close(write_fd)
        os.set_blocking(read_fd, False)
        self.pids.append(pid)
        self._unreaped.add(pid)
        return Stream(pid, read_fd)

    def collect(self, streams: list[Stream], deadline: float, on_message: Callable[[Stream], None] | None = None) -> None:
        """Read every stream until each child has ended and its channel is drained, or the deadline
        passes (then `timed_out` is set). A child's end is seen from the child itself (a pidfd, or
        polling), not from the channel closing: a grandchild may hold the channel open for ever."""
        selector = selectors.DefaultSelector()
        exits: dict[int, int] = {}  # stream index -> pidfd
        for n, stream in enumerate(streams):
            selector.register(stream.fd, selectors.EVENT_READ, (n, "channel"))
            pidfd = _pidfd(stream.child)
            if pidfd >= 0:
                exits[n] = pidfd
                selector.register(pidfd, selectors.EVENT_READ, (n, "exit"))
        try:
            while any(not self._finished(s) for s in streams):
                left = deadline - time.monotonic()
                if left <= 0:
                    self.timed_out = True
                    break
                polling = any(n not in exits and streams[n].status is None for n in range(len(streams)))
                for key, _ in selector.select(timeout=min(left, 0.02 if polling else 0.5)):
                    n, what = key.data
                    stream = streams[n]
                    if what == "channel":
                        self._read(stream, selector, on_message)
                    else:
                        selector.unregister(key.fd)
                        self._ended(stream, selector, on_message)
                for n, stream in enumerate(streams):
                    if n not in exits and stream.status is None and _exited(stream.child):
                        self._ended(stream, selector, on_message)
        finally:
            for stream in streams:
                self._close(stream, selector)
            for pidfd in exits.values():
                os.close(pidfd)
            selector.close()

    def drain(self, stream: Stream) -> None:
        """Take what a child's channel holds now, without waiting, while this process is busy with something
        else: a child whose pipe is full (64 KiB: a few cases' gradients) stops until someone reads it."""
        while stream.fd >= 0:
            try:
                chunk = os.read(stream.fd, 1 << 20)
            except BlockingIOError:
                return
            if not chunk:
                return  # the child's end: collect() sees it too, and closes the channel
            self._feed(stream, chunk, None)

    @staticmethod
    def _finished(stream: Stream) -> bool:
        return stream.fd < 0 and stream.status is not None

    def _read(self, stream: Stream, selector: selectors.BaseSelector, on_message: Callable[[Stream], None] | None,
              budget: int = 1 << 62) -> None:
        """Read what the channel holds now (at most `budget` bytes); close it at end of file."""
        while stream.fd >= 0 and budget > 0:
            try:
                chunk = os.read(stream.fd, 1 << 20)
            except BlockingIOError:
                return
            if not chunk:
                self._close(stream, selector)
                return
            budget -= len(chunk)
            self._feed(stream, chunk, on_message)

    def _ended(self, stream: Stream, selector: selectors.BaseSelector, on_message: Callable[[Stream], None] | None) -> None:
        """The child has exited: reap it, take what it wrote (it is all in the pipe by now) and stop
        listening, whoever else still holds the channel's other end."""
        stream.status = self.reap(stream.child)
        self._read(stream, selector, on_message, budget=64 << 20)  # bounded: a grandchild may keep writing
        self._close(stream, selector)

    @staticmethod
    def _close(stream: Stream, selector: selectors.BaseSelector) -> None:
        if stream.fd < 0:
            return
        selector.unregister(stream.fd)
        os.close(stream.fd)
        stream.fd = -1
        stream.garbled |= stream.reader.pending  # a message cut off mid-frame: someone wrote over us

    def _feed(self, stream: Stream, chunk: bytes, on_message: Callable[[Stream], None] | None) -> None:
        if stream.garbled:
            return
        try:
            for header, buffers in stream.reader.feed(chunk):
                stream.messages.append((header, buffers))
                if header.get("m") == "call":
                    stream.calling = (header, time.monotonic())
                elif header.get("m") == "start":
                    stream.calling = None
                    stream.current = header["i"]
                    stream.started.append(header["i"])
                    if isinstance(header.get("at"), int):
                        stream.printed_at[header["i"]] = header["at"]
                elif header.get("m") == "case":
                    stream.current = stream.calling = None
        except (ValueError, KeyError, UnicodeDecodeError):
            stream.garbled = True
        if on_message is not None:
            on_message(stream)

    def reap(self, pid: int) -> int | None:
        self._unreaped.discard(pid)
        try:
            _, status = os.waitpid(pid, 0)
            return status
        except ChildProcessError:
            return None

    def output(self) -> str:
        """The tail of what the learner's code printed."""
        self.capture.seek(0, os.SEEK_END)
        size = self.capture.tell()
        self.capture.seek(max(0, size - OUTPUT_TAIL))
        tail = self.capture.read().decode("utf-8", "replace")
        return (tr("[… {n} earlier bytes cut …]", n=size - OUTPUT_TAIL) + "\n" if size > OUTPUT_TAIL else "") + tail

    def printed_between(self, start: int, end: int | None) -> str:
        """What the learner's code printed between two offsets of the capture (one case's output)."""
        self.capture.seek(0, os.SEEK_END)
        size = self.capture.tell()
        end = size if end is None else min(end, size)
        if start >= end:
            return ""
        first = max(start, end - OUTPUT_TAIL)
        self.capture.seek(first)
        text = self.capture.read(end - first).decode("utf-8", "replace")
        if first > start:
            text = text.split("\n", 1)[-1]  # whole lines only
            return tr("[… {n} earlier bytes cut …]", n=first - start) + "\n" + text
        return text

    def kill_groups(self) -> None:
        """Kill what the learner's code left running: its process group, and every process
        descended from a child of this check (a grandchild that left the group with setsid too)."""
        for pid in self.pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._unreaped:  # a child that has not ended yet (one that has, left its descendants to us)
            _kill_trees(sorted(self._unreaped))

    def cleanup(self) -> None:
        """End every child, everything they started, and the orphans that came to this process."""
        if self.capture.closed:
            return
        self.kill_groups()
        for pid in sorted(self._unreaped):  # a reaped child's number may belong to someone else by now
            try:
                os.kill(pid, signal.SIGKILL)  # a child that never made its own group (the reference)
            except (ProcessLookupError, PermissionError):
                pass
            self.reap(pid)
        self.pids.clear()
        self._sweep()
        fence.remove(self.scratch)
        _subreaper(False)
        self.capture.close()

    def _sweep(self, rounds: int = 50) -> None:
        """Kill and reap the children this process gained during the check that are not its own:
        orphans of the learner's processes, re-parented here. Killing one orphans its children in
        turn, which come here too: repeat until none is left (bounded, against a fork bomb)."""
        tried: set[int] = set()
        for _ in range(rounds):
            strays = [pid for pid in _children_of(os.getpid()) if pid not in self._before and pid not in tried]
            if not strays:
                return
            tried.update(strays)
            _kill_trees(strays)
            _reap_soon(strays)


def _reap_soon(pids: list[int], seconds: float = 2.0) -> None:
    """Reap `pids` (killed just now) as they end, waiting at most `seconds`: a process we could not kill
    must not hold up the check's end for ever."""
    left, deadline = set(pids), time.monotonic() + seconds
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            except ChildProcessError:
                pass
            left.discard(pid)
        if left:
            time.sleep(0.005)


# ---------------------------------------------------------------- descendants (Linux /proc; elsewhere a no-op)

_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 1, 36, 37
_subreaper_users = 0
_subreaper_before = 0  # whether this process was a subreaper already (then it stays one)
_libc: object = None


def _subreaper(on: bool) -> None:
    """Make this process a child subreaper while any `Children` lives (prctl, Linux only)."""
    global _subreaper_users, _subreaper_before
    _subreaper_users += 1 if on else -1
    if on and _subreaper_users == 1:
        _subreaper_before = _prctl_get(_PR_GET_CHILD_SUBREAPER)
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    elif not on and _subreaper_users == 0:
        _prctl(_PR_SET_CHILD_SUBREAPER, _subreaper_before)


def _prctl(option: int, value: int) -> bool:
    libc = _load_libc()
    return libc is not None and libc.prctl(option, value, 0, 0, 0) == 0


def _prctl_get(option: int) -> int:
    import ctypes

    libc, value = _load_libc(), ctypes.c_int(0)
    if libc is None or libc.prctl(option, ctypes.byref(value), 0, 0, 0) != 0:
        return 0
    return value.value


def _load_libc() -> object:
    global _libc
    if _libc is None and sys.platform.startswith("linux"):
        try:
            import ctypes

            _libc = ctypes.CDLL(None, use_errno=True)
        except OSError:
            _libc = False
    return _libc or None


def _processes() -> dict[int, int]:
    """Every process this user can see: pid -> parent pid (/proc; empty where there is none)."""
    parents: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return parents
    for name in names:
        if not name.isdigit():
            continue
        try:  # os-level calls: this runs a few times per check, over every process on the machine
            fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
        except OSError:
            continue  # it ended meanwhile
        try:
            stat = os.read(fd, 1024)
        except OSError:
            continue
        finally:
            os.close(fd)
        fields = stat[stat.rfind(b")") + 2:].split(b" ", 2)  # the name in parentheses may hold spaces
        if len(fields) > 1 and fields[1].isdigit():
            parents[int(name)] = int(fields[1])
    return parents


def end_descendants() -> None:
    """SIGKILL every process descended from this one (a warm checker that is told to end: checker/app/notebook)."""
    _kill_trees(_children_of(os.getpid()))


def _children_of(pid: int) -> list[int]:
    return [child for child, parent in _processes().items() if parent == pid]


def _kill_trees(roots: list[int]) -> None:
    """SIGKILL each of `roots` that is still a child of this process, and all its descendants. A root
    that is no longer our child was reaped, and its number may already belong to someone else."""
    parents = _processes()
    me = os.getpid()
    by_parent: dict[int, list[int]] = {}
    for child, parent in parents.items():
        by_parent.setdefault(parent, []).append(child)
    todo = [pid for pid in roots if parents.get(pid) == me]
    while todo:
        pid = todo.pop()
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        todo += by_parent.get(pid, [])


def _pidfd(pid: int) -> int:
    """A file descriptor that becomes readable when `pid` exits (Linux 5.3+), or -1."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return -1


def _exited(pid: int) -> bool:
    """Whether the child `pid` has exited (without reaping it)."""
    try:
        return bool(os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT))
    except ChildProcessError:
        return True
    except (AttributeError, OSError):
        return False


def exit_words(status: int | None) -> str:
    """How a child ended, in the learner's terms."""
    if status is None:
        return tr("it stopped without a word")
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
        why = {"SIGSEGV": tr(" (a segmentation fault)"), "SIGKILL": tr(" (killed: out of memory, or by you?)"),
               "SIGABRT": tr(" (aborted)"), "SIGFPE": tr(" (arithmetic fault)")}.get(name, "")
        return tr("the process was killed by {signal}", signal=name) + why
    code = os.WEXITSTATUS(status)
    return tr("the process exited with status {code} (os._exit or sys.exit in your code?)", code=code)

