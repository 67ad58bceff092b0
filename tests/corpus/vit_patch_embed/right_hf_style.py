# kata: vit-patch-embed
# why: transformers' ViTEmbeddings shape of code (embeddings / cls_tokens names), F.conv2d with the module's weights
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbedding(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, class_token=True):
        super().__init__()
        image_size = img_size if isinstance(img_size, (list, tuple)) else (img_size, img_size)
        self.patch_size = patch_size
        num_patches = (image_size[1] // patch_size) * (image_size[0] // patch_size)
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.use_cls = class_token
        self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim)) if class_token else None
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + (1 if class_token else 0), embed_dim))

    def forward(self, pixel_values):
        batch_size = pixel_values.shape[0]
        embeddings = F.conv2d(pixel_values, self.proj.weight, self.proj.bias, stride=self.patch_size)
        embeddings = embeddings.flatten(2).transpose(1, 2)
        if self.use_cls:
            cls_tokens = self.cls_token.expand(batch_size, -1, -1)
            embeddings = torch.cat((cls_tokens, embeddings), dim=1)
        embeddings = embeddings + self.pos_embed
        return embeddings
