# kata: vit-patch-embed
# why: transformers-style code with the class token concatenated after the patch embeddings
# mistake: class_token_last
import torch
import torch.nn as nn


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        image_size = img_size if isinstance(img_size, (list, tuple)) else (img_size, img_size)
        num_patches = (image_size[0] // patch_size) * (image_size[1] // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.with_cls = class_token
        if class_token:
            self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + int(class_token), embed_dim))

    def forward(self, pixel_values):
        embeddings = self.proj(pixel_values).flatten(2).transpose(1, 2)
        if self.with_cls:
            cls_tokens = self.cls_token.expand(embeddings.shape[0], -1, -1)
            embeddings = torch.cat((embeddings, cls_tokens), dim=1)
        return embeddings + self.pos_embed
