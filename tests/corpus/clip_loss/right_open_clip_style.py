# kata: clip-loss
# why: open_clip's ClipLoss adapted: features normalised and logit_scale exponentiated by the caller, get_logits, labels cached by device
import torch
import torch.nn.functional as F


class ClipLoss:
    def __init__(self):
        self.labels = {}

    def get_ground_truth(self, device, num_logits):
        if device not in self.labels or self.labels[device].numel() != num_logits:
            self.labels[device] = torch.arange(num_logits, device=device, dtype=torch.long)
        return self.labels[device]

    def get_logits(self, image_features, text_features, logit_scale):
        logits_per_image = logit_scale * image_features @ text_features.T
        logits_per_text = logit_scale * text_features @ image_features.T
        return logits_per_image, logits_per_text

    def __call__(self, image_features, text_features, logit_scale):
        logits_per_image, logits_per_text = self.get_logits(image_features, text_features, logit_scale)
        labels = self.get_ground_truth(image_features.device, logits_per_image.shape[0])
        return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2


def clip_loss(image_embeds, text_embeds, logit_scale):
    image_features = F.normalize(image_embeds, dim=-1)
    text_features = F.normalize(text_embeds, dim=-1)
    return ClipLoss()(image_features, text_features, logit_scale.exp())
