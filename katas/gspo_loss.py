# kata: gspo-loss
import torch


def gspo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=3e-4, clip_ratio_high=4e-4):
    raise NotImplementedError("write gspo_loss")
