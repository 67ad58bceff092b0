"""The parent's side of the child processes: fork them, read their streams, end them.

Below the engine, the mistake namer and the bench (all three fork children through `Children`),
above the worker (what runs inside a child) and the codec (the wire format). Nothing here judges:
it only moves messages from children to whoever asked for them.
"""
from __future__ import annotations

import os
import selectors
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

import torch

from checker import codec
from checker import spec as spec_api
from checker.worker import Limits, child_main

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
    _by_case: dict | None = None
    _counted: int = -1

    def by_case(self) -> dict[int, tuple[dict, list[bytes]]]:
        if self._by_case is None or self._counted != len(self.messages):  # judged many times per run
            self._by_case = {h["i"]: (h, b) for h, b in self.messages if h.get("m") == "case"}
            self._counted = len(self.messages)
        return self._by_case

    def has(self, kind: str) -> tuple[dict, list[bytes]] | None:
        return next(((h, b) for h, b in self.messages if h.get("m") == kind), None)


def decode_outcome(node: dict, buffers: list[bytes]) -> spec_api.Outcome:
    value = codec.decode(node["value"], buffers)
    extras = {k: codec.decode(v, buffers) for k, v in node.get("extras", {}).items()}
    return spec_api.Outcome(value, extras)


class Children:
    """The children of one check (or bench, or mistake run), and the file their output goes to."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.capture = tempfile.TemporaryFile()
        self.pids: list[int] = []
        self.timed_out = False

    def fork(self, body: Callable[[int], None]) -> Stream:
        """Run `body(channel_fd)` in a forked child; returns the stream to read its messages from."""
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()  # or the child would print the parent's buffered output again
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover — runs in the child
            os.close(read_fd)
            torch.set_num_threads(1)  # forked after torch: one thread avoids OpenMP's fork hang
            child_main(write_fd, lambda: body(write_fd))
        os.close(write_fd)
        self.pids.append(pid)
        return Stream(pid, read_fd)

    def collect(self, streams: list[Stream], deadline: float, on_message: Callable[[Stream], None] | None = None) -> None:
        """Read every stream until each has closed or the deadline passes (then `timed_out` is set)."""
        selector = selectors.DefaultSelector()
        for stream in streams:
            selector.register(stream.fd, selectors.EVENT_READ, stream)
        open_count = len(streams)
        while open_count:
            left = deadline - time.monotonic()
            if left <= 0:
                self.timed_out = True
                break
            for key, _ in selector.select(timeout=min(left, 0.5)):
                stream: Stream = key.data
                chunk = os.read(stream.fd, 1 << 20)
                if chunk:
                    self._feed(stream, chunk, on_message)
                    continue
                selector.unregister(stream.fd)
                os.close(stream.fd)
                stream.fd = -1
                stream.garbled |= stream.reader.pending  # a message cut off mid-frame: someone wrote over us
                stream.status = self.reap(stream.child)
                open_count -= 1
        for stream in streams:
            if stream.fd >= 0:
                selector.unregister(stream.fd)
                os.close(stream.fd)
                stream.fd = -1
        selector.close()

    def _feed(self, stream: Stream, chunk: bytes, on_message: Callable[[Stream], None] | None) -> None:
        if stream.garbled:
            return
        try:
            for header, buffers in stream.reader.feed(chunk):
                stream.messages.append((header, buffers))
                if header.get("m") == "start":
                    stream.current = header["i"]
                elif header.get("m") == "case":
                    stream.current = None
        except (ValueError, KeyError, UnicodeDecodeError):
            stream.garbled = True
        if on_message is not None:
            on_message(stream)

    @staticmethod
    def reap(pid: int) -> int | None:
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
        return (f"[… {size - OUTPUT_TAIL} earlier bytes cut …]\n" if size > OUTPUT_TAIL else "") + tail

    def kill_groups(self) -> None:
        """Kill what the learner's code left running in its process group (its grandchildren)."""
        for pid in self.pids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def cleanup(self) -> None:
        """End every child and anything the learner's code left running in its process group."""
        self.kill_groups()
        for pid in self.pids:
            try:
                os.kill(pid, signal.SIGKILL)  # a child that never made its own group (the reference)
            except (ProcessLookupError, PermissionError):
                pass
            self.reap(pid)
        self.pids.clear()
        self.capture.close()


def exit_words(status: int | None) -> str:
    """How a child ended, in the learner's terms."""
    if status is None:
        return "it stopped without a word"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else str(number)
        why = {"SIGSEGV": " (a segmentation fault)", "SIGKILL": " (killed: out of memory, or by you?)",
               "SIGABRT": " (aborted)", "SIGFPE": " (arithmetic fault)"}.get(name, "")
        return f"the process was killed by {name}{why}"
    code = os.WEXITSTATUS(status)
    return f"the process exited with status {code} (os._exit or sys.exit in your code?)"

