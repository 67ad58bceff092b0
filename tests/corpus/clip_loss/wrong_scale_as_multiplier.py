# kata: clip-loss
# why: open_clip's ClipLoss call copied: it expects the exponentiated scale, here logit_scale is passed as it is
# mistake: scale_not_exponentiated
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    image = F.normalize(image_embeds, dim=-1)
    text = F.normalize(text_embeds, dim=-1)
    logits_per_image = logit_scale * image @ text.T
    labels = torch.arange(image.shape[0], device=image.device)
    return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.T, labels)) / 2
