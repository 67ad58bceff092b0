"""Case families for `kaiming-init`: Linear weights at fan_in and fan_out, normal and uniform; Conv1d, Conv2d
(fan_in uniform, fan_out normal) and Conv3d weights, whose fans include the receptive field; leaky_relu at a = 0.5
(normal and uniform) and a = 1 (gain 1); relu with a = 5 and linear with a = 3 (a ignored); the linear and tanh
gains; fan_in = 1; float64, float16, bfloat16; the defaults; all six arguments by position; an nn.Linear-shaped
Parameter that requires grad; the reproducibility cases (the same seed, another seed, successive calls, the global
RNG untouched by a call with a generator, generator None); a 1-D weight and unknown mode / nonlinearity /
distribution raise; the device (with a generator and without); random shapes and settings.

Right answers are random, so a fill is judged by its distribution (KATAS-basics.md, "Comparison rules"): first the
call itself (it returns weight, the same object, filled in place with the same storage; a Parameter stays a leaf
that requires grad), then the values: finite; the Kolmogorov–Smirnov test against N(0, std²) or
U(-√3·std, √3·std) at the contract's std = gain / √fan; a z-test of the mean (σ/√n) and of the sample variance (its
standard error σ²·√(2/n) for the normal, σ²·√(0.8/n) for the uniform); each fails at p < 1e-6 (ALPHA of
checker/specs/_stats.py; the KS p-value from the asymptotic Kolmogorov series with Stephens' correction, no
scipy); uniform: no value beyond the bound (1 % slack for half rounding); float32/float64: at least 99 % distinct
values, and in every dtype rows that are not all one row. The reproducibility cases compare exactly.

Measured (torch 2.13 CPU; tests/katas/training/test_kaiming_init_specs.py): false failures of four right
algorithms (`normal_` / `uniform_` in place, `randn` / `rand` copied in, an inverse CDF with erfinv, Box–Muller),
200 seeds each on the 65 536-value leaky_relu a = 0.5 case, normal and uniform: 0 of 4 800 tests at p < 1e-6, min p
1.9e-05, the p-values uniform. Power, seeds 1–3: every scale mistake fails every named case where its std differs
from the contract's by more than 2 % (the figures are in that file's docstring); uniform from 0 every uniform case.
Random draws keep the two fans equal or a power of 2 apart, the slope a in {0, 0.5, 1, 2, √5} and the kernel
product 1 or at least 2, so no mistake lands within a few per cent of the right std (a borderline case would be
judged one way for the learner's file and the other for the variant, and nothing could be named).
The namer judges "same mistake" through `matches`: the same facts about the call, and the weights drawn from one
distribution (two-sample KS and the difference of the means and of the variances, each at p ≥ 1e-6), or both made
of one row repeated.
"""
from __future__ import annotations

import math

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, describe, split_outputs
from checker.judge.devices import DeviceProblem, Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs import _stats as stats
from checker.specs._training import one_thread, pick, randint, single_threaded
from checker.text.i18n import tr

KIND, HOW, SEED = "kind", "call", "generator seed"
STAT, SAME_SEED, SEEDS_DIFFER, GLOBAL_UNTOUCHED, GLOBAL_RNG, RAISES = (
    "draws", "same seed", "seeds differ", "global rng untouched", "global rng", "raises")
PARAMETER = "parameter"  # show key: the weight is an nn.Parameter that requires grad
RAISED = "ValueError|NotImplementedError|Exception"  # the contract accepts any exception
GAINS = {"linear": lambda a: 1.0, "relu": lambda a: math.sqrt(2.0),
         "leaky_relu": lambda a: math.sqrt(2.0 / (1 + a * a)), "tanh": lambda a: 5.0 / 3}
DEFAULTS = {"a": 0.0, "mode": "fan_in", "nonlinearity": "leaky_relu", "distribution": "normal"}
ORDER = ("a", "mode", "nonlinearity", "distribution")  # the positional order after weight
# facts about the call, in the order they are judged (extras of a drawing case)
RETURNED, STORAGE, LEAF, DEVICE_PROBLEM = "returned the weight", "same storage", "leaf that requires grad", "device"


def contract_std(shape: tuple[int, ...], a: float, mode: str, nonlinearity: str) -> tuple[float, int, float]:
    """(std, fan, gain) as the contract (torch.nn.init) defines them."""
    receptive = math.prod(shape[2:])
    fan = (shape[1] if mode == "fan_in" else shape[0]) * receptive
    gain = GAINS[nonlinearity](a)
    return gain / math.sqrt(fan), fan, gain


def _seed(g: torch.Generator) -> int:
    return int(torch.randint(1, 2**62, (1,), generator=g))


# ---------------------------------------------------------------- drawing cases


def _case(shape: tuple[int, ...], dtype: torch.dtype = torch.float32, how: str = "keywords", kind: str = STAT,
          parameter: bool = False, **settings):
    """A case on a zero weight of `shape`: `settings` are the arguments passed (a, mode, nonlinearity,
    distribution); how: "keywords", "positional" (all six by position), "defaults" (weight and generator only),
    "weight only" (weight alone: the global RNG) or "no generator" (the settings by name, generator left out)."""
    def make(g: torch.Generator) -> Inputs:
        args = {"weight": torch.zeros((), dtype=dtype).expand(shape), **settings}  # a stand-in: each call gets its own
        show = {KIND: kind, HOW: how, SEED: _seed(g) % 2**31}
        if kind == RAISES:
            return Inputs(args=args, show={**settings, "weight shape": list(shape), KIND: kind, HOW: how,
                                           SEED: show[SEED]}, raises=RAISED)
        full = {**DEFAULTS, **settings}
        std, fan, gain = contract_std(shape, full["a"], full["mode"], full["nonlinearity"])
        show.update({"distribution": full["distribution"], "fan": fan, "gain": gain, "std": std})
        if parameter:
            show[PARAMETER] = True
        return Inputs(args=args, show=show)
    return make


def _random(g: torch.Generator) -> Inputs:
    dims = pick(g, [2, 2, 3, 4, 4, 5])
    shape = (0,)
    while not 0 < math.prod(shape) <= 65536:
        kernel = [pick(g, [1, 2, 3, 3, 5]) for _ in range(dims - 2)]
        base, k = randint(g, 4, 48), pick(g, [-2, -1, 0, 1, 2])
        out, inn = base * 2 ** max(k, 0), base * 2 ** max(-k, 0)  # fans equal or a power of 2 apart, never nearly equal
        shape = (out, inn, *kernel)
        while math.prod(shape) < 4096:  # enough values to tell every gain and fan apart
            shape = (shape[0] * 2, *shape[1:])
    nonlinearity = pick(g, ["leaky_relu", "leaky_relu", "relu", "tanh", "linear"])
    settings = {"mode": pick(g, ["fan_in", "fan_out"]), "nonlinearity": nonlinearity,
                "distribution": pick(g, ["normal", "uniform"])}
    if nonlinearity == "leaky_relu" or pick(g, [False, True]):
        settings["a"] = pick(g, [0.0, 0.5, 1.0, 2.0, math.sqrt(5)])
    dtype = pick(g, [torch.float32] * 6 + [torch.float64, torch.float16, torch.bfloat16])
    return _case(shape, dtype, pick(g, ["keywords", "keywords", "positional"]), **settings)(g)


RELU = {"nonlinearity": "relu"}
FAMILIES = (
    Family("defaults", _case((128, 64), how="defaults")),
    Family("weight_only", _case((64, 128), how="weight only")),
    Family("linear_fan_in_normal", _case((48, 192), mode="fan_in", distribution="normal", **RELU)),
    Family("linear_fan_in_uniform", _case((48, 192), mode="fan_in", distribution="uniform", **RELU)),
    Family("linear_fan_out_normal", _case((48, 192), mode="fan_out", distribution="normal", **RELU)),
    Family("linear_fan_out_uniform", _case((48, 192), mode="fan_out", distribution="uniform", **RELU)),
    Family("conv1d", _case((64, 16, 7), mode="fan_in", distribution="normal", **RELU)),
    Family("conv2d_fan_in_uniform", _case((64, 16, 3, 3), mode="fan_in", distribution="uniform", **RELU)),
    Family("conv2d_fan_out_normal", _case((16, 64, 5, 5), mode="fan_out", distribution="normal", **RELU)),
    Family("conv3d", _case((16, 8, 3, 3, 3), mode="fan_in", distribution="normal", **RELU)),
    Family("leaky_a_0_5_normal", _case((256, 256), a=0.5, nonlinearity="leaky_relu", distribution="normal")),
    Family("leaky_a_0_5_uniform", _case((256, 256), a=0.5, nonlinearity="leaky_relu", distribution="uniform")),
    Family("leaky_a_1_gain_one", _case((64, 128), a=1.0, nonlinearity="leaky_relu")),
    Family("leaky_a_sqrt5_fan_out", _case((64, 32, 3, 3), a=math.sqrt(5), mode="fan_out", nonlinearity="leaky_relu",
                                          distribution="uniform")),
    Family("relu_ignores_a", _case((64, 128), a=5.0, nonlinearity="relu")),
    Family("linear_ignores_a", _case((64, 128), a=3.0, nonlinearity="linear")),
    Family("linear_gain_one", _case((128, 32), nonlinearity="linear", distribution="uniform")),
    Family("tanh_normal", _case((64, 128), nonlinearity="tanh")),
    Family("tanh_uniform_fan_out_conv", _case((32, 16, 3, 3), mode="fan_out", nonlinearity="tanh",
                                              distribution="uniform")),
    Family("fan_in_one", _case((8192, 1), **RELU)),
    Family("fan_in_one_fan_out", _case((1, 8192), mode="fan_out", distribution="uniform", **RELU)),
    Family("float64", _case((64, 128), torch.float64, a=0.5, nonlinearity="leaky_relu")),
    Family("float64_uniform_conv", _case((32, 16, 3, 3), torch.float64, mode="fan_out", distribution="uniform",
                                         **RELU)),
    Family("float16", _case((128, 64), torch.float16, mode="fan_out", **RELU)),
    Family("float16_uniform", _case((96, 96), torch.float16, distribution="uniform", nonlinearity="tanh")),
    Family("bfloat16", _case((64, 128), torch.bfloat16, a=0.5, nonlinearity="leaky_relu")),
    Family("bfloat16_uniform_conv", _case((64, 16, 3, 3), torch.bfloat16, mode="fan_out", distribution="uniform",
                                          **RELU)),
    Family("positional", _case((64, 96), how="positional", a=0.3, mode="fan_out", nonlinearity="leaky_relu",
                               distribution="uniform")),
    Family("requires_grad_parameter", _case((96, 48), parameter=True, a=0.0, mode="fan_in", nonlinearity="relu",
                                            distribution="uniform")),
    Family("generator_none_draws", _case((64, 128), how="no generator", a=0.5, nonlinearity="leaky_relu")),
    Family("same_seed_same_values", _case((64, 128), kind=SAME_SEED, **RELU)),
    Family("same_seed_uniform_conv", _case((16, 8, 3, 3), kind=SAME_SEED, distribution="uniform", **RELU)),
    Family("different_seeds_differ", _case((64, 128), kind=SEEDS_DIFFER, **RELU)),
    Family("global_rng_untouched", _case((64, 128), kind=GLOBAL_UNTOUCHED, **RELU)),
    Family("global_rng_untouched_uniform", _case((32, 16, 3), kind=GLOBAL_UNTOUCHED, distribution="uniform", **RELU)),
    Family("generator_none_global_rng", _case((64, 128), kind=GLOBAL_RNG, how="no generator", **RELU)),
    Family("one_dim_weight_raises", _case((128,), kind=RAISES, **RELU)),
    Family("zero_dim_weight_raises", _case((), kind=RAISES, **RELU)),
    Family("unknown_mode_raises", _case((32, 16), kind=RAISES, mode="fan_avg", **RELU)),
    Family("unknown_nonlinearity_raises", _case((32, 16), kind=RAISES, nonlinearity="swish")),
    Family("unknown_distribution_raises", _case((32, 16), kind=RAISES, distribution="truncated_normal", **RELU)),
    Family("device", _case((64, 128), mode="fan_out", distribution="uniform", **RELU), track_device=True),
    Family("device_defaults", _case((128, 64), how="defaults"), track_device=True),
    Family("device_no_generator", _case((64, 128), how="no generator", nonlinearity="tanh"), track_device=True),
    Family("device_linear_conv", _case((32, 16, 3, 3), mode="fan_out", nonlinearity="linear"), track_device=True),
    Family("random", _random, draws=64),
)
FAMILIES = single_threaded(FAMILIES)


# ---------------------------------------------------------------- running a case


def _call(entry, weight: torch.Tensor, args: dict, generator, how: str):
    settings = {k: v for k, v in args.items() if k != "weight"}
    if how == "weight only":
        return entry(weight)
    if how == "defaults":
        return entry(weight, generator=generator)
    if how == "positional":
        full = {**DEFAULTS, **settings}
        return entry(weight, *(full[k] for k in ORDER), generator)
    if how == "no generator":
        return entry(weight=weight, **settings)
    return entry(weight=weight, **settings, generator=generator)


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Each call gets a fresh zero weight on the run device (a Parameter in the requires-grad case) and a generator
    there, seeded from the case. On a simulated GPU the generator is one that reports cuda:0
    (checker/judge/devices.py), so random numbers drawn on the CPU with it are caught; that problem is kept as the
    case's outcome, so the namer sees it."""
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, lambda t: t.to(device),
                    lambda s: torch.Generator(device=device).manual_seed(s))
    with Simulation(simulated, inputs.args) as sim:
        try:
            outcome = _run(entry, inputs, sim.place, sim.generator)
        except DeviceProblem as problem:
            return Outcome(None, {DEVICE_PROBLEM: problem.problem})
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras))


def _run(entry, inputs: Inputs, place, generator) -> Outcome:
    show, args = inputs.show, inputs.args
    kind, how, s = show[KIND], show[HOW], show[SEED]

    def fresh() -> torch.Tensor:
        weight = place(torch.zeros(args["weight"].shape, dtype=args["weight"].dtype))
        return torch.nn.Parameter(weight) if show.get(PARAMETER) else weight

    if kind == RAISES:
        return Outcome(spec_api.expect_raise(lambda: _call(entry, fresh(), args, generator(s), how), inputs.raises))
    if kind == STAT:
        weight = fresh()
        where = weight.data_ptr()
        out = _call(entry, weight, args, None if how in ("weight only", "no generator") else generator(s), how)
        facts = {RETURNED: out is weight, STORAGE: weight.data_ptr() == where}
        if show.get(PARAMETER):
            facts[LEAF] = weight.is_leaf and weight.grad_fn is None and weight.requires_grad
        return Outcome(None if out is weight else out, {"weight": weight.detach(), **facts})
    first, second, third = fresh(), fresh(), fresh()
    if kind == SAME_SEED:  # the global RNG reseeded and advanced between two calls with generators seeded alike
        torch.manual_seed(s + 5)
        _call(entry, first, args, generator(s), how)
        torch.manual_seed(s + 17)
        torch.rand(97)
        _call(entry, second, args, generator(s), how)
        return Outcome(None, {"weight": first.detach(), "second call": second.detach()})
    if kind == SEEDS_DIFFER:  # the global RNG reset alike before each call: only the generator may differ
        g = generator(s)
        for weight, gen in ((first, g), (second, generator(s + 1)), (third, g)):
            torch.manual_seed(s)
            _call(entry, weight, args, gen, how)
        return Outcome(None, {"weight": first.detach(), "second call": second.detach(), "third call": third.detach()})
    if kind == GLOBAL_UNTOUCHED:
        before = torch.get_rng_state()
        _call(entry, first, args, generator(s), how)
        return Outcome(None, {"weight": first.detach(), "global RNG moved": not torch.equal(before, torch.get_rng_state())})
    for weight, seed in ((first, s), (second, s), (third, s + 1)):  # GLOBAL_RNG: generator=None follows manual_seed
        torch.manual_seed(seed)
        _call(entry, weight, args, None, how)
    return Outcome(None, {"weight": first.detach(), "second call": second.detach(), "third call": third.detach()})


# ---------------------------------------------------------------- the statistics


def kolmogorov_sf(lam: float) -> float:
    """P(K > lam) for the Kolmogorov distribution: 2 Σ (-1)^(k-1) exp(-2 k² lam²)."""
    if lam < 0.2:
        return 1.0
    total = sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, 2 * total))


def ks_p(D: float, n: float) -> float:
    """The asymptotic p-value of a KS statistic D from n values (Stephens' small-sample correction)."""
    root = math.sqrt(n)
    return kolmogorov_sf((root + 0.12 + 0.11 / root) * D)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal z."""
    return math.erfc(abs(z) / math.sqrt(2))


def target_cdf(x: torch.Tensor, distribution: str, std: float) -> torch.Tensor:
    if distribution == "normal":
        return torch.special.ndtr(x / std)
    bound = math.sqrt(3) * std
    return ((x + bound) / (2 * bound)).clamp(0.0, 1.0)


class Fit:
    """The statistics of n values against the contract's law: sample std, mean, and the three p-values."""

    def __init__(self, values: torch.Tensor, distribution: str, std: float):
        x = values.double().flatten()
        n = x.numel()
        self.n, self.std = n, std
        self.mean = float(x.mean())
        self.sample_std = float(x.std()) if n > 1 else 0.0
        xs = x.sort().values
        self.distinct = int((xs[1:] != xs[:-1]).sum()) + 1 if n else 0
        F = target_cdf(xs, distribution, std)
        i = torch.arange(1, n + 1, dtype=torch.float64)
        self.D = float(torch.maximum(i / n - F, F - (i - 1) / n).max())
        self.ks = ks_p(self.D, n)
        self.mean_p = normal_p(self.mean / (std / math.sqrt(n)))
        kurtosis = 2.0 if distribution == "normal" else 0.8  # Var(x²) / σ⁴: 2 for the normal, 4/5 for the uniform
        self.var_p = normal_p((self.sample_std ** 2 - std ** 2) / (std ** 2 * math.sqrt(kurtosis / n)))

    @property
    def passed(self) -> bool:
        return min(self.ks, self.mean_p, self.var_p) >= stats.ALPHA


def same_distribution(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two sets of values come from one law: two-sample KS, and z-tests of the difference of the means and of
    the second moments (their variances estimated from the values), each at p ≥ ALPHA."""
    x, y = a.double().flatten(), b.double().flatten()
    n, m = x.numel(), y.numel()
    if n < 2 or m < 2:
        return bool(torch.equal(x, y))
    xs, ys = x.sort().values, y.sort().values
    grid = torch.cat([xs, ys])
    Fx = torch.searchsorted(xs, grid, right=True).double() / n
    Fy = torch.searchsorted(ys, grid, right=True).double() / m
    if ks_p(float((Fx - Fy).abs().max()), n * m / (n + m)) < stats.ALPHA:
        return False
    for fx, fy in ((x, y), (x * x, y * y)):
        se = math.sqrt(float(fx.var()) / n + float(fy.var()) / m)
        if se > 0 and normal_p(float(fx.mean() - fy.mean()) / se) < stats.ALPHA:
            return False
        if se == 0 and float(fx.mean()) != float(fy.mean()):
            return False
    return True


def rows_repeated(w: torch.Tensor) -> bool:
    """Every row (output unit) holds the same values: one row drawn and repeated (8 rows or more)."""
    rows = w.reshape(w.shape[0], -1) if w.dim() >= 2 else w.reshape(1, -1)
    return rows.shape[0] >= 8 and bool((rows == rows[0]).all())


# ---------------------------------------------------------------- judging


def compare(kata, case, expected, got) -> list[Problem] | None:
    kind = case.inputs.show[KIND]
    if kind == RAISES:
        return spec_api.raised_problems(case, expected[0], got)
    with one_thread():
        if DEVICE_PROBLEM in got.extras:
            return [Problem("device", "", got.extras[DEVICE_PROBLEM])]
        if kind == STAT:
            return _judge_fill(kata, case, expected[0], got)
        return _judge_calls(case, expected[0], got)


def _structure(item: str, want: TensorValue, got) -> list[Problem]:
    return compare_values(item, TensorValue(None, want.dtype, want.shape, want.device), got, 0.0, 0.0)


def _judge_fill(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    show = case.inputs.show
    item = kata.outputs[0]
    want, weight = expected.extras["weight"], got.extras.get("weight")
    problems = _structure(item, want, weight)
    if problems:
        return problems
    problems = _call_problems(show, got, weight)
    if problems:
        return problems
    w = weight.data
    bad = ~torch.isfinite(w)
    if bool(bad.any()):
        return [Problem("nonfinite", item, tr("{item} holds {n} values that are not finite (inf or NaN) of {total}",
                                               item=item, n=int(bad.sum()), total=w.numel()))]
    if rows_repeated(w):
        return [Problem("rule", item, tr("every one of the {rows} rows of {item} holds the same values: draw every "
                                         "element independently (one row drawn and repeated?)", rows=w.shape[0],
                                         item=item))]
    fit = Fit(w, show["distribution"], show["std"])
    if w.dtype in (torch.float32, torch.float64) and fit.distinct < 0.99 * fit.n:
        return [Problem("rule", item, tr("{item} holds only {k} distinct values among {n}: every element must be "
                                         "drawn independently", item=item, k=fit.distinct, n=fit.n))]
    if not fit.passed:
        return [Problem("rule", item, _fit_words(item, show, fit))]
    if show["distribution"] == "uniform":
        bound = math.sqrt(3) * show["std"]
        outside = w.double().abs() > 1.01 * bound
        if bool(outside.any()):
            return [Problem("rule", item, tr("{k} values of {item} lie outside the bounds ±√3·std = ±{bound} (largest "
                                             "|value| {largest})", k=int(outside.sum()), item=item,
                                             bound=f"{bound:.4g}", largest=f"{float(w.double().abs().max()):.4g}"))]
    return []


def _call_problems(show: dict, got: Outcome, weight: TensorValue) -> list[Problem]:
    """The call itself: weight returned, its storage kept, a Parameter left a leaf that requires grad."""
    if not got.extras.get(RETURNED, True):
        untouched = weight.data is not None and not bool(weight.data.any())
        if got.value is None:
            said = tr("your function returned None: fill weight in place and return it (`return weight`)")
        elif untouched:
            said = tr("your function returned a new tensor ({what}) and left weight as it was: fill weight itself in "
                      "place (weight.normal_(...), weight.uniform_(...) or weight.copy_(...) under torch.no_grad()) "
                      "and return it", what=describe(got.value))
        else:
            said = tr("your function filled weight but returned another object ({what}): return weight itself, the "
                      "same tensor", what=describe(got.value))
        return [Problem("rule", "returns", said)]
    if not got.extras.get(STORAGE, True):
        return [Problem("rule", "returns", tr("weight was given new storage (weight.data = …, set_): fill the tensor's "
                                              "own storage in place, as torch.nn.init does"))]
    if show.get(PARAMETER) and not got.extras.get(LEAF, True):
        return [Problem("rule", "returns", tr("the Parameter weight is no longer a leaf that requires grad after the "
                                              "call: fill it under torch.no_grad()"))]
    return []


def _fit_words(item: str, show: dict, fit: Fit) -> str:
    law = "N(0, std²)" if show["distribution"] == "normal" else "U(-√3·std, √3·std)"
    return "\n".join([
        tr("{item} does not follow {law} at std = gain / √fan = {gain} / √{fan} = {std}", item=item, law=law,
           gain=f"{show['gain']:.4g}", fan=show["fan"], std=f"{fit.std:.4g}"),
        tr("expected std {std}, sample std {sample} ({ratio}×); expected mean 0, sample mean {mean}",
           std=f"{fit.std:.4g}", sample=f"{fit.sample_std:.4g}", ratio=f"{fit.sample_std / fit.std:.3f}",
           mean=f"{fit.mean:.3g}"),
        tr("KS p = {ks} (D = {D}), variance test p = {pv}, mean test p = {pm}: each fails below 1e-6", ks=_p(fit.ks),
           D=f"{fit.D:.4f}", pv=_p(fit.var_p), pm=_p(fit.mean_p)),
        tr("({n} values drawn with a generator seeded for this case; a right initialiser fails a test with probability "
           "below 1e-6)", n=f"{fit.n:,}"),
    ])


def _p(p: float) -> str:
    return f"{p:.2g}" if p > 0 else "0.0 (< 1e-300)"


def _judge_calls(case, expected: Outcome, got: Outcome) -> list[Problem]:
    """The reproducibility cases: each call's weight well formed and filled, then which calls must agree."""
    want = expected.extras["weight"]
    calls = {k: got.extras.get(k) for k in expected.extras if isinstance(expected.extras[k], TensorValue)}
    for name, value in calls.items():
        problems = _structure(name, want, value)
        if problems:
            return problems
        if not bool(value.data.any()):
            return [Problem("rule", name, tr("weight was left all zeros: fill it in place (and return it)"))]
    first = calls["weight"].data
    same = {k: bool(torch.equal(v.data, first)) for k, v in calls.items() if k != "weight"}
    kind, s = case.inputs.show[KIND], case.inputs.show[SEED]
    if kind == SAME_SEED and not same["second call"]:
        return [Problem("rule", "second call", tr(
            "two calls with torch.Generator().manual_seed({seed}) filled different values (the global RNG was reseeded "
            "between them): the draws must come from `generator` alone (normal_(..., generator=generator), "
            "torch.randn(..., generator=generator))", seed=s))]
    if kind == SEEDS_DIFFER:
        if same["second call"]:
            return [Problem("rule", "second call", tr(
                "seeds {seed} and {next} filled the same values (the global RNG was reset alike before each call): the "
                "draws must come from `generator`", seed=s, next=s + 1))]
        if same["third call"]:
            return [Problem("rule", "third call", tr(
                "a second call with the same generator repeated the first call's values: drawing must advance the "
                "generator (use it, do not copy or reseed it)"))]
    if kind == GLOBAL_UNTOUCHED and got.extras.get("global RNG moved"):
        return [Problem("rule", "global rng", tr(
            "a call given a generator advanced torch's global RNG: draw every random number from `generator`, "
            "and nothing from the global RNG"))]
    if kind == GLOBAL_RNG:
        if not same["second call"]:
            return [Problem("rule", "second call", tr(
                "with generator=None and torch.manual_seed({seed}) before each call, two calls filled different values: "
                "generator=None must draw from torch's global RNG", seed=s))]
        if same["third call"]:
            return [Problem("rule", "third call", tr(
                "with generator=None, torch.manual_seed({seed}) and torch.manual_seed({next}) filled the same values: "
                "generator=None must draw from torch's global RNG, not from a generator of your own", seed=s,
                next=s + 1))]
    return []


def matches(kata, case, expected, variant: Outcome, got: Outcome) -> bool | None:
    """Whether the learner's outcome is the variant's, for the namer (checker/judge/mistakes.py): the same facts
    about the call, and the same law for every tensor (or both one row repeated); reproducibility cases by which
    calls agree."""
    kind = case.inputs.show[KIND]
    if kind == RAISES:
        return None
    if (DEVICE_PROBLEM in variant.extras) != (DEVICE_PROBLEM in got.extras):
        return False
    if DEVICE_PROBLEM in got.extras:
        return True  # both drew where a real GPU refuses to: the words name each file's own line
    with one_thread():
        names = set(variant.extras) | set(got.extras)
        for name in sorted(names):
            a, b = variant.extras.get(name), got.extras.get(name)
            if not (isinstance(a, TensorValue) and isinstance(b, TensorValue)):
                if a != b:
                    return False
        if kind != STAT:
            return _agreement(variant) == _agreement(got)
        for a, b in [(variant.value, got.value), *((variant.extras.get(k), got.extras.get(k)) for k in sorted(names))]:
            if not _same_law(a, b):
                return False
        return True


def _agreement(outcome: Outcome) -> tuple:
    first = outcome.extras.get("weight")
    pattern = []
    for name in ("second call", "third call"):
        other = outcome.extras.get(name)
        if not isinstance(other, TensorValue) or not isinstance(first, TensorValue) or other.data is None:
            pattern.append(None)
        else:
            pattern.append(bool(torch.equal(other.data, first.data)))
    untouched = isinstance(first, TensorValue) and first.data is not None and not bool(first.data.any())
    return tuple(pattern), untouched


def _same_law(a, b) -> bool:
    if not isinstance(a, TensorValue) or not isinstance(b, TensorValue):
        return isinstance(a, TensorValue) == isinstance(b, TensorValue) and describe(a) == describe(b)
    if (a.shape, a.dtype, a.device.split(":")[0]) != (b.shape, b.dtype, b.device.split(":")[0]):
        return False
    if a.data is None or b.data is None:
        return a.data is None and b.data is None
    x, y = a.data, b.data
    if rows_repeated(x) or rows_repeated(y):
        return rows_repeated(x) and rows_repeated(y)
    if not bool(x.any()) or not bool(y.any()):
        return not bool(x.any()) and not bool(y.any())
    if not bool(torch.isfinite(x).all()) or not bool(torch.isfinite(y).all()):
        return bool(torch.isfinite(x).all()) == bool(torch.isfinite(y).all())
    return same_distribution(x, y)


# ---------------------------------------------------------------- known mistakes
# Each is a whole wrong solution with the entry point's signature (kata demo writes them out).


def _fill(weight, a, mode, nonlinearity, distribution, generator, *, fans_swapped=False, mode_ignored=False,
          no_receptive=False, leaky_ignores_a=False, a_not_squared=False, a_for_relu=False, relu_gain=None,
          leaky_unrooted=False, tanh_gain=5.0 / 3, std_power=0.5, variance_as_std=False, bound_is_std=False,
          uniform_from_zero=False, returns_none=False, not_in_place=False, global_rng=False, no_grad=True,
          one_row=False, cpu_draws=False, any_distribution=False):
    if weight.dim() < 2:
        raise ValueError("weight needs at least 2 dims")
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"unknown mode {mode}")
    if distribution not in ("normal", "uniform") and not any_distribution:
        raise ValueError(f"unknown distribution {distribution}")
    receptive = 1 if no_receptive else math.prod(weight.shape[2:])
    fan_in, fan_out = weight.shape[1] * receptive, weight.shape[0] * receptive
    if fans_swapped:
        fan_in, fan_out = fan_out, fan_in
    fan = fan_in if mode == "fan_in" or mode_ignored else fan_out
    if nonlinearity == "linear":
        gain = 1.0
    elif nonlinearity == "relu":
        gain = relu_gain if relu_gain is not None else math.sqrt(2.0 / (1 + a * a) if a_for_relu else 2.0)
    elif nonlinearity == "leaky_relu":
        slope = 0.0 if leaky_ignores_a else a if a_not_squared else a * a
        gain = 2.0 / (1 + slope) if leaky_unrooted else math.sqrt(2.0 / (1 + slope))
    elif nonlinearity == "tanh":
        gain = tanh_gain
    else:
        raise ValueError(f"unknown nonlinearity {nonlinearity}")
    std = gain / fan ** std_power
    if variance_as_std:
        std = std * std
    if distribution == "uniform":
        bound = std if bound_is_std else math.sqrt(3.0) * std
        low, high = (0.0, bound) if uniform_from_zero else (-bound, bound)
    g = None if global_rng else generator
    target = torch.empty_like(weight) if not_in_place else weight
    with torch.set_grad_enabled(not no_grad):
        if one_row or cpu_draws:
            shape = weight.shape[1:] if one_row else weight.shape
            where = {} if cpu_draws else {"device": weight.device}
            if distribution == "uniform":
                draws = low + (high - low) * torch.rand(shape, generator=g, **where)
            else:
                draws = std * torch.randn(shape, generator=g, **where)
            target.copy_(draws.expand_as(target))
        elif distribution == "uniform":
            target.uniform_(low, high, generator=g)
        else:
            target.normal_(0.0, std, generator=g)
    if returns_none:
        return None
    return target


def _variant(**switches):
    def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
        return _fill(weight, a, mode, nonlinearity, distribution, generator, **switches)
    return kaiming_init_


MISTAKES = (
    Mistake("fans_swapped", _variant(fans_swapped=True)),
    Mistake("mode_ignored", _variant(mode_ignored=True)),
    Mistake("receptive_field_ignored", _variant(no_receptive=True)),
    Mistake("leaky_gain_ignores_a", _variant(leaky_ignores_a=True)),
    Mistake("a_not_squared", _variant(a_not_squared=True)),
    Mistake("a_applied_to_relu", _variant(a_for_relu=True)),
    Mistake("relu_gain_2", _variant(relu_gain=2.0)),
    Mistake("relu_gain_2", _variant(relu_gain=2.0, leaky_unrooted=True), "with_leaky"),
    Mistake("tanh_gain_1", _variant(tanh_gain=1.0)),
    Mistake("std_without_root", _variant(std_power=1.0)),
    Mistake("variance_as_std", _variant(variance_as_std=True)),
    Mistake("uniform_bound_std", _variant(bound_is_std=True)),
    Mistake("uniform_from_zero", _variant(uniform_from_zero=True)),
    Mistake("returns_none", _variant(returns_none=True)),
    Mistake("not_in_place", _variant(not_in_place=True)),
    Mistake("generator_ignored", _variant(global_rng=True)),
    Mistake("no_no_grad", _variant(no_grad=False)),
    Mistake("one_row_repeated", _variant(one_row=True)),
    Mistake("randn_without_device", _variant(cpu_draws=True)),
    Mistake("unknown_distribution_accepted", _variant(any_distribution=True)),
)


# ---------------------------------------------------------------- the benchmark input

# `kata check kaiming-init --bench`: a 4096 x 4096 Linear weight (16M values), normal, fan_in.
BENCH = ("weight [4096, 4096], leaky_relu, fan_in, normal, with a generator",
         _case((4096, 4096), a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal"))
