# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        if isinstance(img_size, (tuple, list)):
            height, width = img_size
        else:
            height = width = img_size
        num_patches = (height // patch_size) * (width // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.num_prefix = 1 if class_token else 0
        if class_token:
            self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        else:
            self.cls_token = None
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + self.num_prefix, embed_dim))

    def forward(self, x):
        feats = self.proj(x).permute(0, 2, 3, 1)  # B, h, w, D
        batch, _, _, dim = feats.shape
        seq = feats.reshape(batch, -1, dim)
        if self.cls_token is not None:
            seq = torch.cat([self.cls_token.repeat(batch, 1, 1), seq], dim=1)
        return seq + self.pos_embed
