# kata: vit-patch-embed
# why: explicit loops over the grid, each patch sliced and projected with tensordot against the conv weight
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        self.size = (img_size, img_size) if isinstance(img_size, int) else tuple(img_size)
        self.p = patch_size
        rows, cols = self.size[0] // patch_size, self.size[1] // patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, rows * cols + (class_token is True), embed_dim))

    def forward(self, x):
        p = self.p
        out = []
        for i in range(self.size[0] // p):
            for j in range(self.size[1] // p):
                patch = x[:, :, i * p:(i + 1) * p, j * p:(j + 1) * p]
                out.append(torch.tensordot(patch, self.proj.weight, dims=([1, 2, 3], [1, 2, 3])) + self.proj.bias)
        seq = torch.stack(out, dim=1)
        if self.cls_token is not None:
            seq = torch.cat([self.cls_token.expand(len(x), 1, seq.shape[-1]), seq], 1)
        return seq + self.pos_embed
