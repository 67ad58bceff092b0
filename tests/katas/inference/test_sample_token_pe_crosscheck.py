"""sample-token and sinusoidal-pe against the code they follow (test-only; `pip install -e '.[dev,crosscheck]'`).

- sample-token: the distribution the checker tests draws against, softmax(logits / T) in float64
  (spec.target_probs), vs transformers' TemperatureLogitsWarper then torch.softmax, on every statistical
  case of three seeds and T from 0.3 to 4: max abs 1.6e-07 (the warper computes in float32).
- sinusoidal-pe vs DistilBERT's `_create_sinusoidal_embeddings` (transformers 5.24; NumPy float64 cast to
  float32), tables up to 4096 × 512: max abs 9.3e-10 (identical up to 2048 × 128; at 4096 × 512 the two
  float64 angles, p / 10000^x and p · 10000^(−x), round apart next to a zero of sin or cos).
- sinusoidal-pe: the Annotated Transformer's float32 code (transcribed below) vs the reference in float64,
  up to 4096 × 512: max abs 2.3e-04, max abs / (position + 1) 7.9e-08, inside the checker's 1e-6 per position.
"""
from __future__ import annotations

import importlib
import math

import pytest
import torch

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.worker import load_entry

SEEDS = (1, 77, 2024)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def test_target_distribution_matches_transformers_temperature_warper():
    warpers = pytest.importorskip("transformers.generation.logits_process", reason="transformers is not installed")
    spec = importlib.import_module(catalog.get("sample-token").spec_module)
    worst = 0.0
    cases = [c for seed in SEEDS for c in spec_api.build_cases(spec, seed) if c.inputs.show["kind"] == spec.STAT]
    assert len(cases) > 60
    for case in cases:
        logits, T = case.inputs.args["logits"], case.inputs.show["temperature"]
        if not 0.3 <= T <= 4:
            continue
        warped = warpers.TemperatureLogitsWarper(T)(None, logits.float())
        theirs = torch.softmax(warped, dim=-1).double()
        worst = max(worst, float((theirs - spec.target_probs(case.inputs)).abs().max()))
    print(f"\nsample-token: target probabilities vs TemperatureLogitsWarper + softmax, max abs {worst:.2e}")
    assert worst < 5e-7


@pytest.mark.parametrize("n_pos,dim", [(1, 2), (50, 16), (512, 64), (2048, 128), (4096, 512)])
def test_sinusoidal_matches_distilbert(n_pos, dim):
    distilbert = pytest.importorskip("transformers.models.distilbert.modeling_distilbert",
                                     reason="transformers is not installed")
    theirs = distilbert._create_sinusoidal_embeddings(n_pos=n_pos, dim=dim, out=torch.empty(n_pos, dim))
    ours = _reference("sinusoidal-pe")(n_pos, dim)
    diff = float((ours - theirs).abs().max())
    print(f"\nsinusoidal-pe vs DistilBERT {n_pos} × {dim}: max abs {diff:.2e}")
    assert diff <= 2.5e-7


def _annotated_transformer(max_len: int, d_model: int) -> torch.Tensor:
    """The Annotated Transformer's PositionalEncoding.__init__ (Harvard NLP, 2018/2022), float32."""
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


@pytest.mark.parametrize("n_pos,dim", [(64, 16), (1024, 128), (4096, 512)])
def test_the_annotated_transformer_passes_the_per_position_tolerance(n_pos, dim):
    ours = _reference("sinusoidal-pe")(n_pos, dim, dtype=torch.float64)
    theirs = _annotated_transformer(n_pos, dim).double()
    diff = (theirs - ours).abs()
    per_position = float((diff.amax(dim=1) / (torch.arange(n_pos, dtype=torch.float64) + 1)).max())
    print(f"\nAnnotated Transformer {n_pos} × {dim}: max abs {float(diff.max()):.2e}, "
          f"per position {per_position:.2e}")
    assert per_position < 1e-6  # the checker's atol grows by 1e-6 per position
    rtol, atol = spec_api.TOLERANCES[torch.float32]
    assert bool((diff <= atol + 1e-6 * n_pos + rtol * ours.abs()).all())
