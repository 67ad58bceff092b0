"""Case families for `sample-token`: temperatures 0.1 to 20, -inf entries and a row with one finite
entry, logits of ±1e4 (and 3e3 at T = 0.25) where an unshifted exp overflows, V = 1, 2 and 4096, float64
and half precision, float16 logits of ±1e4 at T = 0.1 (±1e5
overflows float16: the contract lets half inputs be computed in float32), greedy (T = 0) with ties, -inf entries
and half / double inputs, reproducibility cases (the same seed at 1, 8, 2000 and random numbers of rows, so a
generator= passed only for some batch sizes fails; seeds that differ at 8 and 2000 rows), generator None and the defaults, and the device (with a generator and without).

Right answers are random, so a draw is judged by its distribution, not by equality (KATAS-inference.md,
"Comparison rules"; checker/specs/_stats.py): each statistical case repeats each of its R distinct rows N times
(N = 3000; 1000 when V > 64; 250 when V > 1024) in one call, with a generator on the run device seeded from the case, and
each row's N tokens are tested with Pearson's χ² against the float64 softmax(logits / T) of the (already
rounded) input; a row fails when p < 1e-6 or a token of probability 0 was drawn. T = 0 compares
exactly, and the reproducibility cases compare the tokens of two or three calls with each other.

Measured (torch 2.13 CPU; benchmarks/sample_token_stats.py): false failures of the four right
samplers in tests/corpus (each check then had 63 row tests; now 56, one V = 4096 row and 8 random cases):
    torch.multinomial   0 of 60 checks, 0 of 3777 row tests; min p 4.2e-04; KS D = 0.017 (5 % critical 0.023)
    Gumbel-max          0 of 40 checks, 0 of 2517 row tests; min p 1.5e-04; KS D = 0.023 (0.028)
    inverse CDF         0 of 40 checks, 0 of 2517 row tests; min p 2.4e-04; KS D = 0.012 (0.028)
    exponential race    0 of 40 checks, 0 of 2517 row tests; min p 4.2e-04; KS D = 0.026 (0.028)
  (the p-values are uniform, as a right sampler's must be: 1e-6 per row test, ≈ 6e-5 per check.)
  Power, 5 seeds: every distributional mistake fails every check; the row tests each fails (of 281):
    temperature multiplied / after the softmax: every row with T ≠ 1 (149 and 148); gumbel sign 239;
    sorted index not mapped back 256; one uniform (or one noise vector) for the batch 260; softmax over the
    batch dim 263; no max shift the 3 rows at ±1e4 / 3e3 (15). The other mistakes show
    elsewhere: greedy cases (no greedy branch, last index on ties), the reproducibility cases (global RNG),
    the in-place check (logits divided in place), the shape (multinomial's [B, 1]).
The namer judges "same mistake" through the same rule (`matches`): per row, the learner's draws and the
variant's come from one distribution (χ² homogeneity, p ≥ 1e-6), or both repeat one token per row (a
uniform shared by the batch); reproducibility cases by which calls agree.
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import torch

from checker.specs import _stats as stats
from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_values, describe, split_outputs, words_wanted
from checker.judge.devices import Simulation
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._training import one_thread, pick, randint, randn, single_threaded

INF = float("-inf")
KIND, HOW, SEED, DRAWS = "kind", "call", "generator seed", "draws per row"
STAT, GREEDY, SAME_SEED, SEEDS_DIFFER, GLOBAL_RNG = "draws", "greedy", "same seed", "seeds differ", "global rng"
ONCE = "once"  # one plain call (the benchmark): no repetition, nothing judged
REPRO_ROWS, REPRO_V = 2000, 50  # the reproducibility cases: 2000 rows of a flat distribution over 50 tokens


def draws_per_row(V: int) -> int:
    """3000 draws per row, 1000 when V > 64 (KATAS-inference.md), and 250 when V > 1024: every sampler
    touches all V logits of every draw, so the V = 4096 row cost a quarter second of the learner's check at
    1000 (all four algorithms alike); at 4096 tokens nearly every cell is pooled either way, and the row is
    there to show a large vocabulary works, not to measure the distribution's tail."""
    return 3000 if V <= 64 else 1000 if V <= 1024 else 250


def _seed(g: torch.Generator) -> int:
    return int(torch.randint(1, 2**62, (1,), generator=g))


# ---------------------------------------------------------------- drawing cases


def _inputs(logits: torch.Tensor, temperature: float | None, how: str = "keywords") -> Callable:
    """A statistical case (T > 0) or a greedy one (T = 0). how: "keywords" (logits, temperature, generator by
    name), "positional", "no generator" (generator left out: the global RNG) or "defaults" (logits alone)."""
    def make(g: torch.Generator) -> Inputs:
        args = {"logits": logits} if how == "defaults" else {"logits": logits, "temperature": temperature}
        T = 1.0 if temperature is None else temperature
        kind = GREEDY if T == 0 else STAT
        show = {KIND: kind, HOW: how, SEED: _seed(g), "temperature": T}
        if kind == STAT:
            show[DRAWS] = draws_per_row(logits.size(-1))
        return Inputs(args=args, show=show)
    return make


def _drawn(R: int, V: int, T: float | None, *, scale: float = 1.5, shift: float = 0.0, banned: float = 0.0,
           dtype: torch.dtype = torch.float32, how: str = "keywords"):
    """R rows of V logits: normal(shift, scale) drawn in float64 and rounded once to dtype; `banned` of the
    entries -inf (every row keeps a finite one)."""
    def make(g: torch.Generator) -> Inputs:
        logits = randn(g, R, V, dtype=torch.float64, scale=scale) + shift
        if banned:
            ban = torch.rand(R, V, generator=g) < banned
            ban[torch.arange(R), torch.randint(V, (R,), generator=g)] = False
            logits = logits.masked_fill(ban, INF)
        return _inputs(logits.to(dtype), T, how)(g)
    return make


def _rows(rows: list[list[float]], T: float, dtype: torch.dtype = torch.float32, shuffle: bool = True):
    """Hand-made rows (shuffled per row unless the positions matter, as ties' do)."""
    def make(g: torch.Generator) -> Inputs:
        logits = torch.tensor(rows, dtype=torch.float64)
        if shuffle:
            order = torch.stack([torch.randperm(logits.size(1), generator=g) for _ in range(logits.size(0))])
            logits = logits.gather(1, order)
        return _inputs(logits.to(dtype), T)(g)
    return make


def _ties(dtype: torch.dtype = torch.float32, banned: bool = False):
    """Greedy rows whose maximum appears two to four times at random places: the first index is the answer."""
    def make(g: torch.Generator) -> Inputs:
        R, V = 4, 9
        logits = (torch.randint(-6, 3, (R, V), generator=g).double() / 2)
        for r in range(R):
            where = torch.randperm(V, generator=g)[:randint(g, 2, 4)]
            logits[r, where] = 2.0  # above every other entry
        if banned:  # -inf among the smaller entries, and first in row 0
            logits = logits.masked_fill((torch.rand(R, V, generator=g) < 0.4) & (logits < 2.0), INF)
            logits[0, 0] = INF
        return _inputs(logits.to(dtype), 0.0)(g)
    return make


def _one_finite(g: torch.Generator) -> Inputs:
    rows = [[0.5, INF, INF, INF, INF, INF], [INF, INF, -3.0, INF, INF, INF], [0.3, -1.0, 1.2, INF, 0.0, 2.0]]
    return _rows(rows, 1.0)(g)


def _repro(kind: str, R: int = REPRO_ROWS, V: int = REPRO_V):
    """R rows of a flat distribution over V tokens. A check of seeds that differ needs R·log(V) large (8 rows of
    50 tokens: a right sampler repeats all of them with probability 50^-8); a same-seed check holds at any shape,
    so a generator= used only for some shapes or batch sizes fails one of them."""
    def make(g: torch.Generator) -> Inputs:
        logits = torch.zeros(R, V)
        return Inputs(args={"logits": logits, "temperature": 1.0}, show={KIND: kind, SEED: _seed(g) % 2**31})
    return make


def _repro_random_shape(g: torch.Generator) -> Inputs:
    return _repro(SAME_SEED, randint(g, 1, 1999), randint(g, 2, 300))(g)


def _random(g: torch.Generator) -> Inputs:
    R, V = randint(g, 1, 2), randint(g, 2, 40)
    T = pick(g, [0.5, 0.8, 1.0, 1.0, 1.5, 3.0])
    return _drawn(R, V, T, scale=1.5 * T, banned=pick(g, [0.0, 0.0, 0.3]))(g)


def _random_greedy(g: torch.Generator) -> Inputs:
    R, V = randint(g, 1, 6), randint(g, 1, 50)
    dtype = pick(g, [torch.float32, torch.float32, torch.float64, torch.float16, torch.bfloat16])
    logits = torch.randint(-8, 8, (R, V), generator=g).double() / 2  # a grid of 1/2: ties are common
    if pick(g, [False, True]):
        ban = torch.rand(R, V, generator=g) < 0.3
        ban[torch.arange(R), torch.randint(V, (R,), generator=g)] = False
        logits = logits.masked_fill(ban, INF)
    return _inputs(logits.to(dtype), 0.0, pick(g, ["keywords", "keywords", "positional", "no generator"]))(g)


FAMILIES = (
    Family("defaults", _drawn(3, 10, None, how="defaults")),
    Family("temperature_one", _drawn(3, 10, 1.0)),
    Family("temperature_0_7", _drawn(3, 10, 0.7, scale=1.2)),
    Family("temperature_2_5", _drawn(2, 10, 2.5, scale=4.0)),
    Family("temperature_0_1", _drawn(2, 10, 0.1, scale=0.2)),
    Family("temperature_20", _drawn(2, 10, 20.0, scale=30.0)),
    Family("neg_inf_entries", _drawn(3, 12, 1.0, banned=0.4)),
    Family("one_finite_entry", _one_finite),
    Family("huge_logits", _rows([[1e4, 1e4 - 1, 1e4 - 2.5, 1e4 - 0.5, 1e4 - 4, -1e4],
                                 [-1e4, -1e4 + 0.5, -1e4 - 1, -1e4 - 2, -1e4 + 1.5, -1e4 - 30]], 1.0)),
    Family("huge_logits_low_temperature", _rows([[3e3, 3e3 - 0.25, 3e3 - 0.5, 3e3 - 0.75, 3e3 - 1.5, 3e3 + 0.125]],
                                                0.25)),
    # float16 is spaced 8 apart at 1e4, so each row ties two maxima (drawn half and half); logits / 0.1 = ±1e5
    # overflows float16 (largest 65504): a softmax computed in float16 is NaN.
    Family("float16_huge_logits_low_temperature", _rows([[1e4, 1e4, 1e4 - 8, 1e4 - 16, -1e4],
                                                        [-1e4 + 8, -1e4 + 8, -1e4, -1e4 - 8, -1e4 - 32]], 0.1,
                                                       dtype=torch.float16)),
    Family("vocab_one", _rows([[0.3], [-2.0]], 1.0)),
    Family("vocab_two", _drawn(3, 2, 0.7, scale=1.0)),
    Family("vocab_4096", _drawn(1, 4096, 1.0, scale=3.0)),
    Family("float64", _drawn(2, 10, 0.7, dtype=torch.float64)),
    Family("float16", _drawn(2, 16, 1.3, scale=2.0, dtype=torch.float16)),
    Family("bfloat16", _drawn(2, 16, 0.8, scale=1.2, dtype=torch.bfloat16)),
    Family("generator_none", _drawn(2, 10, 1.5, scale=2.0, how="no generator")),
    Family("positional", _drawn(2, 10, 0.7, how="positional")),
    Family("greedy", _drawn(4, 10, 0.0, scale=2.0)),
    Family("greedy_ties", _ties()),
    Family("greedy_neg_inf", _ties(banned=True)),
    Family("greedy_float16", _ties(torch.float16)),
    Family("greedy_float64", _ties(torch.float64)),
    Family("greedy_huge_logits", _rows([[1e4, 1e4 + 1, 1e4 + 1, -1e4], [-1e4, -1e4 - 1, -1e4, -1e4 - 2]], 0.0,
                                       shuffle=False)),
    Family("same_seed_same_tokens", _repro(SAME_SEED)),
    Family("same_seed_one_row", _repro(SAME_SEED, 1, 4096)),
    Family("same_seed_batch_8", _repro(SAME_SEED, 8, 50)),
    Family("same_seed_random_shapes", _repro_random_shape, draws=3),
    Family("different_seeds_differ", _repro(SEEDS_DIFFER)),
    Family("different_seeds_batch_8", _repro(SEEDS_DIFFER, 8, 50)),
    Family("generator_none_global_rng", _repro(GLOBAL_RNG)),
    Family("device", _drawn(2, 10, 1.0), track_device=True),
    Family("device_no_generator", _drawn(2, 10, 1.0, how="no generator"), track_device=True),
    Family("device_greedy", _ties(), track_device=True),
    Family("random", _random, draws=8),
    Family("random_greedy", _random_greedy, draws=64),
)
FAMILIES = single_threaded(FAMILIES)


# ---------------------------------------------------------------- running a case


def _call(entry, logits: torch.Tensor, temperature: float, generator, how: str):
    if how == "defaults":
        return entry(logits)
    if how == "positional":
        return entry(logits, temperature, generator)
    if how == "no generator":
        return entry(logits=logits, temperature=temperature)
    return entry(logits=logits, temperature=temperature, generator=generator)


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Statistical cases: each row repeated N times in one call, with a generator on the run device seeded from
    the case. Reproducibility cases: two or three calls, the tokens of each. On a simulated GPU the generator is
    one that reports cuda:0 (checker/judge/devices.py), so a draw made without device= is caught there."""
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device, lambda seed: torch.Generator(device=device).manual_seed(seed))
    with Simulation(simulated, inputs.args) as sim:
        outcome = _run(entry, inputs, sim.device, sim.generator)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras), sim.report(outcome.args))


def _run(entry, inputs: Inputs, device: torch.device, generator) -> Outcome:
    show, logits = inputs.show, inputs.args["logits"]
    T = inputs.args.get("temperature", 1.0)
    kind = show[KIND]
    if kind == STAT:
        N = show[DRAWS]
        batch = spec_api.place(logits.repeat_interleave(N, dim=0), device)  # (R·N, V): row r at r·N … r·N + N − 1
        tokens = _call(entry, batch, T, generator(show[SEED]), show[HOW])
        return Outcome(tokens, {}, {"logits": batch[::N]})  # the first copy of each row, for the in-place check
    if kind in (GREEDY, ONCE):
        x = spec_api.place(logits, device)
        return Outcome(_call(entry, x, T, generator(show[SEED]), show[HOW]), {}, {"logits": x})
    x = spec_api.place(logits, device)
    s = show[SEED]
    if kind == SAME_SEED:  # the global RNG reseeded and advanced between two calls with generators seeded alike
        torch.manual_seed(s + 5)
        first = entry(logits=x, temperature=T, generator=generator(s))
        torch.manual_seed(s + 17)
        torch.rand(97)
        second = entry(logits=x, temperature=T, generator=generator(s))
        return Outcome(first, {"second call": second}, {"logits": x})
    if kind == SEEDS_DIFFER:  # the global RNG reset alike before each call: only the generator may differ
        g = generator(s)
        torch.manual_seed(s)
        first = entry(logits=x, temperature=T, generator=g)
        torch.manual_seed(s)
        second = entry(logits=x, temperature=T, generator=generator(s + 1))
        torch.manual_seed(s)
        third = entry(logits=x, temperature=T, generator=g)  # the same generator, advanced by the first call
        return Outcome(first, {"second call": second, "third call": third}, {"logits": x})
    torch.manual_seed(s)  # GLOBAL_RNG: generator=None draws from torch's global RNG
    first = entry(logits=x, temperature=T)
    torch.manual_seed(s)
    second = entry(logits=x, temperature=T)
    torch.manual_seed(s + 1)
    third = entry(logits=x, temperature=T)
    return Outcome(first, {"second call": second, "third call": third}, {"logits": x})


def target_probs(inputs: Inputs) -> torch.Tensor:
    """(R, V) float64 softmax(logits / T) of the input as given (already rounded to its dtype)."""
    logits = inputs.args["logits"].double()
    return torch.softmax(logits / inputs.show["temperature"], dim=-1)


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """Statistical cases: the exact distribution (R, V) and an empty int64 tensor on the device the tokens must be
    on; the rest: the reference's own tokens."""
    if inputs.show[KIND] != STAT:
        return [call(kata, entry, inputs, device)]
    with one_thread():
        probs = target_probs(inputs)
    simulated = spec_api.simulated_device(inputs)
    if simulated is None:
        return [Outcome(probs, {"on": torch.zeros(0, dtype=torch.int64, device=device)})]
    with Simulation(simulated) as sim:
        on = sim.report(sim.place(torch.zeros(0, dtype=torch.int64)))
    return [Outcome(probs, {"on": on})]


# ---------------------------------------------------------------- judging


def compare(kata, case, expected, got) -> list[Problem] | None:
    kind = case.inputs.show[KIND]
    if kind == GREEDY:
        return None  # exact: the reference's argmax
    with one_thread():
        if kind == STAT:
            return _judge_draws(kata, case, expected[0], got)
        return _judge_calls(kata, case, expected[0], got)


def _structure(item: str, shape: tuple[int, ...], device: str, got) -> list[Problem]:
    return compare_values(item, TensorValue(None, "int64", shape, device), got, 0.0, 0.0)


def _out_of_range(item: str, tokens: torch.Tensor, V: int) -> list[Problem]:
    bad = (tokens < 0) | (tokens >= V)
    if not bool(bad.any()):
        return []
    at = int(bad.nonzero()[0, 0])
    return [Problem("values", item, tr("{item} holds {n} token ids outside [0, {V}), first {value} at {index}",
                                       item=item, n=int(bad.sum()), V=V, value=int(tokens[at]), index=at))]


def counts_per_row(tokens: torch.Tensor, R: int, V: int) -> np.ndarray:
    """(R, V + 1) how often each row drew each token; column V counts ids outside [0, V)."""
    t = tokens.reshape(R, -1).long().numpy()
    t = np.where((t >= 0) & (t < V), t, V)
    offsets = np.arange(R)[:, None] * (V + 1)
    return np.bincount((t + offsets).ravel(), minlength=R * (V + 1)).reshape(R, V + 1)


def row_tests(tokens: torch.Tensor, probs: torch.Tensor) -> list[stats.RowTest]:
    R, V = probs.shape
    counts = counts_per_row(tokens, R, V)[:, :V]
    p = probs.numpy()
    return [stats.goodness_of_fit(counts[r], p[r]) for r in range(R)]


def _judge_draws(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    item = kata.outputs[0]
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    probs = expected.value.data
    R, V = probs.shape
    N = case.inputs.show[DRAWS]
    out = have[item]
    problems = _structure(item, (R * N,), expected.extras["on"].device, out)
    if problems:
        return problems
    tokens = out.data
    problems = _out_of_range(item, tokens, V)
    if problems:
        return problems
    tests = row_tests(tokens, probs)
    failing = [r for r in range(R) if not tests[r].passed]
    if not failing:
        return []
    counts = counts_per_row(tokens, R, V)[:, :V]
    worst = min(failing, key=lambda r: (-tests[r].impossible, tests[r].p))
    T = case.inputs.show["temperature"]
    said = [_row_words(worst, tests[worst], T, N)]
    said.append(tr("(each of the {R} rows of logits was repeated {N} times in one call, shape [{B}, {V}], with a "
                   "generator seeded for this case; a right sampler fails a row with probability below 1e-6)",
                   R=R, N=N, B=R * N, V=V))
    from checker.specs.pictures.frequencies import frequency_picture

    if words_wanted():
        said.append(frequency_picture(probs[worst].tolist(), (counts[worst] / N).tolist()))
    problems = [Problem("rule", item, "\n".join(said))]
    problems += [Problem("rule", item, _row_words(r, tests[r], T, N)) for r in failing if r != worst][:2]
    if len(failing) > 3:
        problems.append(Problem("rule", item, tr("… and {n} more rows like these", n=len(failing) - 3)))
    return problems


def _row_words(row: int, test: stats.RowTest, T: float, N: int) -> str:
    if test.impossible:
        return tr("row {row}: token {token} was drawn {n} times, but its logit is -inf (probability 0): a banned "
                  "token must never be drawn", row=row, token=test.impossible_token, n=test.impossible)
    return tr("row {row}: the {N} tokens drawn do not follow softmax(logits / T) at T = {T}: χ² = {chi2} on {df} "
              "degrees of freedom, p = {p}", row=row, N=N, T=f"{T:g}", chi2=f"{test.statistic:.1f}", df=test.df,
              p=f"{test.p:.1e}" if test.p > 0 else "0.0 (< 1e-300)")


def _judge_calls(kata, case, expected: Outcome, got: Outcome) -> list[Problem]:
    """The reproducibility cases: each call's tokens well formed, then which calls must agree."""
    item = kata.outputs[0]
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    want = expected.value
    calls = {item: have[item], **{k: got.extras.get(k) for k in expected.extras}}
    n, want_V = case.inputs.args["logits"].shape
    for name, value in calls.items():
        problems = _structure(name, want.shape, want.device, value)
        if problems:
            return problems
        problems = _out_of_range(name, value.data, want_V)
        if problems:
            return problems
    first = calls[item].data
    differ = {k: int((v.data != first).sum()) for k, v in calls.items() if k != item}
    kind, s = case.inputs.show[KIND], case.inputs.show[SEED]
    if kind == SAME_SEED and differ["second call"]:
        return [Problem("rule", "second call", tr(
            "two calls with torch.Generator().manual_seed({seed}) gave different tokens in {k} of {n} rows (the global "
            "RNG was reseeded between them): the draws must come from `generator` alone, not from torch's global RNG "
            "(torch.multinomial, torch.rand … without generator=, or Categorical(...).sample())", seed=s,
            k=differ["second call"], n=n))]
    if kind == SEEDS_DIFFER:
        if not differ["second call"]:
            return [Problem("rule", "second call", tr(
                "seeds {seed} and {next} gave the same {n} tokens (a flat distribution over {V} tokens; the global RNG "
                "was reset alike before each call): the draws must come from `generator`", seed=s, next=s + 1, n=n,
                V=want_V))]
        if not differ["third call"]:
            return [Problem("rule", "third call", tr(
                "a second call with the same generator repeated the first call's {n} tokens: drawing must advance the "
                "generator (use it, do not copy or reseed it)", n=n))]
    if kind == GLOBAL_RNG:
        if differ["second call"]:
            return [Problem("rule", "second call", tr(
                "with generator=None and torch.manual_seed({seed}) before each call, the two calls differ in {k} of "
                "{n} rows: generator=None must draw from torch's global RNG", seed=s, k=differ["second call"], n=n))]
        if not differ["third call"]:
            return [Problem("rule", "third call", tr(
                "with generator=None, torch.manual_seed({seed}) and torch.manual_seed({next}) gave the same {n} tokens: "
                "generator=None must draw from torch's global RNG, not from a generator of your own", seed=s,
                next=s + 1, n=n))]
    return []


def matches(kata, case, expected, variant: Outcome, got: Outcome) -> bool | None:
    """Whether the learner's outcome is the variant's, for the namer (checker/judge/mistakes.py): draws by the
    distribution they follow, calls by which of them agree; greedy cases exactly (None: the generic rule)."""
    kind = case.inputs.show[KIND]
    if kind == GREEDY:
        return None
    with one_thread():
        if _signature(variant.value) != _signature(got.value):
            return False
        if not isinstance(got.value, TensorValue) or got.value.data is None:
            return True
        if kind == STAT:
            R, V = expected[0].value.shape
            a, b = variant.value.data, got.value.data
            if a.numel() != b.numel() or a.numel() % R:
                return False
            return same_process(counts_per_row(a, R, V), counts_per_row(b, R, V), a.reshape(R, -1), b.reshape(R, -1))
        pattern = []
        for outcome in (variant, got):
            first = outcome.value.data
            agree = []
            for name in expected[0].extras:
                other = outcome.extras.get(name)
                if not isinstance(other, TensorValue) or other.data is None or other.data.shape != first.shape:
                    agree.append(None)
                else:
                    agree.append(bool(torch.equal(other.data, first)))
            pattern.append(agree)
        return pattern[0] == pattern[1]


def same_process(a: np.ndarray, b: np.ndarray, rows_a: torch.Tensor, rows_b: torch.Tensor) -> bool:
    """Per row: both repeat one token throughout (one random number for the whole batch), or the two sets of
    draws pass the χ² test of homogeneity."""
    for r in range(a.shape[0]):
        constant_a = bool((rows_a[r] == rows_a[r, 0]).all())
        constant_b = bool((rows_b[r] == rows_b[r, 0]).all())
        if constant_a and constant_b:
            continue
        if stats.homogeneity(a[r], b[r]).p < stats.ALPHA:
            return False
    return True


def _signature(value) -> tuple:
    if isinstance(value, TensorValue):
        return value.shape, value.dtype, value.device.split(":")[0]
    return (describe(value),)


# ---------------------------------------------------------------- known mistakes
# Each is a whole wrong solution with the entry point's signature (kata demo writes them out).


def _floats(logits):
    return logits.float() if logits.dtype in (torch.float16, torch.bfloat16) else logits


def temperature_multiplied(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) * temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def temperature_after_softmax(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits), dim=-1) / temperature
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def no_greedy_multinomial(logits, temperature=1.0, generator=None):
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def no_greedy_gumbel(logits, temperature=1.0, generator=None):
    u = torch.rand(logits.shape, generator=generator, device=logits.device)
    return torch.argmax(_floats(logits) / temperature - torch.log(-torch.log(u)), dim=-1)


def no_greedy_race(logits, temperature=1.0, generator=None):
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    race = torch.empty_like(probs).exponential_(generator=generator)
    return torch.argmax(probs / race, dim=-1)


def last_index_on_ties(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.size(-1) - 1 - logits.flip(-1).argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def global_rng(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    return torch.multinomial(probs, 1).squeeze(-1)


def global_rng_categorical(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    return torch.distributions.Categorical(logits=_floats(logits) / temperature).sample()


def one_uniform(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    cdf = probs.cumsum(dim=-1)
    u = torch.rand(1, generator=generator, device=logits.device, dtype=cdf.dtype)
    index = torch.searchsorted(cdf, u.expand(cdf.size(0), 1).contiguous()).squeeze(-1)
    return index.clamp(max=logits.size(-1) - 1)


def one_gumbel_vector(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    u = torch.rand(logits.size(-1), generator=generator, device=logits.device)
    return torch.argmax(_floats(logits) / temperature - torch.log(-torch.log(u)), dim=-1)


def sorted_not_mapped_back(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    sorted_probs, order = probs.sort(dim=-1, descending=True)
    cdf = sorted_probs.cumsum(dim=-1)
    u = torch.rand(cdf.size(0), 1, generator=generator, device=logits.device, dtype=cdf.dtype)
    position = torch.searchsorted(cdf, u).squeeze(-1)
    return position.clamp(max=logits.size(-1) - 1)


def gumbel_sign(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    u = torch.rand(logits.shape, generator=generator, device=logits.device)
    return torch.argmax(_floats(logits) / temperature + torch.log(-torch.log(u)), dim=-1)


def no_max_shift(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    e = torch.exp(_floats(logits) / temperature)
    probs = e / e.sum(dim=-1, keepdim=True)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def no_max_shift_race(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    e = torch.exp(_floats(logits) / temperature)
    probs = e / e.sum(dim=-1, keepdim=True)
    race = torch.empty_like(probs).exponential_(generator=generator)
    return torch.argmax(probs / race, dim=-1)


def softmax_over_batch(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=0)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def logits_in_place(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits /= temperature
    probs = torch.softmax(_floats(logits), dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def not_squeezed(logits, temperature=1.0, generator=None):
    if temperature == 0:
        return logits.argmax(dim=-1)
    probs = torch.softmax(_floats(logits) / temperature, dim=-1)
    return torch.multinomial(probs, 1, generator=generator)


MISTAKES = (
    Mistake("temperature_multiplied", temperature_multiplied),
    Mistake("temperature_after_softmax", temperature_after_softmax),
    Mistake("no_greedy", no_greedy_multinomial),
    Mistake("no_greedy", no_greedy_gumbel),
    Mistake("no_greedy", no_greedy_race),
    Mistake("last_index_on_ties", last_index_on_ties),
    Mistake("global_rng", global_rng),
    Mistake("global_rng", global_rng_categorical),
    Mistake("one_uniform", one_uniform),
    Mistake("one_uniform", one_gumbel_vector),
    Mistake("sorted_not_mapped_back", sorted_not_mapped_back),
    Mistake("gumbel_sign", gumbel_sign),
    Mistake("no_max_shift", no_max_shift),
    Mistake("no_max_shift", no_max_shift_race),
    Mistake("softmax_over_batch", softmax_over_batch),
    Mistake("logits_in_place", logits_in_place),
    Mistake("not_squeezed", not_squeezed),
)


# ---------------------------------------------------------------- the benchmark input


def _bench(g: torch.Generator) -> Inputs:
    logits = torch.randn(64, 32000, generator=g) * 3
    return Inputs(args={"logits": logits, "temperature": 0.8}, show={KIND: ONCE, HOW: "keywords", SEED: _seed(g)})


# `kata check sample-token --bench`: one decoding step of 64 sequences over a 32k vocabulary.
BENCH = ("B = 64 rows, V = 32000, T = 0.8, with a generator", _bench)
