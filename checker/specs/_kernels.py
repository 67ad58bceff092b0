"""The spec hooks every Triton kernel kata shares (`needs = "triton"`; the contracts: shared/KATAS-kernels.md).

A kernel kata's spec declares its families, the block bound of a case, its tolerances (the table's, unless it
says otherwise) and its MISTAKES, and takes its hooks from here:

    def block_bound(args: dict) -> int: ...     # the widest load or store a case allows (the block rule)
    call, expected, compare, matches = _kernels.hooks(block_bound)
    MISTAKES = (Mistake("grid_floor", _kernels.lazy("triton_vector_add", "grid_floor")), ...)

- `call` (in the learner's child, and wherever a known mistake runs): the wrapper runs once through
  `kernels.run_guarded`, under Triton's interpreter, on guard-banded copies of the inputs. The outcome carries the
  wrapper's return value and, under extras[GUARD], what the guards saw, as plain data the codec carries: the first
  guard error (kind and message), how many returned elements no kernel stored, the inputs whose bands or values
  changed, the factory calls without device=, and the launches (kernel, grid, signature) for the compile check.
- `expected` (in the parent): the reference, plain torch in float64 rounded once; the parent never imports triton
  to judge.
- `compare`, in the contract's order: a guard error (its message); memory around an input written; an input
  modified; no kernel launched; the device rule; shape and dtype; "k of n returned elements were never stored by
  your kernel"; NaN where the reference has none; values within the tolerances.
- `matches` (the namer): a guard error matches one of the same kind and words; elements never stored match the
  same count; what the guards saw otherwise must agree; a wrong dtype or shape matches the same one; else the values
  decide.

The known mistakes are real wrong wrappers and kernels, in `checker/specs/_kernel_mistakes/<kata module>.py`,
which imports triton: `lazy` names one there, and imports it the first time it is called (the mistakes' child, the
tests), after entering the interpreter. `kata demo` writes out the function it resolves to.
"""
from __future__ import annotations

import contextlib
import importlib
import re
from typing import Any, Callable

from checker.judge import codec, kernel_check, kernels
from checker.judge import spec as spec_api
from checker.judge.compare import compare_outcome
from checker.judge.kernel_check import GUARD
from checker.judge.results import Problem
from checker.text.i18n import tr

MISTAKES_PACKAGE = "checker.specs._kernel_mistakes"
STRUCTURAL = ("type", "structure", "shape", "dtype", "device")
KERNELS_KEPT = 8  # distinct (kernel, signature) launches a case reports for the compile check


# ---------------------------------------------------------------- the known mistakes, loaded when first called


class Lazy:
    """A known mistake's wrapper, `<module>.<name>` under checker/specs/_kernel_mistakes/: its module (which
    imports triton) is imported when the wrapper is first called or written out, in a process that has entered
    Triton's interpreter."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = f"{MISTAKES_PACKAGE}.{module}", name
        self.__qualname__ = self.__name__ = name

    def resolved(self) -> Callable[..., Any]:
        kernel_check.enter()
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolved()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<known mistake {self.module}.{self.name}>"


def lazy(module: str, name: str) -> Lazy:
    return Lazy(module, name)


# ---------------------------------------------------------------- the hooks


def hooks(block_bound: Callable[[dict], int | None], banned_in_torch: tuple[str, ...] = ()
          ) -> tuple[Callable, Callable, Callable, Callable]:
    """(call, expected, compare, matches) for a kernel kata whose cases allow `block_bound(args)` elements a
    load or store. `banned_in_torch`: torch functions the contract bans with their method forms ("var": torch.var
    and x.var()); the check refuses the function by its name before running, but a method's owner is only known
    when it runs, so while the wrapper runs each of them raises a guard error."""

    def call(kata: Any, entry: Any, inputs: spec_api.Inputs, device: Any, track_device: bool = False
             ) -> spec_api.Outcome:
        return run(entry, inputs, block_bound(inputs.args), banned_in_torch)

    def expected(kata: Any, entry: Any, inputs: spec_api.Inputs, device: Any) -> list[spec_api.Outcome]:
        return [spec_api.Outcome(entry(**dict(inputs.args)))]

    return call, expected, compare, matches


def run(entry: Any, inputs: spec_api.Inputs, bound: int | None, banned_in_torch: tuple[str, ...] = ()
        ) -> spec_api.Outcome:
    """The wrapper run once under the guards: its value, and what the guards saw under extras[GUARD]."""
    kernel_check.enter()
    with _refused(banned_in_torch):
        guarded = kernels.run_guarded(entry, dict(inputs.args), block_bound=bound)
    return spec_api.Outcome(guarded.value if guarded.error is None else None, {GUARD: record(guarded)})


@contextlib.contextmanager
def _refused(names: tuple[str, ...]):
    """torch.<name> and the Tensor method <name>, for each of `names`, raise a guard error ("banned") while this
    lasts: a layernorm wrapper that takes x.var() in torch and hands the kernel only the normalising."""
    import torch

    # (owner, name, its own attribute or None where it inherits one: torch.Tensor's methods live on TensorBase)
    saved = [(owner, name, vars(owner).get(name)) for name in names for owner in (torch, torch.Tensor)
             if hasattr(owner, name)]

    def refusing(name: str) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise kernels.GuardError("banned", tr(
                "your wrapper computes {name}() with torch, which this kata bans (torch.{name} and the .{name}() "
                "method): the statistics are your kernel's to compute", name=name))
        return refuse

    for owner, name, _ in saved:
        setattr(owner, name, refusing(name))
    try:
        yield
    finally:
        for owner, name, original in saved:
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)


def record(guarded: Any) -> dict[str, Any]:
    """What the guards saw, as plain data (strings, numbers, lists, dicts) for the codec."""
    error = guarded.error
    value = guarded.value
    kernels_seen: list[dict] = []
    keys: set[str] = set()
    programs = 0
    for launch in guarded.launches:
        grid = [int(g) for g in launch.grid]
        programs += grid[0] * grid[1] * grid[2]
        signature = dict(launch.signature)  # plain already: "*fp32", "i32", {"constexpr": 64}
        key = launch.kernel + repr(sorted(signature.items()))
        if key not in keys and len(kernels_seen) < KERNELS_KEPT:
            keys.add(key)
            kernels_seen.append({"kernel": str(launch.kernel), "grid": grid, "signature": signature})
    return {
        "error": None if error is None else [str(error.kind), str(error.message)],
        "unstored": int(guarded.unstored),
        "rewritten": int(getattr(guarded, "rewritten", 0)),
        "total": int(value.numel()) if hasattr(value, "numel") and error is None else 0,
        "around": sorted(str(n) for n in guarded.around),
        "modified": sorted(str(n) for n in guarded.modified),
        "aliases": sorted(str(n) for n in getattr(guarded, "aliases", ())),
        "no_device": [str(c) for c in guarded.no_device][:4],
        "launches": len(guarded.launches),
        "programs": programs,
        "kernels": kernels_seen,
    }


def seen(outcome: spec_api.Outcome) -> dict[str, Any]:
    """What the guards saw of an outcome (an empty record for one that has none: the reference's)."""
    found = outcome.extras.get(GUARD)
    return found if isinstance(found, dict) else {}


def compare(kata: Any, case: spec_api.Case, expected: list[spec_api.Outcome], got: spec_api.Outcome) -> list[Problem]:
    """The contract's order: the first rule broken is the report (one problem, or the value problems)."""
    guard = seen(got)
    error = guard.get("error")
    if error:
        return [Problem("rule", "", str(error[1]))]
    around = guard.get("around") or []
    if around:
        return [Problem("inplace", f"input {around[0]}", tr(
            "your kernel wrote into the memory around the input '{name}' (a load's or store's lane past its end or "
            "before its start): mask every access to the tensor's own elements", name=around[0]))]
    modified = guard.get("modified") or []
    if modified:
        return [Problem("inplace", f"input {modified[0]}", tr(
            "your kernel modified the input '{name}' in place: store the result into a new tensor the wrapper "
            "allocates (torch.empty_like(x)), not into an input", name=modified[0]))]
    aliases = guard.get("aliases") or []
    if aliases:
        return [Problem("inplace", f"input {aliases[0]}", tr(
            "your wrapper returned the input '{name}' (or a view of it) as the result: return a new tensor the "
            "wrapper allocates (torch.empty_like(x))", name=aliases[0]))]
    if not guard.get("launches"):
        return [Problem("rule", "", tr("your wrapper launched no kernel: the result must come from a @triton.jit "
                                       "kernel launched as kernel[grid](...)"))]
    no_device = guard.get("no_device") or []
    if no_device:
        return [Problem("device", "", tr(
            "{call} makes a tensor on the CPU whatever the inputs' device: on a GPU your kernel would be handed a host "
            "pointer. Allocate with device=x.device, or torch.empty_like(x)", call=no_device[0]))]
    want, have = expected[0].value, got.value
    if isinstance(want, codec.TensorValue) and isinstance(have, codec.TensorValue) and have.shape == want.shape \
            and have.dtype != want.dtype:  # said for a kernel: a cast after the launch would not be stored by it
        return [Problem("dtype", kata.outputs[0], tr(
            "{item} has dtype {got}, expected {expected}: allocate the output in the inputs' dtype (torch.empty_like(x), "
            "or dtype=x.dtype); the kernel's store converts what it computes", item=kata.outputs[0], got=have.dtype,
            expected=want.dtype))]
    problems = compare_outcome(kata, importlib.import_module(kata.spec_module), case, expected[0], got)
    structural = [p for p in problems if p.kind in STRUCTURAL]
    if structural:
        return structural
    unstored, total = int(guard.get("unstored") or 0), int(guard.get("total") or 0)
    if unstored:
        return [Problem("rule", "", tr("{k} of {n} returned elements were never stored by your kernel: every element "
                                       "of the result must be written by a kernel the wrapper launched (a grid too "
                                       "small, a dropped tail, or torch computing the result after the launch?)",
                                       k=f"{unstored:,}", n=f"{total:,}"))]
    rewritten = int(guard.get("rewritten") or 0)
    if rewritten:
        return [Problem("rule", "", tr("{k} of {n} returned elements were changed after your kernel stored them: torch "
                                       "finished the result after the launch (out /= …, out.div_(…), out += …). The "
                                       "kernel must store the final values; do that step inside it",
                                       k=f"{rewritten:,}", n=f"{total:,}"))]
    return problems


def matches(kata: Any, case: spec_api.Case, expected: list[spec_api.Outcome], variant: spec_api.Outcome,
            got: spec_api.Outcome) -> bool | None:
    """Whether the learner's outcome is the variant's: the same guard error (kind and words), the same count of
    elements never stored, the same inputs touched, the same device slip, a launch or none; where all that agrees
    and nothing ended the call, a wrong dtype or shape matches the same one, and otherwise the values decide (None:
    the namer's own comparison)."""
    mine, theirs = seen(variant), seen(got)
    if _rules(mine) != _rules(theirs):
        return False
    if mine.get("error") or mine.get("unstored") or mine.get("rewritten"):
        return True
    want = _layout(expected[0].value)
    if _layout(variant.value) != want or _layout(got.value) != want:  # a wrong dtype or shape is the report
        return _layout(variant.value) == _layout(got.value)
    return None


def _layout(value: Any) -> Any:
    return (tuple(value.shape), value.dtype) if isinstance(value, codec.TensorValue) else type(value).__name__


def _rules(guard: dict[str, Any]) -> tuple:
    error = guard.get("error")
    return ((error[0], _words(error[1])) if error else None, int(guard.get("unstored") or 0),
            int(guard.get("rewritten") or 0),
            tuple(guard.get("around") or ()), tuple(guard.get("modified") or ()), tuple(guard.get("aliases") or ()),
            bool(guard.get("no_device")), bool(guard.get("launches")))


_PROGRAM = re.compile(r"\(\d+, \d+, \d+\)")


def _words(message: str) -> str:
    """A guard's message without what two writings of one slip need not share, in any language: the code it quotes
    (`torch.empty_like(x)`: the learner's and a variant's allocations are written differently) and every count —
    how many lanes strayed out of bounds (lanes that land inside another tensor passed to the launch are in bounds,
    and where the allocator put the tensors differs from process to process: 212 lanes in one run, 148 in another),
    the width of an access wider than the block rule (a block fixed at 256 or at 1024 is one slip), a race's count.
    The program ids stay (an unmasked x fails in the last row's program, an unmasked weight in the first), and so
    do the words: load or store, out of bounds, a race."""
    words = re.sub(r"`[^`]*`", "`…`", str(message))
    programs = _PROGRAM.findall(words)
    return " ".join(programs) + " " + re.sub(r"\d[\d,.]*", "#", _PROGRAM.sub("()", words))


__all__ = ["GUARD", "Lazy", "compare", "hooks", "lazy", "matches", "record", "run", "seen"]
