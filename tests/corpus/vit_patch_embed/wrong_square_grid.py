# kata: vit-patch-embed
# why: the number of patches taken as (H // p) ** 2 from the first entry of img_size
# mistake: grid_from_height
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        side = img_size if isinstance(img_size, int) else img_size[0]
        self.num_patches = (side // patch_size) ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.zeros(1, self.num_patches + int(class_token), embed_dim))

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        if self.cls_token is not None:
            x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        return x + self.pos_embed
