"""The training references against the libraries that define the behaviour (test-only; `pip install
-e '.[dev,crosscheck]'`): F.cross_entropy, transformers' TopKLogitsWarper -> TopPLogitsWarper (the
order generate() applies them), and TRL's DPO sigmoid loss, run through DPOTrainer._compute_loss on a
stand-in trainer and model. Every case of every spec is checked on several seeds, so the edge cases
are covered too. The largest errors are printed (`pytest -s`) to compare with KATAS.md's figures.
"""
from __future__ import annotations

import importlib
from collections import defaultdict
from types import SimpleNamespace

import pytest
import torch
import torch.nn.functional as F

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.specs import _training
from checker.judge.worker import load_entry

SEEDS = (1, 77, 2024)


def _cases(kata_id, seeds=SEEDS):
    spec = importlib.import_module(catalog.get(kata_id).spec_module)
    return [case for seed in seeds for case in spec_api.build_cases(spec, seed)]


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _rel(got: torch.Tensor, want: torch.Tensor) -> float:
    """Largest error relative to the largest expected magnitude."""
    got, want = got.detach().double(), want.detach().double()
    return float((got - want).abs().max() / want.abs().max().clamp(min=1e-300))


@pytest.fixture(scope="module")
def figures():
    found: dict[str, list[float]] = defaultdict(list)
    yield found
    for name, values in sorted(found.items()):
        print(f"\n{name}: {len(values)} comparisons, largest {max(values):.2g}")


# ---------------------------------------------------------------- cross-entropy vs F.cross_entropy


def _ce_with_grad(fn, a):
    logits = a["logits"].clone().requires_grad_(True)
    kwargs = {"ignore_index": a.get("ignore_index", -100), "label_smoothing": a.get("label_smoothing", 0.0)}
    loss = fn(logits, a["targets"], **kwargs)
    loss.backward()
    return loss.detach(), logits.grad


def _some_kept(case) -> bool:
    a = case.inputs.args
    return bool((a["targets"] != a.get("ignore_index", -100)).any())


@pytest.mark.parametrize("case", [c for c in _cases("cross-entropy") if _some_kept(c)],
                         ids=lambda c: f"{c.seed}-{c.name}")
def test_cross_entropy_agrees_with_torch(case, figures):
    a = case.inputs.args
    dtype = a["logits"].dtype
    if dtype in _training.HALF:  # forward only; torch computes half on the CPU in float32 inside
        loss = _reference("cross-entropy")(**a)
        want = F.cross_entropy(a["logits"].float(), a["targets"], ignore_index=a.get("ignore_index", -100),
                               label_smoothing=a.get("label_smoothing", 0.0)).to(dtype)
        assert abs(float(loss) - float(want)) <= 2.0 ** (-7) * abs(float(want)), case.name
        return
    loss, grad = _ce_with_grad(_reference("cross-entropy"), a)
    want_loss, want_grad = _ce_with_grad(F.cross_entropy, a)
    value_err, grad_err = _rel(loss, want_loss), _rel(grad, want_grad)
    figures[f"cross-entropy vs F.cross_entropy, value ({dtype})"].append(value_err)
    figures[f"cross-entropy vs F.cross_entropy, gradient ({dtype})"].append(grad_err)
    limit = 1e-12 if dtype == torch.float64 else 2e-5
    spread = 1 + float(a["logits"].abs().max()) * torch.finfo(dtype).eps * 10  # 1e4 logits: 1e-3 of rounding
    assert value_err <= limit * spread and grad_err <= limit * spread * 10, (value_err, grad_err)


@pytest.mark.parametrize("case", [c for c in _cases("cross-entropy", (1,)) if not _some_kept(c)],
                         ids=lambda c: c.name)
def test_cross_entropy_differs_from_torch_on_purpose_when_every_row_is_ignored(case):
    """torch's mean reduction is 0 / 0 = NaN here; the contract is 0, with a zero gradient."""
    a = case.inputs.args
    torch_loss = F.cross_entropy(a["logits"].float(), a["targets"], ignore_index=a.get("ignore_index", -100),
                                 label_smoothing=a.get("label_smoothing", 0.0))
    assert torch.isnan(torch_loss)
    if a["logits"].dtype in _training.HALF:
        assert float(_reference("cross-entropy")(**a)) == 0.0
        return
    loss, grad = _ce_with_grad(_reference("cross-entropy"), a)
    assert float(loss) == 0.0 and torch.equal(grad, torch.zeros_like(grad))


# ---------------------------------------------------------------- top-p vs transformers' warpers


def _hf_filter(logits, top_k=0, top_p=1.0):
    """generate()'s order: TopKLogitsWarper, then TopPLogitsWarper, each only when it is on."""
    from transformers import TopKLogitsWarper, TopPLogitsWarper

    scores = logits.clone()
    if top_k:
        scores = TopKLogitsWarper(top_k=top_k, min_tokens_to_keep=1)(None, scores)
    if top_p < 1.0:
        scores = TopPLogitsWarper(top_p=top_p, min_tokens_to_keep=1)(None, scores)
    return scores


def _has_ties(logits: torch.Tensor) -> bool:
    for row in logits:
        finite = row[torch.isfinite(row)]
        if finite.unique().numel() < finite.numel():
            return True
    return False


TOP_P_CASES = _cases("top-p", SEEDS + (5, 6, 7))


@pytest.mark.parametrize("case", TOP_P_CASES, ids=lambda c: f"{c.seed}-{c.name}")
def test_top_p_agrees_with_transformers(case, figures):
    pytest.importorskip("transformers")
    kata = catalog.get("top-p")
    spec = importlib.import_module(kata.spec_module)
    a = case.inputs.args
    ours, theirs = _reference("top-p")(**a), _hf_filter(**a)
    if not _has_ties(a["logits"]):
        figures["top-p vs transformers, tie-free cases identical"].append(0.0 if torch.equal(ours, theirs) else 1.0)
        assert torch.equal(ours, theirs), case.name
        return
    from checker.judge.codec import TensorValue

    value = TensorValue(theirs, str(theirs.dtype).removeprefix("torch."), tuple(theirs.shape), "cpu")
    reference = TensorValue(ours, str(ours.dtype).removeprefix("torch."), tuple(ours.shape), "cpu")
    problems = spec.compare(kata, case, [spec_api.Outcome(reference)], spec_api.Outcome(value))
    figures["top-p vs transformers, cases with ties outside the accepted set"].append(float(bool(problems)))
    assert problems == [], (case.name, problems)


def test_top_p_one_applied_anyway_removes_what_the_contract_keeps():
    """TopPLogitsWarper(1.0) removes tokens whose probability underflows; generate() never builds it
    at 1.0, and the contract says 1.0 is off."""
    TopPLogitsWarper = pytest.importorskip("transformers").TopPLogitsWarper

    logits = torch.tensor([[0.0, -150.0, -200.0, -1e4]])
    assert torch.isinf(TopPLogitsWarper(top_p=1.0)(None, logits.clone())).any()
    assert torch.equal(_reference("top-p")(logits, 0, 1.0), logits)


# ---------------------------------------------------------------- dpo-loss vs TRL's DPOTrainer


class _StandInModel:
    """A 'model' whose summed completion log-probs are given leaves: one completion token each."""

    training = True

    def __init__(self, chosen: torch.Tensor, rejected: torch.Tensor):
        self.logps = torch.cat([chosen, rejected])[:, None]  # (2B, 1) the batch is [chosen, rejected]

    def __call__(self, **kwargs):
        n = self.logps.shape[0]
        zeros = torch.zeros(n, 1, dtype=self.logps.dtype)
        return SimpleNamespace(log_probs=self.logps, entropy=zeros, mean_logits=zeros,
                               is_top1=torch.zeros(n, 1, dtype=torch.bool), aux_loss=None)


def _trl_dpo(pc, pr, rc, rr, beta):
    """TRL 1.16's DPOTrainer._compute_loss (loss_type "sigmoid", reverse KL, precomputed reference
    log-probs) on a stand-in trainer: returns the loss and the metrics it logged."""
    from trl import DPOTrainer

    model = _StandInModel(pc, pr)
    identity = lambda t: t  # noqa: E731 — one process: gathering is the identity
    trainer = SimpleNamespace(
        model=model, accelerator=SimpleNamespace(device=torch.device("cpu"), gather_for_metrics=identity, gather=identity),
        aux_loss_enabled=False, ld_alpha=None, precompute_ref_logps=True, f_divergence_type="reverse_kl",
        loss_types=["sigmoid"], loss_weights=[1.0], beta=beta, label_smoothing=0.0, use_weighting=False,
        _metrics={"train": defaultdict(list), "eval": defaultdict(list)}, _total_train_tokens=0, _tp_size=1)
    B = pc.shape[0]
    inputs = {"input_ids": torch.zeros(2 * B, 2, dtype=torch.long), "attention_mask": torch.ones(2 * B, 2, dtype=torch.long),
              "completion_mask": torch.ones(2 * B, 2, dtype=torch.long), "ref_chosen_logps": rc, "ref_rejected_logps": rr}
    loss = DPOTrainer._compute_loss(trainer, model, inputs, return_outputs=False)
    return loss, trainer._metrics["train"]


@pytest.mark.parametrize("case", _cases("dpo-loss"), ids=lambda c: f"{c.seed}-{c.name}")
def test_dpo_agrees_with_trl(case, figures):
    pytest.importorskip("trl")
    a = case.inputs.args
    beta = a.get("beta", 0.1)
    names = ("policy_chosen_logps", "policy_rejected_logps", "ref_chosen_logps", "ref_rejected_logps")
    ours_in = {n: a[n].clone().requires_grad_(n.startswith("policy")) for n in names}
    loss, chosen, rejected = _reference("dpo-loss")(**ours_in, beta=beta)
    loss.backward()
    pc, pr = a[names[0]].clone().requires_grad_(True), a[names[1]].clone().requires_grad_(True)
    trl_loss, metrics = _trl_dpo(pc, pr, a[names[2]], a[names[3]], beta)
    trl_loss.backward()
    dtype = a[names[0]].dtype
    errors = {"loss": _rel(loss, trl_loss), "gradient": max(_rel(ours_in[names[0]].grad, pc.grad),
                                                            _rel(ours_in[names[1]].grad, pr.grad))}
    for ours, key in ((chosen.mean(), "rewards/chosen"), (rejected.mean(), "rewards/rejected"),
                      ((chosen - rejected).mean(), "rewards/margins")):
        errors[key] = _rel(ours, torch.tensor(metrics[key][0], dtype=torch.float64))
    accuracy = float((chosen > rejected).double().mean())
    assert accuracy == pytest.approx(metrics["rewards/accuracies"][0])
    for what, err in errors.items():
        figures[f"dpo-loss vs TRL, {what} ({dtype})"].append(err)
    limit = 1e-12 if dtype == torch.float64 else 2e-5
    assert errors["loss"] <= limit and errors["gradient"] <= limit, errors
    logged = 1e-6 if dtype == torch.float64 else 2e-5  # TRL logs means as Python floats via .item()
    assert max(errors[k] for k in ("rewards/chosen", "rewards/rejected")) <= logged, errors


@pytest.mark.parametrize("z", (0.0, 150.0, -150.0, 9000.0, -9000.0))
def test_dpo_gradient_is_minus_sigmoid_of_minus_z_everywhere(z):
    pytest.importorskip("trl")
    dtype = torch.float64
    B, beta = 4, 0.5
    rc, rr = torch.full((B,), -100.0, dtype=dtype), torch.full((B,), -120.0, dtype=dtype)
    pc, pr = (rc + z / beta / 2).clamp(max=-1.0), None
    pr = pc - (rc - rr) - z / beta  # (pc - pr) - (rc - rr) = z / beta
    shift = torch.maximum(torch.maximum(pc, pr), torch.maximum(rc, rr)).clamp(min=-1.0) + 1.0  # keep log-probs <= -1
    pc, pr, rc, rr = pc - shift, pr - shift, rc - shift, rr - shift
    want = -torch.sigmoid(torch.tensor(-z, dtype=dtype)) * beta / B
    ours = {"policy_chosen_logps": pc.clone().requires_grad_(True), "policy_rejected_logps": pr.clone().requires_grad_(True),
            "ref_chosen_logps": rc, "ref_rejected_logps": rr}
    loss, _, _ = _reference("dpo-loss")(**ours, beta=beta)
    loss.backward()
    tpc, tpr = pc.clone().requires_grad_(True), pr.clone().requires_grad_(True)
    trl_loss, _ = _trl_dpo(tpc, tpr, rc, rr, beta)
    trl_loss.backward()
    torch.testing.assert_close(ours["policy_chosen_logps"].grad, torch.full((B,), float(want), dtype=dtype), rtol=1e-12, atol=0)
    torch.testing.assert_close(tpc.grad, ours["policy_chosen_logps"].grad, rtol=0, atol=0)
    torch.testing.assert_close(tpr.grad, ours["policy_rejected_logps"].grad, rtol=0, atol=0)
