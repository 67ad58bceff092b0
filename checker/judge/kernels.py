"""The guard layer: Triton's interpreter made honest enough to judge a learner's kernel on a CPU.

Why. `TRITON_INTERPRET=1` runs a `@triton.jit` kernel on CPU tensors, program after program, in
NumPy. Alone it is not a judge: an unmasked load past the end reads the heap and passes; an unmasked
store corrupts the heap and the process aborts later; output the kernel never wrote holds whatever
`torch.empty` left there; programs run one after another, so two programs doing a non-atomic
read-modify-write of one address agree by luck; a `tl.dot` whose inner dimension is < 16 runs though
no GPU compiles it. Here the interpreter's memory operations are hooked so that each access is
checked *before* it happens, and the wrapper's call is wrapped so that what it leaves behind is
checked after (shared/KATAS-kernels.md, "The guard layer's requirements, as behaviour" 1-11).

How. `enter_interpreter()` sets the interpreter's environment (TRITON_INTERPRET=1,
TRITON_F32_DEFAULT=ieee, TRITON_DEFAULT_FP_FUSION=1), imports triton, checks that every interpreter
internal it hooks is there (a missing one is a loud KataError naming the tested range, never a silent
pass) and replaces them once per process:

- `InterpreterBuilder.create_masked_load / create_masked_store / create_atomic_rmw /
  create_atomic_cas`: the mask is made boolean (3.7.1 and 3.9.0 build `block_mask & scalar_mask` as
  int32 data and then refuse it; a GPU accepts it), the access's width is held to the block bound,
  every active lane (after the mask) must fall inside a tensor passed to this launch (a guarded input:
  its own span, not its band; a tensor the wrapper made: its storage, itself banded), and a plain store
  to an address another program of the launch stored or updated atomically (or an atomic on an
  address another program stored plainly) is a race. Stores and atomics are recorded, so the returned
  tensor's elements no kernel wrote are counted after the call;
- `create_dot`: an inner dimension < 16 fails as on a GPU;
- `GridExecutor.__call__`: a launch is recorded (kernel, grid, the signature the GPU compile needs)
  before its programs run, its tensors' ranges are worked out, and a guard's error leaves the launch
  as itself rather than wrapped in the interpreter's `InterpreterError`; a learner's own error leaves
  as the exception the kernel raised, its traceback reaching the kernel's own line;
- `InterpretedFunction.__call__` (a nested `@jit` call: `tl.max`, `tl.sum`, a helper of the learner's)
  and `_patch_lang`: triton re-patches `triton.language` on every nested call; here a module's
  language is patched once per launch (halves a softmax's time);
- `interpreter_builder.grid_idx` is read for the program id of a message, `set_grid_dim` for the grid.

`run_guarded(wrapper, args, block_bound=...)` then calls the learner's wrapper with each tensor
argument copied into a NaN-banded buffer (its own strides; 64 elements each side and the gaps of a
strided view hold NaN, integers their maximum), under a TorchFunctionMode that bands and
NaN-fills every `empty*` / `new_empty` the wrapper makes (zeros, ones, full are banded too, keeping
their values) and records the factory calls made without `device=` whose tensor then reaches a kernel
or is returned (on a GPU the kernel would be handed a host pointer; `.to(x.device)` of it is fine).
It returns a `Guarded`: the value, the launches, the first guard error, the returned tensor's
elements never stored, inputs whose bands or gaps changed, inputs changed in place, the no-device
calls, and the inputs the value aliases.

`refusals(tree)` finds what the family refuses before running (autotune, torch inside a kernel, block
pointers and descriptors, TF32 requests). The GPU-frontend compile is in checker.judge.kernel_compile.

Importing this module never imports triton (only `enter_interpreter` does), nor torch until a
function needs it. API additions to the brief's (nothing listed there was changed):
`Guarded.aliases` (inputs whose memory the returned value shares), `Launch.programs`,
`interpreted()`, `listen(callback)` (each launch as it starts, grid known), `check_hooked(module)`,
`poison(dtype)`, `BAND`.
"""
from __future__ import annotations

import ast
import importlib.metadata
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from checker.errors import KataError
from checker.text.i18n import plural, tr

SUPPORTED = ">=3.7,<3.10"
TESTED = "3.7–3.9"
LOW, HIGH = (3, 7), (3, 10)
BAND = 64  # guard elements on each side of every input and of every tensor the wrapper allocates
DOT_MIN = 16  # a GPU's tl.dot needs an inner dimension of at least 16
ENVIRONMENT = {"TRITON_INTERPRET": "1", "TRITON_F32_DEFAULT": "ieee", "TRITON_DEFAULT_FP_FUSION": "1"}
# What the layer hooks or reads, checked at start-up: (owner in triton.runtime.interpreter, attribute).
HOOKED = (("InterpreterBuilder", "create_masked_load"), ("InterpreterBuilder", "create_masked_store"),
          ("InterpreterBuilder", "create_atomic_rmw"), ("InterpreterBuilder", "create_atomic_cas"),
          ("InterpreterBuilder", "create_dot"), ("InterpreterBuilder", "set_grid_dim"),
          ("GridExecutor", "__call__"), ("InterpretedFunction", "__call__"), ("InterpretedFunction", "rewrite"),
          ("InterpreterBuilder", "set_grid_idx"), ("interpreter_builder", "grid_idx"), ("", "_patch_lang"),
          ("", "TensorHandle"), ("", "InterpreterError"))


class GuardError(Exception):
    """A guard's verdict inside a kernel: `kind` ("out_of_bounds", "too_wide", "race", "dot_inner") and
    `message` in the learner's terms. It reaches run_guarded's caller unwrapped."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Launch:
    kernel: str  # the @triton.jit function's name
    grid: tuple[int, int, int]
    signature: dict  # parameter -> "*fp32" | "*fp16" | "i32" | "i64" | "fp32" | "i1" | ..., or {"constexpr": value}

    @property
    def programs(self) -> int:
        return self.grid[0] * self.grid[1] * self.grid[2]


@dataclass
class Guarded:
    """What one guarded call of the learner's wrapper produced."""
    value: Any
    launches: list[Launch]
    error: GuardError | None
    unstored: int
    around: list[str]
    modified: list[str]
    no_device: list[str]
    aliases: list[str] = field(default_factory=list)
    rewritten: int = 0  # elements of the returned tensor a kernel stored that changed after its launch (torch's
    #                     `out.div_(...)`, `out += 1` after the kernel: the result did not come from the kernel)


# ---------------------------------------------------------------- availability


def _version_tuple(text: str) -> tuple[int, int] | None:
    parts = text.split(".")
    try:
        return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or "0")
    except (IndexError, ValueError):
        return None


def availability() -> str | None:
    """None when a triton in the supported range is installed (read from its metadata, not imported);
    else what to do about it, in the learner's language."""
    try:
        version = importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        if not sys.platform.startswith("linux"):
            return tr("The Triton katas need Triton, which has wheels only for Linux: on this machine practise the "
                      "torch-tiled katas (flash-attention, layernorm, softmax) instead.")
        return tr("The Triton katas need Triton: pip install 'kata[kernels]' (Linux).")
    found = _version_tuple(version)
    if found is None or not LOW <= found < HIGH:
        return tr("Triton {version} is installed, but kata's kernel checks are tested with Triton {tested} "
                  "(triton{range}): pip install 'kata[kernels]' installs one.", version=version, tested=TESTED,
                  range=SUPPORTED)
    return None


def interpreted() -> bool:
    """Whether this process runs kernels under the guarded interpreter."""
    return _hooks is not None


# ---------------------------------------------------------------- state of a call and of a launch


class _Region:
    """A range of memory a kernel may touch: a guarded input's span, a tensor the wrapper made, or the
    storage of any other tensor passed to a launch. Byte offsets from `start` index its records."""

    __slots__ = ("start", "end", "name", "stored", "owner", "atomic", "launch", "storage", "after")

    def __init__(self, start: int, end: int, name: str, storage: Any = None):
        self.start, self.end, self.name = start, end, name
        self.storage = storage  # the tensor storage the region is, where known (a launch's argument)
        self.after = None  # its bytes as the last launch that stored into it left them (uint8 tensor)
        self.stored = None  # bool per byte: stored or atomically updated during the call
        self.owner = None  # per launch: the program that stored each byte plainly (-1: none)
        self.atomic = None  # per launch: the program that updated it atomically (-1: none, -2: several)
        self.launch = -1


class _Input:
    __slots__ = ("name", "original", "buffer", "view", "span", "gaps")

    def __init__(self, name: str, original: Any, buffer: Any, view: Any, span: int, gaps: Any):
        self.name, self.original, self.buffer, self.view, self.span, self.gaps = name, original, buffer, view, span, gaps


class _Call:
    def __init__(self, block_bound: int | None):
        self.block_bound = block_bound
        self.regions: dict[int, _Region] = {}  # storage address -> region
        self.inputs: list[_Input] = []
        self.launches: list[Launch] = []
        self.error: GuardError | None = None
        self.no_device: list[str] = []
        self.host: dict[int, str] = {}  # storage address -> the factory call that made it on the CPU without device=
        self.buffers: list[Any] = []  # keeps the banded allocations alive as long as the call


class _LaunchState:
    __slots__ = ("record", "starts", "ends", "regions", "grid", "number", "patched")

    def __init__(self, record: Launch, regions: list[_Region], number: int):
        import numpy as np

        regions = sorted(regions, key=lambda r: r.start)
        self.record, self.regions, self.number = record, regions, number
        self.starts = np.array([r.start for r in regions], dtype=np.uint64)
        self.ends = np.array([r.end for r in regions], dtype=np.uint64)
        self.grid = (1, 1, 1)
        self.patched: set[int] = set()  # ids of the language modules patched during this launch


_call: _Call | None = None
_launch: _LaunchState | None = None
_launch_count = 0
_hooks: dict[str, Any] | None = None  # the originals, once installed
_PATCH_ONCE = True  # off only to measure what patching triton.language once per launch saves
_listener: Callable[[Launch], None] | None = None


def listen(callback: Callable[[Launch], None] | None) -> None:
    """Call `callback(launch)` as each launch starts, its grid known, before its programs run (the learner's child
    tells the parent, so that a case which runs out of time can say what it launched); None stops it."""
    global _listener
    _listener = callback


# ---------------------------------------------------------------- entering the interpreter


def enter_interpreter() -> None:
    """Run kernels under the guarded interpreter in this process from now on (idempotent). Must come
    before anything imports triton: the interpret knob is read when `@triton.jit` runs."""
    global _hooks
    if _hooks is not None:
        return
    os.environ.update(ENVIRONMENT)
    problem = availability()
    if problem is not None:
        raise KataError(problem)
    import triton  # noqa: F401
    from triton.runtime import interpreter

    missing = check_hooked(interpreter)
    if missing:
        raise KataError(unsupported_message(triton.__version__, missing))
    import triton.language as tl

    if not isinstance(getattr(tl.standard, "sum", None), interpreter.InterpretedFunction):
        # triton was imported before TRITON_INTERPRET was set: its own @jit helpers (tl.sum, tl.max) are compiled
        # functions that an interpreted kernel cannot call. kata's bug, not the learner's: say so loudly.
        raise RuntimeError("triton was imported in this process before kernels.enter_interpreter(); enter the "
                           "interpreter before anything imports triton")
    # The interpreter computes in NumPy, whose floating-point warnings ("overflow encountered in reduce" for a float16
    # block sum, "All-NaN slice" for a max over padding) would reach the report as if the learner's code had printed
    # them. A kernel's arithmetic warns nothing on a GPU; its results are what is judged.
    import warnings

    for module in (r"triton\.runtime\.interpreter", r"numpy(\..*)?"):  # numpy's own frames: where a reduce warns
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=module)
    _install(interpreter)


def check_hooked(interpreter: Any) -> list[str]:
    """The hooked interpreter attributes this triton lacks (names like InterpreterBuilder.create_dot)."""
    missing = []
    for owner, name in HOOKED:
        holder = getattr(interpreter, owner, None) if owner else interpreter
        if name == "grid_idx":  # an instance attribute, set by set_grid_idx before each program
            setter = getattr(getattr(interpreter, "InterpreterBuilder", None), "set_grid_idx", None)
            present = hasattr(holder, name) or name in getattr(getattr(setter, "__code__", None), "co_names", ())
        else:
            present = holder is not None and hasattr(holder, name)
        if not present:
            missing.append(f"{owner}.{name}" if owner else name)
    return missing


def unsupported_message(version: str, missing: list[str]) -> str:
    return tr("This Triton version ({version}) is not supported by kata (tested: {tested}): its interpreter lacks "
              "{missing}. Install a tested one: pip install 'triton{range}'.", version=version, tested=TESTED,
              missing=", ".join(missing), range=SUPPORTED)


def _install(itp: Any) -> None:
    global _hooks
    import numpy as np

    Builder, Grid, Interpreted = itp.InterpreterBuilder, itp.GridExecutor, itp.InterpretedFunction
    original = {"load": Builder.create_masked_load, "store": Builder.create_masked_store,
                "rmw": Builder.create_atomic_rmw, "cas": Builder.create_atomic_cas, "dot": Builder.create_dot,
                "grid_dim": Builder.set_grid_dim, "grid": Grid.__call__, "device_call": Interpreted.__call__,
                "patch_lang": itp._patch_lang}
    TensorHandle, InterpreterError, builder = itp.TensorHandle, itp.InterpreterError, itp.interpreter_builder
    import triton.language as tl

    bool_type = tl.int1

    def boolean(mask: Any) -> Any:
        if mask is None or mask.data.dtype == np.bool_:
            return mask
        return TensorHandle(mask.data.astype(np.bool_), bool_type)

    def create_masked_load(self, ptrs, mask, other, *rest, **kwargs):
        mask = boolean(mask)
        if _launch is not None:
            _access(ptrs, mask, "load")
        return original["load"](self, ptrs, mask, other, *rest, **kwargs)

    def create_masked_store(self, ptrs, value, mask, *rest, **kwargs):
        mask = boolean(mask)
        if _launch is not None:
            _access(ptrs, mask, "store")
        return original["store"](self, ptrs, value, mask, *rest, **kwargs)

    def create_atomic_rmw(self, op, ptr, val, mask, *rest, **kwargs):
        mask = boolean(mask)
        if _launch is not None:
            _access(ptr, mask, "atomic")
        return original["rmw"](self, op, ptr, val, mask, *rest, **kwargs)

    def create_atomic_cas(self, ptr, cmp, val, *rest, **kwargs):
        if _launch is not None:
            _access(ptr, None, "atomic")
        return original["cas"](self, ptr, cmp, val, *rest, **kwargs)

    def create_dot(self, a, b, *rest, **kwargs):
        inner = a.data.shape[-1] if a.data.ndim else 1
        if _launch is not None and inner < DOT_MIN:
            _fail("dot_inner", tr("program {pid} calls tl.dot with an inner dimension of {k} ({shape_a} × {shape_b}): "
                                  "on a GPU the inner dimension must be ≥ 16 (a block such as BK must be at least 16)",
                                  pid=_pid(), k=inner, shape_a=_shape(a.data), shape_b=_shape(b.data)))
        return original["dot"](self, a, b, *rest, **kwargs)

    def set_grid_dim(self, nx, ny, nz):
        if _launch is not None:
            _launch.grid = (int(nx), int(ny), int(nz))
            _launch.record.grid = _launch.grid
            if _listener is not None:
                _listener(_launch.record)
        return original["grid_dim"](self, nx, ny, nz)

    def grid_call(self, *args, **kwargs):
        global _launch, _launch_count
        if _call is None or _launch is not None:
            return _unwrapped(original["grid"], self, args, kwargs)
        record = Launch(kernel=getattr(self.fn, "__name__", "kernel"), grid=(0, 0, 0),
                        signature=_signature(self, args, kwargs))
        _call.launches.append(record)
        _launch_count += 1
        _launch = _LaunchState(record, _regions_of(args, kwargs), _launch_count)
        try:
            result = _unwrapped(original["grid"], self, args, kwargs)
            _snapshot(_launch)
            return result
        finally:
            _launch = None

    def _unwrapped(run, self, args, kwargs):
        try:
            return run(self, *args, **kwargs)
        except InterpreterError as error:
            cause = error
            while isinstance(cause, InterpreterError) and cause.__cause__ is not None:
                cause = cause.__cause__
            if cause is error:
                raise
            raise cause.with_traceback(cause.__traceback__) from None

    def device_call(self, *args, **kwargs):
        if _launch is None:
            return original["device_call"](self, *args, **kwargs)
        patch_lang(self.fn)  # once per language module and launch (patch_lang below)
        return self.rewrite()(*args, **kwargs)  # errors travel unwrapped to grid_call

    class _Unpatched:
        @staticmethod
        def restore() -> None:
            pass

    def patch_lang(fn):
        if _launch is None:
            return original["patch_lang"](fn)
        langs = {id(v) for v in fn.__globals__.values() if v is tl or v is tl.core}
        if langs and langs <= _launch.patched and _PATCH_ONCE:
            return _Unpatched
        scope = original["patch_lang"](fn)
        _launch.patched |= langs
        return scope

    Builder.create_masked_load = create_masked_load
    Builder.create_masked_store = create_masked_store
    Builder.create_atomic_rmw = create_atomic_rmw
    Builder.create_atomic_cas = create_atomic_cas
    Builder.create_dot = create_dot
    Builder.set_grid_dim = set_grid_dim
    Grid.__call__ = grid_call
    Interpreted.__call__ = device_call
    itp._patch_lang = patch_lang
    _hooks = {**original, "builder": builder}


# ---------------------------------------------------------------- the checks made at each access


def _pid() -> str:
    x, y, z = _hooks["builder"].grid_idx
    return f"({x}, {y}, {z})"


def _program_number() -> int:
    x, y, z = _hooks["builder"].grid_idx
    gx, gy, _ = _launch.grid
    return int(x) + gx * (int(y) + gy * int(z))


def _program_name(number: int) -> str:
    gx, gy, _ = _launch.grid
    return f"({number % gx}, {number // gx % gy}, {number // (gx * gy)})"


def _shape(data: Any) -> str:
    return "×".join(str(d) for d in data.shape) or "1"


def _fail(kind: str, message: str) -> None:
    error = GuardError(kind, message)
    if _call is not None and _call.error is None:
        _call.error = error  # kept even if the learner's code catches it
    raise error


def _access(ptrs: Any, mask: Any, kind: str) -> None:
    """Check one load, store or atomic of the running program before it happens."""
    import numpy as np

    launch, call = _launch, _call
    addresses = ptrs.data
    width = int(addresses.size)
    if call.block_bound is not None and width > call.block_bound:
        _fail("too_wide", tr("program {pid} touches {width} elements in one {what}, more than the blocks passed allow "
                             "({bound}): load and store one block at a time", pid=_pid(), width=width,
                             bound=call.block_bound, what={"load": "tl.load", "store": "tl.store"}.get(kind, "atomic")))
    if mask is not None:
        active = np.broadcast_to(mask.data, addresses.shape)
        addresses = addresses[active]
    else:
        addresses = addresses.reshape(-1)
    if addresses.size == 0:
        return
    size = np.uint64(ptrs.get_element_ty().primitive_bitwidth // 8 or 1)
    addresses = addresses.astype(np.uint64, copy=False)
    which = np.searchsorted(launch.starts, addresses, side="right").astype(np.int64) - 1
    inside = which >= 0
    inside[inside] &= addresses[inside] + size <= launch.ends[which[inside]]
    if not inside.all():
        lanes, pid = int((~inside).sum()), _pid()
        if kind == "load":
            message = plural(lanes, "program {pid} loads {n} element outside every tensor passed to the kernel (an "
                                    "unmasked lane, or an offset past the end)",
                             "program {pid} loads {n} elements outside every tensor passed to the kernel (unmasked "
                             "lanes, or offsets past the end)", pid=pid)
        elif kind == "store":
            message = plural(lanes, "program {pid} stores {n} element outside every tensor passed to the kernel (an "
                                    "unmasked lane, or an offset past the end)",
                             "program {pid} stores {n} elements outside every tensor passed to the kernel (unmasked "
                             "lanes, or offsets past the end)", pid=pid)
        else:
            message = plural(lanes, "program {pid} updates {n} element atomically outside every tensor passed to the "
                                    "kernel (an unmasked lane, or an offset past the end)",
                             "program {pid} updates {n} elements atomically outside every tensor passed to the kernel "
                             "(unmasked lanes, or offsets past the end)", pid=pid)
        _fail("out_of_bounds", message)
    if kind == "load":
        return
    program = _program_number()
    for index in np.unique(which) if len(launch.regions) > 1 else (0,):
        region = launch.regions[int(index)]
        offsets = (addresses if len(launch.regions) == 1 else addresses[which == index]) - np.uint64(region.start)
        offsets = offsets.astype(np.int64)
        _record(region, offsets, program, kind)


def _record(region: _Region, offsets: Any, program: int, kind: str) -> None:
    import numpy as np

    nbytes = region.end - region.start
    if region.launch != _launch.number:
        region.owner = np.full(nbytes, -1, dtype=np.int32)
        region.atomic = np.full(nbytes, -1, dtype=np.int32)
        region.launch = _launch.number
    owner = region.owner[offsets]
    clash = (owner >= 0) & (owner != program)
    if kind == "store":
        updated = region.atomic[offsets]
        clash |= (updated != -1) & (updated != program)
    if clash.any():
        first = int(np.argmax(clash))
        other = int(owner[first])
        if other < 0 or other == program:
            other = int(region.atomic[offsets[first]])
        lanes = int(np.unique(offsets[clash]).size)
        by = _program_name(other) if other >= 0 else "(…)"
        what = "store" if kind == "store" else "atomic"
        message = {
            "store": plural(lanes, "programs {a} and {b} both store to {n} element of `{name}` in one launch, without "
                                   "an atomic: on a GPU they run at the same time and one write is lost (a race); use "
                                   "tl.atomic_add, or give each program its own slot",
                            "programs {a} and {b} both store to {n} elements of `{name}` in one launch, without an "
                            "atomic: on a GPU they run at the same time and one write is lost (a race); use "
                            "tl.atomic_add, or give each program its own slot", a=by, b=_pid(), name=region.name),
            "atomic": plural(lanes, "program {b} updates {n} element of `{name}` atomically that program {a} stored "
                                    "plainly in the same launch: on a GPU they race",
                             "program {b} updates {n} elements of `{name}` atomically that program {a} stored plainly "
                             "in the same launch: on a GPU they race", a=by, b=_pid(), name=region.name)}[what]
        _fail("race", message)
    if kind == "store":
        region.owner[offsets] = program
    else:
        updated = region.atomic[offsets]
        region.atomic[offsets] = np.where((updated == -1) | (updated == program), program, -2)
    if region.stored is None:
        region.stored = np.zeros(nbytes, dtype=np.bool_)
    region.stored[offsets] = True


def _regions_of(args: tuple, kwargs: dict) -> list[_Region]:
    """The regions of the tensors passed to a launch (registered ones, else each tensor's storage)."""
    seen: dict[int, _Region] = {}

    def visit(value: Any) -> None:
        if isinstance(value, (tuple, list)):
            for item in value:
                visit(item)
            return
        base = getattr(value, "base", None) if type(value).__name__ == "TensorWrapper" else value
        if not hasattr(base, "untyped_storage"):
            return
        storage = base.untyped_storage()
        address = storage.data_ptr()
        if address == 0 or address in seen:
            return
        if _call.host:
            _note_host(_call, base)
        region = _call.regions.get(address)
        if region is None:
            region = _Region(address, address + storage.nbytes(), _tensor_name(base))
            _call.regions[address] = region
        if region.storage is None:
            region.storage = storage
        seen[address] = region

    for value in (*args, *kwargs.values()):
        visit(value)
    return list(seen.values())


def _snapshot(launch: _LaunchState) -> None:
    """After a launch's programs ran: the bytes of each region it stored into, as it left them (a torch op that
    changes the result after the last launch is then seen by `_rewritten`)."""
    import torch

    for region in launch.regions:
        if region.launch == launch.number and region.storage is not None:
            region.after = _region_bytes(region).clone()


def _region_bytes(region: _Region) -> Any:
    """The region's memory as a uint8 tensor (a view: the region may be the middle of a banded buffer)."""
    import torch

    whole = torch.empty(0, dtype=torch.uint8).set_(region.storage)
    low = region.start - region.storage.data_ptr()
    return whole[low: low + region.end - region.start]


def _byte_offsets(value: Any, region: _Region) -> Any:
    """The offsets, from the region's start, of every byte of every element of `value` (a CPU tensor)."""
    import torch

    size = value.element_size()
    offsets = torch.zeros((), dtype=torch.int64)
    for length, stride in zip(value.shape, value.stride()):
        offsets = offsets.unsqueeze(-1) + torch.arange(length, dtype=torch.int64) * stride
    first = value.data_ptr() - region.start + offsets.reshape(-1) * size
    return first.unsqueeze(-1) + torch.arange(size, dtype=torch.int64)  # [elements, bytes]


def _rewritten(call: _Call, value: Any) -> int:
    """Elements of the returned tensor that a kernel stored and something changed after that launch: torch finishing
    the result after the kernel (`out /= out.sum()`), which the contract's rule forbids even where the values are
    right (on a GPU it is a second pass over memory, and the kata is the kernel)."""
    import torch

    if not interpreted() or not isinstance(value, torch.Tensor) or value.numel() == 0 or value.device.type != "cpu":
        return 0
    region = call.regions.get(value.untyped_storage().data_ptr())
    if region is None or region.after is None or region.stored is None:
        return 0
    offsets = _byte_offsets(value, region)
    inside = ((offsets >= 0) & (offsets < region.end - region.start)).all(dim=1)
    offsets = offsets[inside]
    if offsets.numel() == 0:
        return 0
    stored = torch.from_numpy(region.stored)[offsets[:, 0]]  # recorded at each element's first byte
    now = _region_bytes(region)[offsets]
    changed = (now != region.after[offsets]).any(dim=1) & stored
    return int(changed.sum())


def _tensor_name(tensor: Any) -> str:
    return tr("a tensor of shape {shape}", shape=list(tensor.shape))


def _signature(executor: Any, args: tuple, kwargs: dict) -> dict:
    """What the GPU frontend compile needs of this launch: each parameter's type, the constexprs' values."""
    import inspect

    fn = executor.fn
    try:
        names = inspect.getfullargspec(fn)
        wanted = {k: v for k, v in kwargs.items() if k in names.args or k in names.kwonlyargs}
        bound = inspect.getcallargs(fn, *args, **wanted)
    except TypeError:
        return {}
    constexprs = set(getattr(executor, "constexprs", ()))
    signature: dict = {}
    for name, value in bound.items():
        if name in constexprs or value is None:
            signature[name] = {"constexpr": _plain(value)}
        else:
            signature[name] = _type_of(value)
    return signature


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "value"):  # tl.constexpr
        return _plain(value.value)
    if type(value).__name__ == "dtype" and type(value).__module__.startswith("triton"):  # OUT=tl.float16
        return {"tl_dtype": str(value)}  # "fp16": kernel_compile makes it a tl.dtype again (a string would not compile)
    return str(value)


_POINTER = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64", "int32": "i32",
            "int64": "i64", "int16": "i16", "int8": "i8", "uint8": "u8", "bool": "i1"}


def _type_of(value: Any) -> str:
    if hasattr(value, "dtype") and hasattr(value, "data_ptr"):
        return "*" + _POINTER.get(str(value.dtype).rsplit(".", 1)[-1], "fp32")
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        return "i32" if -2**31 <= value < 2**31 else "i64" if -2**63 <= value < 2**63 else "u64"
    if isinstance(value, float):
        return "fp32"
    return "constexpr"


# ---------------------------------------------------------------- the call


def poison(dtype: Any) -> Any:
    """What a guard element and a fresh `empty` hold: NaN, an integer's maximum, True."""
    import torch

    if dtype.is_floating_point or dtype.is_complex:
        return float("nan")
    if dtype == torch.bool:
        return True
    return torch.iinfo(dtype).max


def _is_poison(tensor: Any) -> Any:
    import torch

    if tensor.dtype.is_floating_point or tensor.dtype.is_complex:
        return torch.isnan(tensor)
    return tensor == poison(tensor.dtype)


def _span(tensor: Any) -> int:
    if tensor.numel() == 0:
        return 0
    return 1 + sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()))


def _guard_input(call: _Call, name: str, tensor: Any) -> Any:
    import torch

    if any(stride == 0 and size > 1 for size, stride in zip(tensor.shape, tensor.stride())):
        tensor = tensor.contiguous()  # an expanded view: elements sharing memory cannot be copied into their places
    span = _span(tensor)
    with torch.no_grad():
        buffer = torch.full((span + 2 * BAND,), poison(tensor.dtype), dtype=tensor.dtype, device=tensor.device)
        view = buffer.as_strided(tensor.shape, tensor.stride(), BAND)
        view.copy_(tensor)
    gaps = None
    if span and span != tensor.numel():
        covered = torch.zeros(span, dtype=torch.bool, device=tensor.device)
        covered.as_strided(tensor.shape, tensor.stride(), 0).fill_(True)
        gaps = ~covered
    if tensor.requires_grad:
        view = view.detach().requires_grad_()
    size = tensor.element_size()
    start = buffer.data_ptr() + BAND * size
    call.regions[buffer.untyped_storage().data_ptr()] = _Region(start, start + span * size, f"{name}")
    call.inputs.append(_Input(name, tensor, buffer, view, span, gaps))
    return view


def _band(call: _Call, made: Any, label: Callable[[], str], fill: bool) -> Any:
    """`made` (a fresh tensor of a factory) moved into the middle of a banded buffer: NaN-filled for
    `empty*`, its values kept for zeros, ones, full."""
    import torch

    if not isinstance(made, torch.Tensor) or made.is_meta or made.numel() == 0 or made.requires_grad:
        return made
    size = made.element_size()
    elements = made.untyped_storage().nbytes() // size
    with torch.no_grad():
        buffer = torch.full((elements + 2 * BAND,), poison(made.dtype), dtype=made.dtype, device=made.device)
        view = buffer.as_strided(made.shape, made.stride(), BAND + made.storage_offset())
        if not fill:
            view.copy_(made)
    start = buffer.data_ptr() + BAND * size
    call.regions[buffer.untyped_storage().data_ptr()] = _Region(start, start + elements * size, label())
    call.buffers.append(buffer)
    return view


_EMPTY = ("empty", "empty_like", "new_empty", "empty_strided")
_KEEP = ("zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "new_zeros", "new_ones", "new_full")
_HOST = ("empty", "zeros", "ones", "full", "empty_strided", "arange", "rand", "randn", "randint", "linspace", "tensor",
         "eye")  # made on the CPU unless told device=: on a GPU the kernel would be handed a host pointer


def _factories() -> dict[Any, tuple[str, bool, bool]]:
    """torch function -> (name, band it with NaN (empty*) / keeping its values, needs device=)."""
    import torch

    table: dict[Any, tuple[str, bool, bool]] = {}
    for name in {*_EMPTY, *_KEEP, *_HOST}:
        for owner in (torch, torch.Tensor):
            fn = getattr(owner, name, None)
            if fn is None or (owner is torch.Tensor) != name.startswith("new_"):
                continue
            table[fn] = (name, name in _EMPTY, name in _HOST)
    return table


_FACTORY_TABLE: dict | None = None


def _learner_call(name: str, target: bool = False) -> str:
    """The factory call as the wrapper wrote it (`torch.empty(n)`), from the innermost frame outside this module and
    torch: the learner's wrapper, or a known mistake's (kata's own file, under checker/, which the frames of the spec
    and the engine further out must not stand for: a frame past the wrapper is a caller's line, not the call); with
    `target`, the name it is assigned to where there is one (`out`)."""
    import linecache

    import torch

    skip = (os.path.dirname(torch.__file__), os.path.abspath(__file__))
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename.startswith(skip) or frame.f_code.co_filename.startswith("<")):
        frame = frame.f_back
    if frame is not None:
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        try:
            for node in ast.walk(ast.parse(line)):
                if target and isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                        isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
                    return node.targets[0].id
                if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == name:
                    return ast.get_source_segment(line, node) or line
        except SyntaxError:
            pass
        if line:
            return line
    return f"torch.{name}(…)"


def _moved(func: Any, args: tuple, kwargs: dict) -> bool:
    """Whether a `.to(...)` / `.cuda()` / `.type_as(other)` call names a device (not a dtype alone)."""
    import torch

    if func is not torch.Tensor.to:
        return True
    for value in (*args[1:], *kwargs.values()):
        if isinstance(value, (torch.device, torch.Tensor)) or isinstance(value, str) and not value.startswith("torch."):
            return True
    return False


def _note_host(call: _Call, tensor: Any) -> None:
    """A tensor made on the CPU without device= reached a kernel or the result: on a GPU that is a host pointer."""
    label = call.host.pop(tensor.untyped_storage().data_ptr(), None)
    if label is not None:
        call.no_device.append(label)


def _mode(call: _Call) -> Any:
    from torch.overrides import TorchFunctionMode

    import torch

    global _FACTORY_TABLE
    if _FACTORY_TABLE is None:
        _FACTORY_TABLE = _factories()
    table = _FACTORY_TABLE
    moves = {torch.Tensor.to, torch.Tensor.cuda, torch.Tensor.type_as}

    class Allocations(TorchFunctionMode):
        """Bands and NaN-fills what the wrapper allocates; records allocations made without device=."""

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            entry = table.get(func)
            if entry is None:
                made = func(*args, **kwargs)
                if func in moves and _launch is None and _moved(func, args, kwargs) and isinstance(made, torch.Tensor):
                    call.host.pop(made.untyped_storage().data_ptr(), None)  # `.to(x.device)`: where it is asked to be
                return made
            name, empty, host = entry
            made = func(*args, **kwargs)
            if _launch is not None:  # triton's own bookkeeping inside a launch
                return made
            if name in _EMPTY or name in _KEEP:
                made = _band(call, made, lambda: _learner_call(name, target=True), fill=empty)
            if host and kwargs.get("device") is None and isinstance(made, torch.Tensor):
                call.host[made.untyped_storage().data_ptr()] = _learner_call(name)
            return made

    return Allocations()


def run_guarded(wrapper: Callable[..., Any], args: dict, *, block_bound: int | None) -> Guarded:
    """Call the learner's wrapper on guarded copies of `args` (see the module's docstring). A guard's
    error stops the call and is returned in `error`; the learner's own exceptions propagate."""
    import torch

    global _call
    call = _Call(block_bound)
    guarded = {name: _guard_input(call, name, value) if isinstance(value, torch.Tensor) else value
               for name, value in args.items()}
    value, error = None, None
    previous, _call = _call, call
    try:
        with _mode(call):
            value = wrapper(**guarded)
    except GuardError as raised:
        error = call.error or raised
    except BaseException:
        if call.error is None:
            raise
        error = call.error  # the learner's code caught the guard's error and then failed: the guard's verdict
    finally:
        _call = previous
    error = error or call.error
    if isinstance(value, torch.Tensor) and call.host:
        _note_host(call, value)
    return Guarded(value=None if error else value, launches=call.launches, error=error,
                   unstored=0 if error else _unstored(call, value), around=_around(call), modified=_modified(call),
                   no_device=call.no_device, aliases=[] if error else _aliases(call, value),
                   rewritten=0 if error else _rewritten(call, value))


def _unstored(call: _Call, value: Any) -> int:
    """Elements of the returned tensor that no kernel stored (or updated atomically) during the call."""
    import numpy as np
    import torch

    if not interpreted() or not isinstance(value, torch.Tensor) or value.numel() == 0 or value.device.type != "cpu":
        return 0
    size = value.element_size()
    offsets = torch.zeros((), dtype=torch.int64)
    for length, stride in zip(value.shape, value.stride()):
        offsets = offsets.unsqueeze(-1) + torch.arange(length, dtype=torch.int64) * stride
    addresses = value.data_ptr() + offsets.reshape(-1).numpy() * size
    region = call.regions.get(value.untyped_storage().data_ptr())
    if region is None or region.stored is None:
        return int(value.numel())
    relative = addresses - region.start
    inside = (relative >= 0) & (relative < region.end - region.start)
    stored = np.zeros(relative.shape, dtype=np.bool_)
    stored[inside] = region.stored[relative[inside]]
    return int((~stored).sum())


def _around(call: _Call) -> list[str]:
    import torch

    changed = []
    with torch.no_grad():
        for guard in call.inputs:
            bands = torch.cat([guard.buffer[:BAND], guard.buffer[BAND + guard.span:]])
            ok = bool(_is_poison(bands).all())
            if ok and guard.gaps is not None:
                ok = bool(_is_poison(guard.buffer[BAND:BAND + guard.span][guard.gaps]).all())
            if not ok:
                changed.append(guard.name)
    return changed


def _modified(call: _Call) -> list[str]:
    import torch

    changed = []
    with torch.no_grad():
        for guard in call.inputs:
            now, before = guard.view, guard.original
            if now.shape != before.shape or now.dtype != before.dtype:
                changed.append(guard.name)
                continue
            same = now == before
            if now.dtype.is_floating_point or now.dtype.is_complex:
                same |= torch.isnan(now) & torch.isnan(before)
            if not bool(same.all()):
                changed.append(guard.name)
    return changed


def _aliases(call: _Call, value: Any) -> list[str]:
    import torch

    if not isinstance(value, torch.Tensor):
        return []
    storage = value.untyped_storage().data_ptr()
    return [guard.name for guard in call.inputs if guard.buffer.untyped_storage().data_ptr() == storage]


# ---------------------------------------------------------------- refused before running

_BLOCK_POINTERS = {"make_block_ptr", "advance", "make_tensor_descriptor", "load_tensor_descriptor",
                   "store_tensor_descriptor", "TensorDescriptor", "tensor_descriptor"}


def _decorators(node: ast.AST) -> list[tuple[str, int]]:
    found = []
    for decorator in getattr(node, "decorator_list", ()):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        found.append((ast.unparse(target).split(".")[-1], decorator.lineno))
    return found


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _imported(tree: ast.Module, package: str) -> set[str]:
    """The names under which `package` (or a part of it) is imported in the file."""
    names = {package}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names
                      if alias.name.split(".")[0] == package}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == package:
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def refusals(tree: ast.Module) -> list[tuple[int, str]]:
    """What the Triton family refuses before running, found in the syntax tree: (line, message)."""
    torch_names, triton_names = _imported(tree, "torch"), _imported(tree, "triton") | {"tl"}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            decorators = _decorators(node)
            for name, line in decorators:
                if name == "autotune":
                    found.append((line, tr(
                        "@triton.autotune: the checker passes the block sizes itself, and autotuning needs a GPU "
                        "driver (under Triton's interpreter it fails with \"0 active drivers\"); take the blocks as "
                        "arguments instead")))
            if any(name == "jit" for name, _ in decorators):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Name) and inner.id in torch_names and isinstance(inner.ctx, ast.Load):
                        found.append((inner.lineno, tr(
                            "`{name}` inside the @triton.jit function {kernel}: a kernel cannot call torch (it runs on "
                            "the GPU); use tl.* operations there, and torch only in the wrapper", name=inner.id,
                            kernel=node.name)))
                        break
        elif isinstance(node, ast.Attribute) and node.attr in _BLOCK_POINTERS and _root(node) in triton_names or \
                isinstance(node, ast.Name) and node.id == "TensorDescriptor":
            name = node.attr if isinstance(node, ast.Attribute) else node.id
            found.append((node.lineno, tr(
                "{name}: block pointers and tensor descriptors are not used in these katas (block pointers are gone "
                "from Triton 3.9's interpreter, descriptors need a GPU); compute the pointers from offsets and strides "
                "and mask the loads and stores", name=name)))
        elif isinstance(node, ast.keyword) and (
                node.arg == "input_precision" and isinstance(node.value, ast.Constant)
                and str(node.value.value).startswith("tf32")
                or node.arg == "allow_tf32" and isinstance(node.value, ast.Constant) and node.value.value is True):
            found.append((node.value.lineno, tr(
                "{request}: TF32 is not allowed here; float32 cases are compared at float32 accuracy (the checker's "
                "dots are IEEE float32), and a GPU's TF32 would not meet it", request=ast.unparse(node))))
    return sorted(set(found))
