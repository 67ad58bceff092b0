"""Case families for `vit-patch-embed`: the usual grids (32/8, 64/16), p = 1 and one patch, rectangular images
wide and tall, one and sixteen channels, with and without a class token, B = 1, float64, the parameter names and
shapes of a fresh module, then random draws; every case loads random parameters by name and compares the output
and the gradients w.r.t. x and every parameter."""
from __future__ import annotations

import math
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake
from checker.specs._attention import call_module, pick, randint, randn
from checker.text.i18n import tr

PARAMETERS = "parameters"  # Inputs.show key marking the case that only builds the module


def _hw(img_size: Any) -> tuple[int, int]:
    return (img_size, img_size) if isinstance(img_size, int) else tuple(img_size)


def weights(g: torch.Generator, img_size: Any, p: int, C: int, D: int, class_token: bool) -> dict[str, torch.Tensor]:
    """Random parameters by name: the conv drawn like nn.Conv2d's init, cls and pos ~ N(0, 1) so that a
    missing or misplaced one shows."""
    H, W = _hw(img_size)
    N = (H // p) * (W // p)
    bound = 1 / math.sqrt(C * p * p)
    uniform = lambda *shape: ((torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1) * bound).float()  # noqa: E731
    params = {"proj.weight": uniform(D, C, p, p), "proj.bias": uniform(D)}
    if class_token:
        params["cls_token"] = randn(g, 1, 1, D)
    params["pos_embed"] = randn(g, 1, N + int(class_token), D)
    return params


def _case(img_size: Any = 32, p: int = 8, C: int = 3, D: int = 16, B: int = 2, class_token: bool = True, *,
          dtype=torch.float32, scale: float = 1.0, default_flag: bool = False):
    def make(g: torch.Generator) -> Inputs:
        H, W = _hw(img_size)
        x = randn(g, B, C, H, W, dtype=dtype, scale=scale)
        N = (H // p) * (W // p) + int(class_token)
        init = {"img_size": img_size, "patch_size": p, "in_chans": C, "embed_dim": D}
        if not default_flag:
            init["class_token"] = class_token
        return Inputs(args={"x": x}, init=init, params=weights(g, img_size, p, C, D, class_token),
                      grad_of=("x",), probe=randn(g, B, N, D, dtype=dtype), show=dict(init))
    return make


def _shapes(img_size: Any, p: int, C: int, D: int, class_token: bool | None = None):
    def make(g: torch.Generator) -> Inputs:
        init = {"img_size": img_size, "patch_size": p, "in_chans": C, "embed_dim": D}
        if class_token is not None:
            init["class_token"] = class_token
        return Inputs(args={}, init=init, show={PARAMETERS: True, **init})
    return make


def _random(g: torch.Generator) -> Inputs:
    p = pick(g, [1, 2, 2, 3, 4, 4, 8])
    gh, gw = randint(g, 1, 5), randint(g, 1, 5)
    img_size = gh * p if gh == gw and randint(g, 0, 1) else (gh * p, gw * p)
    dtype = pick(g, [torch.float32, torch.float32, torch.float32, torch.float64])
    return _case(img_size, p, randint(g, 1, 4), randint(g, 1, 24), randint(g, 1, 3), bool(randint(g, 0, 3)),
                 dtype=dtype, scale=pick(g, [1.0, 1.0, 4.0]))(g)


FAMILIES = (
    Family("grid_32_8", _case(32, 8, 3, 16)),
    Family("grid_64_16", _case(64, 16, 3, 24, B=2)),
    Family("patch_1", _case(4, 1, 3, 8)),
    Family("one_patch", _case(8, 8, 3, 12)),
    Family("wide", _case((16, 32), 8, 3, 16)),
    Family("tall", _case((24, 8), 4, 2, 10)),
    Family("one_channel", _case(16, 4, 1, 8)),
    Family("channels_16", _case(8, 4, 16, 12)),
    Family("no_class_token", _case(16, 4, 3, 8, class_token=False)),
    Family("no_class_token_wide", _case((8, 20), 4, 3, 8, class_token=False)),
    Family("batch_1", _case(16, 4, 3, 8, B=1)),
    Family("class_token_default", _case(12, 4, 2, 6, default_flag=True)),
    Family("float64", _case(16, 4, 3, 8, dtype=torch.float64)),
    Family("float64_wide", _case((8, 16), 4, 3, 8, dtype=torch.float64)),
    Family("scaled_by_8", _case(16, 4, 3, 8, scale=8.0)),
    Family("parameter_shapes_defaults", _shapes(224, 16, 3, 768)),
    Family("parameter_shapes_wide_no_class", _shapes((8, 24), 4, 5, 6, False)),
    Family("device", _case(16, 4, 3, 8, default_flag=True), track_device=True),
    Family("device_no_class_token", _case((8, 12), 4, 2, 8, class_token=False), track_device=True),
    Family("random", _random, draws=85),
)


# ---------------------------------------------------------------- hooks


def call(kata: Any, entry: Any, inputs: Inputs, device: torch.device, track_device: bool = False) -> spec_api.Outcome:
    """The module protocol in x's dtype; the shapes cases only build a fresh module and list its parameters."""
    if PARAMETERS in inputs.show:
        module = entry(**inputs.init)
        return spec_api.Outcome({name: list(t.shape) for name, t in module.named_parameters()})
    return call_module(kata, entry, inputs, device, track_device)


def compare(kata: Any, case: spec_api.Case, expected: list[spec_api.Outcome], got: spec_api.Outcome) -> list[Problem] | None:
    """The shapes cases: the fresh module's parameter names and shapes, against the contract's."""
    if PARAMETERS not in case.inputs.show:
        return None
    want, have = expected[0].value, got.value
    if have == want:
        return []
    if not isinstance(have, dict):
        return [Problem("params", "", tr("building PatchEmbedding gave no parameters to read"))]
    shown = lambda d: ", ".join(f"{k} {v}" for k, v in sorted(d.items()))  # noqa: E731
    built = ", ".join(f"{k}={v!r}" for k, v in case.inputs.init.items())
    return [Problem("params", "", tr("a fresh PatchEmbedding({init}) has the parameters {got}; the contract is {want} "
                                     "(a Conv2d's proj.weight [D, C, p, p] and proj.bias [D], cls_token [1, 1, D] only "
                                     "with a class token, pos_embed [1, N (+1), D])",
                                     init=built, got=shown(have) or tr("none"), want=shown(want)))]


def tolerance_for(case: spec_api.Case, item: str, dtype: torch.dtype, expected: torch.Tensor | None) -> tuple[float, float] | None:
    """Output and gradients: the dtype's atol × max(1, max|expected|), as every module kata here."""
    if expected is None or not expected.numel() or not expected.is_floating_point():
        return None
    rtol, atol = spec_api.TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.abs().max()))


# ---------------------------------------------------------------- known mistakes


class _PatchEmbedding(nn.Module):
    """The right computation with switches, one per known mistake."""

    column_major = False  # tokens in column-major grid order
    class_last = False  # [patches; cls]
    class_without_pos = False  # pos_embed[:, 1:] added to the patches, the class token left bare
    view_not_transpose = False  # (B, D, h, w) viewed as (B, N, D)
    no_pos = False
    no_bias = False  # the conv's bias never added
    stride_one = False  # overlapping patches
    flag_ignored = False  # a class token whatever class_token says
    channels_last_patches = False  # (p1 p2 c) patches against the (c, p1, p2) conv weight
    grid_from_height = False  # W taken to be H
    cls_not_expanded = False  # the [1, 1, D] token concatenated to a [B, N, D] batch

    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else tuple(img_size)
        if self.grid_from_height:
            W = H
        self.p, self.grid = patch_size, (H // patch_size, W // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, stride=1 if self.stride_one else patch_size)
        has_cls = class_token or self.flag_ignored
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if has_cls else None
        self.pos_embed = nn.Parameter(torch.zeros(1, self.grid[0] * self.grid[1] + int(has_cls), embed_dim))

    def patches(self, x):
        B, C, H, W = x.shape
        D, p = self.proj.out_channels, self.p
        if self.channels_last_patches:
            t = x.reshape(B, C, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1).reshape(B, -1, p * p * C)
            return t @ self.proj.weight.reshape(D, -1).T + self.proj.bias
        y = F.conv2d(x, self.proj.weight, None if self.no_bias else self.proj.bias, stride=self.proj.stride)
        if self.column_major:
            y = y.transpose(2, 3)
        return y.reshape(B, -1, D) if self.view_not_transpose else y.flatten(2).transpose(1, 2)

    def forward(self, x):
        t = self.patches(x)
        pos = 0 if self.no_pos else self.pos_embed
        if self.cls_token is None:
            return t + pos
        cls = self.cls_token if self.cls_not_expanded else self.cls_token.expand(x.shape[0], -1, -1)
        if self.class_without_pos:
            return torch.cat([cls, t + pos[:, 1:]], dim=1)
        return (torch.cat([t, cls], dim=1) if self.class_last else torch.cat([cls, t], dim=1)) + pos


def _variant(**switches):
    return type("Variant", (_PatchEmbedding,), switches)


MISTAKES = (
    Mistake("grid_column_major", _variant(column_major=True)),
    Mistake("class_token_last", _variant(class_last=True)),
    Mistake("class_token_without_pos", _variant(class_without_pos=True)),
    Mistake("view_not_transpose", _variant(view_not_transpose=True)),
    Mistake("no_pos_embed", _variant(no_pos=True)),
    Mistake("bias_ignored", _variant(no_bias=True)),
    Mistake("overlapping_stride_1", _variant(stride_one=True)),
    Mistake("class_token_flag_ignored", _variant(flag_ignored=True)),
    Mistake("channels_last_patches", _variant(channels_last_patches=True)),
    Mistake("grid_from_height", _variant(grid_from_height=True)),
    Mistake("class_token_not_expanded", _variant(cls_not_expanded=True)),
)

# `kata check vit-patch-embed --bench`: ViT-B/16's embedding of a batch of 8 images of 224 × 224.
BENCH = ("x [8, 3, 224, 224], p 16, D 768", lambda g: Inputs(args={"x": torch.randn(8, 3, 224, 224, generator=g)},
                                                            init={"img_size": 224, "patch_size": 16, "in_chans": 3,
                                                                  "embed_dim": 768}))
