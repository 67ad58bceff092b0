"""Case families for `mla`: DeepSeek's multi-head latent attention with Hugging Face's `DeepseekV2Attention` names and
its compressed cache `(c_kv, k_pe)`. A case is a `kv-cache` schedule: x [B, T, C], the lengths of the calls that split
it (`chunks`), optionally a cache of P0 positions the module never made (a unit-RMS latent and a random rotated key)
and a second continuation of the first call's cache (`x_branch`); plus the two configurations whose `__init__` must
raise (d_r odd) and a causality case.

Every case first checks the module as built, before anything is loaded: its parameters are exactly the contract's
(the query path that q_lora_rank selects, no biases) with their shapes, and both norm weights are ones. Buffers are the
module's own (the module protocol): an `inv_freq`, a cos/sin table or a complex `freqs_cis`, persistent or not, is
neither compared nor loaded. Then the module is converted to the case's dtype (`.float()` / `.double()`, never
`.to(dtype)`: that drops a complex buffer's imaginary part), random parameters are loaded by name (norm weights
1 + 0.3·N(0, 1), so a norm that drops its weight fails), and the schedule runs with the module's own returned cache
threaded into its next call, each cache it is handed cloned and compared after the call. Every call's output and the
final caches are compared by name ("out of call 3", "c_kv cache", "k_pe cache"), and the gradients of
(out · probe).sum() w.r.t. x, every parameter and a given cache in single-call cases, all at the `llama-block` rule:
rtol and atol × max(1, max|expected|), float32 (1e-4, 1e-5), float64 (1e-5, 1e-5) — transformers' own layer rotates in
float32 whatever the dtype, and so may a learner.
"""
from __future__ import annotations

import math
import sys

import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs import _block
from checker.specs._attention import pick, randint, randn
from checker.specs._block import CAUSAL_AT, EARLIER, FRESH, NAMES
from checker.specs.kv_cache import BRANCH, CHUNKS, INPLACE, PAST, _inplace_problem, _kept, _Schedule  # the kv-cache protocol
from checker.text.i18n import tr

RAISES = "AssertionError|ValueError"
_BLOCKING = ("keys", "biases", "shape")  # findings after which the case's parameters cannot be loaded

# rtol, and the atol that is scaled by max(1, max|expected|): the contract's rule for every item
TOLERANCES = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-5, 1e-5)}

DIMS = ("hidden_size", "num_heads", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")


def weight_shapes(C, H, r, d_n, d_r, d_v, q_lora=None) -> dict[str, tuple[int, ...]]:
    """The contract's parameters: Hugging Face's names and nn.Linear's [out, in] shapes."""
    q = {"q_proj.weight": (H * (d_n + d_r), C)} if q_lora is None else {
        "q_a_proj.weight": (q_lora, C), "q_a_layernorm.weight": (q_lora,), "q_b_proj.weight": (H * (d_n + d_r), q_lora)}
    return {**q, "kv_a_proj_with_mqa.weight": (r + d_r, C), "kv_a_layernorm.weight": (r,),
            "kv_b_proj.weight": (H * (d_n + d_v), r), "o_proj.weight": (C, H * d_v)}


def weights(g: torch.Generator, C, H, r, d_n, d_r, d_v, q_lora=None) -> dict[str, torch.Tensor]:
    """Linear weights drawn like nn.Linear's init; norm weights 1 + 0.3·N(0, 1)."""
    params = {}
    for name, shape in weight_shapes(C, H, r, d_n, d_r, d_v, q_lora).items():
        if len(shape) == 1:
            params[name] = (1 + 0.3 * torch.randn(shape, generator=g, dtype=torch.float64)).float()
        else:
            u = torch.rand(shape, generator=g, dtype=torch.float64)
            params[name] = ((2 * u - 1) / math.sqrt(shape[1])).float()
    return params


def _shapes(init: dict) -> dict[str, tuple[int, ...]]:
    return weight_shapes(*(init[k] for k in DIMS), init.get("q_lora_rank"))


def _case(B=2, C=32, H=4, r=8, d_n=4, d_r=4, d_v=4, q_lora=None, theta=None, chunks=(6,), past=0, branch=0,
          dtype=torch.float32, causal_at=None, grads=True, scale=1.0):
    """chunks: each call's length; past: a given cache's length (0 = none); branch: the length of a second call
    continuing the first call's cache. q_lora / theta None: left to the defaults (not passed)."""
    def make(g: torch.Generator) -> Inputs:
        init = dict(zip(DIMS, (C, H, r, d_n, d_r, d_v)))
        if q_lora is not None:
            init["q_lora_rank"] = q_lora
        if theta is not None:
            init["rope_theta"] = theta
        args = {"x": randn(g, B, sum(chunks), C, dtype=dtype, scale=scale), CHUNKS: tuple(chunks)}
        if past:
            latent = randn(g, B, past, r, dtype=torch.float64)
            latent = latent * torch.rsqrt(latent.pow(2).mean(-1, keepdim=True))  # unit RMS, as a normalised latent
            args[PAST[0]], args[PAST[1]] = latent.to(dtype), randn(g, B, past, d_r, dtype=dtype)
        if branch:
            args[BRANCH] = randn(g, B, branch, C, dtype=dtype)
        params = weights(g, C, H, r, d_n, d_r, d_v, q_lora)
        want = grads and len(chunks) == 1 and not branch and causal_at is None
        show = dict(init)
        if causal_at is not None:
            show[CAUSAL_AT] = causal_at
        return Inputs(args=args, init=init, params=params, grad_of=(("x",) + (PAST if past else ())) if want else (),
                      probe=randn(g, B, chunks[0], C, dtype=dtype) if want else None, show=show)
    return make


def _random(g: torch.Generator) -> Inputs:
    H, d_n, d_r, d_v = randint(g, 1, 4), randint(g, 1, 6), pick(g, [2, 4, 4, 6, 8]), randint(g, 1, 6)
    C, r = pick(g, [8, 16, 24, 32]), randint(g, 2, 12)
    q_lora = pick(g, [None, None, randint(g, 2, 12)])
    theta = pick(g, [None, None, 10000.0, 100.0, 1000.0, 500000.0])
    chunks, left = [], randint(g, 1, 7)
    while left:
        n = pick(g, [1, 1, randint(g, 1, left)]) if chunks else randint(g, 1, left)
        chunks.append(min(n, left))
        left -= chunks[-1]
    past = pick(g, [0, 0, randint(g, 1, 6)])
    branch = randint(g, 1, 3) if randint(g, 1, 6) == 1 else 0
    dtype = torch.float64 if randint(g, 1, 5) == 1 else torch.float32
    grads = randint(g, 1, 3) == 1  # a third of the single-call draws: every named single-call case compares them
    return _case(randint(g, 1, 3), C, H, r, d_n, d_r, d_v, q_lora, theta, tuple(chunks), past, branch, dtype,
                 grads=grads)(g)


def _raising(C, H, r, d_n, d_r, d_v, q_lora=None):
    def make(g: torch.Generator) -> Inputs:
        init = dict(zip(DIMS, (C, H, r, d_n, d_r, d_v)))
        if q_lora is not None:
            init["q_lora_rank"] = q_lora
        return Inputs(args=init, raises=RAISES, show=dict(init))  # the call is the constructor: args are its kwargs
    return make


FAMILIES = (
    Family("prefill_only", _case(chunks=(6,))),
    Family("q_lora", _case(q_lora=12, chunks=(6,))),
    Family("prefill_then_steps", _case(chunks=(5, 1, 1, 1))),
    Family("q_lora_steps", _case(H=2, C=24, r=6, q_lora=8, chunks=(4, 1, 2))),
    Family("token_by_token", _case(chunks=(1, 1, 1, 1, 1))),
    Family("chunked_prefill", _case(chunks=(3, 2, 4))),
    Family("given_cache", _case(chunks=(3,), past=4)),
    Family("given_cache_then_steps", _case(q_lora=10, chunks=(2, 1, 1), past=5)),
    Family("far_positions", _case(H=2, C=16, r=6, d_r=8, chunks=(1, 1), past=30)),
    Family("v_dim_differs", _case(H=3, C=24, d_n=5, d_v=2, chunks=(5, 2))),
    Family("one_head", _case(H=1, C=16, r=6, d_n=6, d_r=4, d_v=3, chunks=(4, 1, 1))),
    Family("rope_dim_two", _case(d_r=2, d_n=6, chunks=(4, 2))),
    Family("rope_dim_eight", _case(d_r=8, d_n=2, chunks=(7,))),
    Family("theta_100", _case(H=2, C=16, d_r=8, d_n=2, theta=100.0, chunks=(12,))),
    Family("theta_500000", _case(H=2, C=16, d_r=8, d_n=2, theta=500000.0, chunks=(10, 2))),
    Family("one_token", _case(B=3, chunks=(1,))),
    Family("float64", _case(chunks=(4, 2, 1), dtype=torch.float64)),
    Family("float64_given_cache", _case(H=2, C=24, q_lora=8, d_v=6, chunks=(3,), past=6, dtype=torch.float64)),
    Family("branching", _case(chunks=(4, 2), branch=2)),
    Family("branching_given_cache", _case(q_lora=8, chunks=(2, 1), past=3, branch=1)),
    Family("causality", _case(chunks=(8,), causal_at=5)),
    Family("odd_rope_dim", _raising(32, 4, 8, 4, 3, 4)),
    Family("odd_rope_dim_q_lora", _raising(24, 2, 6, 4, 5, 4, q_lora=8)),
    Family("device", _case(chunks=(4, 1, 1)), track_device=True),
    Family("device_q_lora_given_cache", _case(H=2, C=24, q_lora=8, theta=1000.0, chunks=(2, 1), past=3),
           track_device=True),
    Family("random", _random, draws=76),
)


tolerance_for = _block.scaled_tolerance(TOLERANCES)  # the contract's rule: rtol, atol × max(1, max|expected|)


# ---------------------------------------------------------------- the module as built


def _fresh_findings(module: nn.Module, init: dict) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """(code, detail) for each way the module as built breaks the contract, and the names behind the biases found.
    Buffers are the module's own: not looked at."""
    want = _shapes(init)
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
    for name in ("q_a_layernorm.weight", "kv_a_layernorm.weight"):
        if name in want and name in state and tuple(state[name].shape) == want[name] and not bool((state[name] == 1).all()):
            found.append(("norm_not_ones", name))
    return tuple(found), names


def _fresh_problem(code: str, detail: str, init: dict) -> Problem:
    """One finding as the report says it."""
    if code == "biases":
        message = tr("the module has the parameters {names}: MLA's projections have no bias (nn.Linear(..., bias=False))",
                     names=detail)
    elif code == "keys":
        missing, other = detail.split("|")
        parts = []
        if missing:
            parts.append(tr("missing {names}", names=missing))
        if other:
            parts.append(tr("unexpected {names}", names=other))
        message = tr("the parameters must be exactly DeepseekV2Attention's (q_proj when q_lora_rank is None, else "
                     "q_a_proj, q_a_layernorm, q_b_proj; then kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj): "
                     "{problems}", problems="; ".join(parts))
    elif code == "shape":
        name, got, want = detail.split("|")
        message = tr("{name} has shape {got}, expected {want} (nn.Linear stores [out, in]; kv_a_proj_with_mqa is "
                     "kv_lora_rank + qk_rope_head_dim wide, kv_b_proj num_heads · (qk_nope_head_dim + v_head_dim))",
                     name=name, got=got, want=want)
    else:  # norm_not_ones
        message = tr("{name} is not all ones as built: an RMSNorm weight starts at ones", name=detail)
    return Problem("rule", FRESH, message)


# ---------------------------------------------------------------- running a schedule


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Check the module as built, convert it, load the parameters by name, then call it chunk by chunk as a decoder
    would, threading its own cache. The causality case also runs x with its later tokens changed."""
    if inputs.raises is not None:
        return spec_api.call(kata, entry, inputs, device, track_device)
    with _block.linear_init_skipped():
        module = entry(**inputs.init)
    found, names = _fresh_findings(module, inputs.init)
    if any(code in _BLOCKING for code, _ in found):
        return Outcome(None, {FRESH: found, NAMES: names})
    args = {name: spec_api.place(value, device) for name, value in inputs.args.items()}
    dtype = args["x"].dtype
    if dtype != torch.float32:
        module = spec_api.convert(module, dtype)
    spec_api.load_params(module, inputs.params)
    if any(t.device != device for t in (*module.parameters(), *module.buffers())):
        module.to(device)  # (a walk over every submodule: a tenth of a check where nothing moves)
    module.eval()
    for name in inputs.grad_of:  # single-call cases: x and a given cache are leaves of the graph
        args[name] = args[name].detach().requires_grad_(True)
    run = _Schedule(kata, module, device, track_device, inputs.simulate)
    run.extras[FRESH] = found
    final = run.thread(args, inputs, ("c_kv cache", "k_pe cache"))
    if final is None:
        return run.malformed
    at = inputs.show.get(CAUSAL_AT)
    if at is not None:
        moves = _earlier_moves(module, args["x"].detach(), run.extras["out of call 1"], at)
        if moves is not None:
            run.extras[EARLIER] = moves
    run.extras[INPLACE] = tuple(run.changed)
    written = {name: args[name] for name in ("x", BRANCH) if name in args}  # the engine checks these for writes
    return Outcome(_kept(final), run.extras, written)


def _earlier_moves(module: nn.Module, x: torch.Tensor, y: torch.Tensor, at: int) -> torch.Tensor | None:
    """(at,): how far each position before `at` moved when only later tokens changed (None: no comparable output)."""
    with torch.no_grad():
        moved = module(_block.changed_later(x, at))
    moved = moved[0] if isinstance(moved, (tuple, list)) and moved else moved
    if not isinstance(moved, torch.Tensor) or moved.shape != y.shape:
        return None
    return (moved[:, :at] - y[:, :at]).abs().double().amax(dim=(0, 2)).to(x.dtype)  # (at,)


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    return [call(kata, entry, inputs, device)]


def compare(kata, case, expected: list[Outcome], got: Outcome) -> list[Problem] | None:
    """The module-as-built findings, causality, then every output, cache and gradient; then writes into the caches."""
    if case.inputs.raises is not None:
        return None
    if isinstance(got.value, dict):
        return [Problem("structure", "", tr("call {n} returned {what}; forward must return (out, (c_kv, k_pe)): the "
                                            "output and a tuple of the two full caches",
                                            n=got.value.get("call"), what=got.value.get("returned")))]
    found, names = got.extras.get(FRESH) or (), got.extras.get(NAMES) or {}
    problems = [_fresh_problem(code, names.get(code, detail), case.inputs.init) for code, detail in found]
    if got.value is None and found:
        return problems  # the module could not take the case's parameters: nothing else to compare
    if EARLIER in expected[0].extras:
        problems += _causality(case, expected[0], got)
    own = (FRESH, NAMES, EARLIER, INPLACE)
    strip = lambda o: Outcome(o.value, {k: v for k, v in o.extras.items() if k not in own}, o.args)  # noqa: E731
    problems += compare_outcome(kata, sys.modules[__name__], case, strip(expected[0]), strip(got))
    changed = list(got.extras.get(INPLACE, ()))
    if changed:
        problems.append(_inplace_problem(changed))
    return problems


def _causality(case, expected: Outcome, got: Outcome) -> list[Problem]:
    """Which earlier position moved (by more than atol × max(1, max|out|)) when only later tokens changed."""
    moved = got.extras.get(EARLIER)
    if moved is None or getattr(moved, "data", None) is None:
        return []  # a wrong output: the usual comparison says what
    y = expected.extras["out of call 1"].data.double()
    at = case.inputs.show[CAUSAL_AT]
    limit = TOLERANCES[torch.float32][1] * max(1.0, float(y.abs().max()))
    moves = moved.data.double()
    changed = [i for i in range(min(at, moves.numel())) if not bool(moves[i] <= limit)]
    if not changed:
        return []
    i = changed[0]
    return [Problem("rule", EARLIER, _not_causal(i=i, at=at, last=case.inputs.args["x"].shape[1] - 1,
                                                 by=f"{float(moves[i]):.3g}"))]


def _not_causal(**where) -> str:
    return tr("position {i} changed when only a later token did (tokens {at}…{last} were changed; output {i} moved by "
              "{by}): the attention must be causal, each position seeing itself and earlier ones only", **where)


# ---------------------------------------------------------------- known mistakes


class _MLA(nn.Module):
    """The right module with switches, one per known mistake; one class, so `kata demo` can write it out."""

    pairing = "interleaved"  # interleaved | half (LLaMA's rotate-half pairs)
    exponent_step = 2  # 2: theta^(-2i/d); 1: theta^(-i/d)
    scale_nope_only = False
    norm_kv = True
    norm_q = True
    kv_a_swapped = False
    kv_b_swapped = False
    q_swapped = False
    positions_restart = False
    mask = "offset"  # offset | top_left | none
    heads_no_transpose = False
    cache_pre_norm = False
    cache_pre_rope = False
    fixed_theta: float | None = None
    bias = False
    check_rope_dim = True

    def __init__(self, hidden_size, num_heads, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim,
                 q_lora_rank=None, rope_theta=10000.0):
        super().__init__()
        if self.check_rope_dim:
            assert qk_rope_head_dim % 2 == 0
        C, H, b = hidden_size, num_heads, self.bias
        self.H, self.r, self.d_n, self.d_r, self.d_v = H, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim
        self.q_lora_rank = q_lora_rank
        self.theta = rope_theta if self.fixed_theta is None else self.fixed_theta
        dq = qk_nope_head_dim + qk_rope_head_dim
        if q_lora_rank is None:
            self.q_proj = nn.Linear(C, H * dq, bias=b)
        else:
            self.q_a_proj = nn.Linear(C, q_lora_rank, bias=b)
            self.q_a_layernorm = nn.Module()
            self.q_a_layernorm.weight = nn.Parameter(torch.ones(q_lora_rank))
            self.q_b_proj = nn.Linear(q_lora_rank, H * dq, bias=b)
        self.kv_a_proj_with_mqa = nn.Linear(C, kv_lora_rank + qk_rope_head_dim, bias=b)
        self.kv_a_layernorm = nn.Module()
        self.kv_a_layernorm.weight = nn.Parameter(torch.ones(kv_lora_rank))
        self.kv_b_proj = nn.Linear(kv_lora_rank, H * (qk_nope_head_dim + v_head_dim), bias=b)
        self.o_proj = nn.Linear(H * v_head_dim, C, bias=b)

    @staticmethod
    def norm(x, weight):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * weight

    def rope(self, t, start):
        L, d = t.shape[-2], t.shape[-1]
        inv_freq = self.theta ** (-torch.arange(0, d, self.exponent_step, dtype=torch.float64, device=t.device)[:d // 2] / d)
        angles = torch.outer(torch.arange(start, start + L, dtype=torch.float64, device=t.device), inv_freq)
        cos, sin = angles.cos().to(t.dtype), angles.sin().to(t.dtype)
        if self.pairing == "half":
            t1, t2 = t[..., :d // 2], t[..., d // 2:]
            return torch.cat((t1 * cos - t2 * sin, t1 * sin + t2 * cos), dim=-1)
        t1, t2 = t[..., 0::2], t[..., 1::2]
        return torch.stack((t1 * cos - t2 * sin, t1 * sin + t2 * cos), dim=-1).flatten(-2)

    def heads(self, t, B, L, width):
        if self.heads_no_transpose:
            return t.reshape(B, self.H, L, width)
        return t.view(B, L, self.H, width).transpose(1, 2)

    def forward(self, x, past_kv=None):
        B, L, _ = x.shape
        H, r, d_n, d_r, d_v = self.H, self.r, self.d_n, self.d_r, self.d_v
        P = 0 if past_kv is None else past_kv[0].shape[1]
        start = 0 if self.positions_restart else P
        if self.q_lora_rank is None:
            q = self.q_proj(x)
        else:
            q_lat = self.q_a_proj(x)
            q = self.q_b_proj(self.norm(q_lat, self.q_a_layernorm.weight) if self.norm_q else q_lat)
        q = self.heads(q, B, L, d_n + d_r)
        if self.q_swapped:
            q_pe, q_nope = q.split([d_r, d_n], -1)
        else:
            q_nope, q_pe = q.split([d_n, d_r], -1)
        kv_a = self.kv_a_proj_with_mqa(x)
        if self.kv_a_swapped:
            k_pe, latent = kv_a.split([d_r, r], -1)
        else:
            latent, k_pe = kv_a.split([r, d_r], -1)
        w = self.kv_a_layernorm.weight
        c_new = latent if (self.cache_pre_norm or not self.norm_kv) else self.norm(latent, w)
        k_new = k_pe if self.cache_pre_rope else self.rope(k_pe, start)
        q_pe = self.rope(q_pe, start)
        c_kv = c_new if past_kv is None else torch.cat((past_kv[0], c_new), 1)
        k_all = k_new if past_kv is None else torch.cat((past_kv[1], k_new), 1)
        T = c_kv.shape[1]
        c_used = self.norm(c_kv, w) if self.cache_pre_norm else c_kv
        k_used = self.rope(k_all, 0) if self.cache_pre_rope else k_all
        kv = self.heads(self.kv_b_proj(c_used), B, T, d_n + d_v)
        if self.kv_b_swapped:
            v, k_nope = kv.split([d_v, d_n], -1)
        else:
            k_nope, v = kv.split([d_n, d_v], -1)
        scores = q_nope @ k_nope.transpose(-2, -1) + q_pe @ k_used[:, None].transpose(-2, -1)
        scores = scores / math.sqrt(d_n if self.scale_nope_only else d_n + d_r)
        if self.mask != "none":
            future = torch.ones(L, T, dtype=torch.bool, device=x.device).triu(1 + (P if self.mask == "offset" else 0))
            scores = scores.masked_fill(future, float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v  # (B, H, L, d_v)
        y = y.reshape(B, L, H * d_v) if self.heads_no_transpose else y.transpose(1, 2).reshape(B, L, H * d_v)
        return self.o_proj(y), (c_kv, k_all)


def _variant(**switches):
    return type("MultiHeadLatentAttention", (_MLA,), switches)


MISTAKES = (
    Mistake("rope_rotate_half", _variant(pairing="half")),
    Mistake("rope_exponent_i_over_d", _variant(exponent_step=1)),
    Mistake("scale_without_rope_dim", _variant(scale_nope_only=True)),
    Mistake("latent_not_normalised", _variant(norm_kv=False)),
    Mistake("query_latent_not_normalised", _variant(norm_q=False)),
    Mistake("kv_a_split_swapped", _variant(kv_a_swapped=True)),
    Mistake("kv_b_split_swapped", _variant(kv_b_swapped=True)),
    Mistake("query_split_swapped", _variant(q_swapped=True)),
    Mistake("positions_restart", _variant(positions_restart=True)),
    Mistake("mask_top_left", _variant(mask="top_left")),
    Mistake("no_causal_mask", _variant(mask="none")),
    Mistake("heads_without_transpose", _variant(heads_no_transpose=True)),
    Mistake("cache_before_norm", _variant(cache_pre_norm=True)),
    Mistake("cache_before_rope", _variant(cache_pre_rope=True)),
    Mistake("theta_ignored", _variant(fixed_theta=10000.0)),
    Mistake("linear_bias", _variant(bias=True)),
    Mistake("odd_rope_dim_accepted", _variant(check_rope_dim=False)),
)


def _bench(g: torch.Generator) -> Inputs:
    C, H, r, d_n, d_r, d_v, P, steps = 512, 8, 128, 32, 16, 32, 256, 128
    init = dict(zip(DIMS, (C, H, r, d_n, d_r, d_v)))
    return Inputs(args={"x": torch.randn(1, P + steps, C, generator=g), CHUNKS: (P,) + (1,) * steps}, init=init,
                  params=weights(g, C, H, r, d_n, d_r, d_v))


# `kata check mla --bench`: a prefill, then one decode step per token, each step on the compressed cache.
BENCH = ("C = 512, H = 8, r = 128, d_n = 32, d_r = 16, d_v = 32: prefill 256 tokens, then 128 decode steps", _bench)
