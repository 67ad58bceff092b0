"""Case families for `int8-quant`: per-tensor and per-channel (dim 0, -1, 1 of a 3-D tensor, -2),
symmetric and asymmetric; channels of very different scales; tensors and channels of one sign; all-zero
tensors and channels; exact .5 ties in x / scale and in lo / scale; an outlier; values around 1e-4; 1-D
tensors; float64; the defaults and a positional call; random draws; the device case.

Compared by the contract's rule for integers made by rounding (KATAS-inference.md, "Comparison rules"):
scale within rtol 1e-5 (float32) / 1e-7 (float64), any positive finite scale for an all-zero slice;
zero_point and q exact, except ±1 where the float64 x / scale (lo / scale for zero_point) lies within
1e-5 · max(1, |value|) of a half-integer, and a q moved by its slice's zero_point's ±1 at such a tie.
The rule itself is checker/specs/_rounding.py; what it finds is said here, in the learner's terms.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import torch

from checker.specs import _rounding as rounding
from checker.judge import spec as spec_api
from checker.judge.compare import compare_values, split_outputs, words_wanted
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs import _training
from checker.specs._training import pick, randint, uniform

ORDER = ("x", "dim", "symmetric")  # the signature, for positional calls
SCALE_RTOL = {torch.float32: 1e-5, torch.float64: 1e-7}
SHOWN = 4  # rows of the table of differing q values


# ---------------------------------------------------------------- drawing cases


def _inputs(x: torch.Tensor, dim: object = None, symmetric: object = True, call: str = "keyword") -> Inputs:
    """call: "keyword" (x=, dim=, symmetric=), "positional", or "defaults" (x only)."""
    args: dict[str, Any] = {"x": x}
    if call != "defaults":
        args["dim"] = dim
        args["symmetric"] = symmetric
    return Inputs(args=args, show={"call": call} if call != "keyword" else {})


def _channels(g: torch.Generator, shape: tuple[int, ...], dim: int | None, spread: tuple[float, float] = (0.3, 3.0),
              offset: float = 0.0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Normal values drawn in float64, each channel (index of dim) with its own log-uniform scale and a
    shift of up to `offset` times that scale, so asymmetric ranges are lopsided."""
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    C = 1 if dim is None else shape[dim]
    view = [1] * len(shape)
    if dim is not None:
        view[dim] = C
    lo, hi = torch.tensor(spread, dtype=torch.float64).log()
    scales = (lo + (hi - lo) * torch.rand(C, generator=g, dtype=torch.float64)).exp().reshape(view)
    shifts = offset * (2 * torch.rand(C, generator=g, dtype=torch.float64) - 1).reshape(view)
    return ((x + shifts) * scales).to(dtype)


def _draw(shape: tuple[int, ...], dim: int | None = None, symmetric: bool = True, *, spread=(0.3, 3.0),
          offset: float = 1.0, dtype: torch.dtype = torch.float32, call: str = "keyword", sign: int = 0,
          zero_channel: bool = False):
    """sign: +1 / -1 makes every value of that sign; zero_channel zeroes one channel (per-tensor: all of x)."""
    def make(g: torch.Generator) -> Inputs:
        x = _channels(g, shape, dim, spread, offset, torch.float64)
        if sign:
            x = sign * (x.abs() + 0.05 * x.abs().max())
        if zero_channel:
            if dim is None:
                x = torch.zeros_like(x)
            else:
                x.select(dim, randint(g, 0, shape[dim] - 1)).zero_()
        return _inputs(x.to(dtype), dim, symmetric, call)
    return make


def _mixed_signs(g: torch.Generator) -> Inputs:
    """Per-channel (dim 0), affine: some channels all positive, some all negative, some of both."""
    x = _channels(g, (6, 10), 0, offset=0.0, dtype=torch.float64)
    x[0], x[1] = x[0].abs() + 0.1, -(x[1].abs() + 0.1)
    x[3], x[4] = x[3].abs() + 0.5, -(x[4].abs() + 0.02)
    return _inputs(x.float(), 0, False)


def _tiny(symmetric: bool, dim: int | None):
    """Values around 1e-4; each slice stretched so its scale stays above 1.5e-6 (a floor <= 1e-7, or torch.ao's
    float32 eps of 1.2e-7, never acts)."""
    def make(g: torch.Generator) -> Inputs:
        x = _channels(g, (4, 12), dim, spread=(0.5e-4, 2e-4), offset=0.5, dtype=torch.float64)
        others = tuple(d for d in range(2) if dim is None or d != dim % 2)
        if symmetric:
            width = x.abs().amax(dim=others, keepdim=True) / 127
        else:
            hi, lo = x.amax(dim=others, keepdim=True).clamp(min=0), x.amin(dim=others, keepdim=True).clamp(max=0)
            width = (hi - lo) / 255
        x = x * (1.5e-6 / width).clamp(min=1.0)
        return _inputs(x.float(), dim, symmetric)
    return make


def _outlier(symmetric: bool):
    def make(g: torch.Generator) -> Inputs:
        x = torch.randn(8, 16, generator=g, dtype=torch.float64) * 0.5
        i, j = randint(g, 0, 7), randint(g, 0, 15)
        x[i, j] = (100.0 if symmetric else -80.0) * float(x.abs().max())
        return _inputs(x.float(), None, symmetric)
    return make


# Exact ties: a power-of-two scale, so x, the scale and x / scale are exact in float32 whichever way they are
# computed (x * (1 / scale) too), and x / scale lands exactly on 2.5, -3.5, 0.5, 100.5.
TIES = (2.5, -3.5, 0.5, 100.5, -0.5, 1.5, -64.5, 126.5)


def _ties_symmetric(g: torch.Generator) -> Inputs:
    s = 2.0 ** -3
    grid = torch.randint(-127 * 8, 127 * 8 + 1, (22,), generator=g).double() / 8  # x / scale on a grid of 1/8
    v = torch.cat([torch.tensor([*TIES, 127.0, -20.0]), grid])
    v = v[torch.randperm(v.numel(), generator=g)]
    return _inputs((v * s).reshape(4, 8).float(), None, True)


def _ties_asymmetric(g: torch.Generator) -> Inputs:
    """lo / scale = -100.5 too (a zero_point tie): hi - lo = 255 · 2^-4, lo = -100.5 · 2^-4."""
    s = 2.0 ** -4
    grid = torch.randint(-100 * 8, 154 * 8 + 1, (22,), generator=g).double() / 8
    v = torch.cat([torch.tensor([*TIES[:4], -0.5, 1.5, -64.5, 99.5, -100.5, 154.5]), grid])
    v = v[torch.randperm(v.numel(), generator=g)]
    return _inputs((v * s).reshape(4, 8).float(), None, False)


def _ties_per_channel(g: torch.Generator) -> Inputs:
    """dim=0, affine: channel c has scale 2^-(c+2) and lo / scale a half-integer, every x / scale on a grid
    of 1/2 (many exact ties)."""
    rows = []
    for c in range(4):
        lo_steps = -float(randint(g, 1, 120)) - 0.5  # lo / scale, a tie
        grid = (torch.randint(int(lo_steps) * 2, int(lo_steps + 255) * 2 + 1, (10,), generator=g).double() / 2)
        v = torch.cat([torch.tensor([lo_steps, lo_steps + 255]), grid.clamp(lo_steps, lo_steps + 255)])
        rows.append(v[torch.randperm(12, generator=g)] * 2.0 ** -(c + 2))
    return _inputs(torch.stack(rows).float(), 0, False)


def _symmetric_range(g: torch.Generator) -> Inputs:
    """Affine, per channel (dim=-1), each channel holding a and -a: lo / scale = -127.5 (a zero_point tie),
    and x / scale = 127.5 at the max, which the clamp keeps at 127."""
    x = _channels(g, (10, 5), -1, offset=0.0, dtype=torch.float64)
    a = x.abs().amax(dim=0)
    x[0], x[1] = a, -a
    return _inputs(x[torch.randperm(10, generator=g)].float(), -1, False)


def _random(g: torch.Generator) -> Inputs:
    rank = randint(g, 1, 4)
    shape = tuple(randint(g, 1, 7) for _ in range(rank - 1)) + (randint(g, 2, 16),)
    dim = None if rank == 1 or randint(g, 0, 2) == 0 else randint(g, -rank, rank - 1)
    symmetric = pick(g, [True, False])
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    lo = pick(g, [1e-2, 0.1, 1.0])
    spread = (lo, lo * pick(g, [1.0, 10.0, 1000.0]))
    sign = pick(g, [0, 0, 0, 0, 1, -1])
    zero = randint(g, 0, 9) == 0 and dim is not None
    call = pick(g, ["keyword", "keyword", "keyword", "positional"])
    return _draw(shape, dim, symmetric, spread=spread, offset=uniform(g, 0.0, 2.0), dtype=dtype, call=call,
                 sign=sign, zero_channel=zero)(g)


def _float64(per_channel: bool):
    def make(g: torch.Generator) -> Inputs:
        symmetric = pick(g, [True, False])
        return _draw((5, 9), 1 if per_channel else None, symmetric, dtype=torch.float64)(g)
    return make


FAMILIES = (
    Family("per_tensor_symmetric", _draw((6, 10))),
    Family("per_tensor_asymmetric", _draw((6, 10), None, False)),
    Family("per_channel_dim0_symmetric", _draw((8, 12), 0)),
    Family("per_channel_dim0_asymmetric", _draw((8, 12), 0, False)),
    Family("per_channel_dim_minus1_symmetric", _draw((7, 9), -1)),
    Family("per_channel_dim_minus1_asymmetric", _draw((3, 7, 5), -1, False)),
    Family("per_channel_dim1_3d_symmetric", _draw((3, 6, 5), 1)),
    Family("per_channel_dim1_3d_asymmetric", _draw((3, 6, 5), 1, False)),
    Family("per_channel_dim_minus2_symmetric", _draw((2, 5, 7), -2)),
    Family("per_channel_dim_minus2_asymmetric", _draw((2, 5, 7), -2, False)),
    Family("channel_scales_symmetric", _draw((8, 16), 0, spread=(1.27 / 3, 1270.0 / 3), offset=0.0)),
    Family("channel_scales_asymmetric", _draw((16, 8), -1, False, spread=(0.4, 400.0))),
    Family("all_positive_symmetric", _draw((5, 8), None, True, sign=1)),
    Family("all_positive_asymmetric", _draw((5, 8), None, False, sign=1)),
    Family("all_negative_symmetric", _draw((5, 8), 0, True, sign=-1)),
    Family("all_negative_asymmetric", _draw((5, 8), None, False, sign=-1)),
    Family("all_positive_channels_asymmetric", _mixed_signs),
    Family("all_zero_tensor_symmetric", _draw((4, 6), None, True, zero_channel=True)),
    Family("all_zero_tensor_asymmetric", _draw((4, 6), None, False, zero_channel=True)),
    Family("all_zero_channel_symmetric", _draw((5, 8), 0, True, zero_channel=True)),
    Family("all_zero_channel_asymmetric", _draw((6, 5), -1, False, zero_channel=True)),
    Family("ties_symmetric", _ties_symmetric),
    Family("ties_asymmetric", _ties_asymmetric),
    Family("ties_per_channel", _ties_per_channel),
    Family("symmetric_range_asymmetric", _symmetric_range),
    Family("outlier_symmetric", _outlier(True)),
    Family("outlier_asymmetric", _outlier(False)),
    Family("tiny_values_symmetric", _tiny(True, None)),
    Family("tiny_values_asymmetric", _tiny(False, 0)),
    Family("one_dim_symmetric", _draw((17,))),
    Family("one_dim_asymmetric", _draw((17,), None, False)),
    Family("float64_per_tensor", _float64(False)),
    Family("float64_per_channel", _float64(True)),
    Family("float64_asymmetric", _draw((4, 6, 3), -1, False, dtype=torch.float64)),
    Family("defaults", _draw((6, 7), call="defaults")),
    Family("positional", _draw((5, 6, 4), 1, False, call="positional")),
    Family("random", _random, draws=64),
    Family("device", _draw((4, 7), -1, False), track_device=True),
    Family("device_symmetric", _draw((3, 5, 4), None, True, zero_channel=False), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- how a case runs


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """The default protocol, in the case's calling convention (keywords, positional, defaults)."""
    how = inputs.show.get("call", "keyword")
    fn = entry if how != "positional" else (lambda **kw: entry(*(kw[n] for n in ORDER if n in kw)))
    return spec_api.call(kata, fn, inputs, device, track_device)


# ---------------------------------------------------------------- how a case is judged


def compare(kata, case, expected, got) -> list[Problem]:
    """The contract's rule (module docstring) against the reference's answer."""
    with _training.one_thread():
        return _judge(kata, case, expected[0], got, contract=True)


def matches(kata, case, expected, variant: Outcome, got: Outcome) -> bool | None:
    """Whether the learner's outcome is a known mistake's (checker/judge/mistakes.py): the same rule with the
    variant's answer in place of the reference's, ties of its own rounding (at every multiple of 0.5:
    truncation and floor jump at integers) either way. None (the generic test) when the variant's shapes
    are not the contract's: it is then recognised by its shapes."""
    mine, _ = split_outputs(kata, variant.value)
    if mine is None or any(getattr(mine[n], "data", None) is None for n in kata.outputs):
        return None
    x, dim, _ = _arguments(case)
    C = 1 if dim is None else x.shape[dim]
    sizes = (tuple(mine["q"].shape), mine["scale"].data.numel(), mine["zero_point"].data.numel())
    if sizes != (tuple(x.shape), C, C):
        return None
    s = mine["scale"].data
    if not bool((torch.isfinite(s) & (s != 0)).all()):  # an unguarded zero range: no grid to round on, so equal
        theirs, _ = split_outputs(kata, got.value)
        return theirs is not None and all(getattr(theirs[n], "data", None) is not None and
                                          theirs[n].data.shape == mine[n].data.shape and
                                          torch.equal(theirs[n].data.nan_to_num(), mine[n].data.nan_to_num())
                                          for n in kata.outputs)
    with _training.one_thread():
        return not _judge(kata, case, variant, got, contract=False)


def _arguments(case) -> tuple[torch.Tensor, int | None, bool]:
    args = case.inputs.args
    x, dim = args["x"], args.get("dim")
    return x, (None if dim is None else dim % x.dim()), bool(args.get("symmetric", True))


def _structure_only(value):
    return replace(value, data=None)


def _judge(kata, case, expected: Outcome, got: Outcome, *, contract: bool) -> list[Problem]:
    want, _ = split_outputs(kata, expected.value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    for name in kata.outputs:
        found = compare_values(name, _structure_only(want[name]), have[name], 0.0, 0.0)
        problems += [_dtype_said(p, want[name].dtype) if p.kind == "dtype" and name != "scale" else p for p in found]
    if problems or have["q"].data is None:
        return problems
    x, dim, symmetric = _arguments(case)
    C = 1 if dim is None else x.shape[dim]
    view = [1] * x.dim()
    if dim is not None:
        view[dim] = C
    s_e, s_g = (want["scale"].data.double().reshape(C), have["scale"].data.double().reshape(C))
    z_e, z_g = want["zero_point"].data.reshape(C).long(), have["zero_point"].data.reshape(C).long()
    q_e, q_g = want["q"].data.long(), have["q"].data.long()
    xd = x.double()
    others = tuple(d for d in range(x.dim()) if d != dim)
    zero = (xd == 0).all(dim=others).reshape(C)  # [C] the slices whose range is 0
    qmin, qmax = (-127, 127) if symmetric and contract else (-128, 127)

    # scale: rtol, or any positive finite value for an all-zero slice (when the expected one is)
    rtol = SCALE_RTOL.get(x.dtype, 1e-5) if contract else 1e-5
    positive = torch.isfinite(s_g) & (s_g > 0)
    close = ((s_g - s_e).abs() <= rtol * s_e.abs()) | (s_g == s_e) | (torch.isnan(s_g) & torch.isnan(s_e))
    free = zero & torch.isfinite(s_e) & (s_e > 0)
    scale_ok = torch.where(free, positive, close)

    # zero_point: exact, or ±1 at a tie of lo / scale (asymmetric only: symmetric has no rounding there)
    lo = xd.amin(dim=others).reshape(C).clamp(max=0)
    lo_v = lo / s_e
    zp_tie = rounding.near_tie(lo_v, also_integers=not contract) & (not symmetric or not contract)
    zp_ok = rounding.within(z_e, z_g, zp_tie)

    # q: u_e + shift ± tie, clamped, where shift is the slice's accepted zero_point move
    shift = torch.where(zp_ok, z_g - z_e, torch.zeros_like(z_e)).reshape(view)
    v = xd / s_e.reshape(view)
    q_tie = rounding.near_tie(v, also_integers=not contract)  # a variant's truncation or floor jumps at integers
    q_ok = rounding.clamped_within(q_e, shift, q_g, q_tie, qmin, qmax)

    problems = []
    if not bool(scale_ok.all()):
        problems.append(_scale_problem(dim, C, s_e, s_g, scale_ok, zero, x.dtype))
    if not bool(zp_ok.all()):
        problems.append(_zero_point_problem(dim, C, z_e, z_g, zp_ok, lo, lo_v, symmetric))
    if not bool(q_ok.all()):
        problems.append(_q_problem(x, dim, C, view, q_e, q_g, ~q_ok, s_e, s_g, z_e, z_g, scale_ok & zp_ok, qmin, qmax,
                                   symmetric))
    return problems


def _dtype_said(problem: Problem, expected: str) -> Problem:
    if problem.item == "q":
        said = tr("q has dtype {got}, expected int8: clamp, then .to(torch.int8)",
                  got=problem.message.split("dtype ", 1)[-1].split(",", 1)[0])
    else:
        said = tr("zero_point has dtype {got}, expected int64 (torch's per-channel zero points are int64): "
                  ".to(torch.int64)", got=problem.message.split("dtype ", 1)[-1].split(",", 1)[0])
    return replace(problem, message=said)


def _num(value: float) -> str:
    return f"{value:.6g}"


def _channel_words(dim: int | None, c: int) -> str:
    return tr("channel {c} of dim {dim}", c=c, dim=dim)


def _scale_problem(dim, C, s_e, s_g, ok, zero, dtype) -> Problem:
    bad = (~ok).nonzero().flatten().tolist()
    c = bad[0]
    if bool(zero[c]):
        where = tr("the tensor is all zeros") if dim is None else tr("channel {c} is all zeros", c=c)
        return Problem("values", "scale", tr("{where}: its scale must be positive and finite (any value, 1 for "
                                             "instance), yours is {got}", where=where, got=_num(float(s_g[c]))))
    ratio = float(s_g[c] / s_e[c]) if float(s_e[c]) != 0 else float("nan")
    if dim is None:
        said = tr("scale is {got}, expected {expected} (yours / expected = {ratio})", got=_num(float(s_g[c])),
                  expected=_num(float(s_e[c])), ratio=f"{ratio:.4g}")
    else:
        said = tr("scale differs in {n} of {total} channels; first {where}: yours {got}, expected {expected} "
                  "(yours / expected = {ratio})", n=len(bad), total=C, where=_channel_words(dim, c),
                  got=_num(float(s_g[c])), expected=_num(float(s_e[c])), ratio=f"{ratio:.4g}")
    rtol = SCALE_RTOL.get(dtype, 1e-5)
    return Problem("values", "scale", said + "\n  " + tr("(compared with rtol {rtol:g}; an all-zero slice may have "
                                                          "any positive finite scale)", rtol=rtol))


def _zero_point_problem(dim, C, z_e, z_g, ok, lo, lo_v, symmetric) -> Problem:
    bad = (~ok).nonzero().flatten().tolist()
    c = bad[0]
    if symmetric:
        where = "" if dim is None else " " + tr("(channel {c})", c=c)
        said = tr("zero_point is {got}{where}, expected 0: symmetric quantisation has no zero point", got=int(z_g[c]),
                  where=where)
        return Problem("values", "zero_point", said)
    # lo / scale is recomputed here with the EXPECTED scale, and says so: the learner's own lo / scale is not known
    # (a guard applied after the zero point returns a scale that was not the one divided by)
    numbers = dict(got=int(z_g[c]), expected=int(z_e[c]), lo=_num(float(lo[c])), v=f"{float(lo_v[c]):.4f}")
    if dim is None:
        said = tr("zero_point is {got}, expected {expected} (lo = {lo}; with the expected scale, lo / scale = {v} "
                  "and zero_point = clamp(-128 - round(lo / scale), -128, 127))", **numbers)
    else:
        said = tr("zero_point differs in {n} of {total} channels; first {where}: yours {got}, expected {expected} "
                  "(lo = {lo}; with the expected scale, lo / scale = {v})", n=len(bad), total=C,
                  where=_channel_words(dim, c), **numbers)
    if not -2**31 < int(z_g[c]) < 2**31:  # NaN or ±inf cast to int64 comes out as -2^63
        said += "\n  " + tr("{got} is what NaN or ±inf becomes when cast to an integer: your lo / scale was not "
                            "finite there (0 / 0 when the range is 0 and the scale is 0 at that point); guard a zero "
                            "range before computing zero_point", got=int(z_g[c]))
    return Problem("values", "zero_point", said)


def _q_problem(x, dim, C, view, q_e, q_g, bad, s_e, s_g, z_e, z_g, params_ok, qmin, qmax, symmetric) -> Problem:
    from checker.specs.pictures.quant import q_table  # the first differing elements, as a small table

    xd = x.double()
    n, total = int(bad.sum()), bad.numel()
    where = bad.nonzero()
    rows = []
    for index in where[:SHOWN].tolist():
        c = 0 if dim is None else index[dim]
        value = float(xd[tuple(index)])
        v = value / float(s_e[c]) + (0 if symmetric else int(z_e[c]))  # what the expected q rounds
        rows.append((tuple(index), value, v, int(q_e[tuple(index)]), int(q_g[tuple(index)])))
    said = tr("q differs in {n} of {total} places", n=n, total=total)
    if dim is not None:
        first = where[0].tolist()
        c = first[dim]
        said += tr("; first at {index}, in {where}, scale {scale}, zero_point {zp}", index=first,
                   where=_channel_words(dim, c), scale=_num(float(s_e[c])), zp=int(z_e[c]))
    lines = [said, q_table(rows, zero_point=not symmetric)] if words_wanted() else [said]
    n, kinds = rounding.diagnose(x, q_g, bad, s_g.reshape(view), z_g.reshape(view), s_e.reshape(view),
                                 z_e.reshape(view), qmin, qmax)
    for kind in kinds:
        verdict = _verdict(kind, n, params_ok, qmin, qmax, symmetric)
        if verdict:
            lines.append("  " + verdict)
    return Problem("values", "q", "\n".join(lines))


def _verdict(kind: tuple[str, int, Any], n: int, params_ok, qmin: int, qmax: int, symmetric: bool) -> str:
    """The sentence that says which kind of difference it is: a rounding, a range, or the scale behind it."""
    name, explained, detail = kind
    share = "" if explained == n else tr("{k} of the {n} differences: ", k=explained, n=n)
    if name == "truncation":
        return share + tr("x / scale truncated toward zero (.to(torch.int8), .int() or .trunc() without "
                          "torch.round): a rounding problem; round to the nearest integer first")
    if name == "floor":
        return share + tr("x / scale rounded down (floor): a rounding problem; round to the nearest integer "
                          "(torch.round) instead")
    if name == "rounded_down":
        return share + tr("x / scale rounded down (floor or truncation toward zero): a rounding problem; round to "
                          "the nearest integer (torch.round)")
    if name == "ceil":
        return share + tr("x / scale rounded up (ceil): a rounding problem; round to the nearest integer (torch.round)")
    if name == "outside":
        return share + tr("q holds {value}, outside [{qmin}, {qmax}]: a range problem; clamp q to [{qmin}, {qmax}]"
                          "{why}", value=detail, qmin=qmin, qmax=qmax,
                          why=tr(" (symmetric INT8 leaves -128 unused)") if symmetric else "")
    if name == "wrapped":
        return share + tr("round(x / scale) + zero_point = {value} lies outside [{qmin}, {qmax}] and wrapped around in "
                          "the int8 cast: a range problem; clamp before .to(torch.int8)", value=detail, qmin=qmin,
                          qmax=qmax)
    if name == "range":
        return share + tr("round(x / scale) + zero_point lies outside [{qmin}, {qmax}] there and yours is not the "
                          "clamped value: a range problem", qmin=qmin, qmax=qmax)
    if name == "own_scale" and not bool(params_ok.all()):
        return share + tr("yours is round(x / scale) + zero_point with your own scale and zero_point: q follows "
                          "them, so fix the scale and zero_point first")
    return ""


# ---------------------------------------------------------------- known mistakes


def _variant(*, sym_div=127, sym_qmin=-127, rounding_="round", zero_in_range=True, zero_point="right",
             reduce="others", flat="reshape", guard=True, asym_div=255, add_zero_point=True, offset_rounded=False,
             zp_rounding="round", only=None):
    """A quantiser with one switch away from the contract.
    rounding_: "round", "trunc" (of x / scale), "trunc_after_zp" (of x / scale + zero_point), "floor";
    zero_point: "right", "plus" (-128 + round(lo / scale)), "subtracted" (q = round(x / scale) - zero_point),
    "uint8" (levels 0..255, cast to int8); reduce: "others" (right), "channel" (along dim), "all" (dim ignored),
    "unnormalised" (dim not taken modulo the rank); flat: how a per-channel scale leaves ("reshape", "squeeze",
    or "expand": one scale repeated C times);
    offset_rounded: q = round((x - lo) / scale) - 128; zp_rounding: "round", "same" (q's rounding of lo / scale)
    or "cast" (the whole -128 - lo / scale cast to int64: truncated);
    only: None (the rounding and the guard slip in both schemes), "symmetric" or "affine" (in that branch alone:
    people write the two branches apart and slip in one)."""
    def quantize_int8(x, dim=None, symmetric=True):
        slipped = only is None or (only == "symmetric") == bool(symmetric)
        if dim is None or reduce == "all":
            dims = tuple(range(x.dim()))
        elif reduce == "channel":
            dims = (dim,)
        elif reduce == "unnormalised":
            dims = tuple(d for d in range(x.dim()) if d != dim)
        else:
            dims = tuple(d for d in range(x.dim()) if d != dim % x.dim())

        def rnd(v):
            if not slipped:
                return torch.round(v)
            if rounding_ == "floor":
                return torch.floor(v)
            if rounding_ in ("trunc", "trunc_after_zp"):
                return torch.trunc(v)
            return torch.round(v)

        if symmetric:
            scale = x.abs().amax(dim=dims, keepdim=True) / sym_div
            if guard or not slipped:
                scale = torch.where(scale == 0, torch.ones_like(scale), scale)
            zp = torch.zeros_like(scale, dtype=torch.int64)
            q = torch.clamp(rnd(x / scale), sym_qmin, 127)
        else:
            lo, hi = x.amin(dim=dims, keepdim=True), x.amax(dim=dims, keepdim=True)
            if zero_in_range:
                lo, hi = lo.clamp(max=0), hi.clamp(min=0)
            scale = (hi - lo) / asym_div
            if guard or not slipped:
                scale = torch.where(scale == 0, torch.ones_like(scale), scale)
            qmin, qmax = (0, 255) if zero_point == "uint8" else (-128, 127)
            if zero_point == "plus":
                zp = torch.clamp(qmin + torch.round(lo / scale), qmin, qmax)
            elif zp_rounding == "same":
                zp = torch.clamp(qmin - rnd(lo / scale), qmin, qmax)
            elif zp_rounding == "cast":
                zp = torch.clamp((qmin - lo / scale).to(torch.int64), qmin, qmax)
            else:
                zp = torch.clamp(qmin - torch.round(lo / scale), qmin, qmax)
            if offset_rounded:
                q = torch.clamp(torch.round((x - lo) / scale) + qmin, qmin, qmax)
            elif rounding_ == "trunc_after_zp" and slipped:
                q = torch.clamp(torch.trunc(x / scale + zp), qmin, qmax)
            elif zero_point == "subtracted":
                q = torch.clamp(rnd(x / scale) - zp, qmin, qmax)
            elif not add_zero_point:
                q = torch.clamp(rnd(x / scale), qmin, qmax)
            else:
                q = torch.clamp(rnd(x / scale) + zp, qmin, qmax)
            zp = zp.to(torch.int64)
        q = q.to(torch.int8)
        if dim is None or reduce == "all" and flat != "expand":
            return q, scale.reshape(()), zp.reshape(())
        if flat == "expand":  # the one scale repeated for every channel
            C = x.shape[dim]
            return q, scale.reshape(()).expand(C).clone(), zp.reshape(()).expand(C).clone()
        if flat == "squeeze":
            return q, scale.squeeze(dims), zp.squeeze(dims)
        return q, scale.reshape(-1), zp.reshape(-1)
    return quantize_int8


MISTAKES = (
    Mistake("absmax_over_128", _variant(sym_div=128, sym_qmin=-128)),
    Mistake("absmax_over_128", _variant(sym_div=128)),
    Mistake("absmax_over_255", _variant(sym_div=255)),
    Mistake("truncation", _variant(rounding_="trunc")),
    Mistake("truncation", _variant(rounding_="trunc_after_zp")),
    Mistake("truncation", _variant(rounding_="trunc", zp_rounding="cast")),
    Mistake("truncation", _variant(rounding_="trunc", only="symmetric")),
    Mistake("truncation", _variant(rounding_="trunc", only="affine")),
    Mistake("truncation", _variant(rounding_="trunc_after_zp", only="affine")),
    Mistake("floor", _variant(rounding_="floor")),
    Mistake("floor", _variant(rounding_="floor", zp_rounding="same")),
    Mistake("floor", _variant(rounding_="floor", only="symmetric")),
    Mistake("floor", _variant(rounding_="floor", only="affine")),
    Mistake("floor", _variant(rounding_="floor", zp_rounding="same", only="affine")),
    Mistake("zero_not_in_range", _variant(zero_in_range=False)),
    Mistake("zero_point_sign", _variant(zero_point="plus")),
    Mistake("zero_point_sign", _variant(zero_point="subtracted")),
    Mistake("uint8_zero_point", _variant(zero_point="uint8")),
    Mistake("channel_axis_reduced", _variant(reduce="channel")),
    Mistake("channel_axis_reduced", _variant(reduce="channel", flat="squeeze")),
    Mistake("negative_dim", _variant(reduce="unnormalised")),
    Mistake("nan_on_zero_range", _variant(guard=False)),
    Mistake("nan_on_zero_range", _variant(guard=False, only="symmetric")),
    Mistake("nan_on_zero_range", _variant(guard=False, only="affine")),
    Mistake("scale_over_256", _variant(asym_div=256)),
    Mistake("dim_ignored", _variant(reduce="all")),
    Mistake("dim_ignored", _variant(reduce="all", flat="expand")),
    Mistake("zero_point_not_added", _variant(add_zero_point=False)),
    Mistake("offset_rounded_with_x", _variant(offset_rounded=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    return Inputs(args={"x": torch.randn(4096, 4096, generator=g), "dim": 0, "symmetric": False})


# `kata check int8-quant --bench`: a 4096 x 4096 weight, per output channel, affine.
BENCH = ("a 4096 x 4096 weight, dim=0, asymmetric", _bench)
