"""The references of ppo-loss, lora, moe-router and adamw against code nobody here wrote:
torch.optim.AdamW (for-loop, foreach and fused), peft's LoRA Linear with the same weights loaded,
transformers' Mixtral router and load_balancing_loss_func, and CleanRL's ppo.py minibatch loss.

CleanRL is an application, not a library: its loss is written out below as a test oracle from
cleanrl/ppo.py (commit 020cf0e5, the block after "# Policy loss"), with its variable names, the
value clip's width passed separately (CleanRL reuses clip_coef) and norm_adv off. Needs the
crosscheck extra: pip install -e '.[dev,crosscheck]'. Run with -s to see the agreement figures.
"""
from __future__ import annotations

import copy
import importlib

import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.worker import load_entry

CPU = torch.device("cpu")
SEEDS = (1, 77)


@pytest.fixture(autouse=True)
def _one_thread():
    """Tiny tensors: threads only add contention (the checker's children run on one thread too)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _cases(kata_id, family_prefix=""):
    spec = importlib.import_module(catalog.get(kata_id).spec_module)
    return [c for seed in SEEDS for c in spec_api.build_cases(spec, seed) if c.family.name.startswith(family_prefix)]


def _rel(got: torch.Tensor, want: torch.Tensor, floor: float = 1e-30) -> float:
    """Largest error relative to the largest value of the expected tensor (or to `floor`, if larger:
    a mean of terms of both signs can be far smaller than its terms, and float32 rounds the terms)."""
    got, want = got.detach().double(), want.detach().double()
    return float((got - want).abs().max() / want.abs().max().clamp_min(floor)) if want.numel() else 0.0


class Figures:
    """The largest relative error per (kata, what, dtype), printed once at the end (pytest -s)."""

    worst: dict[tuple[str, str, str], float] = {}

    @classmethod
    def add(cls, kata: str, what: str, dtype: torch.dtype, error: float) -> None:
        key = (kata, what, str(dtype).removeprefix("torch."))
        cls.worst[key] = max(cls.worst.get(key, 0.0), error)


@pytest.fixture(scope="module", autouse=True)
def _print_figures():
    yield
    for (kata, what, dtype), error in sorted(Figures.worst.items()):
        print(f"crosscheck {kata:10s} {what:28s} {dtype:8s} max rel. error {error:.2g}")


LIMIT = {torch.float32: 2e-6, torch.float64: 1e-12}


# ---------------------------------------------------------------- adamw: torch.optim.AdamW


CONFIGS = (
    dict(lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01),
    dict(lr=3e-2, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1),
    dict(lr=0.1, betas=(0.5, 0.9), eps=1e-6, weight_decay=0.5),
    dict(lr=1e-2, betas=(0.0, 0.99), eps=1e-3, weight_decay=0.0),
)


@pytest.mark.parametrize("dtype", (torch.float32, torch.float64))
@pytest.mark.parametrize("variant", ("for-loop", "foreach", "fused"))
@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_adamw_matches_torch_optim_over_ten_chained_steps(config, variant, dtype):
    hyper = CONFIGS[config]
    ref = _reference("adamw")
    g = torch.Generator().manual_seed(config)
    start = torch.randn(3, 5, generator=g, dtype=dtype)
    grads = [torch.randn(3, 5, generator=g, dtype=dtype) * s for s in (1.0, 0.1, 3.0, 1e-3, 1.0, 0.5, 2.0, 1.0, 0.01, 1.0)]
    p = nn.Parameter(start.clone())
    flags = {"for-loop": dict(foreach=False), "foreach": dict(foreach=True), "fused": dict(fused=True)}[variant]
    opt = torch.optim.AdamW([p], **hyper, **flags)
    param, m, v = start.clone(), torch.zeros_like(start), torch.zeros_like(start)
    for step, grad in enumerate(grads, start=1):
        p.grad = grad.clone()
        opt.step()
        param, m, v = ref(param, grad, m, v, step, **hyper)
        state = opt.state[p]
        for what, mine, theirs in (("param", param, p.detach()), ("exp_avg", m, state["exp_avg"]),
                                   ("exp_avg_sq", v, state["exp_avg_sq"])):
            error = _rel(mine, theirs)
            Figures.add("adamw", f"{what} ({variant})", dtype, error)
            assert error < LIMIT[dtype] * 5, (what, step, error)


# ---------------------------------------------------------------- ppo-loss: CleanRL's minibatch loss


def cleanrl_minibatch_loss(newlogprob, b_logprobs, b_advantages, newvalue, b_values, b_returns, entropy,
                           clip_coef, vclip_coef, clip_vloss, ent_coef, vf_coef):
    """cleanrl/ppo.py's loss block with norm_adv off: pg_loss, v_loss, loss (vclip_coef: the value clip's
    width, which CleanRL takes from clip_coef)."""
    ratio = (newlogprob - b_logprobs).exp()
    mb_advantages = b_advantages
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()
    newvalue = newvalue.view(-1)
    if clip_vloss:
        v_loss_unclipped = (newvalue - b_returns) ** 2
        v_clipped = b_values + torch.clamp(newvalue - b_values, -vclip_coef, vclip_coef)
        v_loss_clipped = (v_clipped - b_returns) ** 2
        v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
    else:
        v_loss = 0.5 * ((newvalue - b_returns) ** 2).mean()
    entropy_loss = entropy.mean()
    loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef
    return loss, pg_loss, v_loss


@pytest.mark.parametrize("case", _cases("ppo-loss"), ids=lambda c: f"{c.seed}-{c.name}")
def test_ppo_matches_cleanrl(case):
    a = {k: (v.detach().clone().double() if isinstance(v, torch.Tensor) else v) for k, v in case.inputs.args.items()}
    dtype = case.inputs.args["new_log_probs"].dtype
    scal = {"clip_eps": 0.2, "value_clip": 0.2, "vf_coef": 0.5, "ent_coef": 0.0, **a}
    entropy = a.get("entropy")
    leaves = {n: a[n].requires_grad_(True) for n in ("new_log_probs", "values")}
    if entropy is not None:
        leaves["entropy"] = entropy.requires_grad_(True)
    flat = {n: t.reshape(-1) for n, t in a.items() if isinstance(t, torch.Tensor)}
    want = cleanrl_minibatch_loss(
        flat["new_log_probs"], flat["old_log_probs"], flat["advantages"], flat["values"], flat["old_values"],
        flat["returns"], flat["entropy"] if entropy is not None else torch.zeros(1, dtype=torch.float64),
        scal["clip_eps"], scal["value_clip"], scal["value_clip"] is not None,
        scal["ent_coef"] if entropy is not None else 0.0, scal["vf_coef"])
    want_grads = torch.autograd.grad(want[0], list(leaves.values()), allow_unused=True)

    kata = catalog.get("ppo-loss")
    spec = importlib.import_module(kata.spec_module)
    got = spec.call(kata, _reference("ppo-loss"), copy.deepcopy(case.inputs), CPU)
    for name, mine, theirs in zip(("total", "policy_loss", "value_loss"), got.value, want):
        error = _rel(mine, theirs, floor=1.0)  # losses of order 1: below 1, the absolute error
        Figures.add("ppo-loss", name, dtype, error)
        assert error < LIMIT[dtype], (name, error)
    for name, theirs in zip(leaves, want_grads):
        theirs = torch.zeros_like(leaves[name]) if theirs is None else theirs
        error = _rel(got.extras[f"grad of {name}"], theirs)
        Figures.add("ppo-loss", f"grad of {name}", dtype, error)
        assert error < LIMIT[dtype] * 5, (name, error)


# ---------------------------------------------------------------- lora: peft's LoRA Linear


def _peft_linear(n_in, n_out, r, alpha, bias, params, dtype):
    peft = pytest.importorskip("peft")
    from peft.tuners.lora import Linear

    base = nn.Linear(n_in, n_out, bias=bias)
    layer = Linear(base, "default", config=peft.LoraConfig(r=r, lora_alpha=alpha, lora_dropout=0.0), r=r,
                   lora_alpha=alpha)
    assert not layer.lora_B["default"].weight.any(), "peft initialises B at zero"
    assert layer.scaling["default"] == alpha / r
    with torch.no_grad():
        base.weight.copy_(params["weight"])
        if bias:
            base.bias.copy_(params["bias"])
        layer.lora_A["default"].weight.copy_(params["lora_A"])
        layer.lora_B["default"].weight.copy_(params["lora_B"])
    return layer.to(dtype)


@pytest.mark.parametrize("case", [c for c in _cases("lora") if c.inputs.args["x"].dtype != torch.float16],
                         ids=lambda c: f"{c.seed}-{c.name}")
def test_lora_matches_peft(case):
    kata = catalog.get("lora")
    spec = importlib.import_module(kata.spec_module)
    init, dtype = case.inputs.init, case.inputs.args["x"].dtype
    r, alpha, bias = init.get("r", 8), init.get("alpha", 16), init.get("bias", True)
    theirs = _peft_linear(init["in_features"], init["out_features"], r, alpha, bias, case.inputs.params, dtype)
    x = case.inputs.args["x"].clone().requires_grad_(True)
    out = theirs(x)
    A, B = theirs.lora_A["default"].weight, theirs.lora_B["default"].weight
    grads = torch.autograd.grad((out * case.inputs.probe.to(dtype)).sum(), [x, A, B])
    mine = spec.call(kata, _reference("lora"), copy.deepcopy(case.inputs), CPU)
    assert mine.extras[spec.FRESH] == ()
    for what, got, want in (("output", mine.value, out), ("grad of x", mine.extras["grad of x"], grads[0]),
                            ("grad of lora_A", mine.extras["grad of lora_A"], grads[1]),
                            ("grad of lora_B", mine.extras["grad of lora_B"], grads[2])):
        error = _rel(got, want)
        Figures.add("lora", what, dtype, error)
        assert error < LIMIT[dtype] * 5, (what, error)


# ---------------------------------------------------------------- moe-router: Mixtral's router


@pytest.mark.parametrize("case", [c for c in _cases("moe-router") if c.inputs.probe is not None],
                         ids=lambda c: f"{c.seed}-{c.name}")
def test_moe_router_matches_mixtral(case):
    pytest.importorskip("transformers")
    from transformers import MixtralConfig
    from transformers.models.mixtral.modeling_mixtral import MixtralTopKRouter, load_balancing_loss_func

    kata = catalog.get("moe-router")
    spec = importlib.import_module(kata.spec_module)
    logits = case.inputs.args["router_logits"]
    k, E = case.inputs.args.get("k", 2), logits.shape[1]
    router = MixtralTopKRouter(MixtralConfig(hidden_size=E, num_local_experts=E, num_experts_per_tok=k))
    with torch.no_grad():
        router.weight.copy_(torch.eye(E))  # router_logits = hidden_states: the case's logits go in as they are
    router = router.to(logits.dtype)
    x = logits.clone().requires_grad_(True)
    _, weights, experts = router(x)
    aux = load_balancing_loss_func((x,), E, k)
    (grad,) = torch.autograd.grad((weights * case.inputs.probe.to(weights.dtype)).sum() + aux, x)

    mine = spec.call(kata, _reference("moe-router"), copy.deepcopy(case.inputs), CPU)
    my_weights, my_experts, my_aux = mine.value
    assert torch.equal(my_experts, experts), "the same experts in the same order"
    dtype = logits.dtype
    for what, got, want in (("weights", my_weights, weights), ("aux_loss", my_aux, aux),
                            ("grad of router_logits", mine.extras["grad of router_logits"], grad)):
        error = _rel(got, want)
        Figures.add("moe-router", what, dtype, error)
        # transformers keeps the weights and the aux loss in float32 whatever the input's dtype
        assert error < LIMIT[torch.float32] * 5, (what, error)
