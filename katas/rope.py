# kata: rope
import torch


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    raise NotImplementedError("write apply_rope")
