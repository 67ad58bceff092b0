# kata: vit-patch-embed
# why: einsum to channels-last with the grid axes swapped (bdhw -> bwhd)
# mistake: grid_column_major
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = img_size if isinstance(img_size, tuple) else (img_size, img_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, (H // patch_size) * (W // patch_size) + int(class_token), embed_dim))

    def forward(self, x):
        y = torch.einsum("bdhw->bwhd", self.proj(x))
        y = y.reshape(y.shape[0], -1, y.shape[-1])
        if self.cls_token is not None:
            y = torch.cat([self.cls_token.expand(y.shape[0], -1, -1), y], dim=1)
        return y + self.pos_embed
