"""Rotary position embedding (RoPE), with the rotate-half pairing.

Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding" (2021), eq. 34:
R_Θ,m x = x ⊙ cos(mθ) + rotate(x) ⊙ sin(mθ), θ_i = base^(−2(i−1)/d), i = 1 … d/2.
The paper rotates adjacent pairs (x_1, x_2), (x_3, x_4), …; GPT-NeoX and Hugging Face's LLaMA pair
feature i with feature i + d/2 (`rotate_half`), and so does this kata.
"""
import torch


def rotate_half(x):
    """(x₁, x₂) -> (−x₂, x₁), the two halves of the last dim."""
    x1, x2 = x.chunk(2, dim=-1)  # (..., D/2) each
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, start_pos: int = 0, base: float = 10000.0):
    """x (B, H, L, D), D even, maybe a non-contiguous view; row l sits at position start_pos + l.

    Returns the rotated x: same shape, dtype and device.
    """
    B, H, L, D = x.shape
    assert D % 2 == 0, f"head_dim must be even, got {D}"
    # Angles in float64: exact at positions in the thousands (float32 angles drift by ~4e-8 · position).
    inv_freq = base ** (-torch.arange(0, D, 2, dtype=torch.float64, device=x.device) / D)  # (D/2,) = θ_i
    pos = torch.arange(start_pos, start_pos + L, dtype=torch.float64, device=x.device)  # (L,)
    angles = torch.outer(pos, inv_freq)  # (L, D/2): m·θ_i
    angles = torch.cat((angles, angles), dim=-1)  # (L, D): feature i and i + D/2 turn together
    wide = torch.promote_types(x.dtype, torch.float32)  # half inputs: computed in float32, rounded once
    cos, sin = angles.cos().to(wide), angles.sin().to(wide)  # broadcast over B and H
    xw = x.to(wide)
    return (xw * cos + rotate_half(xw) * sin).to(x.dtype)
