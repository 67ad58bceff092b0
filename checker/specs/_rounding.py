"""Integers made by rounding: compare them exactly, except at ties, and say what kind of difference is left.

A quantiser's integers (INT8 codes, zero points) come from round(v) for a real v. Two right answers
differ only where v sits on a half-integer: half-to-even (torch.round), half-up floor(v + 0.5),
half away from zero and a reciprocal multiply x * (1 / scale) each go their own way there, by one.
So an integer compares exactly, except ±1 where the float64 v lies within TIE · max(1, |v|) of a
half-integer; a value shifted on purpose (a q that follows its slice's zero point to the other
side of a tie) moves the accepted window by that shift; a clamp to [qmin, qmax] keeps what lies
beyond the range at the bound. `diagnose` names what a wrong integer is instead: a truncation, a
floor, a ceil, a value outside the range or wrapped by the cast, or the right rounding of another
scale. Plain torch on small CPU tensors; the spec (checker/specs/int8_quant.py) says it in words.
"""
from __future__ import annotations

import torch

TIE = 1e-5  # relative distance from a half-integer within which either neighbour is right


def near_tie(v: torch.Tensor, also_integers: bool = False) -> torch.Tensor:
    """Where float64 v lies within TIE · max(1, |v|) of a half-integer (also of an integer: the jumps of
    truncation and floor, for comparing two wrong answers with each other). NaN and inf are never ties."""
    v = v.double()
    if also_integers:
        gap = (2 * v - torch.round(2 * v)).abs() / 2
    else:
        gap = (v - (torch.floor(v) + 0.5)).abs()
    return torch.isfinite(v) & (gap <= TIE * v.abs().clamp(min=1.0))


def within(expected: torch.Tensor, got: torch.Tensor, tie: torch.Tensor) -> torch.Tensor:
    """got == expected, or one off where `tie`."""
    diff = (got.long() - expected.long()).abs()
    return (diff == 0) | ((diff == 1) & tie)


def clamped_within(expected: torch.Tensor, shift: torch.Tensor, got: torch.Tensor, tie: torch.Tensor, qmin: int,
                   qmax: int) -> torch.Tensor:
    """Whether got = clamp(u + shift + d, qmin, qmax) for some d in {0} (or {-1, 0, 1} at a tie), where
    expected = clamp(u, qmin, qmax): u is expected itself inside the range, and anything beyond the bound
    when expected sits on it."""
    e, g, t = expected.long(), got.long(), tie.long()
    inf = torch.iinfo(torch.int64).max // 4
    low = torch.where(e > qmin, e + shift - t, torch.full_like(e, -inf)).clamp(min=qmin)
    high = torch.where(e < qmax, e + shift + t, torch.full_like(e, inf)).clamp(max=qmax)
    return (g >= low) & (g <= high)


def _wrap8(u: torch.Tensor) -> torch.Tensor:
    """What an int8 cast makes of an integer outside [-128, 127]."""
    return torch.remainder(u + 128, 256) - 128


KINDS = ("outside", "wrapped", "range", "own_scale", "rounded_down", "truncation", "floor", "ceil")  # ties: the first


def diagnose(x: torch.Tensor, got: torch.Tensor, bad: torch.Tensor, s_got: torch.Tensor, z_got: torch.Tensor,
             s_exp: torch.Tensor, z_exp: torch.Tensor, qmin: int, qmax: int, most: int = 2
             ) -> tuple[int, list[tuple[str, int, object]]]:
    """How the learner's integers q = f(x / scale) + zero_point were made: (how many elements differ, up to
    `most` kinds, each (kind, how many differing elements it explains, a value to show)), the kind that
    explains most first, then the one that explains most of the rest. Judged with the learner's own scale and
    zero point where they are usable (positive and finite), else the expected ones; v is taken both in float64
    and in x's dtype, so a float32 truncation is recognised where v is an integer to a few ulps. The list is
    empty when nothing explains a single difference."""
    usable = torch.isfinite(s_got) & (s_got > 0) & (z_got.abs() < 2 ** 40)
    s = torch.where(usable, s_got, s_exp).expand_as(x)[bad]
    z = torch.where(usable, z_got, z_exp).expand_as(x)[bad].double()
    xb, g = x[bad], got.long()[bad]
    n = int(bad.sum())
    views = [xb.double() / s, (xb / s.to(x.dtype)).double()]

    def clamp(u: torch.Tensor) -> torch.Tensor:
        return u.clamp(qmin, qmax).long()

    def any_view(rule) -> torch.Tensor:
        hit = torch.zeros(n, dtype=torch.bool)
        for v in views:
            hit |= rule(v)
        return hit

    r = torch.round(views[0]) + z  # the right rounding, before the clamp
    outside = (g < qmin) | (g > qmax)
    beyond = (r < qmin) | (r > qmax)
    explained = {
        "outside": outside,
        "wrapped": beyond & (g == _wrap8(r.clamp(-2 ** 40, 2 ** 40).long())),
        "range": beyond & (g != clamp(r)),
        "truncation": any_view(lambda v: (g == clamp(torch.trunc(v) + z)) | (g == clamp(torch.trunc(v + z)))),
        "floor": any_view(lambda v: g == clamp(torch.floor(v) + z)),
        "ceil": any_view(lambda v: g == clamp(torch.ceil(v) + z)),
        "own_scale": any_view(lambda v: (g == clamp(torch.round(v) + z)) | (g == clamp(torch.floor(v + 0.5) + z))
                              | (g == clamp(torch.sign(v) * torch.floor(v.abs() + 0.5) + z))),
    }
    # "rounded_down" wins only where truncation and floor explain the same elements (every v there positive)
    explained["rounded_down"] = explained["truncation"] & explained["floor"]
    left = torch.ones(n, dtype=torch.bool)
    kinds: list[tuple[str, int, object]] = []
    while len(kinds) < most and left.any():
        counts = {k: int((explained[k] & left).sum()) for k in KINDS}
        best = max(KINDS, key=lambda k: (counts[k], -KINDS.index(k)))
        if counts[best] == 0:
            break
        hit = explained[best] & left
        detail = int(g[hit][0]) if best == "outside" else int(r[hit][0]) if best == "wrapped" else None
        kinds.append((best, counts[best], detail))
        left &= ~explained[best]
    return n, kinds
