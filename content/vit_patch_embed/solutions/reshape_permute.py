# kata: vit-patch-embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        h, w = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.p = patch_size
        self.gh, self.gw = h // patch_size, w // patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, patch_size, patch_size)
        self.use_cls = class_token
        if class_token:
            self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim) * 1e-6)
        self.pos_embed = nn.Parameter(torch.randn(1, self.gh * self.gw + int(class_token), embed_dim) * 0.02)

    def forward(self, x):
        b, c = x.shape[:2]
        p = self.p
        patches = x.reshape(b, c, self.gh, p, self.gw, p)
        patches = patches.permute(0, 2, 4, 1, 3, 5)  # b, gh, gw, c, p, p
        emb = torch.einsum("bijcuv,dcuv->bijd", patches, self.proj.weight) + self.proj.bias
        emb = emb.reshape(b, self.gh * self.gw, -1)
        if self.use_cls:
            emb = torch.cat([self.cls_token.expand(b, 1, -1), emb], dim=1)
        return emb + self.pos_embed
