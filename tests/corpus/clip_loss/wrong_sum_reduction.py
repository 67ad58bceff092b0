# kata: clip-loss
# why: reduction="sum" in both cross-entropies
# mistake: summed_over_pairs
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    image = F.normalize(image_embeds, dim=-1)
    text = F.normalize(text_embeds, dim=-1)
    logits = logit_scale.exp() * image @ text.T
    labels = torch.arange(logits.shape[0], device=logits.device)
    return (F.cross_entropy(logits, labels, reduction="sum") + F.cross_entropy(logits.T, labels, reduction="sum")) / 2
