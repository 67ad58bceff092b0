"""numpy-mha's own rules (shared/KATAS-sequence.md, its row, comparison rule and decision 18), checked on the
reference and the spec directly, not through the sealed checker (the all-kata tests run the corpus and drills)."""
from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import reference_of

reference = reference_of(catalog.get("numpy-mha"))  # loaded by path, never as `reference.*`

KATA = catalog.get("numpy-mha")
SPEC = importlib.import_module(KATA.spec_module)
CASES = spec_api.build_cases(SPEC, 1)
MISTAKE = {m.key + (f"/{m.variant}" if m.variant else ""): m.fn for m in SPEC.MISTAKES}


def _scores(args) -> np.ndarray:
    """The scores before the mask, in float64: [B, H, L, L] ([H, L, L] unbatched)."""
    x = args["x"].astype(np.float64)
    x = x[None] if x.ndim == 2 else x
    B, L, C = x.shape
    H = args["num_heads"]
    d = C // H

    def heads(w, b):
        y = x @ w.astype(np.float64) + (0 if b is None else b.astype(np.float64))
        return y.reshape(B, L, H, d).transpose(0, 2, 1, 3)

    q, k = heads(args["w_q"], args.get("b_q")), heads(args["w_k"], args.get("b_k"))
    return q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)


def test_the_contract_families_are_named_cases():
    names = {c.family.name for c in CASES}
    assert len(CASES) >= 100
    for family in ("biases", "no_biases", "one_head", "head_dim_one", "causal_mask", "padding_mask", "per_head_mask",
                   "one_key_per_query", "one_token", "unbatched", "unbatched_causal", "large_scores",
                   "large_scores_masked", "large_scores_float64", "float64", "long_sequence", "positional_mask_none"):
        assert family in names, family
    assert any(c.inputs.args["x"].ndim == 2 for c in CASES if c.family.name == "random")
    assert len(SPEC.MISTAKES) >= 8


def test_every_query_keeps_a_key_and_masks_are_boolean_and_broadcast():
    shapes = set()
    for case in CASES:
        args, mask = case.inputs.args, case.inputs.args.get("mask")
        if mask is None:
            continue
        assert mask.dtype == np.bool_
        L = args["x"].shape[-2]
        lead = (args["num_heads"],) if args["x"].ndim == 2 else (args["x"].shape[0], args["num_heads"])
        full = np.broadcast_to(mask, lead + (L, L))
        assert full.any(axis=-1).all(), case.name
        shapes.add(mask.ndim if mask.shape[-3:-1] != (1, 1) else "padding")
    assert {2, 3, 4, "padding"} <= shapes


def test_float32_stays_float32_and_np_sqrt_promotes_it():
    """Decision 18: the realistic slip is NumPy 2's promotion by a np.float64 scalar (NEP 50)."""
    x32 = np.ones(3, dtype=np.float32)
    assert (x32 / np.sqrt(4)).dtype == np.float64 and (x32 / math.sqrt(4)).dtype == np.float32
    for case in CASES:
        args = case.inputs.args
        out, attn = reference(**args)
        assert out.dtype == attn.dtype == args["x"].dtype, case.name
        assert out.shape == args["x"].shape and np.isfinite(out).all() and np.isfinite(attn).all(), case.name
        if args["x"].dtype == np.float32:
            assert MISTAKE["float32_upcast"](**args)[0].dtype == np.float64


def test_the_reference_leaves_its_inputs_alone():
    for case in CASES[:30]:
        before = {k: v.copy() for k, v in case.inputs.args.items() if isinstance(v, np.ndarray)}
        reference(**case.inputs.args)
        for k, v in before.items():
            assert np.array_equal(v, case.inputs.args[k]), (case.name, k)


def _close(case, got, want):
    args = case.inputs.args
    rtol, atol = case.inputs.tol or ((1e-4, 1e-5) if args["x"].dtype == np.float32 else (1e-7, 1e-9))
    return all(g.shape == w.shape and g.dtype == w.dtype and np.allclose(g, w, rtol=rtol, atol=atol * max(1.0, np.abs(w).max()))
               for g, w in zip(got, want))


def test_a_finite_fill_and_a_float64_softmax_cast_back_both_pass():
    """-inf and a fill <= -1e9 both pass; so does computing in float64 and casting back (other orders of rounding)."""
    fill = SPEC._mha(fill=-1e9)
    for case in CASES:
        args = case.inputs.args
        want = reference(**args)
        assert _close(case, fill(**args), want), case.name
        wide = {k: (v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype == np.float32 else v)
                for k, v in args.items()}
        cast = tuple(a.astype(args["x"].dtype) for a in reference(**wide))
        assert _close(case, cast, want), case.name


def test_large_score_cases_overflow_a_naive_softmax_and_are_exact():
    """Scores of thousands in float32 (exp overflows past 88) and beyond 709 in float64; integer inputs keep
    every float32 score exact, so no order of operations can miss the tolerance there."""
    for case in CASES:
        if not case.family.name.startswith("large_scores"):
            continue
        args = case.inputs.args
        scores = _scores(args)
        assert np.abs(scores).max() > (800 if args["x"].dtype == np.float64 else 500), case.name
        with np.errstate(all="ignore"):
            naive = MISTAKE["unstable_softmax"](**args)
        assert not np.isfinite(naive[1]).all(), case.name
        if args["x"].dtype == np.float32:
            wide = {k: (v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype == np.float32 else v)
                    for k, v in args.items()}
            assert np.array_equal(_scores(args), _scores(wide))
            assert _close(case, tuple(a.astype(np.float32) for a in reference(**wide)), reference(**args))


@pytest.mark.parametrize("key", sorted(MISTAKE))
def test_every_mistake_fails_some_case(key):
    fn = MISTAKE[key]
    failed = 0
    for case in CASES:
        args = case.inputs.args
        try:
            with np.errstate(all="ignore"):
                got = fn(**args)
        except Exception:  # noqa: BLE001 — the unbatched mistake raises on [L, C]
            failed += 1
            continue
        failed += not _close(case, got, reference(**args))
    assert failed >= 3, key
