# kata: vit-patch-embed
# why: timm's PatchEmbed + _pos_embed written out: to_2tuple, num_patches, flatten(2).transpose(1, 2), cls expanded
import torch
import torch.nn as nn


def to_2tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        self.img_size = to_2tuple(img_size)
        self.patch_size = to_2tuple(patch_size)
        self.grid_size = (self.img_size[0] // self.patch_size[0], self.img_size[1] // self.patch_size[1])
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.num_prefix_tokens = 1 if class_token else 0
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=self.patch_size, stride=self.patch_size, bias=True)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.randn(1, self.num_patches + self.num_prefix_tokens, embed_dim) * .02)

    def forward(self, x):
        B, C, H, W = x.shape
        assert (H, W) == self.img_size
        x = self.proj(x).flatten(2).transpose(1, 2)  # NCHW -> NLC
        if self.cls_token is not None:
            x = torch.cat((self.cls_token.expand(B, -1, -1), x), dim=1)
        return x + self.pos_embed
