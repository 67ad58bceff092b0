"""The device simulation (checker/judge/devices.py) against real devices, idiom by idiom.

Each idiom is a few lines a learner writes, over a case's tensors (`rewards`, `values`, `dones`,
`x`) and, like the mask katas, the `device` they live on. A *right* idiom works on a GPU and leaves
its result on the inputs' device; a *wrong* one breaks there (raises, or leaves the result on the
CPU). On a GPU, every right idiom must work in the simulation and compute what the CPU computes,
and every wrong one must fail it. The same idioms run on real `meta` tensors here and, wherever a
GPU is present, on CUDA: the simulation must agree with the real device (both raise, or both give
a tensor of the same device type, shape and dtype; on CUDA, the same values).
benchmarks/gpu_check.py runs the CUDA comparison as a script.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest
import torch
import torch.nn as nn

from checker.judge.devices import DeviceProblem, Simulation


@dataclass(frozen=True)
class Idiom:
    name: str
    fn: Callable[..., torch.Tensor]
    right: bool  # works on a GPU, with the result on the inputs' device
    why: str
    lenient_meta: str = ""  # why real meta lets it through where a GPU does not (then meta is not compared)


IDIOMS: list[Idiom] = []


def right(fn: Callable | None = None, *, lenient_meta: str = "") -> Any:
    def register(f: Callable) -> Callable:
        IDIOMS.append(Idiom(f.__name__, f, True, inspect.getdoc(f) or "", lenient_meta))
        return f
    return register(fn) if fn is not None else register


def wrong(fn: Callable | None = None, *, lenient_meta: str = "") -> Any:
    def register(f: Callable) -> Callable:
        IDIOMS.append(Idiom(f.__name__, f, False, inspect.getdoc(f) or "", lenient_meta))
        return f
    return register(fn) if fn is not None else register


# ---------------------------------------------------------------- right on a GPU


@right
def tensor_then_to_device(rewards):
    """torch.tensor(values).to(rewards.device): made on the CPU, then moved"""
    return torch.tensor([0.5] * 8).to(rewards.device) * rewards


@right
def tensor_then_to_other(rewards):
    """.to(rewards): the other tensor's device and dtype"""
    return torch.tensor([1, 2, 3, 4, 5, 6, 7, 8]).to(rewards) + rewards


@right
def to_device_and_dtype_keywords(rewards):
    """.to(device=rewards.device, dtype=rewards.dtype)"""
    return torch.arange(8).to(device=rewards.device, dtype=rewards.dtype) - rewards


@right
def type_as(rewards, dones):
    """dones.type_as(rewards): dtype and device of rewards"""
    return rewards * (1 - dones.type_as(rewards))


@right
def tensor_with_device(rewards):
    """torch.tensor(list, device=rewards.device, dtype=rewards.dtype)"""
    return torch.tensor([0.9 ** k for k in range(8)], device=rewards.device, dtype=rewards.dtype) * rewards


@right
def new_tensor(rewards):
    """rewards.new_tensor(list): rewards' device and dtype"""
    return rewards.new_tensor([0.9 ** k for k in range(8)]) * rewards


@right
def new_zeros_filled(rewards):
    """rewards.new_zeros(T), filled in a loop"""
    out = rewards.new_zeros(rewards.shape[0])
    for t in range(rewards.shape[0]):
        out[t] = rewards[t] * 2
    return out


@right
def new_full(rewards):
    """rewards.new_full(shape, value)"""
    return rewards.new_full((8,), 0.25) + rewards


@right
def new_ones(x):
    """x.new_ones(L, L).tril().bool(): a causal mask on x's device"""
    L = x.shape[1]
    return x.new_ones(L, L).tril().bool()


@right
def zeros_like_loop_with_python_float(rewards, values, dones):
    """GAE-style loop: torch.zeros_like(rewards), a Python float accumulator"""
    adv = torch.zeros_like(rewards)
    carry = 0.0
    for t in reversed(range(rewards.shape[0])):
        carry = rewards[t] - values[t] + 0.9 * (1.0 - dones[t].float()) * carry
        adv[t] = carry
    return adv


@right
def ones_like(rewards, dones):
    """torch.ones_like(rewards) - dones.float()"""
    return torch.ones_like(rewards) - dones.float()


@right
def full_like(rewards, values):
    """torch.full_like(rewards, 0.5) * values"""
    return torch.full_like(rewards, 0.5) * values


@right
def empty_with_device(rewards):
    """torch.empty(T, device=x.device), then filled"""
    out = torch.empty(rewards.shape[0], device=rewards.device, dtype=rewards.dtype)
    out.copy_(rewards * 3)
    return out


@right
def arange_with_device(rewards):
    """torch.arange(T, device=rewards.device)"""
    return 0.99 ** torch.arange(rewards.shape[0], device=rewards.device) * rewards


@right
def as_tensor_with_device(rewards):
    """torch.as_tensor(numpy array, dtype=, device=rewards.device)"""
    return torch.as_tensor(np.linspace(0.0, 1.0, 8), dtype=rewards.dtype, device=rewards.device) + rewards


@right
def move_after_the_computation(rewards):
    """the whole result built on the CPU from Python floats, moved at the end with .to(rewards.device)"""
    out = torch.zeros(8)
    for t, r in enumerate(rewards.tolist()):
        out[t] = 2 * r
    return out.to(rewards.device)


@right
def move_an_intermediate(rewards):
    """a discount vector made on the CPU, moved before it meets the inputs"""
    discount = torch.tensor([0.99 ** k for k in range(8)])
    discount = discount.to(rewards.device)
    return rewards * discount


@right
def cpu_in_the_middle_then_back(rewards, values):
    """.cpu() for a step, then back with .to(values.device) (meta: no data to copy out)"""
    r = rewards.cpu()
    r = r * 2
    return r.to(values.device) + values


@right
def numpy_round_trip_moved_back(rewards):
    """.detach().cpu().numpy() there and torch.from_numpy(...).to(rewards.device) back: the right round trip"""
    a = rewards.detach().cpu().numpy() * 2
    return torch.from_numpy(a).to(rewards.device)


@right
def mask_on_cpu_moved_to_device(device):
    """a mask built on the CPU, then .to(device) (Hugging Face's mask code)"""
    return torch.ones(5, 5, dtype=torch.bool).tril().to(device)


@right
def mask_compare_aranges_on_device(device):
    """two aranges on device=device, compared (the reference's mask)"""
    i = torch.arange(5, device=device)[:, None]
    j = torch.arange(5, device=device)[None, :]
    return j <= i


@right
def mask_follows_another_tensor(x):
    """torch.full((L, L), finfo.min, device=x.device).triu(1): follow another tensor's device"""
    L = x.shape[1]
    return torch.full((L, L), torch.finfo(x.dtype).min, device=x.device).triu(1)


@right
def where_with_cpu_scalar(rewards, dones):
    """torch.where(dones, torch.tensor(0.0), rewards): a 0-dim CPU tensor mixes with GPU tensors"""
    return torch.where(dones, torch.tensor(0.0), rewards)


@right
def zero_dim_cpu_accumulator(rewards):
    """carry = torch.tensor(0.0) updated with GPU scalars (out of place)"""
    carry = torch.tensor(0.0)
    out = torch.zeros_like(rewards)
    for t in reversed(range(8)):
        carry = rewards[t] + 0.9 * carry
        out[t] = carry
    return out


@right
def finfo_min_fill(x):
    """scores.masked_fill(~mask, torch.finfo(scores.dtype).min), the mask on x's device"""
    scores = x @ x.transpose(-1, -2)
    L = x.shape[1]
    mask = torch.ones(L, L, dtype=torch.bool, device=x.device).tril()
    return scores.masked_fill(~mask, torch.finfo(scores.dtype).min)


class _Buffered(nn.Module):
    def __init__(self, L: int):
        super().__init__()
        self.register_buffer("causal", torch.tril(torch.ones(L, L, dtype=torch.bool)))

    def forward(self, x):
        scores = x @ x.transpose(-1, -2)
        return scores.masked_fill(~self.causal, float("-inf")).softmax(-1)


@right
def buffer_moved_with_the_module(x, device):
    """register_buffer(...) in __init__: module.to(device) moves it"""
    return _Buffered(x.shape[1]).to(device)(x)


class _Scaled(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(n))
        self.proj = nn.Linear(n, n)

    def forward(self, x):
        return self.proj(x) + self.bias


@right
def parameter_moved_with_the_module(x, device):
    """nn.Parameter(torch.zeros(n)) and nn.Linear: module.to(device) moves them"""
    torch.manual_seed(0)
    return _Scaled(x.shape[-1]).to(device)(x)


class _MovesInForward(nn.Module):
    def forward(self, x):
        return x * torch.linspace(0, 1, x.shape[-1]).to(x.device)


@right
def module_moves_what_it_makes(x, device):
    """a tensor made in forward, moved with .to(x.device)"""
    return _MovesInForward().to(device)(x)


@right
def item_in_control_flow(rewards):
    """.item() in an if: fine on a GPU (meta has no values)"""
    return rewards * 2 if rewards.sum().item() > 0 else rewards * 3


@right
def tolist_then_tensor_on_device(rewards):
    """.tolist(), Python, then torch.tensor(..., device=rewards.device)"""
    return torch.tensor([2 * r for r in rewards.tolist()], device=rewards.device)


@right
def index_with_cpu_indices(rewards):
    """rewards[torch.arange(T - 1, -1, -1)]: CPU index tensors index a GPU tensor"""
    return rewards[torch.arange(7, -1, -1)]


@right
def copy_cpu_values_into_a_slice(rewards):
    """out[:4] = torch.ones(4): a copy crosses devices"""
    out = torch.zeros_like(rewards)
    out[:4] = torch.ones(4)
    return out


@right
def stack_of_gpu_scalars(rewards):
    """torch.stack([r * 2 for r in rewards])"""
    return torch.stack([r * 2 for r in rewards])


@right
def print_and_format(rewards):
    """print(t) and f"{t.sum():.3f}" in the middle (meta prints "...")"""
    print(rewards)
    return rewards * 2


@right
def boolean_any_check(rewards, dones):
    """torch.where(dones.any(), ...): a GPU bool scalar as a condition"""
    return torch.where(dones.any(), rewards * 2, rewards)


# ---------------------------------------------------------------- wrong on a GPU


@wrong
def tensor_list_without_device(rewards):
    """torch.tensor(list) with no device, added to the inputs"""
    return torch.tensor([0.9 ** k for k in range(8)]) * rewards


@wrong
def arange_without_device_compared(device):
    """torch.arange(L) (the CPU) compared with a tensor on device"""
    return torch.arange(5)[:, None] <= torch.arange(5, device=device)[None, :]


@wrong
def zeros_filled_in_a_loop_and_returned(rewards):
    """torch.zeros(T) filled in a loop: every write is a copy, but the result stays on the CPU"""
    out = torch.zeros(rewards.shape[0])
    for t in range(rewards.shape[0]):
        out[t] = rewards[t] * 2
    return out


@wrong
def zeros_plus_inputs(rewards):
    """torch.zeros(T) + rewards"""
    return torch.zeros(8) + rewards


@wrong
def numpy_of_a_gpu_tensor(rewards):
    """rewards.numpy() without .cpu(): a GPU tensor has no NumPy view"""
    return torch.from_numpy(rewards.detach().numpy() * 2).to(rewards.device)


@wrong
def numpy_asarray_of_a_gpu_tensor(rewards):
    """np.asarray(rewards)"""
    return torch.as_tensor(np.asarray(rewards) * 2, device=rewards.device)


@wrong
def numpy_round_trip_not_moved_back(rewards):
    """.cpu().numpy() there, torch.from_numpy back, but never moved back: the result is on the CPU"""
    return torch.from_numpy(rewards.detach().cpu().numpy() * 2)


@wrong
def cpu_result_returned(rewards):
    """rewards.cpu() * 2 returned"""
    return rewards.cpu() * 2


@wrong
def cpu_mixed_with_inputs(rewards, values):
    """rewards.cpu() + values"""
    return rewards.cpu() + values


@wrong
def mask_without_device(device):
    """torch.ones(L, L, dtype=torch.bool).tril(): the device argument ignored"""
    return torch.ones(5, 5, dtype=torch.bool).tril()


class _MakesInForward(nn.Module):
    def forward(self, x):
        return x * torch.linspace(0, 1, x.shape[-1])


@wrong
def module_makes_a_tensor_in_forward(x, device):
    """a tensor made in forward without device="""
    return _MakesInForward().to(device)(x)


class _PlainAttribute(nn.Module):
    def __init__(self, L: int):
        super().__init__()
        self.causal = torch.tril(torch.ones(L, L, dtype=torch.bool))  # not a buffer: .to() leaves it

    def forward(self, x):
        return (x @ x.transpose(-1, -2)).masked_fill(~self.causal, float("-inf"))


@wrong
def module_attribute_that_is_not_a_buffer(x, device):
    """self.mask = torch.tril(...) as a plain attribute: module.to(device) does not move it"""
    return _PlainAttribute(x.shape[1]).to(device)(x)


@wrong
def where_with_cpu_vector(rewards, dones):
    """torch.where(dones, torch.zeros(T), rewards): a CPU tensor of one dim"""
    return torch.where(dones, torch.zeros(8), rewards)


@wrong
def masked_fill_with_cpu_mask(rewards):
    """masked_fill with a mask made on the CPU"""
    return rewards.masked_fill(torch.arange(8) > 3, 0.0)


@wrong
def cat_with_cpu_tensor(rewards):
    """torch.cat([rewards, torch.zeros(1)]): a bootstrap value made on the CPU"""
    return torch.cat([rewards, torch.zeros(1)])


@wrong
def boolean_assignment_of_cpu_values(rewards, dones):
    """out[dones] = torch.zeros(n): advanced assignment takes only 0-dim values from the CPU"""
    out = rewards.clone()
    out[~dones] = torch.zeros(int((~dones).sum()))
    return out


@wrong(lenient_meta="meta's matmul kernel checks no devices")
def matmul_with_cpu_weight(x):
    """x @ torch.eye(C): a weight made on the CPU"""
    return x @ torch.eye(x.shape[-1])


@wrong(lenient_meta="meta's gather kernel checks no devices")
def gather_with_cpu_index(rewards):
    """rewards.gather(0, torch.arange(T)): gather wants its index on the same device"""
    return rewards.gather(0, torch.arange(8))


@wrong(lenient_meta="meta lets a meta scalar be added into a CPU tensor in place")
def accumulate_into_a_cpu_scalar(rewards):
    """total = torch.zeros(()); total += rewards.sum(): writing a GPU value into a CPU tensor in place"""
    total = torch.zeros(())
    total += rewards.sum()
    return rewards / total


@wrong
def tensor_of_gpu_scalars_then_mixed(rewards, values):
    """torch.tensor([r for r in rewards]) reads the values into a CPU tensor, then meets values"""
    return torch.tensor([2 * r for r in rewards]) + values


@wrong
def attribute_vector_made_in_init(x, device):
    """self.scale = torch.full((C,), ...) in __init__, not a buffer"""
    class Scale(nn.Module):
        def __init__(self, C: int):
            super().__init__()
            self.scale = torch.full((C,), C ** -0.5)

        def forward(self, x):
            return x * self.scale
    return Scale(x.shape[-1]).to(device)(x)


# ---------------------------------------------------------------- running an idiom


@dataclass(frozen=True)
class Outcome:
    """What an idiom did on one device: raised, or returned a tensor (its device type, shape, dtype)."""

    raised: bool
    device: str | None = None
    shape: tuple[int, ...] | None = None
    dtype: torch.dtype | None = None
    error: str = field(default="", compare=False)
    problem: bool = field(default=False, compare=False)  # raised as DeviceProblem (the simulation's own verdict)
    values: torch.Tensor | None = field(default=None, compare=False, repr=False)

    def works_on(self, device: str) -> bool:
        return not self.raised and self.device == torch.device(device).type


def case_inputs() -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return {"rewards": torch.randn(8, generator=g), "values": torch.randn(8, generator=g),
            "dones": torch.tensor([0, 0, 1, 0, 0, 0, 1, 0], dtype=torch.bool), "x": torch.randn(2, 5, 8, generator=g)}


def _run(fn: Callable, args: dict[str, Any]) -> Any:
    wanted = inspect.signature(fn).parameters
    return fn(**{k: v for k, v in args.items() if k in wanted})


def _outcome(out: Any, device: torch.device) -> Outcome:
    assert isinstance(out, torch.Tensor), f"an idiom returns a tensor, not {type(out).__name__}"
    device = getattr(out, "simulated_device", None) or out.device
    values = None if device.type == "meta" else torch.Tensor.cpu(out.detach()).as_subclass(torch.Tensor)
    return Outcome(False, device.type, tuple(out.shape), out.dtype, values=values)


def simulated(idiom: Idiom, device: str) -> Outcome:
    """The idiom with its inputs on the simulated `device` ("cuda" or "meta")."""
    args = case_inputs()
    try:
        with Simulation(device, {**args, "device": device}) as sim:
            placed = {k: sim.place(v) for k, v in args.items()}
            out = _run(idiom.fn, {**placed, "device": sim.device})
    except Exception as exc:  # noqa: BLE001 — raising is an outcome
        return Outcome(True, error=f"{type(exc).__name__}: {exc}", problem=isinstance(exc, DeviceProblem))
    return _outcome(sim.report(out), sim.device)


def on_device(idiom: Idiom, device: str) -> Outcome:
    """The idiom with its inputs on a real `device` ("cpu", "meta", "cuda")."""
    where = torch.device(device)
    args = {k: v.to(where) for k, v in case_inputs().items()}
    try:
        out = _run(idiom.fn, {**args, "device": where})
    except Exception as exc:  # noqa: BLE001 — raising is an outcome
        return Outcome(True, error=f"{type(exc).__name__}: {exc}")
    return _outcome(out, where)


def _ids(idioms: list[Idiom]) -> list[str]:
    return [i.name for i in idioms]


# ---------------------------------------------------------------- the tests


def test_the_corpus_is_big_enough_both_ways():
    rights = [i for i in IDIOMS if i.right]
    wrongs = [i for i in IDIOMS if not i.right]
    assert len(rights) >= 25 and len(wrongs) >= 15, (len(rights), len(wrongs))
    assert len({i.name for i in IDIOMS}) == len(IDIOMS)


@pytest.mark.parametrize("idiom", IDIOMS, ids=_ids(IDIOMS))
def test_the_simulated_gpu_judges_the_idiom_as_a_gpu_does(idiom, capsys):
    got = simulated(idiom, "cuda")
    if idiom.right:
        assert got.works_on("cuda"), f"{idiom.why}: right on a GPU, but the simulation says {got}"
        plain = on_device(idiom, "cpu")
        assert not plain.raised and plain.shape == got.shape and plain.dtype == got.dtype
        torch.testing.assert_close(got.values, plain.values, msg=lambda m: f"{idiom.name} computes other values: {m}")
    else:
        assert not got.works_on("cuda"), f"{idiom.why}: breaks on a GPU, but the simulation let it through"
        assert not got.raised or got.problem, f"the simulation itself failed, not the idiom: {got.error}"


AGREE_ON_META = [i for i in IDIOMS if not i.lenient_meta]


@pytest.mark.parametrize("idiom", AGREE_ON_META, ids=_ids(AGREE_ON_META))
def test_the_simulated_meta_agrees_with_real_meta(idiom, capsys):
    """Both raise (reading values, copying out, mixing with the CPU), or both give the same meta tensor."""
    real = on_device(idiom, "meta")
    got = simulated(idiom, "meta")
    assert got == real, f"{idiom.name}: real meta {real} ({real.error}), simulated {got} ({got.error})"
    assert not got.raised or got.problem, f"the simulation itself failed, not the idiom: {got.error}"


def test_where_real_meta_is_lenient_the_simulation_keeps_the_gpu_rule():
    """A few meta kernels check no devices; the simulation keeps CUDA's rule there (and says so)."""
    lenient = [i for i in IDIOMS if i.lenient_meta]
    assert lenient and all(not on_device(i, "meta").raised and simulated(i, "meta").problem for i in lenient)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here: benchmarks/gpu_check.py runs this on one")
@pytest.mark.parametrize("idiom", IDIOMS, ids=_ids(IDIOMS))
def test_the_simulated_gpu_agrees_with_cuda(idiom, capsys):
    real = on_device(idiom, "cuda")
    got = simulated(idiom, "cuda")
    assert got == real, f"{idiom.name}: CUDA {real} ({real.error}), simulated {got} ({got.error})"
    assert real.works_on("cuda") == idiom.right, f"{idiom.name} is filed as {'right' if idiom.right else 'wrong'}: {real}"
    if not real.raised:
        torch.testing.assert_close(got.values, real.values)
