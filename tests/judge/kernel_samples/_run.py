"""Run the sample kernels through the guard layer and print one JSON line per sample (tests/judge/test_kernel_guards.py).

Runs in its own process: TRITON_INTERPRET must be set before triton is first imported, which
`kernels.enter_interpreter()` does before anything here imports triton.
    python tests/judge/kernel_samples/_run.py [name ...]   (no names: every sample)
"""
from __future__ import annotations

import importlib.util
import json
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from checker.judge import kernel_compile, kernels  # noqa: E402

kernels.enter_interpreter()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def _g(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def add_case():
    x, y = torch.randn(3 * 64 + 17, generator=_g(0)), torch.randn(3 * 64 + 17, generator=_g(1))
    return "add", {"x": x, "y": y, "BLOCK": 64}, 64, x + y


def softmax_ref(x):
    return torch.softmax(x.double(), -1).to(x.dtype)


def softmax_case(kind: str):
    g = _g(2)
    x = {"plain": torch.randn(5, 37, generator=g),
         "negative": -50 + torch.randn(5, 37, generator=g),
         "large": 100 * torch.randn(4, 64, generator=g),
         "slice": torch.randn(4, 64, generator=g)[:, :30],
         "odd_rows": torch.randn(5, 37, generator=g),
         "wide": torch.randn(3, 100, generator=g)}[kind]
    args = {"x": x, "BLOCK": 32} if kind == "wide" else {"x": x}
    return "softmax", args, 32 if kind == "wide" else 512, softmax_ref(x)


def online_case(kind: str):
    g = _g(3)
    x = (-120 + torch.randn(3, 129, generator=g)) if kind == "deep" else torch.randn(3, 129, generator=g)
    return "softmax", {"x": x, "BLOCK": 64}, 64, softmax_ref(x)


def layernorm_case():
    g = _g(4)
    x, w, b = 1e-3 * torch.randn(4, 37, generator=g), torch.randn(37, generator=g), torch.randn(37, generator=g)
    return "layernorm", {"x": x, "weight": w, "bias": b}, 64, F.layer_norm(x.double(), (37,), w.double(), b.double()).float()


def matmul_case(kind: str):
    g = _g(5)
    M, N, K = (20, 70, 45) if kind != "half" else (40, 50, 64)
    dtype = torch.float16 if kind == "half" else torch.float32
    a = torch.randn(M, K, generator=g).to(dtype)
    b = torch.randn(N, K, generator=g).to(dtype).t()  # a transposed view
    args = {"a": a, "b": b, "BM": 32, "BN": 32, "BK": 32}
    return "matmul", args, 32 * 32, (a.double() @ b.double()).to(dtype)


def reduce_case():
    x = torch.randn(300, generator=_g(6))
    return "total", {"x": x, "BLOCK": 64}, 64, x.double().sum().reshape(1).float()


def attention_case():
    g = _g(7)
    S, D = 37, 16
    q, k, v = (torch.randn(S, D, generator=g) for _ in range(3))
    s = (q.double() @ k.double().t()) / D ** 0.5
    s = s.masked_fill(torch.ones(S, S, dtype=torch.bool).triu(1), float("-inf"))
    return "flash_attention", {"q": q, "k": k, "v": v, "causal": True, "BM": 16, "BN": 16}, 16 * D, \
        (torch.softmax(s, -1) @ v.double()).float()


CASES = {
    "add": add_case, "softmax": lambda: softmax_case("slice"), "softmax_two_rows": lambda: softmax_case("odd_rows"),
    "layernorm": layernorm_case, "online_softmax": lambda: online_case("deep"), "matmul": lambda: matmul_case("float"),
    "reduce_atomic": reduce_case, "reduce_two_launch": reduce_case, "attention": attention_case,
    "softmax_other_zero": lambda: softmax_case("negative"), "softmax_no_max": lambda: softmax_case("large"),
    "softmax_row_stride_n": lambda: softmax_case("slice"), "softmax_grid_small": lambda: softmax_case("plain"),
    "softmax_gap_write": lambda: softmax_case("slice"), "softmax_whole_row": lambda: softmax_case("wide"),
    "softmax_torch_normalises": lambda: softmax_case("odd_rows"),
    "layernorm_eps_outside": layernorm_case, "online_softmax_max_zero": lambda: online_case("deep"),
    "matmul_fp16_acc": lambda: matmul_case("half"), "matmul_k_tail": lambda: matmul_case("float"),
    "matmul_bk8": lambda: matmul_case("float"), "matmul_grid_swapped": lambda: matmul_case("float"),
    "reduce_plain_store": reduce_case, "reduce_reset_race": reduce_case, "attention_causal_lt": attention_case,
}
CASES.update({name: add_case for name in ("add_no_load_mask", "add_no_store_mask", "add_heap_store", "add_floor_grid",
                                          "add_pid_without_block", "add_torch_result", "add_no_device", "add_in_place",
                                          "add_band_write", "add_fixed_block", "add_never_written",
                                          "add_name_error", "add_store_twice")})
COMPILED = ("matmul", "matmul_fp16_acc")  # each costs a fresh process (about a second): the two that matter


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"kata_sample_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _close(got, expected) -> bool:
    if not isinstance(got, torch.Tensor) or got.shape != expected.shape or got.dtype != expected.dtype:
        return False
    rtol, atol = (1e-2, 1e-2) if expected.dtype == torch.float16 else (1e-4, 1e-4)
    return bool(torch.allclose(got.double(), expected.double(), rtol=rtol, atol=atol))


def judge(name: str) -> dict:
    path = HERE / f"{name}.py"
    entry, args, bound, expected = CASES[name]()
    start = time.perf_counter()
    try:
        guarded = kernels.run_guarded(getattr(_load(path), entry), args, block_bound=bound)
    except Exception as error:  # noqa: BLE001 — the learner's own error: its type, message and lines of the sample
        import traceback

        lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)]
        return {"name": name, "kind": "raised", "message": f"{type(error).__name__}: {error}", "lines": lines,
                "seconds": time.perf_counter() - start}
    seconds = time.perf_counter() - start
    found = [("error", guarded.error and guarded.error.kind, guarded.error and guarded.error.message),
             ("around", bool(guarded.around), guarded.around), ("modified", bool(guarded.modified), guarded.modified),
             ("no_device", bool(guarded.no_device), guarded.no_device),
             ("unstored", guarded.unstored > 0, guarded.unstored),
             ("rewritten", guarded.rewritten > 0, guarded.rewritten),
             ("values", not _close(guarded.value, expected), None)]
    for what, hit, detail in found:
        if hit:
            kind = hit if what == "error" else what
            return {"name": name, "kind": kind, "message": str(detail), "seconds": seconds,
                    "launches": [[l.kernel, list(l.grid)] for l in guarded.launches]}
    return {"name": name, "kind": "pass", "message": "", "seconds": seconds, "path": str(path),
            "launches": [[l.kernel, list(l.grid)] for l in guarded.launches], "_launches": guarded.launches}


SEALED = ("add", "add_heap_store", "softmax_two_rows")  # run again in a learner's sealed child, as `kata check` runs them


def sealed(name: str) -> dict:
    """`name` in a forked child fenced as the engine fences the learner's (checker.judge.worker.isolate: the seal,
    Landlock where there is one, captured output, bounded memory), the sample copied to a folder of its own."""
    import os
    import shutil
    import tempfile

    from checker.judge import fence, seal, worker

    entry, args, bound, expected = CASES[name]()
    folder = tempfile.mkdtemp(prefix="kata-guard-")
    path = Path(shutil.copy(HERE / f"{name}.py", Path(folder) / f"{name}.py"))
    seal.solution_modules()
    fence.prepare(None)
    read, write = os.pipe()
    capture = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            worker.isolate(capture.fileno(), worker.Limits(), torch.device("cpu"), write)
            try:
                guarded = kernels.run_guarded(worker.load_entry(path, entry, f"kata_learner_{name}"), args,
                                              block_bound=bound)
                said = {"kind": guarded.error.kind if guarded.error else "pass" if _close(guarded.value, expected)
                        else "values", "unstored": guarded.unstored}
            except BaseException as error:  # noqa: BLE001
                said = {"kind": "raised", "message": f"{type(error).__name__}: {error}"}
            os.write(write, json.dumps(said).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        said = json.loads(answer.read().decode() or '{"kind": "no answer"}')
    _, status = os.waitpid(pid, 0)
    capture.seek(0)
    shutil.rmtree(folder, ignore_errors=True)
    return {"sealed": name, "status": status, "output": capture.read().decode(errors="replace")[-500:], **said}


def main(names: list[str]) -> None:
    results = [judge(name) for name in names or sorted(CASES)]
    threads = []
    for result in results:
        launches = result.pop("_launches", None)
        if result["name"] in COMPILED and launches:
            def compile_one(result=result, launches=launches):
                start = time.perf_counter()
                problems = kernel_compile.compile_check(Path(result["path"]), launches, timeout=120)
                result["compile_seconds"] = time.perf_counter() - start
                if problems:
                    result.update(kind="compile", message=problems[0])
            threads.append(threading.Thread(target=compile_one))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        result.pop("path", None)
        print(json.dumps(result))
    from triton.runtime import interpreter

    print(json.dumps({"hooked_missing": kernels.check_hooked(interpreter), "triton": interpreter.triton.__version__}))
    for name in SEALED if not names else ():
        print(json.dumps(sealed(name)))


if __name__ == "__main__":
    main(sys.argv[1:])
