"""kmeans and mlp-backprop (classic family, NumPy only): the namer on their corpora and known mistakes, the
safety of their cases (label gaps, exact ties, relu'(0) both ways), k-means' rule that the centroids are a
new array, and the scatter picture a failing k-means case carries (60 columns, both languages).
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest
from rich.cells import cell_len

from checker.text import catalog, i18n
from checker.judge import spec as spec_api
from checker.judge.results import Status
from checker.judge.worker import load_entry



# ---------------------------------------------------------------- the namer


# The namer on both corpora and drills, every variant written out, and every variant caught by a named family on
# 10 seeds: tests/katas/test_mistakes_named.py, whose COVERED holds both katas (it names as the engine does).


def test_a_float_result_has_one_signature_however_it_is_returned():
    """A wrongly shaped item is matched by signatures, the float loss among them: a Python float, a NumPy
    scalar and a 0-dim array are the same float (mlp's bias gradients not reduced, returned beside np.mean)."""
    from checker.judge import codec, mistakes

    def decoded(value):
        buffers: list[bytes] = []
        return codec.decode(codec.encode(value, buffers), buffers)

    forms = [decoded(v) for v in (2.5, np.float32(2.5), np.float64(2.5), np.array(2.5, dtype=np.float32))]
    assert len({mistakes._signature(f) for f in forms}) == 1
    assert mistakes._signature(decoded(np.zeros(3, dtype=np.float32))) != mistakes._signature(forms[0])


def test_an_overflowed_float_result_matches_whether_inf_or_nan():
    """No max shift gives a loss of inf (log of an inf sum) or NaN (log of inf/inf), by the order of
    operations: the namer matches them alike, as it does inside arrays."""
    from checker.judge import codec, mistakes

    buffers: list[bytes] = []
    nan = codec.decode(codec.encode(np.float32("nan"), buffers), buffers)
    outcomes = [mistakes._overflowed((v, 1.0)) for v in (float("inf"), nan, float("-inf"))]
    assert all(o[0] != o[0] and o[1] == 1.0 for o in outcomes)
    assert mistakes._overflowed(2.5) == 2.5


# ---------------------------------------------------------------- kmeans


KMEANS = catalog.get("kmeans")


def _kmeans_spec():
    return importlib.import_module(KMEANS.spec_module)


def test_kmeans_cases_never_leave_a_label_to_rounding():
    """Every assignment of every run keeps its relative gap (ties only where a named case makes them, on
    integers); the slow starts do move by 0.03 or less while labels still change."""
    spec = _kmeans_spec()
    for seed in (1, 2, 3):
        cases = spec_api.build_cases(spec, seed)
        assert len(cases) >= 100
        for case in cases:
            X, C0 = case.inputs.args["X"], case.inputs.args["init_centroids"]
            steps = case.inputs.args.get("max_iter", 100)
            if case.family.name in ("tie_at_start", "tie_three_one_round", "identical_init"):
                continue
            far = abs(float(X[:, 0].mean())) > 10 * float(np.ptp(X[:, 0]))  # slow_start_random moved from the origin
            strict = case.family.name != "slow_start_far_from_origin" and not (case.family.name == "slow_start_random"
                                                                              and far)
            gap = spec.run(X, C0, steps, strict)[2]["gap"]
            assert gap >= spec.GAP[X.dtype.type], (case.name, gap)
        slow = [c for c in cases if c.family.name.startswith("slow_start")]
        for case in slow:
            facts = spec.run(case.inputs.args["X"], case.inputs.args["init_centroids"], 300, strict=False)[2]
            unit = float(np.ptp(case.inputs.args["X"][:, 0])) / 8
            assert min(facts["shifts"][:-1]) <= 0.035 * unit and facts["changed"][-2] > 0, case.name


def test_the_tie_cases_tie_exactly_and_the_lowest_index_wins():
    spec = _kmeans_spec()
    case = spec_api.build_cases(spec, 5, only="tie_at_start")[0]
    X, C0 = case.inputs.args["X"], case.inputs.args["init_centroids"]
    d = ((X[:, None, :] - C0[None]) ** 2).sum(-1)
    tied = d[:, 0] == d[:, 1]
    assert tied.sum() == 2
    reference = load_entry(KMEANS.reference_path, KMEANS.entry, "test_kmlp_kmeans_reference")
    C, labels = reference(X, C0)
    last = next(m.fn for m in spec.MISTAKES if m.key == "ties_to_last")
    C_last, _ = last(X, C0)
    assert not np.allclose(C, C_last)
    twins = spec_api.build_cases(spec, 5, only="identical_init")[0].inputs.args
    C, labels = reference(twins["X"], twins["init_centroids"])
    assert not (labels == 2).any() and np.array_equal(C[2], twins["init_centroids"][2])


def _check(path_text: str, tmp_path, case: str):
    from tests.conftest import run_check

    path = tmp_path / "kmeans.py"
    path.write_text(path_text)
    return run_check(path, "kmeans", seed=3, case=case)


def test_returning_init_centroids_itself_is_said_and_a_copy_passes(tmp_path):
    head = "# kata: kmeans\nimport numpy as np\n\n\ndef kmeans(X, init_centroids, max_iter=100):\n"
    labels = "    labels = np.argmin(((X[:, None] - init_centroids[None]) ** 2).sum(-1), axis=1)\n"
    itself = _check(head + labels + "    return init_centroids, labels\n", tmp_path, "max_iter_0")
    assert itself.status is Status.FAIL
    said = [p.message for c in itself.failures() for p in c.problems]
    assert any("init_centroids itself" in m for m in said), said
    copied = _check(head + labels + "    return init_centroids.copy(), labels\n", tmp_path, "max_iter_0")
    assert copied.status is Status.PASS, copied.message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_scatter_fits_60_columns_and_shows_both_assignments(lang):
    from checker.specs.pictures.scatter import kmeans_scatter

    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(-3, 0.5, (10, 3)), rng.normal(3, 0.5, (10, 3))])
    expected = [0] * 10 + [1] * 10
    got = list(expected)
    got[4] = 1
    with i18n.speaking(lang):
        picture = kmeans_scatter(X.tolist(), expected, got, [[-3, -3, -3], [3, 3, 3]],
                                 [[-2.5, -3, -3], [float("nan")] * 3])
    lines = picture.splitlines()
    assert max(cell_len(line) for line in lines) <= 54, max(lines, key=cell_len)
    panels = [line for line in lines if line.strip().startswith("│")]
    assert len(panels) == 9
    assert all(line.count("│") == 4 for line in panels)
    assert sum(line.count("A") for line in panels) >= 1  # centroid 0 drawn in both panels (the NaN one is not)
    assert "point 4" in picture or "第 4 个点" in picture
    assert "nan" in picture and "✗" in picture


def test_a_failing_kmeans_report_carries_the_scatter_once(tmp_path):
    from checker.app import demo

    mistake = next(m for m in _kmeans_spec().MISTAKES if m.key == "stale_labels")
    result = _check(demo.variant_source(KMEANS, mistake), tmp_path, "max_iter_1")
    assert result.status is Status.FAIL
    [case] = result.failures()
    labels = next(p for p in case.problems if p.item == "labels")
    assert "┌" in labels.message and labels.expected is None and labels.mismatch.first == ()


def test_centroids_rounded_with_np_round_are_not_said_to_be_float32():
    """np.round(centroids, 4) inside the loop leaves differences of 5e-5: a rounding, said as values out of tolerance,
    never as float32 nor with torch's words in a NumPy kata (issue 31)."""
    from tests.conftest import CORPUS, run_check

    result = run_check(CORPUS / "kmeans" / "wrong_rounds_centroids.py", "kmeans", seed=11, name=False)
    said = [p.message for c in result.failures() for p in c.problems]
    assert result.status is Status.FAIL and said
    assert not any("float32" in m or "torch" in m or ".float()" in m for m in said), said
