"""A real Jupyter kernel for the notebook tests: start it, run cells in it, press stop, kill it.

`Kernel` starts this venv's ipykernel (`sys.executable -m ipykernel_launcher`, never a kernelspec found on the
machine) through jupyter_client, and talks to it as a notebook front end does: one execute request per cell, the
cell's outputs gathered from iopub until the kernel goes idle. Start-up costs ~1-2 s, so a test module shares one
kernel (a module-scoped fixture) and gives each test fresh names.

    with Kernel(env={"KATA_HOME": str(tmp)}) as k:
        ran = k.run("x = 1\\nx + 1")          # ran.text == "2", ran.error is None
        pending = k.run_async("import time; time.sleep(60)")
        k.interrupt()                       # the stop button
        ran = k.wait(pending)               # ran.error[0] == "KeyboardInterrupt"

The kernel is shut down when the block ends, on failure too; one that does not answer is killed.
"""
from __future__ import annotations

import os
import queue
import signal
import sys
import time
from dataclasses import dataclass, field

from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpec


@dataclass
class Ran:
    """What one cell did, as a notebook shows it."""
    text: str  # stdout, stderr and text/plain results, in order, joined
    html: str  # text/html outputs, joined
    error: tuple[str, str] | None  # (ename, evalue) of an error the cell raised, else None
    execution_count: int | None  # the cell's "In [n]"
    outputs: list[dict] = field(default_factory=list)  # every output message's (msg_type, content), as dicts
    traceback: list[str] = field(default_factory=list)  # the error's traceback lines (ANSI colours kept)


@dataclass
class Pending:
    """A cell sent with `run_async`, not yet waited for."""
    msg_id: str
    timeout: float


class Kernel:
    def __init__(self, env: dict | None = None, cwd: str | None = None, timeout: float = 60):
        self.env = {**os.environ, **(env or {})}
        self.env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # no debugger warning on stderr at start
        self.cwd = cwd
        self.timeout = timeout
        self.km: KernelManager | None = None
        self.kc = None
        self._held: list[dict] = []  # iopub messages read while waiting for a cell to start

    # ---------------------------------------------------------------- life

    def __enter__(self) -> "Kernel":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        km = KernelManager()
        km._kernel_spec = KernelSpec(argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                                     display_name="kata tests", language="python")
        self.km = km
        try:
            km.start_kernel(env=self.env, cwd=self.cwd or os.getcwd())
            self.kc = km.client()
            self.kc.start_channels()
            self.kc.wait_for_ready(timeout=self.timeout)
        except BaseException:
            self.close()
            raise

    @property
    def pid(self) -> int:
        provisioner = self.km.provisioner
        process = getattr(provisioner, "process", None)
        return process.pid if process is not None else provisioner.pid

    def alive(self) -> bool:
        return self.km is not None and self.km.is_alive()

    def kill(self) -> None:
        """SIGKILL the kernel process (what an out-of-memory kill does)."""
        os.kill(self.pid, signal.SIGKILL)

    def interrupt(self) -> None:
        """What the stop button does."""
        self.km.interrupt_kernel()

    def close(self) -> None:
        """Shut the kernel down; kill it if it does not go within a few seconds."""
        kc, km, self.kc, self.km = self.kc, self.km, None, None
        if kc is not None:
            try:
                kc.stop_channels()
            except Exception:
                pass
        if km is None:
            return
        try:
            if km.has_kernel:
                km.shutdown_kernel(now=False, restart=False) if km.is_alive() else km.shutdown_kernel(now=True)
        except Exception:
            try:
                km.shutdown_kernel(now=True)
            except Exception:
                pass
        finally:
            try:
                km.cleanup_resources()
            except Exception:
                pass

    # ---------------------------------------------------------------- cells

    def run(self, code: str, timeout: float | None = None) -> Ran:
        """Execute one cell (stored in the history, as a notebook does) and collect its outputs."""
        return self.wait(self.run_async(code, timeout))

    def run_async(self, code: str, timeout: float | None = None) -> Pending:
        """Send one cell and return at once; `wait` collects what it did (press `interrupt` in between)."""
        msg_id = self.kc.execute(code, store_history=True, allow_stdin=False)
        return Pending(msg_id, self.timeout if timeout is None else timeout)

    def started(self, pending: Pending, timeout: float = 10) -> None:
        """Wait until the kernel says it is busy with `pending` (before pressing stop, so the stop hits the cell)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self._iopub(deadline)
            self._held.append(msg)
            if (msg["parent_header"].get("msg_id") == pending.msg_id and msg["msg_type"] == "status"
                    and msg["content"]["execution_state"] == "busy"):
                return
        raise TimeoutError("the kernel did not start the cell")

    def wait(self, pending: Pending) -> Ran:
        deadline = time.monotonic() + pending.timeout
        texts, htmls, outputs, error, tb, count = [], [], [], None, [], None
        while True:
            msg = self._held.pop(0) if self._held else self._iopub(deadline)
            if msg["parent_header"].get("msg_id") != pending.msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "execute_input":
                count = content.get("execution_count", count)
            elif kind == "stream":
                texts.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                data = content.get("data", {})
                if "text/html" in data:
                    htmls.append(data["text/html"])
                if "text/plain" in data:
                    texts.append(data["text/plain"] + ("" if data["text/plain"].endswith("\n") else "\n"))
                count = content.get("execution_count", count)
            elif kind == "error":
                error, tb = (content["ename"], content["evalue"]), content.get("traceback", [])
            if kind not in ("status", "execute_input"):
                outputs.append({"msg_type": kind, **content})
        reply = self._shell_reply(pending.msg_id, deadline)
        if reply is not None:
            count = reply["content"].get("execution_count", count)
            if error is None and reply["content"].get("status") == "error":
                error = (reply["content"].get("ename", ""), reply["content"].get("evalue", ""))
        return Ran("".join(texts).rstrip("\n"), "".join(htmls), error, count, outputs, tb)

    # ---------------------------------------------------------------- plumbing

    def _iopub(self, deadline: float) -> dict:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the kernel did not finish the cell in time")
            try:
                return self.kc.get_iopub_msg(timeout=min(left, 1.0))
            except queue.Empty:
                if not self.km.is_alive():
                    raise RuntimeError("the kernel died") from None

    def _shell_reply(self, msg_id: str, deadline: float) -> dict | None:
        while time.monotonic() < deadline:
            try:
                reply = self.kc.get_shell_msg(timeout=max(0.1, min(deadline - time.monotonic(), 5.0)))
            except queue.Empty:
                return None
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply
        return None
