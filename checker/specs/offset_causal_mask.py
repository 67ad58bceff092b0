"""Case families for `offset-causal-mask`: start_pos 0, one decode step, a long cache, and the
device asked for (the run device, None = the default device, and meta)."""
from __future__ import annotations

import torch

from checker.judge.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._attention import pick, randint

META = torch.device("meta")


def _case(L, start, device=RUN_DEVICE):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"seq_len": L, "start_pos": start, "device": device})
    return make


def _random(g: torch.Generator) -> Inputs:
    return _case(randint(g, 1, 12), pick(g, [0, randint(g, 1, 20), randint(g, 20, 200)]), pick(g, [RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("basic", _case(4, 3)),
    Family("start_pos_zero", _case(5, 0)),
    Family("decode_step", _case(1, 6)),
    Family("single_token", _case(1, 0)),
    Family("large_start_pos", _case(3, 500)),
    Family("prefill_longer_than_cache", _case(8, 2)),
    Family("device_none", _case(4, 3, device=None)),
    Family("meta", _case(4, 3, device=META)),
    Family("device", _case(3, 4), track_device=True),
    Family("device_none_on_gpu", _case(3, 4, device=None), track_device=True),
    Family("random", _random, draws=100),
)


def _idx(seq_len, start_pos, device):
    return torch.arange(seq_len, device=device)[:, None], torch.arange(start_pos + seq_len, device=device)[None, :]


def _square(seq_len, start_pos, device=None):
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device))


def _no_offset(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return k <= q


def _strict(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return k < start_pos + q


def _swapped(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return k >= start_pos + q


def _no_device(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, None)
    return k <= start_pos + q


def _cache_hidden(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return (k >= start_pos) & (k <= start_pos + q)


def _inverted(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return k > start_pos + q


def _one_too_many(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return k <= start_pos + q + 1


def _float(seq_len, start_pos, device=None):
    q, k = _idx(seq_len, start_pos, device)
    return (k <= start_pos + q).float()


MISTAKES = (
    Mistake("square", _square),
    Mistake("cache_hidden", _cache_hidden),
    Mistake("mask_inverted", _inverted),
    Mistake("one_key_too_many", _one_too_many),
    Mistake("float_mask", _float),
    Mistake("start_pos_ignored", _no_offset),
    Mistake("strict_less", _strict),
    Mistake("future_visible", _swapped),
    Mistake("device_ignored", _no_device),
)
