"""Shared makers and hooks for the normalisation katas (layernorm, rmsnorm, batchnorm).

What the family needs beyond the default protocol, built once:

- a case is a sequence of steps, each a mode and an input (layernorm and rmsnorm: one step, the
  input "x"; batchnorm: `modes` "train, train, eval" and inputs "x of step 1", "x of step 2", …);
  the module is built once, converted to the inputs' dtype (`.double()`, `.half()`, …), the reference's
  parameters and running buffers loaded by name (the module protocol), and called step after step; every
  output and, after every step, every running buffer is recorded under a name that says which step
  ("output of step 2", "running_var after step 3");
- a buffer carrying autograd history after a step is a failure of its own;
- a fresh module (`fresh=True`) is inspected before anything is loaded: which parameters and buffers
  it registers, their shapes, their initial values;
- float16/bfloat16 cases are compared with the reference computed in float32 from the same rounded
  inputs and parameters, rounded once;
- gradients are compared with atol × max(1, max|expected gradient|): a normalisation's gradients grow
  as 1/std, and so does their float32 rounding noise.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Inputs, Outcome

LOW_PRECISION = (torch.float16, torch.bfloat16)
FRESH = "fresh"  # Inputs.show key: inspect the module as __init__ left it, load nothing
MODES = "modes"  # Inputs.args key of a several-step case: "train, train, eval"
STRUCTURE = "parameters and buffers"  # a fresh module's registered tensors
HISTORY = "buffers with autograd history"  # (buffer, step) pairs whose value carries a graph
_SPECIAL = (STRUCTURE, HISTORY)

# ---------------------------------------------------------------- drawing inputs


def randn(g: torch.Generator, *shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0,
          offset: float = 0.0) -> torch.Tensor:
    """offset + scale · N(0, 1), drawn in float64 and cast once, so every dtype sees the same numbers."""
    return (offset + scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)


def uniform(g: torch.Generator, low: float, high: float) -> float:
    return low + (high - low) * float(torch.rand((), generator=g, dtype=torch.float64))


def randint(g: torch.Generator, low: int, high: int) -> int:
    """An int in [low, high]."""
    return int(torch.randint(low, high + 1, (1,), generator=g))


def pick(g: torch.Generator, choices: list) -> Any:
    return choices[randint(g, 0, len(choices) - 1)]


def gain(g: torch.Generator, n: int) -> torch.Tensor:
    """A loaded weight: far from the initial ones (some negative), so an ignored weight shows."""
    return randn(g, n, scale=0.5, offset=1.0)


def shift(g: torch.Generator, n: int) -> torch.Tensor:
    """A loaded bias, far from the initial zeros."""
    return randn(g, n, scale=0.5)


# ---------------------------------------------------------------- steps


def step_key(k: int) -> str:
    return f"x of step {k}"


def steps(inputs: Inputs) -> list[tuple[str, str, Any]]:
    """(mode, argument name, x) for each call of a case, in order."""
    if MODES not in inputs.args:
        return [("train" if inputs.train else "eval", "x", inputs.args["x"])]
    modes = inputs.args[MODES].split(", ")
    return [(mode, step_key(k), inputs.args[step_key(k)]) for k, mode in enumerate(modes, 1)]


def several_steps(modes: list[str], xs: list[torch.Tensor]) -> dict[str, Any]:
    """The arguments of a several-step case."""
    assert len(modes) == len(xs) and all(m in ("train", "eval") for m in modes)
    return {MODES: ", ".join(modes), **{step_key(k): x for k, x in enumerate(xs, 1)}}


def _dtype(inputs: Inputs) -> torch.dtype:
    return next(v.dtype for _, _, v in steps(inputs))


# ---------------------------------------------------------------- running a case


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False,
         buffers: tuple[str, ...] = ()) -> Outcome:
    """Build the module once, then run each step through the default protocol (so strict loading,
    the move to the run device, train/eval, gradients and the device simulation are the engine's own).

    `buffers` names the running buffers recorded after every step (batchnorm's running statistics)."""
    dtype, fresh = _dtype(inputs), bool(inputs.show.get(FRESH))
    built: list[Any] = []
    seen: dict[str, Any] = {}

    def factory(**init: Any) -> Any:
        if not built:
            module = entry(**init)
            if fresh:  # as __init__ left it, before anything is loaded or converted
                seen[STRUCTURE] = structure(module, buffers)
                seen.update({f"{name} at init": t.detach().clone() for name, t in _registered(module).items()})
            built.append(module if dtype == torch.float32 else spec_api.convert(module, dtype))
        return built[0]

    value, extras, args, history = None, {}, {}, []
    for k, (mode, key, x) in enumerate(steps(inputs), 1):
        first = k == 1
        step = Inputs(args={"x": x}, init=inputs.init, params=inputs.params if first and not fresh else None,
                      train=mode == "train", grad_of=("x",) if first and key in inputs.grad_of else (),
                      probe=inputs.probe if first else None, simulate=inputs.simulate)
        outcome = spec_api.call(kata, factory, step, device, track_device)
        args[key] = outcome.args["x"]
        if first:
            value = outcome.value
            extras.update({_rename(name, key): g for name, g in outcome.extras.items()})
        else:
            extras[f"output of step {k}"] = outcome.value
        parameters = dict(built[0].named_parameters())
        for name in buffers:
            t = getattr(built[0], name, None)
            if isinstance(t, torch.Tensor) and (t.requires_grad or t.grad_fn is not None):
                history.append((name, k, name in parameters))
            extras[f"{name} after step {k}"] = t.detach().clone() if isinstance(t, torch.Tensor) else t
    extras.update(seen)
    if buffers:
        extras[HISTORY] = tuple(history)
    return Outcome(value, extras, args)


def _rename(name: str, key: str) -> str:
    return f"grad of {key}" if name == "grad of x" else name


def _registered(module: Any) -> dict[str, torch.Tensor]:
    return {**dict(module.named_parameters()), **dict(module.named_buffers())}


def structure(module: Any, state: tuple[str, ...] = ()) -> tuple[tuple[str, str, tuple[int, ...], bool], ...]:
    """(kind, name, shape, in the state_dict) for every parameter the module holds, and for the tensors named
    `state` (batchnorm's running statistics), in the order it registered them: parameters, buffers, then tensors
    kept as plain attributes (which .to() and state_dict() miss). Any other buffer is the module's own (the module
    protocol): not recorded, so a file with one is named like the variant without. Compared as a set: the order
    says nothing."""
    saved = set(module.state_dict().keys())
    found = {n: ("parameter", n, tuple(p.shape), n in saved) for n, p in module.named_parameters()}
    found.update({n: ("buffer", n, tuple(b.shape), n in saved) for n, b in module.named_buffers() if n in state})
    for n, value in vars(module).items():
        if isinstance(value, torch.Tensor) and not n.startswith("_") and n not in found and n in state:
            found[n] = ("attribute", n, tuple(value.shape), False)
    return tuple(found.values())


def expected(kata: Any, entry: Any, inputs: Inputs, device: torch.device, buffers: tuple[str, ...] = ()) -> list[Outcome]:
    """The reference's answer; for float16/bfloat16, computed in float32 from the same (already
    rounded) inputs and parameters and rounded once, so only the learner's rounding is measured."""
    dtype = _dtype(inputs)
    if dtype not in LOW_PRECISION:
        return [call(kata, entry, inputs, device, buffers=buffers)]
    assert not inputs.grad_of and inputs.probe is None, "low-precision cases compare the forward only"

    def up(t: Any) -> Any:
        return t.to(dtype).float() if isinstance(t, torch.Tensor) and t.is_floating_point() else t

    wide = replace(inputs, args={k: up(v) for k, v in inputs.args.items()},
                   params=None if inputs.params is None else {k: up(p) for k, p in inputs.params.items()})
    outcome = call(kata, entry, wide, device, buffers=buffers)

    def down(t: Any) -> Any:
        return t.detach().to(dtype) if isinstance(t, torch.Tensor) and t.is_floating_point() else t

    return [Outcome(down(outcome.value), {k: down(v) for k, v in outcome.extras.items()}, outcome.args)]


# ---------------------------------------------------------------- judging


def tolerance_for(case: Any, item: str, dtype: torch.dtype, expected: torch.Tensor | None) -> tuple[float, float] | None:
    """Gradients: the dtype's atol times max(1, max|expected gradient|); everything else: the default."""
    if not item.startswith("grad of") or expected is None or expected.numel() == 0:
        return None
    rtol, atol = case.inputs.tol or spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


def compare(kata: Any, case: Any, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """The registered tensors of a fresh module and the autograd history of buffers, said in words;
    then the generic comparison of everything else."""
    spec = sys.modules[kata.spec_module]
    rules = _structure_problems(expected[0].extras.get(STRUCTURE), got.extras.get(STRUCTURE))
    rules += _history_problems(got.extras.get(HISTORY))
    absent = {p.item for p in rules if p.kind == "params"}
    best: list[Problem] | None = None
    for alternative in expected:  # the special items are said in words above, not compared as tuples
        problems = [p for p in compare_outcome(kata, spec, case, alternative, got)
                    if p.item not in _SPECIAL and not any(p.item.startswith(f"{name} ") for name in absent)]
        if best is None or len(problems) < len(best):
            best = problems
    return rules + (best or [])


def _structure_problems(want: Any, have: Any) -> list[Problem]:
    """The fresh module's tensors against the reference's: every parameter, and the buffers the contract names
    (batchnorm's running statistics). Any other buffer is the module's own (the module protocol): not compared."""
    if want is None or have is None:
        return []
    named = {entry[1] for entry in want}
    have = [entry for entry in have if entry[0] == "parameter" or entry[1] in named]
    if set(map(tuple, want)) == set(map(tuple, have)):
        return []
    want = {entry[1]: entry for entry in want}
    have = {entry[1]: entry for entry in have}
    problems = []
    for name, (kind, _, shape, _) in want.items():
        shape = tuple(shape)
        if name not in have:
            if kind == "parameter":
                message = tr("the module has no parameter named {name}: expected nn.Parameter of shape {shape}",
                             name=name, shape=shape)
            else:
                message = tr("the module has no buffer named {name}: register it with "
                             "self.register_buffer(\"{name}\", …), shape {shape}", name=name, shape=shape)
            problems.append(Problem("params", name, message))
            continue
        got_kind, _, got_shape, saved = have[name]
        got_shape = tuple(got_shape)
        if got_kind != kind:
            if kind == "parameter":
                message = tr("{name} is registered as a buffer: it must be a learnable nn.Parameter", name=name)
            elif got_kind == "parameter":
                message = tr("{name} is an nn.Parameter: running statistics are buffers, "
                             "self.register_buffer(\"{name}\", …), which the optimiser never touches", name=name)
            else:
                message = tr("{name} is a plain tensor attribute: register it with self.register_buffer(\"{name}\", …) "
                             "so that .to(), state_dict() and load_state_dict() see it", name=name)
            problems.append(Problem("params", name, message))
        elif got_shape != shape:
            problems.append(Problem("params", name, tr("{name} has shape {got}, expected {shape}",
                                                       name=name, got=got_shape, shape=shape)))
        elif not saved:
            problems.append(Problem("params", name, tr("{name} is registered with persistent=False: it must be in "
                                                       "the state_dict", name=name)))
    names = ", ".join(want)
    for name, (got_kind, *_rest) in have.items():
        if name not in want and got_kind != "attribute":
            problems.append(Problem("params", name, tr("{name} is not part of the contract: the state_dict holds "
                                                       "exactly {names}", name=name, names=names)))
    return problems


def _history_problems(history: Any) -> list[Problem]:
    first: dict[str, tuple[int, bool]] = {}
    for name, k, is_parameter in history or ():
        first.setdefault(name, (k, is_parameter))
    problems = []
    for name, (k, is_parameter) in first.items():
        if is_parameter:
            message = tr("{name} is an nn.Parameter: running statistics are buffers, "
                         "self.register_buffer(\"{name}\", …), which the optimiser never touches", name=name)
        else:
            message = tr("{name} carries autograd history after step {n}: update the running statistics under "
                         "torch.no_grad(), or from detached statistics", name=name, n=k)
        problems.append(Problem("rule", f"{name} after step {k}", message))
    return problems
