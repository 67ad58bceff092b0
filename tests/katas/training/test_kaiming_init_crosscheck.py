"""kaiming-init's reference against torch.nn.init, which nobody here wrote: the contract's std against
`calculate_gain` and `_calculate_fan_in_and_fan_out`, and torch's own `kaiming_normal_` / `kaiming_uniform_` with a
generator judged by the kata's rule (checker/specs/kaiming_init.py: KS, mean and variance tests at p < 1e-6).

Measured (torch 2.13 CPU, 8 shapes and settings below; run with -s to see them):
    the contract's std vs gain / sqrt(fan) from torch's helpers: equal to ≤ 1e-15 relative on every setting;
    kaiming_normal_ / kaiming_uniform_ judged by the rule: 16 of 16 pass, min p 0.052 (KS, mean or variance),
    sample std / contract std 0.980–1.007; the reference fills exactly torch's values from one generator (the same
    normal_ / uniform_ calls); torch leaves the global RNG where it was when given a generator, returns
    the tensor it was given and keeps a Parameter a leaf that requires grad — what the contract asks.
"""
from __future__ import annotations

import importlib
import math

import pytest
import torch

from checker.judge.worker import load_entry
from checker.text import catalog

init = pytest.importorskip("torch.nn.init")
KATA = catalog.get("kaiming-init")
SPEC = importlib.import_module(KATA.spec_module)

# (shape, a, mode, nonlinearity): Linear, Conv1d/2d/3d, every gain, both modes, slopes 0.2, 1 and sqrt(5)
SETTINGS = [
    ((96, 384), 0.0, "fan_in", "relu"),
    ((96, 384), 0.0, "fan_out", "leaky_relu"),
    ((64, 16, 7), 0.2, "fan_in", "leaky_relu"),
    ((16, 64, 5, 5), 1.0, "fan_out", "leaky_relu"),
    ((16, 8, 3, 3, 3), 0.0, "fan_in", "tanh"),
    ((128, 256), 3.0, "fan_in", "linear"),
    ((64, 32, 3, 3), math.sqrt(5), "fan_in", "leaky_relu"),
    ((8192, 1), 0.0, "fan_in", "relu"),
]


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference():
    return load_entry(KATA.reference_path, KATA.entry, "crosscheck_kaiming_init")


@pytest.mark.parametrize("shape,a,mode,nonlinearity", SETTINGS)
def test_the_contract_std_is_torchs(shape, a, mode, nonlinearity):
    std, fan, gain = SPEC.contract_std(shape, a, mode, nonlinearity)
    fan_in, fan_out = init._calculate_fan_in_and_fan_out(torch.empty(shape))
    torch_std = init.calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)
    assert fan == (fan_in if mode == "fan_in" else fan_out)
    assert gain == pytest.approx(init.calculate_gain(nonlinearity, a), rel=1e-15)
    assert std == pytest.approx(torch_std, rel=1e-15)


def test_torchs_kaiming_functions_pass_the_kata_rule():
    worst, ratios = 1.0, []
    for i, (shape, a, mode, nonlinearity) in enumerate(SETTINGS):
        std = SPEC.contract_std(shape, a, mode, nonlinearity)[0]
        for distribution, fn in (("normal", init.kaiming_normal_), ("uniform", init.kaiming_uniform_)):
            w = torch.empty(shape)
            before = torch.get_rng_state()
            out = fn(w, a=a, mode=mode, nonlinearity=nonlinearity, generator=torch.Generator().manual_seed(100 + i))
            assert out is w and torch.equal(before, torch.get_rng_state())
            fit = SPEC.Fit(w, distribution, std)
            assert fit.passed, (shape, nonlinearity, distribution, fit.ks, fit.mean_p, fit.var_p)
            worst = min(worst, fit.ks, fit.mean_p, fit.var_p)
            ratios.append(fit.sample_std / std)
            if distribution == "uniform":
                assert float(w.abs().max()) <= math.sqrt(3) * std
    print(f"\ntorch.nn.init judged by the rule: min p {worst:.2g}, sample std / contract std "
          f"{min(ratios):.3f}–{max(ratios):.3f}")


def test_torch_and_the_reference_keep_a_parameter_a_leaf_and_return_it():
    ref = _reference()
    for fill in (lambda w: init.kaiming_uniform_(w, generator=torch.Generator().manual_seed(1)),
                 lambda w: ref(w, generator=torch.Generator().manual_seed(1), distribution="uniform")):
        layer = torch.nn.Linear(32, 16)
        out = fill(layer.weight)
        assert out is layer.weight and layer.weight.is_leaf and layer.weight.requires_grad and out.grad_fn is None


def test_the_reference_draws_what_torch_draws_from_one_generator():
    """Not required of a learner (any algorithm passes), but the reference is torch's own fill, value for value."""
    ref = _reference()
    for shape, a, mode, nonlinearity in SETTINGS[:4]:
        for distribution, fn in (("normal", init.kaiming_normal_), ("uniform", init.kaiming_uniform_)):
            mine, theirs = torch.empty(shape), torch.empty(shape)
            ref(mine, a, mode, nonlinearity, distribution, torch.Generator().manual_seed(7))
            fn(theirs, a=a, mode=mode, nonlinearity=nonlinearity, generator=torch.Generator().manual_seed(7))
            torch.testing.assert_close(mine, theirs, rtol=1e-6, atol=0)
