# kata: vit-patch-embed
# why: image moved to NHWC, cut into (p1 p2 c) patches, multiplied by the unpermuted conv weight
# mistake: channels_last_patches
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        self.H, self.W = (img_size, img_size) if isinstance(img_size, int) else img_size
        self.P = patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        num = (self.H // patch_size) * (self.W // patch_size)
        self.pos_embed = nn.Parameter(torch.zeros(1, num + int(class_token), embed_dim))

    def forward(self, x):
        B, C = x.shape[:2]
        P, gh, gw = self.P, self.H // self.P, self.W // self.P
        nhwc = x.permute(0, 2, 3, 1)
        patches = nhwc.reshape(B, gh, P, gw, P, C).transpose(2, 3).reshape(B, gh * gw, P * P * C)
        tokens = torch.matmul(patches, self.proj.weight.flatten(1).t()) + self.proj.bias
        if self.cls_token is not None:
            tokens = torch.cat([self.cls_token.expand(B, -1, -1), tokens], dim=1)
        return tokens + self.pos_embed
