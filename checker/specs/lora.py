"""Case families for `lora`: r = 1, r > in_features, alpha / r not an integer, in = out, bias on and
off, x 1-D, 2-D and 3-D, float64, float16 (forward only), train and eval mode, B = 0 as at the start.

Every case first checks the module as built, before anything is loaded: the parameters' names and
shapes (weight and bias may be buffers; any other buffer is the module's own), which tensors are frozen and which are trainable Parameters, B = 0 and A random, and that a
fresh module computes exactly its base layer. Each finding is its own problem in the report (an
adapter that is wrong at init computes the right thing once weights are loaded, so only this shows
it). Then the module is converted to the case's dtype (`.double()`, `.half()`), tensors with a non-zero B
are loaded by name,
and the output and the gradients of (out · probe).sum() w.r.t. x, lora_A and lora_B are compared;
the frozen weight and bias must get no gradient.
"""
from __future__ import annotations

import math
from dataclasses import replace

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._rl import pick, randint

FRESH = "fresh module"  # Outcome.extras key: what the checks of the module as built found
_KEPT = ("grad of x", "grad of lora_A", "grad of lora_B")  # the gradients compared
_BLOCKING = ("keys", "shape")  # findings after which the case's tensors cannot be loaded


def _params(g: torch.Generator, n_in: int, n_out: int, r: int, bias: bool, b_zero: bool = False) -> dict:
    """A state_dict as a trained adapter has it: W and b like nn.Linear's init, A like peft's, B non-zero."""
    f64 = dict(generator=g, dtype=torch.float64)
    bound = 1 / math.sqrt(n_in)
    params = {"weight": (2 * torch.rand(n_out, n_in, **f64) - 1) * bound}
    if bias:
        params["bias"] = (2 * torch.rand(n_out, **f64) - 1) * bound
    params["lora_A"] = (2 * torch.rand(r, n_in, **f64) - 1) * bound
    params["lora_B"] = torch.zeros(n_out, r, dtype=torch.float64) if b_zero else 0.5 * torch.randn(n_out, r, **f64)
    return {k: v.float() for k, v in params.items()}


def _draw(g: torch.Generator, n_in: int = 16, n_out: int = 12, r: int | None = None, alpha: float | None = None,
          bias: bool = True, lead: tuple[int, ...] = (2, 5), dtype: torch.dtype = torch.float32, train: bool = False,
          b_zero: bool = False) -> Inputs:
    init = {"in_features": n_in, "out_features": n_out}
    if r is not None:
        init["r"] = r
    if alpha is not None:
        init["alpha"] = alpha
    if not bias:
        init["bias"] = False
    x = torch.randn(*lead, n_in, generator=g, dtype=torch.float64).to(dtype)
    grads = dtype != torch.float16  # float16 is forward only
    params = _params(g, n_in, n_out, init.get("r", 8), bias, b_zero)
    return Inputs(args={"x": x}, init=init, params=params, train=train, grad_of=("x",) if grads else (),
                  probe=torch.randn(*lead, n_out, generator=g) if grads else None,
                  show={"r": init.get("r", 8), "alpha": init.get("alpha", 16)})


def _case(**kw):
    return lambda g: _draw(g, **kw)


def _random(g: torch.Generator) -> Inputs:
    lead = pick(g, [(), (randint(g, 1, 6),), (randint(g, 1, 3), randint(g, 1, 5))])
    return _draw(g, n_in=randint(g, 2, 24), n_out=randint(g, 1, 24), r=randint(g, 1, 12),
                 alpha=pick(g, [1, 2, 4, 8, 16, 16, 32, 5]), bias=float(torch.rand((), generator=g)) < 0.7,
                 lead=lead, train=float(torch.rand((), generator=g)) < 0.5)


FAMILIES = (
    Family("defaults", _case()),
    Family("first_step_b_zero", _case(r=4, alpha=8, b_zero=True)),
    Family("rank_one", _case(r=1, alpha=4)),
    Family("rank_above_in_features", _case(n_in=6, n_out=10, r=16, alpha=16)),
    Family("alpha_over_r_not_integer", _case(r=3, alpha=8)),
    Family("alpha_equals_r", _case(r=4, alpha=4)),
    Family("square", _case(n_in=12, n_out=12, r=4, alpha=8)),
    Family("no_bias", _case(r=4, alpha=8, bias=False)),
    Family("no_bias_defaults", _case(bias=False)),
    Family("x_1d", _case(r=4, alpha=8, lead=())),
    Family("x_2d", _case(r=4, alpha=8, lead=(7,))),
    Family("x_3d", _case(r=4, alpha=8, lead=(2, 3))),
    Family("train_mode", _case(r=4, alpha=8, train=True)),
    Family("eval_mode", _case(r=4, alpha=8, train=False)),
    Family("wide_layer", _case(n_in=64, n_out=48, r=8, alpha=32, lead=(3, 4))),
    Family("float64", _case(r=3, alpha=8, dtype=torch.float64)),
    Family("float64_no_bias", _case(r=5, alpha=16, bias=False, dtype=torch.float64, lead=(4,))),
    Family("float16", _case(r=4, alpha=8, dtype=torch.float16)),
    Family("float16_no_bias", _case(r=3, alpha=8, bias=False, dtype=torch.float16, lead=(6,))),
    Family("random", _random, draws=82),
    Family("device", _case(r=4, alpha=8, bias=False), track_device=True),
    Family("device_defaults", _case(), track_device=True),
)


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """float32 / float64: the table's atol scaled by the item's largest value. An entry of the gradient of
    lora_A sums out_features x tokens products: where they cancel, a right answer computed in another order
    (merging W + s·B·A first, say) differs by the rounding of the terms, not of the small result."""
    if expected is None or dtype not in (torch.float32, torch.float64) or not expected.numel():
        return None
    rtol, atol = spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


# ---------------------------------------------------------------- the module as built


def _fresh_findings(module: nn.Module, inputs: Inputs) -> tuple[tuple[str, str], ...]:
    """(code, detail) for each way the module as built breaks the contract; () when it keeps it."""
    init = inputs.init
    n_in, n_out, r = init["in_features"], init["out_features"], init.get("r", 8)
    bias = init.get("bias", True)
    want = {"weight": (n_out, n_in), **({"bias": (n_out,)} if bias else {}), "lora_A": (r, n_in), "lora_B": (n_out, r)}
    # the parameters, and the base layer's weight and bias where they are buffers (the contract allows it); any other
    # buffer is the module's own (the module protocol): a scaling kept as a tensor buffer is not looked at
    buffers = {name: t for name, t in module.named_buffers() if name in want}
    state = {**dict(module.named_parameters()), **buffers}
    found: list[tuple[str, str]] = []
    if set(state) != set(want):
        found.append(("keys", ", ".join(state)))
    if not bias and getattr(module, "bias", None) is not None:
        found.append(("bias_not_none", ""))
    for name, shape in want.items():
        if name in state and tuple(state[name].shape) != shape:
            found.append(("shape", f"{name}|{tuple(state[name].shape)}|{shape}"))
    if any(code in _BLOCKING for code, _ in found):
        return tuple(found)
    params = dict(module.named_parameters())
    for name in ("weight", "bias") if bias else ("weight",):
        if name in params and params[name].requires_grad:
            found.append(("base_trainable", name))
        if not torch.isfinite(state[name]).all():
            found.append(("base_not_finite", name))
    for name in ("lora_A", "lora_B"):
        if name not in params or not params[name].requires_grad:
            found.append(("lora_not_trainable", name))
    if (state["lora_B"] != 0).any():
        found.append(("b_not_zero", ""))
    A = state["lora_A"]
    if not torch.isfinite(A).all() or A.numel() > 1 and bool(A.max() == A.min()):
        found.append(("a_constant", ""))
    if not any(code in ("b_not_zero", "base_not_finite") for code, _ in found):
        x = inputs.args["x"].to(torch.float32)
        with torch.no_grad():
            out = module(x)
            base = F.linear(x, state["weight"].float(), state["bias"].float() if bias else None)
        if not isinstance(out, torch.Tensor) or out.shape != base.shape or not torch.allclose(
                out.float(), base, rtol=1e-5, atol=1e-6):
            found.append(("fresh_output", ""))
    return tuple(found)


def _fresh_problem(code: str, detail: str, init: dict) -> Problem:
    """One finding as the report says it."""
    n_in, n_out, r = init["in_features"], init["out_features"], init.get("r", 8)
    if code == "keys":
        want = "weight, bias, lora_A, lora_B" if init.get("bias", True) else "weight, lora_A, lora_B"
        message = tr("the module's parameters are {found}; they must be exactly {want} (weight and bias may be "
                     "buffers; no other parameters)", found=detail or tr("nothing"), want=want)
    elif code == "bias_not_none":
        message = tr("with bias=False, self.bias must be None")
    elif code == "shape":
        name, got, want = detail.split("|")
        message = tr("{name} has shape {got}, expected {want} (lora_A is [r, in_features] = [{r}, {n_in}], lora_B is "
                     "[out_features, r] = [{n_out}, {r}])", name=name, got=got, want=want, r=r, n_in=n_in, n_out=n_out)
    elif code == "base_trainable":
        message = tr("{name} requires grad: the base layer is frozen (nn.Parameter(..., requires_grad=False) or a "
                     "buffer); only lora_A and lora_B train", name=detail)
    elif code == "base_not_finite":
        message = tr("{name} holds inf or NaN as built: initialise it (nn.Linear's init is the natural one)",
                     name=detail)
    elif code == "lora_not_trainable":
        message = tr("{name} is not a trainable nn.Parameter: the adapter's matrices are what training updates",
                     name=detail)
    elif code == "b_not_zero":
        message = tr("lora_B is not zero as built: B starts at zero so that B·A = 0 and a fresh adapter computes "
                     "exactly its base layer")
    elif code == "a_constant":
        message = tr("lora_A is constant as built (zeros?): A starts random (kaiming_uniform_ or a Gaussian); with "
                     "A = 0 the first step gives B no gradient, and any constant A keeps the r directions identical")
    elif code == "base_gradient":
        message = tr("{name} received a gradient after backward: the base layer must stay frozen", name=detail)
    else:  # fresh_output
        message = tr("a fresh module's output is not F.linear(x, weight, bias) of its own weight and bias: with "
                     "B = 0 the adapter adds nothing")
    return Problem("rule", FRESH, message)


# ---------------------------------------------------------------- the protocol


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build and check the module, then convert it, load the tensors by name, run and backward as usual."""
    module = entry(**inputs.init)
    found = _fresh_findings(module, inputs)
    if any(code in _BLOCKING for code, _ in found):
        return Outcome(None, {FRESH: found})
    dtype = inputs.args["x"].dtype
    params = {k: v.to(dtype) for k, v in inputs.params.items()}
    outcome = spec_api.call(kata, lambda **init: spec_api.convert(module, dtype), replace(inputs, params=params), device,
                            track_device)
    grads = dict(outcome.extras)
    base = [(n, "base_gradient") for n in ("weight", "bias") if grads.get(f"grad of {n}") is not None]
    found += tuple((code, name) for name, code in base)
    extras = {k: grads[k] for k in _KEPT if k in grads}
    return Outcome(outcome.value, {FRESH: found, **extras}, outcome.args)


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """float16: the reference computes in float32 on the same rounded numbers and rounds once."""
    dtype = inputs.args["x"].dtype
    if dtype != torch.float16:
        return [call(kata, entry, inputs, device)]
    up = {k: v.to(dtype).float() for k, v in inputs.params.items()}
    wide = replace(inputs, args={"x": inputs.args["x"].float()}, params=up)
    outcome = call(kata, entry, wide, device)
    return [Outcome(outcome.value.detach().to(dtype), outcome.extras, outcome.args)]


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem]:
    """Each finding about the module as built is its own problem; then the usual comparison."""
    import sys

    spec = sys.modules[kata.spec_module]
    found = got.extras.get(FRESH) or ()
    problems = [_fresh_problem(code, detail, case.inputs.init) for code, detail in found]
    if got.value is None and found:
        return problems  # the module could not take the reference's state_dict: nothing else to compare
    strip = lambda o: Outcome(o.value, {k: v for k, v in o.extras.items() if k != FRESH}, o.args)  # noqa: E731
    return problems + compare_outcome(kata, spec, case, strip(expected[0]), strip(got))


# ---------------------------------------------------------------- known mistakes


class _LoRA(nn.Module):
    """The right module with switches, one per known mistake."""

    scale = "alpha/r"
    b_random = False
    zero_init_swapped = False
    base_trainable = False
    always_bias = False
    detach_path = False

    def __init__(self, in_features, out_features, r=8, alpha=16, bias=True):
        super().__init__()
        bias = bias or self.always_bias
        self.weight = nn.Parameter(torch.empty(out_features, in_features), requires_grad=self.base_trainable)
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        self.bias = nn.Parameter(torch.zeros(out_features), requires_grad=self.base_trainable) if bias else None
        self.lora_A = nn.Parameter(torch.empty(r, in_features))
        self.lora_B = nn.Parameter(torch.empty(out_features, r))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)
        if self.b_random:
            nn.init.kaiming_uniform_(self.lora_B, a=math.sqrt(5))
        if self.zero_init_swapped:
            nn.init.zeros_(self.lora_A)
            nn.init.normal_(self.lora_B, std=0.02)
        scaling = {"alpha/r": alpha / r, "r/alpha": r / alpha, "alpha/sqrt(r)": alpha / math.sqrt(r), "1": 1.0,
                   "alpha//r": float(alpha // r)}[self.scale]
        self.scaling = scaling

    def forward(self, x):
        update = self.scaling * (x @ self.lora_A.T @ self.lora_B.T)
        return F.linear(x, self.weight, self.bias) + (update.detach() if self.detach_path else update)


def _variant(**switches):
    return type("LoRALinear", (_LoRA,), switches)


MISTAKES = (
    Mistake("scaling_r_over_alpha", _variant(scale="r/alpha")),
    Mistake("rslora_scaling", _variant(scale="alpha/sqrt(r)")),
    Mistake("no_scaling", _variant(scale="1")),
    Mistake("integer_division", _variant(scale="alpha//r")),
    Mistake("b_random_init", _variant(b_random=True)),
    Mistake("zero_init_swapped", _variant(zero_init_swapped=True)),
    Mistake("base_trainable", _variant(base_trainable=True)),
    Mistake("bias_always", _variant(always_bias=True)),
    Mistake("lora_path_detached", _variant(detach_path=True)),
)

# `kata check lora --bench`: a 1024-wide projection with a rank-16 adapter over 4 x 256 tokens.
BENCH = ("x [4, 256, 1024], in = out = 1024, r = 16, forward and backward",
         lambda g: Inputs(args={"x": torch.randn(4, 256, 1024, generator=g)},
                          init={"in_features": 1024, "out_features": 1024, "r": 16, "alpha": 32},
                          params=_params(g, 1024, 1024, 16, True), grad_of=("x",)))
