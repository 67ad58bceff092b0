# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        h, w = img_size if isinstance(img_size, tuple) else (img_size, img_size)
        self.embed_dim = embed_dim
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, (h // patch_size) * (w // patch_size) + int(class_token), embed_dim))

    def forward(self, x):
        b = x.shape[0]
        x = self.proj(x).contiguous().view(b, -1, self.embed_dim)
        if self.cls_token is not None:
            x = torch.cat((self.cls_token.expand(b, -1, -1), x), dim=1)
        x = x + self.pos_embed
        return x
