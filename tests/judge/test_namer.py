"""The mistake namer's rules: a name only when it is the right one.

Files with two mistakes at once, or with a mistake no variant models, get no name or one of theirs, never a
wrong one; a real check names one mistake for the whole run; files that random draws caught only on some seeds
fail a named case on every seed. That every kata's mistakes and wrong files are named as they declare is
tests/katas/test_mistakes_named.py; the in-process namer both use is tests/namer.py (the engine's own
`mistakes.choose`, without forking).
"""
from __future__ import annotations

import time

import pytest
import torch

from checker.app import demo
from checker.judge import mistakes
from checker.judge import spec as spec_api
from checker.judge.results import Status
from checker.text import catalog
from tests.conftest import CORPUS, run_check
from tests.namer import DRAWS, first_failing_named_case, kata_of, load, name_in_process, named_cases, same, spec_of

COVERAGE_SEEDS = range(20)


# ---------------------------------------------------------------- never a wrong name


def _near_misses():
    """Two known mistakes at once, built from the specs' own switches: no single variant is the file."""
    from checker.specs import (attention, cross_attention, gae, gae_batched, grpo_loss, mc_advantage, mha,
                               sliding_window_mask)

    return [
        ("attention", attention._variant(scale_by="none", invert=True), {"no_scaling", "mask_inverted"}),
        ("attention", attention._variant(scale_by="sqrt_dv", fill=float("-inf")), {"scaled_by_dv", "nan_fully_masked"}),
        ("attention", attention._variant(additive=True, dropout_always=True), {"additive_mask", "dropout_in_eval"}),
        ("mha", mha._variant(scale_by="embed_dim", skip_w_o=True), {"scaled_by_embed_dim", "no_w_o"}),
        ("mha", mha._variant(merge_without_permute=True, fill=float("-inf")), {"merge_without_permute", "nan_fully_masked"}),
        ("cross-attention", cross_attention._variant(kv_from_x=True, scale_by="none"), {"kv_from_x", "no_scaling"}),
        ("cross-attention", cross_attention._variant(invert_mask=True, softmax_dim=-2),
         {"mask_inverted", "softmax_over_queries"}),
        ("mc-advantage", mc_advantage._mc_variant(use_dones=False, unbiased=False), {"dones_ignored", "biased_std"}),
        ("mc-advantage", mc_advantage._mc_variant(eps=1e-9, gamma_float32=True), {"epsilon_1e9", "gamma_float32"}),
        ("gae", gae._gae_variant(cut_carry=False, eps=1e-6), {"carry_not_cut", "epsilon_1e6"}),
        ("gae", gae._gae_variant(late=True, normalise=False), {"cut_one_step_late", "not_normalised"}),
        ("gae-batched", gae_batched._gae_variant(mask_bootstrap=False, cut_carry=False),
         {"bootstrap_not_masked", "carry_not_cut"}),
        ("grpo-loss", grpo_loss._variant(kl="k1", reduce="token_mean"), {"kl_log_ratio", "token_level_mean"}),
        ("grpo-loss", grpo_loss._variant(pick_max=True, kl_reduce="token_mean"), {"max_not_min", "kl_token_level_mean"}),
        ("sliding-window-mask", lambda seq_len, start_pos, window, device=None: sliding_window_mask._window_plus_one(
            seq_len, start_pos, window, device).float(), {"window_too_wide", "float_mask"}),
    ]


@pytest.mark.parametrize("number", range(15))
def test_two_mistakes_at_once_get_no_name_or_one_of_theirs(number):
    kata_id, fn, theirs = _near_misses()[number]
    kata = catalog.get(kata_id)
    for seed in (1, 2):
        named, results = name_in_process(kata, fn, seed, random_draws=DRAWS)
        assert any(r.status is Status.FAIL for r in results)
        assert named is None or named in theirs, f"{kata_id}: {sorted(theirs)} named {named!r} on seed {seed}"


def test_a_mistake_no_variant_models_is_not_named_after_a_neighbour():
    """The wrong names seen before the namer demanded agreement on passing cases too."""
    import math as _math

    import torch.nn as nn

    class SqrtDvWithoutItsVariant(nn.Module):  # √Dv scaling: 'no √D scaling' matched when Dv = 1 was drawn
        def __init__(self, dropout_p=0.0):
            super().__init__()

        def forward(self, q, k, v, mask=None):
            s = q @ k.transpose(-2, -1) / _math.sqrt(v.size(-1))
            if mask is not None:
                s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
            w = torch.softmax(s, dim=-1)
            return w @ v, w

    kata = catalog.get("attention")
    spec = spec_of(kata)
    without = tuple(m for m in spec.MISTAKES if m.key != "scaled_by_dv")
    for seed in (1, 2, 3):
        named, results = name_in_process(kata, SqrtDvWithoutItsVariant, seed, variants=without)
        assert any(r.status is Status.FAIL for r in results) and named is None, f"seed {seed}: named {named}"


def test_a_file_that_only_crashes_is_named_by_a_variant_that_crashes_the_same_way():
    """No wrong answer, only crashes (per-channel calls raise): the variant raising the same exception type on the
    same cases names it; one raising another type, or raising on cases the file passes, does not."""
    from tests.namer import reference_of

    kata = catalog.get("int8-quant")
    reference = reference_of(kata)

    def raising(kind, also_asymmetric=False):
        def quantize_int8(x, dim=None, symmetric=True):
            if dim is not None or also_asymmetric and not symmetric:
                raise kind("a view that does not fit")
            return reference(x, dim, symmetric)
        return quantize_int8

    learner = raising(RuntimeError)
    for variant, want in ((raising(RuntimeError), "same"), (raising(TypeError), None),
                          (raising(RuntimeError, also_asymmetric=True), None)):
        named, results = name_in_process(kata, learner, 1, variants=(spec_api.Mistake("same", variant),))
        assert not any(r.status is Status.FAIL for r in results) and any(r.status is Status.ERROR for r in results)
        assert named == want, f"{variant}: named {named!r}"


# ---------------------------------------------------------------- through the real engine


@pytest.mark.parametrize("kata_id,key", [("gae", "epsilon_1e9"), ("attention", "additive_mask"), ("mha", "softmax_over_heads"),
                                         ("grpo-loss", "kl_token_level_mean"), ("sliding-window-mask", "window_on_new_keys_only")])
def test_a_real_check_names_it_once_for_the_run(kata_id, key, tmp_path):
    kata = catalog.get(kata_id)
    mistake = next(m for m in spec_of(kata).MISTAKES if m.key == key)
    path = tmp_path / kata.filename
    path.write_text(demo.variant_source(kata, mistake))
    started = time.perf_counter()
    result = run_check(path, kata_id, seed=4)
    assert result.status is Status.FAIL, result.message
    label = kata.text().mistakes[key].label
    names = {c.mistake for c in result.failures()[: mistakes.SHOWN_FAILING]}
    assert names == {label}, f"the cases a report shows are named {names}, not {{{label!r}}}"
    assert {c.mistake for c in result.failures()} <= {label, None}, "one name per run"
    assert time.perf_counter() - started < 120


def test_a_real_check_of_two_mistakes_names_nothing(tmp_path):
    path = CORPUS / "gae" / "wrong_dones_ignored_and_biased_std.py"
    result = run_check(path, "gae", seed=4)
    assert result.status is Status.FAIL
    assert all(c.mistake is None for c in result.failures())


def test_named_cases_are_the_runs_own():
    """named_cases draws only the named families: the same cases, at the same positions, as the whole run's."""
    for kata_id in ("gae", "mha", "kmeans", "top-p"):
        spec = spec_of(catalog.get(kata_id))
        every = spec_api.build_cases(spec, 5)
        named = named_cases(spec, 5)
        assert [(c.name, p) for c, p in named] == [(c.name, i) for i, c in enumerate(every)
                                                   if not c.family.name.startswith("random")]
        for case, position in named:
            assert same(case.inputs.args, every[position].inputs.args), (kata_id, case.name)


# ---------------------------------------------------------------- coverage that does not depend on luck


NOTABLE = ["attention/wrong_additive_mask_float16.py", "attention/wrong_additive_1e9.py", "mha/wrong_additive_mask.py",
           "cross_attention/wrong_additive_mask.py", "grpo_advantage/wrong_epsilon_1e9.py",
           "grpo_advantage/wrong_epsilon_in_sqrt.py", "gae/wrong_epsilon_1e9.py", "mc_advantage/wrong_epsilon_1e9.py",
           "gae/wrong_float32_constants.py", "attention/wrong_scaled_by_dv.py",
           "sliding_window_mask/wrong_window_on_new_keys.py", "grpo_loss/wrong_kl_token_mean.py"]


@pytest.mark.parametrize("name", NOTABLE)
def test_what_used_to_pass_on_some_seeds_fails_on_every_seed(name):
    """Files that random draws caught on some seeds only (or never) fail a named case on each of 20 seeds."""
    path = CORPUS / name
    kata = kata_of(path)
    entry = load(path, kata)
    passed = [seed for seed in COVERAGE_SEEDS if first_failing_named_case(kata, entry, seed) is None]
    assert not passed, f"{name} passes every named case on seeds {passed}"
