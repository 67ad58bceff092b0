"""Case families for `sinusoidal-pe`: d = 2 up to 512, start_pos from 0 to 4000, bases 50 to 500000,
a 2048 × 512 table, float64 (also far out), float16 and bfloat16 at positions 300–616 (where angles
computed in half precision are visibly wrong), seq_len 1 and 0, every keyword, odd d_model (raises),
and the device: `device=` (the run device, as if on a GPU) and None (the default device).

A factory like causal-mask: the device argument is the run device (RUN_DEVICE). The reference
computes the angles in float64; the textbook float32 code, exp(arange(0, d, 2) · −ln(base)/d), is
≤ 7.8e-8 · (p + 1) off (KATAS-inference.md, decision 7), so the atol grows by 1e-6 per position.
"""
from __future__ import annotations

import math

import torch

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._training import pick, randint, single_threaded

PER_POSITION = 1e-6  # atol added per position: start_pos + seq_len
_OMIT = object()


def _case(seq_len: int, d_model: int, start_pos=_OMIT, base=_OMIT, dtype=_OMIT, device=RUN_DEVICE):
    """Arguments left out (_OMIT) take their defaults; device None is the default device."""
    def make(g: torch.Generator) -> Inputs:
        args = {"seq_len": seq_len, "d_model": d_model}
        for name, value in (("start_pos", start_pos), ("base", base), ("device", device), ("dtype", dtype)):
            if value is not _OMIT:
                args[name] = value
        show = {"d_model": d_model}
        raises = "ValueError|AssertionError" if d_model % 2 else None
        return Inputs(args=args, show=show, raises=raises)
    return make


def _every_keyword(g: torch.Generator) -> Inputs:
    return _case(9, 12, start_pos=5, base=1000.0, dtype=torch.float64, device=RUN_DEVICE)(g)


def _random(g: torch.Generator) -> Inputs:
    d = 2 * randint(g, 1, 64)
    L = randint(g, 0, 48)
    start = pick(g, [0, 0, randint(g, 1, 50), randint(g, 100, 2000)])
    base = pick(g, [10000.0, 10000.0, 100.0, 500000.0, 10.0 ** (1 + 5 * float(torch.rand((), generator=g)))])
    dtype = pick(g, [torch.float32, torch.float32, torch.float64])
    return _case(L, d, start_pos=start, base=base, dtype=dtype, device=pick(g, [RUN_DEVICE, RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("defaults", _case(10, 16, device=_OMIT)),
    Family("d_model_2", _case(12, 2)),
    Family("d_model_16", _case(20, 16)),
    Family("d_model_64", _case(33, 64)),
    Family("d_model_512", _case(16, 512)),
    Family("start_pos_7", _case(8, 32, start_pos=7)),
    Family("start_pos_100", _case(16, 32, start_pos=100)),
    Family("start_pos_1000", _case(16, 64, start_pos=1000)),
    Family("start_pos_3000", _case(8, 128, start_pos=3000)),
    Family("start_pos_4000_one_row", _case(1, 64, start_pos=4000)),
    Family("base_50", _case(16, 16, base=50.0)),
    Family("base_100", _case(16, 32, base=100.0, start_pos=3)),
    Family("base_500000", _case(16, 64, base=500000.0, start_pos=200)),
    Family("table_2048_by_512", _case(2048, 512)),
    Family("float64", _case(24, 64, dtype=torch.float64)),
    Family("float64_far", _case(16, 64, start_pos=3000, dtype=torch.float64)),
    Family("float16_at_600", _case(16, 64, start_pos=600, dtype=torch.float16)),
    Family("bfloat16_at_300", _case(16, 64, start_pos=300, dtype=torch.bfloat16)),
    Family("seq_len_one", _case(1, 16)),
    Family("seq_len_zero", _case(0, 16)),
    Family("every_keyword", _every_keyword),
    Family("odd_d_model_7", _case(4, 7)),
    Family("odd_d_model_1", _case(4, 1)),
    Family("device_none", _case(10, 16, device=None)),
    Family("device", _case(10, 16, start_pos=4), track_device=True),
    Family("device_defaults", _case(10, 16, device=_OMIT), track_device=True),
    Family("random", _random, draws=80),
)
FAMILIES = single_threaded(FAMILIES)


# `kata check sinusoidal-pe --bench`: a table for a long context.
BENCH = ("seq_len 8192, d_model 1024", lambda g: Inputs(args={"seq_len": 8192, "d_model": 1024, "device": RUN_DEVICE}))


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype, expected) -> tuple[float, float] | None:
    """The dtype's rtol; its atol + 1e-6 · (start_pos + seq_len): float32 angles lose ~1e-7 per position."""
    rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    span = case.inputs.args.get("start_pos", 0) + case.inputs.args["seq_len"]
    return rtol, atol + PER_POSITION * span


HALF_ANGLE_ERROR = 0.5  # two ways of computing the angles in half precision differ by up to 2 × 0.25 at 600


def matches(kata, case, expected, variant, got) -> bool | None:
    """For the namer: on the half-precision cases two answers that both computed their angles in half
    precision are one mistake, however each rounded (base ** x or exp, the product's order): they agree
    to HALF_ANGLE_ERROR, not to the dtype's tolerance. Everywhere else the generic rule (None)."""
    dtype = case.inputs.args.get("dtype")
    if dtype not in (torch.float16, torch.bfloat16):
        return None
    a, b = variant.value, got.value
    if not isinstance(a, TensorValue) or not isinstance(b, TensorValue) or a.data is None or b.data is None:
        return None
    if (a.shape, a.dtype, a.device.split(":")[0]) != (b.shape, b.dtype, b.device.split(":")[0]):
        return False
    return bool(((a.data.double() - b.data.double()).abs() <= HALF_ANGLE_ERROR).all())


# ---------------------------------------------------------------- known mistakes
# Each variant is the textbook code with one switch thrown (kata demo writes them out).


def _table(seq_len, d_model, start_pos, base, device, dtype, *, swap=False, halves=False, exponent_i=False,
           odd_own_frequency=False, from_one=False, ignore_start=False, ignore_base=False, log2=False,
           batch_dim=False, ignore_dtype=False, accept_odd=False, half_angles=False):
    if d_model % 2 and not accept_odd:
        raise ValueError(f"d_model must be even, got {d_model}")
    work = dtype if half_angles and dtype in (torch.float16, torch.bfloat16) else torch.float64
    first = 0 if ignore_start else start_pos
    first += 1 if from_one else 0
    position = torch.arange(first, first + seq_len, dtype=work)[:, None]  # (L, 1)
    b = 10000.0 if ignore_base else base
    log = math.log2 if log2 else math.log
    half = (d_model + 1) // 2
    k = torch.arange(half, dtype=work) * (1 if exponent_i else 2)  # 2i (or i)
    inv_freq = torch.exp(k * (-log(b) / d_model))  # (d/2,)
    angle = position * inv_freq  # (L, d/2)
    if halves:
        pe = torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)[:, :d_model]
    else:
        pe = torch.zeros(seq_len, 2 * half, dtype=work)
        cos_angle = position * torch.exp((k + 1) * (-log(b) / d_model)) if odd_own_frequency else angle
        pe[:, 0::2] = torch.cos(angle) if swap else torch.sin(angle)
        pe[:, 1::2] = torch.sin(cos_angle) if swap else torch.cos(cos_angle)
        pe = pe[:, :d_model]
    pe = pe.to(device=device, dtype=torch.float32 if ignore_dtype else dtype)
    return pe[None] if batch_dim else pe


def sin_cos_swapped(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, swap=True)


def concatenated_halves(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, halves=True)


def exponent_i_over_d(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, exponent_i=True)


def odd_columns_own_frequency(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, odd_own_frequency=True)


def positions_from_one(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, from_one=True)


def start_pos_ignored(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, ignore_start=True)


def base_ignored(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, ignore_base=True)


def log2_not_ln(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, log2=True)


def batch_dim(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, batch_dim=True)


def dtype_ignored(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, ignore_dtype=True)


def odd_d_accepted(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, accept_odd=True)


def half_angles(seq_len, d_model, start_pos=0, base=10000.0, device=None, dtype=torch.float32):
    return _table(seq_len, d_model, start_pos, base, device, dtype, half_angles=True)


MISTAKES = (
    Mistake("sin_cos_swapped", sin_cos_swapped),
    Mistake("concatenated_halves", concatenated_halves),
    Mistake("exponent_i_over_d", exponent_i_over_d),
    Mistake("odd_columns_own_frequency", odd_columns_own_frequency),
    Mistake("positions_from_one", positions_from_one),
    Mistake("start_pos_ignored", start_pos_ignored),
    Mistake("base_ignored", base_ignored),
    Mistake("log2_not_ln", log2_not_ln),
    Mistake("batch_dim", batch_dim),
    Mistake("dtype_ignored", dtype_ignored),
    Mistake("odd_d_accepted", odd_d_accepted),
    Mistake("half_angles", half_angles),
)
