# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.num_patches = (H // patch_size) * (W // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, stride=patch_size)
        self.has_cls = class_token
        if class_token:
            self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, self.num_patches + int(class_token), embed_dim) * 0.02)

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        if not self.has_cls:
            return x + self.pos_embed
        x = x + self.pos_embed[:, 1:]
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1)
