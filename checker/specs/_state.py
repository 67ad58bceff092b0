"""What the katas that thread a state call by call share (kv-cache, lstm-cell, linear-attention, mla): the structure
of a malformed return in words, and whether a state handed in came back as it was."""
from __future__ import annotations

from typing import Any

import torch


def structure(value: Any) -> str:
    """The structure of a return value in Python's notation: (Tensor(2, 6, 8), (Tensor(2, 2, 6, 3), …))."""
    if isinstance(value, torch.Tensor):
        return f"Tensor{tuple(value.shape)}".replace(",)", ")")
    if isinstance(value, (tuple, list)):
        inner = ", ".join(structure(v) for v in value[:4]) + (", …" if len(value) > 4 else "")
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    return type(value).__name__


def unchanged(t: Any, shape: tuple, dtype: torch.dtype, saved: torch.Tensor) -> bool:
    """Whether `t`, a state tensor handed to the learner's call, still has its shape, dtype and values (NaN where
    it held NaN): `saved` is its copy from before the call."""
    if not isinstance(t, torch.Tensor) or tuple(t.shape) != shape or t.dtype != dtype:
        return False
    now = t.detach()
    return torch.equal(now, saved) or bool(((now == saved) | (now.isnan() & saved.isnan())).all())
