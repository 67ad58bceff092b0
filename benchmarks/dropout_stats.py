"""dropout's statistical rule, measured: how often right answers fail (they must not, beyond 1e-6 per test) and how
strongly each known mistake fails, over many run seeds. The figures are in the spec's docstring.

    python benchmarks/dropout_stats.py reference 1000 1150      # a right answer, seeds 1000…1149
    python benchmarks/dropout_stats.py mistakes 1 6              # every variant in MISTAKES, seeds 1…5

Right answers: `reference` (rand < 1 − p), and the corpus's / solutions' `bernoulli` (torch.bernoulli of
full_like(x, 1 − p)), `uniform_at_least_p` (uniform_ >= p), `bernoulli_inplace_half` (bernoulli_(1 − p) in x's
dtype), `float64_math`, `masked_fill`, `mask_cast`. Only the statistical cases run (in process, through the spec's
own `call` and `verdicts`); a right answer's p-values must be uniform, so their Kolmogorov-Smirnov distance to
U(0, 1) is printed too (the count tests' p-values are discrete for the smallest counts: a little lumpy).
"""
from __future__ import annotations

import copy
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.judge import spec as spec_api  # noqa: E402
from checker.judge.codec import TensorValue  # noqa: E402
from checker.judge.mistakes import roundtrip  # noqa: E402
from checker.judge.worker import load_entry, reset_global_state  # noqa: E402
from checker.specs import dropout as spec  # noqa: E402
from checker.text import catalog  # noqa: E402

RIGHT = ("reference", "bernoulli", "uniform_at_least_p", "bernoulli_inplace_half", "float64_math", "masked_fill",
         "mask_cast")


def right_answer(name: str):
    kata = catalog.get("dropout")
    if name == "reference":
        return load_entry(kata.reference_path, kata.entry, "stats_reference")
    for path in (ROOT / "tests" / "corpus" / "dropout" / f"right_{name}.py",
                 ROOT / "content" / "dropout" / "solutions" / f"{name}.py"):
        if path.exists():
            return load_entry(path, kata.entry, f"stats_{name}")
    raise SystemExit(f"no right answer named {name}")


def statistical(seed: int) -> list[spec_api.Case]:
    cases = spec_api.build_cases(spec, seed)
    return [c for c in cases if c.inputs.show[spec.KIND] in (spec.DRAWS, spec.REPEATED) and c.inputs.raises is None]


def tests_of(fn, case: spec_api.Case, position: int) -> list[spec.Verdict] | None:
    """The case's tests on fn's output, or None when fn raised or its output is not a tensor of the right shape. The
    global RNG is seeded from the case's own seed, not as the check seeds it (run seed ^ position): over many run
    seeds that repeats streams (3000 ^ 60 = 3001 ^ 61), and the cases drawing from the global RNG would not be
    independent samples across seeds."""
    reset_global_state(spec_api.case_seed(case.seed, case.name) ^ position)
    try:
        out = roundtrip(spec.call(None, fn, copy.deepcopy(case.inputs), torch.device("cpu"),
                                  track_device=case.family.track_device))
    except Exception:  # noqa: BLE001 — a variant that raises fails the case
        return None
    value = out.extras.get("all calls", out.value)
    if not isinstance(value, TensorValue) or value.data is None:
        return None
    want = (case.inputs.show[spec.CALLS],) if case.inputs.show[spec.KIND] == spec.REPEATED else ()
    if value.shape != want + tuple(case.inputs.args["x"].shape):
        return None
    return spec.verdicts(case, value.data)


def measure_right(name: str, seeds: range) -> None:
    fn = right_answer(name)
    checks_failed, tests, failed, pvalues = 0, 0, Counter(), []
    for seed in seeds:
        names = spec_api.case_names(spec)
        bad = False
        for case in statistical(seed):
            found = tests_of(fn, case, names.index(case.name))
            assert found is not None, (name, seed, case.name)
            for v in found:
                tests += 1
                if v.name != "values":
                    pvalues.append(v.p)
                if not v.passed:
                    failed[(case.name, v.name)] += 1
                    bad = True
        checks_failed += bad
    p = np.sort(np.array(pvalues))
    m = len(p)
    ks = float(np.max(np.maximum(np.arange(1, m + 1) / m - p, p - np.arange(m) / m)))
    print(f"{name}: checks failing {checks_failed}/{len(seeds)}; tests failing {sum(failed.values())}/{tests} "
          f"{dict(failed) or ''}; {m} p-values, min {p[0]:.1e}, KS D = {ks:.4f} (5% critical {1.36 / np.sqrt(m):.4f})",
          flush=True)


def measure_mistakes(seeds: range) -> None:
    """Per variant: how many of a check's statistical cases it fails (fewest and most over the seeds), the named
    families among them, and which tests fail."""
    for m in spec.MISTAKES:
        per_check, families, tests = [], set(), set()
        for seed in seeds:
            names = spec_api.case_names(spec)
            cases = statistical(seed)
            bad = 0
            for case in cases:
                found = tests_of(m.fn, case, names.index(case.name))
                failed = {"raised"} if found is None else {v.name for v in found if not v.passed}
                if failed:
                    bad += 1
                    tests |= failed
                    if not case.family.name.startswith("random"):
                        families.add(case.family.name)
            per_check.append(bad)
        print(f"{m.key}/{m.fn.__name__}: fails {min(per_check)}–{max(per_check)} of {len(cases)} statistical cases "
              f"per check; tests {sorted(tests) or '-'}; named families {len(families)}: {sorted(families)}",
              flush=True)


def main() -> None:
    torch.set_num_threads(1)
    which, seeds = sys.argv[1], range(int(sys.argv[2]), int(sys.argv[3]))
    if which == "mistakes":
        measure_mistakes(seeds)
    else:
        measure_right(which, seeds)


if __name__ == "__main__":
    main()
