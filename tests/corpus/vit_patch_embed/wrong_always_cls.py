# kata: vit-patch-embed
# why: the class token and its pos_embed slot are always built, whatever class_token says
# mistake: class_token_flag_ignored
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        height, width = (img_size, img_size) if isinstance(img_size, int) else img_size
        n_patches = (height // patch_size) * (width // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, n_patches + 1, embed_dim))

    def forward(self, x):
        emb = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(emb.shape[0], -1, -1)
        return torch.cat([cls, emb], dim=1) + self.pos_embed
