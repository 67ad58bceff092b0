"""What a kata's spec module declares, and the default way a case is run.

A spec module (`checker/specs/<kata>.py`) defines `FAMILIES`, a tuple of `Family`. Each family
makes the inputs of one case from a seeded generator; named edge cases come first, random draws
after. Optional hooks in the spec module replace the defaults below:

    call(kata, entry, inputs, device, track_device=False) -> Outcome  # how the entry point is run
    expected(kata, entry, inputs, device) -> [Outcome]    # the reference's accepted answers
    compare(kata, case, expected, got) -> list[Problem] | None  # None = the generic comparison
    TOLERANCES = {torch.float32: (rtol, atol)}            # per-dtype overrides
    tolerance_for(case, item, dtype, expected) -> (rtol, atol) | None  # per item ("grad of x"), e.g. scaled by
                                                           # max|expected| or grown with position; None = default
    MISTAKES = (Mistake(...), ...)                         # known wrong variants, for naming bugs
    BENCH = (label, make)                                  # a large input for `kata check --bench`
"""
from __future__ import annotations

import contextlib
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import torch

from checker.errors import KataError

# (rtol, atol) per dtype: a correct answer computed in another order must pass.
TOLERANCES: dict[torch.dtype, tuple[float, float]] = {
    torch.float64: (1e-7, 1e-9),
    torch.float32: (1e-4, 1e-5),
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (2e-2, 2e-2),
}


class _RunDevice:
    """Placeholder in `Inputs.args` for the device the check runs on (mask katas' `device=`)."""

    def __repr__(self) -> str:
        return "<run device>"

    def __deepcopy__(self, memo: dict) -> "_RunDevice":
        return self  # a sentinel: copies of case inputs must still recognise it


RUN_DEVICE = _RunDevice()


@dataclass
class Inputs:
    """Everything one case feeds the entry point."""

    args: dict[str, Any]  # keyword arguments (CPU tensors, arrays, Python values)
    init: dict[str, Any] = field(default_factory=dict)  # modules: __init__ kwargs
    params: dict[str, torch.Tensor] | None = None  # modules: state_dict to load (strict)
    train: bool = False  # modules: train() or eval()
    grad_of: tuple[str, ...] = ()  # args whose gradients are compared (modules add every parameter)
    probe: torch.Tensor | None = None  # backward of (first output * probe).sum(); None = .sum()
    show: dict[str, Any] = field(default_factory=dict)  # scalars the report shows (gamma, eps, …)
    tol: tuple[float, float] | None = None  # this case's (rtol, atol), overriding the table


@dataclass(frozen=True)
class Family:
    """One kind of case. What it tests, in words, is the kata's text: `families.<name>` in content/."""

    name: str  # snake_case; a case is "name" (one draw) or "name.i"
    make: Callable[[torch.Generator], Inputs]
    draws: int = 1
    track_device: bool = False  # track where tensors would live on a GPU (see DeviceTracker)
    cpu_only: bool = False  # keep this case on the CPU whatever --device says


@dataclass
class Case:
    name: str
    family: Family
    seed: int
    inputs: Inputs

    @property
    def device_independent(self) -> bool:
        return self.family.cpu_only or self.family.track_device


@dataclass
class Outcome:
    """What running an entry point on one case produced."""

    value: Any  # what the function or forward returned
    extras: dict[str, Any] = field(default_factory=dict)  # gradients, by name
    args: dict[str, Any] = field(default_factory=dict)  # the arguments as passed (for the in-place check)


@dataclass(frozen=True)
class Mistake:
    """A known wrong variant: when the learner's output matches it, the report names it.

    Its name and fix are the kata's text: `mistakes.<key>` in content/.
    """

    key: str  # "dones_ignored"
    fn: Callable[..., Any]  # same signature as the entry point (a class for module katas)


def case_seed(seed: int, name: str) -> int:
    """Each case's generator depends only on the run seed and its name, so --case reproduces it."""
    return (seed * 1_000_003 + zlib.crc32(name.encode())) % (2**63 - 1)


def case_names(spec: Any) -> list[str]:
    return [name for family in spec.FAMILIES for name in _names(family)]


def build_cases(spec: Any, seed: int, only: str | None = None) -> list[Case]:
    names = case_names(spec)
    if only is not None and only not in names and not any(n.split(".")[0] == only for n in names):
        import difflib

        close = difflib.get_close_matches(only, names, n=3, cutoff=0.4)
        hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise KataError(f"No case named '{only}'.{hint}")
    cases = []
    for family in spec.FAMILIES:
        for name in _names(family):
            if only is not None and only not in (name, family.name):
                continue
            generator = torch.Generator().manual_seed(case_seed(seed, name))
            cases.append(Case(name, family, seed, family.make(generator)))
    return cases


def _names(family: Family) -> list[str]:
    return [family.name] if family.draws == 1 else [f"{family.name}.{i}" for i in range(family.draws)]


def tolerance(spec: Any, case: Case, dtype: torch.dtype, item: str = "", expected: torch.Tensor | None = None
              ) -> tuple[float, float]:
    """(rtol, atol) for one item of one case: the spec's `tolerance_for` hook, else the case's, else the table."""
    hook = getattr(spec, "tolerance_for", None)
    if hook is not None:
        chosen = hook(case, item, dtype, expected)
        if chosen is not None:
            return chosen
    if case.inputs.tol is not None:
        return case.inputs.tol
    table = {**TOLERANCES, **getattr(spec, "TOLERANCES", {})}
    return table.get(dtype, (0.0, 0.0))


# ---------------------------------------------------------------- the default protocol


def place(value: Any, device: torch.device) -> Any:
    """Move a case's argument to the run device (numpy arrays and Python values stay)."""
    if value is RUN_DEVICE:
        return device
    if isinstance(value, torch.Tensor):
        return value.to(device)
    return value


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Run the entry point on one case: build the module, call it, take the gradients asked for."""
    args = {name: place(value, device) for name, value in inputs.args.items()}
    for name in inputs.grad_of:
        args[name] = args[name].detach().requires_grad_(True)
    module = None
    if kata.kind == "module":
        module = entry(**inputs.init)
        if inputs.params is not None:
            load_params(module, inputs.params)
        module.to(device)
        module.train(inputs.train)
    fn = module if module is not None else entry
    tracker = DeviceTracker() if track_device else None
    virtual = MetaSimulator() if any(_is_meta(v) for v in args.values()) else None
    with tracker.mode() if tracker else virtual.mode() if virtual else contextlib.nullcontext():
        value = fn(**args)
    if tracker:
        tracker.check_output(value)
    if virtual:
        value = virtual.output(value)
    wants_grads = inputs.grad_of or (module is not None and inputs.probe is not None)
    extras = gradients(value, args, inputs, module, device) if wants_grads else {}
    return Outcome(value, extras, args)


def gradients(value: Any, args: dict, inputs: Inputs, module: Any, device: torch.device) -> dict[str, Any]:
    first = value[0] if isinstance(value, (tuple, list)) and value else value
    if not isinstance(first, torch.Tensor) or not first.requires_grad:
        # The structure check reports a wrong output; a tensor cut off from the graph has no grads.
        extras: dict[str, Any] = {f"grad of {n}": None for n in inputs.grad_of}
        if module is not None:
            extras.update({f"grad of {n}": None for n, _ in module.named_parameters()})
        return extras
    probe = inputs.probe.to(device=first.device, dtype=first.dtype) if inputs.probe is not None else None
    loss = first.sum() if probe is None or probe.shape != first.shape else (first * probe).sum()
    loss.backward()
    extras = {f"grad of {n}": args[n].grad for n in inputs.grad_of}
    if module is not None:
        extras.update({f"grad of {n}": p.grad for n, p in module.named_parameters()})
    return extras


class ParamsError(Exception):
    """The learner's module does not have the parameters the contract names."""


def load_params(module: Any, params: dict[str, torch.Tensor]) -> None:
    own = dict(module.state_dict())
    missing = [k for k in params if k not in own]
    extra = [k for k in own if k not in params]
    shaped = [f"{k} is {tuple(own[k].shape)}, expected {tuple(v.shape)}" for k, v in params.items()
              if k in own and tuple(own[k].shape) != tuple(v.shape)]
    if missing or extra or shaped:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unexpected " + ", ".join(extra))
        if shaped:
            parts.append("; ".join(shaped))
        raise ParamsError("the module's parameters do not match the contract: " + "; ".join(parts))
    module.load_state_dict(params, strict=True)


class DeviceBug(Exception):
    """The learner's code would break on a GPU: a tensor it created did not follow the inputs."""


_CROSS_DEVICE_OK = {"copy_", "__setitem__", "index_put_", "__getitem__", "to", "cuda", "cpu", "type_as", "item",
                    "tolist", "numpy", "__bool__", "__len__", "__index__", "__int__", "__float__", "__format__",
                    "__repr__", "dim", "size", "numel", "data_ptr", "is_floating_point", "__iter__", "__contains__"}


class DeviceTracker:
    """Find device bugs on a CPU-only machine by simulating where tensors would live on a GPU.

    Inputs count as being on the run device. A tensor made by a factory without `device=`
    (torch.zeros(T), torch.arange(L), torch.tensor([...])) counts as being on the *default*
    device, and so does everything computed only from such tensors. As on CUDA, mixing a
    default-device tensor with more than one element and an input-device tensor in one op is
    an error; 0-dim tensors mix freely (torch.tensor(0.0) is fine next to CUDA tensors);
    `.to(device)`, copies and indexing move values across. A default-device tensor in the
    output is the classic bug. The values themselves are computed normally on the CPU, so
    this finds the bug without false alarms on code that moves tensors explicitly.
    """

    def __init__(self) -> None:
        self.marked: dict[int, torch.Tensor] = {}  # id -> tensor (kept alive so ids stay unique)
        self.problem: str | None = None

    def is_marked(self, t: Any) -> bool:
        return isinstance(t, torch.Tensor) and id(t) in self.marked

    def mark(self, value: Any) -> None:
        for t in _tensors(value):
            self.marked[id(t)] = t

    def mode(self) -> Any:
        from torch.overrides import TorchFunctionMode

        try:
            from torch.utils._device import _device_constructors

            factories = set(_device_constructors())
        except ImportError:  # older torch: the common factories are enough
            factories = {torch.zeros, torch.ones, torch.empty, torch.full, torch.arange, torch.tensor,
                         torch.rand, torch.randn, torch.randint, torch.linspace, torch.eye}
        factories |= {torch.as_tensor}
        tracker = self

        class Simulate(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
                kwargs = kwargs or {}
                result = func(*args, **kwargs)
                tracker.observe(func, args, kwargs, result, factories)
                return result

        return Simulate()

    def observe(self, func: Any, args: tuple, kwargs: dict, result: Any, factories: set) -> None:
        name = getattr(func, "__name__", "")
        if func in factories:
            sources = _tensors(args)  # torch.as_tensor(x) of a tensor follows x
            if kwargs.get("device") is None and all(self.is_marked(t) for t in sources):
                self.mark(result)
            return
        if name in ("to", "cuda", "cpu", "type_as") or name.endswith("_like") or name.startswith("new_"):
            self._follow_move(name, args, kwargs, result)
            return
        inputs = _tensors((args, kwargs))
        marked = [t for t in inputs if self.is_marked(t)]
        if not marked:
            return
        unmarked = [t for t in inputs if not self.is_marked(t)]
        if name not in _CROSS_DEVICE_OK and self.problem is None:
            big_marked = [t for t in marked if t.dim() > 0]
            big_unmarked = [t for t in unmarked if t.dim() > 0]
            if big_marked and big_unmarked:
                self.problem = (f"{name}() mixes a tensor created without following the inputs' device "
                                f"(shape {tuple(big_marked[0].shape)}, made without device=) with the inputs; on a GPU "
                                "this raises 'Expected all tensors to be on the same device'")
        if name in ("__setitem__", "copy_", "index_put_") or name.endswith("_") and args and not self.is_marked(args[0]):
            return  # in place on an input-device tensor: it stays where it is
        if not unmarked or name == "__getitem__" and self.is_marked(args[0]):
            self.mark(result)

    def _follow_move(self, name: str, args: tuple, kwargs: dict, result: Any) -> None:
        source = args[0] if args else None
        target = kwargs.get("device")
        for a in args[1:]:
            if isinstance(a, (str, torch.device)) or isinstance(a, int) and name == "cuda":
                target = a
            elif isinstance(a, torch.Tensor):
                target = "marked" if self.is_marked(a) else "input"
        if name == "cuda":
            target = target or "input"
        if name == "cpu":
            target = "marked"
        if target is None:
            if self.is_marked(source):
                self.mark(result)
        elif target == "marked":
            self.mark(result)

    def check_output(self, value: Any) -> None:
        if self.problem:
            raise DeviceBug(self.problem)
        if any(self.is_marked(t) for t in _tensors(value)):
            raise DeviceBug("the result was created without following the inputs' device (e.g. torch.zeros(T) "
                            "instead of torch.zeros_like(rewards) or device=x.device); on a GPU it would be on the CPU")


def _is_meta(value: Any) -> bool:
    return isinstance(value, (str, torch.device)) and str(value) == "meta"


class MetaSimulator:
    """Run code that was asked for `device='meta'` on the CPU, labelling what lives on `meta`.

    Real meta tensors would do, but in torch 2.13 the first op on one imports torch._dynamo
    (about a second, in every process). Here factories asked for meta build CPU tensors that are
    labelled meta; ops on labelled tensors give labelled results; what meta forbids (mixing with
    CPU tensors of more than one element, reading values out) raises as it would. Labelled
    outputs are turned into real meta tensors (cheap) before they are compared.
    """

    _READS = {"item", "tolist", "numpy", "__bool__", "__int__", "__float__", "__index__"}

    def __init__(self) -> None:
        self.marked: dict[int, torch.Tensor] = {}

    def _on_meta(self, t: Any) -> bool:
        return isinstance(t, torch.Tensor) and id(t) in self.marked

    def _mark(self, value: Any) -> None:
        for t in _tensors(value):
            self.marked[id(t)] = t

    def mode(self) -> Any:
        from torch.overrides import TorchFunctionMode

        simulator = self

        class Simulate(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
                return simulator.run(func, args, kwargs or {})

        return Simulate()

    def run(self, func: Any, args: tuple, kwargs: dict) -> Any:
        name = getattr(func, "__name__", "")
        to_meta = _is_meta(kwargs.get("device")) or any(_is_meta(a) for a in args[1:] if name in ("to", "new_empty"))
        inputs = _tensors((args, kwargs))
        on_meta = [t for t in inputs if self._on_meta(t)]
        if on_meta and name in self._READS:
            raise RuntimeError(f"Tensor.{name}() cannot be called on meta tensors: they have no data")
        if on_meta and name in ("to", "cpu", "cuda") and not to_meta and (name != "to" or _moves(args, kwargs)):
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        if to_meta:
            kwargs = {**kwargs, "device": "cpu"} if "device" in kwargs else kwargs
            args = tuple("cpu" if _is_meta(a) else a for a in args)
        result = func(*args, **kwargs)
        if to_meta or on_meta:
            others = [t for t in inputs if not self._on_meta(t) and t.dim() > 0]
            if on_meta and others and name not in ("__getitem__", "__setitem__", "index_put_"):
                raise RuntimeError(f"Expected all tensors to be on the same device, but found meta and "
                                   f"{others[0].device} ({name})")
            self._mark(result)
        return result

    def output(self, value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return value.to("meta") if self._on_meta(value) else value
        if isinstance(value, tuple):
            return tuple(self.output(v) for v in value)
        if isinstance(value, list):
            return [self.output(v) for v in value]
        return value


def _moves(args: tuple, kwargs: dict) -> bool:
    """Whether a .to(...) call names a device (or a tensor to follow), not just a dtype."""
    return "device" in kwargs or any(isinstance(a, (str, torch.device, torch.Tensor)) for a in args[1:])


def _tensors(value: Any) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _tensors(v)]
    return []

