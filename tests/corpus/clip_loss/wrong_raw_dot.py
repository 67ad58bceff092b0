# kata: clip-loss
# why: the raw dot products scaled, the embeddings never normalised
# mistake: not_normalised
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    logits = logit_scale.exp() * image_embeds @ text_embeds.T
    labels = torch.arange(logits.shape[0], device=logits.device)
    return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels))
