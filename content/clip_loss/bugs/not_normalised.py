# kata: clip-loss
import torch


def clip_loss(image_embeds, text_embeds, logit_scale):
    n = image_embeds.shape[0]
    scale = torch.exp(logit_scale)
    sim = torch.einsum("id,jd->ij", image_embeds, text_embeds) * scale
    targets = torch.arange(n, device=sim.device)

    log_p_text = torch.log_softmax(sim, dim=1)   # for each image, a distribution over texts
    log_p_image = torch.log_softmax(sim, dim=0)  # for each text, a distribution over images
    loss_i2t = -log_p_text[targets, targets].mean()
    loss_t2i = -log_p_image[targets, targets].mean()
    return (loss_i2t + loss_t2i) / 2
