"""sample-token and sinusoidal-pe (inference family): the χ² rule (checker/specs/_stats.py), the generator stand-in
of the simulated GPU (checker/judge/devices.py), the namer's `matches` hook for random answers, and both
katas' mistakes named as themselves (written out, in the wrong corpus and in the drills)."""
from __future__ import annotations

import importlib
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from rich.cells import cell_len

from checker.text import catalog, i18n
from checker.specs import _stats as stats
from checker.judge import spec as spec_api
from checker.judge.devices import DeviceProblem, Simulation, VirtualGenerator
from checker.judge.results import Status
from tests.conftest import CORPUS
from tests.namer import load, name_in_process

SAMPLE = catalog.get("sample-token")
PE = catalog.get("sinusoidal-pe")


def spec_of(kata):
    return importlib.import_module(kata.spec_module)


# ---------------------------------------------------------------- the χ² rule


def test_chi2_survival_function_matches_closed_forms():
    for x in (0.1, 1.0, 3.0, 20.0, 80.0):
        assert stats.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)  # df 2: exp(-x/2)
        assert stats.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)  # df 1: erfc
    assert stats.chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert stats.chi2_sf(0.0, 5) == 1.0 and stats.chi2_sf(7.0, 0) == 1.0


def test_pooling_rule():
    # bins expecting >= 5 are cells; the small ones pool; a pool expecting < 5 joins the smallest big cell
    e = np.array([50.0, 20.0, 6.0, 1.0, 2.0, 0.0])
    cells = stats.cells(e)
    assert sorted(map(sorted, (c.tolist() for c in cells))) == [[0], [1], [2, 3, 4]]
    e = np.array([50.0, 20.0, 3.0, 3.0])  # the pool expects 6: a cell of its own
    assert sorted(map(sorted, (c.tolist() for c in stats.cells(e)))) == [[0], [1], [2, 3]]
    e = np.array([0.5] * 8)  # nothing expects 5: one cell
    assert len(stats.cells(e)) == 1


def test_goodness_of_fit_passes_the_truth_and_fails_a_shifted_distribution():
    probs = np.array([0.5, 0.3, 0.15, 0.05])
    exact = np.array([1500, 900, 450, 150])
    assert stats.goodness_of_fit(exact, probs).p == pytest.approx(1.0)
    shifted = np.array([1200, 1200, 450, 150])
    test = stats.goodness_of_fit(shifted, probs)
    assert not test.passed and test.p < 1e-6 and test.df == 3


def test_a_single_cell_passes_unless_a_token_of_probability_zero_was_drawn():
    probs = np.array([1.0, 0.0, 0.0])
    assert stats.goodness_of_fit(np.array([3000, 0, 0]), probs).passed
    drawn = stats.goodness_of_fit(np.array([2999, 0, 1]), probs)
    assert not drawn.passed and drawn.impossible == 1 and drawn.impossible_token == 2


def test_one_legitimate_rare_draw_is_not_a_failure():
    """A pool expecting 0.01 draws, alone, would make one legitimate draw look like p < 1e-6."""
    probs = np.array([0.6, 0.4 - 3e-6, 1e-6, 1e-6, 1e-6])
    counts = np.array([1800, 1199, 1, 0, 0])
    assert stats.goodness_of_fit(counts, probs).passed


def test_false_failures_are_rare_and_p_values_uniform():
    """300 × 3000 torch.multinomial draws of one row: no p below 1e-6 and p-values near uniform."""
    g = torch.Generator().manual_seed(5)
    probs = torch.softmax(torch.randn(30, generator=g, dtype=torch.float64) * 1.5, dim=0)
    draws = torch.multinomial(probs.float().expand(300, 30), 3000, replacement=True, generator=g)
    p = np.array([stats.goodness_of_fit(np.bincount(d.numpy(), minlength=30), probs.numpy()).p for d in draws])
    assert p.min() > 1e-6
    assert 0.4 < float(np.mean(p < 0.5)) < 0.6 and abs(float(np.mean(p < 0.1)) - 0.1) < 0.06


def test_homogeneity_tells_one_distribution_from_two():
    g = torch.Generator().manual_seed(3)
    p = torch.tensor([0.5, 0.3, 0.2])
    q = torch.tensor([0.3, 0.5, 0.2])
    a = np.bincount(torch.multinomial(p, 3000, True, generator=g).numpy(), minlength=3)
    b = np.bincount(torch.multinomial(p, 3000, True, generator=g).numpy(), minlength=3)
    c = np.bincount(torch.multinomial(q, 3000, True, generator=g).numpy(), minlength=3)
    assert stats.homogeneity(a, b).p >= stats.ALPHA
    assert stats.homogeneity(a, c).p < stats.ALPHA


# ---------------------------------------------------------------- generators on the simulated GPU


def test_a_generator_on_the_simulated_gpu_draws_where_it_lives():
    x = torch.randn(3, 5)
    with Simulation("cuda", {"logits": x}) as sim:
        logits = sim.place(x)
        g = sim.generator(7)
        assert isinstance(g, VirtualGenerator) and g.device.type == "cuda"
        assert torch.rand(3, device=logits.device, generator=g).device.type == "cuda"
        assert torch.rand_like(logits, generator=g).device.type == "cuda"
        assert torch.empty_like(logits).exponential_(generator=g).device.type == "cuda"
        assert torch.multinomial(torch.softmax(logits, -1), 1, generator=g).device.type == "cuda"
        with pytest.raises(DeviceProblem, match="Expected a 'cpu' device type for generator but found 'cuda'"):
            torch.rand(3, generator=g)  # no device=: CPU numbers from a CUDA generator
        with pytest.raises(DeviceProblem, match="generator"):
            torch.multinomial(torch.softmax(logits, -1).cpu(), 1, generator=g)
        with pytest.raises(DeviceProblem, match="Expected a 'cuda' device type for generator but found 'cpu'"):
            torch.rand(3, device=logits.device, generator=torch.Generator())
        assert torch.rand(3, generator=torch.Generator()).device.type == "cpu"  # CPU with CPU: fine


def test_the_stand_in_draws_the_cpu_generators_numbers():
    with Simulation("cuda", {}) as sim:
        a = torch.rand(5, device="cuda", generator=sim.generator(11))
    b = torch.rand(5, generator=torch.Generator().manual_seed(11))
    assert torch.equal(a.as_subclass(torch.Tensor), b)


# ---------------------------------------------------------------- sample-token's rule and the namer's hook


def _stat_case(name="temperature_0_7", seed=1):
    return next(c for c in spec_api.build_cases(spec_of(SAMPLE), seed) if c.name == name)


def _outcome(fn, case):
    from checker.judge import mistakes

    return mistakes.roundtrip(spec_of(SAMPLE).call(SAMPLE, fn, case.inputs, torch.device("cpu")))


def test_the_rule_accepts_every_right_sampler_and_rejects_a_wrong_one():
    spec = spec_of(SAMPLE)
    case = _stat_case()
    expected = [_outcome_expected(case)]
    shipped = sorted((SAMPLE.content_dir / "solutions").glob("*.py"))  # `kata solutions` shows these
    for path in sorted((CORPUS / "sample_token").glob("right_*.py")) + shipped:
        got = _outcome(load(path, SAMPLE), case)
        assert spec.compare(SAMPLE, case, expected, got) == [], path.name
    problems = spec.compare(SAMPLE, case, expected, _outcome(spec.temperature_multiplied, case))
    assert problems and problems[0].kind == "rule" and "χ²" in problems[0].message


def _outcome_expected(case):
    from checker.judge import mistakes

    spec = spec_of(SAMPLE)
    return mistakes.roundtrip(spec.expected(SAMPLE, None, case.inputs, torch.device("cpu"))[0])


def test_matches_judges_draws_by_their_distribution():
    """Gumbel-max and multinomial draw different tokens from one distribution: the same function."""
    spec = spec_of(SAMPLE)
    case = _stat_case()
    expected = [_outcome_expected(case)]
    gumbel = _outcome(load(CORPUS / "sample_token" / "right_gumbel.py", SAMPLE), case)
    multinomial = _outcome(load(CORPUS / "sample_token" / "right_multinomial.py", SAMPLE), case)
    assert not torch.equal(gumbel.value.data, multinomial.value.data)
    assert spec.matches(SAMPLE, case, expected, gumbel, multinomial) is True
    assert spec.matches(SAMPLE, case, expected, _outcome(spec.temperature_multiplied, case), multinomial) is False
    one = _outcome(spec.one_uniform, case)
    shared_noise = _outcome(spec.one_gumbel_vector, case)
    assert spec.matches(SAMPLE, case, expected, one, shared_noise) is True  # each row repeats one token
    assert spec.matches(SAMPLE, case, expected, one, multinomial) is False


def test_a_mistake_written_in_another_algorithm_is_still_named(tmp_path):
    """The variant samples with torch.multinomial; this file with Gumbel-max, temperature multiplied."""
    source = (CORPUS / "sample_token" / "right_gumbel.py").read_text().replace(
        "z = logits.to(torch.float32) / temperature", "z = logits.to(torch.float32) * temperature")
    path = tmp_path / "gumbel_multiplied.py"
    path.write_text(source)
    named, results = name_in_process(SAMPLE, load(path, SAMPLE), 1, random_draws=4)
    assert any(r.status is Status.FAIL for r in results)
    assert named == "temperature_multiplied"


def test_the_frequency_picture_fits_60_columns_in_both_languages():
    spec = spec_of(SAMPLE)
    case = _stat_case("vocab_4096")
    expected = [_outcome_expected(case)]
    got = _outcome(spec.gumbel_sign, case)
    for lang in ("en", "zh"):
        with i18n.speaking(lang):
            problems = spec.compare(SAMPLE, case, expected, got)
        lines = problems[0].message.split("\n")
        picture = lines[2:]
        assert len(picture) >= 3 and all(cell_len(line) <= 60 for line in picture), picture
        assert ("rest" if lang == "en" else "其余") in lines[-1]


def test_reproducibility_cases_catch_the_global_rng():
    spec = spec_of(SAMPLE)
    for name in ("same_seed_same_tokens", "different_seeds_differ"):
        case = _stat_case(name)
        expected = [_outcome(load(SAMPLE.reference_path, SAMPLE), case)]
        assert spec.compare(SAMPLE, case, expected, expected[0]) == []
        assert spec.compare(SAMPLE, case, expected, _outcome(spec.global_rng_categorical, case))


# ---------------------------------------------------------------- sinusoidal-pe


def test_sinusoidal_tolerance_grows_with_the_position():
    spec = spec_of(PE)
    case = next(c for c in spec_api.build_cases(spec, 1) if c.name == "start_pos_3000")
    rtol, atol = spec.tolerance_for(case, "pe", torch.float32, None)
    assert rtol == 1e-4 and atol == pytest.approx(1e-5 + 1e-6 * 3008)


def test_the_textbook_float32_code_passes_far_out_and_half_angles_do_not():
    spec = spec_of(PE)
    cases = {c.name: c for c in spec_api.build_cases(spec, 1)}
    textbook = load(CORPUS / "sinusoidal_pe" / "right_annotated_transformer.py", PE)
    from checker.judge import mistakes

    for name in ("start_pos_3000", "start_pos_4000_one_row", "table_2048_by_512", "float16_at_600"):
        case = cases[name]
        expected = [mistakes.roundtrip(spec_api.call(PE, load(PE.reference_path, PE), case.inputs, torch.device("cpu")))]
        got = mistakes.roundtrip(spec_api.call(PE, textbook, case.inputs, torch.device("cpu")))
        from checker.judge.compare import compare_outcome

        assert compare_outcome(PE, spec, case, expected[0], got) == [], name
    case = cases["float16_at_600"]
    expected = mistakes.roundtrip(spec_api.call(PE, load(PE.reference_path, PE), case.inputs, torch.device("cpu")))
    got = mistakes.roundtrip(spec_api.call(PE, spec.half_angles, case.inputs, torch.device("cpu")))
    from checker.judge.compare import compare_outcome

    assert compare_outcome(PE, spec, case, expected, got)


def test_odd_d_model_must_raise():
    reference = load(PE.reference_path, PE)
    with pytest.raises(ValueError):
        reference(4, 7)
