# kata: vit-patch-embed
# why: the [1, 1, D] class token concatenated to a batch of B images as it is
# mistake: class_token_not_expanded
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        h, w = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, h * w // patch_size ** 2 + int(class_token), embed_dim))

    def forward(self, x):
        t = self.proj(x).flatten(2).transpose(1, 2)
        if self.cls_token is not None:
            t = torch.cat([self.cls_token, t], dim=1)
        return t + self.pos_embed
