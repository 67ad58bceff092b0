"""Case families for `cross-entropy`: where ignore_index sits (a real class, outside the classes,
every row), the three label-smoothing corners, logits of +-1e4 and targets whose probability
underflows, a 32k vocabulary, and float16 / bfloat16 forward only.

Every float32 / float64 case compares the loss and its gradient w.r.t. logits (loss.backward()):
a mean taken over the ignored rows, or smoothing spread over K - 1 classes, shows in both. The
all-ignored cases also compare `loss requires_grad`: the loss is 0 and still in the graph.
"""
from __future__ import annotations

import sys

import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._training import HALF, pick, randint, randn, uniform

_OMIT = object()  # leave the argument out of the call, so its default is used


def _draw(g: torch.Generator, N: int, K: int, *, ignore: float | str = 0.0, ignore_index: object = -100,
          eps: object = 0.0, scale: float = 3.0, dtype: torch.dtype = torch.float32,
          targets: str = "random") -> Inputs:
    """ignore: the fraction of rows whose target is ignore_index ("all" = every row, at least one
    row either way when > 0); targets: "random", "ends" (0 and K - 1 only), "underflow" (each
    target's logit 1e4 below its row's max) or "argmin"."""
    logits = randn(g, N, K, dtype=torch.float64, scale=scale)
    if targets == "ends":
        t = torch.where(torch.rand(N, generator=g) < 0.5, 0, K - 1)
    elif targets in ("underflow", "argmin"):
        t = torch.randint(K, (N,), generator=g)
        logits.scatter_(1, t[:, None], logits.amin(dim=1, keepdim=True) - (1e4 if targets == "underflow" else 1.0))
    else:
        t = torch.randint(K, (N,), generator=g)
    index = -100 if ignore_index is _OMIT else ignore_index
    if ignore == "all":
        dropped = torch.ones(N, dtype=torch.bool)
    else:
        dropped = torch.rand(N, generator=g) < ignore
        if ignore > 0 and N > 1 and not dropped.any():
            dropped[randint(g, 0, N - 1)] = True
        if ignore > 0 and dropped.all():
            dropped[randint(g, 0, N - 1)] = False
    t = torch.where(dropped, torch.full_like(t, index), t)
    args = {"logits": logits.to(dtype), "targets": t}
    show = {}
    if ignore_index is not _OMIT:
        args["ignore_index"] = index
        show["ignore_index"] = index
    if eps is not _OMIT:
        args["label_smoothing"] = eps
        show["label_smoothing"] = eps
    return Inputs(args=args, grad_of=() if dtype in HALF else ("logits",), show=show)


def _case(N, K, **kw):
    return lambda g: _draw(g, N, K, **kw)


def _real_class_ignored(index: int):
    """ignore_index is a class the other rows use: rows with that target drop out, the rest stay."""
    def make(g: torch.Generator) -> Inputs:
        inputs = _draw(g, 8, 6, ignore_index=index, eps=0.1)
        t = inputs.args["targets"]
        t[:2] = index  # two rows surely ignored
        t[2:] = torch.where(t[2:] == index, (t[2:] + 1) % 6, t[2:])  # the others surely kept
        return inputs
    return make


def _row_scales(g: torch.Generator) -> Inputs:
    """Rows of very different sizes: 1e-3 (nearly uniform), 1, 30 and 1000 (one class takes all)."""
    inputs = _draw(g, 8, 10, ignore=0.25, eps=0.1)
    scales = torch.tensor([1e-3, 1.0, 30.0, 1e3] * 2, dtype=torch.float64)[:, None]
    inputs.args["logits"] = (inputs.args["logits"].double() * scales).float()
    return inputs


def _random(dtype: torch.dtype = torch.float32):
    def make(g: torch.Generator) -> Inputs:
        N, K = randint(g, 1, 24), randint(g, 2, 40)
        ignore = pick(g, [0.0, 0.2, 0.5, 0.8])
        index = pick(g, [-100, -100, -1, 0, K, 7, _OMIT])
        eps = pick(g, [0.0, 0.0, 0.1, 0.2, round(uniform(g, 0.0, 1.0), 3), _OMIT])
        scale = pick(g, [1.0, 3.0, 10.0])
        return _draw(g, N, K, ignore=ignore if N > 1 else 0.0, ignore_index=index, eps=eps, scale=scale, dtype=dtype)
    return make


HUGE = 1e4  # exp(1e4) is inf in every dtype: only a shifted log-sum-exp survives

FAMILIES = (
    Family("no_ignored", _case(8, 5)),
    Family("some_ignored", _case(10, 6, ignore=0.3)),
    Family("defaults", _case(10, 6, ignore=0.3, ignore_index=_OMIT, eps=_OMIT)),
    Family("ignore_index_zero", _real_class_ignored(0)),
    Family("ignore_index_real_class", _real_class_ignored(3)),
    Family("ignore_index_k", _case(9, 5, ignore=0.4, ignore_index=5)),
    Family("ignore_index_negative_one", _case(9, 5, ignore=0.4, ignore_index=-1, eps=0.1)),
    Family("all_ignored", _case(6, 5, ignore="all")),
    Family("all_ignored_smoothing", _case(6, 5, ignore="all", eps=0.1)),
    Family("all_ignored_one_row", _case(1, 4, ignore="all", ignore_index=0)),
    Family("smoothing_0_1", _case(10, 7, ignore=0.2, eps=0.1)),
    Family("smoothing_one", _case(10, 7, ignore=0.2, eps=1.0)),
    Family("smoothing_large_k", _case(6, 500, ignore=0.2, eps=0.2)),
    Family("one_row", _case(1, 6, eps=0.1)),
    Family("two_classes", _case(12, 2, ignore=0.25, eps=0.1)),
    Family("vocab_32000", _case(6, 32000, ignore=0.2, eps=0.1)),
    Family("targets_first_and_last", _case(10, 9, targets="ends", eps=0.1)),
    Family("huge_logits", _case(8, 6, scale=HUGE, ignore=0.25)),
    Family("huge_logits_smoothing", _case(8, 6, scale=HUGE, ignore=0.25, eps=0.1)),
    Family("target_probability_underflows", _case(6, 8, targets="underflow")),
    Family("target_probability_underflows_smoothing", _case(6, 8, targets="underflow", eps=0.1)),
    Family("target_least_likely", _case(6, 8, targets="argmin", scale=20.0)),
    Family("rows_of_different_scales", _row_scales),
    Family("float64", _case(10, 7, ignore=0.3, eps=0.1, dtype=torch.float64)),
    Family("float64_huge_logits", _case(8, 6, scale=HUGE, ignore=0.25, eps=0.1, dtype=torch.float64)),
    Family("float16", _case(10, 64, ignore=0.3, eps=0.1, dtype=torch.float16)),
    Family("float16_all_ignored", _case(4, 16, ignore="all", dtype=torch.float16)),
    # p of the target ~1e-20: 0 in float16, not in float32 (log(softmax) only breaks without the upcast)
    Family("float16_target_unlikely", _case(6, 8, targets="argmin", scale=20.0, ignore=0.2, dtype=torch.float16)),
    Family("bfloat16", _case(10, 64, ignore=0.3, eps=0.1, dtype=torch.bfloat16)),
    Family("bfloat16_no_smoothing", _case(10, 64, ignore=0.3, dtype=torch.bfloat16)),
    Family("random", _random(), draws=66),
    Family("random_float64", _random(torch.float64), draws=10),
    Family("device", _case(8, 6, ignore=0.3, eps=0.1), track_device=True),
    Family("device_defaults", _case(8, 6, ignore=0.3, ignore_index=_OMIT, eps=_OMIT), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- hooks


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The default protocol; an all-ignored case also records whether the loss is still in the graph."""
    outcome = spec_api.call(kata, entry, inputs, device, track_device)
    targets = inputs.args["targets"]
    if inputs.grad_of and bool((targets == inputs.args.get("ignore_index", -100)).all()):
        outcome = _training.record_requires_grad(outcome, kata.outputs, ("loss",))
    return outcome


expected = _training.expected


def tolerance_for(case, item: str, dtype: torch.dtype, expected_data) -> tuple[float, float] | None:
    """The loss and its gradient carry the rounding of the largest logit (1e-3 at 1e4 in float32);
    each gradient entry is (p - q) / n, n the number of kept rows."""
    args = case.inputs.args
    spread = float(args["logits"].double().abs().max())
    if item.startswith("grad of"):
        kept = int((args["targets"] != args.get("ignore_index", -100)).sum())
        return _training.gradient_tolerance(sys.modules[__name__], dtype, 1 / max(kept, 1), spread)
    if item == "loss" and dtype.is_floating_point:
        rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
        return rtol, max(atol, 4 * torch.finfo(dtype).eps * spread)
    return None


def compare(kata, case, expected, got) -> list[Problem] | None:
    """The generic comparison, with `loss requires_grad` said in words."""
    with _training.one_thread():
        problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    detached = any(_training.is_requires_grad_item(p.item) for p in problems)
    said = []
    for p in problems:
        if detached and p.item.startswith("grad of") and p.mismatch is None and got.extras.get(p.item) is None:
            continue  # said better below: the loss itself is cut off the graph
        if _training.is_requires_grad_item(p.item):
            p = Problem("rule", "loss", tr("every target is ignored, so the loss is 0, but it must still be part of "
                                           "the graph (requires_grad=True) so that loss.backward() works: build the "
                                           "0 from the logits (a masked sum divided by max(count, 1)), not "
                                           "torch.zeros(())"))
        said.append(p)
    return said


# ---------------------------------------------------------------- known mistakes


def _variant(*, shift=True, log_of_softmax=False, upcast=True, count_all=False, smooth_over="K", one_minus_eps=True,
             smoothing=True, ignore="index", masked_sum=True, empty="zero", reduce="mean", classes="sum",
             smooth_term="mean", smooth_rows="kept", mask_by="multiply", ignored_at="target"):
    """ignore: "index" (targets != ignore_index), "-100" (the default hard-coded), "negative" (targets >= 0
    kept); upcast: half logits computed in float32; classes: "mean" averages -(q * log p) over the classes
    instead of summing it; smooth_term: "sum" is eps * sum_k -log p[k] (the 1/K left out); smooth_rows:
    "kept", "all_sum" (fairseq's pad mask on the nll only: every row's smoothing summed, divided by the
    kept count) or "all_mean" (the nll averaged over kept rows, the smoothing over all rows); ignored_at: where
    a sum that forgot the mask gathers its ignored rows, "target" (clamped into range) or "zero" (class 0, the
    usual safe index)."""
    def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
        x = logits.float() if logits.dtype in HALF and upcast else logits
        N, K = x.shape
        if log_of_softmax:
            log_p = torch.log(torch.softmax(x, dim=-1))
        else:
            m = x.max(dim=-1, keepdim=True).values if shift else torch.zeros_like(x[:, :1])
            log_p = x - m - torch.log(torch.exp(x - m).sum(dim=-1, keepdim=True))
        if ignore == "index":
            keep = targets != ignore_index
        elif ignore == "negative":
            keep = targets >= 0
        else:  # the usual default hard-coded
            keep = targets != -100
        counted = keep if masked_sum else torch.ones_like(keep)
        # the ignored rows of a sum that forgot the mask are gathered where their target points
        y = torch.where(keep, targets, torch.zeros_like(targets)) if masked_sum or ignored_at == "zero" else targets
        # targets >= 0 keeps a target of K (an ignore_index of K): gather raises there, as the learner's does
        y = y if ignore == "negative" else y.clamp(0, K - 1)
        nll = -log_p.gather(1, y[:, None]).squeeze(1)
        eps = label_smoothing if smoothing else 0.0
        uniform = (-log_p).sum(-1) if smooth_term == "sum" else (-log_p).mean(-1)
        if smooth_over == "K - 1":  # eps spread over the other K - 1 classes only
            others = (-log_p).sum(-1) - nll
            per_row = (1 - eps) * nll + eps * others / (K - 1)
        else:
            per_row = (1 - eps if one_minus_eps else 1.0) * nll + eps * uniform
        if classes == "mean":
            per_row = per_row / K
        n = keep.sum()
        if smooth_rows == "all_sum":
            total = ((1 - eps) * nll * keep.to(x.dtype)).sum() + eps * uniform.sum()
        elif smooth_rows == "all_mean":
            kept_nll = ((1 - eps) * nll * keep.to(x.dtype)).sum() / n.clamp(min=1)
            return (kept_nll + eps * uniform.mean()).to(logits.dtype)
        elif mask_by == "where":  # an inf on an ignored row stays out (inf * 0 is NaN)
            total = torch.where(counted, per_row, torch.zeros_like(per_row)).sum()
        else:
            total = (per_row * counted.to(x.dtype)).sum()
        if reduce == "sum":
            loss = total
        elif count_all:
            loss = total / N
        elif empty == "nan":  # torch's own answer: 0 / 0
            loss = total / n
        elif empty == "detached":
            loss = total / n if n > 0 else torch.zeros((), dtype=x.dtype, device=x.device)
        elif empty == "where":  # the value is right, the gradient of 0 / 0 is NaN
            loss = torch.where(n > 0, total / n, torch.zeros_like(total))
        else:
            loss = total / n.clamp(min=1)
        return loss.to(logits.dtype)
    return cross_entropy


MISTAKES = (
    Mistake("no_max_shift", _variant(shift=False)),
    Mistake("log_of_softmax", _variant(log_of_softmax=True)),
    Mistake("mean_over_all_rows", _variant(count_all=True)),
    Mistake("ignored_rows_in_sum", _variant(masked_sum=False)),
    Mistake("ignored_rows_in_sum", _variant(masked_sum=False, ignored_at="zero")),
    Mistake("smoothing_over_k_minus_1", _variant(smooth_over="K - 1")),
    Mistake("smoothing_without_one_minus_eps", _variant(one_minus_eps=False)),
    Mistake("smoothing_ignored", _variant(smoothing=False)),
    Mistake("ignore_index_hardcoded", _variant(ignore="-100")),
    Mistake("sum_not_mean", _variant(reduce="sum")),
    Mistake("nan_when_all_ignored", _variant(empty="nan")),
    Mistake("detached_zero_when_all_ignored", _variant(empty="detached")),
    Mistake("nan_gradient_when_all_ignored", _variant(empty="where")),
    Mistake("ignore_mask_negative", _variant(ignore="negative")),
    Mistake("no_max_shift_in_input_dtype", _variant(shift=False, upcast=False)),
    Mistake("log_of_softmax_in_input_dtype", _variant(log_of_softmax=True, upcast=False)),
    Mistake("log_of_softmax_in_input_dtype", _variant(log_of_softmax=True, upcast=False, mask_by="where")),
    Mistake("smoothed_loss_mean_over_classes", _variant(classes="mean")),
    Mistake("smoothing_summed_over_classes", _variant(smooth_term="sum")),
    Mistake("smoothing_on_ignored_rows", _variant(smooth_rows="all_sum")),
    Mistake("smoothing_mean_over_all_rows", _variant(smooth_rows="all_mean")),
)


def _bench(g: torch.Generator) -> Inputs:
    N, K = 1024, 32000
    targets = torch.randint(K, (N,), generator=g)
    targets[torch.rand(N, generator=g) < 0.1] = -100
    return Inputs(args={"logits": torch.randn(N, K, generator=g), "targets": targets, "label_smoothing": 0.1},
                  grad_of=("logits",))


# `kata check cross-entropy --bench`: 1k tokens over a 32k vocabulary, forward and backward.
BENCH = ("N = 1024 tokens, K = 32000 classes, 10% ignored, smoothing 0.1", _bench)
