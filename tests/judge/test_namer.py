"""The mistake namer names a mistake only when it is the right one.

Every known mistake, written out as a learner file, is named with its own label on several seeds;
files with two mistakes at once, or with a mistake no variant models, get no name or the right
one, never a wrong one; and over the whole wrong corpus every name given is the file's own
(`# mistake: <key>` in the file, or `# mistake: none` when no single variant models it).

Most of it runs in process (`check_in_process` below judges every case as the engine does, then
asks the namer); a few files go through the real engine, forks and all.
"""
from __future__ import annotations

import copy
import functools
import importlib
import re
import time
from pathlib import Path

import pytest
import torch

from checker.text import catalog
from checker.app import demo
from checker.judge import mistakes
from checker.judge import spec as spec_api
from checker.judge.engine import _Run
from checker.judge.results import CaseResult, Problem, Status
from checker.judge.worker import Limits, load_entry, reset_global_state
from tests.conftest import CORPUS, run_check, shared_cases

CPU = torch.device("cpu")
KATAS = ("attention", "causal-mask", "offset-causal-mask", "sliding-window-mask", "mha", "cross-attention", "softmax",
         "mc-advantage", "gae", "gae-batched", "grpo-advantage", "grpo-loss", "loss-agg", "kl-estimators", "dapo-loss", "gspo-loss", "rloo-loss", "clip-loss",
         "int8-quant")
KATAS += ("logistic-regression", "roc-auc", "kmeans", "mlp-backprop", "conv2d", "nms", "bpe")  # the classic family
KATAS += ("greedy-generate", "speculative-decoding")  # the inference family (sample-token, sinusoidal-pe: tests/katas/inference/test_sample_token_pe_specs.py)


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: threads only add contention (the checker's children run on one thread too)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def spec_of(kata):
    return importlib.import_module(kata.spec_module)


@functools.lru_cache(maxsize=None)
def reference_of(kata):
    return load_entry(kata.reference_path, kata.entry, f"test_namer_reference_{kata.module}")


def _inplace(case, outcome) -> list[Problem]:
    return [Problem("inplace", f"input {name}", "modified in place") for name, before in case.inputs.args.items()
            if mistakes._changed(before, outcome.args.get(name))]


_EXPECTED: dict[tuple, list] = {}  # (kata, seed, case) -> the reference's accepted answers, decoded


def check_in_process(kata, entry, seed: int, only_named: bool = False, random_draws: int | None = None):
    """(run, results) as the engine would judge `entry` on the cases of `seed`, without forking:
    every case, or the named ones only, or the named ones and the first `random_draws` of each
    random family. The run's cases are all the seed's cases, so positions (and dropout's random
    numbers) are those of a real check."""
    spec = spec_of(kata)
    every = shared_cases(spec, seed)  # read only: the reference gets a copy of each case's inputs, the entry of its args
    position = {c.name: i for i, c in enumerate(every)}
    cases = every
    if only_named or random_draws is not None:
        keep = 0 if only_named else random_draws
        cases = [c for c in every if not c.family.name.startswith("random") or
                 c.family.draws == 1 or int(c.name.rsplit(".", 1)[1]) < keep]
    run = _Run(kata, spec, every, CPU, Path("learner.py"), Limits())
    call = getattr(spec, "call", spec_api.call)
    hook = getattr(spec, "expected", None)
    results = []
    for case in cases:
        device, i = CPU, position[case.name]
        key = (kata.id, seed, case.name)
        if key not in _EXPECTED:
            reset_global_state(case.seed ^ i)
            if hook is not None:
                alternatives = hook(kata, reference_of(kata), copy.deepcopy(case.inputs), device)
            else:
                alternatives = [call(kata, reference_of(kata), copy.deepcopy(case.inputs), device)]
            _EXPECTED[key] = [mistakes.roundtrip(a) for a in alternatives]
        alternatives = _EXPECTED[key]
        reset_global_state(case.seed ^ i)
        inputs = copy.copy(case.inputs)
        inputs.args = copy.deepcopy(case.inputs.args)
        try:
            outcome = call(kata, entry, inputs, device, track_device=case.family.track_device)
        except Exception:  # noqa: BLE001 — the learner's error: the case is an ERROR, never examined
            results.append(CaseResult(case.name, case.family.name, "", Status.ERROR))
            continue
        got = mistakes.roundtrip(outcome)
        run.expected[case.name], run.got[case.name] = alternatives, got
        problems = run._compare(case, alternatives, got) + _inplace(case, outcome)
        results.append(CaseResult(case.name, case.family.name, "", Status.FAIL if problems else Status.PASS,
                                  tuple(problems)))
    return run, results


def name_in_process(kata, entry, seed: int, random_draws: int | None = None) -> tuple[str | None, list[CaseResult]]:
    """The key the namer gives `entry` on `seed` (None: no name), and the results it judged."""
    run, results = check_in_process(kata, entry, seed, random_draws=random_draws)
    spec = run.spec
    failing = mistakes.examined_failing(run, results)
    try:
        if not failing:
            return None, results
        inplace = {r.name for r in results if any(p.kind == "inplace" for p in r.problems)}
        # as checker.judge.mistakes.name_mistakes does: further failing cases settle a tie between variants
        # (bpe's one-pass and newest-first encodes part only where merges chain), crashes are evidence
        index = mistakes.explain(run, tuple(spec.MISTAKES), failing, mistakes.examined_passing(run, results), inplace,
                                 mistakes.further_failing(run, results, failing), mistakes.examined_crashing(run, results))
    finally:
        run.cleanup()
    return (None if index is None else spec.MISTAKES[index].key), results


def load(path: Path, kata):
    return load_entry(path, kata.entry, f"test_namer_{kata.module}_{path.stem}_{abs(hash(str(path)))}")


def written_out(kata, mistake, tmp_path: Path):
    path = tmp_path / f"{kata.module}_{mistake.key}.py"
    path.write_text(demo.variant_source(kata, mistake))
    return load(path, kata)


def declared_mistake(path: Path) -> str | None:
    """The `# mistake: <key>` line of a corpus file ("none": no single variant models it); a drill's is its name."""
    if path.parent.name == "bugs":  # content/<m>/bugs/<key>.py: a drill, which says nothing of its mistake
        return path.stem
    found = re.search(r"^# mistake: (\S+)\s*$", path.read_text(), re.MULTILINE)
    assert found, f"{path}: no '# mistake: <key>' line (write '# mistake: none' when no variant models it)"
    return None if found.group(1) == "none" else found.group(1)


# ---------------------------------------------------------------- every known mistake is named as itself

SEEDS = (1, 2, 3)
DRAWS = 12  # random draws per random family in the in-process checks (the named families all run)
PAIRS = [(k, m.key) for k in KATAS for m in spec_of(catalog.get(k)).MISTAKES]


@pytest.mark.parametrize("kata_id,key", PAIRS, ids=[f"{k}-{m}" for k, m in PAIRS])
def test_every_mistake_written_out_is_named_as_itself(kata_id, key, tmp_path):
    kata = catalog.get(kata_id)
    mistake = next(m for m in spec_of(kata).MISTAKES if m.key == key)
    entry = written_out(kata, mistake, tmp_path)
    for seed in SEEDS:
        named, results = name_in_process(kata, entry, seed, random_draws=DRAWS)
        assert any(r.status is Status.FAIL for r in results), f"{key} fails no case on seed {seed}"
        assert named == key, f"{kata_id}: the file written from '{key}' is named {named!r} on seed {seed}"


def test_every_mistake_has_a_label_and_a_fix():
    for kata_id in KATAS:
        kata = catalog.get(kata_id)
        said = kata.text("en").mistakes
        for mistake in spec_of(kata).MISTAKES:
            assert said[mistake.key].label and said[mistake.key].fix, (kata_id, mistake.key)


# ---------------------------------------------------------------- never a wrong name

WRONG = sorted(p for k in KATAS for p in (CORPUS / catalog.get(k).module).glob("wrong_*.py"))
WRONG += sorted(p for k in KATAS for p in (catalog.get(k).content_dir / "bugs").glob("*.py"))  # the drills (kata bug)


@pytest.mark.parametrize("path", WRONG, ids=lambda p: "/".join(p.parts[-3:]) if p.parent.name == "bugs" else f"{p.parent.name}/{p.stem}")
def test_the_wrong_corpus_is_named_as_it_declares(path):
    """Every name given is the file's own mistake; a file no single variant models gets none."""
    kata = catalog.get(path.read_text().splitlines()[0].removeprefix("# kata: ").strip())
    want = declared_mistake(path)
    if want is not None:
        assert want in {m.key for m in spec_of(kata).MISTAKES}, f"{path.name} declares an unknown mistake {want!r}"
    try:
        entry = load(path, kata)
    except Exception:  # noqa: BLE001 — a file that does not even load (or is refused before running) names nothing
        assert want is None
        return
    for seed in (1, 2):
        named, _ = name_in_process(kata, entry, seed, random_draws=DRAWS)
        assert named == want, f"{path.name}: named {named!r} on seed {seed}, declares {want!r}"


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
        run, results = check_in_process(kata, SqrtDvWithoutItsVariant, seed, random_draws=DRAWS)
        try:
            failing = mistakes.examined_failing(run, results)
            index = mistakes.explain(run, without, failing, mistakes.examined_passing(run, results), set())
        finally:
            run.cleanup()
        assert failing and index is None, f"seed {seed}: named {without[index].key}"


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


# ---------------------------------------------------------------- coverage that does not depend on luck

COVERAGE_SEEDS = range(20)


_NAMED: dict[tuple, list] = {}  # (kata, seed) -> [(named case, its position in the run)]


def _named_cases(spec, seed: int) -> list[tuple[spec_api.Case, int]]:
    """`seed`'s named cases, without its random draws, each with its position among all the run's cases. Each case is
    drawn from a generator of its own (spec.case_seed(seed, name)), so these are the very cases a check of `seed`
    runs. Drawn once per process and never copied: the reference gets a copy of a case's inputs, attempt() a copy
    of its arguments, so nothing writes into them."""
    key = (spec.__name__, seed)
    if key not in _NAMED:
        position = {name: i for i, name in enumerate(spec_api.case_names(spec))}
        named = [case for family in spec.FAMILIES if not family.name.startswith("random")
                 for case in spec_api.build_cases(spec, seed, family.name)]
        _NAMED[key] = [(case, position[case.name]) for case in named]
    return _NAMED[key]


def _named_cases_fail(kata, fn, seed: int) -> str | None:
    """The first named (not random) case of `seed` that `fn` fails, or None."""
    spec = spec_of(kata)
    named = _named_cases(spec, seed)
    run = _Run(kata, spec, [case for case, _ in named], CPU, Path("learner.py"), Limits())
    call, hook = getattr(spec, "call", spec_api.call), getattr(spec, "expected", None)
    try:
        for case, position in named:
            key = (kata.id, seed, case.name)
            if key not in _EXPECTED:
                reset_global_state(case.seed ^ position)
                alternatives = (hook(kata, reference_of(kata), copy.deepcopy(case.inputs), CPU) if hook else
                                [call(kata, reference_of(kata), copy.deepcopy(case.inputs), CPU)])
                _EXPECTED[key] = [mistakes.roundtrip(a) for a in alternatives]
            run.expected[case.name] = _EXPECTED[key]
            outcome, modified = mistakes.attempt(run, fn, case, position)
            if outcome is None or modified or mistakes._wrong(run, case, outcome):
                return case.name
    finally:
        run.cleanup()
    return None


def test_named_cases_are_the_runs_own():
    """_named_cases draws only the named families: the same cases, at the same positions, as the whole run's."""
    for kata_id in ("gae", "mha", "kmeans", "top-p"):
        spec = spec_of(catalog.get(kata_id))
        every = spec_api.build_cases(spec, 5)
        named = _named_cases(spec, 5)
        assert [(c.name, p) for c, p in named] == [(c.name, i) for i, c in enumerate(every)
                                                   if not c.family.name.startswith("random")]
        for case, position in named:
            assert _same(case.inputs.args, every[position].inputs.args), (kata_id, case.name)


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if hasattr(a, "shape") and hasattr(a, "dtype"):  # a numpy array
        import numpy as np

        return np.array_equal(a, b, equal_nan=True)
    return a == b or a != a and b != b


@pytest.mark.parametrize("kata_id", KATAS)
def test_every_known_mistake_fails_a_named_case_on_every_seed(kata_id):
    """Each rule a known mistake breaks is tested by a named family, not left to the random draws."""
    kata = catalog.get(kata_id)
    missed = [(m.key, seed) for m in spec_of(kata).MISTAKES for seed in COVERAGE_SEEDS
              if _named_cases_fail(kata, m.fn, seed) is None]
    assert not missed, f"{kata_id}: passes every named case: {missed[:10]}"


NOTABLE = ["attention/wrong_additive_mask_float16.py", "attention/wrong_additive_1e9.py", "mha/wrong_additive_mask.py",
           "cross_attention/wrong_additive_mask.py", "grpo_advantage/wrong_epsilon_1e9.py",
           "grpo_advantage/wrong_epsilon_in_sqrt.py", "gae/wrong_epsilon_1e9.py", "mc_advantage/wrong_epsilon_1e9.py",
           "gae/wrong_float32_constants.py", "attention/wrong_scaled_by_dv.py",
           "sliding_window_mask/wrong_window_on_new_keys.py", "grpo_loss/wrong_kl_token_mean.py"]


@pytest.mark.parametrize("name", NOTABLE)
def test_what_used_to_pass_on_some_seeds_fails_on_every_seed(name):
    """Files that random draws caught on some seeds only (or never) fail a named case on each of 20 seeds."""
    path = CORPUS / name
    kata = catalog.get(path.read_text().splitlines()[0].removeprefix("# kata: ").strip())
    entry = load(path, kata)
    passed = [seed for seed in COVERAGE_SEEDS if _named_cases_fail(kata, entry, seed) is None]
    assert not passed, f"{name} passes every named case on seeds {passed}"
