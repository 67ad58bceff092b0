"""Case families for `loss-agg`: each of verl's four modes on prefix masks of different lengths, masks with
holes, float masks, empty rows, an all-masked batch, padding that holds garbage, both scale factors, the
default mode, and unknown modes that must raise.

Every case compares the loss, its gradient w.r.t. loss_mat (a masked position with a nonzero gradient
leaked) and whether the loss is in the graph (an all-masked batch still gives a differentiable 0).
A failing loss is explained by a table of what each mode divides by; a leak by a grid of the mask.
"""
from __future__ import annotations

import sys

import torch

from checker.judge.compare import compare_outcome
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._align import (
    TOLERANCES, aggregation_lines, as_kind, call_with_requires_grad, explain_aggregation, explain_leak, holey_mask,
    leak_grid, lengths_mask, tolerance_for, with_garbage,
)
from checker.specs._rl import pick, randint

MODES = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")
_OMIT = object()  # leave the argument out of the call, so its default is used


def _draw(g: torch.Generator, B: int, T: int, mode: object = "token-mean", *, lengths: object = "random",
          holes: bool = False, kind: str = "bool", garbage: float = 100.0, scale: object = _OMIT,
          dtype: torch.dtype = torch.float32) -> Inputs:
    """lengths: per-row valid tokens (a tuple, "random" 1..T, "random0" 0..T, "holes" anywhere, "full")."""
    if lengths == "holes":
        mask = holey_mask(g, B, T)
    elif lengths == "full":
        mask = torch.ones(B, T, dtype=torch.bool)
    else:
        mask = lengths_mask(g, B, T, lengths, holes=holes)
    x = torch.randn(B, T, generator=g, dtype=torch.float64)
    x = with_garbage(g, x, mask, garbage).to(dtype)
    args = {"loss_mat": x, "loss_mask": as_kind(mask, kind, dtype)}
    if mode is not _OMIT:
        args["loss_agg_mode"] = mode
    if scale is not _OMIT:
        args["loss_scale_factor"] = scale
    return Inputs(args=args, grad_of=("loss_mat",), show={"lengths": mask.sum(-1).tolist()})


def _case(B, T, mode="token-mean", **kw):
    return lambda g: _draw(g, B, T, mode, **kw)


def _unknown(mode: str):
    def make(g: torch.Generator) -> Inputs:
        inputs = _draw(g, 3, 5, mode)
        return Inputs(args=inputs.args, raises="ValueError", show={"loss_agg_mode": mode})
    return make


def _random(g: torch.Generator) -> Inputs:
    mode = pick(g, list(MODES))
    B, T = randint(g, 1, 8), randint(g, 1, 12)
    lengths = pick(g, ["random", "random", "random0", "holes", "full"])
    kind = pick(g, ["bool", "bool", "float"])
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    scale = pick(g, [_OMIT, None, 4096, 7.5, 64]) if mode == "seq-mean-token-sum-norm" else _OMIT
    return _draw(g, B, T, mode, lengths=lengths, holes=lengths == "random" and T > 2 and kind == "bool", kind=kind,
                 garbage=pick(g, [10.0, 100.0, 1e4]), scale=scale, dtype=dtype)


def _per_mode(stem: str, B: int, T: int, **kw) -> tuple[Family, ...]:
    short = {"token-mean": "token_mean", "seq-mean-token-sum": "seq_sum", "seq-mean-token-mean": "seq_mean",
             "seq-mean-token-sum-norm": "sum_norm"}
    return tuple(Family(f"{short[m]}_{stem}", _case(B, T, m, **kw)) for m in MODES)


UNEQUAL = (6, 3, 1, 5)

FAMILIES = (
    *_per_mode("prefix", 4, 6, lengths=UNEQUAL),
    *_per_mode("float_mask", 4, 6, lengths=UNEQUAL, kind="float"),
    *_per_mode("holes", 5, 8, lengths="holes"),
    *_per_mode("holes_in_prefix", 4, 8, lengths=(8, 6, 3, 7), holes=True),
    *_per_mode("one_empty_row", 4, 6, lengths=(6, 0, 2, 4)),
    *_per_mode("two_empty_rows", 5, 6, lengths=(0, 5, 0, 1, 3)),
    *_per_mode("all_masked", 3, 5, lengths=(0, 0, 0)),
    *_per_mode("all_masked_float64", 2, 4, lengths=(0, 0), kind="float", dtype=torch.float64),
    *_per_mode("full_mask", 3, 5, lengths="full"),
    *_per_mode("batch_one", 1, 7, lengths=(4,)),
    *_per_mode("one_token", 4, 1, lengths=(1, 0, 1, 1)),
    *_per_mode("padding_1e6", 4, 6, lengths=UNEQUAL, garbage=1e6),
    *_per_mode("float64", 4, 6, lengths=(6, 0, 2, 5), dtype=torch.float64),
    Family("sum_norm_scale_4096", _case(4, 6, "seq-mean-token-sum-norm", lengths=UNEQUAL, scale=4096)),
    Family("sum_norm_scale_7_5", _case(4, 6, "seq-mean-token-sum-norm", lengths=UNEQUAL, scale=7.5)),
    Family("sum_norm_scale_none", _case(4, 6, "seq-mean-token-sum-norm", lengths=UNEQUAL, scale=None)),
    Family("default_mode", _case(4, 6, _OMIT, lengths=UNEQUAL)),
    Family("unknown_mode", _unknown("seq-mean")),
    Family("unknown_mode_underscores", _unknown("token_mean")),
    Family("unknown_mode_dr_grpo", _unknown("dr_grpo")),
    Family("long_and_short", _case(3, 64, "token-mean", lengths=(64, 2, 37))),
    Family("random", _random, draws=50),
    Family("device", _case(4, 6, "seq-mean-token-mean", lengths=(6, 0, 2, 4)), track_device=True),
    Family("device_default_mode", _case(4, 6, _OMIT, lengths=(6, 0, 2, 4)), track_device=True),
    Family("device_seq_mean_token_sum", _case(4, 6, "seq-mean-token-sum", lengths=(6, 0, 2, 4)), track_device=True),
    Family("device_sum_norm_scale", _case(4, 6, "seq-mean-token-sum-norm", lengths=(6, 0, 2, 4), scale=7.5), track_device=True),
)

call = call_with_requires_grad("loss")


def compare(kata, case, expected, got):
    """The generic comparison, with the aggregation table under a wrong loss and the mask grid under a leak."""
    if case.inputs.raises is not None:
        return None
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    if not problems:
        return problems
    args = case.inputs.args
    loss = got.value
    if getattr(loss, "data", None) is not None and loss.data.numel() == 1 and torch.isfinite(loss.data).all():
        mode = args.get("loss_agg_mode", "token-mean")
        table = aggregation_lines(args["loss_mat"], args["loss_mask"], mode, args.get("loss_scale_factor"),
                                  float(loss.data.double()))
        problems = explain_aggregation(problems, "loss", table)
    grad = got.extras.get("grad of loss_mat")
    if getattr(grad, "data", None) is not None and tuple(grad.data.shape) == tuple(args["loss_mat"].shape):
        problems = explain_leak(problems, "grad of loss_mat", leak_grid(args["loss_mask"], grad.data))
    return problems


# ---------------------------------------------------------------- known mistakes


def _agg(x, mask, mode, scale, *, token_mean_as="tokens", seq_mean_as="rows", empty_rows="skip", denominator="valid",
         norm_per_b=False, scale_ignored=False, unguarded=False, rows_unguarded=False, detached_zero=False,
         use_mask=True, unknown="raise"):
    """token_mean_as / seq_mean_as: "tokens" (a mean over every valid token of the batch) or "rows" (a mean of
    per-row means); empty_rows "count" divides sequence means by B; denominator "padding" divides by T per row
    or B·T for the batch; unguarded: 0 / 0 where nothing is valid (True), or verl's torch.where(n > 0, s / n, 0)
    ("where": the value 0, the gradient NaN); rows_unguarded: the same for each row's own count."""
    if mode not in ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"):
        if unknown == "raise":
            raise ValueError(mode)
        mode = "token-mean"
    m = mask.to(x.dtype) if use_mask else torch.ones_like(x)
    if detached_zero and m.sum() == 0:
        return torch.zeros((), dtype=x.dtype, device=x.device)
    B, T = x.shape
    total = (x * m).sum()
    valid = m.sum(-1)  # (B,)
    rows = (valid > 0).to(x.dtype) if empty_rows == "skip" else torch.ones_like(valid)

    def divide(num, den, how):  # a count that can be 0: clamped (right), or not
        if how == "where":
            return torch.where(den > 0, num / den, torch.zeros_like(num))
        return num / den if how else num / den.clamp(min=1)

    def mean_of_rows(per_row):
        return divide((per_row * rows).sum(), rows.sum(), unguarded)

    def mean_of_tokens():
        return divide(total, m.sum(), unguarded) if denominator == "valid" else total / (B * T)

    def row_means():
        sums = (x * m).sum(-1)
        return divide(sums, valid, rows_unguarded) if denominator == "valid" else sums / T

    if mode == "token-mean":
        return mean_of_tokens() if token_mean_as == "tokens" else mean_of_rows(row_means())
    if mode == "seq-mean-token-mean":
        return mean_of_rows(row_means()) if seq_mean_as == "rows" else mean_of_tokens()
    if mode == "seq-mean-token-sum":
        return mean_of_rows((x * m).sum(-1))
    divisor = T if (scale is None or scale_ignored) else scale
    return total / (divisor * B) if norm_per_b else total / divisor


def _variant(only=None, **switches):
    """only: the modes the slip is in (the others right): people write each mode's branch apart and slip in one."""
    def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
        if only is not None and loss_agg_mode not in only:
            return _agg(loss_mat, loss_mask, loss_agg_mode, loss_scale_factor)
        return _agg(loss_mat, loss_mask, loss_agg_mode, loss_scale_factor, **switches)
    return agg_loss


MISTAKES = (
    Mistake("mask_ignored", _variant(use_mask=False)),
    *(Mistake("mask_ignored", _variant(only=(mode,), use_mask=False)) for mode in MODES),
    Mistake("padding_in_denominator", _variant(denominator="padding")),
    Mistake("padding_in_denominator", _variant(only=("token-mean",), denominator="padding")),
    Mistake("padding_in_denominator", _variant(only=("seq-mean-token-mean",), denominator="padding")),
    Mistake("token_mean_of_row_means", _variant(token_mean_as="rows")),
    Mistake("seq_mean_over_tokens", _variant(seq_mean_as="tokens")),
    Mistake("empty_rows_counted", _variant(empty_rows="count")),
    Mistake("empty_rows_counted", _variant(only=("seq-mean-token-sum",), empty_rows="count")),
    Mistake("empty_rows_counted", _variant(only=("seq-mean-token-mean",), empty_rows="count")),
    Mistake("dr_grpo_divided_by_b", _variant(norm_per_b=True)),
    Mistake("scale_factor_ignored", _variant(scale_ignored=True)),
    Mistake("nan_when_all_masked", _variant(unguarded=True)),
    *(Mistake("nan_when_all_masked", _variant(only=(mode,), unguarded=True)) for mode in MODES[:3]),
    Mistake("nan_when_all_masked", _variant(rows_unguarded=True)),
    Mistake("nan_when_all_masked", _variant(unguarded="where", rows_unguarded="where")),
    Mistake("zero_cut_off_graph", _variant(detached_zero=True)),
    Mistake("unknown_mode_accepted", _variant(unknown="token-mean")),
)


def _bench(g: torch.Generator) -> Inputs:
    B, T = 256, 4096
    mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (B,), generator=g)[:, None]
    return Inputs(args={"loss_mat": torch.randn(B, T, generator=g), "loss_mask": mask,
                        "loss_agg_mode": "seq-mean-token-mean"}, grad_of=("loss_mat",))


# `kata check loss-agg --bench`: 256 responses of up to 4096 tokens, forward and backward.
BENCH = ("B = 256, T = 4096, seq-mean-token-mean", _bench)
