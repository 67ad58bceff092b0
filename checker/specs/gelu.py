"""Case families for `gelu`: both forms on random inputs and on a grid over [-4, 4] (where they differ most,
4.7e-4 at x ≈ 2.70), 0-dim and 4-D inputs, float64, float16 and bfloat16, |x| up to 1e4 (3e4 in float64) and down
to 1e-38, the default and a positional "tanh", unknown forms that must raise, x left as it was, and gradients
wherever the dtype is float32 or float64.

float64 is compared at rtol 1e-10 / atol 1e-12, so erf at float32's precision (a .float() inside, or a polynomial
erf) fails it; float16 / bfloat16 against the float32 value rounded once (the reference computes so)."""
from __future__ import annotations

import math
from typing import Any

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._rl import pick, randint

TOLERANCES = {torch.float64: (1e-10, 1e-12)}

_OMIT = object()  # call without `approximate`, so its default ("none") is used
POSITIONAL = "passed"  # Inputs.show key: approximate goes in by position, gelu(x, "tanh")
TINY = "tiny"  # Inputs.show key: values down to 1e-38, compared relative to their size
HALF = (torch.float16, torch.bfloat16)

# |x| from 10 to 1e4 and both zeros: finite, → x on the right, → 0 on the left, gradients → 1 and → 0
LARGE = (-1e4, -100.0, -30.0, -10.0, -0.0, 0.0, 10.0, 30.0, 100.0, 1e4)
LARGE_FLOAT64 = (-3e4, *LARGE, 3e4)
TINY_VALUES = (1e-38, 1e-30, 1e-20, 1e-12, 1e-8)


def _draw(g: torch.Generator, shape: tuple[int, ...], scale: float, dtype: torch.dtype) -> torch.Tensor:
    """scale · N(0, 1), drawn in float64 and rounded once, so every dtype sees the same numbers."""
    return (scale * torch.randn(shape, generator=g, dtype=torch.float64)).to(dtype)


def _inputs(g: torch.Generator, x: torch.Tensor, approximate: object, *, grads: bool = True,
            positional: bool = False, tiny: bool = False) -> Inputs:
    args: dict[str, Any] = {"x": x}
    show: dict[str, Any] = {}
    if approximate is not _OMIT:
        args["approximate"] = approximate
        show["approximate"] = approximate
    if positional:
        show[POSITIONAL] = "by position"
    if tiny:
        show[TINY] = True
    want = grads and x.dtype in (torch.float32, torch.float64)
    probe = _draw(g, tuple(x.shape), 1.0, x.dtype) if want else None
    return Inputs(args=args, grad_of=("x",) if want else (), probe=probe, show=show)


def _case(shape=(4, 8), approximate: object = "none", *, scale=3.0, dtype=torch.float32, grads=True, positional=False):
    return lambda g: _inputs(g, _draw(g, shape, scale, dtype), approximate, grads=grads, positional=positional)


def _grid(approximate: str):
    """[-4, 4] in steps of 0.05: 2.70, where the two forms are 4.7e-4 apart, is on it."""
    return lambda g: _inputs(g, torch.linspace(-4.0, 4.0, 161, dtype=torch.float64).float(), approximate)


def _values(values: tuple[float, ...], approximate: str, dtype=torch.float32, *, tiny=False):
    """Fixed values (with both signs for the tiny ones), so every case holds the whole range."""
    def make(g: torch.Generator) -> Inputs:
        x = torch.tensor(values, dtype=torch.float64)
        if tiny:
            x = torch.cat([x, -x])
        return _inputs(g, x.to(dtype), approximate, tiny=tiny)
    return make


def _unknown(approximate: str):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"x": _draw(g, (3, 4), 3.0, torch.float32), "approximate": approximate},
                      raises="Exception|NotImplementedError", show={"approximate": approximate})
    return make


def _random(g: torch.Generator) -> Inputs:
    rank = pick(g, [0, 1, 1, 2, 2, 2, 3, 4])
    shape = tuple(randint(g, 1, 7) for _ in range(rank))
    dtype = pick(g, [torch.float32] * 4 + [torch.float64] * 2 + [torch.float16, torch.bfloat16])
    approximate = pick(g, ["none", "tanh", "none", "tanh", _OMIT])
    return _case(shape, approximate, scale=pick(g, [3.0, 3.0, 1.0, 6.0]), dtype=dtype)(g)


def _both(stem: str, make, *args, **kw) -> tuple[Family, ...]:
    return (Family(f"exact_{stem}", make(*args, "none", **kw)), Family(f"tanh_{stem}", make(*args, "tanh", **kw)))


FAMILIES = (
    Family("exact_random", _case((4, 8), "none")),
    Family("tanh_random", _case((4, 8), "tanh")),
    Family("exact_grid", _grid("none")),
    Family("tanh_grid", _grid("tanh")),
    Family("default_approximate", _case((4, 8), _OMIT)),
    Family("tanh_positional", _case((4, 8), "tanh", positional=True)),
    *_both("zero_dim", _case, ()),
    *_both("four_dim", _case, (2, 3, 4, 5)),
    Family("exact_float64", _case((4, 8), "none", dtype=torch.float64)),
    Family("tanh_float64", _case((4, 8), "tanh", dtype=torch.float64)),
    Family("exact_float16", _case((8, 16), "none", dtype=torch.float16)),
    Family("tanh_float16", _case((8, 16), "tanh", dtype=torch.float16)),
    Family("exact_bfloat16", _case((8, 16), "none", dtype=torch.bfloat16)),
    Family("tanh_bfloat16", _case((8, 16), "tanh", dtype=torch.bfloat16)),
    *_both("large", _values, LARGE),
    *_both("large_float64", _values, LARGE_FLOAT64, dtype=torch.float64),
    *_both("tiny", _values, TINY_VALUES, tiny=True),
    *_both("tiny_float64", _values, TINY_VALUES, dtype=torch.float64, tiny=True),
    Family("unknown_fast", _unknown("fast")),
    Family("unknown_erf", _unknown("erf")),
    Family("unknown_capitalised", _unknown("Tanh")),
    *_both("x_unmodified", _case, (5, 6), grads=False),
    Family("device", _case((3, 5), "none"), track_device=True),
    Family("device_tanh", _case((3, 5), "tanh"), track_device=True),
    Family("device_default", _case((3, 5), _OMIT), track_device=True),
    Family("random", _random, draws=70),
)


# ---------------------------------------------------------------- hooks


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol; the positional case calls gelu(x, "tanh")."""
    if POSITIONAL in inputs.show:
        return spec_api.call(kata, lambda x, approximate: entry(x, approximate), inputs, device, track_device)
    return spec_api.call(kata, entry, inputs, device, track_device)


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype,
                  expected: torch.Tensor | None) -> tuple[float, float] | None:
    """Gradients: the dtype's atol × max(1, max|expected|). The tiny cases' values: atol × max|expected|, so a
    value of 1e-8 is judged relative to its size and not lost under a 1e-5 atol."""
    if expected is None or not expected.numel() or dtype not in spec_api.TOLERANCES:
        return None
    rtol, atol = {**spec_api.TOLERANCES, **TOLERANCES}[dtype]
    biggest = float(expected.detach().abs().max())
    if item.startswith("grad of"):
        return rtol, atol * max(1.0, biggest)
    if TINY in case.inputs.show:
        return rtol, atol * biggest
    return None


# ---------------------------------------------------------------- known mistakes

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _erf_by_polynomial(z: torch.Tensor) -> torch.Tensor:
    """Abramowitz & Stegun 7.1.26: |error| ≤ 1.5e-7, at float32's level and far from float64's."""
    t = 1.0 / (1.0 + 0.3275911 * z.abs())
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return torch.sign(z) * (1.0 - poly * torch.exp(-z * z))


def _tanh_by_exp(u: torch.Tensor, how: str) -> torch.Tensor:
    if how == "exp2":
        e = torch.exp(2 * u)
        return (e - 1) / (e + 1)  # inf / inf = NaN once 2u passes exp's range
    return (torch.exp(u) - torch.exp(-u)) / (torch.exp(u) + torch.exp(-u))


def _gelu(x, approximate, *, erf_arg=1 / math.sqrt(2.0), half="both", cubic_scaled=True, scale=SQRT_2_OVER_PI,
          cubic=0.044715, sigmoid_1702=False, form="given", unknown="raise", tanh_exp="", compute="input",
          cast_back=True, detach=False, in_place=False, poly_erf=False):
    """The right computation with switches, one per known mistake.

    half: where the ½ is ("both", "tanh" = missing from the exact form, "none" = missing from the tanh form,
    "neither"); form: "given", "none" (approximate ignored) or "tanh" (the tanh form whatever is asked);
    compute: "input" (x's dtype, half in float32), "float32" (always), "native" (half in half); unknown: "raise"
    for an approximate other than "none" and "tanh", else computed as the form it falls to."""
    if approximate not in ("none", "tanh") and unknown == "raise":
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    tanh = (approximate == "tanh") if form == "given" else form == "tanh"
    if compute == "float32":
        h = x.float()
    elif compute == "native":
        h = x
    else:
        h = x.to(torch.promote_types(x.dtype, torch.float32))
    if tanh and sigmoid_1702:
        cdf = torch.sigmoid(1.702 * h)
    elif tanh:
        u = scale * (h + cubic * h**3) if cubic_scaled else scale * h + cubic * h**3
        t = _tanh_by_exp(u, tanh_exp) if tanh_exp else torch.tanh(u)
        cdf = (0.5 if half in ("both", "tanh") else 1.0) * (1.0 + t)
    else:
        erf = _erf_by_polynomial(h * erf_arg) if poly_erf else torch.erf(h * erf_arg)
        cdf = (0.5 if half in ("both", "none") else 1.0) * (1.0 + erf)
    if in_place:
        return x.mul_(cdf.to(x.dtype))
    y = h * cdf
    y = y.to(x.dtype) if cast_back else y
    return y.detach() if detach else y


def _variant(**switches):
    def gelu(x, approximate="none"):
        return _gelu(x, approximate, **switches)
    return gelu


MISTAKES = (
    Mistake("erf_of_half_x", _variant(erf_arg=0.5)),
    Mistake("half_missing", _variant(half="neither"), variant="both"),
    Mistake("half_missing", _variant(half="tanh"), variant="exact"),
    Mistake("half_missing", _variant(half="none"), variant="tanh"),
    Mistake("cubic_outside_scale", _variant(cubic_scaled=False)),
    Mistake("two_over_pi_without_root", _variant(scale=2 / math.pi)),
    Mistake("constant_0_0447", _variant(cubic=0.0447)),
    Mistake("sigmoid_approximation", _variant(sigmoid_1702=True)),
    Mistake("approximate_ignored", _variant(form="none", unknown="exact"), variant="unread"),
    Mistake("approximate_ignored", _variant(form="none"), variant="checked"),
    Mistake("tanh_for_none", _variant(form="tanh", unknown="exact"), variant="unread"),
    Mistake("tanh_for_none", _variant(form="tanh"), variant="checked"),
    Mistake("unknown_accepted", _variant(unknown="exact")),
    # in float16, exp(2u) overflows from x ≈ 3: a file that computes half natively fails where an upcast one passes
    Mistake("tanh_by_exp", _variant(tanh_exp="exp2"), variant="exp2"),
    Mistake("tanh_by_exp", _variant(tanh_exp="exp2", compute="native"), variant="exp2_half"),
    Mistake("tanh_by_exp", _variant(tanh_exp="sinh_cosh"), variant="sinh_cosh"),
    Mistake("tanh_by_exp", _variant(tanh_exp="sinh_cosh", compute="native"), variant="sinh_cosh_half"),
    Mistake("float64_in_float32", _variant(compute="float32")),
    Mistake("half_returned_as_float32", _variant(cast_back=False)),
    Mistake("detached", _variant(detach=True)),
    Mistake("x_in_place", _variant(in_place=True, compute="native")),
    Mistake("polynomial_erf", _variant(poly_erf=True)),
)

# `kata check gelu --bench`: a GPT-2-small MLP activation, 8 sequences of 1024 tokens × 3072.
BENCH = ("x [8, 1024, 3072], tanh", lambda g: Inputs(args={"x": torch.randn(8, 1024, 3072, generator=g),
                                                           "approximate": "tanh"}))
