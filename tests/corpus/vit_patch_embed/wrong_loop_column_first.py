# kata: vit-patch-embed
# why: patches visited column by column in a Python loop (j outer, i inner)
# mistake: grid_column_major
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        self.hw = (img_size, img_size) if isinstance(img_size, int) else tuple(img_size)
        self.p = patch_size
        n = (self.hw[0] // patch_size) * (self.hw[1] // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, n + int(class_token), embed_dim))

    def forward(self, x):
        p = self.p
        toks = []
        for j in range(self.hw[1] // p):
            for i in range(self.hw[0] // p):
                toks.append(self.proj(x[:, :, i * p:(i + 1) * p, j * p:(j + 1) * p]).flatten(1))
        seq = torch.stack(toks, 1)
        if self.cls_token is not None:
            seq = torch.cat([self.cls_token.expand(x.size(0), -1, -1), seq], 1)
        return seq + self.pos_embed
