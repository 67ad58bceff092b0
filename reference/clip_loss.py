"""CLIP's symmetric contrastive (InfoNCE) loss.

Radford et al., "Learning Transferable Visual Models From Natural Language Supervision" (2021), fig. 3:
    I_e = l2_normalize(I_f); T_e = l2_normalize(T_f)
    logits = I_e @ T_e.T * exp(t)
    loss = (cross_entropy(logits, labels, axis=0) + cross_entropy(logits, labels, axis=1)) / 2
with labels = arange(n): pair i is the positive, the other n - 1 texts (images) in the batch the negatives.
t is the learnable log inverse temperature (initially log(1/0.07)); CLIP clamps exp(t) at 100. The cross
entropies go through log-softmax, which subtracts each row's max, so logits of 100 stay finite in float32.
"""
import torch
import torch.nn.functional as F


def clip_loss(image_embeds, text_embeds, logit_scale):
    """image_embeds, text_embeds [N, D] (any nonzero row lengths); logit_scale 0-dim (log scale). Returns 0-dim."""
    N, D = image_embeds.shape
    assert text_embeds.shape == (N, D), f"text_embeds should be [{N}, {D}], got {tuple(text_embeds.shape)}"
    image = F.normalize(image_embeds, dim=-1)  # (N, D) unit rows
    text = F.normalize(text_embeds, dim=-1)  # (N, D)
    logits = logit_scale.exp() * image @ text.T  # (N, N) row i: image i against every text
    labels = torch.arange(N, device=logits.device)  # the matching pair is on the diagonal
    image_to_text = F.cross_entropy(logits, labels)  # each row: which text is image i's?
    text_to_image = F.cross_entropy(logits.T, labels)  # each column: which image is text i's?
    return (image_to_text + text_to_image) / 2
