"""Case families for `causal-mask`: sizes from 1 up, batch ≠ heads, and the device asked for
(the run device, None = the default device, and meta)."""
from __future__ import annotations

import torch

from checker.judge.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._attention import pick, randint

META = torch.device("meta")


def _case(B, H, L, device=RUN_DEVICE):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"batch_size": B, "n_head": H, "seq_len": L, "device": device})
    return make


def _random(g: torch.Generator) -> Inputs:
    return _case(randint(g, 1, 4), randint(g, 1, 4), randint(g, 1, 24), pick(g, [RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("basic", _case(2, 3, 5)),
    Family("seq_len_one", _case(2, 2, 1)),
    Family("batch_ne_heads", _case(3, 2, 4)),
    Family("one_batch_one_head", _case(1, 1, 6)),
    Family("long", _case(1, 2, 64)),
    Family("device_none", _case(2, 2, 5, device=None)),
    Family("meta", _case(2, 3, 5, device=META)),
    Family("device", _case(2, 2, 6), track_device=True),
    Family("device_none_on_gpu", _case(2, 2, 6, device=None), track_device=True),
    Family("random", _random, draws=100),
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


def _masked_out(batch_size, n_head, seq_len, device=None):
    return torch.triu(_ones(seq_len, device), diagonal=1).expand(batch_size, n_head, seq_len, seq_len)


def _no_batch_dims(batch_size, n_head, seq_len, device=None):
    return torch.tril(_ones(seq_len, device))


MISTAKES = (
    Mistake("triu", _upper),
    Mistake("mask_inverted", _masked_out),
    Mistake("no_batch_dims", _no_batch_dims),
    Mistake("diagonal_excluded", _strict),
    Mistake("float_mask", _float),
    Mistake("device_ignored", _no_device),
    Mistake("heads_first", _heads_first),
)
