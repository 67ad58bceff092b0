"""The catalog: one frozen declaration per kata.

Adding a kata touches three places: its stub in `katas/`, its reference in `reference/`, and
its declaration here (plus its case families in `checker/specs/<module>.py`). This module must
stay import-light: `kata list`, `start`, `hint` and `reveal` read it without importing torch.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from checker.errors import KataError

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
STUBS_DIR = PACKAGE_ROOT / "katas"
REFERENCE_DIR = PACKAGE_ROOT / "reference"

# Importing these would hand the learner the answer; every kata bans them.
ALWAYS_BANNED = ("reference", "checker")
ATTENTION_BANNED = (
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.MultiheadAttention",
    "torch.nn.functional.multi_head_attention_forward",
    "torch.nn.modules.activation.MultiheadAttention",
)


@dataclass(frozen=True)
class Kata:
    """What the CLI and the checker know about one kata.

    `entry` is the name the learner's file must define; `kind` says whether it is a function
    or an `nn.Module` class; `outputs` names the items of the returned value (one name = a
    single value, not a tuple). `banned` lists dotted names the file must not use (a prefix
    bans a whole module: "torch" bans every use of torch).
    """

    id: str
    title: str
    topic: str
    difficulty: str
    entry: str
    kind: str  # "function" | "module"
    outputs: tuple[str, ...]
    hints: tuple[str, ...]
    banned: tuple[str, ...] = ()
    numpy_only: bool = False
    summary: str = ""
    _spec: str = field(default="", repr=False)

    @property
    def module(self) -> str:
        """The module name shared by the stub, the reference and the spec."""
        return self.id.replace("-", "_")

    @property
    def spec_module(self) -> str:
        return self._spec or f"checker.specs.{self.module}"

    @property
    def stub_path(self) -> Path:
        return STUBS_DIR / f"{self.module}.py"

    @property
    def reference_path(self) -> Path:
        return REFERENCE_DIR / f"{self.module}.py"

    @property
    def filename(self) -> str:
        return f"{self.module}.py"

    @property
    def all_banned(self) -> tuple[str, ...]:
        return self.banned + ALWAYS_BANNED


KATAS: tuple[Kata, ...] = (
    Kata(
        id="attention",
        title="Scaled dot-product attention",
        topic="attention",
        difficulty="easy",
        entry="ScaledDotProductAttention",
        kind="module",
        outputs=("output", "attn_weights"),
        banned=ATTENTION_BANNED,
        summary="softmax(q·kᵀ/√d) with a bool mask and dropout, as an nn.Module",
        hints=(
            "Scores are q @ k.transpose(-2, -1): transpose the last two dims of K, then divide by √D where D = q.size(-1).",
            "Masks are True = may attend. Fill the *False* places: scores.masked_fill(~mask, fill), with a finite fill far "
            "below every score: torch.finfo(scores.dtype).min fits every dtype (-inf turns a fully-masked row into NaN; "
            "-1e9 does not fit in float16).",
            "Softmax over the last dim (keys), then dropout on the *weights* — after softmax, never before — and return "
            "the weights after dropout.",
            "weights = self.dropout(torch.softmax(scores, dim=-1)); return weights @ v, weights",
        ),
    ),
    Kata(
        id="causal-mask",
        title="Batched causal mask",
        topic="attention",
        difficulty="easy",
        entry="create_batch_causal_mask",
        kind="function",
        outputs=("mask",),
        banned=ATTENTION_BANNED,
        summary="bool [B,H,L,L] lower-triangular mask on a given device",
        hints=(
            "Query i may see keys j <= i: that is the lower triangle, diagonal included.",
            "torch.tril(torch.ones(L, L, dtype=torch.bool, device=device)) — pass device= when you create it.",
            "Add the batch and head dims with [None, None] and .expand(B, H, L, L).",
        ),
    ),
    Kata(
        id="offset-causal-mask",
        title="Causal mask with a KV-cache offset",
        topic="attention",
        difficulty="medium",
        entry="create_offset_causal_mask",
        kind="function",
        outputs=("mask",),
        banned=ATTENTION_BANNED,
        summary="bool [L, start_pos+L] mask for decoding with a KV cache",
        hints=(
            "There are start_pos cached keys plus seq_len new ones: the mask is [seq_len, start_pos + seq_len], not square.",
            "Query i sits at absolute position start_pos + i and may see every key j <= start_pos + i.",
            "q_idx = torch.arange(seq_len, device=device)[:, None]; k_idx = torch.arange(start_pos + seq_len, device=device)[None, :]; "
            "return k_idx <= start_pos + q_idx",
        ),
    ),
    Kata(
        id="sliding-window-mask",
        title="Sliding-window causal mask",
        topic="attention",
        difficulty="medium",
        entry="create_sliding_window_mask",
        kind="function",
        outputs=("mask",),
        banned=ATTENTION_BANNED,
        summary="offset causal mask where each query sees only its last `window` keys",
        hints=(
            "Start from the offset causal mask: query i is at p = start_pos + i and sees keys j <= p.",
            "The window counts the query itself: with window=1 a query sees only its own key, so keep j > p - window.",
            "mask = (k_idx <= p) & (k_idx > p - window) with p = start_pos + q_idx broadcast as [L, 1].",
        ),
    ),
    Kata(
        id="mha",
        title="Multi-head self-attention",
        topic="attention",
        difficulty="medium",
        entry="MultiHeadAttention",
        kind="module",
        outputs=("out", "attn_weights"),
        banned=ATTENTION_BANNED,
        summary="w_q/w_k/w_v/w_o projections, split heads, attend, merge heads",
        hints=(
            "Project with self.w_q, w_k, w_v; split heads by view(B, L, H, hd) then transpose(1, 2) to [B, H, L, hd] "
            "(a plain reshape(B, H, L, hd) mixes positions into heads).",
            "Scale by √head_dim (not √embed_dim). Masks are True = attend: masked_fill(~mask, torch.finfo(scores.dtype).min), "
            "not -inf, or a fully-masked row turns NaN.",
            "Merge heads back: transpose(1, 2) to [B, L, H, hd] *before* reshape(B, L, C), then apply w_o. "
            "And assert embed_dim % num_heads == 0 in __init__.",
            "y = (weights @ v).transpose(1, 2).reshape(B, L, C); return self.w_o(y), weights",
        ),
    ),
    Kata(
        id="cross-attention",
        title="Multi-head cross-attention",
        topic="attention",
        difficulty="medium",
        entry="CrossAttention",
        kind="module",
        outputs=("out", "attn_weights"),
        banned=ATTENTION_BANNED,
        summary="queries from x, keys and values from a context of another length",
        hints=(
            "Same as self-attention except where the projections read from: Q = w_q(x), K = w_k(context), V = w_v(context).",
            "Split each with its own length: q to [B, H, Lq, hd], k and v to [B, H, Lk, hd]; scores are [B, H, Lq, Lk] "
            "and the mask broadcasts to that shape.",
            "Fill masked scores with torch.finfo(scores.dtype).min (not -inf); merge heads with transpose(1, 2).reshape(B, Lq, C) "
            "and project with w_o.",
        ),
    ),
    Kata(
        id="softmax",
        title="Numerically stable softmax (NumPy)",
        topic="helpers",
        difficulty="easy",
        entry="softmax",
        kind="function",
        outputs=("probs",),
        banned=("torch", "scipy.special.softmax"),
        numpy_only=True,
        summary="softmax along any axis in NumPy, stable for huge inputs",
        hints=(
            "Use the dim argument: every reduction needs axis=dim, keepdims=True (not axis=-1).",
            "Subtract the max along that axis before exp: exp(x - max) never overflows and gives the same result.",
            "e = np.exp(x - x.max(axis=dim, keepdims=True)); return e / e.sum(axis=dim, keepdims=True)",
        ),
    ),
    Kata(
        id="mc-advantage",
        title="Monte-Carlo returns and advantages",
        topic="rl",
        difficulty="easy",
        entry="compute_mc_advantage",
        kind="function",
        outputs=("advantages", "returns"),
        summary="discounted returns cut at dones, normalised advantages",
        hints=(
            "Walk backwards: returns[t] = rewards[t] + gamma * (1 - dones[t]) * returns[t + 1], with nothing after the last step.",
            "A done at step t cuts what comes *after* t: step t still keeps its own reward.",
            "Advantages are returns - values, then normalised with (a - a.mean()) / (a.std() + 1e-8). Return the raw returns.",
        ),
    ),
    Kata(
        id="gae",
        title="Generalised advantage estimation",
        topic="rl",
        difficulty="medium",
        entry="compute_gae",
        kind="function",
        outputs=("advantages", "returns"),
        summary="GAE(γ, λ) over one trajectory with dones, no bootstrap",
        hints=(
            "Walk backwards from t = T-1. The value after the last step is 0; elsewhere next_value = values[t + 1].",
            "A done at step t stops everything after t: multiply both gamma * next_value and the carried advantage by (1 - dones[t]).",
            "delta = rewards[t] + gamma * next_value * (1 - done) - values[t]; gae = delta + gamma * lam * (1 - done) * gae",
            "returns = advantages + values from the *raw* advantages; normalise the advantages only after that.",
        ),
    ),
    Kata(
        id="gae-batched",
        title="GAE over parallel environments",
        topic="rl",
        difficulty="medium",
        entry="compute_gae_batched",
        kind="function",
        outputs=("advantages", "returns"),
        summary="GAE over [T, N] rollouts with a bootstrap value per env",
        hints=(
            "Same recursion as gae, vectorised over the N envs: each step works on a row of shape [N].",
            "After the last step the next value is last_values, masked by dones[T-1] like any other next value.",
            "No normalisation here: return A and A + values.",
        ),
    ),
    Kata(
        id="grpo-advantage",
        title="GRPO group advantages",
        topic="rl",
        difficulty="easy",
        entry="compute_group_advantages",
        kind="function",
        outputs=("advantages",),
        summary="per-group standardised rewards along the last dim",
        hints=(
            "Each group is the last dim: use mean(dim=-1, keepdim=True) and std(dim=-1, keepdim=True), never the global mean.",
            "std is PyTorch's default (unbiased); add 1e-8 to it so a group of equal rewards gives 0, not NaN.",
        ),
    ),
    Kata(
        id="grpo-loss",
        title="GRPO clipped loss with a KL penalty",
        topic="rl",
        difficulty="hard",
        entry="grpo_calc_loss",
        kind="function",
        outputs=("loss",),
        summary="PPO-clip surrogate, k3 KL to the reference, masked per-completion mean",
        hints=(
            "ratio = exp(new - old); surrogate = min(ratio * A, clamp(ratio, 1 - eps, 1 + eps) * A) — min, not max.",
            "The KL is the k3 estimator: exp(ref - new) - (ref - new) - 1, always >= 0.",
            "Per-token loss = -(surrogate - kl_beta * kl). For [G, T] inputs, average each completion over its valid tokens first, then over G.",
            "For [G, T], broadcast advantages with advantages[:, None]; mask = mask.to(loss.dtype); "
            "((loss * mask).sum(-1) / mask.sum(-1)).mean()",
        ),
    ),
)

_BY_ID = {kata.id: kata for kata in KATAS}


def ids() -> list[str]:
    return [kata.id for kata in KATAS]


def get(name: str) -> Kata:
    """The kata called `name` (ids with - or _ both work), or a KataError with a suggestion."""
    key = name.strip().lower().replace("_", "-")
    if key.endswith(".py"):
        key = key[:-3]
    if key in _BY_ID:
        return _BY_ID[key]
    close = difflib.get_close_matches(key, _BY_ID, n=1, cutoff=0.5)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise KataError(f"No kata named '{name}'.{hint} Run 'kata list' to see them all.")


def find(name: str) -> Kata | None:
    try:
        return get(name)
    except KataError:
        return None
