"""Case families for `llama-block`: every kind of grouping (GQA 4/2, MQA 4/1, MHA 2/2, groups of 3),
head_dim 2 and 4, eps 1e-2 on activations of 0.05 (so an ignored eps shows), RoPE bases 100 and 500000
(so an ignored theta shows), L = 1 and L = 33, B = 1 and 3, float64, the two configurations whose
__init__ must raise, a causality case, and random draws.

Every case first checks the module as built, before anything is loaded: its parameters are exactly
Hugging Face's nine weights with the contract's shapes (no biases) and both norm weights are ones.
Buffers are the module's own (the module protocol): an `inv_freq`, a cos/sin table or a complex
`freqs_cis`, persistent or not, is neither compared nor loaded. Each finding is its own problem in the
report. Then the module is converted to the case's dtype (`.double()`), random weights are loaded by
name, and the output and the gradients of (y · probe).sum() w.r.t. x and the nine weights are compared
with the contract's rule.

Gradients are compared on every named case and on a third of the random draws: a backward pass is
60 % of a case's work here, and a check of the reference cost 1.51× `import torch` in CPU with gradients
everywhere, 1.33× (gqa's level) with these (benchmarks/table.py's method, a loaded machine).
"""
from __future__ import annotations

import math
from dataclasses import replace

import torch
import torch.nn as nn
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs import _block
from checker.specs._attention import pick, randint, randn
from checker.specs._block import CAUSAL_AT, EARLIER, FRESH, NAMES

_BLOCKING = ("keys", "biases", "shape")  # findings after which the case's weights cannot be loaded
RAISES = "AssertionError|ValueError"

# rtol, and the atol that is scaled by max(1, max|expected|): the contract's rule, for the output and every gradient
TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-5, 1e-5)}


def weight_shapes(C: int, H: int, H_kv: int, I: int) -> dict[str, tuple[int, ...]]:
    """The contract's parameters: Hugging Face's names and nn.Linear's [out, in] shapes."""
    hd = C // H
    return {
        "input_layernorm.weight": (C,),
        "self_attn.q_proj.weight": (H * hd, C),
        "self_attn.k_proj.weight": (H_kv * hd, C),
        "self_attn.v_proj.weight": (H_kv * hd, C),
        "self_attn.o_proj.weight": (C, H * hd),
        "post_attention_layernorm.weight": (C,),
        "mlp.gate_proj.weight": (I, C),
        "mlp.up_proj.weight": (I, C),
        "mlp.down_proj.weight": (C, I),
    }


def _weights(g: torch.Generator, C: int, H: int, H_kv: int, I: int) -> dict[str, torch.Tensor]:
    """Linear weights drawn like nn.Linear's init; norm weights in [0.5, 1.5], so a norm that drops them fails."""
    params = {}
    for name, shape in weight_shapes(C, H, H_kv, I).items():
        u = torch.rand(shape, generator=g, dtype=torch.float64)
        params[name] = (0.5 + u if len(shape) == 1 else (2 * u - 1) / math.sqrt(shape[1])).float()
    return params


def _case(B=2, L=5, H=4, H_kv=2, hd=4, I=24, *, eps=None, theta=None, dtype=torch.float32, scale=1.0, causal_at=None,
          grads=True):
    """eps / theta None: left to the defaults (not passed). grads: compare the gradients too (every named case)."""
    C = H * hd

    def make(g: torch.Generator) -> Inputs:
        init = {"hidden_size": C, "num_heads": H, "num_kv_heads": H_kv, "intermediate_size": I}
        if eps is not None:
            init["rms_norm_eps"] = eps
        if theta is not None:
            init["rope_theta"] = theta
        x = randn(g, B, L, C, dtype=dtype, scale=scale)
        show = dict(init)
        if causal_at is not None:
            show[CAUSAL_AT] = causal_at
        return Inputs(args={"x": x}, init=init, params=_weights(g, C, H, H_kv, I), grad_of=("x",) if grads else (),
                      probe=randn(g, B, L, C, dtype=dtype) if grads else None, show=show)
    return make


def _random(g: torch.Generator) -> Inputs:
    H_kv, group = randint(g, 1, 3), randint(g, 1, 3)
    hd, B, L = pick(g, [2, 4, 4, 6, 8]), randint(g, 1, 3), randint(g, 1, 10)
    I = randint(g, 4, 40)
    eps = pick(g, [None, None, 1e-6, 1e-5, 1e-2])
    theta = pick(g, [None, None, 10000.0, 100.0, 1000.0, 500000.0])
    scale = 0.05 if eps == 1e-2 else pick(g, [1.0, 1.0, 2.0])
    dtype = torch.float64 if randint(g, 1, 5) == 1 else torch.float32
    grads = randint(g, 1, 3) == 1  # a third of the draws: every named case compares gradients already (speed)
    return _case(B, L, H_kv * group, H_kv, hd, I, eps=eps, theta=theta, dtype=dtype, scale=scale, grads=grads)(g)


def _raising(C: int, H: int, H_kv: int):
    def make(g: torch.Generator) -> Inputs:
        init = {"hidden_size": C, "num_heads": H, "num_kv_heads": H_kv, "intermediate_size": 16}
        return Inputs(args=init, raises=RAISES, show=dict(init))  # the call is the constructor: args are its kwargs
    return make


FAMILIES = (
    Family("gqa_4_2", _case(H=4, H_kv=2, hd=4)),
    Family("mqa_4_1", _case(H=4, H_kv=1, hd=4)),
    Family("mha_2_2", _case(H=2, H_kv=2, hd=8, I=20)),
    Family("groups_of_three", _case(H=6, H_kv=2, hd=4, I=32)),
    Family("head_dim_four", _case(H=8, H_kv=4, hd=4, I=40)),
    Family("head_dim_two", _case(H=4, H_kv=2, hd=2, I=12, L=7)),
    Family("defaults", _case(H=4, H_kv=2, hd=4, I=16)),
    Family("eps_large", _case(H=4, H_kv=2, hd=4, eps=1e-2, scale=0.05)),
    Family("theta_100", _case(H=2, H_kv=1, hd=8, L=12, theta=100.0)),
    Family("theta_500000", _case(H=2, H_kv=1, hd=8, L=16, theta=500000.0)),
    Family("seq_len_one", _case(B=3, L=1, H=4, H_kv=2, hd=4)),
    Family("seq_len_33", _case(B=1, L=33, H=4, H_kv=2, hd=4, I=16)),
    Family("batch_one", _case(B=1, L=6, H=6, H_kv=3, hd=2)),
    Family("batch_three", _case(B=3, L=4, H=4, H_kv=1, hd=4)),
    Family("float64", _case(H=4, H_kv=2, hd=4, dtype=torch.float64, eps=1e-5, theta=10000.0)),
    Family("float64_mqa", _case(H=6, H_kv=1, hd=4, L=9, dtype=torch.float64, theta=500000.0)),
    Family("causality", _case(B=2, L=8, H=4, H_kv=2, hd=4, causal_at=5)),
    Family("indivisible_heads", _raising(10, 4, 2)),
    Family("indivisible_kv_heads", _raising(24, 6, 4)),
    Family("device", _case(H=4, H_kv=2, hd=4, L=4), track_device=True),
    Family("random", _random, draws=84),
)


tolerance_for = _block.scaled_tolerance(TOLERANCES)  # the contract's rule: rtol, atol × max(1, max|expected|)


# ---------------------------------------------------------------- the module as built


def _fresh_findings(module: nn.Module, init: dict) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """(code, detail) for each way the module as built breaks the contract (() when it keeps it), and the names
    behind the biases found. The details hold what a variant with the same slip has too (so the namer can match
    them), nothing more: which linears have a bias does not count. Buffers are the module's own: not looked at."""
    want = weight_shapes(init["hidden_size"], init["num_heads"], init["num_kv_heads"], init["intermediate_size"])
    state = {name: p.detach() for name, p in module.named_parameters()}
    found: list[tuple[str, str]] = []
    extra = [k for k in state if k not in want]
    biases = [k for k in extra if k.endswith(".bias")]
    other = [k for k in extra if k not in biases]
    missing = [k for k in want if k not in state]
    names = {}
    if biases:
        found.append(("biases", ""))
        names["biases"] = ", ".join(biases)
    if missing or other:
        found.append(("keys", "|".join((", ".join(missing), ", ".join(other)))))
    for name, shape in want.items():
        if name in state and tuple(state[name].shape) != shape:
            found.append(("shape", f"{name}|{tuple(state[name].shape)}|{shape}"))
    for name in ("input_layernorm.weight", "post_attention_layernorm.weight"):
        if name in state and tuple(state[name].shape) == want[name] and not bool((state[name] == 1).all()):
            found.append(("norm_not_ones", name))
    return tuple(found), names


def _fresh_problem(code: str, detail: str, init: dict) -> Problem:
    """One finding as the report says it."""
    if code == "biases":
        message = tr("the module has the parameters {names}: LLaMA's linear layers have no bias (nn.Linear(..., bias=False))",
                     names=detail)
    elif code == "keys":
        missing, other = detail.split("|")
        parts = []
        if missing:
            parts.append(tr("missing {names}", names=missing))
        if other:
            parts.append(tr("unexpected {names}", names=other))
        message = tr("the parameters must be exactly Hugging Face's nine weights (input_layernorm, self_attn.q_proj, "
                     "k_proj, v_proj, o_proj, post_attention_layernorm, mlp.gate_proj, up_proj, down_proj): {problems}",
                     problems="; ".join(parts))
    elif code == "shape":
        name, got, want = detail.split("|")
        hd = init["hidden_size"] // init["num_heads"]
        message = tr("{name} has shape {got}, expected {want} (nn.Linear stores [out, in]; k_proj and v_proj are "
                     "num_kv_heads · head_dim = {kv} wide)", name=name, got=got, want=want,
                     kv=init["num_kv_heads"] * hd)
    else:  # norm_not_ones
        message = tr("{name} is not all ones as built: an RMSNorm weight starts at ones (torch.ones(hidden_size))",
                     name=detail)
    return Problem("rule", FRESH, message)


# ---------------------------------------------------------------- the protocol


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build and check the module, then convert it, load the weights by name, run and backward as usual.
    The causality case also runs x with its later tokens changed and reports how far each earlier output moved."""
    if inputs.raises is not None:
        return spec_api.call(kata, entry, inputs, device, track_device)
    module = entry(**inputs.init)
    found, names = _fresh_findings(module, inputs.init)
    if any(code in _BLOCKING for code, _ in found):
        return Outcome(None, {FRESH: found, NAMES: names})
    dtype = inputs.args["x"].dtype
    if dtype != torch.float32:
        module = spec_api.convert(module, dtype)
    if inputs.params is not None:  # (the bench's layer keeps its own init)
        spec_api.load_params(module, inputs.params)
        inputs = replace(inputs, params=None)
    outcome = spec_api.call(kata, lambda **init: module, inputs, device, track_device)
    extras = {FRESH: found, **outcome.extras}
    at = inputs.show.get(CAUSAL_AT)
    if at is not None and isinstance(outcome.value, torch.Tensor):
        moves = _block.earlier_moves(module, outcome.args["x"].detach(), outcome.value, at)
        if moves is not None:
            extras[EARLIER] = moves
    return Outcome(outcome.value, extras, outcome.args)


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    return [call(kata, entry, inputs, device)]


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    return _block.compare(kata, case, expected, got, _fresh_problem, _not_causal, TOLERANCES[torch.float32][1])


def _not_causal(**where) -> str:
    return tr("position {i} changed when only a later token did (tokens {at}…{last} were changed; output {i} moved by "
              "{by}): the layer must be causal, each position attending to itself and earlier ones only", **where)


# ---------------------------------------------------------------- known mistakes


class _Llama(nn.Module):
    """The right layer with switches, one per known mistake; one class, so `kata demo` can write it out."""

    post_norm = False
    subtract_mean = False
    rope_pairs = "half"  # half | interleaved
    rope_on_v = False
    causal = True
    tile_kv = False
    scale_by_hidden = False
    silu_on_up = False
    activation = "silu"  # silu | gelu | gelu_tanh
    mlp_residual = True
    fixed_eps: float | str | None = None  # a number, or "finfo": nn.RMSNorm / F.rms_norm without eps (finfo(dtype).eps)
    fixed_theta: float | None = None
    bias = False

    def __init__(self, hidden_size, num_heads, num_kv_heads, intermediate_size, rms_norm_eps=1e-6,
                 rope_theta=10000.0):
        super().__init__()
        assert hidden_size % num_heads == 0 and num_heads % num_kv_heads == 0
        C, I = hidden_size, intermediate_size
        self.H, self.H_kv, self.hd = num_heads, num_kv_heads, C // num_heads
        self.eps = rms_norm_eps if self.fixed_eps is None else self.fixed_eps
        self.theta = rope_theta if self.fixed_theta is None else self.fixed_theta
        self.input_layernorm, self.post_attention_layernorm = nn.Module(), nn.Module()
        self.input_layernorm.weight = nn.Parameter(torch.ones(C))
        self.post_attention_layernorm.weight = nn.Parameter(torch.ones(C))
        self.self_attn, self.mlp = nn.Module(), nn.Module()
        kv = num_kv_heads * self.hd
        self.self_attn.q_proj = nn.Linear(C, C, bias=self.bias)
        self.self_attn.k_proj = nn.Linear(C, kv, bias=self.bias)
        self.self_attn.v_proj = nn.Linear(C, kv, bias=self.bias)
        self.self_attn.o_proj = nn.Linear(C, C, bias=self.bias)
        self.mlp.gate_proj = nn.Linear(C, I, bias=self.bias)
        self.mlp.up_proj = nn.Linear(C, I, bias=self.bias)
        self.mlp.down_proj = nn.Linear(I, C, bias=self.bias)
        inv_freq = self.theta ** (-torch.arange(0, self.hd, 2, dtype=torch.float64) / self.hd)
        self.self_attn.register_buffer("inv_freq", inv_freq, persistent=False)

    def norm(self, x, weight):
        if self.subtract_mean:
            x = x - x.mean(-1, keepdim=True)
        eps = torch.finfo(x.dtype).eps if self.eps == "finfo" else self.eps
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight

    def rope(self, t):
        L = t.shape[-2]
        angles = torch.outer(torch.arange(L, dtype=torch.float64, device=t.device),
                             self.self_attn.inv_freq.to(torch.float64))  # (L, hd/2)
        if self.rope_pairs == "interleaved":
            cos, sin = angles.cos().to(t.dtype), angles.sin().to(t.dtype)
            t1, t2 = t[..., 0::2], t[..., 1::2]
            return torch.stack((t1 * cos - t2 * sin, t1 * sin + t2 * cos), dim=-1).flatten(-2)
        angles = torch.cat((angles, angles), dim=-1)
        t1, t2 = t.chunk(2, dim=-1)
        return t * angles.cos().to(t.dtype) + torch.cat((-t2, t1), dim=-1) * angles.sin().to(t.dtype)

    def attention(self, x):
        B, L, C = x.shape
        a = self.self_attn
        q = a.q_proj(x).view(B, L, self.H, self.hd).transpose(1, 2)
        k = a.k_proj(x).view(B, L, self.H_kv, self.hd).transpose(1, 2)
        v = a.v_proj(x).view(B, L, self.H_kv, self.hd).transpose(1, 2)
        q, k = self.rope(q), self.rope(k)
        if self.rope_on_v:
            v = self.rope(v)
        n = self.H // self.H_kv
        k, v = (k.repeat(1, n, 1, 1), v.repeat(1, n, 1, 1)) if self.tile_kv else (
            k.repeat_interleave(n, dim=1), v.repeat_interleave(n, dim=1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C if self.scale_by_hidden else self.hd)
        if self.causal:
            future = torch.ones(L, L, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(future, torch.finfo(scores.dtype).min)
        y = torch.softmax(scores, dim=-1) @ v
        return a.o_proj(y.transpose(1, 2).reshape(B, L, C))

    def feed_forward(self, x):
        m = self.mlp
        gate, up = (m.up_proj(x), m.gate_proj(x)) if self.silu_on_up else (m.gate_proj(x), m.up_proj(x))
        act = {"silu": F.silu, "gelu": F.gelu, "gelu_tanh": lambda t: F.gelu(t, approximate="tanh")}[self.activation]
        return m.down_proj(act(gate) * up)

    def forward(self, x):
        w1, w2 = self.input_layernorm.weight, self.post_attention_layernorm.weight
        if self.post_norm:
            h = self.norm(x + self.attention(x), w1)
            return self.norm(h + self.feed_forward(h), w2)
        h = x + self.attention(self.norm(x, w1))
        out = self.feed_forward(self.norm(h, w2))
        return h + out if self.mlp_residual else out


def _variant(**switches):
    return type("LlamaDecoderLayer", (_Llama,), switches)


MISTAKES = (
    Mistake("post_norm", _variant(post_norm=True)),
    Mistake("mean_subtracted", _variant(subtract_mean=True)),
    Mistake("rope_interleaved", _variant(rope_pairs="interleaved")),
    Mistake("rope_on_v", _variant(rope_on_v=True)),
    Mistake("no_causal_mask", _variant(causal=False)),
    Mistake("kv_tiled", _variant(tile_kv=True)),
    Mistake("scaled_by_hidden_size", _variant(scale_by_hidden=True)),
    Mistake("silu_on_up", _variant(silu_on_up=True)),
    Mistake("gelu", _variant(activation="gelu")),
    Mistake("gelu", _variant(activation="gelu_tanh")),
    Mistake("mlp_no_residual", _variant(mlp_residual=False)),
    Mistake("eps_ignored", _variant(fixed_eps=1e-6)),
    Mistake("eps_ignored", _variant(fixed_eps=1e-5)),
    Mistake("eps_ignored", _variant(fixed_eps="finfo")),
    Mistake("theta_ignored", _variant(fixed_theta=10000.0)),
    Mistake("linear_bias", _variant(bias=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    C, H, H_kv, I, L = 512, 8, 2, 1408, 1024
    return Inputs(args={"x": torch.randn(1, L, C, generator=g)},
                  init={"hidden_size": C, "num_heads": H, "num_kv_heads": H_kv, "intermediate_size": I})


# `kata check llama-block --bench`: a small LLaMA layer over a 1024-token prefill, forward only.
BENCH = ("x [1, 1024, 512], 8 heads, 2 kv heads, intermediate 1408", _bench)
