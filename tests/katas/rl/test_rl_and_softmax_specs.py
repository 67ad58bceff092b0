"""The RL and softmax specs: enough cases, reproducible inputs, edge cases that are what they say,
and known mistakes that the checker's own comparison rejects."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from tests.spec_support import (
    reference_of as _reference,
    roundtrip as _roundtrip,
    spec_of as _spec,
)

KATAS = ("mc-advantage", "gae", "gae-batched", "grpo-advantage", "grpo-loss", "softmax")
TORCH_KATAS = tuple(k for k in KATAS if k != "softmax")


def _run(kata, fn, case):
    """Run fn on a copy of the case's inputs; returns (decoded outcome or None if it raised, inputs changed?)."""
    inputs = copy.deepcopy(case.inputs)
    try:
        outcome = spec_api.call(kata, fn, inputs, torch.device("cpu"), track_device=case.family.track_device)
    except Exception:  # noqa: BLE001 — a variant that raises fails the case
        return None, False
    changed = any(not np.array_equal(np.asarray(before), np.asarray(inputs.args[name]))
                  for name, before in case.inputs.args.items() if isinstance(before, (torch.Tensor, np.ndarray)))
    return _roundtrip(outcome), changed


def _fails(kata, spec, case, expected, fn) -> bool:
    got, changed = _run(kata, fn, case)
    return got is None or changed or bool(compare_outcome(kata, spec, case, expected, got))


@pytest.mark.parametrize("kata_id", TORCH_KATAS)
def test_torch_katas_have_a_device_family(kata_id):
    device = [f for f in _spec(kata_id).FAMILIES if f.name == "device"]
    assert len(device) == 1 and device[0].track_device


def test_softmax_has_no_meta_family():
    assert not any(f.track_device for f in _spec("softmax").FAMILIES)


@pytest.mark.parametrize("kata_id", KATAS)
def test_inputs_come_from_the_seed(kata_id):
    spec = _spec(kata_id)
    a, b, c = (spec_api.build_cases(spec, s) for s in (5, 5, 6))

    def flat(cases):
        return [{k: (np.asarray(v).tolist() if isinstance(v, (torch.Tensor, np.ndarray)) else repr(v))
                 for k, v in case.inputs.args.items()} for case in cases]

    assert flat(a) == flat(b)
    random_a = [x for case, x in zip(a, flat(a)) if case.family.name.startswith("random")]
    random_c = [x for case, x in zip(c, flat(c)) if case.family.name.startswith("random")]
    assert random_a != random_c


# ---------------------------------------------------------------- the edge cases are what they say


def _case(kata_id, name, seed=3):
    return spec_api.build_cases(_spec(kata_id), seed, name)[0]


@pytest.mark.parametrize("kata_id", ("mc-advantage", "gae"))
def test_rl_edge_cases_place_the_dones(kata_id):
    assert not _case(kata_id, "no_dones").inputs.args["dones"].any()
    assert _case(kata_id, "done_at_first_step").inputs.args["dones"].tolist()[0]
    assert _case(kata_id, "done_at_last_step").inputs.args["dones"].tolist()[-1]
    assert _case(kata_id, "all_done").inputs.args["dones"].all()
    assert _case(kata_id, "float_dones").inputs.args["dones"].dtype == torch.float32
    assert len(_case(kata_id, "two_steps").inputs.args["rewards"]) == 2
    long = _case(kata_id, "long_float64.0").inputs.args
    assert len(long["rewards"]) >= 300 and long["rewards"].dtype == torch.float64
    assert _case(kata_id, "gamma_zero").inputs.args["gamma"] == 0.0
    assert _case(kata_id, "gamma_one").inputs.args["gamma"] == 1.0


def test_gae_batched_edge_cases():
    last = _case("gae-batched", "done_at_last_step").inputs.args
    assert last["dones"][-1].all() and last["last_values"].abs().min() > 0
    some = _case("gae-batched", "done_at_last_step_some_envs").inputs.args["dones"][-1]
    assert some.any() and not some.all()
    assert _case("gae-batched", "one_step").inputs.args["rewards"].shape[0] == 1
    assert _case("gae-batched", "one_step_one_env").inputs.args["rewards"].shape == (1, 1)
    for name, lam in (("lam_zero", 0.0), ("lam_one", 1.0)):
        assert _case("gae-batched", name).inputs.args["lam"] == lam


def test_mc_constant_advantage_is_zero_not_nan():
    kata = catalog.get("mc-advantage")
    args = _case("mc-advantage", "constant_advantage").inputs.args
    diff = args["rewards"] - args["values"]
    assert bool((diff == diff[0]).all())
    adv, _ = _reference(kata)(**args)
    assert torch.equal(adv, torch.zeros_like(adv))


def test_grpo_advantage_edge_cases():
    kata = catalog.get("grpo-advantage")
    ref = _reference(kata)
    for name in ("equal_rewards", "all_zero_rewards", "three_d_equal"):
        out = ref(**_case("grpo-advantage", name).inputs.args)
        assert torch.equal(out, torch.zeros_like(out)), name
    mixed = _case("grpo-advantage", "equal_group_in_batch").inputs.args["rewards"]
    out = ref(mixed)
    assert torch.equal(out[0], torch.zeros_like(out[0])) and out[1:].abs().sum() > 0
    binary = _case("grpo-advantage", "binary_rewards").inputs.args["rewards"]
    assert set(binary.unique().tolist()) == {0.0, 1.0}
    scales = _case("grpo-advantage", "batched_scales.0").inputs.args["rewards"].std(-1)
    assert scales.max() / scales.min() > 10, "the groups' scales should differ a lot"
    assert _case("grpo-advantage", "three_d.0").inputs.args["rewards"].dim() == 3
    assert _case("grpo-advantage", "two_completions").inputs.args["rewards"].shape == (2,)


def _ratio_and_adv(name):
    args = _case("grpo-loss", name).inputs.args
    ratio = torch.exp(args["new_log_probs"] - args["old_log_probs"])
    return args, ratio, args["advantages"]


def test_grpo_loss_far_ratios_sit_on_the_right_side():
    eps = 0.2
    args, ratio, adv = _ratio_and_adv("clipped_above")
    assert (ratio > 1 + eps + 1).all() and (adv > 0).all()
    args, ratio, adv = _ratio_and_adv("clipped_below")
    assert (ratio < 1 - eps - 0.5).all() and (adv < 0).all()
    _, ratio, adv = _ratio_and_adv("unclipped_above")
    assert (ratio > 2).all() and (adv < 0).all()
    _, ratio, adv = _ratio_and_adv("unclipped_below")
    assert (ratio < 0.3).all() and (adv > 0).all()
    _, ratio, adv = _ratio_and_adv("far_ratios_mixed.0")
    assert (ratio > 2).any() and (ratio < 0.3).any() and (adv > 0).any() and (adv < 0).any()


def test_grpo_loss_clipped_tokens_pass_no_surrogate_gradient():
    # In the clipped region the gradient is the KL's alone: with kl_beta = 0 it must vanish.
    kata = catalog.get("grpo-loss")
    inputs = _case("grpo-loss", "clipped_above").inputs
    inputs.args["kl_beta"] = 0.0
    outcome = spec_api.call(kata, _reference(kata), inputs, torch.device("cpu"))
    assert torch.equal(outcome.extras["grad of new_log_probs"], torch.zeros_like(inputs.args["new_log_probs"]))
    inputs = _case("grpo-loss", "unclipped_below").inputs
    inputs.args["kl_beta"] = 0.0
    outcome = spec_api.call(kata, _reference(kata), inputs, torch.device("cpu"))
    mask = inputs.args["mask"]
    grad = outcome.extras["grad of new_log_probs"]
    assert (grad[mask] != 0).all() and (grad[~mask] == 0).all()


def test_grpo_loss_masks_have_a_length_one_completion_and_both_kinds():
    for name in ("per_token_bool_mask", "per_token_float_mask", "length_one_completion", "square"):
        mask = _case("grpo-loss", name).inputs.args["mask"]
        lengths = mask.to(torch.int64).sum(-1)
        assert lengths.min() == 1 and lengths.max() > 1, name
    assert _case("grpo-loss", "per_token_bool_mask").inputs.args["mask"].dtype == torch.bool
    assert _case("grpo-loss", "per_token_float_mask").inputs.args["mask"].dtype == torch.float32
    assert _case("grpo-loss", "per_token_no_mask").inputs.args["mask"] is None
    assert "mask" not in _case("grpo-loss", "per_token_mask_omitted").inputs.args
    assert _case("grpo-loss", "kl_beta_zero").inputs.args["kl_beta"] == 0.0


def test_softmax_edge_cases():
    with np.errstate(over="ignore"):
        for name in ("huge_values", "huge_values_float64"):
            x = _case("softmax", name).inputs.args["x"]
            assert np.isinf(np.exp(x)).any() and np.abs(x).max() >= 1e4, name
    for name in ("neg_inf", "neg_inf_first_axis", "neg_inf_3d"):
        args = _case("softmax", name).inputs.args
        x, dim = args["x"], args["dim"]
        assert np.isneginf(x).any() and np.isfinite(x).any(axis=dim).all(), name
    x = _case("softmax", "different_magnitudes").inputs.args["x"]
    assert x.max(axis=-1).min() < x.max() - 200, "some rows must sit far below the global max"
    dims = {_case("softmax", n).inputs.args.get("dim", "default") for n in
            ("first_axis", "middle_axis", "negative_middle_axis", "rank_four_negative", "default_dim")}
    assert dims == {0, 1, -2, -3, "default"}
    assert _case("softmax", "float64").inputs.args["x"].dtype == np.float64
    assert _case("softmax", "last_axis").inputs.args["x"].dtype == np.float32


# ---------------------------------------------------------------- known mistakes fail


@pytest.mark.parametrize("kata_id", KATAS)
def test_every_kata_declares_at_least_four_distinct_mistakes(kata_id):
    """(That each fails, and is named as itself, is tests/katas/test_mistakes_named.py's.)"""
    mistakes = _spec(kata_id).MISTAKES
    assert len(mistakes) >= 4, f"{kata_id} declares {len(mistakes)} mistakes"
    assert len({m.key for m in mistakes}) == len(mistakes)


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_matches_none_of_its_mistakes_on_random_cases(kata_id):
    # Each mistake must be *typical*-case wrong, not only wrong on a corner: it fails some random draws,
    # except those that by construction only show on an edge (named here, with the reason).
    epsilon = {"no_epsilon", "epsilon_1e9", "epsilon_1e6", "epsilon_in_sqrt"}  # only where the std is tiny or 0
    float32 = {"gamma_float32", "computed_in_float32"}  # only in float64 cases (gae draws none at random)
    only_on_edges = {
        "softmax": {"global_max",  # only where slices differ by > ~80 in magnitude
                    "mean_centred",  # only with -inf or huge spreads
                    "no_max"},  # only with values beyond ~88 (float32)
        "mc-advantage": epsilon | float32, "gae": epsilon | float32, "grpo-loss": set(),
        "gae-batched": set(),
        "grpo-advantage": epsilon,
    }
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    ref = _reference(kata)
    cases = [c for c in spec_api.build_cases(spec, 2) if c.family.name.startswith("random")]
    expected = {c.name: _run(kata, ref, c)[0] for c in cases}
    for mistake in spec.MISTAKES:
        if mistake.key in only_on_edges[kata_id]:
            continue
        failing = sum(_fails(kata, spec, c, expected[c.name], mistake.fn) for c in cases)
        assert failing >= math.ceil(0.1 * len(cases)), f"{kata_id}: '{mistake.key}' fails only {failing} random cases"


# ---------------------------------------------------------------- edge cases for the epsilon and float64 precision


@pytest.mark.parametrize("kata_id", ("mc-advantage", "gae"))
def test_tiny_and_constant_advantages(kata_id):
    kata = catalog.get(kata_id)
    ref = _reference(kata)
    for seed in range(5):
        args = _case(kata_id, "tiny_advantages", seed).inputs.args
        size = max(float(args["rewards"].abs().max()), float(args["values"].abs().max()))
        assert size < 1e-4  # the advantages' std is near enough to 1e-8 for the epsilon to show
        adv, _ = ref(**args)
        assert torch.isfinite(adv).all() and adv.abs().max() > 0.1  # still normalised to about unit size
    adv, _ = ref(**_case(kata_id, "constant_advantage").inputs.args)
    assert torch.equal(adv, torch.zeros_like(adv))


@pytest.mark.parametrize("kata_id", ("mc-advantage", "gae", "gae-batched"))
def test_long_discounted_float64_has_no_dones_and_an_inexact_gamma(kata_id):
    args = _case(kata_id, "long_discounted_float64").inputs.args
    assert args["rewards"].dtype == torch.float64 and args["rewards"].shape[0] >= 300
    assert not args["dones"].any()
    assert float(torch.tensor(args["gamma"])) != args["gamma"]  # float32 cannot hold it: a float32 gamma shows


def test_grpo_tiny_spread_groups():
    for name, dtype in (("tiny_spread", torch.float32), ("tiny_spread_float64", torch.float64)):
        r = _case("grpo-advantage", name).inputs.args["rewards"]
        assert r.dtype == dtype
        std = r.double().std(-1)
        assert std.max() < 1e-4 and std.min() > 1e-9, name  # the 1e-8 beside the std moves the answer by > rtol
