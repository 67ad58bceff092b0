# kata: grad-accumulation
import torch
import torch.nn.functional as F


def accumulate_step(model, optimizer, micro_batches):
    raise NotImplementedError("write accumulate_step")
