"""The namer on the transformer katas (issue 18): crash evidence (a file written for another layout crashes on
some cases and is named from the rest, never from crashes alone), variants sharing a key, the precision diagnosis
said plainly when a mistake explains the gap, and a module's input passed by position. That every wrong file of
theirs is named as it declares is tests/katas/test_mistakes_named.py, with the same in-process namer
(tests/namer.py: a case whose code raised is kept as an ERROR with its exception, as the engine keeps it).
"""
from __future__ import annotations

import re

import pytest
import torch

from checker.judge import spec as spec_api
from checker.judge.results import Status
from checker.text import catalog
from tests.conftest import CORPUS, run_check
from tests.namer import judge_in_process, load, name_in_process, spec_of


def named(kata, entry, seed: int, variants=None) -> str | None:
    return name_in_process(kata, entry, seed, variants=variants)[0]


# ---------------------------------------------------------------- crashes as evidence


def test_a_layout_that_crashes_on_some_cases_is_named_from_the_rest():
    """rmsnorm over the last two dims raises on a 1-D x and is wrong elsewhere: named; the same file is
    named nothing when the only variant offered answers where the file raised."""
    kata = catalog.get("rmsnorm")
    entry = load(CORPUS / "rmsnorm" / "wrong_last_two_dims.py", kata)
    run, results = judge_in_process(kata, entry, 1, random_draws=12)
    assert any(r.status is Status.ERROR for r in results) and any(r.status is Status.FAIL for r in results)
    assert named(kata, entry, 1) == "stats_over_last_two_dims"

    from checker.specs import rmsnorm

    class Flattened(rmsnorm._RMSNorm):  # the same statistic, but a 1-D x is read as one slab: it never raises
        def forward(self, x):
            h = x if x.dim() > 1 else x[None]
            ms = h.pow(2).mean((-2, -1), keepdim=True)
            return (h * torch.rsqrt(ms + self.eps) * self.weight).reshape(x.shape)

    assert named(kata, entry, 1, variants=[spec_api.Mistake("stats_over_last_two_dims", Flattened)]) is None


def test_a_file_that_only_crashes_is_never_named():
    kata = catalog.get("kv-cache")
    entry = load(CORPUS / "kv_cache" / "wrong_cat_heads_dim.py", kata)
    run, results = judge_in_process(kata, entry, 1, random_draws=12)
    assert not any(r.status is Status.FAIL for r in results) and any(r.status is Status.ERROR for r in results)
    assert named(kata, entry, 1) is None


def test_the_real_engine_names_a_crashing_layout(tmp_path):
    result = run_check(CORPUS / "batchnorm" / "wrong_channels_last_3d.py", "batchnorm", seed=3)
    label = catalog.get("batchnorm").text("en").mistakes["channels_last_3d"].label
    assert {c.mistake for c in result.failures() if c.mistake} == {label}
    assert any(c.status is Status.ERROR and c.mistake == label for c in result.failures())


# ---------------------------------------------------------------- variants sharing a key


def test_interleaved_pairs_with_start_pos_ignored_name_the_pairing():
    kata = catalog.get("rope")
    entry = load(CORPUS / "rope" / "wrong_llama_polar_no_offset.py", kata)
    assert named(kata, entry, 1) == "interleaved_pairing"
    offset_only = [m for m in spec_of(kata).MISTAKES if m.key == "offset_ignored"]
    assert named(kata, entry, 1, variants=offset_only) is None  # the offset alone does not explain it


# ---------------------------------------------------------------- the precision diagnosis


def test_layernorm_without_eps_is_not_told_it_runs_in_float32(tmp_path):
    path = tmp_path / "layernorm.py"
    path.write_text((CORPUS / "layernorm" / "wrong_no_eps.py").read_text())
    result = run_check(path, "layernorm", seed=1)
    label = catalog.get("layernorm").text("en").mistakes["eps_missing"].label
    assert {c.mistake for c in result.failures() if c.mistake} == {label}
    float64 = [c for c in result.failures() if c.name in ("float64", "short_rows_float64")]
    assert float64, [c.name for c in result.failures()]
    for case in result.failures():
        assert all(p.kind != "precision" and "float32" not in p.message for p in case.problems), (case.name, case.problems)


def test_a_float32_step_is_still_told_so():
    """The diagnosis itself stays: a float64 LayerNorm computed in float32 is said as rounding."""
    result = run_check(CORPUS / "layernorm" / "wrong_always_float32.py", "layernorm", seed=1)
    assert not any(c.mistake for c in result.failures())  # no variant is this file: nothing explains the gap
    assert any(p.kind == "precision" and "float32" in p.message for c in result.failures() for p in c.problems)


# ---------------------------------------------------------------- a module's input by position


@pytest.mark.parametrize("kata_id,file", [("layernorm", "right_var_mean_rsqrt.py"), ("rmsnorm", "right_llama.py"),
                                          ("swiglu", "right_silu_functional.py"), ("gqa", "right_head_loop.py"),
                                          ("kv-cache", "right_cat_tril_offset.py"), ("batchnorm", "right_var_mean.py")])
def test_forward_under_a_library_name_passes(kata_id, file, tmp_path):
    """forward(self, hidden_states), as copied from a library: the input goes in by position."""
    source = (CORPUS / catalog.get(kata_id).module / file).read_text()
    renamed, n = re.subn(r"def forward\(self, x\b", "def forward(self, hidden_states", source)
    assert n == 1
    renamed = renamed.replace("def forward(self, hidden_states", "def forward(self, hidden_states", 1)
    body_start = renamed.index("def forward(self, hidden_states")
    renamed = renamed[:body_start] + renamed[body_start:].replace("):", "):\n        x = hidden_states", 1)
    path = tmp_path / f"{catalog.get(kata_id).module}.py"
    path.write_text(renamed)
    result = run_check(path, kata_id, seed=2)
    assert result.status is Status.PASS, [(c.name, c.error or c.problems) for c in result.failures()][:3]


# ---------------------------------------------------------------- fully-masked rows in every dtype


@pytest.mark.parametrize("kata_id", ["attention", "mha", "cross-attention", "gqa"])
def test_every_masked_attention_kata_has_fully_masked_rows_in_each_dtype(kata_id):
    spec = spec_of(catalog.get(kata_id))
    dtypes = set()
    for case in spec_api.build_cases(spec, 1):
        mask = case.inputs.args.get("mask")
        if isinstance(mask, torch.Tensor) and mask.dtype == torch.bool and not case.family.name.startswith("random"):
            rows = mask.any(-1)
            if not bool(rows.all()):
                dtypes.add(next(v.dtype for k, v in case.inputs.args.items() if isinstance(v, torch.Tensor) and v.is_floating_point()))
    assert {torch.float32, torch.float64, torch.float16} <= dtypes, dtypes


def test_gqa_minus_inf_is_named_in_float64_too():
    kata = catalog.get("gqa")
    entry = load(CORPUS / "gqa" / "wrong_minus_inf_masked_fill.py", kata)
    run, results = judge_in_process(kata, entry, 1, random_draws=12)
    assert any(r.name == "fully_masked_rows_float64" and r.status is Status.FAIL for r in results)


# ---------------------------------------------------------------- a half-precision crash gets a hint


def test_a_half_precision_dtype_clash_gets_a_hint():
    from checker.judge.worker import describe_error

    try:
        torch.ones(2, 2, dtype=torch.float16) @ torch.ones(2, 2)
    except RuntimeError as exc:
        said = describe_error(exc, None)["message"]
    assert "dtype=x.dtype" in said and ".to(x.dtype)" in said
