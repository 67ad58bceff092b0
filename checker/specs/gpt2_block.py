"""Case families for `gpt2-block`: C 16 / H 4, one head, head_dim 1 (C = H = 8), head_dim 2 over 33 positions,
T = 1, B = 3 with C 24 / H 3, activations of 1e-3 (so a wrong LayerNorm eps shows) and of 100, float64 in two
configurations, T = 64 (the longest: a registered causal-mask buffer sliced to T), a causality case, the two
configurations whose __init__ must raise, the device case, and random draws.

Every case first checks the module as built, before anything is loaded: its parameters are exactly nanoGPT's
twelve with the contract's shapes and both LayerNorms start at weight 1 and bias 0. Buffers are the module's own
(the module protocol): a causal mask kept as a buffer, persistent or not, is neither compared nor loaded. Then the
module is converted (`.float()` / `.double()`), random parameters are loaded by name, and it runs in train mode
(the output, and the gradients of (y · probe).sum() w.r.t. x and the twelve parameters), then in eval mode (the
same output: there is no dropout).

Two GELU forms are right, applied consistently: GPT-2's tanh form and nanoGPT's exact erf. They are the kata's
CONVENTIONS: the engine judges every case against each and gives the verdict under the one the file matches on
most cases, so a file passes when one form reproduces every case. Every case tells them apart: the float32
outputs alone often do not (the two forms differ by at most 4.7e-4), the float32 parameter gradients do, and so do
float64 outputs, which is why every named case and every float32 draw compares gradients
(tests/katas/transformer/test_gpt2_block_specs.py).
"""
from __future__ import annotations

import math
from dataclasses import replace

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.results import Problem
from checker.judge.spec import Convention, Family, Inputs, Mistake, Outcome
from checker.specs import _block
from checker.specs._attention import pick, randint, randn
from checker.specs._block import CAUSAL_AT, EARLIER, FRESH, NAMES
from checker.text.i18n import tr

EVAL = "output in eval mode"  # Outcome.extras key: the same input again after module.eval()
_BLOCKING = ("keys", "separate_qkv", "shape")  # findings after which the case's parameters cannot be loaded
RAISES = "AssertionError|ValueError"

# rtol, and the atol that is scaled by max(1, max|expected|): the contract's rule, for the outputs and every gradient
TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-9, 1e-11)}


def weight_shapes(C: int) -> dict[str, tuple[int, ...]]:
    """The contract's parameters: nanoGPT's names, nn.Linear's [out, in] shapes."""
    return {
        "ln_1.weight": (C,), "ln_1.bias": (C,),
        "attn.c_attn.weight": (3 * C, C), "attn.c_attn.bias": (3 * C,),
        "attn.c_proj.weight": (C, C), "attn.c_proj.bias": (C,),
        "ln_2.weight": (C,), "ln_2.bias": (C,),
        "mlp.c_fc.weight": (4 * C, C), "mlp.c_fc.bias": (4 * C,),
        "mlp.c_proj.weight": (C, 4 * C), "mlp.c_proj.bias": (C,),
    }


def _params(g: torch.Generator, C: int) -> dict[str, torch.Tensor]:
    """LayerNorm weights in [0.5, 1.5] and biases in [-0.5, 0.5] (far from the initial ones and zeros, so a norm that
    drops them fails); linear weights and biases drawn like nn.Linear's init."""
    params = {}
    for name, shape in weight_shapes(C).items():
        u = torch.rand(shape, generator=g, dtype=torch.float64)
        if name.startswith("ln_"):
            params[name] = (u + 0.5 if name.endswith("weight") else u - 0.5).float()
        else:
            fan_in = weight_shapes(C)[name.rsplit(".", 1)[0] + ".weight"][1]
            params[name] = ((2 * u - 1) / math.sqrt(fan_in)).float()
    return params


def _case(B=2, T=5, C=16, H=4, *, dtype=torch.float32, scale=1.0, causal_at=None, grads=True):
    """grads: compare the gradients too (every named case, every float32 draw)."""
    def make(g: torch.Generator) -> Inputs:
        init = {"n_embd": C, "n_head": H}
        show = dict(init)
        if causal_at is not None:
            show[CAUSAL_AT] = causal_at
        x = randn(g, B, T, C, dtype=dtype, scale=scale)
        return Inputs(args={"x": x}, init=init, params=_params(g, C), train=True, grad_of=("x",) if grads else (),
                      probe=randn(g, B, T, C, dtype=dtype) if grads else None, show=show)
    return make


def _random(g: torch.Generator) -> Inputs:
    """float32 draws normalise at least 16 features: a LayerNorm's float32 gradients over fewer are rounding noise
    (the catalog's rule for the normalisation katas); narrower blocks are drawn in float64. The float32 draws compare
    gradients (where the two GELU forms part); the float64 ones their outputs, which part them already (speed: a
    backward pass is most of a case's work)."""
    H, hd = randint(g, 1, 4), pick(g, [2, 4, 4, 8, 16])
    B, T = randint(g, 1, 3), randint(g, 1, 12)
    scale = pick(g, [1.0, 1.0, 1.0, 3.0, 0.01])
    dtype = torch.float64 if randint(g, 1, 5) == 1 or H * hd < 16 else torch.float32
    return _case(B, T, H * hd, H, dtype=dtype, scale=scale, grads=dtype == torch.float32)(g)


def _raising(C: int, H: int):
    def make(g: torch.Generator) -> Inputs:
        init = {"n_embd": C, "n_head": H}
        return Inputs(args=init, raises=RAISES, show=dict(init))  # the call is the constructor: args are its kwargs
    return make


FAMILIES = (
    Family("c16_h4", _case(C=16, H=4)),
    Family("one_head", _case(C=8, H=1, T=6)),
    Family("head_dim_one", _case(C=8, H=8, T=4)),
    Family("head_dim_two_t33", _case(B=1, T=33, C=8, H=4)),
    Family("seq_len_one", _case(B=3, T=1, C=16, H=4)),
    Family("batch_three_c24_h3", _case(B=3, T=4, C=24, H=3)),
    Family("small_activations", _case(C=16, H=2, scale=1e-3)),
    Family("large_activations", _case(C=16, H=4, scale=100.0)),
    Family("float64", _case(C=16, H=4, dtype=torch.float64)),
    Family("float64_c24_h3", _case(B=1, T=9, C=24, H=3, dtype=torch.float64)),
    Family("mask_buffer_t64", _case(B=1, T=64, C=8, H=2)),
    Family("causality", _case(B=2, T=8, C=16, H=4, causal_at=5)),
    Family("indivisible_heads", _raising(10, 4)),
    Family("indivisible_heads_odd", _raising(12, 5)),
    Family("device", _case(C=8, H=2, T=4), track_device=True),
    Family("random", _random, draws=86),
)


tolerance_for = _block.scaled_tolerance(TOLERANCES)  # the contract's rule: rtol, atol × max(1, max|expected|)


# ---------------------------------------------------------------- the module as built


def _fresh_findings(module: nn.Module, init: dict) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """(code, detail) for each way the module as built breaks the contract (() when it keeps it), and the names
    behind a finding. The details hold what a variant with the same slip has too (so the namer can match them)."""
    want = weight_shapes(init["n_embd"])
    state = {name: p.detach() for name, p in module.named_parameters()}
    found: list[tuple[str, str]] = []
    names = {}
    missing = [k for k in want if k not in state]
    extra = [k for k in state if k not in want]
    if "attn.c_attn.weight" in missing and sum(k.startswith("attn.") and k.endswith(".weight") for k in extra) >= 3:
        found.append(("separate_qkv", ""))  # q, k and v as three linears, whatever they are called
        names["separate_qkv"] = ", ".join(k for k in extra if k.startswith("attn."))
        missing = [k for k in missing if not k.startswith("attn.c_attn.")]
        extra = [k for k in extra if not k.startswith("attn.")]
    if missing or extra:
        found.append(("keys", "|".join((", ".join(missing), ", ".join(extra)))))
    for name, shape in want.items():
        if name in state and tuple(state[name].shape) != shape:
            found.append(("shape", f"{name}|{tuple(state[name].shape)}|{shape}"))
    for name in ("ln_1", "ln_2"):
        weight, bias = state.get(f"{name}.weight"), state.get(f"{name}.bias")
        if weight is not None and weight.shape == want[f"{name}.weight"] and not bool((weight == 1).all()) or (
                bias is not None and bias.shape == want[f"{name}.bias"] and not bool((bias == 0).all())):
            found.append(("ln_init", name))
    if not all(bool(torch.isfinite(p).all()) for p in state.values()):
        found.append(("not_finite", ""))
    return tuple(found), names


def _fresh_problem(code: str, detail: str, init: dict) -> Problem:
    """One finding as the report says it."""
    if code == "separate_qkv":
        message = tr("q, k and v are separate linears ({names}): GPT-2 projects them together, attn.c_attn = "
                     "nn.Linear(n_embd, 3 * n_embd), then q, k, v = c_attn(x).split(n_embd, dim=2)", names=detail)
    elif code == "keys":
        missing, other = detail.split("|")
        parts = []
        if missing:
            parts.append(tr("missing {names}", names=missing))
        if other:
            parts.append(tr("unexpected {names}", names=other))
        message = tr("the parameters must be exactly nanoGPT's twelve (ln_1, attn.c_attn, attn.c_proj, ln_2, mlp.c_fc, "
                     "mlp.c_proj, each a weight and a bias): {problems}", problems="; ".join(parts))
    elif code == "shape":
        name, got, want = detail.split("|")
        message = tr("{name} has shape {got}, expected {want} (nn.Linear stores [out, in]; c_attn is 3 · n_embd wide, "
                     "c_fc 4 · n_embd)", name=name, got=got, want=want)
    elif code == "ln_init":
        message = tr("{name} does not start at weight 1 and bias 0: nn.LayerNorm(n_embd) as built", name=detail)
    else:  # not_finite
        message = tr("a parameter holds inf or NaN as built: initialise every linear (nn.Linear's init will do)")
    return Problem("rule", FRESH, message)


# ---------------------------------------------------------------- the protocol


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build and check the module, convert it, load the parameters by name, run it in train mode with gradients,
    then again in eval mode. The causality case also runs x with its later tokens changed."""
    if inputs.raises is not None:
        return spec_api.call(kata, entry, inputs, device, track_device)
    module = entry(**inputs.init)
    found, names = _fresh_findings(module, inputs.init)
    if any(code in _BLOCKING for code, _ in found):
        return Outcome(None, {FRESH: found, NAMES: names})
    module = spec_api.convert(module, inputs.args["x"].dtype)
    if inputs.params is not None:  # (the bench's block keeps its own init)
        spec_api.load_params(module, inputs.params)
        inputs = replace(inputs, params=None)
    outcome = spec_api.call(kata, lambda **init: module, inputs, device, track_device)
    extras = {FRESH: found, **outcome.extras}
    if isinstance(outcome.value, torch.Tensor) and spec_api.simulated_device(inputs, track_device) is None:
        x = outcome.args["x"].detach()
        module.eval()
        with torch.no_grad():
            extras[EVAL] = module(x)
        at = inputs.show.get(CAUSAL_AT)
        moves = None if at is None else _block.earlier_moves(module, x, outcome.value, at)
        if moves is not None:
            extras[EARLIER] = moves
    return Outcome(outcome.value, extras, outcome.args)


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    return [call(kata, entry, inputs, device)]


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    return _block.compare(kata, case, expected, got, _fresh_problem, _not_causal, TOLERANCES[torch.float32][1])


def _not_causal(**where) -> str:
    return tr("position {i} changed when only a later token did (tokens {at}…{last} were changed; output {i} moved by "
              "{by}): the block must be causal, each position attending to itself and earlier ones only", **where)


# ---------------------------------------------------------------- the two conventions, and known mistakes


def gelu(u: torch.Tensor, form: str) -> torch.Tensor:
    """GELU and its look-alikes: the two right forms ("tanh", "erf") and the slips the mistakes make."""
    if form == "erf":
        return 0.5 * u * (1 + torch.erf(u / math.sqrt(2)))
    if form == "relu":
        return torch.relu(u)
    if form == "per_dtype":  # the tanh form in float32, the exact one in float64
        return gelu(u, "tanh" if u.dtype == torch.float32 else "erf")
    cubic = 0 if form == "no_cubic" else 0.044715 * u ** 3
    root = 2 / math.pi if form == "two_over_pi" else math.sqrt(2 / math.pi)
    if form == "erf_of_tanh_argument":
        return 0.5 * u * (1 + torch.erf(root * (u + cubic)))
    return 0.5 * u * (1 + torch.tanh(root * (u + cubic)))


class _GPT2(nn.Module):
    """The right block with switches, one per known mistake; `convention` is the GELU form a right file uses."""

    convention = "tanh"  # tanh | erf
    gelu_slip: str | None = None  # a wrong GELU: erf_of_tanh_argument | per_dtype | no_cubic | two_over_pi | relu
    post_norm = False
    residual_from_normed = False
    mlp_residual = True
    qkv_order = "qkv"
    heads_interleaved = False
    merge_transposed = True
    causal = True
    masking = "before"  # before | after_softmax | zero
    scale = "sqrt_hd"  # sqrt_hd | sqrt_c
    softmax_dim = -1
    eps = 1e-5
    ln_bias = True
    separate_qkv = False
    attn_dropout = 0.0
    divisibility_check = True
    mlp_width = 4

    def __init__(self, n_embd, n_head):
        super().__init__()
        if self.divisibility_check:
            assert n_embd % n_head == 0
        C = n_embd
        self.H, self.hd = n_head, C // n_head
        self.ln_1, self.ln_2 = nn.Module(), nn.Module()
        for ln in (self.ln_1, self.ln_2):
            ln.weight = nn.Parameter(torch.ones(C))
            ln.bias = nn.Parameter(torch.zeros(C)) if self.ln_bias else None
        self.attn, self.mlp = nn.Module(), nn.Module()
        if self.separate_qkv:
            self.attn.q_proj, self.attn.k_proj, self.attn.v_proj = (nn.Linear(C, C) for _ in range(3))
        else:
            self.attn.c_attn = nn.Linear(C, 3 * C)
        self.attn.c_proj = nn.Linear(C, C)
        self.mlp.c_fc = nn.Linear(C, self.mlp_width * C)
        self.mlp.c_proj = nn.Linear(self.mlp_width * C, C)

    def norm(self, x, ln):
        return F.layer_norm(x, x.shape[-1:], ln.weight, ln.bias, self.eps)

    def attention(self, x):
        B, T, C = x.shape
        a = self.attn
        if self.separate_qkv:
            q, k, v = a.q_proj(x), a.k_proj(x), a.v_proj(x)
        else:
            parts = dict(zip(self.qkv_order, a.c_attn(x).split(C, dim=2)))
            q, k, v = parts["q"], parts["k"], parts["v"]
        if self.heads_interleaved:  # head h = features h, h + H, h + 2H, …
            q, k, v = (t.view(B, T, self.hd, self.H).permute(0, 3, 1, 2) for t in (q, k, v))
        else:
            q, k, v = (t.view(B, T, self.H, self.hd).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C if self.scale == "sqrt_c" else self.hd)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        if self.causal and self.masking == "before":
            scores = scores.masked_fill(future, float("-inf"))
        elif self.causal and self.masking == "zero":
            scores = scores.masked_fill(future, 0.0)
        weights = torch.softmax(scores, dim=self.softmax_dim)
        if self.causal and self.masking == "after_softmax":
            weights = weights.masked_fill(future, 0.0)
        weights = F.dropout(weights, self.attn_dropout, self.training)
        y = weights @ v  # (B, H, T, hd)
        y = y.transpose(1, 2).reshape(B, T, C) if self.merge_transposed else y.reshape(B, T, C)
        return a.c_proj(y)

    def feed_forward(self, x):
        return self.mlp.c_proj(gelu(self.mlp.c_fc(x), self.gelu_slip or self.convention))

    def forward(self, x):
        if self.post_norm:
            h = self.norm(x + self.attention(x), self.ln_1)
            return self.norm(h + self.feed_forward(h), self.ln_2)
        if self.residual_from_normed:
            n = self.norm(x, self.ln_1)
            h = n + self.attention(n)
            m = self.norm(h, self.ln_2)
            return m + self.feed_forward(m)
        h = x + self.attention(self.norm(x, self.ln_1))
        out = self.feed_forward(self.norm(h, self.ln_2))
        return h + out if self.mlp_residual else out


def _variant(**switches):
    return type("GPT2Block", (_GPT2,), switches)


def _under(convention: str):
    """A known mistake's variant written with this GELU form (the namer judges a file in the convention it follows)."""
    return lambda fn: type(fn.__name__, (fn,), {"convention": convention})


CONVENTIONS = (
    Convention("tanh", adapt=_under("tanh")),  # the reference file: GPT-2's gelu_new
    Convention("erf", _variant(convention="erf"), adapt=_under("erf")),  # nanoGPT's nn.GELU()
)

MISTAKES = (
    Mistake("post_norm", _variant(post_norm=True)),
    Mistake("residual_from_normed", _variant(residual_from_normed=True)),
    Mistake("mlp_no_residual", _variant(mlp_residual=False)),
    Mistake("qkv_order", _variant(qkv_order="kqv")),
    Mistake("heads_interleaved", _variant(heads_interleaved=True)),
    Mistake("merge_no_transpose", _variant(merge_transposed=False)),
    Mistake("no_causal_mask", _variant(causal=False)),
    Mistake("mask_after_softmax", _variant(masking="after_softmax")),
    Mistake("masked_scores_zero", _variant(masking="zero")),
    Mistake("scaled_by_n_embd", _variant(scale="sqrt_c")),
    Mistake("softmax_over_queries", _variant(softmax_dim=-2)),
    Mistake("gelu_forms_mixed", _variant(gelu_slip="erf_of_tanh_argument")),
    Mistake("gelu_forms_mixed", _variant(gelu_slip="per_dtype")),
    Mistake("gelu_no_cubic", _variant(gelu_slip="no_cubic")),
    Mistake("gelu_two_over_pi", _variant(gelu_slip="two_over_pi")),
    Mistake("relu", _variant(gelu_slip="relu")),
    Mistake("eps_1e6", _variant(eps=1e-6)),
    Mistake("layernorm_no_bias", _variant(ln_bias=False)),
    Mistake("separate_qkv", _variant(separate_qkv=True)),
    Mistake("attention_dropout", _variant(attn_dropout=0.1)),
    Mistake("no_divisibility_check", _variant(divisibility_check=False)),
    Mistake("mlp_2x", _variant(mlp_width=2)),
)


def _bench(g: torch.Generator) -> Inputs:
    C, H, T = 768, 12, 1024
    return Inputs(args={"x": torch.randn(1, T, C, generator=g)}, init={"n_embd": C, "n_head": H})


# `kata check gpt2-block --bench`: a GPT-2 small block over a 1024-token sequence, forward only.
BENCH = ("x [1, 1024, 768], 12 heads (GPT-2 small)", _bench)
