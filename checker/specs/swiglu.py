"""Case families for `swiglu`: x of rank 1 to 4, hidden wider, narrower and equal to dim, inputs
large enough to tell SiLU from its look-alikes, float64 and half precision, gradients w.r.t. x and
every weight, and the parameter names and shapes of a fresh module."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import LOW_PRECISION, call_module, pick, randint, randn

PARAMETERS = "parameters"  # Inputs.show key marking the case that only builds the module


def weights(g: torch.Generator, dim: int, hidden: int) -> dict[str, torch.Tensor]:
    """state_dict of w1, w3 ([hidden, dim]) and w2 ([dim, hidden]), drawn like nn.Linear's init."""
    def uniform(rows: int, cols: int) -> torch.Tensor:
        return ((torch.rand(rows, cols, generator=g, dtype=torch.float64) * 2 - 1) / math.sqrt(cols)).float()
    return {"w1.weight": uniform(hidden, dim), "w2.weight": uniform(dim, hidden), "w3.weight": uniform(hidden, dim)}


def _case(lead=(2, 5), dim=8, hidden=16, *, dtype=torch.float32, scale=1.0, grads=True):
    def make(g: torch.Generator) -> Inputs:
        x = randn(g, *lead, dim, dtype=dtype, scale=scale)
        want = grads and dtype in (torch.float32, torch.float64)
        return Inputs(args={"x": x}, init={"dim": dim, "hidden_dim": hidden}, params=weights(g, dim, hidden),
                      grad_of=("x",) if want else (), probe=randn(g, *lead, dim, dtype=dtype) if want else None,
                      show={"dim": dim, "hidden_dim": hidden})
    return make


def _shapes(dim: int, hidden: int):
    def make(g: torch.Generator) -> Inputs:
        init = {"dim": dim, "hidden_dim": hidden}
        return Inputs(args={}, init=init, show={PARAMETERS: True, **init})
    return make


def _random(g: torch.Generator) -> Inputs:
    rank = randint(g, 1, 4)
    lead = tuple(randint(g, 1, 4) for _ in range(rank - 1))
    dim = randint(g, 1, 24)
    hidden = pick(g, [dim, randint(g, 1, 48), 8 * ((2 * 4 * dim // 3 + 7) // 8)])  # the last: LLaMA's 2/3 · 4d, rounded up to 8
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    return _case(lead, dim, hidden, dtype=dtype, scale=pick(g, [1.0, 1.0, 4.0]))(g)


FAMILIES = (
    Family("rank_2", _case(lead=(5,))),
    Family("rank_1", _case(lead=(), dim=6, hidden=10)),
    Family("rank_3", _case(lead=(2, 3), dim=8, hidden=12)),
    Family("rank_4", _case(lead=(2, 2, 3), dim=4, hidden=8)),
    Family("hidden_equals_dim", _case(dim=12, hidden=12)),
    Family("hidden_narrower", _case(dim=16, hidden=6)),
    Family("llama_ratio", _case(lead=(1, 4), dim=24, hidden=64)),
    Family("scaled_by_8", _case(dim=8, hidden=16, scale=8.0)),
    Family("one_token", _case(lead=(1, 1), dim=8, hidden=16)),
    Family("dim_one", _case(dim=1, hidden=4)),
    Family("float64", _case(dtype=torch.float64)),
    Family("float64_scaled", _case(dim=8, hidden=24, dtype=torch.float64, scale=8.0)),
    Family("float16", _case(dim=16, hidden=32, dtype=torch.float16, scale=2.0)),
    Family("bfloat16", _case(dim=16, hidden=32, dtype=torch.bfloat16, scale=2.0)),
    Family("parameter_shapes", _shapes(8, 20)),
    Family("parameter_shapes_narrow", _shapes(12, 5)),
    Family("device", _case(dim=8, hidden=12), track_device=True),
    Family("random", _random, draws=85),
)


# ---------------------------------------------------------------- hooks


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The module protocol in x's dtype; the shapes case only builds a fresh module and lists its parameters."""
    if PARAMETERS in inputs.show:
        module = entry(**inputs.init)
        return spec_api.Outcome({name: list(t.shape) for name, t in module.named_parameters()})
    return call_module(kata, entry, inputs, device, track_device)


def expected(kata: Any, entry: Any, inputs: Inputs, device: torch.device) -> list[spec_api.Outcome]:
    """float16 / bfloat16: the reference in float32 on the same rounded x and weights, rounded once."""
    dtype = inputs.args["x"].dtype if "x" in inputs.args else None
    if dtype not in LOW_PRECISION:
        return [call(kata, entry, inputs, device)]
    up = lambda t: t.to(dtype).float()  # noqa: E731 — the numbers the learner's module holds, exactly
    wide = replace(inputs, args={"x": up(inputs.args["x"])}, params={k: up(p) for k, p in inputs.params.items()})
    outcome = call(kata, entry, wide, device)
    return [spec_api.Outcome(outcome.value.detach().to(dtype), outcome.extras, outcome.args)]


def compare(kata: Any, case: spec_api.Case, expected: list[spec_api.Outcome], got: spec_api.Outcome) -> list[Problem] | None:
    """The shapes case: the fresh module's parameter names and shapes, against the contract's."""
    if PARAMETERS not in case.inputs.show:
        return None
    want, have = expected[0].value, got.value
    if have == want:
        return []
    if not isinstance(have, dict):
        return [Problem("params", "", tr("building SwiGLU gave no state_dict to read"))]
    shown = lambda d: ", ".join(f"{k} {v}" for k, v in sorted(d.items()))  # noqa: E731
    return [Problem("params", "", tr("a fresh SwiGLU(dim={dim}, hidden_dim={hidden}) has the parameters {got}; the "
                                     "contract is {want} (nn.Linear stores [out_features, in_features], no biases)",
                                     dim=case.inputs.init["dim"], hidden=case.inputs.init["hidden_dim"],
                                     got=shown(have) or tr("none"), want=shown(want)))]


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype, expected: torch.Tensor | None) -> tuple[float, float] | None:
    """Gradients: the dtype's atol × max(1, max|expected gradient|), as every module kata here."""
    if not item.startswith("grad of") or expected is None or not expected.numel():
        return None
    rtol, atol = spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.abs().max()))


# ---------------------------------------------------------------- known mistakes


class _SwiGLU(nn.Module):
    """The right computation with switches, one per known mistake."""

    activation = "silu"  # silu | gelu | gelu_tanh | relu | sigmoid | none: a name, so a variant writes out as a file
    gate_on_up = False
    use_up = True
    activate_product = False
    activate_up = False  # the activation on both branches: act(w1 x) · act(w3 x)

    def __init__(self, dim, hidden_dim):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)

    def act(self, a):
        return {"silu": F.silu, "gelu": F.gelu, "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"), "relu": F.relu,
                "sigmoid": torch.sigmoid, "none": lambda t: t}[self.activation](a)

    def forward(self, x):
        gate, up = (self.w3(x), self.w1(x)) if self.gate_on_up else (self.w1(x), self.w3(x))
        if self.activate_product:
            return self.w2(self.act(gate * up))
        if self.activate_up:
            up = self.act(up)
        return self.w2(self.act(gate) * up if self.use_up else self.act(gate))


def _variant(**switches):
    return type("Variant", (_SwiGLU,), switches)


MISTAKES = (
    Mistake("gate_on_up", _variant(gate_on_up=True)),
    Mistake("gelu", _variant(activation="gelu")),
    Mistake("gelu_tanh", _variant(activation="gelu_tanh")),
    Mistake("relu", _variant(activation="relu")),
    Mistake("sigmoid", _variant(activation="sigmoid")),
    Mistake("no_activation", _variant(activation="none")),
    Mistake("no_gate", _variant(use_up=False)),
    Mistake("silu_after_product", _variant(activate_product=True)),
    Mistake("silu_on_both", _variant(activate_up=True)),
)

# `kata check swiglu --bench`: a TinyLlama-sized FFN (dim 2048, hidden 5632) over 512 tokens.
BENCH = ("x [1, 512, 2048], hidden 5632", lambda g: Inputs(args={"x": torch.randn(1, 512, 2048, generator=g)},
                                                          init={"dim": 2048, "hidden_dim": 5632}))
