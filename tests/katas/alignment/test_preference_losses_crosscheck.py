"""preference-losses' reference against TRL 1.16's own loss code, run on stand-in objects (test-only; `pip install
-e '.[dev,crosscheck]'`; skipped without trl):

- DPOTrainer._compute_loss (precomputed reference log-probs, reverse KL): a stand-in model returns per-token
  log-probs [2B, T-1] with completion masks of 1-6 tokens, so TRL sums them itself and IPO takes its lengths from
  the masks. sigmoid (TRL 1.16's DPOTrainer has no smoothing there), robust with eps 0 / 0.1 / 0.3, hinge, ipo.
- CPOTrainer.cpo_loss (reference-free, as CPO and SimPO are): simpo on average log-probs (beta 0.1 / 2 / 10,
  gamma 0.5 / 1.6 / 0.3, eps 0 / 0.1 / 0.2, lengths 1-8), sigmoid with eps (cDPO), hinge and ipo, the reference
  entering ours as zeros.

15 float64 draws per type and trainer. Measured (torch 2.13 CPU, trl 1.16), loss relative / gradient absolute:
DPOTrainer sigmoid 0 / 0, robust (eps 0, 0.1, 0.3) 0 / 6.9e-18, hinge 0 / 0, ipo 0 / 0; CPOTrainer simpo 1.2e-16 /
2.2e-16, sigmoid (cDPO) 0 / 2.2e-16, hinge 0 / 0, ipo 0 / 0. The figures are printed with `pytest -s`. Importing
trl is most of this file's time (the dpo-loss cross-check pays it too, once per worker).
"""
from __future__ import annotations

import zlib
from collections import defaultdict
from types import SimpleNamespace

import pytest
import torch

from checker.judge.worker import load_entry
from checker.text import catalog

DRAWS = 15
pytestmark = pytest.mark.filterwarnings("ignore:You are importing from 'trl.experimental'")
F64 = torch.float64


def _reference():
    kata = catalog.get("preference-losses")
    return load_entry(kata.reference_path, kata.entry, "crosscheck_preference_losses")


def _rel(got, want) -> float:
    got, want = got.detach().double(), want.detach().double()
    return float((got - want).abs().max() / want.abs().max().clamp(min=1e-300))


def _abs(got, want) -> float:
    return float((got.detach().double() - want.detach().double()).abs().max())


@pytest.fixture(scope="module")
def figures():
    found: dict[str, list[float]] = defaultdict(list)
    yield found
    for name, values in sorted(found.items()):
        print(f"\n{name}: {len(values)} draws, largest {max(values):.2g}")


# ---------------------------------------------------------------- DPOTrainer._compute_loss


class _StandInModel:
    """A 'model' returning given per-token log-probs (zero outside each completion), the batch [chosen, rejected]."""

    training = True

    def __init__(self, per_token: torch.Tensor):
        self.per_token = per_token  # (2B, T - 1)

    def __call__(self, **kwargs):
        zeros = torch.zeros_like(self.per_token).detach()
        return SimpleNamespace(log_probs=self.per_token, entropy=zeros, mean_logits=zeros,
                               is_top1=torch.zeros(zeros.shape, dtype=torch.bool), aux_loss=None)


def _draw_tokens(g: torch.Generator, B: int, T: int = 7):
    """Completion masks of 1..T-1 tokens after a one-token prompt, and per-token log-probs for policy and reference."""
    lengths = torch.randint(1, T, (2 * B,), generator=g)
    mask = torch.zeros(2 * B, T, dtype=torch.long)
    for i, n in enumerate(lengths.tolist()):
        mask[i, 1:1 + n] = 1
    shifted = mask[:, 1:].to(F64)
    policy = -3 * torch.rand(2 * B, T - 1, generator=g, dtype=F64) * shifted
    ref = (policy + 0.5 * torch.randn(2 * B, T - 1, generator=g, dtype=F64)).clamp(max=0) * shifted
    return mask, policy, ref, lengths


def _trl_dpo(loss_type, beta, eps, mask, per_token, ref_chosen, ref_rejected):
    from trl import DPOTrainer

    model = _StandInModel(per_token)
    identity = lambda t: t  # noqa: E731 — one process: gathering is the identity
    trainer = SimpleNamespace(
        model=model, accelerator=SimpleNamespace(device=torch.device("cpu"), gather_for_metrics=identity, gather=identity),
        aux_loss_enabled=False, ld_alpha=None, precompute_ref_logps=True, f_divergence_type="reverse_kl",
        loss_types=[loss_type], loss_weights=[1.0], beta=beta, label_smoothing=eps, use_weighting=False,
        _metrics={"train": defaultdict(list), "eval": defaultdict(list)}, _total_train_tokens=0, _tp_size=1)
    inputs = {"input_ids": torch.zeros(mask.shape, dtype=torch.long), "attention_mask": torch.ones(mask.shape, dtype=torch.long),
              "completion_mask": mask, "ref_chosen_logps": ref_chosen, "ref_rejected_logps": ref_rejected}
    return DPOTrainer._compute_loss(trainer, model, inputs, return_outputs=False)


DPO_TYPES = [("sigmoid", 0.0), ("robust", 0.0), ("robust", 0.1), ("robust", 0.3), ("hinge", 0.0), ("ipo", 0.0)]


@pytest.mark.parametrize("loss_type,eps", DPO_TYPES, ids=lambda v: str(v))
def test_agrees_with_trl_dpo_trainer(loss_type, eps, figures):
    pytest.importorskip("trl")
    ours_fn = _reference()
    g = torch.Generator().manual_seed(zlib.crc32(f"{loss_type} {eps}".encode()))
    for _ in range(DRAWS):
        B = int(torch.randint(1, 7, (1,), generator=g))
        beta = [0.1, 0.5, 2.0][int(torch.randint(0, 3, (1,), generator=g))]
        mask, policy, ref, lengths = _draw_tokens(g, B)
        ref_sums = ref.sum(-1)
        per_token = policy.clone().requires_grad_(True)
        trl_loss = _trl_dpo(loss_type, beta, eps, mask, per_token, ref_sums[:B], ref_sums[B:])
        trl_loss.backward()
        sums = policy.sum(-1)
        pc, pr = sums[:B].clone().requires_grad_(True), sums[B:].clone().requires_grad_(True)
        ours = ours_fn(pc, pr, ref_sums[:B], ref_sums[B:], loss_type=loss_type, beta=beta, label_smoothing=eps,
                       chosen_lengths=lengths[:B], rejected_lengths=lengths[B:])
        ours.backward()
        # d loss / d token = d loss / d its completion's sum, on every token of the completion (the stand-in's zeros
        # outside a completion are constants in a real model)
        want_grad = torch.cat([pc.grad, pr.grad])[:, None] * mask[:, 1:].to(F64)
        loss_err, grad_err = _rel(ours, trl_loss), _abs(per_token.grad * mask[:, 1:].to(F64), want_grad)
        figures[f"DPOTrainer {loss_type} eps {eps}: loss rel"].append(loss_err)
        figures[f"DPOTrainer {loss_type} eps {eps}: gradient abs"].append(grad_err)
        assert loss_err <= 1e-12 and grad_err <= 1e-12, (loss_err, grad_err)


# ---------------------------------------------------------------- CPOTrainer.cpo_loss


def _trl_cpo(loss_type, beta, eps, gamma, chosen, rejected):
    from trl.experimental.cpo.cpo_trainer import CPOTrainer

    trainer = SimpleNamespace(alpha=0.0, accelerator=SimpleNamespace(device=torch.device("cpu")), loss_type=loss_type,
                              beta=beta, label_smoothing=eps, simpo_gamma=gamma)
    losses, _, _ = CPOTrainer.cpo_loss(trainer, chosen, rejected)
    return losses.mean()


CPO_TYPES = ["simpo", "sigmoid", "hinge", "ipo"]


@pytest.mark.parametrize("loss_type", CPO_TYPES)
def test_agrees_with_trl_cpo_loss(loss_type, figures):
    pytest.importorskip("trl")
    ours_fn = _reference()
    g = torch.Generator().manual_seed(len(loss_type) * 7919)
    for i in range(DRAWS):
        B = int(torch.randint(1, 9, (1,), generator=g))
        beta, gamma, eps = [(0.1, 0.5, 0.0), (2.0, 1.6, 0.1), (10.0, 0.3, 0.2)][i % 3]
        if loss_type in ("hinge", "ipo"):
            eps = 0.0
        L_c, L_r = torch.randint(1, 9, (B,), generator=g), torch.randint(1, 9, (B,), generator=g)
        sums_c = -3 * torch.rand(B, generator=g, dtype=F64) * L_c
        sums_r = -3 * torch.rand(B, generator=g, dtype=F64) * L_r
        avg_c, avg_r = (sums_c / L_c).requires_grad_(True), (sums_r / L_r).requires_grad_(True)
        trl_loss = _trl_cpo(loss_type, beta, eps, gamma, avg_c, avg_r)
        trl_loss.backward()
        pc, pr = sums_c.clone().requires_grad_(True), sums_r.clone().requires_grad_(True)
        if loss_type == "simpo":  # summed log-probs and lengths: ours averages them
            ours = ours_fn(pc, pr, loss_type="simpo", beta=beta, label_smoothing=eps, simpo_gamma=gamma,
                           chosen_lengths=L_c, rejected_lengths=L_r)
            ours.backward()
            grads = (pc.grad, pr.grad)
            want = (avg_c.grad / L_c, avg_r.grad / L_r)  # d/d sum = d/d average / L
        else:  # CPO is DPO without a reference: ours with zero reference log-probs, on the averages
            pc, pr = avg_c.detach().clone().requires_grad_(True), avg_r.detach().clone().requires_grad_(True)
            zeros = torch.zeros(B, dtype=F64)
            ours = ours_fn(pc, pr, zeros, zeros, loss_type=loss_type, beta=beta, label_smoothing=eps)
            ours.backward()
            grads, want = (pc.grad, pr.grad), (avg_c.grad, avg_r.grad)
        loss_err = _rel(ours, trl_loss)
        grad_err = max(_abs(grads[0], want[0]), _abs(grads[1], want[1]))
        figures[f"CPOTrainer {loss_type}: loss rel"].append(loss_err)
        figures[f"CPOTrainer {loss_type}: gradient abs"].append(grad_err)
        assert loss_err <= 1e-12 and grad_err <= 1e-12, (loss_err, grad_err)
