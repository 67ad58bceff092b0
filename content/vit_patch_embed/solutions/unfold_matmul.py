# kata: vit-patch-embed
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        if isinstance(img_size, int):
            img_size = (img_size, img_size)
        self.img_size = tuple(img_size)
        self.patch_size = patch_size
        n_patches = (self.img_size[0] // patch_size) * (self.img_size[1] // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, n_patches + int(class_token), embed_dim))
        nn.init.trunc_normal_(self.pos_embed, std=0.02)

    def forward(self, x):
        cols = F.unfold(x, kernel_size=self.patch_size, stride=self.patch_size)  # [B, C*p*p, N]
        tokens = cols.transpose(1, 2) @ self.proj.weight.flatten(1).t() + self.proj.bias  # [B, N, D]
        if self.cls_token is not None:
            cls = self.cls_token.expand(x.shape[0], -1, -1)
            tokens = torch.cat((cls, tokens), dim=1)
        return tokens + self.pos_embed
