"""Sampling the next token: temperature, greedy at T = 0, and a torch.Generator.

Temperature sampling (Ackley, Hinton & Sejnowski 1985; Holtzman et al. 2020, §3.1 eq. 1 with t):
token x is drawn with probability softmax(logits / T)[x]. T → 0 concentrates the mass on the argmax,
so T = 0 is greedy decoding, as vLLM (temperature < 1e-5) and transformers (`do_sample=False`)
treat it; torch.argmax returns the first index among equal maxima. Hugging Face's `_sample`
draws with `torch.multinomial(softmax(scores), num_samples=1).squeeze(1)`; a `torch.Generator`
makes the draw reproducible, as vLLM seeds one per request.
"""
import torch


def sample_token(logits, temperature=1.0, generator=None):
    """logits: [B, V] (-inf = banned). Returns int64 [B], one token per row, on logits' device."""
    assert logits.dim() == 2, f"expected logits [B, V], got shape {tuple(logits.shape)}"
    assert temperature >= 0, f"temperature must be >= 0, got {temperature}"
    if temperature == 0:
        return logits.argmax(dim=-1)  # greedy: the first index among equal maxima
    half = logits.dtype in (torch.float16, torch.bfloat16)
    scaled = (logits.float() if half else logits) / temperature  # (B, V)
    probs = torch.softmax(scaled, dim=-1)  # (B, V) max-shifted inside: ±1e4 cannot overflow
    return torch.multinomial(probs, num_samples=1, generator=generator).squeeze(-1)  # (B,)
