"""sample-token's χ² rule, measured: how often right samplers fail (they must not, beyond 1e-6 per row test)
and how strongly each known mistake fails, over many run seeds. The figures are in the spec's docstring.

    python benchmarks/sample_token_stats.py multinomial 1000 1060    # a right sampler of tests/corpus, seeds
    python benchmarks/sample_token_stats.py mistakes 1 6              # every variant in MISTAKES

Only the statistical cases run (in process, through the spec's own `call` and `row_tests`); a right
sampler's p-values must be uniform, so their Kolmogorov-Smirnov distance to U(0, 1) is printed too.
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.text import catalog  # noqa: E402
from checker.judge import spec as spec_api  # noqa: E402
from checker.specs import sample_token as spec  # noqa: E402
from checker.judge.worker import load_entry, reset_global_state  # noqa: E402

RIGHT = {"multinomial": "right_multinomial.py", "gumbel": "right_gumbel.py", "inverse_cdf": "right_inverse_cdf.py",
         "race": "right_exponential_race.py"}


def measure(name: str, fn, seeds: range) -> None:
    kata = catalog.get("sample-token")
    failed_checks, row_fail, rows_total, pvals = 0, 0, 0, []
    for seed in seeds:
        cases = [c for c in spec_api.build_cases(spec, seed) if c.inputs.show[spec.KIND] == spec.STAT]
        bad = 0
        for i, case in enumerate(cases):
            R = case.inputs.args["logits"].shape[0]
            rows_total += R
            reset_global_state(case.seed ^ i)
            try:
                out = spec.call(kata, fn, copy.deepcopy(case.inputs), torch.device("cpu"),
                                track_device=case.family.track_device)
                tokens = out.value.detach().reshape(-1).long().as_subclass(torch.Tensor)
                assert tokens.numel() == R * case.inputs.show[spec.DRAWS]
            except Exception:  # noqa: BLE001 — a variant that raises fails every row of the case
                bad, row_fail = bad + 1, row_fail + R
                continue
            tests = spec.row_tests(tokens, spec.target_probs(case.inputs))
            failing = sum(not t.passed for t in tests)
            row_fail += failing
            bad += failing > 0
            pvals += [t.p for t in tests if t.df > 0]
        failed_checks += bad > 0
    print(f"{name}: checks failing {failed_checks}/{len(seeds)}; row tests failing {row_fail}/{rows_total}", flush=True)
    if pvals:
        p = np.sort(np.array(pvals))
        m = len(p)
        ks = float(np.max(np.maximum(np.arange(1, m + 1) / m - p, p - np.arange(m) / m)))
        print(f"  {m} p-values; min {p[0]:.2e}; KS D = {ks:.4f} (5% critical ≈ {1.36 / np.sqrt(m):.4f})", flush=True)


def main() -> None:
    torch.set_num_threads(1)
    which, seeds = sys.argv[1], range(int(sys.argv[2]), int(sys.argv[3]))
    kata = catalog.get("sample-token")
    if which in RIGHT:
        path = ROOT / "tests" / "corpus" / "sample_token" / RIGHT[which]
        if not path.exists():  # shipped as a solution (`kata solutions sample-token`)
            path = ROOT / "content" / "sample_token" / "solutions" / RIGHT[which].removeprefix("right_")
        measure(which, load_entry(path, kata.entry, f"stats_{which}"), seeds)
        return
    for m in spec.MISTAKES:
        measure(f"{m.key}/{m.fn.__name__}", m.fn, seeds)


if __name__ == "__main__":
    main()
