# kata: vit-patch-embed
# why: position embedding sliced to the patches, the class token concatenated bare afterwards
# mistake: class_token_without_pos
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        h, w = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.n_prefix = int(class_token)
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, patch_size)
        if class_token:
            self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, (h // patch_size) * (w // patch_size) + self.n_prefix, embed_dim))

    def forward(self, x):
        patches = self.proj(x).flatten(2).permute(0, 2, 1)
        patches = patches + self.pos_embed[:, self.n_prefix:, :]
        if self.n_prefix:
            patches = torch.cat([self.cls_token.expand(x.shape[0], 1, -1), patches], dim=1)
        return patches
