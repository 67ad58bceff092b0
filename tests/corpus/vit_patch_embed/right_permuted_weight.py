# kata: vit-patch-embed
# why: vit-pytorch's (p1 p2 c) patch layout, with the conv weight permuted to the same order before the matmul
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        ih, iw = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.ps = patch_size
        self.hn, self.wn = ih // patch_size, iw // patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.class_token = class_token
        if class_token:
            self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, self.hn * self.wn + int(class_token), embed_dim))

    def forward(self, img):
        b, c, _, _ = img.shape
        ps = self.ps
        x = img.reshape(b, c, self.hn, ps, self.wn, ps).permute(0, 2, 4, 3, 5, 1)  # b h w p1 p2 c
        x = x.reshape(b, self.hn * self.wn, ps * ps * c)
        w = self.proj.weight.permute(0, 2, 3, 1).reshape(self.proj.weight.shape[0], -1)  # d, (p1 p2 c)
        x = x @ w.t() + self.proj.bias
        if self.class_token:
            x = torch.cat([self.cls_token.repeat(b, 1, 1), x], dim=1)
        x += self.pos_embed
        return x
