"""Name the likely mistake — only when it is the right name.

A kata's known wrong variants (`MISTAKES` in its spec) are run on some of the cases the learner's
file failed and on some it passed. A variant explains the file when

    - on every examined failing case the variant is wrong too (the checker's own verdict), and the
      learner's output matches the variant's (same structure, values within the case's tolerance,
      the same inputs modified in place or not);
    - on every examined passing case the variant is right too: a variant that is wrong where the
      learner is right is another function, however well it matched the failures (unless the spec's
      `matches` hook finds it gave the learner's own answer there: integers rounded at a jump of the
      variant's rounding go either way in two writings of one mistake).

The report names a mistake only when exactly one variant explains the file; a report that names
nothing is better than one that names the wrong mistake (two mistakes at once, or one that no
variant models, are left unnamed). The name is one per run: every examined failing case carries it.

A case on which the learner's code raised an exception is evidence too (a file written for another
layout, `[B, L, H, D]` for rope or `[N, L, C]` for a 3-D BatchNorm input, raises where the shapes make
that layout impossible and gives wrong values where they happen to fit). The rule for crashes:

    - on every examined crashing case (one the learner's code raised on, an exception in that case,
      not a timeout, memory or process failure) the variant raises too (any exception): it makes
      the same assumption, so the same shapes break it;
    - a file that gave no wrong answer (it raised wherever it did not pass: a bad view, `multinomial` on a
      row of zeros, a shape that does not broadcast) is named from its crashes alone only by a variant that
      raises the same exception type on every examined crashing case, and is right on the passing ones;
    - where the learner answered (every examined failing and passing case) the variant answers too,
      as before: a variant that raises where the learner did not is another function.

So a variant explains a crashing file only when it crashes exactly where the learner's did, among
the cases examined; a variant that cannot run a case the learner failed is dropped (never a guess).

Several variants may share one key: two ways people write the same slip (the biased variance with
`x.var(unbiased=False)` or by hand give one function; running statistics updated in eval and
normalised with the updated or the old ones give two), or a slip together with a lesser one it
usually comes with (interleaved RoPE pairs with `start_pos` ignored: the pairing is named, the first
thing to fix). "Exactly one" counts keys: when every surviving variant carries the same key, that
key is named.

When a mistake is named, every float64 case that the comparison called "close at float32's level" (the
precision diagnosis) is said as a plain mismatch instead: the named mistake explains the gap (a
LayerNorm without eps is off by eps/var, which can look like rounding, and has no float32 step).

The variants run in a child forked after the check, from kata's own code only (never the learner's),
so the child can judge in place and send back one verdict. Train-mode dropout draws the same random
numbers as the learner's run did: the generator is reset to that case's seed before each variant.
"""
from __future__ import annotations

import copy
import math
import time
from dataclasses import replace
from typing import Any

import numpy as np
import torch

from checker.judge import codec
from checker.judge import spec as spec_api
from checker.judge.promotion import MADE_AT
from checker.judge.compare import (compare_outcome, describe, float_of, is_float_scalar, item_words, split_outputs,
                                   verdict_only)
from checker.text.i18n import tr
from checker.judge.results import CaseResult, Problem, Status
from checker.judge.worker import reset_global_state, send

SHOWN_FAILING = 3  # the failing cases a report shows in full: always examined
MAX_FAILING = 8  # then one more per failing family, up to this many
MAX_PASSING = 40  # passing cases checked for the surviving variants: one per named family first
MAX_FURTHER = 24  # failing cases examined further, only while several variants still explain the learner
SECONDS = 10.0
# A kernel kata's variants are Triton kernels run under the interpreter, program after program: a few cases of them
# cost what a torch kata's whole naming does (measured at load 15 on 2 cores: flash-attention's drills went unnamed
# at 10 s in one run of three). The limit only bounds a naming that cannot finish; a named report is worth the wait.
KERNEL_SECONDS = 30.0
# A case's error that a variant raising can stand for: an exception raised in the case, not the
# process running out of time or memory, nor a refusal of the sandbox.
NOT_A_CRASH = ("Stopped", "MemoryError", "SystemExit", "KeyboardInterrupt", "ImportError")


def name_mistakes(run: Any, results: list[CaseResult]) -> list[CaseResult]:
    """The results with the known mistake that alone explains them named on its cases (`choose`, run in a child:
    the variants are code like the learner's), or as they were."""
    mistakes = tuple(getattr(run.spec, "MISTAKES", ()))
    failing = examined_failing(run, results)
    crashing = examined_crashing(run, results)
    if not mistakes or not _evidence(results, failing, crashing):
        return results

    def body(fd: int) -> None:
        send(fd, {"m": "named", "index": choose(run, results)})

    stream = run.children.fork(body)
    limit = KERNEL_SECONDS if getattr(run.kata, "needs", None) == "triton" else SECONDS
    run.children.collect([stream], time.monotonic() + limit)
    verdict = stream.has("named")
    index = verdict[0].get("index") if verdict else None
    if not isinstance(index, int) or not 0 <= index < len(mistakes):
        return results
    said = run.kata.text().mistakes.get(mistakes[index].key)
    label, fix = (said.label, said.fix) if said else (mistakes[index].key, None)
    named = {case.name for case in failing} | {case.name for case in crashing}
    # the named mistake explains the gaps: no failing case of the run is said to be float32 rounding
    return [replace(r, mistake=label, mistake_hint=fix, problems=_plain(r.problems)) if r.name in named else
            replace(r, problems=_plain(r.problems)) for r in results]


def choose(run: Any, results: list[CaseResult]) -> int | None:
    """The index of the known mistake that alone explains the learner's `results`, or None: `explain` held to the
    cases a report shows (examined_failing), the failing cases further on while several variants are left, the
    cases the learner's code raised on, and the passing cases. Runs the variants in this process: the check runs
    it in a child; the tests call it directly, so they name as the check does."""
    written = in_convention(run, tuple(getattr(run.spec, "MISTAKES", ())))
    mistakes = tuple(m for _, m in written)
    failing = examined_failing(run, results)
    crashing = examined_crashing(run, results)
    if not mistakes or not _evidence(results, failing, crashing):
        return None
    inplace = {r.name for r in results if any(p.kind == "inplace" for p in r.problems)}
    raised = {r.name: r.error.type for r in results if r.error is not None}
    found = explain(run, mistakes, failing, examined_passing(run, results), inplace,
                    further_failing(run, results, failing), crashing, raised)
    return None if found is None else written[found][0]


def in_convention(run: Any, mistakes: tuple[Any, ...]) -> list[tuple[int, Any]]:
    """(index in MISTAKES, variant) for each known mistake as written under the conventions the file may follow (a
    kata with several right conventions): the one the run was judged in when the file matches it on more cases than
    any other, else each of them (a file that fails every case says nothing of its convention), so a slip is named
    whichever convention the file follows. The copies of one mistake share its key, so they count as one."""
    conventions = getattr(run.spec, "CONVENTIONS", ())
    chosen = getattr(run, "convention", None)
    if not conventions or chosen is None:
        return list(enumerate(mistakes))
    followed = getattr(run, "followed", None) or (chosen,)
    return [(i, m if conventions[c].adapt is None else replace(m, fn=conventions[c].adapt(m.fn)))
            for c in followed for i, m in enumerate(mistakes)]


def _evidence(results: list[CaseResult], failing: list, crashing: list) -> bool:
    """Whether there is anything to name from: a failing case, or crashes beside passing cases (a file that raises
    everywhere, a stub, says nothing of the function it computes)."""
    return bool(failing) or bool(crashing) and any(r.status is Status.PASS for r in results)


def _plain(problems: tuple[Problem, ...]) -> tuple[Problem, ...]:
    """The precision diagnosis said as a plain mismatch: the named mistake explains the gap."""
    said = []
    for p in problems:
        if p.kind == "precision" and p.mismatch is not None:
            p = replace(p, kind="values", message=tr("{item} differs: {n} of {total} values are out of tolerance",
                                                     item=item_words(p.item), n=p.mismatch.mismatched,
                                                     total=p.mismatch.total))
        said.append(p)
    return tuple(said)


def examined_failing(run: Any, results: list[CaseResult]) -> list[spec_api.Case]:
    """The failing cases the report shows, then one per further failing family."""
    cases = {c.name: c for c in run.cases}
    failing = [r for r in results if r.status is Status.FAIL and r.name in run.got and r.name in cases]
    return [cases[r.name] for r in _shown_then_one_per_family(failing)]


def examined_crashing(run: Any, results: list[CaseResult]) -> list[spec_api.Case]:
    """The cases the learner's code raised an exception on: the first few, then one per further family."""
    cases = {c.name: c for c in run.cases}
    crashed = [r for r in results if r.status is Status.ERROR and r.error is not None and r.name in cases
               and r.error.type not in NOT_A_CRASH and r.name not in run.got]
    return [cases[r.name] for r in _shown_then_one_per_family(crashed)]


def _shown_then_one_per_family(results: list[CaseResult]) -> list[CaseResult]:
    """The first SHOWN_FAILING results, then the first of each further family, MAX_FAILING in all."""
    chosen = results[:SHOWN_FAILING]
    families = {r.family for r in chosen}
    for r in results[SHOWN_FAILING:]:
        if len(chosen) >= MAX_FAILING:
            break
        if r.family not in families:
            chosen.append(r)
            families.add(r.family)
    return chosen


def examined_passing(run: Any, results: list[CaseResult]) -> list[spec_api.Case]:
    """Passing cases to hold the surviving variants to: one per family (named families first, as
    they sit in the spec), then further random draws."""
    cases = {c.name: c for c in run.cases}
    passing = [cases[r.name] for r in results if r.status is Status.PASS and r.name in run.got and r.name in cases]
    first, rest, seen = [], [], set()
    for case in passing:
        (rest if case.family.name in seen else first).append(case)
        seen.add(case.family.name)
    first.sort(key=lambda c: c.family.name.startswith("random"))  # stable: the spec's order otherwise
    return (first + rest)[:MAX_PASSING]


def further_failing(run: Any, results: list[CaseResult], examined: list[spec_api.Case]) -> list[spec_api.Case]:
    """Failing cases not examined yet, one per family first: evidence to tell apart variants that all
    explain the examined ones (a full score matrix and a fixed block look alike while Lk fits one block)."""
    cases = {c.name: c for c in run.cases}
    seen = {c.name for c in examined}
    families = {c.family.name for c in examined}
    rest = [cases[r.name] for r in results if r.status is Status.FAIL and r.name in run.got and r.name in cases
            and r.name not in seen]
    first = [c for c in rest if c.family.name not in families and not families.add(c.family.name)]
    return (first + [c for c in rest if c not in first])[:MAX_FURTHER]


def explain(run: Any, mistakes: tuple[Any, ...], failing: list[spec_api.Case], passing: list[spec_api.Case],
            inplace: set[str], further: list[spec_api.Case] = (), crashing: list[spec_api.Case] = (),
            raised: dict[str, str] | None = None) -> int | None:
    """The index of the one variant that explains the learner's results, or None. Runs in process:
    the check runs it in a child; tests call it directly. While several variants explain the examined
    failing cases, the `further` failing cases are examined too, until one is left. On the `crashing`
    cases (the learner's code raised) a variant must raise too; where the learner gave no wrong answer at all, it
    must raise what the learner's code raised (`raised`: each crashing case's exception type), the only evidence
    there is. Variants that share a key count as one."""
    position = {c.name: i for i, c in enumerate(run.cases)}
    alive = list(range(len(mistakes)))

    def hold_to(case: spec_api.Case) -> None:
        for m in list(alive):
            outcome, modified = attempt(run, mistakes[m].fn, case, position.get(case.name, 0))
            if outcome is None or not (modified or _wrong(run, case, outcome)):
                alive.remove(m)  # it raised where the learner gave an answer, or it is right where the learner is not
            elif modified != (case.name in inplace) or not _matches(run, case, outcome, run.got[case.name]):
                alive.remove(m)

    def settled() -> bool:
        return len({mistakes[m].key for m in alive}) <= 1

    for case in failing:
        hold_to(case)
        if not alive:
            return None
    if not failing and not crashing:
        return None
    for case in crashing:
        for m in list(alive):
            outcome, _, error = _attempt(run, mistakes[m].fn, case, position.get(case.name, 0))
            if outcome is not None:
                alive.remove(m)  # it answers where the learner's code raised: another assumption
            elif not failing and error != (raised or {}).get(case.name):
                alive.remove(m)  # named from crashes alone: it must break the same way
        if not alive:
            return None
    for case in further:
        if settled():
            break
        hold_to(case)
        if not alive:
            return None
    for case in passing:
        for m in list(alive):
            outcome, modified = attempt(run, mistakes[m].fn, case, position.get(case.name, 0))
            if outcome is None or modified or _wrong(run, case, outcome) and not _alike(run, case, outcome):
                alive.remove(m)  # wrong where the learner is right: another function
        if not alive:
            return None
    return alive[0] if alive and settled() else None


def attempt(run: Any, fn: Any, case: spec_api.Case, position: int) -> tuple[spec_api.Outcome | None, bool]:
    """Run a variant on a case as the learner's file was run: (its outcome as the parent would have
    decoded it, or None if it raised; whether it modified an input in place)."""
    outcome, modified, _ = _attempt(run, fn, case, position)
    return outcome, modified


def _attempt(run: Any, fn: Any, case: spec_api.Case, position: int) -> tuple[spec_api.Outcome | None, bool, str | None]:
    """`attempt`, and the name of the exception type the variant raised (None when it answered)."""
    inputs = copy.copy(case.inputs)
    inputs.args = copy.deepcopy(case.inputs.args)  # a variant that writes into its inputs spoils no other
    device = torch.device("cpu") if case.device_independent else run.device
    reset_global_state(case.seed ^ position)  # the learner's child drew its dropout masks from this state
    try:
        outcome = getattr(run.spec, "call", spec_api.call)(run.kata, fn, inputs, device,
                                                            track_device=case.family.track_device)
    except Exception as exc:  # noqa: BLE001 — a variant that cannot run this case explains nothing, but how it broke
        return None, False, type(exc).__name__
    modified = any(_changed(before, outcome.args.get(name)) for name, before in case.inputs.args.items())
    decoded = roundtrip(outcome)
    if not modified and getattr(run.spec, "compare", None) is not None and case.name in run.expected:
        # a spec that checks writes itself (kv caches); a case the learner crashed on has no answers kept
        judged = run.spec.compare(run.kata, case, run.expected[case.name], decoded) or []
        modified = any(p.kind == "inplace" for p in judged)
    return decoded, modified, None


def roundtrip(outcome: spec_api.Outcome) -> spec_api.Outcome:
    """What the parent sees of an outcome: encoded as a child sends it, and decoded."""
    buffers: list[bytes] = []
    value = codec.encode(outcome.value, buffers)
    extras = {k: codec.encode(v, buffers) for k, v in outcome.extras.items()}
    return spec_api.Outcome(codec.decode(value, buffers), {k: codec.decode(v, buffers) for k, v in extras.items()},
                            convention=outcome.convention)


def _changed(before: Any, after: Any) -> bool:
    """Whether the call changed an input: its values, or its shape or dtype (`unsqueeze_`, `resize_`, `.data =`)."""
    if isinstance(before, torch.Tensor) and isinstance(after, torch.Tensor):
        if before.shape != after.shape or before.dtype != after.dtype:
            return True
        if after.device.type == "meta":
            return False
        return not torch.equal(before, after.detach().cpu().to(before.dtype))
    if isinstance(before, np.ndarray) and isinstance(after, np.ndarray):
        if before.shape != after.shape or before.dtype != after.dtype:
            return True
        return not np.array_equal(before, after, equal_nan=before.dtype.kind == "f")
    return False


def _wrong(run: Any, case: spec_api.Case, outcome: spec_api.Outcome) -> bool:
    """The checker's own verdict on the variant: the spec's compare hook and every accepted answer."""
    with verdict_only():
        return bool(run._compare(case, run.expected[case.name], outcome))


def _alike(run: Any, case: spec_api.Case, variant: spec_api.Outcome) -> bool:
    """Whether a variant that is wrong where the learner is right still gave the learner's answer, so that the case
    cannot tell them apart. The spec's `matches` hook says so where it has a verdict: integers rounded from values on
    a jump of the variant's own rounding go either way in two writings of one mistake (int8-quant). Otherwise only in
    half precision, within the case's tolerance (`_matches`): two writings of one float16 function can land just
    inside and just outside the tolerance (the Annotated Transformer's LayerNorm, whose unbiased std barely matters
    at D = 512, passed a float16 case its own variant failed). In float32 and float64 such a case is evidence: a
    variant that computes in float32 is wrong where a float32 constant is not, and must not stay beside it."""
    hook = getattr(run.spec, "matches", None)
    if hook is not None:
        verdict = hook(run.kata, case, run.expected[case.name], variant, run.got[case.name])
        if verdict is not None:
            return bool(verdict)
    return _in_half(run.got[case.name]) and _matches(run, case, variant, run.got[case.name])


def _in_half(outcome: spec_api.Outcome) -> bool:
    """Whether the outcome holds a float16 or bfloat16 tensor (its value, or any item of it)."""
    def half(v: Any) -> bool:
        if isinstance(v, codec.TensorValue):
            return v.dtype in ("float16", "bfloat16")
        if isinstance(v, (tuple, list)):
            return any(map(half, v))
        if isinstance(v, dict):
            return any(map(half, v.values()))
        return False
    return half(outcome.value) or any(map(half, outcome.extras.values()))


def _matches(run: Any, case: spec_api.Case, variant: spec_api.Outcome, got: spec_api.Outcome) -> bool:
    """Whether the learner's output is the variant's, within the case's tolerance. A variant whose
    output has the wrong shape is recognised by its shapes: the learner's output must have the same
    structure, shapes, dtypes and devices (what a wrongly shaped output holds is not the point).

    A spec with several right answers says itself, with a `matches` hook, whether the two outcomes are one
    function's: draws of one distribution, not equal draws (sample-token); integers rounded at ties either
    way (int8-quant); None: this rule."""
    hook = getattr(run.spec, "matches", None)
    if hook is not None:
        verdict = hook(run.kata, case, run.expected[case.name], variant, got)
        if verdict is not None:
            return bool(verdict)
    mine, _ = split_outputs(run.kata, variant.value)
    theirs, _ = split_outputs(run.kata, got.value)
    if _plain_extras(variant) != _plain_extras(got):
        return False  # what the spec found in words differs (lora: the state_dict keys a module lacks or adds)
    if mine is None or theirs is None:  # a wrong structure: the learner's must be alike
        return mine is None and theirs is None and describe(variant.value) == describe(got.value)
    want, _ = split_outputs(run.kata, run.expected[case.name][0].value)
    if want is not None and any(_shape(mine[n]) != _shape(want[n]) for n in mine):
        return all(_signature(mine[n]) == _signature(theirs[n]) for n in mine)
    judged = {name for e in run.expected[case.name] for name in e.extras}  # what the checker compares at all
    variant = spec_api.Outcome(_overflowed(variant.value), {k: _overflowed(v) for k, v in variant.extras.items() if k in judged})
    got = spec_api.Outcome(_overflowed(got.value), {k: _overflowed(v) for k, v in got.extras.items()})
    with verdict_only():
        return not compare_outcome(run.kata, _AtFloat32(run.spec), case, variant, got)


def _overflowed(value: Any) -> Any:
    """Every non-finite value as NaN: where a formula overflows, whether inf or NaN comes out depends on
    the order of operations (inf - inf, inf / inf), not on the formula."""
    if isinstance(value, tuple):
        return tuple(_overflowed(v) for v in value)
    if is_float_scalar(value) and not isinstance(value, codec.TensorValue) and not math.isfinite(float_of(value)):
        return float("nan")  # a float result (a loss): inf and NaN alike, as in arrays
    if isinstance(value, codec.TensorValue) and value.data is not None and value.data.is_floating_point():
        data = value.data
        if not bool(torch.isfinite(data).all()):
            return replace(value, data=torch.where(torch.isfinite(data), data, torch.full_like(data, float("nan"))))
    return value


class _AtFloat32:
    """The spec, with float64 items compared at float32's tolerance: two implementations of one wrong
    formula (Hugging Face's float32 cast and the variant of it) agree to float32 rounding, not beyond,
    when the formula itself leaves float64. Which variant the learner wrote is the question, not its digits."""

    def __init__(self, spec: Any):
        self._spec = spec

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spec, name)

    def tolerance_for(self, case: Any, item: str, dtype: torch.dtype, expected: Any) -> tuple[float, float]:
        rtol, atol = spec_api.tolerance(self._spec, case, dtype, item, expected)
        if dtype == torch.float64:
            loose = spec_api.TOLERANCES[torch.float32]
            return max(rtol, loose[0]), max(atol, loose[1])
        return rtol, atol


def _plain_extras(outcome: spec_api.Outcome) -> dict[str, Any]:
    """The extras that are findings in words (strings, numbers, tuples of them), not tensors; not where in its file
    the code made a float64 value (promotion.MADE_AT: a place, which the learner's file and a variant do not share)."""
    def plain(v: Any) -> bool:
        return isinstance(v, (str, int, float, bool)) or isinstance(v, (tuple, list)) and all(map(plain, v))
    return {k: v for k, v in outcome.extras.items() if plain(v) and k != MADE_AT}


def _shape(value: Any) -> Any:
    return value.shape if isinstance(value, codec.TensorValue) else None


def _signature(value: Any) -> Any:
    if is_float_scalar(value):
        return "a float"  # a Python float, a NumPy scalar and a 0-dim array are one float (compare_float_scalar)
    if isinstance(value, codec.TensorValue):
        return value.shape, value.dtype, value.device.split(":")[0], value.is_numpy
    return describe(value)
