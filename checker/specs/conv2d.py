"""Case families for `conv2d`: every argument of F.conv2d alone and together (padding, the defaults,
strides whose sizes do not divide, tuples with a non-square kernel, dilation, groups, depthwise, 1×1
and full-size kernels, no bias), float64, random draws, and the device case. Every case compares the
output and the gradients of (output·probe).sum() w.r.t. x, weight and bias (when given), each with an
atol scaled by max(1, max|expected|) of that item: sums of C·kH·kW products grow with the kernel.

Sizes stay small (H, W ≤ 10, C ≤ 8): a right answer that loops over the kernel's positions, or even
over the output's, must finish the whole check within the speed bar.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs import _training
from checker.specs._training import pick, randint, randn

_OMIT = object()  # leave the argument out of the call, so its default is used
ARGS = ("stride", "padding", "dilation", "groups")


def pair(value: Any) -> tuple[int, int]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    """floor((size + 2p − d·(k − 1) − 1) / s) + 1 (F.conv2d's docs)."""
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _inputs(g: torch.Generator, N: int, C_in: int, H: int, W: int, C_out: int, kH: int, kW: int, *,
            stride: Any = _OMIT, padding: Any = _OMIT, dilation: Any = _OMIT, groups: Any = _OMIT,
            bias: Any = True, dtype: torch.dtype = torch.float32) -> Inputs:
    """bias: True (a tensor), None (passed as None) or _OMIT (left out)."""
    G = 1 if groups is _OMIT else groups
    x = randn(g, N, C_in, H, W, dtype=dtype)
    weight = randn(g, C_out, C_in // G, kH, kW, dtype=dtype, scale=1 / math.sqrt(C_in // G * kH * kW))
    args: dict[str, Any] = {"x": x, "weight": weight}
    grad_of = ["x", "weight"]
    if bias is True:
        args["bias"] = randn(g, C_out, dtype=dtype)
        grad_of.append("bias")
    elif bias is None:
        args["bias"] = None
    show = {}
    for name, value in zip(ARGS, (stride, padding, dilation, groups)):
        if value is not _OMIT:
            args[name] = show[name] = value
    (sh, sw), (ph, pw), (dh, dw) = (pair(default if v is _OMIT else v)
                                    for v, default in ((stride, 1), (padding, 0), (dilation, 1)))
    shape = (N, C_out, out_size(H, kH, sh, ph, dh), out_size(W, kW, sw, pw, dw))
    assert shape[2] >= 1 and shape[3] >= 1, f"no output for {shape}"
    return Inputs(args=args, grad_of=tuple(grad_of), probe=randn(g, *shape, dtype=dtype), show=show)


def _case(*sizes: int, **kwargs: Any) -> Callable[[torch.Generator], Inputs]:
    return lambda g: _inputs(g, *sizes, **kwargs)


def _either(g: torch.Generator, low: int, high: int, tuples: bool) -> Any:
    """An int, or (when tuples) an (h, w) pair that may differ."""
    if tuples and randint(g, 0, 1):
        return (randint(g, low, high), randint(g, low, high))
    return randint(g, low, high)


def _random(kind: str) -> Callable[[torch.Generator], Inputs]:
    def make(g: torch.Generator) -> Inputs:
        dtype = torch.float64 if kind == "float64" else torch.float32
        groups = pick(g, [2, 3, 4]) if kind == "groups" else pick(g, [1, 1, 1, 2])
        Cg, per_group = randint(g, 1, 3), randint(g, 1, 3)
        if kind == "groups" and randint(g, 0, 2) == 0:
            Cg = 1  # depthwise, with a channel multiplier
        N, kH, kW = randint(g, 1, 2), randint(g, 1, 4), randint(g, 1, 4)
        tuples = randint(g, 0, 1) == 1
        stride, dilation = _either(g, 1, 3, tuples), _either(g, 1, 3, tuples)
        padding = _either(g, 0, 2, tuples)
        (dh, dw), (ph, pw) = pair(dilation), pair(padding)
        span_h, span_w = dh * (kH - 1) + 1, dw * (kW - 1) + 1
        H = max(1, span_h - 2 * ph + randint(g, 0, 5))
        W = max(1, span_w - 2 * pw + randint(g, 0, 5))
        H, W = min(H, 10), min(W, 10)
        if H + 2 * ph < span_h or W + 2 * pw < span_w:  # the dilated kernel does not fit: no dilation
            dilation = 1
        bias = pick(g, [True, True, None, _OMIT])
        return _inputs(g, N, groups * Cg, H, W, groups * per_group, kH, kW, stride=stride, padding=padding,
                       dilation=dilation, groups=groups, bias=bias, dtype=dtype)
    return make


FAMILIES = (
    Family("pad1_3x3", _case(2, 3, 6, 5, 4, 3, 3, padding=1)),
    Family("defaults", _case(2, 3, 7, 6, 2, 3, 2, bias=_OMIT)),
    Family("stride2_floor", _case(1, 2, 7, 8, 3, 3, 3, stride=2)),
    Family("stride2_pad1_floor", _case(2, 2, 8, 7, 3, 3, 3, stride=2, padding=1)),
    Family("stride_above_kernel", _case(1, 2, 8, 9, 2, 2, 2, stride=3)),
    Family("tuple_args", _case(1, 2, 9, 7, 3, 3, 2, stride=(2, 1), padding=(1, 2), dilation=(1, 2))),
    Family("tuple_args_other_way", _case(2, 2, 7, 10, 2, 2, 3, stride=(1, 3), padding=(0, 1), dilation=(2, 1))),
    Family("padding_one_axis", _case(1, 3, 5, 6, 2, 3, 3, padding=(0, 2))),
    Family("dilation2_pad2", _case(2, 2, 7, 7, 3, 3, 3, padding=2, dilation=2)),
    Family("dilation3", _case(1, 3, 8, 6, 2, 2, 2, dilation=3)),
    Family("groups2", _case(2, 4, 6, 6, 6, 3, 3, padding=1, groups=2)),
    Family("groups4", _case(1, 8, 5, 6, 4, 2, 3, groups=4)),
    Family("depthwise", _case(2, 3, 6, 5, 6, 3, 3, padding=1, groups=3)),
    Family("kernel_1x1", _case(2, 5, 4, 6, 3, 1, 1)),
    Family("kernel_as_large_as_input", _case(2, 3, 5, 4, 2, 5, 4)),
    Family("bias_none", _case(2, 3, 6, 7, 4, 3, 3, stride=2, padding=1, bias=None)),
    Family("one_sample_one_channel", _case(1, 1, 6, 6, 1, 3, 3)),
    Family("float64", _case(2, 4, 7, 8, 4, 3, 2, stride=2, padding=1, dilation=2, groups=2, dtype=torch.float64)),
    Family("random", _random("float32"), draws=60),
    Family("random_float64", _random("float64"), draws=20),
    Family("random_groups", _random("groups"), draws=15),
    Family("device", _case(2, 4, 6, 5, 4, 3, 3, stride=(2, 1), padding=1, groups=2), track_device=True),
    Family("device_defaults", _case(2, 3, 7, 6, 2, 3, 2, bias=_OMIT), track_device=True),
)
FAMILIES = _training.single_threaded(FAMILIES)


# ---------------------------------------------------------------- hooks


def tolerance_for(case: Any, item: str, dtype: torch.dtype, expected: torch.Tensor | None) -> tuple[float, float] | None:
    """Output and gradients alike: the dtype's atol times max(1, max|expected|) of the item."""
    if expected is None or expected.numel() == 0 or not expected.is_floating_point():
        return None
    rtol, atol = spec_api.TOLERANCES.get(dtype, (0.0, 0.0))
    return rtol, atol * max(1.0, float(expected.double().abs().max()))


# ---------------------------------------------------------------- known mistakes


def _variant(*, flip=False, size="floor", pad="both", stride_in_input=True, taps="right",
             channels="contiguous", bias_mode="right", graph=True, swap_hw=False, empty_output=False, swapped=()):
    """The reference's im2col with one slip. pad: "both", "top_left" or "bottom_right" (one side only),
    "twice_top_left" or "twice_bottom_right" (all 2p rows and columns on one side: the size right, the windows
    shifted), or "width_only" (F.pad(x, (p, p)): W padded, H not);
    stride_in_input: True, False (the windows step one pixel on both axes), "rows" or "columns" (the stride
    applied to that axis alone); swapped: the tuple arguments read (w, h), each alone ("stride", "padding",
    "dilation"; swap_hw swaps all three);
    taps: "right", "index" (the taps not spread, the output size right) or "ignored" (size too);
    channels: "contiguous", "interleaved_in" (group g reads channels g, g + G, …) or "interleaved_out";
    bias_mode: "right", "ignored" or "per_group" (bias[g] added to all of group g's outputs);
    empty_output: where the slip leaves an output size of 0, return an empty output as as_strided and
    loops do (True) or raise as Tensor.unfold does (False): the slips that shrink the output have both."""
    def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        (sh, sw), (ph, pw), (dh, dw) = pair(stride), pair(padding), pair(dilation)
        if swap_hw:
            (sh, sw), (ph, pw), (dh, dw) = (sw, sh), (pw, ph), (dw, dh)
        if "stride" in swapped:
            sh, sw = sw, sh
        if "padding" in swapped:
            ph, pw = pw, ph
        if "dilation" in swapped:
            dh, dw = dw, dh
        N, C_in, H, W = x.shape
        C_out, Cg, kH, kW = weight.shape
        G = groups
        if flip:
            weight = weight.flip(-1, -2)
        H_out, W_out = out_size(H, kH, sh, ph, dh), out_size(W, kW, sw, pw, dw)
        if taps != "right":
            if taps == "ignored":
                H_out, W_out = out_size(H, kH, sh, ph, 1), out_size(W, kW, sw, pw, 1)
            dh = dw = 1
        if size == "ceil":
            H_out = math.ceil((H + 2 * ph - dh * (kH - 1) - 1) / sh) + 1
            W_out = math.ceil((W + 2 * pw - dw * (kW - 1) - 1) / sw) + 1
        pads = {"both": (pw, pw, ph, ph), "top_left": (pw, 0, ph, 0), "bottom_right": (0, pw, 0, ph),
                "width_only": (pw, pw), "twice_top_left": (2 * pw, 0, 2 * ph, 0),
                "twice_bottom_right": (0, 2 * pw, 0, 2 * ph)}[pad]
        if pad == "width_only":  # F.pad(x, (p, p)) pads the last dimension only
            H_out = out_size(H, kH, sh, 0, dh)
        elif pad in ("top_left", "bottom_right"):
            H_out, W_out = out_size(H - ph, kH, sh, ph, dh), out_size(W - pw, kW, sw, pw, dw)  # padded once
        if empty_output and min(H_out, W_out) <= 0:  # no room for a window: as_strided's empty answer (and its error
            empty = x.new_zeros(N, C_out, H_out, W_out) * (x.sum() + weight.sum())  # for a negative size); unfold raises
            return empty if bias is None else empty + bias.view(1, -1, 1, 1)
        xp = F.pad(x, pads)
        if not stride_in_input:
            step_h = step_w = 1
        else:
            step_h, step_w = sh, sw
        if stride_in_input == "rows":
            step_w = 1
        elif stride_in_input == "columns":
            step_h = 1
        span_h, span_w = dh * (kH - 1) + 1, dw * (kW - 1) + 1
        need_h, need_w = (H_out - 1) * step_h + span_h, (W_out - 1) * step_w + span_w
        xp = F.pad(xp, (0, max(0, need_w - xp.shape[3]), 0, max(0, need_h - xp.shape[2])))  # ceil: zeros past the end
        if channels == "interleaved_in":
            xp = xp[:, torch.arange(C_in, device=x.device).view(Cg, G).T.reshape(-1)]
        win = xp.unfold(2, span_h, step_h).unfold(3, span_w, step_w)[..., ::dh, ::dw][:, :, :H_out, :W_out]
        win = win.reshape(N, G, Cg, H_out, W_out, kH, kW)
        out = torch.einsum("ngchwpq,gocpq->ngohw", win, weight.reshape(G, C_out // G, Cg, kH, kW))
        out = out.reshape(N, C_out, H_out, W_out)
        if channels == "interleaved_out":
            out = out.reshape(N, G, C_out // G, H_out, W_out).transpose(1, 2).reshape(N, C_out, H_out, W_out)
        if bias is not None and bias_mode == "right":
            out = out + bias.view(1, -1, 1, 1)
        elif bias is not None and bias_mode == "per_group":
            out = out + bias[:G].repeat_interleave(C_out // G).view(1, -1, 1, 1)
        if not graph:
            out = out.detach()
        return out
    return conv2d


MISTAKES = (
    Mistake("kernel_flipped", _variant(flip=True)),
    Mistake("ceil_output_size", _variant(size="ceil")),
    Mistake("padding_one_side", _variant(pad="top_left")),
    Mistake("padding_one_side", _variant(pad="bottom_right")),
    Mistake("padding_one_side", _variant(pad="top_left", empty_output=True)),
    Mistake("padding_one_side", _variant(pad="bottom_right", empty_output=True)),
    Mistake("padding_one_side", _variant(pad="twice_top_left")),
    Mistake("padding_one_side", _variant(pad="twice_bottom_right")),
    Mistake("padding_width_only", _variant(pad="width_only")),
    Mistake("padding_width_only", _variant(pad="width_only", empty_output=True)),
    Mistake("stride_ignored_in_input", _variant(stride_in_input=False)),
    Mistake("stride_ignored_in_input", _variant(stride_in_input="rows")),
    Mistake("stride_ignored_in_input", _variant(stride_in_input="columns")),
    Mistake("dilation_ignored", _variant(taps="index")),
    Mistake("dilation_ignored", _variant(taps="ignored")),
    Mistake("groups_interleaved", _variant(channels="interleaved_in")),
    Mistake("groups_interleaved", _variant(channels="interleaved_out")),
    Mistake("bias_ignored", _variant(bias_mode="ignored")),
    Mistake("bias_per_group", _variant(bias_mode="per_group")),
    Mistake("no_gradient", _variant(graph=False)),
    Mistake("tuple_hw_swapped", _variant(swap_hw=True)),
    Mistake("tuple_hw_swapped", _variant(swap_hw=True, empty_output=True)),
    *(Mistake("tuple_hw_swapped", _variant(swapped=(name,), empty_output=empty))
      for name in ("stride", "padding", "dilation") for empty in (False, True)),
)


def _bench(g: torch.Generator) -> Inputs:
    return _inputs(g, 8, 64, 32, 32, 64, 3, 3, padding=1)


# `kata check conv2d --bench`: a ResNet-style 3×3 layer on a small batch.
BENCH = ("N = 8, 64 → 64 channels, 32×32, 3×3, padding 1", _bench)
