"""reward-model-loss against TRL's `RewardTrainer.compute_loss`, the code people train reward models with.

TRL's own method is run, not a transcription: its source is read from the installed `trl/trainer/reward_trainer.py`
(ast, no import: importing trl costs ~7 s of CPU, which the suite cannot spare) and executed on stand-in objects —
a model whose logits `[2B, 1]` are the chosen rewards stacked on the rejected ones (TRL's `torch.chunk(…, 2)` splits
them back), `args.center_rewards_coefficient`, an accelerator whose gathers are the identity, eval mode. The margin
goes in as TRL's `inputs["margin"]` (a float or a `[B]` tensor). Skipped when trl is not installed.

Figures measured on this machine (torch 2.13 CPU, trl 1.16.0), loss |ours − TRL| / max(1, |TRL|), gradient
max |ours − TRL| over both reward tensors / max(1, max |TRL's|):

| check | cases | loss | gradient |
|---|---|---|---|
| every case of the spec, seeds 1 and 77 (float32 and float64, rewards up to 1e4, margins none / float / tensor, centring) | 224 | 0 | 0 |
| 40 float64 draws (B 1–8, rewards up to 1e4, a tensor margin in 1 of 3, coefficient 0.01 in 1 of 5) | 40 | 0 | 0 |
| the same 40 draws, reference vs an exact float64 two-branch −log σ and σ(−d) (`math.log1p`, pair by pair) | 40 | 3.4e-16 | 2.0e-16 |

The reference and TRL are the same expression (−logsigmoid, then `+=` the centring term), so they agree to the bit.
"""
from __future__ import annotations

import ast
import importlib.util
import math
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge.worker import load_entry
from checker.text import catalog

KATA = catalog.get("reward-model-loss")
NAMES = ("chosen_rewards", "rejected_rewards")


def _trl_compute_loss():
    """RewardTrainer.compute_loss as the installed TRL writes it, compiled from its file."""
    found = importlib.util.find_spec("trl")
    if found is None or not found.submodule_search_locations:
        pytest.skip("trl is not installed")
    path = Path(list(found.submodule_search_locations)[0]) / "trainer" / "reward_trainer.py"
    tree = ast.parse(path.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RewardTrainer")
    fn = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "compute_loss")
    source = ast.get_source_segment(path.read_text(), fn)
    assert "logsigmoid(rewards_chosen - rewards_rejected - inputs[\"margin\"]).mean()" in source
    assert "torch.mean((rewards_chosen + rewards_rejected) ** 2)" in source
    namespace = {"torch": torch, "nn": nn}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102
    return namespace["compute_loss"]


def _trl_loss(compute_loss, rc, rr, margin, coef):
    B = rc.shape[0]
    logits = torch.cat([rc, rr]).unsqueeze(-1)  # (2B, 1): chosen first, as TRL's collator stacks them
    model = lambda **inputs: SimpleNamespace(logits=logits)  # noqa: E731
    identity = lambda x: x  # noqa: E731
    trainer = SimpleNamespace(
        model=SimpleNamespace(training=False), args=SimpleNamespace(center_rewards_coefficient=coef),
        accelerator=SimpleNamespace(gather=identity, gather_for_metrics=identity),
        _metrics=defaultdict(lambda: defaultdict(list)), _total_train_tokens=0, _tp_size=1)
    inputs = {"input_ids": torch.zeros(2 * B, 1, dtype=torch.long), "attention_mask": torch.ones(2 * B, 1)}
    if margin is not None:
        inputs["margin"] = margin
    return compute_loss(trainer, model, inputs)


def _two_branch(rc, rr, margin, coef):
    """An exact float64 −log σ by branch, pair by pair, the centring term by math.fsum, and the gradient
    w.r.t. (chosen, rejected): ∓σ(−d)/B + 2·coef·(r_c + r_r)/B."""
    B = rc.shape[0]
    d = (rc - rr - (0.0 if margin is None else margin)).tolist()
    sums = (rc + rr).tolist()
    nls = [math.log1p(math.exp(-x)) if x >= 0 else -x + math.log1p(math.exp(x)) for x in d]
    sig = [math.exp(-x) / (1 + math.exp(-x)) if x >= 0 else 1 / (1 + math.exp(x)) for x in d]  # σ(−d)
    loss = math.fsum(nls) / B
    centre = [0.0 if coef is None else 2 * coef * s / B for s in sums]
    if coef is not None:
        loss += coef * math.fsum(s * s for s in sums) / B
    grad = [-p / B + c for p, c in zip(sig, centre)] + [p / B + c for p, c in zip(sig, centre)]
    return loss, torch.tensor(grad, dtype=torch.float64)


def _ours(rc, rr, margin, coef):
    reference = load_entry(KATA.reference_path, KATA.entry, "crosscheck_reward_model_loss")
    return reference(rc, rr, margin=margin, center_rewards_coefficient=coef)


def _compare(fn_a, fn_b, rc, rr, margin, coef):
    grads = []
    losses = []
    for fn in (fn_a, fn_b):
        a, b = rc.detach().clone().requires_grad_(True), rr.detach().clone().requires_grad_(True)
        loss = fn(a, b, margin, coef)
        loss.backward()
        losses.append(loss.detach().double())
        grads.append(torch.cat([a.grad, b.grad]).double())
    loss_err = float((losses[0] - losses[1]).abs() / max(1.0, float(losses[1].abs())))
    grad_err = float((grads[0] - grads[1]).abs().max() / max(1.0, float(grads[1].abs().max())))
    return loss_err, grad_err


def _draws(n=40):
    g = torch.Generator().manual_seed(2024)
    for i in range(n):
        B = int(torch.randint(1, 9, (1,), generator=g))
        scale = [1.0, 10.0, 1e3, 1e4][i % 4]
        rc = scale * torch.randn(B, generator=g, dtype=torch.float64)
        rr = scale * torch.randn(B, generator=g, dtype=torch.float64)
        margin = torch.randint(0, 4, (B,), generator=g).double() if i % 3 == 0 else None
        coef = 0.01 if i % 5 == 0 else None
        yield rc, rr, margin, coef


def test_reference_agrees_with_trl_on_every_case():
    compute_loss = _trl_compute_loss()
    trl = lambda rc, rr, m, c: _trl_loss(compute_loss, rc, rr, m, c)  # noqa: E731
    spec = __import__(KATA.spec_module, fromlist=["FAMILIES"])
    worst = [0.0, 0.0]
    n = 0
    for seed in (1, 77):
        for case in spec_api.build_cases(spec, seed):
            args = case.inputs.args
            loss_err, grad_err = _compare(_ours, trl, args[NAMES[0]], args[NAMES[1]], args.get("margin"),
                                          args.get("center_rewards_coefficient"))
            worst = [max(worst[0], loss_err), max(worst[1], grad_err)]
            n += 1
    assert n >= 220
    assert worst == [0.0, 0.0], worst


def test_reference_agrees_with_trl_and_an_exact_form_on_float64_draws():
    compute_loss = _trl_compute_loss()
    trl = lambda rc, rr, m, c: _trl_loss(compute_loss, rc, rr, m, c)  # noqa: E731
    for rc, rr, margin, coef in _draws():
        loss_err, grad_err = _compare(_ours, trl, rc, rr, margin, coef)
        assert loss_err == 0.0 and grad_err == 0.0
        exact, exact_grad = _two_branch(rc, rr, margin, coef)
        a, b = rc.clone().requires_grad_(True), rr.clone().requires_grad_(True)
        ours = _ours(a, b, margin, coef)
        ours.backward()
        assert abs(float(ours.detach()) - exact) / max(1.0, abs(exact)) < 1e-15
        grad = torch.cat([a.grad, b.grad])
        assert float((grad - exact_grad).abs().max()) / max(1.0, float(exact_grad.abs().max())) < 1e-15


def test_softplus_differs_from_logsigmoid_only_beyond_its_threshold():
    """F.softplus(-d) is linear beyond 20: at most e^-20 ≈ 2e-9 per pair off logsigmoid, inside every tolerance."""
    d = torch.linspace(-40, 40, 801, dtype=torch.float64)
    gap = (torch.nn.functional.softplus(-d) + torch.nn.functional.logsigmoid(d)).abs().max()
    assert 1e-9 < float(gap) < math.exp(-20) * 1.01
