"""The moe-layer reference against code nobody here wrote: transformers' `MixtralSparseMoeBlock` (Mixtral, always
renormalised) and `Qwen3MoeSparseMoeBlock` (norm_topk_prob True and False). transformers 5.x stores the experts
fused, so the contract's per-expert weights are packed: `gate_up_proj[e] = [w1; w3]`, `down_proj[e] = w2`, and the
router's `gate.weight` is the block's `gate.weight`. 5.x's blocks return only the hidden states; the router logits
are read from `block.gate(h)[0]`. Compared: out, router_logits, and the gradients of (out · probe).sum() +
(router_logits · probe2).sum() w.r.t. x, the gate and every expert weight (unpacked back), each relative to
max(1, max|expected|), on x drawn under the contract's routing margin.

Test-only dependency: `pip install -e '.[dev,crosscheck]'`. Run with `-s` to see the figures. Measured (torch 2.13
CPU, transformers 5.25; 5 configurations: E 3–8, k 1–3, up to 64 tokens, hidden_dim below and above dim):
Mixtral — float32: out 5.9e-08, router_logits 0, gradients 1.8e-07; float64: out 7.7e-08 (its float32 router
softmax), router_logits 0, gradients 1.4e-07. Qwen3-MoE norm_topk_prob True / False — float32: out 5.9e-08 /
6.7e-08, router_logits 0 / 0, gradients 1.8e-07 / 2.3e-07; float64: out 7.7e-08 / 1.9e-07, gradients 1.4e-07 /
2.9e-07. All well inside the contract's tolerances (float32 1e-4 / 1e-5·s, float64 1e-5 / 1e-5·s)."""
from __future__ import annotations

import pytest
import torch

from checker.specs.moe_layer import routable_x, weights
from checker.text import catalog
from tests.spec_support import reference_of

MoELayer = reference_of(catalog.get("moe-layer"))  # loaded by path, never as `reference.*`

CONFIGS = [  # (B, L, C, I, E, k)
    (2, 5, 8, 12, 3, 1),
    (2, 8, 16, 24, 4, 2),
    (4, 16, 16, 32, 8, 2),  # 64 tokens, Mixtral's E and k
    (3, 7, 12, 20, 6, 3),
    (1, 9, 8, 6, 5, 2),  # hidden_dim < dim
]


def _relative(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max() / max(1.0, float(b.abs().max())))


def _block(kind: str, C: int, I: int, E: int, k: int, norm: bool):
    if kind == "mixtral":
        from transformers import MixtralConfig
        from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock
        return MixtralSparseMoeBlock(MixtralConfig(hidden_size=C, intermediate_size=I, num_local_experts=E,
                                                   num_experts_per_tok=k, router_jitter_noise=0.0))
    from transformers import Qwen3MoeConfig
    from transformers.models.qwen3_moe.modeling_qwen3_moe import Qwen3MoeSparseMoeBlock
    return Qwen3MoeSparseMoeBlock(Qwen3MoeConfig(hidden_size=C, moe_intermediate_size=I, num_experts=E,
                                                 num_experts_per_tok=k, norm_topk_prob=norm))


def _pack(params: dict[str, torch.Tensor], E: int) -> dict[str, torch.Tensor]:
    """The contract's per-expert weights as transformers 5.x's fused experts."""
    return {"gate.weight": params["gate.weight"],
            "experts.gate_up_proj": torch.stack([torch.cat([params[f"experts.{e}.w1.weight"],
                                                            params[f"experts.{e}.w3.weight"]]) for e in range(E)]),
            "experts.down_proj": torch.stack([params[f"experts.{e}.w2.weight"] for e in range(E)])}


def _run(module, x, probe, probe2, logits_of):
    x = x.clone().requires_grad_(True)
    out, logits = logits_of(module, x)
    ((out * probe).sum() + (logits * probe2).sum()).backward()
    return out.detach(), logits.detach(), x.grad


def _worst(kind: str, norm: bool, dtype: torch.dtype) -> dict[str, float]:
    worst = {"out": 0.0, "router_logits": 0.0, "gradients": 0.0}
    for i, (B, L, C, I, E, k) in enumerate(CONFIGS):
        g = torch.Generator().manual_seed(i)
        params = weights(g, C, I, E)
        x = routable_x(g, (B, L, C), params["gate.weight"], k, dtype)
        probe = torch.randn(B, L, C, generator=g, dtype=torch.float64).to(dtype)
        probe2 = torch.randn(B * L, E, generator=g, dtype=torch.float64).to(dtype)

        ours = MoELayer(C, I, E, k, norm)
        ours.load_state_dict(params)
        ours = ours.to(dtype)
        theirs = _block(kind, C, I, E, k, norm)
        theirs.load_state_dict(_pack(params, E))
        theirs = theirs.to(dtype)

        want = _run(ours, x, probe, probe2, lambda m, x: m(x))
        got = _run(theirs, x, probe, probe2, lambda m, x: (m(x), m.gate(x.reshape(-1, C))[0]))
        worst["out"] = max(worst["out"], _relative(got[0], want[0]))
        worst["router_logits"] = max(worst["router_logits"], _relative(got[1], want[1]))
        grads = [(got[2], want[2]), (theirs.gate.weight.grad, ours.gate.weight.grad)]
        gu, dp = theirs.experts.gate_up_proj.grad, theirs.experts.down_proj.grad
        for e in range(E):
            zero = lambda t: torch.zeros_like(t) if t.grad is None else t.grad  # noqa: E731 — an expert no token chose
            grads += [(gu[e], torch.cat([zero(ours.experts[e].w1.weight), zero(ours.experts[e].w3.weight)])),
                      (dp[e], zero(ours.experts[e].w2.weight))]
        worst["gradients"] = max(worst["gradients"], *(_relative(a, b) for a, b in grads))
    return worst


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("kind,norm", [("mixtral", True), ("qwen3", True), ("qwen3", False)],
                         ids=["mixtral", "qwen3_renormalised", "qwen3_raw"])
def test_reference_matches_transformers_sparse_moe_blocks(kind, norm, dtype):
    pytest.importorskip("transformers")
    worst = _worst(kind, norm, dtype)
    print(f"\n{kind} norm_topk_prob={norm} {dtype}: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items()))
    rtol_like = 1e-5  # both dtypes' atol: the libraries' float32 router softmax leaves float64 at ~1e-7
    assert all(v < rtol_like for v in worst.values()), worst
