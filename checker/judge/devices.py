"""Run code as if its tensors lived on a GPU (or on `meta`), on a machine that has only a CPU.

Why. A learner's function must follow the device of its inputs: `torch.zeros(T)` where
`torch.zeros_like(rewards)` was meant works on the CPU and breaks on a GPU ("Expected all tensors
to be on the same device"). kata checks on CPU-only machines too, so it cannot just run the case on
a GPU; and on the CPU `rewards.device` *is* the CPU, so `.to(rewards.device)` cannot be told from a
move to the CPU: marking "tensors made without device=" rejects correct code. So here tensors
*report* another device while computing on the CPU, and the device's rules are applied to them.

How. A case's tensors become `VirtualTensor`s: CPU tensors of a subclass (one per device, cuda:0
or meta) whose `device`, `is_cuda`, `is_meta` and `get_device` say where they would be. A
TorchFunctionMode, `Simulation`, sees every torch call the code makes. Calls given `device=`
(`torch.zeros(3, device=x.device)`, `torch.tensor(.., device=)`, `arange`, `as_tensor`, `full`,
`*_like`, `new_*`) run on the CPU and their result goes where it was asked; moves (`.to(device)`,
`.to(other)`, `.cuda()`, `.cpu()`, `.type_as`, `new_tensor`, and so `module.to(device)`) change the
reported device; any other call with a simulated tensor among its arguments is checked against the
device's rules, runs on the CPU, and its results report the device. CUDA is never initialised.
Autograd is the CPU's own (the tensors are real CPU tensors), so gradients through modules,
parameters and moves are exact. Each CPU tensor made during the call is labelled with what made
it, so a broken rule is reported in the learner's terms (`torch.arange(...)` made a tensor on the
CPU, then `<=` combined it with tensors on cuda:0).

Why not a wrapper subclass with `__torch_dispatch__`, as torch's LoggingTensor and TwoTensor:
in torch 2.13 the first dispatch to any Python tensor subclass makes torch import
`torch.distributed.tensor` (about 500 modules, over 2 s, in every checker process), and a
wrapper whose C++ device is CUDA aborts the process in autograd on a CPU build. Checking at the
level of the calls the learner writes costs nothing to import and names the learner's own call.

What it reproduces. CUDA: a call that mixes a CPU tensor of one or more dims with a device tensor
raises; 0-dim CPU tensors mix freely (but a call writing into one does not); copy_, fill_ and
x[...] = v with plain indices cross devices; CPU index tensors index a device tensor; advanced
assignment takes only 0-dim values from the CPU; `.numpy()` (so `np.asarray`) of a device tensor
raises; `.item()`, `bool()`, `.tolist()`, `float()`, formatting and printing work; `torch.tensor` of a
list of device scalars reads them into a CPU tensor. meta: no data, so `.item()`, `bool()`,
`float()`, `.tolist()`, `.numpy()`, `.cpu()`, copying out and data-dependent ops (nonzero, boolean
indexing, masked_select, unique, equal) raise; copies and index_put_ into meta take CPU values.
A broken rule raises `DeviceProblem`: its str() is torch's own message, its `problem` the report's.

What it does not. The rules apply to the calls the code makes, not to the aten ops inside them
(a Python-level torch function is judged by its arguments). Values come from the CPU kernels (a
GPU's may differ in the last bits; TF32 is off while checking anyway). There is one GPU (every
cuda index is cuda:0), no streams and no memory limits; `torch.cuda.*` calls raise as on any CPU
build. A few non-elementwise CUDA ops reject a 0-dim CPU operand that passes here, and real meta
lacks kernels for some ops that run here. tests/judge/test_devices_idioms.py holds the idioms, right and
wrong, checked against real meta tensors and, wherever a GPU is present, against CUDA
(benchmarks/gpu_check.py runs them on a GPU with every kata's reference check).
"""
from __future__ import annotations

import linecache
import re
import sys
from typing import Any, Callable

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_map

from checker.text.i18n import tr

CPU = torch.device("cpu")
CUDA = torch.device("cuda", 0)
META = torch.device("meta")
KATA_CODE = __file__.rsplit("/", 2)[0] + "/"  # checker/: the frames of kata's own code, specs included

_ACTIVE: list["Simulation"] = []  # the simulations entered, innermost last (for the words of a problem)


def virtual(device: Any) -> torch.device | None:
    """The simulated device that `device` names (any cuda index is cuda:0; meta), or None."""
    if device is None or isinstance(device, bool):
        return None
    try:
        named = device if isinstance(device, torch.device) else torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        return None
    return CUDA if named.type == "cuda" else META if named.type == "meta" else None


def device_of(t: torch.Tensor) -> torch.device:
    return t.virtual if isinstance(t, VirtualTensor) else CPU


class DeviceProblem(RuntimeError):
    """Code a real device would reject. str() is torch's message; `problem` is the report's sentence."""

    def __init__(self, message: str, problem: str):
        super().__init__(message)
        self.problem = problem


class _NoData(DeviceProblem, NotImplementedError):
    """Copying out of meta, as torch raises it."""


class _NotOnHost(DeviceProblem, TypeError):
    """`.numpy()` of a tensor that is not on the CPU, as torch raises it."""


# ---------------------------------------------------------------- the tensors


class VirtualTensor(torch.Tensor):
    """A CPU tensor that reports the simulated device `virtual` (one subclass per device)."""

    virtual: torch.device = CUDA

    # Outside a Simulation the values are plain CPU tensors; inside, the mode decides every result.
    __torch_function__ = torch._C._disabled_torch_function_impl

    @property
    def device(self) -> torch.device:  # type: ignore[override]
        return self.virtual

    @property
    def is_cuda(self) -> bool:  # type: ignore[override]
        return self.virtual.type == "cuda"

    @property
    def is_meta(self) -> bool:  # type: ignore[override]
        return self.virtual.type == "meta"

    @property
    def is_cpu(self) -> bool:  # type: ignore[override]
        return False

    def get_device(self) -> int:  # type: ignore[override]
        return self.virtual.index if self.virtual.type == "cuda" else -1

    def __repr__(self, *, tensor_contents: Any = None) -> str:  # type: ignore[override]
        with torch._C.DisableTorchFunction():
            if self.virtual.type == "meta":
                dtype = "" if self.dtype == torch.get_default_dtype() else f", dtype={self.dtype}"
                return f"tensor(..., device='meta', size={tuple(self.shape)}{dtype})"
            text = torch.Tensor.__repr__(self.as_subclass(torch.Tensor))
        return f"{text[:-1]}, device='{self.virtual}')"


class VirtualGenerator(torch.Generator):
    """A CPU generator that reports the simulated device `virtual`, as `torch.Generator(device="cuda")` would be.

    It draws the CPU's numbers (it is a real CPU generator to every kernel); the Simulation checks, call by
    call, that what it draws into lives on its device, as CUDA's check_generator does (`torch.rand(n,
    generator=g)` without device= makes CPU numbers, and a CUDA generator is refused there).
    """

    virtual: torch.device = CUDA

    @property
    def device(self) -> torch.device:  # type: ignore[override]
        return self.virtual


def _generator_device(generator: Any) -> torch.device | None:
    """The device a `generator=` argument lives on (simulated or real), or None when there is none."""
    if isinstance(generator, VirtualGenerator):
        return generator.virtual
    if isinstance(generator, torch.Generator):
        return generator.device
    return None


class _OnCuda(VirtualTensor):
    virtual = CUDA


class _OnMeta(VirtualTensor):
    virtual = META


_CLASSES = {CUDA: _OnCuda, META: _OnMeta}


def on(t: torch.Tensor, device: torch.device) -> VirtualTensor:
    """The very values of `t` (an alias, in the same autograd graph), reporting `device`."""
    with torch._C.DisableTorchFunction():
        return t.as_subclass(_CLASSES[device])


def _plain(t: torch.Tensor) -> torch.Tensor:
    with torch._C.DisableTorchFunction():
        return t.as_subclass(torch.Tensor)


# ---------------------------------------------------------------- the rules, call by call

T = torch.Tensor
_COPIES = {T.copy_}
_FILLS = {T.fill_, T.masked_fill, T.masked_fill_, torch.fill, torch.masked_fill}  # a 0-dim value is read from anywhere
_PUTS = {T.index_put_, T.index_put, torch.index_put, torch.index_put_}
_NEEDS_DATA = {T.item, T.__bool__, T.__float__, T.__int__, T.__index__, T.__complex__, T.nonzero, torch.nonzero,
               T.argwhere, torch.argwhere, T.masked_select, torch.masked_select, T.unique, torch.unique,
               T.unique_consecutive, torch.unique_consecutive, T.equal, torch.equal, T.allclose, torch.allclose,
               T.bincount, torch.bincount, T.histc, torch.histc, T.nonzero_static, torch.nonzero_static}
_MOVES_VALUES = {torch.tensor, torch.as_tensor, torch.asarray}  # they read a sequence's values, or follow a tensor
_INPLACE_DUNDERS = {"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__ipow__",
                    "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__", "__imatmul__", "__setitem__"}


def _tensors(args: tuple, kwargs: dict) -> list[torch.Tensor]:
    found: list[torch.Tensor] = []

    def visit(value: Any, depth: int) -> None:
        if isinstance(value, torch.Tensor):
            found.append(value)
        elif depth < 2 and isinstance(value, (list, tuple)):
            for item in value:
                visit(item, depth + 1)

    for value in args:
        visit(value, 0)
    for value in kwargs.values():
        visit(value, 0)
    return found


def _written(func: Any, args: tuple, kwargs: dict) -> set[int]:
    """ids of the tensors the call writes into: self of an in-place method, out=."""
    ids = {id(kwargs["out"])} if isinstance(kwargs.get("out"), torch.Tensor) else set()
    name = getattr(func, "__name__", "")
    if args and isinstance(args[0], torch.Tensor) and _is_method(func) and (
            name.endswith("_") and not name.startswith("__") or name in _INPLACE_DUNDERS):
        ids.add(id(args[0]))
    return ids


def _is_method(func: Any) -> bool:
    qualname = getattr(func, "__qualname__", "") or ""
    return qualname.startswith(("TensorBase.", "Tensor.")) or getattr(func, "__objclass__", None) in (T, torch._C.TensorBase)


def _index_tensors(index: Any) -> list[torch.Tensor]:
    items = index if isinstance(index, (tuple, list)) else (index,)
    return [i for i in items if isinstance(i, torch.Tensor)]


def _result_device(func: Any, args: tuple, kwargs: dict, tensors: list[torch.Tensor]) -> torch.device:
    """The device the call's result lives on; raises DeviceProblem where the real device would raise."""
    free: set[int] = set()
    target = device_of(args[0]) if args and isinstance(args[0], torch.Tensor) else None
    if func in _COPIES or func is T.__setitem__ and not _index_tensors(args[1]):
        source = args[1] if func in _COPIES else args[2]
        if isinstance(source, torch.Tensor):  # a copy crosses devices, but meta has nothing to copy out
            if device_of(source).type == "meta" and target.type != "meta":
                raise _NoData("Cannot copy out of meta tensor; no data!", _copy_out_of_meta())
            free.add(id(source))
    if func in (T.__getitem__, T.__setitem__) or func in _PUTS:
        indices = _index_tensors(args[1]) if len(args) > 1 else []
        if target is not None and target.type == "meta" and any(i.dtype == torch.bool for i in indices):
            raise _needs_data("aten::nonzero: attempted to run this operator with Meta tensors, but there was no "
                              "fake impl or Meta kernel registered")
        free |= {id(i) for i in indices if not isinstance(i, VirtualTensor)}  # CPU indices index any device
        values = args[2] if len(args) > 2 else None
        if isinstance(values, torch.Tensor) and (values.dim() == 0 or target.type == "meta" and device_of(values) == CPU):
            free.add(id(values))  # CUDA takes only 0-dim values from elsewhere; meta takes CPU ones
    if func in _FILLS:
        value = args[-1] if len(args) > 1 else kwargs.get("value")
        if isinstance(value, torch.Tensor) and value.dim() == 0:
            free.add(id(value))
    written = _written(func, args, kwargs)
    free |= {id(t) for t in tensors if not isinstance(t, VirtualTensor) and t.dim() == 0 and id(t) not in written}
    bound = [t for t in tensors if id(t) not in free]
    devices: list[torch.device] = []
    for t in bound:
        if device_of(t) not in devices:
            devices.append(device_of(t))
    if len(devices) > 1:
        raise _mixed(bound, devices)
    return devices[0] if devices else target or device_of(tensors[0])


def _adopt(result: Any, device: torch.device, tensors: list[torch.Tensor]) -> Any:
    """The call's tensors report `device`; a tensor that was passed in (in place, out=) is returned as it was."""
    passed = {id(t): t for t in tensors}

    def back(o: Any) -> Any:
        if not isinstance(o, torch.Tensor) or id(o) in passed:
            return o
        return on(o, device) if device != CPU else o

    if isinstance(result, torch.Tensor):
        return back(result)
    return tree_map(back, result) if isinstance(result, (tuple, list)) else result


# ---------------------------------------------------------------- the sentences


def _active() -> "Simulation | None":
    return _ACTIVE[-1] if _ACTIVE else None


def _op() -> str:
    sim = _active()
    if sim is None or sim.current is None:
        return tr("an operation")
    return words(sim.current, _learner_line())


def _anchor() -> str:
    sim = _active()
    return sim.anchor if sim is not None else "x.device"


def _where() -> str:
    line = _learner_line()
    return tr(" (line {n}: `{code}`)", n=line[0], code=line[1]) if line else ""


def _learner_line() -> tuple[int, str] | None:
    """The line of the learner's code running now: the innermost frame outside torch and kata."""
    frame = sys._getframe(1)
    skip = (torch.__file__.rsplit("/", 1)[0], KATA_CODE)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(skip) and not name.startswith("<frozen"):
            code = re.sub(r"\s+#[^'\"]*$", "", linecache.getline(name, frame.f_lineno).strip())  # no trailing comment
            return (frame.f_lineno, code) if code else None
        frame = frame.f_back
    return None


def _create_on_device() -> str:
    anchor = _anchor()
    if "." not in anchor:  # the function was given the device as an argument
        return tr("Create it on the device asked for: pass device={anchor} when you make it, or move it with .to({anchor}).",
                  anchor=anchor)
    x = anchor.removesuffix(".device")
    return tr("Create it on the inputs' device: device={anchor}, torch.zeros_like({x}) or {x}.new_zeros(...), "
              "or move it with .to({anchor}).", anchor=anchor, x=x)


def _mixed(bound: list[torch.Tensor], devices: list[torch.device]) -> DeviceProblem:
    if CPU not in devices:
        error = f"Expected all tensors to be on the same device, but found at least two devices, {devices[0]} and {devices[1]}!"
        return DeviceProblem(error, tr("{op} combined tensors on {a} and on {b}{where}: torch raises \"{error}\" there. Keep "
                                       "every tensor on {anchor}.", op=_op(), a=devices[0], b=devices[1], where=_where(),
                                       error=error, anchor=_anchor()))
    device = next(d for d in devices if d != CPU)
    error = ("Tensor on device cpu is not on the expected device meta!" if device.type == "meta" else
             f"Expected all tensors to be on the same device, but found at least two devices, {device} and cpu!")
    cpu = next(t for t in bound if device_of(t) == CPU)
    origin = getattr(cpu, ORIGIN, None)
    shape = tuple(cpu.shape)
    made = (tr("{origin} made a tensor on the CPU (shape {shape})", origin=origin, shape=shape) if origin else
            tr("A tensor on the CPU (shape {shape})", shape=shape))
    said = error.split(",")[0]  # "Expected all tensors to be on the same device": the words a GPU's traceback starts with
    return DeviceProblem(error, tr("{made}, then {op} combined it with tensors on {device}{where}: torch raises \"{error}\" "
                                   "there. {fix}", made=made, op=_op(), device=device, where=_where(), error=said,
                                   fix=_create_on_device()))


def _wrong_generator(made: torch.device, generator: torch.device) -> DeviceProblem:
    """A random op that runs on one device with a generator of another: torch's check_generator refuses it."""
    error = f"Expected a '{made.type}' device type for generator but found '{generator.type}'"
    if made == CPU:
        fix = tr("Draw them where the generator is: pass device={anchor} (or generator.device) when you make them.",
                 anchor=_anchor())
    else:
        fix = tr("Use a generator on {device}, or draw on the generator's device and move the result with .to({anchor}).",
                 device=made, anchor=_anchor())
    return DeviceProblem(error, tr("{op} drew random numbers on {made} with a generator on {generator}{where}: torch "
                                   "raises \"{error}\" there. {fix}", op=_op(), made=made, generator=generator,
                                   where=_where(), error=error, fix=fix))


def _needs_data(error: str) -> DeviceProblem:
    return DeviceProblem(error, _no_data(error))


def _no_data(error: str) -> str:
    return tr("{op} needs the values of a tensor on meta, which has none (a shape and a dtype, no data){where}: torch raises "
              "\"{error}\" there. Build the result from the sizes and tensor ops alone.", op=_op(), where=_where(), error=error)


def _copy_out_of_meta() -> str:
    return tr("{op} copies a tensor on meta to the CPU, but a meta tensor has no data{where}: torch raises \"Cannot copy "
              "out of meta tensor; no data!\" there. Keep every tensor on {anchor}.", op=_op(), where=_where(), anchor=_anchor())


def _not_on_host(t: VirtualTensor) -> DeviceProblem:
    error = f"can't convert {t.virtual} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    if t.virtual.type == "meta":
        return _NotOnHost(error, _no_data(error))
    return _NotOnHost(error, tr("{op} on a tensor on {device}{where}: torch raises \"{error}\" there. Copy it to the CPU "
                                "first (.cpu()), then move the result back with .to({anchor}).", op=_op(),
                                device=t.virtual, where=_where(), error=error, anchor=_anchor()))


_SYMBOLS = {
    "add": "+", "__add__": "+", "__radd__": "+", "__iadd__": "+=", "sub": "-", "__sub__": "-", "__rsub__": "-",
    "__isub__": "-=", "mul": "*", "__mul__": "*", "__rmul__": "*", "__imul__": "*=", "div": "/", "__truediv__": "/",
    "__rtruediv__": "/", "__itruediv__": "/=", "floor_divide": "//", "__floordiv__": "//", "__rfloordiv__": "//",
    "remainder": "%", "__mod__": "%", "__rmod__": "%", "pow": "**", "__pow__": "**", "__rpow__": "**",
    "matmul": "@", "__matmul__": "@", "__rmatmul__": "@", "__and__": "&", "__rand__": "&", "__iand__": "&=",
    "bitwise_and": "&", "__or__": "|", "__ror__": "|", "__ior__": "|=", "bitwise_or": "|", "__xor__": "^",
    "__rxor__": "^", "__invert__": "~", "bitwise_not": "~", "neg": "-x", "__neg__": "-x", "__getitem__": "x[...]",
    "__setitem__": "x[...] = ...", "__bool__": "bool(x)", "__float__": "float(x)", "__int__": "int(x)",
    "__index__": "int(x)", "__array__": "numpy.asarray(x)", "__format__": "formatting x", "__len__": "len(x)",
    "__iter__": "iterating over x",
}
# Python calls `b.__ge__(a)` for `a <= b` when b's type subclasses a's: a comparison is named by the line's own symbol.
_COMPARISONS = {"le": ("<=", ">="), "__le__": ("<=", ">="), "ge": (">=", "<="), "__ge__": (">=", "<="),
                "lt": ("<", ">"), "__lt__": ("<", ">"), "gt": (">", "<"), "__gt__": (">", "<"),
                "eq": ("==", "=="), "__eq__": ("==", "=="), "ne": ("!=", "!="), "__ne__": ("!=", "!=")}
_NO_ARGS = {"cpu", "cuda", "numpy", "item", "tolist", "sum", "mean", "float", "double", "long", "int", "bool", "half",
            "clone", "detach", "contiguous", "t"}


def words(func: Any, line: tuple[int, str] | None = None) -> str:
    """How the learner wrote the call `func`: `<=`, `.masked_fill(...)`, `torch.arange(...)`, `F.linear(...)`."""
    name = getattr(func, "__name__", None) or type(func).__name__
    if name in _COMPARISONS:
        said, mirrored = _COMPARISONS[name]
        code = line[1] if line else ""
        return f"`{mirrored if mirrored in code and said not in code else said}`"
    if name in _SYMBOLS:
        return f"`{_SYMBOLS[name]}`"
    dots = "" if name in _NO_ARGS else "..."
    if _is_method(func):
        return f"`.{name}({dots})`"
    module = getattr(func, "__module__", "") or ""
    if module in ("torch.nn.functional", "torch._C._nn"):
        return f"`F.{name}(...)`"
    return f"`torch.{name}(...)`"


# ---------------------------------------------------------------- moves


def move(t: torch.Tensor, target: Any) -> torch.Tensor:
    """`t` on `target` (a simulated device or the CPU), as `.to(target)` does on a real machine: a copy
    in the same autograd graph."""
    target = target if isinstance(target, torch.device) else torch.device(target)
    goal = virtual(target)
    here = device_of(t)
    if goal == here or goal is None and target.type == "cpu" and here == CPU:
        return t
    if here.type == "meta" and (goal is None or goal.type != "meta"):
        raise _NoData("Cannot copy out of meta tensor; no data!", _copy_out_of_meta())
    if goal is None and target.type != "cpu":
        return torch.Tensor.to(_plain(t), target)  # another real device: whatever this machine does with it
    with torch._C.DisableTorchFunction():
        copy = t.clone()  # a move copies; clone is differentiable, so gradients flow back across it
    return on(copy, goal) if goal is not None else _plain(copy)


def _parse_to(args: tuple, kwargs: dict) -> tuple[Any, torch.dtype | None]:
    """(device or None, dtype or None) of a `.to(...)` / `.type_as(...)` call, without touching CUDA."""
    if args and isinstance(args[0], torch.Tensor):  # .to(other): other's device as it reports it
        return args[0].device, args[0].dtype
    options = {k: v for k, v in kwargs.items() if k in ("device", "dtype", "non_blocking", "memory_format")}
    device, dtype, _, _ = torch._C._nn._parse_to(*args, **options)
    return device, dtype


def _to(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    target, dtype = _parse_to(args[1:], kwargs)
    t = args[0]
    if dtype is not None and dtype != t.dtype:
        t = _adopt(torch.Tensor.to(t, dtype), device_of(t), [])
    if target is None:
        return sim._op(torch.Tensor.clone, (t,), {}) if kwargs.get("copy") and t is args[0] else t
    return move(t, target)


def _type_as(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    return _to(sim, func, (args[0], args[1]), {})


def _cuda(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    return move(args[0], CUDA)


def _cpu(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    return move(args[0], CPU)


def _new_tensor(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    target = kwargs.get("device") if kwargs.get("device") is not None else device_of(args[0])
    _read_values(args[1] if len(args) > 1 else kwargs.get("data"))
    out = func(_plain(args[0]), *args[1:], **{**kwargs, "device": CPU})
    return move(out.detach(), target).requires_grad_(kwargs.get("requires_grad", False))


def _from_values(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    """torch.tensor / as_tensor / asarray: of a tensor, follow it; of a sequence, read its values (on the CPU)."""
    data = args[0] if args else kwargs.get("data", kwargs.get("obj"))
    if kwargs.get("device") is not None:
        _read_values(data)
        return sim._factory(func, args, kwargs)
    if isinstance(data, torch.Tensor):
        return _adopt(func(*args, **kwargs), device_of(data), [])
    _read_values(data)
    return func(*args, **kwargs)


def _read_values(data: Any) -> None:
    """A sequence of tensors is read value by value: meta tensors have none."""
    if isinstance(data, (list, tuple)) and any(isinstance(v, VirtualTensor) and v.virtual.type == "meta"
                                               for v in _tensors(tuple(data), {})):
        raise _needs_data("Tensor.item() cannot be called on meta tensors")


def _numpy(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    if isinstance(args[0], VirtualTensor):
        raise _not_on_host(args[0])
    return func(*args, **kwargs)


def _tolist(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    if isinstance(args[0], VirtualTensor) and args[0].virtual.type == "meta":
        raise _NoData("Cannot copy out of meta tensor; no data!", _no_data("Cannot copy out of meta tensor; no data!"))
    return func(_plain(args[0]), *args[1:], **kwargs)


def _format(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    t = args[0]
    if isinstance(t, VirtualTensor) and t.virtual.type != "meta" and t.dim() == 0:
        return _plain(t).detach().item().__format__(*args[1:])
    return func(*args, **kwargs)


def _raw(sim: "Simulation", func: Any, args: tuple, kwargs: dict) -> Any:
    return func(*args, **kwargs)


_HANDLERS: dict[Any, Callable[["Simulation", Any, tuple, dict], Any]] = {
    T.to: _to, T.type_as: _type_as, T.cuda: _cuda, T.cpu: _cpu, T.new_tensor: _new_tensor, T.numpy: _numpy,
    T.__array__: _numpy, T.tolist: _tolist, T.__format__: _format,
    # questions about tensors, not computations: no device rule applies
    T.as_subclass: _raw, torch._has_compatible_shallow_copy_type: _raw, T.is_same_size: _raw, torch.is_same_size: _raw,
    T.data_ptr: _raw, T.untyped_storage: _raw, T.is_set_to: _raw,
    torch.tensor: _from_values, torch.as_tensor: _from_values, torch.asarray: _from_values,
}

# ---------------------------------------------------------------- the simulation

ORIGIN = "_kata_origin"  # attribute naming what made a CPU tensor, for the report


def _labelled(t: torch.Tensor, origin: str) -> torch.Tensor:
    try:
        setattr(t, ORIGIN, origin)
    except (AttributeError, RuntimeError):  # a tensor type that takes no attributes: it stays unnamed
        pass
    return t


class Simulation(TorchFunctionMode):
    """Inside `with Simulation("cuda", args) as sim:`, tensors on cuda:0 (or meta) are simulated.

    `place(value)` puts a case's argument on the device; `report(value)` turns what came out into
    tensors that keep reporting their device outside the simulation. `anchor` is how the learner's
    code names the device: the device argument, or the first tensor argument's `.device`.
    """

    def __init__(self, device: Any, args: dict[str, Any] | None = None):
        super().__init__()
        self.device = virtual(device)
        assert self.device is not None, f"{device!r} is not a device kata simulates"
        self.current: Any = None  # the call the learner's code is making now
        args = args or {}
        named = [k for k, v in args.items() if isinstance(v, (torch.device, str)) and virtual(v) is not None]
        tensors = [k for k, v in args.items() if isinstance(v, torch.Tensor)]
        self.anchor = named[0] if named else f"{tensors[0]}.device" if tensors else "x.device"
        self._swap = False

    def __enter__(self) -> "Simulation":
        _ACTIVE.append(self)
        # module.to(device) swaps each parameter for its moved self (torch.utils.swap_tensors): the
        # parameter stays the same Python object, as `param.data = moved` keeps it on a real device.
        self._swap = torch.__future__.get_swap_module_params_on_conversion()
        torch.__future__.set_swap_module_params_on_conversion(True)
        super().__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        torch.__future__.set_swap_module_params_on_conversion(self._swap)
        _ACTIVE.remove(self)

    def place(self, value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return on(value.detach().clone(), self.device)
        return value

    def generator(self, seed: int) -> torch.Generator:
        """A generator on the simulated GPU, seeded: a `torch.Generator(device="cuda").manual_seed(seed)` that
        draws the CPU's numbers (`VirtualGenerator`)."""
        assert self.device == CUDA, "only the simulated GPU has generators"
        made = VirtualGenerator()
        made.manual_seed(seed)
        return made

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        kwargs = kwargs or {}
        outer, self.current = self.current, func
        try:
            handler = _HANDLERS.get(func)
            if handler is not None:
                result = handler(self, func, args, kwargs)
            elif kwargs.get("device") is not None and func is not torch.device:
                result = self._factory(func, args, kwargs)
            else:
                result = self._op(func, args, kwargs)
            return self._label(func, args, result)
        finally:
            self.current = outer

    def _op(self, func: Any, args: tuple, kwargs: dict) -> Any:
        tensors = _tensors(args, kwargs)
        if not any(isinstance(t, VirtualTensor) for t in tensors):
            _check_generator(kwargs, CPU)
            return func(*args, **kwargs)
        device = _result_device(func, args, kwargs, tensors)
        _check_generator(kwargs, device)
        if device.type == "meta" and (func in _NEEDS_DATA or func is torch.where and len(args) == 1):
            raise _needs_data("Tensor.item() cannot be called on meta tensors" if func in (T.item, T.__bool__, T.__float__,
                              T.__int__, T.__index__, T.__complex__, T.allclose, torch.allclose) else
                              f"aten::{func.__name__}: attempted to run this operator with Meta tensors, but there was no "
                              "fake impl or Meta kernel registered")
        return _adopt(func(*args, **kwargs), device, tensors)

    def _factory(self, func: Any, args: tuple, kwargs: dict) -> Any:
        """A call given device=: run it on the CPU, then put what it made where it was asked."""
        target = kwargs["device"]
        target = target if isinstance(target, torch.device) else torch.device(target)
        goal = virtual(target)
        if goal is None and target.type != "cpu":
            return func(*args, **kwargs)
        tensors = _tensors(args, kwargs)
        if func in _MOVES_VALUES and goal != META and any(device_of(t) == META for t in tensors):
            raise _NoData("Cannot copy out of meta tensor; no data!", _copy_out_of_meta())
        made = CPU if goal is None else goal
        _check_generator(kwargs, made)
        result = func(*[_plain(a) if isinstance(a, VirtualTensor) else a for a in args], **{**kwargs, "device": CPU})

        def place(o: Any) -> Any:
            if not isinstance(o, torch.Tensor):
                return o
            moved = o.grad_fn is not None or any(o is t for t in tensors)  # as_tensor(x, device=) moves x
            return move(o, made) if moved else _leaf(o, made)

        return place(result) if isinstance(result, torch.Tensor) else tree_map(place, result)

    @staticmethod
    def _label(func: Any, args: tuple, result: Any) -> Any:
        """Name what made each new CPU tensor: a factory, or the CPU tensor it was computed from."""
        if isinstance(result, torch.Tensor):
            outs = [result]
        elif isinstance(result, (tuple, list)):
            outs = [o for o in result if isinstance(o, torch.Tensor)]
        else:
            return result
        fresh = [o for o in outs if not isinstance(o, VirtualTensor) and ORIGIN not in o.__dict__]
        if fresh:
            sources = [a for a in args if isinstance(a, torch.Tensor) and not isinstance(a, VirtualTensor)]
            inherited = next((a.__dict__[ORIGIN] for a in sources if ORIGIN in a.__dict__), None)
            for o in fresh:
                _labelled(o, inherited or words(func))
        return result

    def report(self, value: Any) -> Any:
        """What came out of the simulation, as CPU tensors that carry their simulated device (`Simulated`)."""
        if isinstance(value, VirtualTensor):
            with torch._C.DisableTorchFunction():
                return value.as_subclass(_reported(value.virtual))
        if isinstance(value, tuple):
            return tuple(self.report(v) for v in value)
        if isinstance(value, list):
            return [self.report(v) for v in value]
        if isinstance(value, dict):
            return {k: self.report(v) for k, v in value.items()}
        return value


def _check_generator(kwargs: dict, made: torch.device) -> None:
    """A call given `generator=` draws on `made`: the generator must live there (meta draws nothing)."""
    generator = _generator_device(kwargs.get("generator"))
    if generator is None or made.type == "meta" or generator.type == made.type:
        return
    if generator.type in ("cpu", "cuda") and made.type in ("cpu", "cuda"):
        raise _wrong_generator(made, generator)


def _leaf(t: torch.Tensor, device: torch.device) -> torch.Tensor:
    """A freshly made tensor, on `device`, keeping its requires_grad (a leaf, as a factory makes)."""
    if device == CPU:
        return t
    leaf = on(t.detach(), device)
    return leaf.requires_grad_(True) if t.requires_grad else leaf


class Simulated(torch.Tensor):
    """CPU values computed for a simulated device, `simulated_device` (one subclass per device).

    What leaves a Simulation: to Python it is a plain CPU tensor (a spec hook that post-processes
    an outcome, such as attention's zero-rows convention, computes on the CPU as it always does),
    torch's default __torch_function__ keeps the subclass through that, and the codec reports
    `simulated_device` as the tensor's device, so the comparison sees where the result would be.
    """

    simulated_device: torch.device = CPU


_SIMULATED: dict[torch.device, type] = {}


def _reported(device: torch.device) -> type:
    if device not in _SIMULATED:
        _SIMULATED[device] = type(f"Simulated_{device.type}", (Simulated,), {"simulated_device": device})
    return _SIMULATED[device]
