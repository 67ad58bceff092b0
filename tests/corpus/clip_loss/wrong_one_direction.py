# kata: clip-loss
# why: only the image-to-text cross-entropy
# mistake: one_direction
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    image = F.normalize(image_embeds, dim=-1)
    text = F.normalize(text_embeds, dim=-1)
    logits = logit_scale.exp() * image @ text.T
    return F.cross_entropy(logits, torch.arange(logits.shape[0], device=logits.device))
