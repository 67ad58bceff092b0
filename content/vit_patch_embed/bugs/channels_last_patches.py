# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.p = patch_size
        self.grid = (H // patch_size, W // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        n = self.grid[0] * self.grid[1] + (1 if class_token else 0)
        self.pos_embed = nn.Parameter(torch.randn(1, n, embed_dim) * 0.02)

    def forward(self, x):
        B, C, H, W = x.shape
        p, (gh, gw) = self.p, self.grid
        patches = x.reshape(B, C, gh, p, gw, p).permute(0, 2, 4, 3, 5, 1)
        patches = patches.reshape(B, gh * gw, p * p * C)
        weight = self.proj.weight.reshape(self.proj.out_channels, -1)
        tokens = patches @ weight.T + self.proj.bias
        if self.cls_token is not None:
            tokens = torch.cat([self.cls_token.expand(B, -1, -1), tokens], dim=1)
        return tokens + self.pos_embed
