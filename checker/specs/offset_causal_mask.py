"""Case families for `offset-causal-mask`: start_pos 0, one decode step, a long cache, and the
device asked for (the run device, None = the default device, and meta)."""
from __future__ import annotations

import torch

from checker.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._attention import pick, randint

META = torch.device("meta")


def _case(L, start, device=RUN_DEVICE):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"seq_len": L, "start_pos": start, "device": device})
    return make


def _random(g: torch.Generator) -> Inputs:
    return _case(randint(g, 1, 12), pick(g, [0, randint(g, 1, 20), randint(g, 20, 200)]), pick(g, [RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("basic", "4 new queries after 3 cached keys: [4, 7]", _case(4, 3)),
    Family("start_pos_zero", "start_pos = 0: the plain causal mask", _case(5, 0)),
    Family("decode_step", "seq_len = 1 after 6 cached keys: one row, all True", _case(1, 6)),
    Family("single_token", "seq_len = 1, start_pos = 0: [[True]]", _case(1, 0)),
    Family("large_start_pos", "3 queries after 500 cached keys", _case(3, 500)),
    Family("prefill_longer_than_cache", "8 queries after 2 cached keys", _case(8, 2)),
    Family("device_none", "device=None: the default device", _case(4, 3, device=None)),
    Family("meta", "device='meta': the mask must be created there (shape, dtype and device are compared)",
           _case(4, 3, device=META)),
    Family("device", "the mask follows device= (checked as if the inputs were on a GPU)", _case(3, 4), track_device=True),
    Family("random", "random seq_len and start_pos on the run device or device=None", _random, draws=100),
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


MISTAKES = (
    Mistake("square [seq_len, seq_len] mask", "there are start_pos + seq_len keys: the mask is [seq_len, start_pos + seq_len]",
            _square),
    Mistake("start_pos ignored in the comparison", "query i sits at absolute position start_pos + i: compare j <= start_pos + i",
            _no_offset),
    Mistake("a query cannot see itself (< instead of <=)", "key j = start_pos + i is the query itself: use <=", _strict),
    Mistake("the comparison points the wrong way (future keys visible)", "True where j <= start_pos + i", _swapped),
    Mistake("device= ignored", "pass device=device to the aranges you create", _no_device),
)
