# kata: top-p
import torch


def top_k_top_p_filter(logits, top_k=0, top_p=1.0):
    raise NotImplementedError("write top_k_top_p_filter")
