# kata: clip-loss
# why: F.normalize with dim=0: each feature normalised over the batch instead of each embedding
# mistake: normalised_over_the_batch
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    image = F.normalize(image_embeds, dim=0)
    text = F.normalize(text_embeds, dim=0)
    logits = logit_scale.exp() * image @ text.T
    labels = torch.arange(len(logits), device=logits.device)
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
