# kata: vit-patch-embed
# why: torch.reshape of the conv output straight to (b, n, d), no transpose
# mistake: view_not_transpose
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        size = img_size if isinstance(img_size, tuple) else (img_size, img_size)
        self.n = (size[0] // patch_size) * (size[1] // patch_size)
        self.d = embed_dim
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, self.n + (self.cls_token is not None), embed_dim))

    def forward(self, x):
        b = x.shape[0]
        z = torch.reshape(self.proj(x), (b, self.n, self.d))
        if self.cls_token is not None:
            z = torch.cat([self.cls_token.expand(b, 1, self.d), z], dim=1)
        return z + self.pos_embed
