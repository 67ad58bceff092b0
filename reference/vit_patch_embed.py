"""ViT's input embedding: patchify, project, prepend the class token, add the position embedding.

Dosovitskiy et al., "An Image is Worth 16x16 Words" (ICLR 2021), eq. 1:
z₀ = [x_class; x_p¹E; x_p²E; …; x_pᴺE] + E_pos, E ∈ R^{(P²·C)×D}, E_pos ∈ R^{(N+1)×D}.
Written as timm's `PatchEmbed` (a Conv2d with kernel = stride = p, then flatten(2).transpose(1, 2))
followed by `VisionTransformer._pos_embed`; transformers' `ViTEmbeddings` is the same computation.
"""
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else tuple(img_size)
        p = patch_size
        assert H % p == 0 and W % p == 0, f"patch_size {p} must divide the image size {(H, W)}"
        self.img_size = (H, W)
        self.grid = (H // p, W // p)
        num_patches = self.grid[0] * self.grid[1]
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=p, stride=p)  # weight (D, C, p, p), bias (D,)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        num_tokens = num_patches + (1 if class_token else 0)
        self.pos_embed = nn.Parameter(torch.randn(1, num_tokens, embed_dim) * 0.02)

    def forward(self, x):
        """x (B, C, H, W) of exactly img_size -> (B, N (+1), D)."""
        B, C, H, W = x.shape
        assert (H, W) == self.img_size, f"input {(H, W)} does not match img_size {self.img_size}"
        x = self.proj(x)  # (B, D, H/p, W/p)
        x = x.flatten(2).transpose(1, 2)  # (B, N, D), row-major over the grid
        if self.cls_token is not None:
            x = torch.cat([self.cls_token.expand(B, -1, -1), x], dim=1)  # (B, 1 + N, D), class first
        return x + self.pos_embed  # every position, the class token's included
