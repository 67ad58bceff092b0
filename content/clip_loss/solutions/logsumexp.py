# kata: clip-loss
import torch


def clip_loss(image_embeds, text_embeds, logit_scale):
    img = image_embeds / image_embeds.norm(dim=1, keepdim=True)
    txt = text_embeds / text_embeds.norm(dim=1, keepdim=True)
    logits = torch.exp(logit_scale) * (img @ txt.t())
    diag = torch.diagonal(logits)
    loss_i = (torch.logsumexp(logits, dim=1) - diag).mean()
    loss_t = (torch.logsumexp(logits, dim=0) - diag).mean()
    return 0.5 * (loss_i + loss_t)
