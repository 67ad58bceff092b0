# kata: sample-token
import torch


def sample_token(logits, temperature=1.0, generator=None):
    raise NotImplementedError("write sample_token")
