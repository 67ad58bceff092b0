# kata: cross-entropy
import torch


def cross_entropy(logits, targets, ignore_index=-100, label_smoothing=0.0):
    raise NotImplementedError("write cross_entropy")
