"""The notebook's warm checker: one process per kernel that imports torch and the judge once, then checks one
request at a time for as long as the kernel lives.

A kernel is no place to fork from: it runs about eight threads (Python 3.12+ warns that fork may deadlock), and
once the notebook has touched CUDA a forked child cannot use it. So the kernel starts this process with
`subprocess` (fork and exec at once, nothing of the kernel's state copied), in a session of its own, and talks
to it over two pipes, in `prefork`'s frames (a length, then a pickle). What it runs is the CLI's: `prefork._run`
builds the same `Request` with the same `Limits`, and the engine forks the learner's children from here, as the
CLI's worker does. The CheckResult it sends back is plain data; the kernel records and renders it.

Messages, kernel to checker: ("check", id, request, lang) and ("warm", kata id). Checker to kernel: ("ready",)
once the judge is imported, then for each check (id, kind, payload) with kind "result", "kata" (a KataError's
message and exit code), "error" (anything else, as prefork sends it) or "stopped" (the check was interrupted).

Stopping: the stop button reaches the kernel only (this process is in another session); the kernel sends SIGINT
here, the engine ends the learner's children on its way out, and the check answers "stopped" without recording
anything (the kernel records, and only results). Ending with the kernel: on Linux the kernel's death kills this
process (PR_SET_PDEATHSIG), whatever killed the kernel, even SIGKILL; the learner's children die with this
process the same way (checker.judge.runner). Everywhere, the end of the request pipe ends it between checks.
"""
from __future__ import annotations

import os
import pickle
import signal
import sys

from checker.app import prefork

_PR_SET_PDEATHSIG = 1


def _die_with(kernel: int) -> None:
    """End, with everything this process started, when the kernel dies (Linux: PR_SET_PDEATHSIG sends SIGTERM) or
    asks (client.close sends SIGTERM); exit now if the kernel died before this line ran."""
    signal.signal(signal.SIGTERM, _end)
    if sys.platform.startswith("linux"):
        import ctypes
        import ctypes.util

        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != kernel:
        os._exit(1)


def _end(signum: int, frame: object) -> None:
    """SIGTERM: the learner's children and whatever they started (a grandchild in a session of its own too), then
    this process. The children would die with this process anyway (PR_SET_PDEATHSIG); their own children would not."""
    try:
        if "checker.judge.runner" in sys.modules:
            from checker.judge import end_descendants

            end_descendants()
    finally:
        os._exit(0)


def serve(requests_r: int, answers_w: int) -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    failed = None
    try:
        from checker.judge import check, warm_up  # noqa: F401 — torch and the judge, once for the kernel's life
    except Exception as exc:  # noqa: BLE001 — a broken torch: said on every check, as the CLI would say it
        failed = prefork._error(exc)
    prefork._write(answers_w, pickle.dumps(("ready",)))
    warm: set[tuple[str, str]] = set()
    while True:
        try:
            data = prefork._read(requests_r)
            if not data:
                return  # the kernel closed the pipe: it is shutting down, or gone
            message = pickle.loads(data)
            if message[0] == "warm":
                if failed is None:
                    _warm(message[1], message[2], warm)
                continue
            _, number, request, lang = message
            answer = failed if failed is not None else _check(request, lang, warm)
            prefork._write(answers_w, pickle.dumps((number, *answer), protocol=pickle.HIGHEST_PROTOCOL))
        except KeyboardInterrupt:
            continue  # a stop that came after its check had answered: the kernel has the answer already
        except BrokenPipeError:
            return


def _check(request: dict, lang: str, warm: set[tuple[str, str]]) -> tuple:
    """One check, as the CLI's worker runs it, in a process warmed for its kata first (0.1-0.6 s, once: a forked
    child of a cold process pays torch's first-use costs on every check, about a second)."""
    from checker.errors import KataError
    from checker.text import i18n

    try:
        _warm(request["kata"].id, request["device"], warm)
        i18n.use(lang)
        return ("result", prefork._run(request))
    except KeyboardInterrupt:
        return ("stopped", None)
    except KataError as exc:
        return ("kata", (exc.message, exc.exit_code))
    except Exception as exc:  # noqa: BLE001 — sent back, raised in the kernel as the CLI would raise it
        return prefork._error(exc)


def _warm(kata_id: str, device: str, warm: set[tuple[str, str]]) -> None:
    """Run the reference over a seed's cases here, once per kata (engine.warm_up): its later checks fork only."""
    if (kata_id, device) in warm:
        return
    warm.add((kata_id, device))
    from checker.judge import warm_up
    from checker.text import catalog

    try:
        warm_up(catalog.get(kata_id), device)
    except KeyboardInterrupt:
        raise
    except Exception:  # noqa: BLE001 — warming is best effort; the check itself says what is wrong
        pass


def main() -> None:
    kernel, requests_r, answers_w = (int(a) for a in sys.argv[1:4])
    _die_with(kernel)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # nothing of the learner's reads the kernel's stdin
    try:
        serve(requests_r, answers_w)
    finally:
        os._exit(0)  # no interpreter teardown: nothing of this process's is left to flush


if __name__ == "__main__":
    main()
