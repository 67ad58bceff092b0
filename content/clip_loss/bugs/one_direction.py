# kata: clip-loss
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    image_features = F.normalize(image_embeds, dim=-1)
    text_features = F.normalize(text_embeds, dim=-1)

    # cosine similarity scaled by the learnt temperature
    logits_per_image = logit_scale.exp() * image_features @ text_features.t()
    labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)

    return F.cross_entropy(logits_per_image, labels)
