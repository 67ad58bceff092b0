"""Case families for `sliding-window-mask`: window 1, windows longer than the history, the
window boundary, a long cache, and the device asked for (run device, None, meta)."""
from __future__ import annotations

import torch

from checker.judge.spec import RUN_DEVICE, Family, Inputs, Mistake
from checker.specs._attention import pick, randint

META = torch.device("meta")


def _case(L, start, window, device=RUN_DEVICE):
    def make(g: torch.Generator) -> Inputs:
        return Inputs(args={"seq_len": L, "start_pos": start, "window": window, "device": device})
    return make


def _random(g: torch.Generator) -> Inputs:
    L, start = randint(g, 1, 12), pick(g, [0, randint(g, 1, 20), randint(g, 20, 120)])
    window = pick(g, [randint(g, 1, 6), randint(g, 1, L + start), L + start + randint(g, 0, 5)])
    return _case(L, start, window, pick(g, [RUN_DEVICE, None]))(g)


FAMILIES = (
    Family("basic", _case(5, 4, 3)),
    Family("window_one", _case(4, 3, 1)),
    Family("window_two", _case(5, 0, 2)),
    Family("window_longer_than_history", _case(4, 5, 100)),
    Family("window_equals_history", _case(3, 4, 7)),
    Family("start_pos_zero", _case(6, 0, 3)),
    Family("decode_step", _case(1, 10, 4)),
    Family("single_token", _case(1, 0, 1)),
    Family("large_start_pos", _case(4, 300, 16)),
    Family("device_none", _case(4, 3, 2, device=None)),
    Family("meta", _case(4, 3, 2, device=META)),
    Family("device", _case(3, 4, 2), track_device=True),
    Family("device_none_on_gpu", _case(3, 4, 2, device=None), track_device=True),
    Family("random", _random, draws=100),
)


def _positions(seq_len, start_pos, device):
    p = start_pos + torch.arange(seq_len, device=device)[:, None]
    return p, torch.arange(start_pos + seq_len, device=device)[None, :]


def _window_plus_one(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return (j <= p) & (j >= p - window)


def _window_minus_one(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return (j <= p) & (j > p - window + 1)


def _no_window(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return j <= p


def _no_offset(seq_len, start_pos, window, device=None):
    p = torch.arange(seq_len, device=device)[:, None]
    j = torch.arange(start_pos + seq_len, device=device)[None, :]
    return (j <= p) & (j > p - window)


def _square(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return ((j <= p) & (j > p - window))[:, start_pos:]


def _no_device(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, None)
    return (j <= p) & (j > p - window)


def _window_on_new_keys_only(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return (j <= p) & ((j < start_pos) | (j > p - window))  # the cache always visible, the window only among new keys


def _not_causal(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return (j > p - window) & (j < p + window)  # a symmetric band: the future is visible too


def _float(seq_len, start_pos, window, device=None):
    p, j = _positions(seq_len, start_pos, device)
    return ((j <= p) & (j > p - window)).float()


MISTAKES = (
    Mistake("window_too_wide", _window_plus_one),
    Mistake("window_too_narrow", _window_minus_one),
    Mistake("window_ignored", _no_window),
    Mistake("start_pos_ignored", _no_offset),
    Mistake("square", _square),
    Mistake("device_ignored", _no_device),
    Mistake("window_on_new_keys_only", _window_on_new_keys_only),
    Mistake("future_visible", _not_causal),
    Mistake("float_mask", _float),
)
