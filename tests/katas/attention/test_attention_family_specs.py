"""The attention-family specs: enough cases, reproducible inputs, edge cases that are what they
say, hooks that accept both fully-masked-row conventions and judge dropout without sharing RNG,
and known mistakes that the checker rejects."""
from __future__ import annotations

import math

import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Status
from checker.specs import _attention as A
from tests.conftest import CORPUS, run_check
from tests.spec_support import (  # noqa: F401 — one_thread: an autouse fixture
    cases as _cases,
    family as _family,
    fresh as _fresh,
    one_thread,
    reference_of as _reference,
    roundtrip as _roundtrip,
    spec_of as _spec,
)

KATAS = ("attention", "causal-mask", "offset-causal-mask", "sliding-window-mask", "mha", "cross-attention")
ATTENTION = ("attention", "mha", "cross-attention")
MASKS = ("causal-mask", "offset-causal-mask", "sliding-window-mask")
CPU = torch.device("cpu")


def _judge(kata, spec, case, fn) -> list:
    """The engine's verdict on one case, in process: [] when fn passes, else what went wrong."""
    call = getattr(spec, "call", spec_api.call)
    try:
        got = call(kata, fn, _fresh(case.inputs), CPU, track_device=case.family.track_device)
    except Exception as exc:  # noqa: BLE001 — a variant that raises fails the case
        return [f"raised {type(exc).__name__}: {exc}"]
    reference = _reference(kata)
    hook = getattr(spec, "expected", None)
    alternatives = hook(kata, reference, case.inputs, CPU) if hook else [spec_api.call(kata, reference, case.inputs, CPU)]
    alternatives, got = [_roundtrip(a) for a in alternatives], _roundtrip(got)
    custom = spec.compare(kata, case, alternatives, got) if hasattr(spec, "compare") else None
    if custom is not None:
        return custom
    verdicts = [compare_outcome(kata, spec, case, a, got) for a in alternatives]
    return [] if any(not v for v in verdicts) else verdicts[0]


# ---------------------------------------------------------------- the shape of each spec


@pytest.mark.parametrize("kata_id", KATAS)
def test_the_reference_passes_every_case_in_process(kata_id):
    """The control for the mistakes test below: the same judge passes the reference."""
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    for case in spec_api.build_cases(spec, 3):
        assert _judge(kata, spec, case, _reference(kata)) == [], case.name


@pytest.mark.parametrize("kata_id,index", [(k, i) for k in KATAS for i in range(len(_spec(k).MISTAKES))],
                         ids=lambda v: str(v))
def test_every_known_mistake_fails_its_kata(kata_id, index):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    assert len(spec.MISTAKES) >= 4
    mistake = spec.MISTAKES[index]
    failing = next((c.name for c in _cases(kata_id) if _judge(kata, spec, c, mistake.fn)), None)
    assert failing is not None, f"'{mistake.key}' passes every case of {kata_id}"


def test_a_failing_file_is_told_which_mistake_it_looks_like(tmp_path):
    result = run_check(CORPUS / "mha" / "wrong_merge_no_permute.py", "mha")
    assert result.status is Status.FAIL
    assert any(c.mistake == "heads merged without permuting back" for c in result.failures())


# ---------------------------------------------------------------- edge cases are what they say


def _scores(kata_id, inputs):
    """The pre-mask scores the reference computes for a case, [B, H, Lq, Lk]."""
    if kata_id == "attention":
        q, k = inputs.args["q"].double(), inputs.args["k"].double()
        return q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    P = {k: v.double() for k, v in inputs.params.items()}
    x = inputs.args["x"].double()
    src = inputs.args.get("context", inputs.args["x"]).double()
    B, Lq, C = x.shape
    H = inputs.init["num_heads"]
    q = (x @ P["w_q.weight"].T + P["w_q.bias"]).view(B, Lq, H, C // H).transpose(1, 2)
    k = (src @ P["w_k.weight"].T + P["w_k.bias"]).view(B, src.size(1), H, C // H).transpose(1, 2)
    return q @ k.transpose(-2, -1) / math.sqrt(C // H)


@pytest.mark.parametrize("kata_id", ATTENTION)
def test_fully_masked_families_have_dead_rows_and_no_gradients(kata_id):
    for seed in (1, 2, 3):
        for case in _cases(kata_id, seed):
            mask = case.inputs.args.get("mask")
            dead = A.has_dead_rows(mask)
            if case.family.name.startswith("fully_masked") or case.family.name == "device" and kata_id == "attention":
                assert dead, case.name
            if dead:
                assert case.inputs.probe is None and not case.inputs.grad_of, f"{case.name}: grads depend on the convention"
            if mask is not None:
                assert mask.dtype == torch.bool, case.name


@pytest.mark.parametrize("kata_id", ATTENTION)
def test_large_scores_overflow_a_softmax_without_the_max(kata_id):
    for case in _family(kata_id, "large_scores"):
        assert _scores(kata_id, case.inputs).abs().max() > 100, case.name  # exp(88.7) is float32's limit


def test_very_negative_scores_sit_below_a_fill_of_minus_1e4():
    (case,) = _family("attention", "very_negative_scores")
    assert _scores("attention", case.inputs).max() < -1.5e4
    assert (~case.inputs.args["mask"]).any()


@pytest.mark.parametrize("kata_id,family,check", [
    ("attention", "mask_2d", lambda a: a["mask"].dim() == 2),
    ("attention", "mask_b1", lambda a: a["mask"].shape[1] == 1 and a["mask"].shape[0] == a["q"].shape[0]),
    ("attention", "key_padding", lambda a: a["mask"].shape[1:3] == (1, 1)),
    ("attention", "lq_ne_lk", lambda a: a["q"].shape[2] != a["k"].shape[2]),
    ("attention", "head_dim_one", lambda a: a["q"].shape[-1] == 1),
    ("attention", "seq_len_one", lambda a: a["q"].shape[2] == a["k"].shape[2] == 1),
    ("attention", "float16", lambda a: a["q"].dtype == torch.float16),
    ("attention", "bfloat16", lambda a: a["q"].dtype == torch.bfloat16),
    ("attention", "float64", lambda a: a["q"].dtype == torch.float64),
    ("mha", "causal_mask", lambda a: a["mask"].dim() == 2),
    ("mha", "causal_mask_b1", lambda a: a["mask"].shape[1] == 1 and a["mask"].dim() == 4),
    ("mha", "random_mask", lambda a: a["mask"].shape[1] > 1),
    ("mha", "seq_len_one", lambda a: a["x"].shape[1] == 1),
    ("cross-attention", "lq_gt_lk", lambda a: a["x"].shape[1] > a["context"].shape[1]),
    ("cross-attention", "no_mask", lambda a: a["x"].shape[1] < a["context"].shape[1]),
    ("cross-attention", "mask_2d", lambda a: a["mask"].dim() == 2),
    ("causal-mask", "meta", lambda a: a["device"] == torch.device("meta")),
    ("causal-mask", "device_none", lambda a: a["device"] is None),
    ("offset-causal-mask", "start_pos_zero", lambda a: a["start_pos"] == 0),
    ("offset-causal-mask", "decode_step", lambda a: a["seq_len"] == 1 and a["start_pos"] > 0),
    ("offset-causal-mask", "large_start_pos", lambda a: a["start_pos"] >= 100),
    ("sliding-window-mask", "window_one", lambda a: a["window"] == 1),
    ("sliding-window-mask", "window_longer_than_history", lambda a: a["window"] > a["start_pos"] + a["seq_len"]),
    ("sliding-window-mask", "meta", lambda a: a["device"] == torch.device("meta")),
])
def test_named_family_matches_its_name(kata_id, family, check):
    cases = _family(kata_id, family)
    assert cases, f"{kata_id} has no family {family}"
    assert all(check(c.inputs.args) for c in cases)


@pytest.mark.parametrize("kata_id", ("mha", "cross-attention"))
def test_head_dim_one_and_one_head(kata_id):
    (hd1,) = _family(kata_id, "head_dim_one")
    assert hd1.inputs.init["embed_dim"] == hd1.inputs.init["num_heads"]
    (one,) = _family(kata_id, "one_head")
    assert one.inputs.init["num_heads"] == 1


# ---------------------------------------------------------------- fully-masked rows: two conventions


@pytest.mark.parametrize("kata_id", ATTENTION)
def test_both_conventions_offered_and_nan_never_accepted(kata_id):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    case = _family(kata_id, "fully_masked_rows")[0]
    alternatives = spec.expected(kata, _reference(kata), case.inputs, CPU)
    assert len(alternatives) == 2
    uniform, zero = (a.value[1] for a in alternatives)
    dead = A.dead_rows(case.inputs.args["mask"], uniform).squeeze(-1)
    assert torch.allclose(uniform[dead], torch.full_like(uniform[dead], 1 / uniform.shape[-1]))
    assert torch.equal(zero[dead], torch.zeros_like(zero[dead]))
    assert torch.equal(uniform[~dead], zero[~dead])
    nan = tuple(t.detach().clone() for t in alternatives[0].value)
    nan[1][dead] = float("nan")
    problems = spec.compare(kata, case, [_roundtrip(a) for a in alternatives], _roundtrip(spec_api.Outcome(nan)))
    assert problems is None  # the generic comparison then runs, and NaN fails it
    assert all(compare_outcome(kata, spec, case, _roundtrip(a), _roundtrip(spec_api.Outcome(nan))) for a in alternatives)


# ---------------------------------------------------------------- dropout without shared RNG


class _Dropped(nn.Module):
    """Attention whose train-mode dropout is written by hand, with one switch per way to get it wrong."""

    def __init__(self, dropout_p=0.0, how="right"):
        super().__init__()
        self.p, self.how = dropout_p, how

    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        w = torch.softmax(scores, dim=-1)
        if not self.training:
            return w @ v, w
        keep = torch.rand_like(w) >= (1 - self.p if self.how == "drops 1-p" else self.p)
        dropped = w * keep / (1 if self.how == "unscaled" else 1 - self.p)
        if self.how == "returns pre-dropout":
            return dropped @ v, w
        if self.how == "output from pre-dropout":
            return w @ v, dropped
        return dropped @ v, dropped


def _dropout_problems(case, how, seed):
    kata, spec = catalog.get("attention"), _spec("attention")
    torch.manual_seed(seed)
    return _judge(kata, spec, case, lambda dropout_p=0.0: _Dropped(dropout_p, how))


def test_train_mode_dropout_passes_whatever_the_rng():
    cases = _family("attention", "dropout_train") + _family("attention", "dropout_train_half")
    for seed in range(25):
        for case in cases:
            assert _dropout_problems(case, "right", seed) == [], (case.name, seed)


@pytest.mark.parametrize("how", ["unscaled", "drops 1-p", "returns pre-dropout", "output from pre-dropout"])
def test_train_mode_dropout_mistakes_fail(how):
    (case,) = _family("attention", "dropout_train")[:1]
    assert _dropout_problems(case, how, 0)


def test_dropout_fraction_is_reported():
    (case,) = _family("attention", "dropout_train")[:1]
    problems = _dropout_problems(case, "drops 1-p", 0)
    assert any("dropout zeroed" in p.message for p in problems)


# ---------------------------------------------------------------- dims that do not divide


def test_indivisible_dims_case():
    kata, spec = catalog.get("mha"), _spec("mha")
    (case,) = _family("mha", "indivisible_dims")

    class Unchecked(nn.Module):
        def __init__(self, embed_dim, num_heads):
            super().__init__()

    class WrongError(nn.Module):
        def __init__(self, embed_dim, num_heads):
            super().__init__()
            raise TypeError("bad dims")

    class Stub(nn.Module):
        def __init__(self, embed_dim, num_heads):
            super().__init__()
            raise NotImplementedError

    assert _judge(kata, spec, case, _reference(kata)) == []
    (problem,) = _judge(kata, spec, case, Unchecked)
    assert "must raise AssertionError or ValueError" in problem.message and "returned normally" in problem.message
    (problem,) = _judge(kata, spec, case, WrongError)
    assert "raised TypeError: bad dims" in problem.message
    with pytest.raises(NotImplementedError):
        spec.call(kata, Stub, case.inputs, CPU)


# ---------------------------------------------------------------- low precision


@pytest.mark.parametrize("kata_id,family", [("attention", "float16"), ("attention", "bfloat16"),
                                            ("mha", "float16"), ("cross-attention", "bfloat16")])
def test_low_precision_expected_is_float32_rounded_once(kata_id, family):
    kata, spec = catalog.get(kata_id), _spec(kata_id)
    (case,) = _family(kata_id, family)
    dtype = next(v.dtype for v in case.inputs.args.values() if isinstance(v, torch.Tensor) and v.is_floating_point())
    (expected,) = spec.expected(kata, _reference(kata), case.inputs, CPU)
    assert all(t.dtype == dtype for t in expected.value)
    low = getattr(spec, "call", spec_api.call)(kata, _reference(kata), case.inputs, CPU)  # the reference computed in low precision
    for a, b in zip(expected.value, low.value):
        torch.testing.assert_close(a, b.detach(), rtol=3e-2, atol=3e-2)


# ---------------------------------------------------------------- fully-masked rows whose scores lie far apart


@pytest.mark.parametrize("kata_id,family,dtype,least", [
    ("attention", "fully_masked_float16_large_scores", torch.float16, 150.0),
    ("attention", "fully_masked_large_scores", torch.float32, 1500.0),
    ("mha", "fully_masked_float16", torch.float16, 150.0),
    ("cross-attention", "fully_masked_float16", torch.float16, 150.0),
])
def test_fully_masked_rows_with_far_apart_scores(kata_id, family, dtype, least):
    """On every seed the fully-masked rows' scores span hundreds (float16) or thousands (float32), so
    a mask added to them cannot hide them, while the rows that keep a key see ordinary scores."""
    for seed in range(10):
        (case,) = _family(kata_id, family, seed)
        args = case.inputs.args
        first = args["q"] if kata_id == "attention" else args["x"]
        assert first.dtype == dtype
        scores = _scores(kata_id, case.inputs)  # (B, H, Lq, Lk)
        mask = args["mask"].expand_as(scores)
        dead = ~mask.any(-1)
        assert dead.any() and (~dead).any(), (case.name, seed)
        width = scores.amax(-1) - scores.amin(-1)
        assert width[dead].min() >= least, (case.name, seed, float(width[dead].min()))
        assert scores.masked_fill(~mask, 0)[~dead].abs().max() < 50, (case.name, seed)  # live rows: ordinary scores


@pytest.mark.parametrize("kata_id", ("mha", "cross-attention"))
def test_padding_masks_hide_padded_positions_both_ways(kata_id):
    (case,) = _family(kata_id, "fully_masked_float16")
    mask = case.inputs.args["mask"]  # (B, 1, Lq, Lk)
    assert mask.shape[1] == 1
    live_queries = mask.any(-1)  # (B, 1, Lq)
    assert (~live_queries).any()
    if kata_id == "mha":  # self-attention: a padded query is a padded key too
        assert torch.equal(mask.any(-1), mask.any(-2))
