# kata: vit-patch-embed
# why: nn.Conv2d with kernel_size=patch_size but the stride left at its default 1
# mistake: overlapping_stride_1
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size)
        n = (H // patch_size) * (W // patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, n + (1 if class_token else 0), embed_dim))

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        if self.cls_token is not None:
            x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x + self.pos_embed
