"""Case families for `grad-clip`: torch.nn.utils.clip_grad_norm_ over parameters' `.grad`, in place.

A case is a few parameters (values and gradients drawn in float64, cast to the case's dtype; a gradient may be None)
and how they are passed: a list, a tuple, one tensor, or a generator (`model.parameters()`: read once). The call hook
builds `nn.Parameter`s on the run device, sets their `.grad`, calls clip_grad_norm_(parameters, max_norm[,
norm_type=]) and reads back every `.grad` ("parameter 2.grad", the input's name), which parameters' values changed, and whether the
list passed in was changed. Compared: the returned norm, a 0-dim tensor in the gradients' dtype and device, within the
dtype's rtol (relative only); each gradient with the dtype's rtol and atol × max|expected gradient| (scaled by its own
size, so gradients of 1e-6 are really compared); a None gradient must stay None; the parameters' values bit-identical.
With no gradient at all any 0-dim float tensor equal to 0 passes (torch returns `torch.tensor(0.)`, on the CPU).
"""
from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_item, compare_outcome, describe
from checker.judge.devices import Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._training import pick, randint, uniform
from checker.text.i18n import tr

PASSED = "passed"  # Inputs.show key: "list", "tuple", "tensor" (one parameter), "generator"
N = "parameters"  # Inputs.show key: how many
PARAMETERS = "parameters changed"  # extras: which parameters' values the call changed ("" = none)
LIST = "list passed"  # extras: whether the list passed in was changed (list cases only)
INF = math.inf


def _value(i: int) -> str:
    return f"parameter {i}"


def _grad(i: int) -> str:
    return f"parameter {i}.grad"


def _item(i: int) -> str:
    """An output: the .grad after the call, under the name of the input it was ("parameter 2.grad")."""
    return f"parameter {i}.grad"


# ---------------------------------------------------------------- drawing cases


def _draw(g: torch.Generator, shapes: list[tuple[int, ...]], scales: list[float | None], max_norm: float | int,
          norm_type: Any = None, dtype: torch.dtype = torch.float32, passed: str = "list", grads: str = "normal"
          ) -> Inputs:
    """Parameters of `shapes`, gradient i of scale scales[i] (None: no gradient). norm_type None: left out.
    grads: "normal", "zero", "negative_max" (the largest |entry| of all is negative), "boundary" (entries 60 and 80 and
    zeros: the 2-norm is exactly 100)."""
    f64 = dict(generator=g, dtype=torch.float64)
    n = len(shapes)
    # how the parameters are passed, as the report shows it (the call hook reads PASSED)
    args: dict[str, Any] = {"parameters": {"list": f"list of {n}", "tuple": f"tuple of {n}", "tensor": "one tensor",
                                           "generator": f"generator of {n}"}[passed]}
    for i, (shape, scale) in enumerate(zip(shapes, scales)):
        args[_value(i)] = torch.randn(shape, **f64).to(dtype)
        if scale is None:
            args[_grad(i)] = None
            continue
        grad = scale * torch.randn(shape, **f64)
        if grads == "zero":
            grad = torch.zeros(shape, dtype=torch.float64)
        elif grads == "boundary":
            grad = torch.zeros(shape, dtype=torch.float64)
            if i == 0:
                grad.view(-1)[0] = 60.0
            if i == len(shapes) - 1:
                grad.view(-1)[-1] = 80.0
        elif grads == "negative_max" and i == len(shapes) - 1:
            grad.view(-1)[0] = -3.0 * scale * max(1.0, float(grad.abs().max()) / scale)
        args[_grad(i)] = grad.to(dtype)
    args["max_norm"] = max_norm
    if norm_type is not None:
        args["norm_type"] = norm_type
    return Inputs(args=args, show={PASSED: passed, N: len(shapes)})


def _case(shapes, scales, max_norm, **kw):
    return lambda g: _draw(g, shapes, scales, max_norm, **kw)


def _random(g: torch.Generator) -> Inputs:
    n = randint(g, 1, 5)
    shapes = [tuple(randint(g, 1, 6) for _ in range(randint(g, 0, 2))) for _ in range(n)]
    scale = pick(g, [1e-2, 0.1, 1.0, 1.0, 10.0, 100.0])
    scales = [None if n > 1 and float(torch.rand((), generator=g)) < 0.2 else scale * uniform(g, 0.3, 3.0)
              for _ in range(n)]
    if all(s is None for s in scales):
        scales[0] = scale
    norm_type = pick(g, [None, None, 2.0, INF])
    dtype = pick(g, [torch.float32, torch.float64])
    passed = pick(g, ["list", "list", "tuple", "generator"] + (["tensor"] if n == 1 else []))
    inputs = _draw(g, shapes, scales, 1.0, norm_type, dtype, passed)
    total = _norm([inputs.args[_grad(i)] for i in range(n)], INF if norm_type == INF else 2.0)
    # max_norm well away from the norm (a factor 0.1 to 0.7, or 1.5 to 5), so the clip decision never rests on rounding
    inputs.args["max_norm"] = total * pick(g, [uniform(g, 0.1, 0.7), uniform(g, 0.1, 0.7), uniform(g, 1.5, 5.0)])
    return inputs


def _norm(grads: list[torch.Tensor | None], norm_type: float) -> float:
    present = [t.double() for t in grads if t is not None]
    if not present:
        return 0.0
    if norm_type == INF:
        return max(float(t.abs().max()) for t in present)
    return math.sqrt(math.fsum(float(v) ** 2 for t in present for v in t.reshape(-1)))


SHAPES = [(4, 3), (3,), (2, 5)]
FAMILIES = (  # the eps cases early: the namer examines the first failing families, and the eps must be among them
    Family("below_max_norm", _case(SHAPES, [0.1, 0.1, 0.1], 10.0)),
    Family("above_max_norm", _case(SHAPES, [1.0, 2.0, 1.0], 1.0)),
    Family("tiny_gradients_eps", _case(SHAPES, [3e-7, 3e-7, 3e-7], 1e-6, dtype=torch.float64)),
    Family("tiny_gradients_eps_float32", _case(SHAPES, [3e-7, 3e-7, 3e-7], 1e-6)),
    Family("one_parameter", _case([(5, 4)], [3.0], 2.0)),
    Family("single_tensor", _case([(3, 4)], [2.0], 1.5, passed="tensor")),
    Family("single_tensor_0dim", _case([()], [5.0], 1.0, passed="tensor")),
    Family("generator", _case(SHAPES, [1.0, 1.0, 1.0], 0.5, passed="generator")),
    Family("tuple", _case(SHAPES, [1.0, 1.0, 1.0], 0.5, passed="tuple")),
    Family("none_grad_among_others", _case(SHAPES, [1.0, None, 2.0], 1.0)),
    Family("none_grad_first", _case(SHAPES, [None, 1.0, 1.0], 0.3)),
    Family("all_grads_none", _case(SHAPES[:2], [None, None], 1.0)),
    Family("empty_list", _case([], [], 1.0)),
    Family("norm_inf", _case(SHAPES, [1.0, 3.0, 1.0], 1.0, norm_type=INF)),
    Family("norm_inf_negative_max", _case(SHAPES, [1.0, 1.0, 1.0], 1.0, norm_type=float("inf"), grads="negative_max")),
    Family("norm_inf_below_max_norm", _case(SHAPES, [0.1, 0.2, 0.1], 5.0, norm_type=INF)),
    Family("zero_gradients", _case(SHAPES, [1.0, 1.0, 1.0], 1.0, grads="zero")),
    Family("max_norm_zero", _case(SHAPES, [1.0, 1.0, 1.0], 0.0)),
    Family("norm_type_int_two", _case(SHAPES, [1.0, 2.0, 1.0], 1.0, norm_type=2)),
    Family("max_norm_int", _case(SHAPES, [3.0, 3.0, 3.0], 5)),
    Family("norm_equals_max_norm", _case([(2, 3), (4,)], [1.0, 1.0], 100.0, grads="boundary")),
    Family("norm_equals_max_norm_float64", _case([(2, 3), (4,)], [1.0, 1.0], 100.0, grads="boundary",
                                                 dtype=torch.float64)),
    Family("float64_mixed_shapes_none", _case([(), (7,), (3, 2), (2, 2)], [2.0, None, 1.0, 3.0], 1.0,
                                              dtype=torch.float64)),
    Family("large_gradients", _case(SHAPES, [1e3, 2e3, 1e3], 1.0)),
    Family("default_norm_type", _case(SHAPES, [1.0, 1.0, 1.0], 2.0)),
    Family("random", _random, draws=80),
    Family("device", _case(SHAPES, [1.0, None, 2.0], 1.0), track_device=True),
    Family("device_norm_inf", _case(SHAPES, [1.0, 2.0, 1.0], 1.0, norm_type=INF, passed="generator"),
           track_device=True),
    Family("device_no_gradient", _case(SHAPES[:2], [None, None], 1.0), track_device=True),
)


# ---------------------------------------------------------------- how a case runs


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Parameters on the run device (a simulated GPU for a device case), their gradients set, the call, and what it
    left: the norm returned, every .grad, which parameters' values changed, whether the list passed changed."""
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device)
    with Simulation(simulated) as sim:
        outcome = _run(entry, inputs, sim.device)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras))


def _run(entry, inputs: Inputs, device: torch.device) -> Outcome:
    n, a = inputs.show[N], inputs.args
    values = [a[_value(i)] for i in range(n)]
    params = [nn.Parameter(v.clone().to(device)) for v in values]  # on a simulated GPU: a parameter reporting cuda:0
    for p, i in zip(params, range(n)):
        p.grad = None if a[_grad(i)] is None else a[_grad(i)].clone().to(device)
    passed = inputs.show[PASSED]
    given: Any = {"list": lambda: list(params), "tuple": lambda: tuple(params), "tensor": lambda: params[0],
                  "generator": lambda: (p for p in params)}[passed]()
    kept = list(given) if passed == "list" else None
    kwargs = {"norm_type": a["norm_type"]} if "norm_type" in a else {}
    norm = entry(given, a["max_norm"], **kwargs)
    extras: dict[str, Any] = {_item(i): p.grad for i, p in enumerate(params)}
    extras[PARAMETERS] = ", ".join(_value(i) for i, (p, v) in enumerate(zip(params, values)) if not _same(p, v))
    if kept is not None:
        extras[LIST] = "unchanged" if len(given) == len(kept) and all(x is y for x, y in zip(given, kept)) else "changed"
    return Outcome(norm, extras)


def _same(p: torch.Tensor, before: torch.Tensor) -> bool:
    with torch._C.DisableTorchFunction():
        now = p.detach()
        return now.shape == before.shape and now.dtype == before.dtype and torch.equal(now.cpu(), before)


# ---------------------------------------------------------------- how a result is judged


def tolerance_for(case, item: str, dtype: torch.dtype, expected):
    """The norm: the dtype's rtol, relative only. A gradient: the dtype's rtol and atol × max|expected gradient|."""
    if dtype not in spec_api.TOLERANCES:
        return None
    rtol, atol = spec_api.TOLERANCES[dtype]
    if item.endswith(".grad"):
        scale = float(expected.double().abs().max()) if expected is not None and expected.numel() else 0.0
        return rtol, atol * scale
    return rtol, 0.0


def _no_gradient(case) -> bool:
    return all(case.inputs.args[_grad(i)] is None for i in range(case.inputs.show[N]))


def compare(kata, case, expected, got):
    """The facts (parameters' values, the list), then the norm (any 0-dim float tensor equal to 0 when there is no
    gradient), then each gradient, a None one staying None."""
    import sys

    spec = sys.modules[__name__]
    want = expected[0]
    problems: list[Problem] = []
    changed = got.extras.get(PARAMETERS)
    if changed:
        problems.append(Problem("inplace", "parameters", tr(
            "your code changed the values of {which}: clip_grad_norm_ scales the gradients (p.grad) and leaves the "
            "parameters alone", which=changed)))
    if LIST in want.extras and got.extras.get(LIST) != "unchanged":
        problems.append(Problem("inplace", "parameters", tr(
            "your code changed the list of parameters it was given; read it, do not modify it")))
    if _no_gradient(case):
        norm = got.value
        zero = (isinstance(norm, TensorValue) and not norm.is_numpy and norm.shape == () and norm.data is not None
                and norm.data.is_floating_point() and float(norm.data) == 0.0)
        if not zero:
            problems.append(Problem("values", "total_norm", tr(
                "total_norm is {got}; with no gradient at all, return a 0-dim float tensor equal to 0 "
                "(torch returns torch.tensor(0.))", got=describe(norm))))
    else:
        problems += compare_item(spec, case, "total_norm", want.value, got.value)
    for name, exp in want.extras.items():
        if not name.endswith(".grad"):
            continue
        have = got.extras.get(name)
        if exp is None and have is not None:
            problems.append(Problem("values", name, tr(
                "{item} is {got}; expected None: a parameter whose .grad is None is skipped and keeps None",
                item=name, got=describe(have))))
        elif exp is not None and have is None:
            problems.append(Problem("values", name, tr(
                "{item} is None: the gradient was removed; scale it in place (p.grad.mul_(coef)) or assign a tensor "
                "of its shape", item=name)))
        elif exp is not None:
            problems += compare_item(spec, case, name, exp, have)
    return problems


# ---------------------------------------------------------------- known mistakes


def _clip(parameters, max_norm, norm_type, *, eps=1e-6, clamp=True, branch=False, per_parameter=False, total="l2",
          returns="pre", inf_abs=True, norm_type_used=True, none_grads="skip", wrap=True,
          clip_values=False, empty="zero"):
    """clip_grad_norm_ with one switch turned.

    eps: added to the norm; clamp: min(1, coef) (False: every gradient scaled to the max_norm, small ones up);
    branch: `if total > max_norm: scale by max_norm / total` (no eps); per_parameter: each gradient clipped by its
    own norm; total: "l2" (contract), "sum" (Σ of the per-gradient norms), "squared" (Σ g², no square root);
    returns: "pre" (contract), "clipped" (the norm after clipping), "float" (a Python float); inf_abs: max |g| (False:
    max g); norm_type_used (False: always 2); none_grads: "skip", "crash" / "crash_in_norm" (reads p.grad of every
    parameter: p.grad.detach() or torch.linalg.vector_norm(p.grad) of None raise),
    "zero_fill" (a None .grad replaced by zeros); wrap: a single tensor put in a list (False: iterated over); clip_values: the parameters' values scaled
    instead of the gradients; empty: what no gradient returns ("zero": tensor(0.), "none": None).
    """
    if isinstance(parameters, torch.Tensor) and wrap:
        parameters = [parameters]
    parameters = list(parameters)
    kind = float(norm_type) if norm_type_used else 2.0
    if none_grads == "zero_fill":
        for p in parameters:
            if p.grad is None:
                p.grad = torch.zeros_like(p)
    if none_grads == "crash":  # p.grad.detach() of None: AttributeError
        grads = [p.grad.detach() for p in parameters]
    elif none_grads == "crash_in_norm":  # torch.linalg.vector_norm(None): TypeError
        grads = [p.grad for p in parameters]
        [torch.linalg.vector_norm(g) for g in grads]
    else:
        grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return None if empty == "none" else torch.tensor(0.0)
    if kind == INF:
        norms = [(g.abs() if inf_abs else g).max() for g in grads]
        total_norm = torch.stack(norms).max()
    else:
        norms = [torch.linalg.vector_norm(g) for g in grads]
        total_norm = {"l2": lambda: torch.linalg.vector_norm(torch.stack(norms)), "sum": lambda: torch.stack(norms).sum(),
                      "squared": lambda: (torch.stack(norms) ** 2).sum()}[total]()
    targets = [p for p in parameters if p.grad is not None] if clip_values else None
    coef = max_norm / (total_norm + eps)
    if clamp:
        coef = torch.clamp(coef, max=1.0)
    for i, g in enumerate(grads):
        if per_parameter:
            c = torch.clamp(max_norm / (norms[i] + eps), max=1.0)
        elif branch:
            c = max_norm / total_norm if total_norm > max_norm else torch.ones((), dtype=g.dtype, device=g.device)
        else:
            c = coef
        (targets[i].data if clip_values else g).mul_(c)
    if returns == "clipped":
        return total_norm * (coef if not branch else torch.clamp(max_norm / total_norm, max=1.0))
    if returns == "float":
        return float(total_norm)
    return total_norm


def _variant(**switches):
    """A learner's file as `kata demo` writes it: the entry point over `_clip` with the switches set."""
    def clip_grad_norm_(parameters, max_norm, norm_type=2.0):
        return _clip(parameters, max_norm, norm_type, **switches)
    return clip_grad_norm_


def _twice(parameters, max_norm, norm_type=2.0):
    """A generator read twice: the norm over the first pass, the scaling over the (empty) second."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    norm_type = float(norm_type)
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)
    total_norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g, norm_type) for g in grads]),
                                          norm_type)
    coef = torch.clamp(max_norm / (total_norm + 1e-6), max=1.0)
    for p in parameters:
        if p.grad is not None:
            p.grad.mul_(coef)
    return total_norm


MISTAKES = (
    Mistake("no_eps", _variant(eps=0.0), "coefficient"),
    Mistake("no_eps", _variant(eps=0.0, branch=True), "branch"),
    Mistake("no_clamp", _variant(clamp=False)),
    Mistake("per_parameter_clipping", _variant(per_parameter=True)),
    Mistake("sum_of_norms", _variant(total="sum")),
    Mistake("squared_norm", _variant(total="squared")),
    Mistake("clipped_norm_returned", _variant(returns="clipped")),
    Mistake("inf_norm_without_abs", _variant(inf_abs=False)),
    Mistake("norm_type_ignored", _variant(norm_type_used=False)),
    Mistake("none_grads_not_skipped", _variant(none_grads="crash"), "attribute_error"),
    Mistake("none_grads_not_skipped", _variant(none_grads="crash_in_norm"), "type_error"),
    Mistake("none_grads_zero_filled", _variant(none_grads="zero_fill")),
    Mistake("generator_read_twice", _twice),
    Mistake("single_tensor_not_wrapped", _variant(wrap=False)),
    Mistake("parameters_clipped", _variant(clip_values=True)),
    Mistake("python_float_returned", _variant(returns="float")),
    Mistake("none_when_no_gradient", _variant(empty="none")),
)

# `kata check grad-clip --bench`: 200 parameters of 64 x 64.
BENCH = ("200 parameters [64, 64]", _case([(64, 64)] * 200, [1.0] * 200, 1.0))
