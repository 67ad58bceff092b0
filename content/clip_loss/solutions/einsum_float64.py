# kata: clip-loss
import torch


def clip_loss(image_embeds, text_embeds, logit_scale):
    i = image_embeds.double()
    t = text_embeds.double()
    i = i * torch.rsqrt((i * i).sum(-1, keepdim=True))
    t = t * torch.rsqrt((t * t).sum(-1, keepdim=True))
    logits = logit_scale.double().exp() * torch.einsum("nd,md->nm", i, t)
    rows = torch.log_softmax(logits, dim=1).diagonal()
    cols = torch.log_softmax(logits, dim=0).diagonal()
    return (-(rows.mean() + cols.mean()) / 2).to(image_embeds.dtype)
