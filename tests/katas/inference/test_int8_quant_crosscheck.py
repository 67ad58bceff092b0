"""int8-quant's reference against torch.ao, the library the contract follows (test-only: the kata bans it).

torch.ao's `MinMaxObserver` / `PerChannelMinMaxObserver` with qint8 give scale and zero_point
(symmetric: quant_min=-127, quant_max=127, `per_tensor_symmetric` / `per_channel_symmetric`; asymmetric:
[-128, 127], `per_tensor_affine` / `per_channel_affine`), then `quantize_per_tensor` /
`quantize_per_channel` + `int_repr()` give q. Run on every float32 case of every family on two seeds
(torch's quantised kernels take float32 only, so the float64 cases are left out), and judged two ways:
torch's answer must pass the kata's own comparison rule against the reference; and the raw differences
are measured and bounded. By design torch.ao differs in one place: an all-zero slice gets scale
finfo(float32).eps = 1.19e-07, the contract's reference 1.0 (any positive finite scale is accepted).

Figures measured on this machine (torch 2.13 CPU), seeds 1 and 77, 177 float32 cases (21,665 elements, 555 slices):

| check | result |
|---|---|
| torch's (q, scale, zero_point) accepted by the kata's comparison rule | 177 / 177 cases |
| q identical, element by element | 21,665 / 21,665 (the tie cases' exact .5 values included: torch rounds half to even too) |
| scale, max relative difference (all-zero slices left out) | 0.0 |
| zero_point identical | 555 / 555 slices |
| all-zero slices: torch's scale | 1.1920929e-07 (reference: 1.0) |
"""
from __future__ import annotations

import importlib
import warnings

import pytest
import torch

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip
from checker.judge.spec import Outcome
from checker.judge.worker import load_entry

ao = pytest.importorskip("torch.ao.quantization.observer", reason="torch.ao's observers are not available")

SEEDS = (1, 77)
KATA = catalog.get("int8-quant")
SPEC = importlib.import_module(KATA.spec_module)


def _torch_ao(x: torch.Tensor, dim: int | None, symmetric: bool):
    qmin = -127 if symmetric else -128
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao's observers warn that they are being migrated
        if dim is None:
            scheme = torch.per_tensor_symmetric if symmetric else torch.per_tensor_affine
            observer = ao.MinMaxObserver(dtype=torch.qint8, qscheme=scheme, quant_min=qmin, quant_max=127)
            observer(x)
            scale, zero_point = observer.calculate_qparams()
            q = torch.quantize_per_tensor(x, float(scale), int(zero_point), torch.qint8).int_repr()
            return q, scale.reshape(()), zero_point.reshape(()).long()
        scheme = torch.per_channel_symmetric if symmetric else torch.per_channel_affine
        observer = ao.PerChannelMinMaxObserver(ch_axis=dim, dtype=torch.qint8, qscheme=scheme, quant_min=qmin,
                                               quant_max=127)
        observer(x)
        scale, zero_point = observer.calculate_qparams()
        q = torch.quantize_per_channel(x, scale.double(), zero_point.long(), dim, torch.qint8).int_repr()
        return q, scale, zero_point.long()


def _cases():
    return [case for seed in SEEDS for case in spec_api.build_cases(SPEC, seed)
            if case.inputs.args["x"].dtype == torch.float32]


def test_torch_ao_agrees_with_the_reference():
    reference = load_entry(KATA.reference_path, KATA.entry, "crosscheck_int8_quant")
    cases = _cases()
    assert len(cases) >= 150
    elements = same_q = slices = same_zp = 0
    worst_scale = 0.0
    zero_scales = set()
    for case in cases:
        x = case.inputs.args["x"]
        dim = case.inputs.args.get("dim")
        dim = None if dim is None else dim % x.dim()
        symmetric = case.inputs.args.get("symmetric", True)
        want = reference(x.clone(), dim, symmetric)
        got = _torch_ao(x.clone(), dim, symmetric)
        problems = SPEC.compare(KATA, case, [roundtrip(Outcome(want))], roundtrip(Outcome(got)))
        assert not problems, f"{case.name}: torch.ao's answer fails the kata's rule: {[p.message for p in problems]}"
        q_ref, s_ref, z_ref = want
        q_ao, s_ao, z_ao = got
        elements += q_ref.numel()
        same_q += int((q_ref == q_ao).sum())
        others = tuple(d for d in range(x.dim()) if d != dim)
        zero = (x == 0).all(dim=others).reshape(-1) if dim is not None else (x == 0).all().reshape(1)
        s_ref, s_ao = s_ref.reshape(-1).double(), s_ao.reshape(-1).double()
        zero_scales |= set(s_ao[zero].tolist())
        if (~zero).any():
            worst_scale = max(worst_scale, float(((s_ao - s_ref).abs() / s_ref)[~zero].max()))
        slices += z_ref.numel()
        same_zp += int((z_ref.reshape(-1) == z_ao.reshape(-1)).sum())
    print(f"\n{len(cases)} cases; q identical {same_q}/{elements}; scale max rel {worst_scale:.2g}; "
          f"zero_point identical {same_zp}/{slices}; all-zero scales {sorted(zero_scales)}")
    assert same_q == elements  # measured: every element alike (see the table)
    assert worst_scale <= 1e-6
    assert same_zp == slices
    assert zero_scales <= {torch.finfo(torch.float32).eps}
