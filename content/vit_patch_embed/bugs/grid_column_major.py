# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        if isinstance(img_size, int):
            img_size = (img_size, img_size)
        grid_h, grid_w = img_size[0] // patch_size, img_size[1] // patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, grid_h * grid_w + int(class_token), embed_dim))

    def forward(self, x):
        feat = self.proj(x)  # B, D, gh, gw
        B, D, gh, gw = feat.shape
        tokens = feat.permute(0, 3, 2, 1).reshape(B, gh * gw, D)
        if self.cls_token is not None:
            tokens = torch.cat([self.cls_token.expand(B, -1, -1), tokens], dim=1)
        return tokens + self.pos_embed
