"""lstm-cell (training family): the contract's rules as checker/specs/lstm_cell.py enforces them — the module as built
(names, shapes, bias=False, trainable and finite), the sequence threaded call by call with every call's h and c
recorded, hx=None meaning zeros at every call (a cell that keeps its state fails the two-sequence cases), the state
handed back never written into, a None gradient counted as zeros, c and the gradients compared relative to their
size, the banned names (torch.ao banned whole: "torch.ao.nn" would ban torch.nn itself), and every known mistake
failing a named case. All in process on the spec's own hooks (no sealed checker run: the all-kata tests run the
corpus and the drills through it).
"""
from __future__ import annotations

import ast
from dataclasses import replace

import pytest
import torch
import torch.nn as nn

from checker.judge import spec as spec_api
from checker.judge import static
from checker.judge.mistakes import roundtrip
from checker.text import catalog
from tests.spec_support import fresh, reference_of, spec_of

KATA = catalog.get("lstm-cell")
SPEC = spec_of("lstm-cell")
CPU = torch.device("cpu")


def case_of(name: str, seed: int = 1) -> spec_api.Case:
    return spec_api.build_cases(SPEC, seed, name)[0]


def judge(entry, case: spec_api.Case) -> list:
    """The spec's verdict on `entry` for one case, as the engine's comparison gives it (the reference's answer on
    one side, the entry's as a child would send it on the other)."""
    want = roundtrip(SPEC.call(KATA, reference_of(KATA), fresh(case.inputs), CPU))
    got = roundtrip(SPEC.call(KATA, entry, fresh(case.inputs), CPU))
    return SPEC.compare(KATA, case, [want], got)


def variant(**switches):
    return type("LSTMCell", (SPEC._Cell,), switches)


def test_the_reference_is_torch_lstm_cell_gate_for_gate():
    """Rows [0, H) i, [H, 2H) f, [2H, 3H) g, [3H, 4H) o; two biases added; (h, c) returned."""
    torch.manual_seed(0)
    cell = reference_of(KATA)(3, 2).double()
    x, h, c = torch.randn(4, 3, dtype=torch.float64), torch.randn(4, 2, dtype=torch.float64), torch.randn(4, 2, dtype=torch.float64)
    z = x @ cell.weight_ih.T + cell.bias_ih + h @ cell.weight_hh.T + cell.bias_hh
    i, f, g, o = z[:, 0:2].sigmoid(), z[:, 2:4].sigmoid(), z[:, 4:6].tanh(), z[:, 6:8].sigmoid()
    h2, c2 = cell(x, (h, c))
    torch.testing.assert_close(c2, f * c + i * g, rtol=0, atol=1e-15)
    torch.testing.assert_close(h2, o * torch.tanh(f * c + i * g), rtol=0, atol=1e-15)
    assert [n for n, _ in reference_of(KATA)(3, 2, bias=False).named_parameters()] == ["weight_ih", "weight_hh"]


def test_every_call_is_recorded_and_the_last_is_the_output():
    case = case_of("two_sequences")
    outcome = SPEC.call(KATA, reference_of(KATA), fresh(case.inputs), CPU)
    assert [k for k in outcome.extras if k.startswith("h after")] == [f"h after call {n}" for n in range(1, 5)]
    assert {f"grad of x of call {n}" for n in range(1, 6)} <= set(outcome.extras)
    assert {"grad of weight_ih", "grad of weight_hh", "grad of bias_ih", "grad of bias_hh"} <= set(outcome.extras)
    h, c = outcome.value
    assert h.shape == c.shape == (2, 4)


def test_hx_none_is_zeros_at_every_call():
    """A cell that keeps its last state fails only where a later sequence starts from hx=None."""
    stateful = variant(stateful="detached")
    assert judge(stateful, case_of("five_steps")) == []
    problems = judge(stateful, case_of("two_sequences"))
    assert any(p.item == "h after call 4" for p in problems)


def test_a_state_written_in_place_is_reported_per_call():
    problems = judge(variant(in_place=True), case_of("state_left_as_given"))
    said = [p for p in problems if p.kind == "inplace"]
    assert said and said[0].item == "hx at call 2" and "hx[0], hx[1]" in said[0].message


def test_a_detached_state_fails_on_the_gradients_only():
    problems = judge(variant(detach_state=True), case_of("given_state"))
    assert problems and all(p.item.startswith("grad of") for p in problems)
    assert judge(variant(detach_state=True), case_of("one_step")) == []  # nothing earlier to reach


def test_a_gradient_that_is_none_counts_as_zeros():
    """weight_hh never used while h is zero: its gradient is None, and zero is right on a one-call case."""
    class SkipsZeroState(reference_of(KATA)):
        def forward(self, x, hx=None):
            if hx is None:
                H = self.hidden_size
                z = x @ self.weight_ih.T + (0 if self.bias_ih is None else self.bias_ih + self.bias_hh)
                i, f, g, o = z.chunk(4, 1)
                c = torch.sigmoid(i) * torch.tanh(g)
                return torch.sigmoid(o) * torch.tanh(c), c
            return super().forward(x, hx)

    assert judge(SkipsZeroState, case_of("one_step")) == []
    assert judge(SkipsZeroState, case_of("five_steps")) == []


def test_the_module_as_built_is_checked_before_loading():
    extra = judge(variant(bias_always=True), case_of("no_bias"))
    assert [p.item for p in extra] == ["fresh module"] and "bias_ih, bias_hh" in extra[0].message

    class Frozen(reference_of(KATA)):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.weight_hh.requires_grad_(False)

    class Unset(reference_of(KATA)):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            with torch.no_grad():
                self.bias_hh.fill_(float("nan"))

    frozen = judge(Frozen, case_of("five_steps"))
    assert any("weight_hh do not require grad" in p.message for p in frozen)
    assert any(p.item == "fresh module" and "NaN" in p.message for p in judge(Unset, case_of("one_step")))

    class Transposed(nn.Module):
        def __init__(self, input_size, hidden_size, bias=True):
            super().__init__()
            self.weight_ih = nn.Parameter(torch.zeros(input_size, 4 * hidden_size))
            self.weight_hh = nn.Parameter(torch.zeros(hidden_size, 4 * hidden_size))

    shaped = judge(Transposed, case_of("wide_input"))
    assert any("weight_ih has shape (64, 8), expected (8, 64)" in p.message for p in shaped)


def test_a_return_that_is_not_a_tuple_of_two_tensors_names_its_call():
    class ReturnsList(reference_of(KATA)):
        def forward(self, x, hx=None):
            return list(super().forward(x, hx))

    problems = judge(ReturnsList, case_of("one_step"))
    assert problems[0].kind == "structure" and "call 1 returned [Tensor(3, 5), Tensor(3, 5)]" in problems[0].message


def test_c_and_the_gradients_are_compared_relative_to_their_size():
    case = case_of("float32_eight_steps")
    big = torch.tensor([8.0, -2.0])
    assert SPEC.tolerance_for(case, "c", torch.float32, big) == (1e-4, 8e-5)
    assert SPEC.tolerance_for(case, "c after call 3", torch.float32, big) == (1e-4, 8e-5)
    assert SPEC.tolerance_for(case, "grad of weight_hh", torch.float64, big) == (1e-7, 8e-9)
    assert SPEC.tolerance_for(case, "h", torch.float32, big) is None  # the table's (1e-4, 1e-5)


def test_the_banned_names_leave_torch_nn_alone():
    reference = KATA.reference_path.read_text()
    assert static.banned_uses(ast.parse(reference), KATA.all_banned) == []
    for line in ("import torch.nn as nn\nnn.LSTMCell(3, 4)", "from torch import nn\nnn.LSTM(3, 4)",
                 "import torch\ntorch.lstm_cell", "import torch\ntorch._VF.lstm_cell",
                 "from torch.ao.nn.quantizable import LSTMCell", "import torch\ntorch.ops.aten.lstm_cell"):
        assert static.banned_uses(ast.parse(line), KATA.all_banned), line
    allowed = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nF.linear; torch.sigmoid; nn.Parameter"
    assert static.banned_uses(ast.parse(allowed), KATA.all_banned) == []


def test_every_known_mistake_fails_a_named_case():
    named = [c for c in spec_api.build_cases(SPEC, 3) if not c.family.name.startswith("random")]
    want = {c.name: roundtrip(SPEC.call(KATA, reference_of(KATA), fresh(c.inputs), CPU)) for c in named}
    for mistake in SPEC.MISTAKES:
        failed = False
        for case in named:
            try:
                got = roundtrip(SPEC.call(KATA, mistake.fn, fresh(case.inputs), CPU, track_device=case.family.track_device))
            except Exception:  # noqa: BLE001 — a crash is a failure (in-place writes, a float32 zero state)
                failed = True
                break
            if SPEC.compare(KATA, case, [want[case.name]], got):
                failed = True
                break
        assert failed, mistake
