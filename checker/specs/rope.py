"""Case families for `rope`: positions far out (the tolerance grows with them), small and large
bases, every head_dim from 2 to 128, batches and heads the rotation must ignore, a non-contiguous
view, half precision at positions where half-precision angles break, positional / keyword /
default calls, and the gradient."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import torch

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import pick, randint, randn

# float32 angles are off by about 4e-8 · position (Hugging Face's, and every interview answer's):
# the atol grows by this much per position, times max(1, max|x|). Half-precision angles are off
# by far more at the positions the half cases use (tens of radians at 600 in float16).
PER_POSITION = 2.5e-7
ORDER = ("x", "start_pos", "base")  # the signature, for positional calls


def _case(B=2, H=3, L=8, D=16, start_pos=0, base=10000.0, *, dtype=torch.float32, grads=True,
          layout="contiguous", call="keyword", scale=1.0):
    """layout "view": x is q.view(B, L, H, D).transpose(1, 2) of a [B, L, H·D] projection.
    call: "keyword" (x=, start_pos=, base=), "positional", "default_base" (x, start_pos=) or
    "defaults" (x only)."""
    assert layout == "contiguous" or (H > 1 and L > 1), "a transpose with H or L of 1 is still contiguous"

    def make(g: torch.Generator) -> Inputs:
        if layout == "view":
            q = randn(g, B, L, H * D, dtype=dtype, scale=scale)  # as a linear projection leaves it
            x = q.view(B, L, H, D).transpose(1, 2)  # (B, H, L, D), not contiguous
        else:
            x = randn(g, B, H, L, D, dtype=dtype, scale=scale)
        args: dict[str, Any] = {"x": x}
        if call != "defaults":
            args["start_pos"] = start_pos
        if call in ("keyword", "positional"):
            args["base"] = base
        want = grads and dtype in (torch.float32, torch.float64)
        return Inputs(args=args, grad_of=("x",) if want else (), probe=randn(g, B, H, L, D, dtype=dtype) if want else None,
                      show={"call": call, "layout": layout})
    return make


def _random(g: torch.Generator) -> Inputs:
    B, H, L = randint(g, 1, 3), randint(g, 1, 4), randint(g, 1, 20)
    D = pick(g, [4, 6, 8, 10, 16, 32, 64, 128])
    start_pos = pick(g, [0, randint(g, 1, 64), randint(g, 0, 5000)])
    base = pick(g, [10000.0, 10000.0, 500000.0, 100.0, 1e6])
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    layout = "view" if H > 1 and L > 1 and randint(g, 0, 3) == 0 else "contiguous"
    call = pick(g, ["keyword", "keyword", "positional"])
    return _case(B, H, L, D, start_pos, base, dtype=dtype, layout=layout, call=call, scale=pick(g, [1.0, 3.0]))(g)


FAMILIES = (
    Family("start_pos_zero", _case()),
    Family("start_pos_100", _case(start_pos=100)),
    Family("start_pos_1000", _case(L=12, D=32, start_pos=1000)),
    Family("start_pos_4000", _case(L=16, D=64, start_pos=4000)),
    Family("decode_far", _case(B=2, H=4, L=1, D=64, start_pos=8191)),
    Family("base_100", _case(D=32, start_pos=50, base=100.0)),
    Family("base_500000", _case(L=6, D=128, start_pos=3000, base=500000.0)),
    Family("head_dim_2", _case(D=2, start_pos=10)),
    Family("head_dim_4", _case(D=4, start_pos=10)),
    Family("head_dim_8", _case(D=8, start_pos=10)),
    Family("head_dim_16", _case(D=16, start_pos=10)),
    Family("head_dim_32", _case(D=32, start_pos=10)),
    Family("head_dim_64", _case(D=64, start_pos=10)),
    Family("head_dim_128", _case(B=1, H=2, D=128, start_pos=10)),
    Family("batch_and_heads", _case(B=3, H=5, L=7, D=8, start_pos=20)),
    Family("non_contiguous_view", _case(B=2, H=4, L=6, D=16, start_pos=30, layout="view")),
    Family("non_contiguous_view_far", _case(B=1, H=3, L=5, D=64, start_pos=2000, layout="view", call="positional")),
    Family("float64", _case(start_pos=100, dtype=torch.float64)),
    Family("float64_far", _case(L=8, D=64, start_pos=4000, dtype=torch.float64)),
    Family("float16_at_600", _case(L=8, D=64, start_pos=600, dtype=torch.float16, scale=2.0)),
    Family("bfloat16_at_300", _case(L=8, D=64, start_pos=300, dtype=torch.bfloat16, scale=2.0)),
    Family("positional_call", _case(D=16, start_pos=7, base=500.0, call="positional")),
    Family("keyword_call", _case(D=16, start_pos=9, base=1000.0, call="keyword")),
    Family("default_base", _case(D=32, start_pos=300, call="default_base")),
    Family("defaults", _case(D=32, L=10, call="defaults")),
    Family("gradient", _case(B=2, H=2, L=6, D=8, start_pos=40, scale=2.0)),
    Family("gradient_float64", _case(B=1, H=2, L=5, D=16, start_pos=900, dtype=torch.float64)),
    Family("device", _case(L=6, D=8, start_pos=5), track_device=True),
    Family("device_defaults", _case(L=6, D=8, call="defaults"), track_device=True),
    Family("random", _random, draws=75),
)


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol, plus: the view case stays a view on the run device, and the case's
    calling convention (positional, keywords, defaults)."""
    args = dict(inputs.args)
    if inputs.show.get("layout") == "view":
        args["x"] = transposed_view(args["x"].to(device))
    how = inputs.show.get("call", "keyword")
    fn = entry if how != "positional" else (lambda **kw: entry(*(kw[n] for n in ORDER if n in kw)))
    return spec_api.call(kata, fn, replace(inputs, args=args), device, track_device)


def transposed_view(x: torch.Tensor) -> torch.Tensor:
    """x's values as the view (B, L, H, D).transpose(1, 2) of a contiguous tensor, whatever x's
    own layout (a copy to another device may have made it contiguous)."""
    return x if not x.is_contiguous() else x.transpose(1, 2).contiguous().transpose(1, 2)


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype, expected: torch.Tensor | None) -> tuple[float, float]:
    """The dtype's rtol; atol = (the dtype's atol + 2.5e-7 · (start_pos + L)) · max(1, max|x|), the
    gradient scaled by its own size instead (it is the probe rotated back)."""
    rtol, atol = spec_api.TOLERANCES[dtype]
    x = case.inputs.args["x"]
    span = case.inputs.args.get("start_pos", 0) + x.shape[-2]
    sized = x if not item.startswith("grad of") or expected is None else expected
    scale = max(1.0, float(sized.detach().abs().max())) if sized.numel() else 1.0
    return rtol, (atol + PER_POSITION * span) * scale


# ---------------------------------------------------------------- known mistakes


def _rope_variant(*, pairing="half", offset=True, exponent="2i/D", swap=False, angle_dtype=torch.float64,
                  positions_dim=2, turn=1.0, freqs="cat", use_base=True, negate=True, heads_broadcast=False):
    """The right computation with switches, one per known mistake (angles in float64 unless asked).
    `heads_broadcast`: the positions counted along dim -2 but cos/sin shaped [L, 1, D] for a
    [B, L, H, D] layout: raises unless L is H or 1, as the file does."""
    def apply_rope(x, start_pos=0, base=10000.0):
        D = x.shape[-1]
        adt = x.dtype if angle_dtype == "x" else angle_dtype
        b = base if use_base else 10000.0
        i = torch.arange(0, D // 2, dtype=adt, device=x.device)
        inv_freq = 1.0 / b ** ((2 * i if exponent == "2i/D" else i) / D)
        n = x.shape[positions_dim]
        pos = torch.arange(start_pos if offset else 0, (start_pos if offset else 0) + n, dtype=adt, device=x.device)
        angles = torch.outer(pos, inv_freq)  # (n, D/2)
        wide = torch.promote_types(x.dtype, torch.float32)
        xw = x.to(wide)
        cos, sin = angles.cos().to(wide), angles.sin().to(wide)
        if swap:
            cos, sin = sin, cos
        if pairing == "interleaved":  # GPT-J / Meta LLaMA: features (2i, 2i+1) form a pair
            pairs = xw.reshape(*xw.shape[:-1], D // 2, 2)
            a, c = pairs[..., 0], pairs[..., 1]
            out = torch.stack((a * cos - turn * c * sin, c * cos + turn * a * sin), dim=-1).flatten(-2)
            return out.to(x.dtype)
        cos = torch.cat((cos, cos), -1) if freqs == "cat" else cos.repeat_interleave(2, -1)
        sin = torch.cat((sin, sin), -1) if freqs == "cat" else sin.repeat_interleave(2, -1)
        if positions_dim == 1 or heads_broadcast:  # cos/sin as [L, 1, D], as if x were [B, L, H, D]
            cos, sin = cos[:, None, :], sin[:, None, :]
        x1, x2 = xw.chunk(2, dim=-1)
        rotated = torch.cat((-x2 if negate else x2, x1), dim=-1) * turn
        return (xw * cos + rotated * sin).to(x.dtype)
    return apply_rope


MISTAKES = (
    Mistake("interleaved_pairing", _rope_variant(pairing="interleaved")),
    Mistake("offset_ignored", _rope_variant(offset=False)),
    Mistake("exponent_i_over_d", _rope_variant(exponent="i/D")),
    Mistake("sin_cos_swapped", _rope_variant(swap=True)),
    Mistake("half_precision_angles", _rope_variant(angle_dtype="x")),
    Mistake("rotated_backwards", _rope_variant(turn=-1.0)),
    Mistake("frequencies_interleaved", _rope_variant(freqs="repeat_interleave")),
    Mistake("positions_along_heads", _rope_variant(positions_dim=1)),
    Mistake("base_ignored", _rope_variant(use_base=False)),
    Mistake("rotate_half_unnegated", _rope_variant(negate=False)),
    Mistake("positions_along_heads", _rope_variant(heads_broadcast=True)),
    # Interleaved pairs usually come with start_pos ignored (Meta LLaMA's freqs_cis sliced by the caller):
    # the pairing is named, the first thing to fix (checker/judge/mistakes.py: variants sharing a key).
    Mistake("interleaved_pairing", _rope_variant(pairing="interleaved", offset=False)),
)

# `kata check rope --bench`: one layer's queries of a LLaMA-sized model at a 4k context.
BENCH = ("B = 1, H = 32, L = 4096, D = 128", lambda g: Inputs(args={"x": torch.randn(1, 32, 4096, 128, generator=g),
                                                                     "start_pos": 0, "base": 10000.0}))
