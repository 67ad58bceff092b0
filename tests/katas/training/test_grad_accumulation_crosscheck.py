"""grad-accumulation's reference against transformers' fixed loss path, and the pre-fix path that the kata rejects.

transformers' Trainer since October 2024 passes `num_items_in_batch` (the valid tokens of every micro-batch of one
optimizer step) to the model's loss, whose `fixed_cross_entropy` sums the token losses (`ignore_index=-100`) and
divides by it; each micro-batch's loss is backpropagated in turn and the optimizer steps once. Before the fix the
Trainer divided each micro-batch's mean by `gradient_accumulation_steps`: a mean of micro-batch means.

Measured (torch 2.13 CPU, transformers 5.25), 20 random batches of 2-5 micro-batches of the kata's model, float64,
plain SGD (lr 0.5) from the same weights: the reference's loss within 2.8e-16 (relative) of the fixed path's
(`fixed_cross_entropy(..., num_items_in_batch)` per micro-batch, one SGD step) and its parameters equal to them
(difference 0.0); the pre-fix path's parameters differ by 0.018 to 0.25 (largest absolute difference per batch) and
its loss by 0.0035 to 0.72. `ForCausalLMLoss` with the labels given as `shift_labels` (already aligned) takes the
same step in float32 (difference 0.0 on 5 batches).
Run with -s to see the figures of this run.
"""
from __future__ import annotations

import copy

import pytest
import torch

from checker.judge.worker import load_entry
from checker.specs.grad_accumulation import VOCAB, MicroLM, ModelSpec
from checker.text import catalog
from tests.spec_support import lazy_module

loss_utils = lazy_module("transformers.loss.loss_utils")

BATCHES = 20
FIGURES: dict[str, list[float]] = {}


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference():
    kata = catalog.get("grad-accumulation")
    return load_entry(kata.reference_path, kata.entry, "crosscheck_grad_accumulation")


def _batch(g: torch.Generator) -> list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """2-5 micro-batches of their own shapes, every one with a valid token (the pre-fix path is NaN on an empty one)."""
    batch = []
    for _ in range(int(torch.randint(2, 6, (1,), generator=g))):
        b, T = int(torch.randint(1, 5, (1,), generator=g)), int(torch.randint(2, 13, (1,), generator=g))
        ids = torch.randint(0, VOCAB, (b, T), generator=g)
        labels = torch.randint(0, VOCAB, (b, T), generator=g)
        mask = torch.rand(b, T, generator=g) < 0.2 + 0.7 * float(torch.rand((), generator=g))
        mask[0, -1] = True
        batch.append((ids, labels, mask))
    return batch


def _trainer_step(model, micro_batches, fixed: bool, loss_fn=None):
    """One step as the Trainer takes it: each micro-batch's loss backpropagated in turn, then one SGD step."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    optimizer.zero_grad()
    num_items_in_batch = sum(mask.sum() for _, _, mask in micro_batches)
    logged = 0.0
    for ids, labels, mask in micro_batches:
        logits = model(ids)
        targets = labels.masked_fill(~mask, -100)
        if loss_fn is not None:
            loss = loss_fn(logits, None, VOCAB, num_items_in_batch=num_items_in_batch, shift_labels=targets)
        elif fixed:
            loss = loss_utils.fixed_cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), num_items_in_batch)
        else:
            loss = loss_utils.fixed_cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1)) / len(micro_batches)
        loss.backward()
        logged += loss.item()
    optimizer.step()
    return logged


def _gap(a: torch.nn.Module, b: torch.nn.Module) -> float:
    return max(float((p - q).detach().abs().max()) for p, q in zip(a.parameters(), b.parameters()))


def test_the_reference_is_transformers_fixed_step_and_not_the_pre_fix_one():
    accumulate_step = _reference()
    g = torch.Generator().manual_seed(2024)
    for i in range(BATCHES):
        batch = _batch(g)
        base = MicroLM(ModelSpec(1000 + i, torch.float64))
        mine, fixed, old = copy.deepcopy(base), copy.deepcopy(base), copy.deepcopy(base)
        loss = float(accumulate_step(mine, torch.optim.SGD(mine.parameters(), lr=0.5), batch))
        fixed_loss = _trainer_step(fixed, batch, fixed=True)
        old_loss = _trainer_step(old, batch, fixed=False)
        FIGURES.setdefault("loss vs fixed (relative)", []).append(abs(loss - fixed_loss) / abs(fixed_loss))
        FIGURES.setdefault("params vs fixed", []).append(_gap(mine, fixed))
        FIGURES.setdefault("params vs pre-fix", []).append(_gap(mine, old))
        FIGURES.setdefault("loss vs pre-fix", []).append(abs(loss - old_loss))
    assert max(FIGURES["loss vs fixed (relative)"]) < 1e-13
    assert max(FIGURES["params vs fixed"]) < 1e-13
    assert min(FIGURES["params vs pre-fix"]) > 1e-3  # every batch here has unequal counts
    print({k: (f"{min(v):.2g}", f"{max(v):.2g}") for k, v in FIGURES.items()})


def test_for_causal_lm_loss_with_aligned_labels_takes_the_same_step_in_float32():
    accumulate_step = _reference()
    g = torch.Generator().manual_seed(7)
    worst = 0.0
    for i in range(5):
        batch = _batch(g)
        base = MicroLM(ModelSpec(2000 + i))
        mine, theirs = copy.deepcopy(base), copy.deepcopy(base)
        accumulate_step(mine, torch.optim.SGD(mine.parameters(), lr=0.5), batch)
        _trainer_step(theirs, batch, fixed=True, loss_fn=loss_utils.ForCausalLMLoss)
        worst = max(worst, _gap(mine, theirs))
    assert worst < 1e-5
    print(f"ForCausalLMLoss (shift_labels given), float32: {worst:.2g}")
