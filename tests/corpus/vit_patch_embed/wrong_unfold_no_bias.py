# kata: vit-patch-embed
# why: F.unfold and a matmul with the conv weight, proj.bias never added
# mistake: bias_ignored
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        H, W = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.patch = patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, (H // patch_size) * (W // patch_size) + int(class_token), embed_dim))

    def forward(self, x):
        cols = F.unfold(x, self.patch, stride=self.patch).transpose(1, 2)
        tokens = cols @ self.proj.weight.view(self.proj.weight.size(0), -1).T
        if self.cls_token is not None:
            tokens = torch.cat([self.cls_token.expand(x.size(0), -1, -1), tokens], 1)
        return tokens + self.pos_embed
