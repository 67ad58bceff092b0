"""Case families for `grad-accumulation`: one optimizer step from micro-batches, judged against the full-batch step
on the token mean over the whole batch, and the calls the step made, judged by the contract's rule.

Each case is a model (the tiny LM below, drawn from the case's seed, stale gradients planted on every
parameter unless the case says not), an optimizer over its parameters, and the micro-batches (input_ids, labels,
loss_mask) with their own row counts, lengths and valid counts, one of them possibly with no valid token.

Compared: every parameter after the step with the full-batch step taken from the same model by a fresh optimizer of
the same kind (float32 rtol 1e-4, atol 1e-6 × max(1, max|p|); float64 1e-9 / 1e-12); the returned loss within the
tolerance of its own dtype (a Python float: the model's); then the calls: one forward per micro-batch on its
input_ids, each micro-batch's backward (the gradient reaching that call's logits) before the next forward, exactly
one optimizer.step() after the last backward. A file whose step and loss are right but whose calls are not is told
the call order, not the numbers.
"""
from __future__ import annotations

import functools
import math
import sys
import weakref
from dataclasses import dataclass, replace
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.compare import compare_item, describe, float_of, is_float_scalar, split_outputs
from checker.judge.devices import Simulation
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome
from checker.specs._training import pick, randint, uniform
from checker.text.i18n import plural, tr

# ---------------------------------------------------------------- the model, the optimizer and the record
#
# MicroLM is an nn.Module: a token embedding, learned positions, one tanh layer and a linear head (vocabulary 11,
# width 8); model(input_ids) -> logits [b, T, V]. Rows do not see each other, so one batch concatenated from the
# micro-batches gives the numbers of the micro-batches one by one: only the record tells them apart. The record is a
# list of events (kind, index, rows, tokens): FORWARD (0, the micro-batch whose input_ids the call was given or -1,
# rows, tokens per row), GRADIENT (1, the call whose logits a gradient reached: a hook on that call's logits, 0, 0),
# STEP (2, 0, 0, 0: a step pre-hook on the optimizer). It lives outside the model (_RECORDS, keyed by the model), as
# greedy-generate's does: the learner's code holds the model, not the record.

VOCAB = 11
WIDTH = 8
MAX_T = 16  # positions the model knows: every micro-batch has T ≤ MAX_T
FORWARD, GRADIENT, STEP = 0, 1, 2
# The model's parameters in named_parameters() order: the "params" output is all of them flattened into one vector
# in this order, and the report splits it back by name.
PARAMS = {"tok.weight": (VOCAB, WIDTH), "pos.weight": (MAX_T, WIDTH), "hidden.weight": (WIDTH, WIDTH),
          "hidden.bias": (WIDTH,), "head.weight": (VOCAB, WIDTH), "head.bias": (VOCAB,)}


@dataclass(frozen=True)
class ModelSpec:
    """The case's model: its weights' seed, its dtype, and whether its parameters come holding stale gradients."""

    seed: int
    dtype: torch.dtype = torch.float32
    stale: bool = True

    def __str__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        if self.stale:
            return tr("a tiny LM (embedding, positions, one tanh layer, a linear head), vocabulary {V}, width {C}, "
                      "{dtype}, stale gradients in every .grad", V=VOCAB, C=WIDTH, dtype=dtype)
        return tr("a tiny LM (embedding, positions, one tanh layer, a linear head), vocabulary {V}, width {C}, "
                  "{dtype}, no gradients yet", V=VOCAB, C=WIDTH, dtype=dtype)


@dataclass(frozen=True)
class OptimizerSpec:
    """The case's optimizer: "sgd" or "adamw" and its settings (torch.optim's names)."""

    kind: str
    settings: tuple[tuple[str, float], ...]

    def __str__(self) -> str:
        name = {"sgd": "torch.optim.SGD", "adamw": "torch.optim.AdamW"}[self.kind]
        return f"{name}({', '.join(f'{k}={v:g}' for k, v in self.settings)})"

    def build(self, params: Any) -> torch.optim.Optimizer:
        return {"sgd": SGD, "adamw": AdamW}[self.kind](params, **dict(self.settings))


class _Eager:
    """torch.optim's own step, zero_grad and add_param_group, without the wrappers that import torch._dynamo on
    their first call (`_use_grad_for_differentiable`, `torch._disable_dynamo`): that import costs as much as
    importing torch, in every check. The numbers, the state, the hooks and isinstance are torch.optim's."""

    _torch_step: Any

    def step(self, closure=None):
        with torch.no_grad():  # what _use_grad_for_differentiable sets for a non-differentiable optimizer
            return type(self)._torch_step.__wrapped__(self, closure)

    def zero_grad(self, set_to_none: bool = True) -> None:
        torch.optim.Optimizer.zero_grad.__wrapped__(self, set_to_none)

    def add_param_group(self, param_group: dict) -> None:
        torch.optim.Optimizer.add_param_group.__wrapped__(self, param_group)


class SGD(_Eager, torch.optim.SGD):
    _torch_step = torch.optim.SGD.step


class AdamW(_Eager, torch.optim.AdamW):
    _torch_step = torch.optim.AdamW.step


@dataclass(frozen=True)
class MicroBatches:
    """The case's micro-batches: (input_ids, labels, loss_mask) per micro-batch, on the CPU until a call places them."""

    items: tuple[tuple[torch.Tensor, torch.Tensor, torch.Tensor], ...]

    def __str__(self) -> str:
        parts = [f"[{ids.shape[0]}, {ids.shape[1]}] n={int(mask.sum())}" for ids, _, mask in self.items]
        return tr("{k} micro-batches (input_ids, labels, loss_mask): {shapes}; N = {N}", k=len(self.items),
                  shapes=", ".join(parts), N=self.valid)

    @property
    def valid(self) -> int:
        return sum(int(mask.sum()) for _, _, mask in self.items)


class MicroLM(nn.Module):
    """The learner's model: logits [b, T, V] for input_ids [b, T]; each call is recorded."""

    def __init__(self, spec: ModelSpec):
        super().__init__()
        w = {name: t.to(spec.dtype, copy=True) for name, t in _weights(spec.seed).items()}
        self.tok = nn.Embedding(VOCAB, WIDTH, _weight=w["tok.weight"])  # _weight: no initialisation drawn
        self.pos = nn.Embedding(MAX_T, WIDTH, _weight=w["pos.weight"])
        self.hidden = _linear(w["hidden.weight"], w["hidden.bias"])
        self.head = _linear(w["head.weight"], w["head.bias"])

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        b, T = _check_ids(input_ids, self.tok.weight)
        x = self.tok(input_ids) + self.pos.weight[:T]  # (b, T, C)
        logits = self.head(torch.tanh(self.hidden(x)))  # (b, T, V)
        record = _RECORDS.get(self)
        if record is not None:
            forward = sum(1 for event in record if event[0] == FORWARD)
            record.append((FORWARD, _source(self, input_ids), b, T))
            if logits.requires_grad:
                logits.register_hook(lambda grad: record.append((GRADIENT, forward, 0, 0)))
        return logits


@functools.lru_cache(maxsize=256)
def _weights(seed: int) -> dict[str, torch.Tensor]:
    """The weights of the model of `seed`, in float64 (a check builds each case's model twice: the learner's and the
    full-batch step's). Callers copy them: the optimizer writes into the parameters."""
    g = torch.Generator().manual_seed(seed)
    return {name: (1.0 if name.startswith(("tok", "pos")) else 0.6) * torch.randn(shape, generator=g, dtype=torch.float64)
            for name, shape in PARAMS.items()}


def _linear(weight: torch.Tensor, bias: torch.Tensor) -> nn.Linear:
    """An nn.Linear holding these tensors, without the random initialisation nn.Linear.__init__ draws and discards."""
    layer = nn.Linear.__new__(nn.Linear)
    nn.Module.__init__(layer)
    layer.in_features, layer.out_features = weight.shape[1], weight.shape[0]
    layer.weight, layer.bias = nn.Parameter(weight), nn.Parameter(bias)
    return layer


def _check_ids(ids: Any, weight: torch.Tensor) -> tuple[int, int]:
    """The shape of a call's input_ids, or a ValueError that says what the call was and what the model takes."""
    if not isinstance(ids, torch.Tensor):
        raise ValueError(tr("the model was called with {what}; it takes input_ids, an int64 tensor [b, T]",
                            what=type(ids).__name__))
    if ids.dim() != 2 or ids.shape[0] == 0 or not 1 <= ids.shape[1] <= MAX_T:
        raise ValueError(tr("the model was called with input_ids of shape {shape}; it takes [b, T] with b ≥ 1 and "
                            "1 ≤ T ≤ {max}", shape=tuple(ids.shape), max=MAX_T))
    if ids.dtype != torch.int64:
        raise ValueError(tr("the model was called with input_ids of dtype {dtype}; token ids are int64",
                            dtype=str(ids.dtype).removeprefix("torch.")))
    if ids.device != weight.device:
        raise ValueError(tr("the model was called with input_ids on {device}, the model is on {model}",
                            device=ids.device, model=weight.device))
    return ids.shape[0], ids.shape[1]


def _source(model: MicroLM, ids: torch.Tensor) -> int:
    """The micro-batch whose input_ids a call was given (the same tensor, or equal values), or -1."""
    sources = _SOURCES.get(model, ())
    with torch._C.DisableTorchFunction():  # kata's own bookkeeping: no device rule applies to it
        for j, source in enumerate(sources):
            if source.shape == ids.shape and source.data_ptr() == ids.data_ptr():
                return j
        for j, source in enumerate(sources):
            if source.shape == ids.shape and torch.equal(source, ids):
                return j
    return -1


# Each model's record and the micro-batches' input_ids it may be called with, kept out of the model object.
_RECORDS: "weakref.WeakKeyDictionary[MicroLM, list[tuple[int, int, int, int]]]" = weakref.WeakKeyDictionary()
_SOURCES: "weakref.WeakKeyDictionary[MicroLM, list[torch.Tensor]]" = weakref.WeakKeyDictionary()


def recorded(spec: ModelSpec, optimizer: OptimizerSpec, sources: list[torch.Tensor], device: torch.device
             ) -> tuple[MicroLM, torch.optim.Optimizer, list[tuple[int, int, int, int]]]:
    """The case's model on `device`, its optimizer (every step() recorded), and the record both write to."""
    model = MicroLM(spec).to(device)
    record: list[tuple[int, int, int, int]] = []
    _RECORDS[model] = record
    _SOURCES[model] = list(sources)
    opt = optimizer.build(model.parameters())
    opt.register_step_pre_hook(lambda *_: record.append((STEP, 0, 0, 0)))
    return model, opt, record


def calls_of(model: MicroLM) -> list[tuple[int, int, int, int]]:
    return list(_RECORDS.get(model, ()))


PLAIN_SGD = OptimizerSpec("sgd", (("lr", 0.5),))
MOMENTUM_SGD = OptimizerSpec("sgd", (("lr", 0.3), ("momentum", 0.9), ("weight_decay", 0.1)))
ADAMW_SETTINGS = OptimizerSpec("adamw", (("lr", 0.01), ("weight_decay", 0.01)))


# ---------------------------------------------------------------- drawing cases


def _micro_batch(g: torch.Generator, b: int, T: int, valid: list[int] | None = None, scatter: bool = False):
    """(input_ids, labels, loss_mask) [b, T]: each row's valid tokens a suffix of length valid[r] (a prompt masked
    out before the answer), or scattered at random."""
    ids = torch.randint(0, VOCAB, (b, T), generator=g)
    labels = torch.randint(0, VOCAB, (b, T), generator=g)
    if scatter:
        mask = torch.rand(b, T, generator=g) < uniform(g, 0.3, 0.9)
    else:
        valid = valid if valid is not None else [randint(g, 0, T) for _ in range(b)]
        mask = torch.arange(T)[None, :] >= (T - torch.tensor(valid))[:, None]  # (b, T)
    return ids, labels, mask


def _draw(g: torch.Generator, shapes: list[tuple[int, int]], *, valid: list | None = None, optimizer=PLAIN_SGD,
          dtype: torch.dtype = torch.float32, stale: bool = True, scatter: bool = False, empty: int | None = None
          ) -> Inputs:
    """A case: micro-batches of the given (b, T), each row's valid count from `valid` (a list per micro-batch,
    None: drawn), micro-batch `empty` with no valid token; redrawn until N ≥ 1."""
    while True:
        items = []
        for i, (b, T) in enumerate(shapes):
            rows = [0] * b if i == empty else None if valid is None else valid[i]
            items.append(_micro_batch(g, b, T, rows, scatter and i != empty))
        batches = MicroBatches(tuple(items))
        if batches.valid >= 1:
            break
    model = ModelSpec(randint(g, 0, 2**31 - 1), dtype, stale)
    return Inputs(args={"model": model, "optimizer": optimizer, "micro_batches": batches})


def _case(shapes, **kw):
    return lambda g: _draw(g, shapes, **kw)


def _equal_counts(g: torch.Generator) -> Inputs:
    """Every token valid and every micro-batch the same shape: a mean of micro-batch means is the token mean here."""
    return _draw(g, [(2, 5)] * 3, valid=[[5, 5]] * 3)


def _random(g: torch.Generator) -> Inputs:
    k = pick(g, [1, 2, 2, 3, 3, 4, 5, 6])
    shapes = [(randint(g, 1, 4), randint(g, 1, 12)) for _ in range(k)]
    optimizer = pick(g, [PLAIN_SGD, PLAIN_SGD, MOMENTUM_SGD, MOMENTUM_SGD, ADAMW_SETTINGS, ADAMW_SETTINGS])
    dtype = pick(g, [torch.float32] * 6 + [torch.float64])
    empty = randint(g, 0, k - 1) if k >= 2 and uniform(g, 0, 1) < 0.25 else None
    return _draw(g, shapes, optimizer=optimizer, dtype=dtype, stale=uniform(g, 0, 1) < 0.85,
                 scatter=uniform(g, 0, 1) < 0.4, empty=empty)


FAMILIES = (
    Family("unequal_counts", _case([(2, 6), (2, 6), (2, 6)], valid=[[6, 5], [1, 2], [3, 0]])),
    Family("different_shapes", _case([(1, 9), (3, 4), (2, 7)])),
    Family("one_micro_batch", _case([(3, 7)])),
    Family("empty_micro_batch", _case([(2, 5), (3, 4), (2, 6)], empty=1)),
    Family("empty_first_micro_batch", _case([(2, 4), (2, 6), (1, 5)], empty=0)),
    Family("eight_single_rows", _case([(1, 6)] * 8, valid=[[6], [1], [3], [5], [2], [6], [4], [1]])),
    Family("equal_counts_all_valid", _equal_counts),
    Family("scattered_mask", _case([(3, 8), (2, 8), (4, 3)], scatter=True)),
    Family("row_without_valid_token", _case([(3, 6), (2, 5)], valid=[[0, 4, 6], [2, 0]])),
    Family("sgd_momentum_weight_decay", _case([(2, 6), (3, 4), (1, 8)], optimizer=MOMENTUM_SGD)),
    Family("adamw", _case([(2, 6), (3, 4), (1, 8)], optimizer=ADAMW_SETTINGS)),
    Family("adamw_empty_micro_batch", _case([(2, 5), (2, 6), (3, 3)], optimizer=ADAMW_SETTINGS, empty=2)),
    Family("float64", _case([(2, 6), (3, 4), (1, 8)], dtype=torch.float64)),
    Family("no_stale_gradients", _case([(2, 6), (3, 4), (1, 8)], stale=False)),
    Family("longest_rows", _case([(2, MAX_T), (1, 3)])),
    Family("random", _random, draws=86),
    Family("device", _case([(2, 6), (3, 4), (1, 8)]), track_device=True),
    Family("device_adamw_empty", _case([(2, 5), (2, 6), (3, 3)], optimizer=ADAMW_SETTINGS, empty=1), track_device=True),
)


# ---------------------------------------------------------------- how a case runs


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build the case's model (stale gradients planted), its optimizer and the micro-batches on the run device, call
    entry(model, optimizer, micro_batches), and return (the parameters after the call flattened into one vector in
    PARAMS' order, the loss returned,
    the record of the calls as int64 [events, 4]); extras["inputs"] says which micro-batch tensors were modified."""
    simulated = spec_api.simulated_device(inputs, track_device)
    if simulated is None:
        return _run(entry, inputs, device)
    with Simulation(simulated) as sim:
        outcome = _run(entry, inputs, sim.device)
    return Outcome(sim.report(outcome.value), sim.report(outcome.extras))


def _run(entry, inputs: Inputs, device: torch.device) -> Outcome:
    spec, batches = inputs.args["model"], inputs.args["micro_batches"]
    placed = [tuple(t.clone().to(device) for t in item) for item in batches.items]  # the case's own stay as drawn
    model, optimizer, record = recorded(spec, inputs.args["optimizer"], [ids for ids, _, _ in placed], device)
    if spec.stale:  # the previous batch's gradients, left behind
        g = torch.Generator().manual_seed(spec.seed + 1)
        for p in model.parameters():
            p.grad = torch.randn(p.shape, generator=g, dtype=torch.float64).to(spec.dtype).to(device)
    loss = entry(model, optimizer, list(placed))
    params = torch.cat([p.detach().reshape(-1) for p in model.parameters()])  # PARAMS' order
    calls = torch.tensor(record, dtype=torch.int64).reshape(len(record), 4)
    changed = [f"micro_batches[{i}][{j}]" for i, (item, given) in enumerate(zip(batches.items, placed))
               for j, (before, after) in enumerate(zip(item, given)) if not _same(before, after)]
    return Outcome((params, loss, calls), {"inputs": ", ".join(changed)})


def _same(before: torch.Tensor, after: torch.Tensor) -> bool:
    with torch._C.DisableTorchFunction():
        return before.shape == after.shape and before.dtype == after.dtype and torch.equal(before, after.cpu())


def full_batch_step(model, optimizer, micro_batches):
    """The contract's step, taken as one: L = (1/N)·Σ over every valid token of the whole batch, one backward, one
    step. (The micro-batches' forwards are summed before the backward: rows do not interact, so this is the
    full-batch loss; its record is not judged.)"""
    N = sum(int(mask.sum()) for _, _, mask in micro_batches)
    optimizer.zero_grad(set_to_none=True)
    total = sum(F.cross_entropy(model(ids)[mask], labels[mask], reduction="sum") for ids, labels, mask in micro_batches)
    loss = total / N
    loss.backward()
    optimizer.step()
    return loss.detach()


def expected(kata, entry, inputs: Inputs, device: torch.device) -> list[Outcome]:
    """The full-batch step from the same model and a fresh optimizer of the same kind; the calls the contract's
    order makes (forward, backward per micro-batch, then one step), for the record."""
    outcome = call(kata, full_batch_step, inputs, device)
    params, loss, _ = outcome.value
    events = []
    for i, (_, _, mask) in enumerate(inputs.args["micro_batches"].items):
        b, T = mask.shape
        events += [(FORWARD, i, b, T), (GRADIENT, i, 0, 0)]
    events.append((STEP, 0, 0, 0))
    return [Outcome((params, loss, torch.tensor(events, dtype=torch.int64)), outcome.extras)]


# ---------------------------------------------------------------- how a case is judged

TOLERANCES = {torch.float32: (1e-4, 1e-6), torch.float64: (1e-9, 1e-12)}


def tolerance_for(case, item: str, dtype: torch.dtype, expected: torch.Tensor | None):
    """A parameter's atol grows with its size: atol × max(1, max|p|)."""
    if expected is None or dtype not in TOLERANCES or not item.startswith("params"):
        return None
    rtol, atol = TOLERANCES[dtype]
    return rtol, atol * max(1.0, float(expected.double().abs().max()) if expected.numel() else 1.0)


def compare(kata, case, expected, got):
    """The parameters and the loss, then the calls by the contract's rule (in words), then the inputs."""
    want, _ = split_outputs(kata, expected[0].value)
    have, problems = split_outputs(kata, got.value)
    if have is None:
        return problems
    spec = sys.modules[__name__]
    numbers = numbers_problems(spec, case, want, have)
    problems = list(numbers)
    said = call_problem(case, have["calls"])
    if said is not None:
        if not numbers and said.startswith(_ORDER):
            said = tr("right step and loss, wrong call order: {rule}", rule=said.removeprefix(_ORDER))
        elif not numbers:
            said = tr("right step and loss, wrong calls: {rule}", rule=said)
        else:
            said = said.removeprefix(_ORDER)
        problems.append(Problem("values", "calls", said + "\n" + calls_line(have["calls"])))
    changed = got.extras.get("inputs")
    if changed:
        problems.append(Problem("inplace", "micro_batches", tr("your code modified {items} in place: the micro-batches "
                                                               "are the caller's", items=changed)))
    return problems


def numbers_problems(spec, case, want: dict, have: dict) -> list[Problem]:
    """Every parameter after the step, then the loss."""
    return params_problems(spec, case, want["params"], have["params"]) + loss_problems(spec, case, want["loss"],
                                                                                      have["loss"])


def params_problems(spec, case, expected: TensorValue, got: TensorValue) -> list[Problem]:
    """Each parameter after the step, by name: the flat vectors split back into PARAMS."""
    problems, start = [], 0
    for name, shape in PARAMS.items():
        size = math.prod(shape)
        pieces = [replace(v, data=v.data[start:start + size].reshape(shape), shape=shape) for v in (expected, got)]
        problems += compare_item(spec, case, f"params[{name!r}]", *pieces)
        start += size
    return problems


def read_loss(got, device: str) -> tuple[float, torch.dtype | None, Problem | None]:
    """A returned loss as (its value, its dtype: None for a Python number, a problem with its form or None): a
    Python float, or a 0-dim float tensor on `device`."""
    if isinstance(got, TensorValue) and not got.is_numpy:
        if got.data is not None and not got.data.is_floating_point():
            return math.nan, None, Problem("dtype", "loss", tr("loss is a tensor of dtype {dtype}; expected a float",
                                                               dtype=got.dtype))
        if got.shape != ():
            return math.nan, None, Problem("shape", "loss", tr("loss is a tensor of shape {shape}; expected a 0-dim "
                                                               "tensor or a Python float", shape=tuple(got.shape)))
        if got.device != device:
            return math.nan, None, Problem("device", "loss", tr("loss is on {got}; expected the model's device, "
                                                                "{expected}", got=got.device, expected=device))
        return float(got.data), getattr(torch, got.dtype), None
    if isinstance(got, int) and not isinstance(got, bool):
        return float(got), None, None
    if is_float_scalar(got):
        return float_of(got), None, None
    return math.nan, None, Problem("type", "loss", tr("loss is {got}; expected a 0-dim tensor or a Python float",
                                                      got=describe(got)))


def _close(spec, case, e: float, g: float, dtype: torch.dtype | None) -> bool:
    """Within the tolerance of the loss's own dtype (a Python number: the model's); NaN matches NaN."""
    rtol, atol = spec.TOLERANCES[dtype or case.inputs.args["model"].dtype]
    return g != g and e != e or abs(g - e) <= atol + rtol * abs(e)


def loss_problems(spec, case, expected: TensorValue, got) -> list[Problem]:
    """The loss: its form, then its value."""
    e = float(expected.data)
    g, dtype, problem = read_loss(got, expected.device)
    if problem is not None:
        return [problem]
    if _close(spec, case, e, g, dtype):
        return []
    return [Problem("values", "loss", tr("loss is {got}, expected {expected}: L = (1/N)·Σ of the cross-entropy over "
                                         "every valid token of every micro-batch", got=f"{g:.8g}", expected=f"{e:.8g}"))]


def _events(calls) -> list[tuple[int, int, int, int]]:
    return [tuple(e) for e in calls.data.tolist()] if isinstance(calls, TensorValue) and calls.data is not None else []


_ORDER = "\0"  # marks a sentence about the order of the calls (a backward or a step too late), not their number


def call_problem(case, calls) -> str | None:
    """What the learner's calls did against the contract's rule, in one sentence (starting with _ORDER where the
    order is what is wrong), or None."""
    items = case.inputs.args["micro_batches"].items
    counts = [int(mask.sum()) for _, _, mask in items]
    events = _events(calls)
    forwards = [e for e in events if e[0] == FORWARD]
    if not forwards:
        return tr("the model was never called: one forward per micro-batch, on that micro-batch's input_ids")
    for i, (_, source, rows, T) in enumerate(forwards):
        if source < 0:
            return tr("one forward per micro-batch, on that micro-batch's input_ids: call {i} gave the model input_ids "
                      "of shape {shape}, which are no micro-batch's", i=i, shape=(rows, T))
    for j, n in enumerate(counts):
        times = sum(1 for f in forwards if f[1] == j)
        if times > 1:
            return tr("micro-batch {j} went through the model {n} times: one forward per micro-batch", j=j, n=times)
        if times == 0 and n > 0:
            return tr("micro-batch {j} never went through the model: one forward per micro-batch", j=j)
    needed = [i for i, f in enumerate(forwards) if counts[f[1]] > 0]  # forwards whose backward is owed
    position = {}  # forward index -> position in the events of its first gradient
    starts = [p for p, e in enumerate(events) if e[0] == FORWARD]
    for p, e in enumerate(events):
        if e[0] == GRADIENT and e[1] not in position:
            position[e[1]] = p
    for i in needed:
        if i not in position:
            return tr("no gradient reached the logits of call {i} (micro-batch {j}): every micro-batch with a valid "
                      "token needs its backward", i=i, j=forwards[i][1])
    late = [i for i in needed if i + 1 < len(starts) and position[i] > starts[i + 1]]
    if late:
        if len(needed) > 1 and all(position[i] > starts[-1] for i in needed):
            return _ORDER + tr("run each micro-batch's backward before the next micro-batch's forward (one backward over the "
                      "summed losses keeps every micro-batch's graph alive at once, which is what accumulation exists "
                      "to avoid)")
        i = late[0]
        return _ORDER + tr("the backward of call {i} came after call {next}: run each micro-batch's backward before the next "
                  "micro-batch's forward, so that one micro-batch's graph is alive at a time", i=i, next=i + 1)
    steps = [p for p, e in enumerate(events) if e[0] == STEP]
    if len(steps) != 1:
        if not steps:
            return tr("optimizer.step() was never called: call it once, after the last micro-batch's backward")
        return plural(len(steps), "optimizer.step() was called {n} time; call it exactly once, after the last "
                      "micro-batch's backward", "optimizer.step() was called {n} times; call it exactly once, after "
                      "the last micro-batch's backward")
    last = max(position[i] for i in needed) if needed else -1
    if steps[0] < last:
        return _ORDER + tr("optimizer.step() was called before the last micro-batch's backward: step once, after every "
                  "backward")
    return None


def calls_line(calls, shown: int = 16) -> str:
    """The learner's calls in one short line: Fj a forward on micro-batch j (F? on none), Bi a gradient reaching
    call i's logits, S a step."""
    said = []
    for kind, index, _, _ in _events(calls)[:shown]:
        said.append(("F" + (str(index) if index >= 0 else "?")) if kind == FORWARD else f"B{index}" if kind == GRADIENT
                    else "S")
    more = " …" if len(_events(calls)) > shown else ""
    return "  " + tr("your calls (Fj: a forward on micro-batch j, Bi: a gradient reached call i's logits, S: "
                     "optimizer.step()): {calls}", calls=" ".join(said) + more)


def matches(kata, case, expected, variant, got) -> bool | None:
    """For the namer: the learner's outcome is the variant's when the parameters agree within the case's tolerance
    (float64 at float32's: two writings of one wrong formula), the losses have the same form and value, the calls
    break the same rule and the inputs are modified alike."""
    mine, _ = split_outputs(kata, variant.value)
    theirs, _ = split_outputs(kata, got.value)
    if mine is None or theirs is None:
        return mine is None and theirs is None and describe(variant.value) == describe(got.value)
    spec = _AtFloat32()
    if params_problems(spec, case, mine["params"], theirs["params"]):
        return False
    device = split_outputs(kata, expected[0].value)[0]["loss"].device
    (v, v_dtype, v_problem), (g, g_dtype, g_problem) = read_loss(mine["loss"], device), read_loss(theirs["loss"], device)
    if (v_problem and v_problem.kind) != (g_problem and g_problem.kind):
        return False
    if v_problem is None and not _close(spec, case, v, g, v_dtype or g_dtype):
        return False
    if bool(variant.extras.get("inputs")) != bool(got.extras.get("inputs")):
        return False
    return call_problem(case, mine["calls"]) == call_problem(case, theirs["calls"])


class _AtFloat32:
    """This spec's tolerances with float64 items at float32's, for the namer."""

    TOLERANCES = {torch.float32: TOLERANCES[torch.float32], torch.float64: TOLERANCES[torch.float32]}

    @staticmethod
    def tolerance_for(case, item, dtype, expected):
        found = tolerance_for(case, item, dtype, expected)
        if found is None or dtype != torch.float64:
            return found
        return tolerance_for(case, item, torch.float32, expected)


# ---------------------------------------------------------------- known mistakes


def _accumulate(model, optimizer, micro_batches, *, weight="token", zero="once", steps="once", backward="each",
                concat=False, returned="same", nan=False, skip=False):
    """weight: each micro-batch's term — "token" sum_i / N (the contract), "mean_of_means" mean_i / k, "sum" sum_i,
    "count" sum_i / k, "mask_ignored" every token's CE / Σ b·T, "padded" sum_i / Σ b·T, "per_sequence" each row's
    mean / all rows, "weighted_means" mean_i · n_i / N with no skip (NaN on an empty micro-batch); zero: "once",
    "never", "each" (zero_grad before each backward); steps: "once" | "each"; backward: "each" | "summed";
    returned: "same" (the sum of the terms), "L", "last", "last_mean", "mean_of_means", "cpu" (L as a CPU tensor);
    nan: means over no token are 0/0 = NaN (a micro-batch's or a row's), not skipped; skip: a micro-batch with no
    valid token is left out altogether (no forward, no backward, no step of its own)."""
    k = len(micro_batches)
    N = sum(int(mask.sum()) for _, _, mask in micro_batches)
    cells = sum(mask.numel() for _, _, mask in micro_batches)
    rows = sum(mask.shape[0] for _, _, mask in micro_batches)
    if concat:
        T = max(ids.shape[1] for ids, _, _ in micro_batches)
        micro_batches = [tuple(torch.cat([F.pad(t, (0, T - t.shape[1])) for t in part]) for part in zip(*micro_batches))]
    if zero == "once":
        optimizer.zero_grad()
    terms, sums, means, pending = [], [], [], []
    for ids, labels, mask in micro_batches:
        if skip and not bool(mask.any()):
            continue
        ce = F.cross_entropy(model(ids).flatten(0, 1), labels.flatten(), reduction="none").view(labels.shape)
        n = int(mask.sum())
        valid = (ce * mask).sum()
        if weight == "token":
            term = valid / N
        elif weight == "mean_of_means":
            term = (ce[mask].mean() if nan else valid / max(n, 1)) / k
        elif weight == "sum":
            term = valid
        elif weight == "count":
            term = valid / k
        elif weight == "mask_ignored":
            term = ce.sum() / cells
        elif weight == "padded":
            term = valid / cells
        elif weight == "per_sequence":
            term = ((ce * mask).sum(1) / (mask.sum(1) if nan else mask.sum(1).clamp(min=1))).sum() / rows
        else:  # weighted_means
            term = ce[mask].mean() * n / N
        if n or nan:
            means.append(valid.detach() / n)
        sums.append(valid.detach())
        terms.append(term.detach())
        if backward == "summed":
            pending.append(term)
            continue
        if zero == "each":
            optimizer.zero_grad()
        term.backward()
        if steps == "each":
            optimizer.step()
    if pending:
        sum(pending).backward()
    if steps == "once":
        optimizer.step()
    right = sum(sums) / N  # L, whatever the terms were
    if returned == "same":
        return sum(terms)
    if returned == "last":
        return terms[-1]
    if returned == "last_mean":
        return means[-1]
    if returned == "mean_of_means":
        return torch.stack(means).mean()
    if returned == "cpu":
        return torch.tensor(right.item())
    return right


def _variant(**switches):
    def accumulate_step(model, optimizer, micro_batches):
        return _accumulate(model, optimizer, micro_batches, **switches)
    return accumulate_step


MISTAKES = (
    Mistake("mean_of_means", _variant(weight="mean_of_means")),
    Mistake("mean_of_means", _variant(weight="mean_of_means", nan=True), "nan_on_empty"),
    Mistake("mean_of_means", _variant(weight="mean_of_means", returned="L"), "loss_right"),
    Mistake("sum_not_normalised", _variant(weight="sum")),
    Mistake("sum_not_normalised", _variant(weight="sum", returned="L"), "loss_right"),
    Mistake("divided_by_count", _variant(weight="count")),
    Mistake("divided_by_count", _variant(weight="count", returned="L"), "loss_right"),
    Mistake("mask_ignored", _variant(weight="mask_ignored")),
    Mistake("padded_tokens", _variant(weight="padded")),
    Mistake("per_sequence_mean", _variant(weight="per_sequence")),
    Mistake("per_sequence_mean", _variant(weight="per_sequence", nan=True), "nan_rows"),
    Mistake("step_every_micro_batch", _variant(steps="each")),
    Mistake("step_every_micro_batch", _variant(steps="each", zero="each"), "zero_grad_each"),
    Mistake("step_every_micro_batch", _variant(steps="each", skip=True), "empty_skipped"),
    Mistake("step_every_micro_batch", _variant(steps="each", zero="each", skip=True), "zero_grad_each_empty_skipped"),
    Mistake("no_zero_grad", _variant(zero="never")),
    Mistake("zero_grad_in_loop", _variant(zero="each")),
    Mistake("zero_grad_in_loop", _variant(zero="each", skip=True), "empty_skipped"),
    Mistake("summed_backward", _variant(backward="summed")),
    Mistake("nan_on_empty", _variant(weight="weighted_means")),
    Mistake("last_loss_returned", _variant(returned="last")),
    Mistake("last_loss_returned", _variant(returned="last_mean"), "its_mean"),
    Mistake("mean_of_means_returned", _variant(returned="mean_of_means")),
    Mistake("mean_of_means_returned", _variant(returned="mean_of_means", nan=True), "nan_on_empty"),
    Mistake("loss_without_device", _variant(returned="cpu")),
    Mistake("concatenated", _variant(concat=True)),
)


def _bench(g: torch.Generator) -> Inputs:
    return _draw(g, [(8, MAX_T)] * 32, optimizer=MOMENTUM_SGD)


# `kata check grad-accumulation --bench`: 32 micro-batches of [8, 16] (the model is tiny: the loop's own cost shows).
BENCH = ("32 micro-batches of [8, 16]", _bench)
