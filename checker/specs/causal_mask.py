"""Case families for `causal-mask`: sizes from 1 up, batch ≠ heads, and the device asked for
(the run device, None = the default device, and meta)."""
from __future__ import annotations

import torch

from checker.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._attention import pick, randint

META = torch.device("meta")


def _case(B, H, L, device=RUN_DEVICE):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"batch_size": B, "n_head": H, "seq_len": L, "device": device})
    return make


def _random(g: torch.Generator) -> Inputs:
    return _case(randint(g, 1, 4), randint(g, 1, 4), randint(g, 1, 24), pick(g, [RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("basic", "B = 2, H = 3, L = 5 on the run device", _case(2, 3, 5)),
    Family("seq_len_one", "L = 1: a single True", _case(2, 2, 1)),
    Family("batch_ne_heads", "B = 3, H = 2: the batch dim comes first", _case(3, 2, 4)),
    Family("one_batch_one_head", "B = H = 1", _case(1, 1, 6)),
    Family("long", "L = 64", _case(1, 2, 64)),
    Family("device_none", "device=None: the default device", _case(2, 2, 5, device=None)),
    Family("meta", "device='meta': the mask must be created there (shape, dtype and device are compared)",
           _case(2, 3, 5, device=META)),
    Family("device", "the mask follows device= (checked as if the inputs were on a GPU)", _case(2, 2, 6), track_device=True),
    Family("random", "random B, H, L on the run device or device=None", _random, draws=100),
)


def _ones(L, device):
    return torch.ones(L, L, dtype=torch.bool, device=device)


def _upper(batch_size, n_head, seq_len, device=None):
    return torch.triu(_ones(seq_len, device)).expand(batch_size, n_head, seq_len, seq_len)


def _strict(batch_size, n_head, seq_len, device=None):
    return torch.tril(_ones(seq_len, device), diagonal=-1).expand(batch_size, n_head, seq_len, seq_len)


def _float(batch_size, n_head, seq_len, device=None):
    return torch.tril(torch.ones(seq_len, seq_len, device=device)).expand(batch_size, n_head, seq_len, seq_len)


def _no_device(batch_size, n_head, seq_len, device=None):
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool)).expand(batch_size, n_head, seq_len, seq_len)


def _heads_first(batch_size, n_head, seq_len, device=None):
    return torch.tril(_ones(seq_len, device)).expand(n_head, batch_size, seq_len, seq_len)


MISTAKES = (
    Mistake("upper triangle (triu) instead of lower", "query i sees keys j <= i: torch.tril, the lower triangle", _upper),
    Mistake("diagonal left out", "each query sees itself: tril with the default diagonal=0", _strict),
    Mistake("float mask instead of bool", "create it with dtype=torch.bool (or compare indices)", _float),
    Mistake("device= ignored", "pass device=device to the tensor you create", _no_device),
    Mistake("batch and head dims swapped", "the shape is [batch_size, n_head, seq_len, seq_len]", _heads_first),
)
