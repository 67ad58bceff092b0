"""Case families for `kl-estimators`: each of k1 / k2 / k3 with no mask, a bool and a float mask, padding that
holds log-probs 15 nats from the reference's, empty rows, rows of different lengths, large and tiny log-ratios,
policy = reference, 1-D / 2-D / 3-D inputs, one token, float64, the default kind, and unknown kinds that raise.

Compared: kl (masked positions exactly 0, by equality), kl_mean, and the gradient w.r.t. log_probs of
(kl·probe).sum() + kl_mean: a kl_mean cut off the graph, or padding that leaks into it, shows there.
"""
from __future__ import annotations

import sys
from dataclasses import replace

import torch

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.text.i18n import plural, tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._align import TOLERANCES, as_kind, holey_mask, leak_grid, lengths_mask, tolerance_for  # noqa: F401
from checker.specs._rl import pick, randint, uniform

KINDS = ("k1", "k2", "k3")
_OMIT = object()


def _draw(g: torch.Generator, shape: tuple[int, ...], kind: object = "k3", *, mask: str | None = "bool",
          lengths: object = "random", spread: float = 1.0, garbage: float = 15.0, dtype=torch.float32) -> Inputs:
    """spread: the largest |log r| at valid positions; garbage: |log r| of the padding (up to)."""
    ref = -(0.5 + 5.0 * torch.rand(shape, generator=g, dtype=torch.float64))
    log_r = spread * (2 * torch.rand(shape, generator=g, dtype=torch.float64) - 1)
    args: dict = {}
    valid = torch.ones(shape, dtype=torch.bool)
    if mask is not None:
        rows, T = (1, shape[0]) if len(shape) == 1 else (int(torch.tensor(shape[:-1]).prod()), shape[-1])
        flat = holey_mask(g, rows, T) if lengths == "holes" else lengths_mask(g, rows, T, lengths)
        if not flat.any():
            flat[0, 0] = True  # at least one valid token overall
        valid = flat.reshape(shape)
        far = garbage * (0.5 + 0.5 * torch.rand(shape, generator=g, dtype=torch.float64))
        sign = torch.where(torch.rand(shape, generator=g) < 0.5, -1.0, 1.0).to(torch.float64)
        log_r = torch.where(valid, log_r, sign * far)
    logp = ref - log_r
    args = {"log_probs": logp.to(dtype), "ref_log_probs": ref.to(dtype)}
    if kind is not _OMIT:
        args["kind"] = kind
    if mask is not None:
        args["mask"] = as_kind(valid, mask, dtype)
    probe = torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)
    return Inputs(args=args, grad_of=("log_probs",), probe=probe)


def _case(shape, kind="k3", **kw):
    return lambda g: _draw(g, shape, kind, **kw)


def _unknown(kind: str):
    def make(g: torch.Generator) -> Inputs:
        inputs = _draw(g, (3, 5), kind)
        return Inputs(args=inputs.args, raises="ValueError", show={"kind": kind})
    return make


def _random(g: torch.Generator) -> Inputs:
    dims = randint(g, 1, 3)
    shape = tuple(randint(g, 1, 6) for _ in range(dims - 1)) + (randint(g, 1, 12),)
    return _draw(g, shape, pick(g, list(KINDS)), mask=pick(g, [None, "bool", "bool", "float"]),
                 lengths=pick(g, ["random", "random0", "holes"]), spread=round(uniform(g, 1e-3, 2.2), 4),
                 garbage=pick(g, [3.0, 15.0]), dtype=pick(g, [torch.float32, torch.float32, torch.float64]))


def _per_kind(stem: str, shape, **kw) -> tuple[Family, ...]:
    return tuple(Family(f"{k}_{stem}", _case(shape, k, **kw)) for k in KINDS)


FAMILIES = (
    Family("unknown_kind_k4", _unknown("k4")),
    Family("unknown_kind_verl_kl", _unknown("kl")),
    Family("unknown_kind_low_var_kl", _unknown("low_var_kl")),
    Family("unknown_kind_upper_case", _unknown("K3")),
    *_per_kind("no_mask", (4, 6), mask=None),
    *_per_kind("bool_mask", (4, 6), lengths=(6, 3, 1, 5)),
    *_per_kind("float_mask", (4, 6), lengths=(6, 3, 1, 5), mask="float"),
    *_per_kind("padding_15_nats", (3, 8), lengths=(8, 2, 5), garbage=15.0),
    *_per_kind("empty_row", (4, 5), lengths=(5, 0, 2, 3)),
    *_per_kind("unequal_lengths", (3, 12), lengths=(12, 1, 4)),
    *_per_kind("holes", (4, 8), lengths="holes"),
    *_per_kind("large_log_ratio", (4, 6), lengths=(6, 3, 1, 5), spread=2.2),
    *_per_kind("tiny_log_ratio", (4, 6), lengths=(6, 3, 1, 5), spread=1e-4),
    *_per_kind("policy_is_reference", (3, 5), lengths=(5, 2, 4), spread=0.0),
    *_per_kind("one_dim", (9,), lengths=(6,)),
    *_per_kind("three_dim", (2, 3, 5), lengths="random0"),
    *_per_kind("single_token", (1,), mask=None),
    *_per_kind("float64", (4, 6), lengths=(6, 0, 2, 5), dtype=torch.float64),
    Family("default_kind", _case((4, 6), _OMIT, lengths=(6, 3, 1, 5))),
    Family("random", _random, draws=55),
    Family("device", _case((3, 6), "k3", lengths=(6, 2, 4)), track_device=True),
    Family("device_no_mask", _case((3, 6), "k3", mask=None), track_device=True),
    Family("device_k1", _case((3, 6), "k1", lengths=(6, 2, 4)), track_device=True),
    Family("device_k2", _case((3, 6), "k2", lengths=(6, 2, 4)), track_device=True),
)


# ---------------------------------------------------------------- how a case runs and is judged

GRAD = "grad of log_probs"


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """The default protocol, with the gradient of (kl·probe).sum() + kl_mean taken inside the call, so
    kl_mean must stay in the graph; the entry point's own outputs are what is compared."""
    probe = inputs.probe

    def combined(**args):
        leaf = args["log_probs"].detach().requires_grad_(True)
        value = entry(**{**args, "log_probs": leaf})
        return value, _grad_of(value, leaf, probe)

    outcome = spec_api.call(kata, combined, replace(inputs, grad_of=(), probe=None), device, track_device)
    if inputs.raises is not None:
        return outcome
    value, grad = outcome.value
    return Outcome(value, {GRAD: grad}, outcome.args)


def _grad_of(value, leaf: torch.Tensor, probe: torch.Tensor | None):
    """d/d log_probs of (kl·probe).sum() + kl_mean; None when neither output is in the graph (or has the
    wrong shape: the structure check reports that)."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None
    kl, kl_mean = value
    terms = []
    if isinstance(kl, torch.Tensor) and kl.requires_grad and probe is not None and tuple(kl.shape) == tuple(probe.shape):
        terms.append((kl * probe.to(device=kl.device, dtype=kl.dtype)).sum())
    if isinstance(kl_mean, torch.Tensor) and kl_mean.requires_grad and kl_mean.numel() == 1:
        terms.append(kl_mean.sum())
    if not terms:
        return None
    (grad,) = torch.autograd.grad(sum(terms), leaf, allow_unused=True)
    return grad if grad is not None else torch.zeros_like(leaf)


def compare(kata, case, expected, got):
    """The generic comparison, and kl at masked positions exactly 0 (not merely close), with a grid of where."""
    if case.inputs.raises is not None:
        return None
    problems = compare_outcome(kata, sys.modules[__name__], case, expected[0], got)
    mask = case.inputs.args.get("mask")
    value = got.value
    kl = value[0] if isinstance(value, tuple) and len(value) == 2 else None
    if mask is None or getattr(kl, "data", None) is None or tuple(kl.data.shape) != tuple(mask.shape):
        return problems
    leaked = ~mask.bool() & (kl.data != 0)
    if leaked.any():
        grid = leak_grid(mask, kl.data * ~mask.bool(),
                         lambda index: tr("masked positions where kl is not 0 (✗), first at {index}:", index=index))
        said = plural(int(leaked.sum()), "kl is not exactly 0 at {n} masked position", "kl is not exactly 0 at {n} masked positions")
        problems = [Problem("values", "kl", said + "\n" + grid)] + [p for p in problems if p.item != "kl"]
    return problems


# ---------------------------------------------------------------- known mistakes


def _estimate(logp, ref, kind, mask, *, k3_inverted=False, k2_half=True, k1_sign=1.0, k3_one=True, mean="tokens",
              zero_masked=True, mean_detached=False, unknown="raise"):
    """mean: "tokens" (Σ m·kl / Σ m), "all" (kl.mean() over padding too), "rows" (a mean of row means)."""
    aliases = {"kl": "k1", "mse": "k2", "low_var_kl": "k3"}
    if kind not in ("k1", "k2", "k3"):
        if unknown == "raise":
            raise ValueError(kind)
        if unknown == "aliases":
            if kind not in aliases:
                raise ValueError(kind)
            kind = aliases[kind]
        else:
            kind = "k3"
    log_r = ref - logp
    if kind == "k1":
        kl = -k1_sign * log_r
    elif kind == "k2":
        kl = (0.5 if k2_half else 1.0) * log_r ** 2
    else:
        lr = -log_r if k3_inverted else log_r
        kl = torch.exp(lr) - lr - (1 if k3_one else 0)
    m = torch.ones_like(kl) if mask is None else mask.to(kl.dtype)
    masked = kl * m
    out = masked if zero_masked else kl
    if mean == "all":
        kl_mean = masked.mean()
    elif mean == "rows" and kl.dim() >= 2:
        kl_mean = (masked.sum(-1) / m.sum(-1).clamp(min=1)).mean()
    else:
        kl_mean = masked.sum() / m.sum()
    return out, kl_mean.detach() if mean_detached else kl_mean


def _variant(**switches):
    def kl_estimate(log_probs, ref_log_probs, kind="k3", mask=None):
        return _estimate(log_probs, ref_log_probs, kind, mask, **switches)
    return kl_estimate


MISTAKES = (
    Mistake("k3_ratio_inverted", _variant(k3_inverted=True)),
    Mistake("k2_without_half", _variant(k2_half=False)),
    Mistake("k1_sign", _variant(k1_sign=-1.0)),
    Mistake("k3_without_one", _variant(k3_one=False)),
    Mistake("mean_over_padding", _variant(mean="all")),
    Mistake("mean_of_row_means", _variant(mean="rows")),
    Mistake("padding_not_zeroed", _variant(zero_masked=False)),
    Mistake("kl_mean_detached", _variant(mean_detached=True)),
    Mistake("unknown_kind_accepted", _variant(unknown="k3")),
    Mistake("verl_names_accepted", _variant(unknown="aliases")),
)


def _bench(g: torch.Generator) -> Inputs:
    B, T = 64, 4096
    mask = torch.arange(T)[None, :] < torch.randint(1, T + 1, (B,), generator=g)[:, None]
    ref = -torch.rand(B, T, generator=g) * 5
    return Inputs(args={"log_probs": ref + 0.3 * torch.randn(B, T, generator=g), "ref_log_probs": ref, "mask": mask},
                  grad_of=("log_probs",), probe=torch.randn(B, T, generator=g))


# `kata check kl-estimators --bench`: 64 sequences of up to 4096 tokens, forward and backward.
BENCH = ("B = 64, T = 4096, k3 with a ragged mask", _bench)
