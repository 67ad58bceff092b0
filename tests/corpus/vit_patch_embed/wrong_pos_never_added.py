# kata: vit-patch-embed
# why: pos_embed created but never added to the tokens
# mistake: no_pos_embed
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        gh = (img_size if isinstance(img_size, int) else img_size[0]) // patch_size
        gw = (img_size if isinstance(img_size, int) else img_size[1]) // patch_size
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, gh * gw + int(class_token), embed_dim))

    def forward(self, x):
        out = self.proj(x).flatten(2).transpose(1, 2)
        if self.cls_token is not None:
            out = torch.cat((self.cls_token.expand(out.shape[0], -1, -1), out), dim=1)
        return out
