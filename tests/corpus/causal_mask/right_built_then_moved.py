# kata: causal-mask
# why: built on the CPU with tril, then moved with .to(device), as Hugging Face's older mask code does
import torch


def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
    causal = torch.ones(seq_len, seq_len, dtype=torch.bool).tril()
    causal = causal.to(device)
    return causal[None, None, :, :].expand(batch_size, n_head, seq_len, seq_len)
