"""The vit-patch-embed reference against code nobody here wrote: transformers' `ViTEmbeddings` (its parameters
renamed into the contract's: `patch_embeddings.projection` → `proj`, `position_embeddings` → `pos_embed`) and, when
installed, timm's `VisionTransformer` (`patch_embed` then `_pos_embed`, the same names but for the prefix).

Test-only dependency: `pip install -e '.[dev,crosscheck]'` (timm is optional: its test skips without it). Run with
`-s` to see the figures. Measured (torch 2.13 CPU, transformers 5.25): ViTEmbeddings, 4 configurations (32/8, 64/16,
a rectangular 16 × 32 / 8, p = 1): 0 in float32 and float64 (bit-identical: both run one stride-p Conv2d, then
the same cat and add); timm not installed here (KATAS-sequence.md quotes 7.4e-07 / 9.0e-16 for timm 1.0.31)."""
from __future__ import annotations

import pytest
import torch

from checker.specs.vit_patch_embed import weights
from checker.text import catalog
from tests.spec_support import reference_of

PatchEmbedding = reference_of(catalog.get("vit-patch-embed"))  # loaded by path, never as `reference.*`

CONFIGS = [(32, 8, 3, 16), (64, 16, 3, 24), ((16, 32), 8, 2, 12), (4, 1, 3, 8)]


def _relative(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max() / max(1.0, float(b.abs().max())))


def _ours(img, p, C, D, params, dtype, class_token=True):
    module = PatchEmbedding(img, p, C, D, class_token)
    module.load_state_dict(params)
    return module.double() if dtype == torch.float64 else module


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_transformers_vit_embeddings(dtype):
    transformers = pytest.importorskip("transformers")
    from transformers.models.vit.modeling_vit import ViTEmbeddings
    worst = 0.0
    for i, (img, p, C, D) in enumerate(CONFIGS):
        g = torch.Generator().manual_seed(i)
        params = weights(g, img, p, C, D, True)
        config = transformers.ViTConfig(image_size=img, patch_size=p, num_channels=C, hidden_size=D,
                                        hidden_dropout_prob=0.0)
        theirs = ViTEmbeddings(config).eval()
        theirs.load_state_dict({"cls_token": params["cls_token"], "position_embeddings": params["pos_embed"],
                                "patch_embeddings.projection.weight": params["proj.weight"],
                                "patch_embeddings.projection.bias": params["proj.bias"]}, strict=True)
        theirs = theirs.double() if dtype == torch.float64 else theirs
        H, W = (img, img) if isinstance(img, int) else img
        x = torch.randn(2, C, H, W, generator=g, dtype=torch.float64).to(dtype)
        with torch.no_grad():
            worst = max(worst, _relative(_ours(img, p, C, D, params, dtype)(x), theirs(x)))
    print(f"ViTEmbeddings {dtype}: {worst:.1e}")
    assert worst < (1e-6 if dtype == torch.float32 else 1e-13)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_reference_matches_timm_patch_embed_and_pos_embed(dtype):
    timm = pytest.importorskip("timm")
    worst = 0.0
    for i, (img, p, C, D, cls) in enumerate([*(c + (True,) for c in CONFIGS), (16, 4, 3, 8, False), (8, 8, 3, 8, True)]):
        g = torch.Generator().manual_seed(i)
        params = weights(g, img, p, C, D, cls)
        vit = timm.models.vision_transformer.VisionTransformer(img_size=img, patch_size=p, in_chans=C, embed_dim=D,
                                                                depth=1, num_heads=1, class_token=cls,
                                                                global_pool="avg" if not cls else "token").eval()
        vit.patch_embed.proj.load_state_dict({"weight": params["proj.weight"], "bias": params["proj.bias"]})
        with torch.no_grad():
            vit.pos_embed.copy_(params["pos_embed"])
            if cls:
                vit.cls_token.copy_(params["cls_token"])
        vit = vit.double() if dtype == torch.float64 else vit
        H, W = (img, img) if isinstance(img, int) else img
        x = torch.randn(2, C, H, W, generator=g, dtype=torch.float64).to(dtype)
        with torch.no_grad():
            worst = max(worst, _relative(_ours(img, p, C, D, params, dtype, cls)(x), vit._pos_embed(vit.patch_embed(x))))
    print(f"timm {dtype}: {worst:.1e}")
    assert worst < (1e-6 if dtype == torch.float32 else 1e-13)
