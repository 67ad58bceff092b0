"""Name the likely mistake: run a kata's known wrong variants on the failing cases and say which
one the learner's output matches ("This looks like: dones ignored in the recursion").
"""
from __future__ import annotations

import copy
import time
from dataclasses import replace
from typing import Any

import torch

from checker import spec as spec_api
from checker.codec import Opaque
from checker.compare import compare_outcome
from checker.results import CaseResult, Status
from checker.runner import decode_outcome
from checker.worker import serve

MAX_CASES = 4  # naming runs on the first few failing cases: enough to be right, cheap to run
SECONDS = 10.0


class _Raised:
    """Stands for a variant that raised on a case: it cannot match anything."""


def name_mistakes(run: Any, results: list[CaseResult]) -> list[CaseResult]:
    mistakes = getattr(run.spec, "MISTAKES", ())
    failing = [k for k, r in enumerate(results) if r.status is Status.FAIL and r.name in run.got][:MAX_CASES]
    if not mistakes or not failing:
        return results
    cases = {c.name: c for c in run.cases}
    chosen = [cases[results[k].name] for k in failing]

    def body(fd: int) -> None:
        def run_case(case: spec_api.Case) -> list[spec_api.Outcome]:
            device = torch.device("cpu") if case.device_independent else run.device
            return [_attempt(run.kata, run.spec, m.fn, case, device) for m in mistakes]

        serve(fd, run_case, chosen)

    stream = run.children.fork(body)
    run.children.collect([stream], time.monotonic() + SECONDS)
    outcomes = stream.by_case()

    results = list(results)
    for j, k in enumerate(failing):
        if j not in outcomes or "outcomes" not in outcomes[j][0]:
            continue
        header, buffers = outcomes[j]
        case = chosen[j]
        for mistake, node in zip(mistakes, header["outcomes"]):
            variant = decode_outcome(node, buffers)
            if isinstance(variant.value, Opaque):  # the variant raised on this case
                continue
            if not _problems(run, case, run.expected.get(case.name, []), variant):
                continue  # this variant is right on this case, so it cannot explain the failure
            if not _problems(run, case, [variant], run.got[case.name]):
                said = run.kata.text().mistakes.get(mistake.key)
                results[k] = replace(results[k], mistake=said.label if said else mistake.key,
                                     mistake_hint=said.fix if said else None)
                break
    return results


def _problems(run: Any, case: spec_api.Case, accepted: list[spec_api.Outcome], got: spec_api.Outcome) -> list:
    """What is wrong with `got` when `accepted` are the right answers, judged as the engine judges:
    the spec's own `compare` rule where it has one (a case whose answer is not the declared outputs,
    such as "__init__ raises"), else the generic comparison."""
    if not accepted:
        return ["no accepted answer"]
    hook = getattr(run.spec, "compare", None)
    custom = hook(run.kata, case, accepted, got) if hook is not None else None
    if custom is not None:
        return custom
    verdicts = [compare_outcome(run.kata, run.spec, case, right, got) for right in accepted]
    return [] if any(not v for v in verdicts) else verdicts[0]


def _attempt(kata: Any, spec: Any, fn: Any, case: spec_api.Case, device: torch.device) -> spec_api.Outcome:
    inputs = copy.copy(case.inputs)
    inputs.args = copy.deepcopy(case.inputs.args)  # a variant that writes into its inputs spoils no other
    try:
        return getattr(spec, "call", spec_api.call)(kata, fn, inputs, device)  # run as the learner's code is
    except Exception:  # noqa: BLE001 — a variant that cannot run this case names nothing
        return spec_api.Outcome(_Raised())
