"""Compile the learner's kernels for a GPU, on a machine that may have none: the frontend, to TTIR.

Why. Triton's interpreter accepts kernels no GPU compiles: a `tl.dot` whose inner dimension is < 16,
a loop-carried variable whose type changes (`acc = tl.zeros(..., tl.float16)` then `acc += tl.dot(..)`
makes it float32). The frontend of a real compile (`cuda`, sm_90, warp 32, up to TTIR: 12-42 ms a
kernel, no GPU or driver needed) rejects both, with the compiler's own words.

How. `compile_check(path, launches, timeout)` runs `python -m checker.judge.kernel_compile` in a fresh
process: one that has never imported triton with TRITON_INTERPRET=1 (importing triton interpreted
turns triton.language's own `@jit` helpers into interpreted functions, and the knob is read through a
cached C++ getenv, so clearing the variable later in the same process is not enough). The launches'
signatures travel to it as JSON on stdin: each kernel (by name), at most four distinct signatures a
kernel (float32 and float16 launches differ; the blocks are constexprs). The child is fenced as the
learner's child is (checker.judge.worker.isolate: its own process group, sealed from kata's solutions,
Landlock where there is one, its output captured, its memory bounded), because loading the learner's
file runs the learner's code; its answer goes back on a descriptor of its own. It answers one line
per kernel and signature that does not compile: the kernel, its constexprs and the compiler's last
line ("matmul_kernel (BM=32, BN=32, BK=32): Loop-carried variable acc has initial type <['32', '32'],
fp16> but is re-assigned to <['32', '32'], fp32> in loop! ..."). A child that runs past `timeout` is ended and
says so.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import re
import os
import signal
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

from checker.text.i18n import tr

TARGET = ("cuda", 90, 32)  # backend, compute capability (sm_90), warp size
SIGNATURES_PER_KERNEL = 4
ROOT = Path(__file__).resolve().parents[2]


def distinct(launches: list[Any], per_kernel: int = SIGNATURES_PER_KERNEL) -> list[dict]:
    """The launches to compile: each kernel's distinct signatures, at most `per_kernel` of each, in launch order."""
    chosen: list[dict] = []
    seen: dict[str, set[str]] = {}
    for launch in launches:
        key = json.dumps(launch.signature, sort_keys=True, default=str)
        keys = seen.setdefault(launch.kernel, set())
        if key in keys or len(keys) >= per_kernel or not launch.signature:
            continue
        keys.add(key)
        chosen.append({"kernel": launch.kernel, "signature": launch.signature})
    return chosen


def compile_check(path: Path, launches: list[Any], timeout: float) -> list[str]:
    """Compile each kernel the launches ran, for sm_90 up to TTIR, in a fresh process. The problems found, one
    line each ([] when every kernel compiles)."""
    work = distinct(launches)
    if not work:
        return []
    environment = {k: v for k, v in os.environ.items() if k not in ("TRITON_INTERPRET",)}
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    environment.setdefault("TRITON_F32_DEFAULT", "ieee")
    environment.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    read, write = os.pipe()
    payload = json.dumps({"path": str(Path(path).resolve()), "kernels": work, "answer_fd": write,
                          "lang": _language()})
    try:
        child = subprocess.Popen([sys.executable, "-m", "checker.judge.kernel_compile"], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment, cwd=str(ROOT),
                                 pass_fds=(write,))
    finally:
        os.close(write)
    stderr = b""
    try:
        with os.fdopen(read, "rb") as answer:
            try:
                _, stderr = child.communicate(payload.encode(), timeout=timeout)
            except subprocess.TimeoutExpired:
                return [tr("the GPU compile check of your kernels took longer than {seconds:.0f} s and was stopped "
                           "(does your file do slow work when it is imported?)", seconds=timeout)]
            data = answer.read()
    finally:
        _end(child)
    try:
        reply = json.loads(data.decode() or "null")
    except ValueError:
        reply = None
    if not isinstance(reply, dict):
        said = stderr.decode(errors="replace").strip().splitlines()
        return [tr("the GPU compile check of your kernels could not run: {why}",
                   why=said[-1] if said else tr("its process ended with status {code}", code=child.returncode))]
    return [str(line) for line in reply.get("problems", [])]


def _language() -> str:
    from checker.text import i18n

    return i18n.current()


def _end(child: subprocess.Popen) -> None:
    if child.poll() is None:
        try:  # its own process group once it is fenced (worker.isolate), else the process alone
            os.killpg(child.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            child.kill()
        child.wait()
    for stream in (child.stdin, child.stderr):
        if stream is not None and not stream.closed:
            stream.close()


# ---------------------------------------------------------------- the child


def _kernel(module: Any, name: str) -> Any:
    """The JITFunction named `name` in the learner's module (under autotune / heuristics wrappers too)."""
    from triton.runtime.jit import JITFunction

    for value in [getattr(module, name, None), *vars(module).values()]:
        for _ in range(4):
            if isinstance(value, JITFunction):
                if value.__name__ == name:
                    return value
                break
            value = getattr(value, "fn", None)
            if value is None:
                break
    return None


def _compile(fn: Any, signature: dict, context: dict) -> str | None:
    """None when `fn` compiles to TTIR for the target with `signature`; else the compiler's last line."""
    from triton.compiler.compiler import ASTSource

    import triton.language as tl

    types = {name: "constexpr" if isinstance(kind, dict) else kind for name, kind in signature.items()}
    constexprs = {name: _constexpr(kind["constexpr"], tl) for name, kind in signature.items() if isinstance(kind, dict)}
    try:
        source = ASTSource(fn, types, constexprs)
        source.make_ir(context["target"], context["options"], context["codegen"], context["modules"],
                       context["ir"])
    except Exception as error:  # noqa: BLE001 — whatever the frontend says is the learner's to read
        lines = [line for line in str(error).strip().splitlines() if line.strip()]
        last = lines[-1].strip() if lines else type(error).__name__
        quoted = re.fullmatch(r"\w+\(([\"'])(.*)\1\)", last)  # AssertionError("Loop-carried variable ...")
        return quoted.group(2) if quoted else last
    return None


def _context() -> dict:
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.backends.nvidia.compiler import CUDABackend

    target = GPUTarget(*TARGET)
    backend = CUDABackend(target)
    options = backend.parse_options({})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    return {"target": target, "options": options, "codegen": backend.get_codegen_implementation(options),
            "modules": backend.get_module_map(), "ir": context}


def _constexpr(value: Any, tl: Any) -> Any:
    """A constexpr as the launch passed it: a dtype (`OUT=tl.float16`) travels as {"tl_dtype": "fp16"}."""
    if isinstance(value, dict) and isinstance(value.get("tl_dtype"), str):
        return tl.dtype(value["tl_dtype"])
    return value


def _constexpr_words(signature: dict) -> str:
    def said(value: Any) -> Any:
        return value["tl_dtype"] if isinstance(value, dict) and "tl_dtype" in value else value

    return ", ".join(f"{name}={said(kind['constexpr'])}" for name, kind in signature.items() if isinstance(kind, dict))


MEMORY_BYTES = 4096 * 1024 * 1024  # as checker.judge.worker.Limits: on top of what the process already maps
OUTPUT_BYTES = 64 * 1024 * 1024


class _Deferred(types.ModuleType):
    """A module imported on its first attribute read (importlib's LazyLoader loads on `import` itself in 3.11)."""

    def __getattr__(self, attribute: str) -> Any:
        if isinstance(sys.modules.get(self.__name__), _Deferred):
            del sys.modules[self.__name__]
        return getattr(importlib.import_module(self.__name__), attribute)


def _defer(name: str) -> None:
    """The learner's file imports torch, but the frontend compile never touches it (triton's frontend does not import
    it): while only the wrapper uses torch, the child never loads it and saves torch's import (~1.7 s)."""
    found = importlib.util.find_spec(name)
    if found is None or name in sys.modules:
        return
    module = _Deferred(name)
    module.__spec__ = found
    sys.modules[name] = module


def _fence(answer_fd: int) -> None:
    """What checker.judge.worker.isolate does for the learner's child, without importing torch: its own process
    group, sealed from kata's solutions (Landlock too, once the file is about to run), no stdin, output discarded,
    no other descriptors, bounded output files and memory."""
    import faulthandler
    import resource

    from checker.judge import fence, seal

    fence.prepare(None)
    os.setpgid(0, 0)
    seal.seal()
    faulthandler.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.closerange(3, answer_fd)
    os.closerange(answer_fd + 1, 1 << 16)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_BYTES, OUTPUT_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    mapped = 0
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                mapped = int(line.split()[1]) * 1024
    except OSError:
        pass
    if mapped:
        resource.setrlimit(resource.RLIMIT_AS, (mapped + MEMORY_BYTES, mapped + MEMORY_BYTES))


def _load(path: Path) -> Any:
    import importlib.machinery

    from checker.judge import seal

    directory = str(path.parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = "kata_compile_learner"
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    found = importlib.util.spec_from_file_location(name, path, loader=loader)
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    seal.enter_learner(path)
    found.loader.exec_module(module)
    return module


def main() -> None:
    request = json.loads(sys.stdin.read())
    answer_fd = int(request["answer_fd"])
    from checker.text import i18n

    i18n.use(request.get("lang", "en"))
    _defer("torch")
    _fence(answer_fd)
    problems: list[str] = []
    try:
        learner = _load(Path(request["path"]))
        context = _context()
        for item in request["kernels"]:
            fn = _kernel(learner, item["kernel"])
            if fn is None:
                continue
            said = _compile(fn, item["signature"], context)
            if said is not None:
                problems.append(tr("{kernel} ({constexprs}): {error}", kernel=item["kernel"],
                                   constexprs=_constexpr_words(item["signature"]), error=said))
    except BaseException as error:  # noqa: BLE001 — the file ran in the interpreter pass; here only the compile counts
        problems.append(tr("the GPU compile check could not load your file: {error}",
                           error=f"{type(error).__name__}: {error}"[:500]))
    with os.fdopen(answer_fd, "w") as answer:
        json.dump({"problems": problems}, answer)
    os._exit(0)


if __name__ == "__main__":
    main()
