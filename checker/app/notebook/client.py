"""The kernel's side of the warm checker (server.py): start it on the first check, ask it, stop it.

One checker per kernel, started with `subprocess` (never forked from the kernel: see server.py) in a session of
its own, so the stop button, which signals the kernel's process group, does not reach it; `ask` forwards the
stop instead. A checker that died (killed, out of memory) is said in one line, and the next check starts a fresh
one; the kernel itself never dies of it. When the kernel exits, `close` (atexit) ends the checker; when the
kernel is killed, the checker dies with it (server.py).
"""
from __future__ import annotations

import atexit
import os
import pickle
import select
import signal
import subprocess
import sys
import time
from typing import Any

from checker.app import prefork
from checker.errors import KataError
from checker.text import i18n
from checker.text.i18n import tr

STOP_GRACE = 1.0  # seconds a stopped check has to answer before its checker is killed (and started afresh)


class Stopped(KeyboardInterrupt):
    """The stop button ended a check. A KeyboardInterrupt, so a notebook run top to bottom stops here too; IPython
    shows `_render_traceback_`'s line instead of a traceback."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def _render_traceback_(self) -> list[str]:
        return [self.message]


class CheckerDied(RuntimeError):
    pass


class Checker:
    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.requests_w = self.answers_r = -1
        self.number = 0
        self.started_at = 0.0

    # ---------------------------------------------------------------- life

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        """Start a checker unless one is running; returns at once (it says "ready" when torch is imported)."""
        if self.alive():
            return
        self.close()
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        quiet = None if os.environ.get("KATA_DEBUG") else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "checker.app.notebook.server", str(os.getpid()), str(requests_r),
                 str(answers_w)],
                pass_fds=(requests_r, answers_w), stdin=subprocess.DEVNULL, stdout=quiet, stderr=quiet,
                start_new_session=True, close_fds=True)
        except OSError as exc:
            for fd in (requests_r, requests_w, answers_r, answers_w):
                prefork._close(fd)
            raise KataError(tr("kata could not start its checker ({why}).", why=exc.strerror or exc)) from exc
        finally:
            for fd in (requests_r, answers_w):
                prefork._close(fd)
        self.requests_w, self.answers_r = requests_w, answers_r
        self.started_at = time.monotonic()
        self._ready = False
        atexit.register(self.close)

    def close(self) -> None:
        """End the checker and everything it started (its session)."""
        process, self.process = self.process, None
        for fd in (self.requests_w, self.answers_r):
            if fd >= 0:
                prefork._close(fd)
        self.requests_w = self.answers_r = -1
        if process is None:
            return
        _kill_session(process)

    # ---------------------------------------------------------------- asking

    def warm(self, kata_id: str, device: str) -> None:
        """Have the checker run `kata_id`'s reference once, ahead of its first check (kata.start, kata.bug)."""
        self.start()
        try:
            prefork._write(self.requests_w, pickle.dumps(("warm", kata_id, device)))
        except OSError:
            pass  # it is gone: the check will say so and start another

    def check(self, request: dict[str, Any]) -> Any:
        """The engine's CheckResult for `request` (prefork's request), from the warm checker."""
        self.start()
        self.number += 1
        number = self.number
        try:
            prefork._write(self.requests_w, pickle.dumps(("check", number, request, i18n.current()),
                                                         protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:
            pass  # it has died: said below, from how it ended
        try:
            answer = self._answer(number, deadline=None)
        except KeyboardInterrupt:
            self._stop(number)
            raise Stopped(tr("kata: stopped; nothing was recorded.")) from None
        kind, payload = answer
        if kind == "result":
            return payload
        if kind == "kata":
            raise KataError(*payload)
        if kind == "stopped":
            raise Stopped(tr("kata: stopped; nothing was recorded."))
        name, message, trace = payload
        if os.environ.get("KATA_DEBUG"):
            sys.stderr.write(trace)
        raise type(name, (RuntimeError,), {})(message)

    def _answer(self, number: int, deadline: float | None) -> tuple:
        """Read until the answer to check `number` (answers to checks stopped earlier are dropped)."""
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.answers_r], [], [], left)[0]:
                    raise TimeoutError
            data = prefork._read(self.answers_r)
            if not data:
                raise self._died()
            message = pickle.loads(data)
            if message[0] == "ready":
                self._ready = True
                continue
            if message[0] == number:
                return message[1], message[2]

    def _stop(self, number: int) -> None:
        """The stop button: the checker is asked to stop (it ends the learner's children and records nothing);
        one that does not answer within STOP_GRACE is killed, and the next check starts another."""
        try:
            if self.process is not None:
                os.kill(self.process.pid, signal.SIGINT)
            self._answer(number, deadline=time.monotonic() + STOP_GRACE)
        except (TimeoutError, CheckerDied, OSError, KeyboardInterrupt):
            self.close()

    def _died(self) -> CheckerDied:
        process = self.process
        status = process.wait() if process is not None else None
        self.close()
        how = (tr("killed by signal {n}", n=-status) if status is not None and status < 0
               else tr("exit status {n}", n=status))
        return CheckerDied(tr("kata's checker stopped ({how}); the next check starts a fresh one.", how=how))


def _kill_session(process: subprocess.Popen) -> None:
    """End the checker: asked first (SIGTERM: it ends every process it started, server._end), then its session
    SIGKILLed, whatever is left of it."""
    try:
        process.terminate()
        process.wait(timeout=2)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


CHECKER = Checker()
