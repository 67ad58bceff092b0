"""grad-accumulation's own rules: the model handed to the learner and its record of the calls, the calls judged in
words (a file whose numbers are right but whose call order is not is told the call order), the forms a loss may take,
stale gradients planted, the micro-batches' in-place check, and the sizes the cases are built to show (a mean of
micro-batch means is far from the token mean where the counts differ, and equal to it where they do not)."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip
from checker.specs import grad_accumulation as spec
from checker.specs.grad_accumulation import (FORWARD, GRADIENT, PLAIN_SGD, STEP, MicroBatches, MicroLM, ModelSpec, calls_of,
                                             recorded)
from checker.text import catalog
from tests.spec_support import one_thread  # noqa: F401 — an autouse fixture

KATA = catalog.get("grad-accumulation")
CPU = torch.device("cpu")


def _case(name: str, seed: int = 3) -> spec_api.Case:
    (case,) = spec_api.build_cases(spec, seed, name)
    return case


def _judge(fn, name="unequal_counts", seed=3):
    case = _case(name, seed)
    expected = [roundtrip(o) for o in spec.expected(KATA, None, case.inputs, CPU)]
    got = roundtrip(spec.call(KATA, fn, case.inputs, CPU, track_device=case.family.track_device))
    return spec.compare(KATA, case, expected, got)


def _step(*, order="each", steps=1, concat=False, skip_empty=True, returned="tensor", inplace=False):
    """A right step, with one thing changed: order "summed" (one backward after every forward) or "late" (each
    backward one forward late); `steps` optimizer steps; the micro-batches concatenated; the loss's form."""
    def accumulate_step(model, optimizer, micro_batches):
        N = sum(int(m.sum()) for _, _, m in micro_batches)
        optimizer.zero_grad()
        if concat:
            T = max(i.shape[1] for i, _, _ in micro_batches)
            micro_batches = [tuple(torch.cat([F.pad(t, (0, T - t.shape[1])) for t in part]) for part in zip(*micro_batches))]
        pending, total = [], 0.0
        for ids, labels, mask in micro_batches:
            if inplace:
                labels.masked_fill_(~mask, 0)
            if skip_empty and not mask.any():
                continue
            loss = F.cross_entropy(model(ids)[mask], labels[mask], reduction="sum") / N
            pending.append(loss)
            if order == "each":
                pending.pop().backward()
            elif order == "late" and len(pending) == 2:
                pending.pop(0).backward()
            total = total + loss.detach()
        if order == "summed":
            sum(pending).backward()
        else:
            for loss in pending:
                loss.backward()
        for _ in range(steps):
            optimizer.step()
        if returned == "float":
            return float(total)
        if returned == "vector":
            return total.reshape(1)
        if returned == "cpu":
            return torch.tensor(float(total))
        return total
    return accumulate_step


# ---------------------------------------------------------------- the model and its record


def test_the_model_records_forwards_gradients_and_steps_out_of_the_learner_s_reach():
    ids = torch.randint(0, 11, (2, 5), generator=torch.Generator().manual_seed(0))
    model, optimizer, record = recorded(ModelSpec(7), PLAIN_SGD, [ids], CPU)
    logits = model(ids)
    assert logits.shape == (2, 5, 11) and logits.dtype == torch.float32
    logits.sum().backward()
    model(ids + 0)  # equal values, another tensor: still micro-batch 0
    model(ids[:1])  # no micro-batch's input_ids
    optimizer.step()
    assert calls_of(model) == record == [(FORWARD, 0, 2, 5), (GRADIENT, 0, 0, 0), (FORWARD, 0, 2, 5), (FORWARD, -1, 1, 5),
                                         (STEP, 0, 0, 0)]
    assert not any(name.startswith("_") or "record" in name for name in vars(model) if name not in vars(MicroLM(ModelSpec(7))))


@pytest.mark.parametrize("misuse, words", [
    (lambda m, ids: m(ids.float()), "int64"),
    (lambda m, ids: m(ids[0]), "[b, T]"),
    (lambda m, ids: m(torch.zeros(1, 17, dtype=torch.int64)), "1 ≤ T ≤ 16"),
    (lambda m, ids: m(ids.tolist()), "int64 tensor"),
])
def test_misuse_of_the_model_is_a_clear_value_error(misuse, words):
    ids = torch.randint(0, 11, (2, 5), generator=torch.Generator().manual_seed(1))
    with pytest.raises(ValueError, match="the model was called") as raised:
        misuse(MicroLM(ModelSpec(3)), ids)
    assert words in str(raised.value)


def test_stale_gradients_are_planted_unless_the_case_says_not():
    seen = {}

    def look(model, optimizer, micro_batches):
        seen["grads"] = [None if p.grad is None else p.grad.clone() for p in model.parameters()]
        return _step()(model, optimizer, micro_batches)

    spec.call(KATA, look, _case("unequal_counts").inputs, CPU)
    assert all(g is not None and g.abs().sum() > 0 for g in seen["grads"])
    spec.call(KATA, look, _case("no_stale_gradients").inputs, CPU)
    assert all(g is None for g in seen["grads"])


# ---------------------------------------------------------------- the calls, judged in words


def test_a_right_step_passes_whether_an_empty_micro_batch_is_run_or_skipped():
    for name in ("unequal_counts", "empty_micro_batch", "empty_first_micro_batch", "float64", "adamw"):
        assert _judge(_step(), name) == []
        assert _judge(_step(skip_empty=False), name) == []


def test_one_backward_over_the_summed_losses_is_told_the_call_order_not_the_numbers():
    (problem,) = _judge(_step(order="summed"))
    assert problem.item == "calls" and problem.kind == "values"
    first, line = problem.message.splitlines()
    assert first == ("right step and loss, wrong call order: run each micro-batch's backward before the next "
                     "micro-batch's forward (one backward over the summed losses keeps every micro-batch's graph alive "
                     "at once, which is what accumulation exists to avoid)")
    assert line.split(": ")[-1].startswith("F0 F1 F2 B") and line.endswith(" S")


def test_a_backward_one_forward_late_and_a_concatenated_batch_are_said_in_words():
    (problem,) = _judge(_step(order="late"))
    assert problem.message.startswith("right step and loss, wrong call order: the backward of call 0 came after call 1")
    (problem,) = _judge(_step(concat=True))
    assert problem.message.startswith("right step and loss, wrong calls: one forward per micro-batch, on that "
                                      "micro-batch's input_ids: call 0 gave the model input_ids of shape (6, 6)")


def test_a_wrong_number_of_steps_is_said_beside_the_numbers():
    problems = _judge(_step(steps=2))
    assert problems[-1].item == "calls" and problems[-1].message.startswith("optimizer.step() was called 2 times")
    assert any(p.item.startswith("params[") for p in problems)  # the second step moved the parameters again


def test_the_forms_a_loss_may_take():
    assert _judge(_step(returned="float")) == []
    (problem,) = _judge(_step(returned="vector"))
    assert problem.item == "loss" and problem.kind == "shape"
    assert _judge(_step(returned="cpu")) == []  # on the CPU, the CPU is the model's device
    (problem,) = _judge(_step(returned="cpu"), "device")
    assert problem.kind == "device" and problem.message == "loss is on cpu; expected the model's device, cuda:0"


def test_a_micro_batch_modified_in_place_is_reported():
    problems = _judge(_step(inplace=True), "scattered_mask")
    assert [p.kind for p in problems] == ["inplace"]
    assert "micro_batches[0][1]" in problems[0].message


# ---------------------------------------------------------------- what the cases are built to show


def _params_gap(fn, name: str, seed: int = 1) -> float:
    """The largest distance between the parameters `fn` steps to and the full-batch step's."""
    case = _case(name, seed)
    want = spec.expected(KATA, None, case.inputs, CPU)[0].value[0]
    got = spec.call(KATA, fn, case.inputs, CPU).value[0]
    return float((got - want).abs().max())  # every parameter, flattened


def test_a_mean_of_means_is_far_off_where_the_counts_differ_and_right_where_they_do_not():
    mean_of_means = next(m.fn for m in spec.MISTAKES if m.key == "mean_of_means")
    assert _params_gap(mean_of_means, "unequal_counts") > 0.05
    assert _params_gap(mean_of_means, "equal_counts_all_valid") < 1e-6  # only the protocol is tested there


def test_the_named_cases_hold_what_their_names_say():
    def counts(name):
        return [int(m.sum()) for _, _, m in _case(name).inputs.args["micro_batches"].items]

    assert counts("unequal_counts") == [11, 3, 3]
    assert counts("empty_micro_batch")[1] == 0 and counts("empty_first_micro_batch")[0] == 0
    assert len(counts("eight_single_rows")) == 8
    assert _case("float64").inputs.args["model"].dtype == torch.float64
    assert _case("adamw").inputs.args["optimizer"].kind == "adamw"
    batches = _case("different_shapes").inputs.args["micro_batches"]
    assert isinstance(batches, MicroBatches) and len({ids.shape for ids, _, _ in batches.items}) == 3
    assert all(c.inputs.args["micro_batches"].valid >= 1 for c in spec_api.build_cases(spec, 5))
