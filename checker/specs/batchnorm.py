"""Case families for `batchnorm`: sequences of train and eval steps on one module, with the output
and both running buffers compared after every step. [N, C] and [N, C, L]; momentum 0, 0.3 and 1; a
custom eps; eval first with loaded statistics; N = 2 in train mode, N = 1 in eval mode, L = 1, and
N = 1 with L = 8 (the Bessel factor counts N·L values); float64; gradients through the batch
statistics; the fresh module's parameters and buffers."""
from __future__ import annotations

import torch
import torch.nn as nn

from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _norm
from checker.specs._norm import FRESH, gain, pick, randint, randn, several_steps, shift, uniform

BUFFERS = ("running_mean", "running_var")
# float32 gradients only where a channel has enough values to be more than rounding noise (KATAS.md)
MIN_GRAD_CHANNEL = 8


def _x(g: torch.Generator, shape: tuple[int, ...], centres: torch.Tensor, spreads: torch.Tensor, dtype) -> torch.Tensor:
    """x of `shape` whose channel c is centres[c] + spreads[c] · N(0, 1): channels unlike each other."""
    view = (1, -1) if len(shape) == 2 else (1, -1, 1)
    x = centres.view(view) + spreads.view(view) * torch.randn(shape, generator=g, dtype=torch.float64)
    return x.to(dtype)


def _case(modes, *shape, shapes=None, dtype=torch.float32, momentum=None, eps=None, grads=True, scale=1.0):
    """A sequence of `modes` ("train"/"eval"), each step an x of `shape` (or its own, from `shapes`)."""
    C = shape[1] if shape else shapes[0][1]

    def make(g: torch.Generator) -> Inputs:
        # centres of a few spreads: float32 answers then agree to (1e-4, 1e-5) whatever their order of operations
        spreads = scale * torch.exp(randn(g, C, scale=0.5, dtype=torch.float64))
        centres = randn(g, C, scale=2.0 * scale, dtype=torch.float64)
        xs = [_x(g, s, centres, spreads, dtype) for s in (shapes or [shape] * len(modes))]
        params = {"weight": gain(g, C), "bias": shift(g, C), "running_mean": randn(g, C),
                  "running_var": torch.exp(randn(g, C, scale=0.5))}
        init = {"num_features": C}
        init.update({} if eps is None else {"eps": eps})
        init.update({} if momentum is None else {"momentum": momentum})
        n = xs[0].numel() // C
        want_grads = grads and modes[0] == "train" and (dtype == torch.float64 or dtype == torch.float32 and n >= MIN_GRAD_CHANNEL)
        return Inputs(args=several_steps(list(modes), xs), init=init, params=params,
                      grad_of=("x of step 1",) if want_grads else (), probe=randn(g, *xs[0].shape) if want_grads else None,
                      show=dict(init))
    return make


def _fresh(g: torch.Generator) -> Inputs:
    xs = [_x(g, (6, 4), torch.tensor([1.0, -2.0, 0.5, 3.0]), torch.tensor([2.0, 0.5, 1.0, 3.0]), torch.float32)
          for _ in range(2)]
    return Inputs(args=several_steps(["train", "eval"], xs), init={"num_features": 4}, show={FRESH: True})


def _random(g: torch.Generator) -> Inputs:
    C, N = randint(g, 1, 6), randint(g, 2, 12)
    three_d = bool(randint(g, 0, 1))
    shape = (N, C, randint(g, 1, 6)) if three_d else (N, C)
    k = randint(g, 1, 5)
    modes = [pick(g, ["train", "train", "eval"]) for _ in range(k)]
    dtype = pick(g, [torch.float32, torch.float32, torch.float64])
    momentum = pick(g, [None, None, round(uniform(g, 0.0, 1.0), 3)])
    eps = pick(g, [None, None, 1e-3, 0.1])
    return _case(modes, *shape, dtype=dtype, momentum=momentum, eps=eps, scale=pick(g, [1.0, 1.0, 0.1, 5.0]))(g)


T, E = "train", "eval"

FAMILIES = (
    Family("init", _fresh),
    Family("two_d", _case([T], 8, 4)),
    Family("three_d", _case([T], 4, 3, 5)),
    Family("three_train_two_eval", _case([T, T, T, E, E], 8, 4)),
    Family("three_train_two_eval_3d", _case([T, T, T, E, E], 4, 3, 6, momentum=0.3)),
    Family("momentum_zero", _case([T, T, E], 6, 3, momentum=0.0)),
    Family("momentum_one", _case([T, T, E], 6, 3, 2, momentum=1.0)),
    Family("custom_eps", _case([T, E], 8, 4, eps=0.1, scale=0.1)),
    Family("train_eval_switching", _case([T, E, T, E, T, E], 6, 4, 3, momentum=0.2)),
    Family("eval_first", _case([E, E, T, E], 5, 4)),
    Family("batch_of_two", _case([T, E], 2, 4, grads=False)),
    Family("batch_of_two_float64", _case([T, E], 2, 4, dtype=torch.float64)),
    Family("eval_batch_of_one", _case([E, E], shapes=[(1, 4), (1, 4, 3)])),
    Family("length_one", _case([T, E], 6, 4, 1)),
    Family("one_sample_long", _case([T, E], 1, 3, 8)),
    Family("float64", _case([T, T, E], 6, 3, 4, dtype=torch.float64, momentum=0.3)),
    Family("gradients", _case([T], 16, 3)),
    Family("gradients_3d", _case([T], 4, 3, 4)),
    Family("device", _case([T, E], 8, 4), track_device=True),
    Family("random", _random, draws=85),
)


def call(kata, entry, inputs, device, track_device=False):
    return _norm.call(kata, entry, inputs, device, track_device, buffers=BUFFERS)


def expected(kata, entry, inputs, device):
    return _norm.expected(kata, entry, inputs, device, buffers=BUFFERS)


compare = _norm.compare
tolerance_for = _norm.tolerance_for


# ---------------------------------------------------------------- known mistakes


class _BatchNorm1d(nn.Module):
    """The right computation with switches, one per known mistake."""

    running_var_biased = False
    momentum_reversed = False  # Keras: new = momentum · old + (1 − momentum) · batch
    batch_stats_in_eval = False  # self.training never read: batch statistics and updates in eval too
    not_updated = False
    with_history = False  # the update is part of the graph (no torch.no_grad(), no detach)
    normalise_unbiased = False
    bessel_n_is_batch = False  # m/(m − 1) with m = N, not N·L
    over_batch_only = False  # [N, C, L]: statistics over dim 0 alone, one per (channel, position)
    statistics_detached = False
    eps_outside_root = False
    running_in_train = False  # train mode normalises with the freshly updated running statistics
    eval_batch_no_update = False  # eval normalises with the batch's statistics, updates only in train
    update_in_eval = None  # "updated" | "old": eval updates the buffers, then normalises with the new or the old ones
    channels_last = None  # "dims": a 3-D x read as [N, L, C], statistics over all but the last dim (raises
    # where L fits neither C nor 1, as the file does); "reshape": x.reshape(-1, C), its memory read as [N, L, C]
    per_sample = False  # statistics per sample (over every dim but 0), the running buffers updated in place with
    # them (raises where N fits neither C nor 1, as the file does)

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        if self.channels_last is not None:
            return self._channels_last(x)
        if self.per_sample and self.training:
            dims = tuple(range(1, x.dim()))
            mean, var = x.mean(dims, keepdim=True), x.var(dims, unbiased=False, keepdim=True)
            m = x.numel() // x.shape[0]
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean.flatten())
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var.flatten() * m / max(m - 1, 1))
            shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
            return (x - mean) / torch.sqrt(var + self.eps) * self.weight.view(shape) + self.bias.view(shape)
        if self.update_in_eval is not None and not self.training:
            old = self.running_mean.clone(), self.running_var.clone()
            shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
            dims = (0,) if x.dim() == 2 else (0, 2)
            self._update(x.mean(dims, keepdim=True), ((x - x.mean(dims, keepdim=True)) ** 2).mean(dims, keepdim=True),
                         x.numel() // x.shape[1], x.dim())
            mean, var = (self.running_mean, self.running_var) if self.update_in_eval == "updated" else old
            return (x - mean.view(shape)) / torch.sqrt(var.view(shape) + self.eps) * self.weight.view(shape) + self.bias.view(shape)
        dims = (0,) if x.dim() == 2 or self.over_batch_only else (0, 2)
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        if self.training or self.batch_stats_in_eval or self.eval_batch_no_update:
            m = x.shape[0] if self.bessel_n_is_batch or self.over_batch_only else x.numel() // x.shape[1]
            mean = x.mean(dims, keepdim=True)
            var = ((x - mean) ** 2).mean(dims, keepdim=True)
            if self.statistics_detached:
                mean, var = mean.detach(), var.detach()
            if not self.not_updated and (self.training or not self.eval_batch_no_update):
                self._update(mean, var, m, x.dim())
            if self.normalise_unbiased:
                var = var * m / (m - 1)
            if self.running_in_train:
                mean, var = self.running_mean.view(shape), self.running_var.view(shape)
        else:
            mean, var = self.running_mean.view(shape), self.running_var.view(shape)
        denominator = var.sqrt() + self.eps if self.eps_outside_root else torch.sqrt(var + self.eps)
        return (x - mean) / denominator * self.weight.view(shape) + self.bias.view(shape)

    def _channels_last(self, x):
        C = self.weight.shape[0]
        h = x.reshape(-1, C) if self.channels_last == "reshape" else x
        dims = tuple(range(h.dim() - 1))
        if self.training:
            mean, var = h.mean(dims), h.var(dims, unbiased=False)
            m = h.numel() // h.shape[-1]
            with torch.no_grad():
                self.running_mean.mul_(1 - self.momentum).add_(self.momentum * mean)
                self.running_var.mul_(1 - self.momentum).add_(self.momentum * var * m / max(m - 1, 1))
        else:
            mean, var = self.running_mean, self.running_var
        y = (h - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias
        return y.reshape(x.shape) if self.channels_last == "reshape" else y

    def _update(self, mean, var, m, rank):
        # over_batch_only keeps one statistic per (channel, position): the buffers get their average
        mean, var = (mean.flatten(), var.flatten()) if rank == 2 or not self.over_batch_only else (mean.mean((0, 2)), var.mean((0, 2)))
        # n = N: with one sample the factor divides by zero, as the mistake written out does (inf, not an error)
        unbiased = var if self.running_var_biased else var * m / (m - 1 if self.bessel_n_is_batch else max(m - 1, 1))
        keep = self.momentum if self.momentum_reversed else 1 - self.momentum
        if self.with_history:
            self.running_mean = keep * self.running_mean + (1 - keep) * mean
            self.running_var = keep * self.running_var + (1 - keep) * unbiased
            return
        with torch.no_grad():
            self.running_mean.mul_(keep).add_((1 - keep) * mean)
            self.running_var.mul_(keep).add_((1 - keep) * unbiased)


def _variant(**switches):
    return type("Variant", (_BatchNorm1d,), switches)


MISTAKES = (
    Mistake("running_var_biased", _variant(running_var_biased=True)),
    Mistake("momentum_reversed", _variant(momentum_reversed=True)),
    Mistake("batch_stats_in_eval", _variant(batch_stats_in_eval=True)),
    Mistake("buffers_not_updated", _variant(not_updated=True)),
    Mistake("buffers_with_history", _variant(with_history=True)),
    Mistake("normalised_with_unbiased_var", _variant(normalise_unbiased=True)),
    Mistake("bessel_uses_batch_size", _variant(bessel_n_is_batch=True)),
    Mistake("stats_over_batch_only", _variant(over_batch_only=True)),
    Mistake("statistics_detached", _variant(statistics_detached=True)),
    Mistake("eps_outside_root", _variant(eps_outside_root=True)),
    Mistake("running_stats_in_train", _variant(running_in_train=True)),
    Mistake("batch_stats_in_eval", _variant(eval_batch_no_update=True)),  # the usual spelling: no update in eval
    Mistake("running_stats_updated_in_eval", _variant(update_in_eval="updated")),
    Mistake("running_stats_updated_in_eval", _variant(update_in_eval="old")),
    Mistake("channels_last_3d", _variant(channels_last="dims")),
    Mistake("channels_last_3d", _variant(channels_last="reshape")),
    Mistake("per_sample_statistics", _variant(per_sample=True)),
)

# `kata check batchnorm --bench`: one training step over a large batch of feature maps.
BENCH = ("x [64, 256, 128], one train step, forward and backward",
         lambda g: Inputs(args={"x": torch.randn(64, 256, 128, generator=g)}, init={"num_features": 256}, train=True,
                          grad_of=("x",)))
