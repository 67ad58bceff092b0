"""The mistake namer in the test process: a file judged case by case as the engine judges it, then named by the
engine's own `mistakes.choose` — without forking, so the namer's tests can ask thousands of times.

`judge_in_process` runs the learner's entry point on a seed's cases (all, or the named ones and the first DRAWS
random draws of each random family), compares each with the reference's answers as `_Run._compare` does, and
keeps what the engine keeps: a crash is an ERROR with its exception (evidence for the namer), code a real device
would reject is a FAIL with a device problem, an input changed in place is a problem. The run's cases are the
whole seed's, so positions (and the random numbers each case is seeded with) are those of a real check.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import re
from pathlib import Path
from typing import Any

import torch

from checker.app import demo
from checker.judge import codec, mistakes
from checker.judge import spec as spec_api
from checker.judge.compare import verdict_only
from checker.judge.devices import DeviceProblem
from checker.judge.engine import _Run, accepted
from checker.judge.results import CaseResult, LearnerError, Problem, Status
from checker.judge.worker import Limits, load_entry, reset_global_state
from checker.text import catalog
from tests.conftest import sampled, shared_cases

CPU = torch.device("cpu")
DRAWS = 8  # random draws per random family (the named families all run)


def spec_of(kata: catalog.Kata) -> Any:
    return importlib.import_module(kata.spec_module)


@functools.lru_cache(maxsize=None)
def reference_of(kata: catalog.Kata) -> Any:
    return load_entry(kata.reference_path, kata.entry, f"test_namer_reference_{kata.module}")


def load(path: Path, kata: catalog.Kata) -> Any:
    """A learner's file's entry point, under a module name of its own."""
    return load_entry(path, kata.entry, f"test_namer_{kata.module}_{path.stem}_{abs(hash(str(path)))}")


def written_out(kata: catalog.Kata, mistake: spec_api.Mistake, tmp_path: Path) -> Any:
    """The entry point of `mistake` written out as a learner's file, as `kata demo` writes it."""
    path = tmp_path / f"{kata.module}_{mistake.key}.py"
    path.write_text(demo.variant_source(kata, mistake))
    return load(path, kata)


def declared_mistake(path: Path) -> str | None:
    """The `# mistake: <key>` line of a corpus file ("none": no single variant models it); a drill's is its name."""
    if path.parent.name == "bugs":  # content/<m>/bugs/<key>.py: a drill, which says nothing of its mistake
        return path.stem
    found = re.search(r"^# mistake: (\S+)\s*$", path.read_text(), re.MULTILINE)
    assert found, f"{path}: no '# mistake: <key>' line (write '# mistake: none' when no variant models it)"
    return None if found.group(1) == "none" else found.group(1)


def kata_of(path: Path) -> catalog.Kata:
    """The kata a corpus file or a drill declares on its first line."""
    return catalog.get(path.read_text().splitlines()[0].removeprefix("# kata: ").strip())


def refused(path: Path, kata: catalog.Kata) -> bool:
    """Whether the check refuses the file from its text alone (a banned call, no entry point…): it never runs."""
    from checker.judge import static

    text, finding = static.read_source(path, kata.id)
    return finding is not None or static.inspect(text, path.name, kata.entry, kata.all_banned) is not None


def _inplace(case: spec_api.Case, outcome: spec_api.Outcome) -> list[Problem]:
    relaid = {name for name, was in outcome.layout.items()  # strides or offset changed (t_, as_strided_, set_)
              if isinstance(outcome.args.get(name), torch.Tensor) and spec_api.layout(outcome.args[name]) != was}
    return [Problem("inplace", f"input {name}", "modified in place") for name, before in case.inputs.args.items()
            if mistakes._changed(before, outcome.args.get(name)) or name in relaid]


_EXPECTED: dict[tuple, list] = {}  # (kata, seed, case) -> the reference's accepted answers, decoded


def expected_of(kata: catalog.Kata, spec: Any, case: spec_api.Case, seed: int, position: int) -> list:
    """The reference's accepted answers on `case` (computed once per process), as the child would send them."""
    key = (kata.id, seed, case.name)
    if key not in _EXPECTED:
        reset_global_state(case.seed ^ position)
        inputs = copy.deepcopy(case.inputs)
        alternatives = accepted(kata, spec, reference_of(kata), inputs, CPU, lambda: reset_global_state(case.seed ^ position))
        _EXPECTED[key] = [mistakes.roundtrip(a) for a in alternatives]
    return _EXPECTED[key]


def judge_in_process(kata: catalog.Kata, entry: Any, seed: int, random_draws: int | None = None,
                     only_named: bool = False, words: bool = True) -> tuple[_Run, list[CaseResult]]:
    """(run, results) as the engine judges `entry` on the cases of `seed`: every case, or the named ones and the
    first `random_draws` of each random family (none with `only_named`). words=False: the verdicts and the kinds of
    problem only (compare.verdict_only), all the namer reads."""
    spec = spec_of(kata)
    every = shared_cases(spec, seed)  # read only: the reference gets a copy of each case's inputs, the entry of its args
    position = {c.name: i for i, c in enumerate(every)}
    cases = every
    if only_named or random_draws is not None:
        cases = sampled(every, 0 if only_named else random_draws)
    run = _Run(kata, spec, every, CPU, Path("learner.py"), Limits())
    call = getattr(spec, "call", spec_api.call)
    results = []
    for case in cases:
        i = position[case.name]
        alternatives = expected_of(kata, spec, case, seed, i)
        reset_global_state(case.seed ^ i)
        inputs = copy.copy(case.inputs)
        inputs.args = copy.deepcopy(case.inputs.args)
        try:
            outcome = call(kata, entry, inputs, CPU, track_device=case.family.track_device)
        except DeviceProblem as exc:  # what a real GPU would reject: a wrong answer, as the child reports it
            results.append(CaseResult(case.name, case.family.name, "", Status.FAIL,
                                      (Problem("device", "", exc.problem),)))
            continue
        except Exception as exc:  # noqa: BLE001 — the learner's crash: an ERROR, and evidence for the namer
            results.append(CaseResult(case.name, case.family.name, "", Status.ERROR,
                                      error=LearnerError(type(exc).__name__, str(exc))))
            continue
        got = mistakes.roundtrip(outcome)
        run.expected[case.name], run.got[case.name] = alternatives, got
        with contextlib.nullcontext() if words else verdict_only():
            problems = run._compare_all(case, alternatives, got) + _inplace(case, outcome)
        results.append(CaseResult(case.name, case.family.name, "", Status.FAIL if problems else Status.PASS,
                                  tuple(problems)))
    return run, run._settle(results)  # several right conventions: judged under the nearest, as the engine does


def name_in_process(kata: catalog.Kata, entry: Any, seed: int, random_draws: int | None = DRAWS,
                    variants: tuple | None = None) -> tuple[str | None, list[CaseResult]]:
    """The key the check would name `entry` by on `seed` (None: no name), and the results it judged. `variants`
    replaces the spec's MISTAKES (a test of the rule itself)."""
    named, results, _ = _name(kata, entry, seed, random_draws, variants, None)
    return named, results


def name_written_out(kata: catalog.Kata, entry: Any, fn: Any, seed: int, random_draws: int | None = DRAWS,
                     at_least: int = 12) -> tuple[str | None, list[CaseResult], list[str]]:
    """`name_in_process` for `entry`, a known mistake `fn` written out as a learner's file (`kata demo`), and the
    cases on which the file does not compute what `fn` computes: a different answer, or a different exception. Compared
    on every case the naming ran `fn` on (the failing cases it examined and the passing ones it held `fn` to), and on
    the run's first cases until `at_least` are compared."""
    return _name(kata, entry, seed, random_draws, None, (fn, at_least))


def _name(kata, entry, seed, random_draws, variants, compare) -> tuple[str | None, list[CaseResult], list[str]]:
    run, results = judge_in_process(kata, entry, seed, random_draws=random_draws, words=False)
    differ: list[str] = []
    try:
        if variants is not None:
            run.spec = _With(run.spec, tuple(variants))
        with _remembered_attempts():
            index = mistakes.choose(run, results)
            if compare is not None:
                differ = _disagreements(run, results, *compare)
    finally:
        run.cleanup()
    return (None if index is None else run.spec.MISTAKES[index].key), results, differ


def _disagreements(run: _Run, results: list[CaseResult], fn: Any, at_least: int) -> list[str]:
    """The judged cases where the learner's answers (run.got; a crash: its exception type) are not `fn`'s."""
    position = {c.name: i for i, c in enumerate(run.cases)}
    cases = {c.name: c for c in run.cases}
    ran = _ATTEMPTS.get((run.kata.id, run.cases[0].seed), {})
    attempted = {key[0] for key in ran if key[2] is fn}
    judged = [r for r in results if r.name in cases]
    chosen = [r for r in judged if r.name in attempted]
    chosen += [r for r in judged if r.name not in attempted][:max(0, at_least - len(chosen))]
    differ = []
    for r in chosen:
        case = cases[r.name]
        outcome, _, error = mistakes._attempt(run, fn, case, position[case.name])
        if outcome is None or r.name not in run.got:
            mine = r.error.type if r.error is not None else (
                "DeviceProblem" if any(p.kind == "device" for p in r.problems) else "an answer")
            if (error or "an answer") != mine:
                differ.append(f"{r.name}: the variant gives {error or 'an answer'}, the file {mine}")
            continue
        mine = run.got[r.name]
        if not close(outcome.value, mine.value) or not all(
                close(v, mine.extras.get(k)) for k, v in outcome.extras.items() if _computed(v)):
            differ.append(f"{r.name}: the variant and the file give different answers")
    return differ


def _computed(value: Any) -> bool:
    """An extra the function computed (a tensor, a flag, a tuple of them), not a diagnosis in words: those name the
    line of the file that did it (a device problem, a float64 made at, the guards' findings), which differs between the
    variant's module and the file written from it."""
    if isinstance(value, (list, tuple)):
        return all(_computed(v) for v in value)
    return value is None or isinstance(value, (codec.TensorValue, bool, int, float))


def close(a: Any, b: Any) -> bool:
    """`same`, or equal within float rounding where two runs of one function may round differently (NaN equal to NaN)."""
    if isinstance(a, codec.TensorValue) and isinstance(b, codec.TensorValue):  # an answer as the parent decodes it
        return (a.dtype, a.shape, a.device, a.requires_grad) == (b.dtype, b.shape, b.device, b.requires_grad) and (
            a.data is None and b.data is None or close(a.data, b.data))
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.device.type == "meta" or torch.equal(a, b):
            return True
        return a.dtype.is_floating_point and torch.allclose(a, b, equal_nan=True)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    return same(a, b)


# (kata, seed) -> {(case, position, variant, device, the answers the case is judged against): [_attempt's result, its
# verdict (mistakes._wrong) once asked]}
_ATTEMPTS: dict[tuple, dict] = {}


@contextlib.contextmanager
def _remembered_attempts():
    """mistakes._attempt and mistakes._wrong, each variant run and judged once per case and seed in this process.

    The suite names thousands of files on the same two seeds, and each naming runs every known mistake on the cases
    that file fails and passes: the same variant on the same case over and over (most of the namer's tests' time; a
    Triton kata's variant is a whole kernel under the interpreter). A variant's answer depends only on the case, its
    position in the run (the global random state the child is reset to), the device, and what _attempt reads of the
    run besides: whether the case has the reference's answers kept, and which (a spec's compare hook finds writes
    into a cache); its verdict, on the answer and those answers. Each caller gets its own copy of the outcome."""
    plain_attempt, plain_wrong = mistakes._attempt, mistakes._wrong
    handed: dict[int, tuple] = {}  # id(outcome copy handed out) -> (its entry, the copy), while this naming runs

    def remembered(run: Any, fn: Any, case: spec_api.Case, position: int) -> tuple:
        kept = run.expected.get(case.name)
        key = (case.name, position, fn, str(run.device),
               None if kept is None else tuple((id(a), a.convention) for a in kept))
        group = _ATTEMPTS.setdefault((run.kata.id, case.seed), {})
        if key not in group:
            group[key] = [plain_attempt(run, fn, case, position), None]
            while len(_ATTEMPTS) > 4:  # one kata's seeds together: a few kept, not every kata's
                _ATTEMPTS.pop(next(iter(_ATTEMPTS)))
        entry = group[key]
        copied = copy.deepcopy(entry[0])
        if copied[0] is not None:
            handed[id(copied[0])] = (entry, copied[0])  # the copy kept alive: its id is not reused meanwhile
        return copied

    def wrong(run: Any, case: spec_api.Case, outcome: Any) -> bool:
        found = handed.get(id(outcome))
        if found is None or found[1] is not outcome:
            return plain_wrong(run, case, outcome)
        entry = found[0]
        if entry[1] is None:
            entry[1] = plain_wrong(run, case, outcome)
        return entry[1]

    mistakes._attempt, mistakes._wrong = remembered, wrong
    try:
        yield
    finally:
        mistakes._attempt, mistakes._wrong = plain_attempt, plain_wrong


class _With:
    """A spec with other MISTAKES, everything else its own."""

    def __init__(self, spec: Any, variants: tuple) -> None:
        self._spec, self.MISTAKES = spec, variants

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spec, name)


# ---------------------------------------------------------------- the named cases alone (coverage)

_NAMED: dict[tuple, list] = {}  # (kata, seed) -> [(named case, its position in the run)]


def named_cases(spec: Any, seed: int) -> list[tuple[spec_api.Case, int]]:
    """`seed`'s named cases, without its random draws, each with its position among all the run's cases. Each case is
    drawn from a generator of its own (spec.case_seed(seed, name)), so these are the very cases a check of `seed`
    runs. Drawn once per process and never copied: the reference gets a copy of a case's inputs, attempt() a copy
    of its arguments, so nothing writes into them."""
    key = (spec.__name__, seed)
    if key not in _NAMED:
        position = {name: i for i, name in enumerate(spec_api.case_names(spec))}
        named = [case for family in spec.FAMILIES if not family.name.startswith("random")
                 for case in spec_api.build_cases(spec, seed, family.name)]
        _NAMED[key] = [(case, position[case.name]) for case in named]
    return _NAMED[key]


def first_failing_named_case(kata: catalog.Kata, fn: Any, seed: int) -> str | None:
    """The first named (not random) case of `seed` that `fn` fails, or None. A kata with several right conventions:
    None when `fn` passes every named case under one of them (a hybrid fails some case under each)."""
    spec = spec_of(kata)
    named = named_cases(spec, seed)
    run = _Run(kata, spec, [case for case, _ in named], CPU, Path("learner.py"), Limits())
    count = len(getattr(spec, "CONVENTIONS", ()))
    attempts: dict[str, tuple] = {}
    firsts = []
    try:
        for index in range(max(count, 1)):
            first = None
            for case, position in named:
                alternatives = expected_of(kata, spec, case, seed, position)
                run.expected[case.name] = [a for a in alternatives if a.convention == index] if count else alternatives
                if case.name not in attempts:
                    attempts[case.name] = mistakes.attempt(run, fn, case, position)
                outcome, modified = attempts[case.name]
                if outcome is None or modified or mistakes._wrong(run, case, outcome):
                    first = case.name
                    break
            if first is None:
                return None
            firsts.append(first)
    finally:
        run.cleanup()
    return firsts[0]


def same(a: Any, b: Any) -> bool:
    """Equal values, NaN equal to NaN: tensors, arrays, and containers of them."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if hasattr(a, "shape") and hasattr(a, "dtype"):  # a numpy array
        import numpy as np

        return np.array_equal(a, b, equal_nan=True)
    return a == b or a != a and b != b
