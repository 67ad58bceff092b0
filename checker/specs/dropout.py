"""Case families for `dropout`: p = 0.1, 0.5 and 0.9 in float32 at 2-D, 3-D and 1-D, p = 0.3 in float64, p = 0.5 and
0.999 in float16 and bfloat16 (2^18 and 2^20 elements), 400 calls on a 0-dim x, neighbours, rows and successive
calls independent, keep counts per row and per call, the three reproducibility cases, generator None and the
defaults, eval (p = 0.5 and 1), p = 0 in training, p = 1 (float32 with its gradient, float16), gradients in float32
and float64, p outside [0, 1] raising, and the device (with a generator, without, at eval, at p = 1).

Right answers are random, so a draw is judged by its distribution (KATAS-basics.md, "Comparison rules"): the
inputs hold no zeros (|x| in [0.5, 2.5], random signs), so the mask is read from the output. Each statistical
case checks shape, dtype and device; that every element is exactly 0 or within 4 ulps of x / (1 - p); the number
kept, by a two-sided binomial test (normal approximation, continuity correction) at q = 1 - p or at 1 - p rounded
to x's dtype; independence by 2 × 2 χ² tests: each element against the next one along dim 0 (and, beyond two dims,
the next row of the last dim) in every output of two dims or more whose cells expect ≥ 100 pairs, against its right
neighbour in a 256 × 256 input, and the masks of two successive calls with one generator; and keep counts per row
of a [3000, 8] input and per call of 600 calls on 8 elements against Binomial(8, 1 - p) (Pearson's χ², cells
expecting < 5 pooled: checker/specs/_stats.py). A test fails at p < 1e-6. The generator is seeded from the case, so
each check is deterministic. Reproducibility, eval, p = 0 and p = 1 compare exactly; gradients are
probe · mask / (1 - p) with the learner's own mask. The rows tests run on every multi-dimensional case, not only
the neighbour case, so that a mask shared by rows fails every case where it is not the whole mask: a mistake that
passed some cases by chance could not be named (the namer needs the variant wrong wherever the learner is).

Measured (torch 2.13 CPU; benchmarks/dropout_stats.py; 70 statistical cases a check, 2–5 tests each):
    rand < 1 - p (the reference)  0 of 150 checks, 0 of 33 463 tests; min p 2.1e-06; KS D = 0.011 (5 % critical 0.009)
    torch.bernoulli(full_like)     0 of 30 checks, 0 of 6 638 tests; min p 5.2e-05; KS D = 0.014 (0.020)
    uniform_ >= p (float32)        0 of 30 checks, 0 of 6 638 tests; min p 2.6e-05; KS D = 0.023 (0.020)
    bernoulli_(1 - p) in x's dtype, float64 maths, masked_fill, a cast float mask: 0 of 30 checks each
  (the p-values are near uniform; the count tests' are discrete and conservative at the smallest counts, whence a
  KS distance a little over the 5 % line on 20 000 p-values.)
  Power, 5 seeds, statistical cases failed per check (each on every seed): keep probability p 62–64 of 70 (all
  with p ≠ 0.5), bernoulli_() at 0.5 61–63, scaled by 1/p 63–64, no rescaling / scaled by (1 - p) / classic
  dropout 70, one mask for the batch 51–59 (every case with two rows or more; x.shape[1:] 68–69), half-precision
  uniforms 2 (< 1 - p: float16 and bfloat16 at p = 0.999), 3 (> p: and bfloat16 at 0.5), 1 (>= p: bfloat16 at
  0.999; float16 uniforms compared with >= p are right to 2 %), an exact keep count 2 (per call, 0-dim), a reseeded
  generator 3 (per call, successive, 0-dim) and the reproducibility case. The other mistakes show elsewhere: eval
  and p = 1 cases, the reproducibility cases (global RNG), the dtype (a float mask), the device cases, the gradient
  cases (no_grad), the raising cases, the in-place check.
The namer judges "same mistake" through `matches`: the two outputs have one structure, one scale of the kept
elements, the same sharing (by rows: the rows tests fail or rows are identical; by calls: every call alike), and
(where neither shares) keep counts that one binomial explains (χ² homogeneity, p ≥ 1e-6); reproducibility cases
by which calls agree; what the simulated GPU refused, in any words.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np
import torch

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, describe, split_outputs
from checker.judge.devices import DeviceProblem, Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs import _stats as stats
from checker.specs._training import one_thread, pick, randint, single_threaded, uniform
from checker.text.i18n import tr

KIND, HOW, SEED, CALLS, TESTS = "kind", "call", "generator seed", "calls", "tests"
DRAWS, REPEATED, EXACT = "draws", "calls", "exact"  # one call judged by statistics; several calls; x or zeros
SAME_SEED, SEEDS_DIFFER, GLOBAL_RNG = "same seed", "seeds differ", "global rng"
ONCE = "once"  # one plain call (the benchmark): nothing judged
NEIGHBOURS, ROWS, PER_CALL, SUCCESSIVE = "neighbours", "rows", "per call", "successive"
NEXT_FIRST, NEXT_LAST = "next along dim 0", "next row"  # every output of 2 dims or more
ROWS_SHARED = {NEIGHBOURS, NEXT_FIRST, NEXT_LAST, ROWS}  # the tests a mask shared by rows fails
CALLS_SHARED = {SUCCESSIVE, PER_CALL}  # the tests a mask repeated by calls fails
DEVICE_PROBLEM = "device problem"  # an extra: what the simulated GPU refused, in words
ULPS = 4
MIN_CELL = 100  # a 2 × 2 test is run when each cell expects at least this many pairs (as the count test expects)
REPRO_N = 2000
RAISES = "ValueError|AssertionError"


def _seed(g: torch.Generator) -> int:
    return int(torch.randint(1, 2**62, (1,), generator=g))


def signed(g: torch.Generator, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
    """|x| in [0.5, 2.5] with random signs, one uniform each, drawn in float64 for a float64 x and in float32 otherwise
    (a half x is rounded once from it): no zeros, so the mask can be read from the output."""
    wide = torch.float64 if dtype == torch.float64 else torch.float32
    v = torch.rand(shape, generator=g, dtype=wide).mul_(4.0).sub_(2.0)  # [-2, 2): the sign, and the size
    return torch.copysign(v.abs().add_(0.5), v).to(dtype)


# ---------------------------------------------------------------- cases


def _case(shape: tuple[int, ...], p: float, *, kind: str = DRAWS, dtype: torch.dtype = torch.float32,
          training: bool = True, how: str = "keywords", calls: int = 1, tests: tuple[str, ...] = (),
          grad: bool = False) -> Callable[[torch.Generator], Inputs]:
    """One case: x of `shape`; how the entry point is called ("keywords", "positional", "no generator" or
    "defaults": x alone); `calls` calls with one generator (kind REPEATED); `grad`: backward of (output · probe)."""
    def make(g: torch.Generator) -> Inputs:
        x = signed(g, shape, dtype)
        args = {"x": x} if how == "defaults" else {"x": x, "p": p, "training": training}
        show = {KIND: kind, HOW: how, SEED: _seed(g), "p": 0.5 if how == "defaults" else p,
                "training": True if how == "defaults" else training, CALLS: calls, TESTS: tests}
        probe = signed(g, shape, dtype) if grad else None
        raises = RAISES if not 0.0 <= p <= 1.0 else None
        return Inputs(args=args, show=show, grad_of=("x",) if grad else (), probe=probe, raises=raises,
                      tol=(0.0, 0.0) if kind == EXACT else None)
    return make


def _repro(kind: str) -> Callable[[torch.Generator], Inputs]:
    def make(g: torch.Generator) -> Inputs:
        x = signed(g, (REPRO_N,), torch.float32)
        return Inputs(args={"x": x, "p": 0.5, "training": True},
                      show={KIND: kind, HOW: "keywords", SEED: _seed(g) % 2**31, "p": 0.5, "training": True, CALLS: 1,
                            TESTS: ()})
    return make


def _random(g: torch.Generator) -> Inputs:
    """Random shapes of 2^14 or 2^15 elements, p in [0.15, 0.85], every dtype, every way of calling. Each 2 × 2 cell
    of the tests of consecutive rows then expects ≥ 100 pairs whenever there are two rows, so a mask shared by rows
    fails every random case where it is not the whole mask (one that passed some by chance could not be named)."""
    dims = randint(g, 1, 4)
    n = 2 ** randint(g, 14, 15)
    shape = [1] * dims
    for i in range(int(math.log2(n))):
        shape[randint(g, 0, dims - 1)] *= 2
    p = round(uniform(g, 0.15, 0.85), 2)
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64, torch.float16, torch.bfloat16])
    how = pick(g, ["keywords", "keywords", "positional", "no generator"])
    return _case(tuple(shape), p, dtype=dtype, how=how)(g)


def _random_exact(g: torch.Generator) -> Inputs:
    """Eval with a random p, or training with p = 0 or 1: x itself (or its copy), or zeros."""
    shape = tuple(randint(g, 1, 9) for _ in range(randint(g, 0, 3)))
    dtype = pick(g, [torch.float32, torch.float64, torch.float16, torch.bfloat16])
    training, p = pick(g, [(False, round(uniform(g, 0.0, 1.0), 2)), (True, 0.0), (True, 1.0), (False, 1.0)])
    return _case(shape, p, kind=EXACT, dtype=dtype, training=training)(g)


F16, BF16, F64 = torch.float16, torch.bfloat16, torch.float64
FAMILIES = (
    Family("defaults", _case((64, 128), 0.5, how="defaults")),
    Family("p_0_1_2d", _case((512, 256), 0.1)),
    Family("p_0_5_3d", _case((32, 64, 64), 0.5)),
    Family("p_0_9_1d", _case((131072,), 0.9)),
    Family("p_0_1_3d", _case((16, 32, 256), 0.1)),
    Family("p_0_9_2d", _case((256, 512), 0.9)),
    Family("p_0_3_float64", _case((256, 512), 0.3, dtype=F64)),
    Family("p_0_5_float16", _case((512, 512), 0.5, dtype=F16)),
    Family("p_0_999_float16", _case((2048, 512), 0.999, dtype=F16)),
    Family("p_0_5_bfloat16", _case((1024, 1024), 0.5, dtype=BF16)),
    Family("p_0_999_bfloat16", _case((512, 512), 0.999, dtype=BF16)),
    Family("zero_dim_400_calls", _case((), 0.3, kind=REPEATED, calls=400)),
    Family("neighbours_independent", _case((256, 256), 0.4, tests=(NEIGHBOURS,))),
    Family("successive_calls_independent", _case((256, 256), 0.6, kind=REPEATED, calls=2, tests=(SUCCESSIVE,))),
    Family("keep_counts_per_row", _case((3000, 8), 0.5, tests=(ROWS,))),
    Family("keep_counts_per_call", _case((8,), 0.3, kind=REPEATED, calls=600, tests=(PER_CALL,))),
    Family("same_seed_same_mask", _repro(SAME_SEED)),
    Family("different_seeds_differ", _repro(SEEDS_DIFFER)),
    Family("generator_none_global_rng", _repro(GLOBAL_RNG)),
    Family("generator_none", _case((128, 256), 0.2, how="no generator")),
    Family("positional", _case((64, 256), 0.7, how="positional")),
    Family("eval_p_0_5", _case((16, 24), 0.5, kind=EXACT, training=False, grad=True)),
    Family("eval_p_1", _case((16, 24), 1.0, kind=EXACT, training=False, grad=True)),
    Family("eval_float16", _case((8, 40), 0.3, kind=EXACT, dtype=F16, training=False)),
    Family("p_0_training", _case((16, 24), 0.0, kind=EXACT, grad=True)),
    Family("p_1_float32", _case((16, 24), 1.0, kind=EXACT, grad=True)),
    Family("p_1_float16", _case((8, 40), 1.0, kind=EXACT, dtype=F16)),
    Family("gradient_float32", _case((64, 64), 0.3, grad=True)),
    Family("gradient_float64", _case((32, 128), 0.6, dtype=F64, grad=True)),
    Family("p_1_5_raises", _case((4, 8), 1.5)),
    Family("p_negative_raises", _case((4, 8), -0.1)),
    Family("device", _case((64, 128), 0.3), track_device=True),
    Family("device_defaults", _case((64, 128), 0.5, how="defaults"), track_device=True),
    Family("device_eval", _case((8, 16), 0.5, kind=EXACT, training=False), track_device=True),
    Family("device_p_1", _case((8, 16), 1.0, kind=EXACT), track_device=True),
    Family("random", _random, draws=48),
    Family("random_exact", _random_exact, draws=20),
)
FAMILIES = single_threaded(FAMILIES)


# ---------------------------------------------------------------- running a case


def _call(entry, x: torch.Tensor, p: float, training: bool, generator, how: str):
    if how == "defaults":
        return entry(x)
    if how == "positional":
        return entry(x, p, training, generator)
    if how == "no generator":
        return entry(x=x, p=p, training=training)
    return entry(x=x, p=p, training=training, generator=generator)


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Each case with a generator on the run device seeded from the case. On the simulated GPU the generator is one
    that reports cuda:0 (checker/judge/devices.py), and what the GPU refuses (`torch.rand(shape, generator=g)`
    without device=, a CPU mask times a GPU x) is kept as the outcome's words, so that a known mistake can be named
    from it too."""
    if inputs.raises is not None:
        return spec_api.call(kata, entry, inputs, device, track_device)
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device, lambda seed: torch.Generator(device=device).manual_seed(seed))
    with Simulation(simulated, inputs.args) as sim:
        try:
            outcome = _run(entry, inputs, sim.device, sim.generator)
        except DeviceProblem as problem:
            x = spec_api.place(inputs.args["x"], sim.device)
            outcome = Outcome(DEVICE_PROBLEM, {DEVICE_PROBLEM: problem.problem}, {"x": x})
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras), sim.report(outcome.args))


def _run(entry, inputs: Inputs, device: torch.device, generator: Callable[[int], Any]) -> Outcome:
    show, args = inputs.show, inputs.args
    kind, s, how = show[KIND], show[SEED], show[HOW]
    p, training = show["p"], show["training"]
    x = spec_api.place(args["x"], device)
    if kind in (DRAWS, EXACT, ONCE):
        if not inputs.grad_of:
            return Outcome(_call(entry, x, p, training, generator(s), how), {}, {"x": x})
        leaf = x.detach().requires_grad_(True)
        y = _call(entry, leaf, p, training, generator(s), how)
        extras = spec_api.gradients(y, {"x": leaf}, inputs, None, device)
        return Outcome(y, extras, {"x": x})
    if kind == REPEATED:  # one generator, several calls: their outputs stacked
        g = generator(s)
        outs = [_call(entry, x, p, training, g, how) for _ in range(show[CALLS])]
        return Outcome(outs[0], {"all calls": _stacked(outs)}, {"x": x})
    if kind == SAME_SEED:  # the global RNG reseeded and advanced between two calls with generators seeded alike
        torch.manual_seed(s + 5)
        first = entry(x=x, p=p, training=True, generator=generator(s))
        torch.manual_seed(s + 17)
        torch.rand(97)
        second = entry(x=x, p=p, training=True, generator=generator(s))
        return Outcome(first, {"second call": second}, {"x": x})
    if kind == SEEDS_DIFFER:  # the global RNG reset alike before each call: only the generator may differ
        g = generator(s)
        torch.manual_seed(s)
        first = entry(x=x, p=p, training=True, generator=g)
        torch.manual_seed(s)
        second = entry(x=x, p=p, training=True, generator=generator(s + 1))
        torch.manual_seed(s)
        third = entry(x=x, p=p, training=True, generator=g)  # the same generator, advanced by the first call
        return Outcome(first, {"second call": second, "third call": third}, {"x": x})
    torch.manual_seed(s)  # GLOBAL_RNG: generator=None draws from torch's global RNG
    first = entry(x=x, p=p, training=True)
    torch.manual_seed(s)
    second = entry(x=x, p=p, training=True)
    torch.manual_seed(s + 1)
    third = entry(x=x, p=p, training=True)
    return Outcome(first, {"second call": second, "third call": third}, {"x": x})


def _stacked(outs: list) -> Any:
    """The calls' outputs as one tensor [calls, *shape], or the first that does not stack with the first call's, in
    words (the structure of the first call is judged as the output)."""
    first = outs[0]
    for i, out in enumerate(outs):
        if not isinstance(out, torch.Tensor) or not isinstance(first, torch.Tensor):
            return tr("call {i} returned {what}", i=i + 1, what=type(out).__name__)
        if out.shape != first.shape or out.dtype != first.dtype or out.device != first.device:
            return tr("call {i} returned shape {shape}, {dtype} on {device}; the first call {first_shape}, "
                      "{first_dtype} on {first_device}", i=i + 1, shape=tuple(out.shape), dtype=out.dtype,
                      device=out.device,
                      first_shape=tuple(first.shape), first_dtype=first.dtype, first_device=first.device)
    return torch.stack([o.detach() for o in outs])


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """Statistical cases: an empty tensor of x's dtype on the device the output must be on (the rule needs only x,
    p and the output); the rest: the reference's own outcome."""
    kind = inputs.show[KIND]
    if kind not in (DRAWS, REPEATED) or inputs.raises is not None:
        return [call(kata, entry, inputs, device)]
    dtype = inputs.args["x"].dtype
    simulated = spec_api.simulated_device(inputs)
    if simulated is None:
        return [Outcome(torch.zeros(0, dtype=dtype, device=device))]
    with Simulation(simulated) as sim:
        on = sim.report(sim.place(torch.zeros(0, dtype=dtype)))
    return [Outcome(on)]


# ---------------------------------------------------------------- the statistics


def keep_probabilities(p: float, dtype: torch.dtype) -> list[float]:
    """The accepted keep probabilities: 1 - p, and 1 - p rounded to x's dtype (what `torch.bernoulli(
    torch.full_like(x, 1 - p))` draws with)."""
    q = 1.0 - p
    rounded = float(torch.tensor(q, dtype=dtype))
    return [q] if rounded == q else [q, rounded]


def binomial_p(k: int, n: int, q: float) -> float:
    """Two-sided p-value of k successes in n trials at probability q: the normal approximation with continuity
    correction (every case expects at least 100 of each outcome)."""
    sd = math.sqrt(n * q * (1.0 - q))
    if sd == 0.0:
        return 1.0 if k == round(n * q) else 0.0
    z = max(0.0, abs(k - n * q) - 0.5) / sd
    return math.erfc(z / math.sqrt(2.0))


def independence(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float] | None:
    """2 × 2 χ² test that the booleans a and b (paired, one shape) are independent: (p-value, χ², observed share of
    pairs with both True, the share independence predicts); None when a cell expects fewer than MIN_CELL pairs
    (the χ² approximation would fail right answers there more often than 1e-6)."""
    n = a.size
    both = float(np.count_nonzero(a & b))
    pa, pb = np.count_nonzero(a) / n, np.count_nonzero(b) / n
    observed = np.array([both, np.count_nonzero(a) - both, np.count_nonzero(b) - both, 0.0])
    observed[3] = n - observed[:3].sum()
    expect = n * np.array([pa * pb, pa * (1 - pb), (1 - pa) * pb, (1 - pa) * (1 - pb)])
    if (expect == 0).any():
        return 1.0, 0.0, both / n, pa * pb  # one side is constant: the count test speaks for it
    if expect.min() < MIN_CELL:
        return None
    chi2 = float(((observed - expect) ** 2 / expect).sum())
    return stats.chi2_sf(chi2, 1), chi2, both / n, pa * pb


def binomial_pmf(m: int, q: float) -> np.ndarray:
    return np.array([math.comb(m, j) * q ** j * (1 - q) ** (m - j) for j in range(m + 1)])


class Verdict:
    """One test of one case: its p-value (the values rule: 1 or 0), passed or not, and (on demand) its words."""

    def __init__(self, name: str, p: float, words: Callable[[], str]):
        self.name, self.p, self.passed, self._words = name, p, p >= stats.ALPHA, words

    def words(self) -> str:
        return self._words()


def _p_words(p: float) -> str:
    return f"{p:.1e}" if p > 0 else "0.0 (< 1e-300)"


def masks_of(case, y: torch.Tensor) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(output, x broadcast to it, kept) in NumPy: kept = the output's non-zero elements. float64, or float32 for a
    half x (exact for half values, and 2^13 times finer than their ulp: a quarter of the work on 2^20 elements)."""
    wide = torch.float32 if case.inputs.args["x"].dtype in (torch.float16, torch.bfloat16) else torch.float64
    out = y.to(wide).numpy()
    x = case.inputs.args["x"].to(wide).numpy()
    x = np.broadcast_to(x, out.shape)
    return out, x, out != 0


def verdicts(case, y: torch.Tensor) -> list[Verdict]:
    """Every test of a statistical case on the learner's output y ([calls, *x.shape] when the case calls several
    times): the values, the keep count, and the case's own dependence tests."""
    show = case.inputs.show
    p, dtype = show["p"], case.inputs.args["x"].dtype
    out, x, kept = masks_of(case, y)
    found = [_values(out, x, kept, p, dtype), _count(kept, p, dtype)]
    found += _rows_independent(kept[0] if show[KIND] == REPEATED else kept)
    for test in show[TESTS]:
        found.append(_dependence(test, kept, p, dtype, show[CALLS]))
    return found


def _values(out: np.ndarray, x: np.ndarray, kept: np.ndarray, p: float, dtype: torch.dtype) -> Verdict:
    """Every element exactly 0 or within 4 ulps (of x's dtype) of x / (1 - p)."""
    bad = ~np.isfinite(out)
    at = np.flatnonzero(kept & ~bad)  # only the kept elements need a scale: at p = 0.999, a thousandth of them
    want = x.ravel()[at] / (1.0 - p)
    ulp = np.ldexp(torch.finfo(dtype).eps, np.frexp(want)[1] - 1)  # |want| in [2^(e-1), 2^e): one ulp there
    bad.ravel()[at] = ~(np.abs(out.ravel()[at] - want) <= ULPS * ulp)
    if not bad.any():
        return Verdict("values", 1.0, str)

    def words() -> str:
        at = np.unravel_index(int(np.flatnonzero(bad)[0]), bad.shape)
        where = tuple(int(i) for i in at)
        said = tr("{n} of {total} elements are neither 0 nor x / (1 - p) = x × {scale} (within {ulps} ulps of "
                  "{dtype}): at {index}, x = {x}, got {got}, expected 0 or {want}", n=int(bad.sum()), total=bad.size,
                  scale=f"{1 / (1 - p):.6g}", ulps=ULPS, dtype=str(dtype).removeprefix("torch."), index=where,
                  x=f"{x[at]:.6g}", got=f"{out[at]:.6g}", want=f"{x[at] / (1 - p):.6g}")
        good = kept & np.isfinite(out)
        if good.any():
            ratio = float(np.median(out[good] / x[good]))
            said += "\n" + tr("kept elements: observed x × {seen} (the median), expected x × {scale} = x / (1 - p)",
                              seen=f"{ratio:.6g}", scale=f"{1 / (1 - p):.6g}")
        return said
    return Verdict("values", 0.0, words)


def _count(kept: np.ndarray, p: float, dtype: torch.dtype) -> Verdict:
    n, k = kept.size, int(np.count_nonzero(kept))
    qs = keep_probabilities(p, dtype)
    tests = [(binomial_p(k, n, q), q) for q in qs]
    best, q = max(tests)
    if best >= stats.ALPHA:
        return Verdict("count", best, str)

    def words() -> str:
        q = 1.0 - p
        return tr("kept elements: observed {k} of {n} ({share}), expected {mean} ± {sd} ({want} = 1 - p, p = {p}); "
                  "two-sided binomial test p = {pvalue}", k=f"{k:,}", n=f"{n:,}", share=f"{k / n:.3%}",
                  mean=f"{n * q:,.0f}", sd=f"{math.sqrt(n * q * (1 - q)):,.0f}", want=f"{q:.3%}", p=f"{p:g}",
                  pvalue=_p_words(best))
    return Verdict("count", best, words)


def _rows_independent(mask: np.ndarray) -> list[Verdict]:
    """Each element against the next one along dim 0 and, beyond 2 dims, against the same place of the next row of
    the last dim: a mask drawn for x.shape[1:] or x.shape[-1] and broadcast fails one of them. Pairs whose 2 × 2
    table expects fewer than MIN_CELL in a cell (p = 0.999) are not tested: there the cases' shapes make a shared
    mask fail the count test whatever it draws."""
    found = []
    if mask.ndim < 2:
        return found
    grouped = [(NEXT_FIRST, mask.reshape(mask.shape[0], -1))]
    if mask.ndim > 2:
        grouped.append((NEXT_LAST, mask.reshape(-1, mask.shape[-1])))
    for name, rows in grouped:
        if rows.shape[0] < 2:
            continue
        result = independence(rows[:-1], rows[1:])
        if result is None:
            continue
        what = tr("an element and the next one along dim 0 both kept") if name == NEXT_FIRST else tr(
            "an element and the same place in the next row (rows of the last dim) both kept")
        found.append(_pairs_verdict(name, result, what, tr("{n} pairs", n=f"{rows[1:].size:,}")))
    return found


def _dependence(test: str, kept: np.ndarray, p: float, dtype: torch.dtype, calls: int) -> Verdict:
    if test == NEIGHBOURS:
        return _pairs_verdict(test, independence(kept[:, :-1], kept[:, 1:]),
                              tr("an element and its right neighbour both kept"),
                              tr("{n} pairs", n=f"{kept[:, 1:].size:,}"))
    if test == SUCCESSIVE:
        first, second = kept[0].ravel(), kept[1].ravel()
        what = tr("an element kept in both of two successive calls with one generator")
        return _pairs_verdict(test, independence(first, second) or (1.0, 0.0, 0.0, 0.0), what,
                              tr("{n} elements", n=f"{first.size:,}"))
    counts = kept.reshape(kept.shape[0], -1).sum(axis=1)  # ROWS: per row of [3000, 8]; PER_CALL: per call of 8
    m = kept.reshape(kept.shape[0], -1).shape[1]
    observed = np.bincount(counts, minlength=m + 1)
    fit = max((stats.goodness_of_fit(observed, binomial_pmf(m, q)) for q in keep_probabilities(p, dtype)),
              key=lambda t: t.p)
    if fit.p >= stats.ALPHA:
        return Verdict(test, fit.p, str)

    def words() -> str:
        what = tr("the keep counts of the {n} rows of {m}", n=kept.shape[0], m=m) if test == ROWS else tr(
            "the keep counts of {n} calls on {m} elements with one generator", n=kept.shape[0], m=m)
        want = len(counts) * binomial_pmf(m, 1.0 - p)
        head = tr("{what} do not follow Binomial({m}, 1 - p = {q}): χ² = {chi2} on {df} degrees of freedom, "
                  "p = {pvalue}", what=what, m=m, q=f"{1 - p:g}", chi2=f"{fit.statistic:.1f}", df=fit.df,
                  pvalue=_p_words(fit.p))
        return "\n".join([head, _table(tr("kept"), range(m + 1), tr("observed"), observed, tr("expected"), want)])
    return Verdict(test, fit.p, words)


def _pairs_verdict(test: str, result: tuple[float, float, float, float], what: str, among: str) -> Verdict:
    pvalue, chi2, both, independent = result
    if pvalue >= stats.ALPHA:
        return Verdict(test, pvalue, str)
    return Verdict(test, pvalue, lambda: tr(
        "{what}: observed {seen} of {among}, expected {want} if independent; 2 × 2 χ² = {chi2}, p = {pvalue}: each "
        "element needs its own random number", what=what, seen=f"{both:.2%}", among=among, want=f"{independent:.2%}",
        chi2=f"{chi2:.1f}", pvalue=_p_words(pvalue)))


def _table(head: str, columns, first: str, observed: np.ndarray, second: str, expected: np.ndarray) -> str:
    """Observed and expected counts side by side, one column per count (fits 60 columns for m = 8)."""
    width = max(len(head), len(first), len(second))
    cell = lambda v: f"{v:>5.0f}" if v >= 100 or float(v).is_integer() else f"{v:>5.1f}"  # noqa: E731
    lines = [head.ljust(width) + "".join(f"{c:>5}" for c in columns),
             first.ljust(width) + "".join(cell(v) for v in observed),
             second.ljust(width) + "".join(cell(v) for v in expected)]
    return "\n".join(lines)


# ---------------------------------------------------------------- judging


def compare(kata, case, expected, got) -> list[Problem] | None:
    if case.inputs.raises is not None:
        return None  # the generic rule: the call must raise ValueError or AssertionError
    if DEVICE_PROBLEM in got.extras:
        return [Problem("device", "", str(got.extras[DEVICE_PROBLEM]))]
    kind = case.inputs.show[KIND]
    with one_thread():
        if kind in (DRAWS, REPEATED):
            return _judge_draws(kata, case, expected[0], got)
        if kind == EXACT:
            return _judge_exact(kata, case, expected[0], got)
        if kind == ONCE:
            return []
        return _judge_calls(kata, case, expected[0], got)


def _output(kata, case, expected: Outcome, got: Outcome) -> tuple[torch.Tensor | None, list[Problem]]:
    """The learner's output ([calls, *x.shape] for several calls) once its structure is right, or the problems."""
    item = kata.outputs[0]
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return None, problems
    want = expected.value
    x = case.inputs.args["x"]
    problems = compare_values(item, TensorValue(None, want.dtype, tuple(x.shape), want.device), have[item], 0.0, 0.0)
    if problems or have[item].data is None:
        return None, problems
    if case.inputs.show[KIND] != REPEATED:
        return have[item].data, []
    calls = got.extras.get("all calls")
    if not isinstance(calls, TensorValue) or calls.data is None:
        return None, [Problem("structure", "all calls", str(calls) if isinstance(calls, str) else describe(calls))]
    return calls.data, []


def _judge_draws(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    y, problems = _output(kata, case, expected, got)
    if y is None:
        return problems
    item = kata.outputs[0]
    failing = [v for v in verdicts(case, y) if not v.passed]
    problems = [Problem("rule", item, v.words()) for v in failing]
    if failing and case.inputs.show[KIND] == REPEATED:
        problems[0] = Problem("rule", item, problems[0].message + "\n" + tr(
            "({n} calls with one generator seeded for this case; a right dropout fails a test with probability below "
            "1e-6)", n=case.inputs.show[CALLS]))
    elif failing:
        problems[0] = Problem("rule", item, problems[0].message + "\n" + tr(
            "(one call with a generator seeded for this case; a right dropout fails a test with probability below "
            "1e-6)"))
    if case.inputs.grad_of:
        problems += _judge_gradient(case, y, got, expected_grad=None)
    return problems


def _judge_gradient(case, y: torch.Tensor | None, got: Outcome, expected_grad: Any) -> list[Problem]:
    """The gradient of (output · probe).sum() w.r.t. x: probe · mask / (1 - p) with the learner's own mask (read
    from y), or the reference's (eval: the probe; p = 1: zeros, where no gradient at all counts as zeros)."""
    x, probe, p = case.inputs.args["x"], case.inputs.probe, case.inputs.show["p"]
    item = "grad of x"
    if expected_grad is None:
        kept = y.double() != 0
        want = (probe.double() * kept / (1.0 - p)).to(x.dtype)
        expected_grad = TensorValue(want, str(x.dtype).removeprefix("torch."), tuple(x.shape), "cpu")
    grad = got.extras.get(item)
    if grad is None and expected_grad.data is not None and not bool(expected_grad.data.any()):
        return []  # a result outside the graph (zeros_like at p = 1) has a zero gradient
    if isinstance(grad, TensorValue):
        expected_grad = TensorValue(expected_grad.data, expected_grad.dtype, expected_grad.shape, grad.device)
    rtol, atol = spec_api.TOLERANCES.get(x.dtype, (0.0, 0.0))
    scale = max(1.0, float(expected_grad.data.abs().max())) if expected_grad.data.numel() else 1.0
    return compare_values(item, expected_grad, grad, rtol, atol * scale)


def _judge_exact(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    """Eval, p = 0, p = 1: x's values (x itself or a copy) or zeros, exactly; the gradient if the case asks."""
    item = kata.outputs[0]
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    problems = compare_values(item, expected.value, have[item], 0.0, 0.0)
    if case.inputs.grad_of:
        problems += _judge_gradient(case, None, got, expected.extras.get("grad of x"))
    return problems


def _judge_calls(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    """The reproducibility cases: each call's output well formed, then which calls must agree."""
    item = kata.outputs[0]
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    want = expected.value
    calls = {item: have[item], **{k: got.extras.get(k) for k in expected.extras}}
    for name, value in calls.items():
        problems = compare_values(name, TensorValue(None, want.dtype, want.shape, want.device), value, 0.0, 0.0)
        if problems:
            return problems
    first = calls[item].data
    differ = {k: int((v.data != first).sum()) for k, v in calls.items() if k != item}
    kind, s, n = case.inputs.show[KIND], case.inputs.show[SEED], first.numel()
    if kind == SAME_SEED and differ["second call"]:
        return [Problem("rule", "second call", tr(
            "two calls with torch.Generator().manual_seed({seed}) differ in {k} of {n} elements (the global RNG was "
            "reseeded between them): the mask must come from `generator` alone, not from torch's global RNG "
            "(torch.rand, torch.bernoulli … without generator=)", seed=s, k=differ["second call"], n=n))]
    if kind == SEEDS_DIFFER:
        if not differ["second call"]:
            return [Problem("rule", "second call", tr(
                "seeds {seed} and {next} gave the same output on {n} elements (the global RNG was reset alike before "
                "each call): the mask must come from `generator`", seed=s, next=s + 1, n=n))]
        if not differ["third call"]:
            return [Problem("rule", "third call", tr(
                "a second call with the same generator repeated the first call's mask on {n} elements: drawing must "
                "advance the generator (use it; do not copy or reseed it)", n=n))]
    if kind == GLOBAL_RNG:
        if differ["second call"]:
            return [Problem("rule", "second call", tr(
                "with generator=None and torch.manual_seed({seed}) before each call, the two calls differ in {k} of "
                "{n} elements: generator=None must draw from torch's global RNG", seed=s, k=differ["second call"],
                n=n))]
        if not differ["third call"]:
            return [Problem("rule", "third call", tr(
                "with generator=None, torch.manual_seed({seed}) and torch.manual_seed({next}) gave the same output on "
                "{n} elements: generator=None must draw from torch's global RNG, not from a generator of your own",
                seed=s, next=s + 1, n=n))]
    return []


# ---------------------------------------------------------------- the namer's rule


def matches(kata, case, expected, variant: Outcome, got: Outcome) -> bool | None:
    """Whether the learner's outcome is the variant's, for the namer (checker/judge/mistakes.py): reproducibility
    cases by which calls agree; the others by what the rule sees (`_alike`); raising cases: the generic test."""
    if case.inputs.raises is not None:
        return None
    if (DEVICE_PROBLEM in variant.extras) != (DEVICE_PROBLEM in got.extras):
        return False
    if DEVICE_PROBLEM in got.extras:
        return True  # both made something on the CPU that the GPU refused
    kind = case.inputs.show[KIND]
    with one_thread():
        if kind in (SAME_SEED, SEEDS_DIFFER, GLOBAL_RNG):
            return _agreements(expected[0], variant) == _agreements(expected[0], got)
        return _alike(kata, case, variant, got)


def _agreements(expected: Outcome, outcome: Outcome) -> list[bool | None]:
    first = outcome.value
    agree = []
    for name in expected.extras:
        other = outcome.extras.get(name)
        if not (isinstance(first, TensorValue) and isinstance(other, TensorValue)) or first.data is None or \
                other.data is None or first.data.shape != other.data.shape:
            agree.append(None)
        else:
            agree.append(bool(torch.equal(other.data, first.data)))
    return agree


def _signature(value: Any) -> tuple:
    if isinstance(value, TensorValue):
        return value.shape, value.dtype, value.device.split(":")[0]
    return (describe(value),)


def _alike(kata, case, a: Outcome, b: Outcome) -> bool:
    """One structure; then for the output (all calls stacked) and the gradient alike: the same scale of the kept
    elements (their median ratio to x, or to the probe), non-finite values in both or neither, the same verdicts on
    the case's dependence tests and, where neither breaks independence, keep counts one binomial explains."""
    if _signature(a.value) != _signature(b.value) or _signature(a.extras.get("all calls")) != _signature(
            b.extras.get("all calls")):
        return False
    ya, yb = a.extras.get("all calls", a.value), b.extras.get("all calls", b.value)
    if not isinstance(ya, TensorValue) or ya.data is None or yb.data is None:
        return True
    if torch.equal(ya.data, yb.data) and _same_grad(a, b):
        return True
    x = case.inputs.args["x"].double()
    if not _same_draws(case, ya.data.double(), yb.data.double(), x):
        return False
    ga, gb = a.extras.get("grad of x"), b.extras.get("grad of x")
    if not case.inputs.grad_of or ga is None and gb is None:
        return True
    if not isinstance(ga, TensorValue) or not isinstance(gb, TensorValue):
        zero = lambda g: isinstance(g, TensorValue) and g.data is not None and not bool(g.data.any())  # noqa: E731
        return zero(ga) or zero(gb)  # no gradient and a zero one are alike
    return _same_draws(case, ga.data.double(), gb.data.double(), case.inputs.probe.double(), dependence=False)


def _same_grad(a: Outcome, b: Outcome) -> bool:
    ga, gb = a.extras.get("grad of x"), b.extras.get("grad of x")
    if isinstance(ga, TensorValue) and isinstance(gb, TensorValue) and ga.data is not None and gb.data is not None:
        return ga.data.shape == gb.data.shape and bool(torch.equal(ga.data, gb.data))
    return ga is None and gb is None


def _scale(kept: torch.Tensor, values: torch.Tensor, base: torch.Tensor) -> float | None:
    """The kept elements' median ratio to x (or to the probe), or None when nothing was kept."""
    return float((values[kept] / base[kept]).median()) if bool(kept.any()) else None


def _same_draws(case, a: torch.Tensor, b: torch.Tensor, base: torch.Tensor, dependence: bool = True) -> bool:
    if a.shape != b.shape or bool(torch.isfinite(a).all()) != bool(torch.isfinite(b).all()):
        return False
    ka, kb = (a != 0) & torch.isfinite(a), (b != 0) & torch.isfinite(b)
    base = base.expand(a.shape)
    sa, sb = _scale(ka, a, base), _scale(kb, b, base)
    same_scale = sa is None or sb is None or math.isclose(sa, sb, rel_tol=2e-2)
    shared = (False, False)
    if dependence and case.inputs.show[KIND] in (DRAWS, REPEATED):
        shared, other = _shared(case, a, ka), _shared(case, b, kb)
        if any(x is not None and y is not None and x != y for x, y in zip(shared, other)):
            return False
        shared = tuple(bool(x or y) for x, y in zip(shared, other))
    if any(shared):  # a mask shared by rows or calls: its keep count is one coin flip per mask, so counts say nothing
        return same_scale
    if (sa is None) != (sb is None) or not same_scale:
        return False
    counts_a = np.array([int(ka.sum()), ka.numel() - int(ka.sum())])
    counts_b = np.array([int(kb.sum()), kb.numel() - int(kb.sum())])
    return stats.homogeneity(counts_a, counts_b).p >= stats.ALPHA


def _shared(case, y: torch.Tensor, kept: torch.Tensor) -> tuple[bool | None, bool]:
    """Whether a mask is shared (by rows, by calls), as the namer tells two writings of one mistake apart: the
    dependence tests that fail, identical rows, and every call repeating the first call's mask. rows is None for a mask
    that kept all or nothing: a shared mask may do that by chance."""
    failed = {v.name for v in verdicts(case, y) if not v.passed}
    mask = kept.numpy()
    calls = bool(failed & CALLS_SHARED)
    if case.inputs.show[KIND] == REPEATED:
        calls = calls or mask.shape[0] > 1 and bool((mask == mask[:1]).all())
        mask = mask[0]
    if mask.all() or not mask.any():
        return None, calls
    rows = bool(failed & ROWS_SHARED)
    if mask.ndim >= 2 and not rows:  # where the 2 × 2 tests cannot run (p = 0.999): identical rows
        for grouped in (mask.reshape(mask.shape[0], -1), mask.reshape(-1, mask.shape[-1])):
            rows = rows or grouped.shape[0] > 1 and bool((grouped == grouped[:1]).all())
    return rows, calls


# ---------------------------------------------------------------- known mistakes
# Each is a whole wrong solution with the entry point's signature (kata demo writes them out).


def _check_p(p):
    if p < 0 or p > 1:
        raise ValueError(f"p must be in [0, 1], got {p}")


def keep_probability_p(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < p
    return x * keep / (1 - p)


def scaled_by_1_over_p(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / p


def no_rescaling(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep


def scaled_by_keep(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep * (1 - p)


def eval_scaled(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x * (1 - p)
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def classic_dropout(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x * (1 - p)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep


def training_ignored(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def nan_at_p_one(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / torch.tensor(1 - p, dtype=x.dtype, device=x.device)


def zero_division_at_p_one(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training:
        return x
    scale = 1.0 / (1.0 - p)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep * scale


def generator_ignored(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, device=x.device) < 1 - p
    return x * keep / (1 - p)


def generator_ignored_bernoulli(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.bernoulli(torch.full(x.shape, 1 - p, device=x.device))
    return x * keep.to(x.dtype) / (1 - p)


def one_mask_for_batch(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape[-1], generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def one_mask_for_rows(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape[1:], generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def half_uniforms(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) < 1 - p
    return x * keep / (1 - p)


def half_uniforms_above_p(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) > p
    return x * keep / (1 - p)


def half_uniforms_at_least_p(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x * keep / (1 - p)


def half_promoted(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = (torch.rand(x.shape, generator=generator, device=x.device) < 1 - p).float()
    return x * mask / (1 - p)


def rand_without_device(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return x * 0
    keep = torch.rand(x.shape, generator=generator) < 1 - p
    return x * keep / (1 - p)


def rand_moved_from_cpu(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator).to(x.device) < 1 - p
    return x * keep / (1 - p)


def x_in_place(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return x.zero_()
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    x.mul_(keep).div_(1 - p)
    return x


@torch.no_grad()
def under_no_grad(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def no_range_check(x, p=0.5, training=True, generator=None):
    if not training or p == 0:
        return x
    if p >= 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    return x * keep / (1 - p)


def exact_keep_count(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    n = x.numel()
    order = torch.randperm(n, generator=generator, device=x.device)
    keep = torch.zeros(n, dtype=torch.bool, device=x.device)
    keep[order[:round((1 - p) * n)]] = True
    return x * keep.view(x.shape) / (1 - p)


def reseeded_copy(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    if generator is not None:
        state = generator.get_state()
    keep = torch.rand(x.shape, generator=generator, device=x.device) < 1 - p
    if generator is not None:
        generator.set_state(state)
    return x * keep / (1 - p)


def reseeded_from_initial_seed(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    g = None
    if generator is not None:
        g = torch.Generator(device=x.device)
        g.manual_seed(generator.initial_seed())
    keep = torch.rand(x.shape, generator=g, device=x.device) < 1 - p
    return x * keep / (1 - p)


def bernoulli_half(x, p=0.5, training=True, generator=None):
    _check_p(p)
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.empty_like(x).bernoulli_(generator=generator)
    return x * keep / (1 - p)


MISTAKES = (
    Mistake("keep_probability_p", keep_probability_p),
    Mistake("scaled_by_1_over_p", scaled_by_1_over_p),
    Mistake("no_rescaling", no_rescaling),
    Mistake("scaled_by_keep", scaled_by_keep),
    Mistake("eval_scaled", eval_scaled, variant="inverted"),
    Mistake("eval_scaled", classic_dropout, variant="classic"),
    Mistake("training_ignored", training_ignored),
    Mistake("nan_at_p_one", nan_at_p_one),
    Mistake("nan_at_p_one", zero_division_at_p_one),
    Mistake("generator_ignored", generator_ignored),
    Mistake("generator_ignored", generator_ignored_bernoulli),
    Mistake("one_mask_for_batch", one_mask_for_batch),
    Mistake("one_mask_for_batch", one_mask_for_rows),
    Mistake("half_uniforms", half_uniforms),
    Mistake("half_uniforms", half_uniforms_above_p),
    Mistake("half_uniforms", half_uniforms_at_least_p),
    Mistake("half_promoted", half_promoted),
    Mistake("rand_without_device", rand_without_device),
    Mistake("rand_without_device", rand_moved_from_cpu),
    Mistake("x_in_place", x_in_place),
    Mistake("under_no_grad", under_no_grad),
    Mistake("no_range_check", no_range_check),
    Mistake("exact_keep_count", exact_keep_count),
    Mistake("reseeded_copy", reseeded_copy),
    Mistake("reseeded_copy", reseeded_from_initial_seed),
    Mistake("bernoulli_half", bernoulli_half),
)


# ---------------------------------------------------------------- the benchmark input


def _bench(g: torch.Generator) -> Inputs:
    x = signed(g, (8, 1024, 768), torch.float32)  # a GPT-2 small activation: 8 sequences of 1024 tokens
    return Inputs(args={"x": x, "p": 0.1, "training": True},
                  show={KIND: ONCE, HOW: "keywords", SEED: _seed(g), "p": 0.1, "training": True, CALLS: 1, TESTS: ()})


# `kata check dropout --bench`: dropout on one transformer activation.
BENCH = ("x [8, 1024, 768] float32, p = 0.1, with a generator", _bench)
